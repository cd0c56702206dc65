#pragma once
// The zone domain (difference-bound matrices, Dill 1989; Mine, "A new numerical abstract
// domain based on difference-bound matrices", PADO 2001): conjunctions of x - y <= c and
// +-x <= c over the integers, on a DBM of n + 1 nodes (dbm.hpp) with the transfer of
// dbm_domain.hpp. `ai-zone` of precis-verify runs it.

#include "precis/domains/relational/dbm_domain.hpp"

namespace precis {

using Zone = Dbm<dbm::ZoneShape>;
using ZoneDomain = DbmDomain<dbm::ZoneShape>;

static_assert(AbstractDomain<ZoneDomain> && HasWiden<ZoneDomain> && HasMeet<ZoneDomain> &&
              HasNarrow<ZoneDomain> && HasTop<ZoneDomain> && HashableDomain<ZoneDomain>);

}  // namespace precis
