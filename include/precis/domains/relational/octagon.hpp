#pragma once
// The octagon domain (Mine, "The octagon abstract domain", HOSC 2006): conjunctions of
// +-x +-y <= c over the integers, on a DBM of 2n nodes with the tight closure of integer
// octagons (dbm.hpp) and the transfer of dbm_domain.hpp. `ai-oct` and `vinta-oct` of
// precis-verify run it; cpa/domain_analysis.hpp puts it into the CPA algorithm.

#include "precis/domains/relational/dbm_domain.hpp"

namespace precis {

using Octagon = Dbm<dbm::OctagonShape>;
using OctagonDomain = DbmDomain<dbm::OctagonShape>;

static_assert(AbstractDomain<OctagonDomain> && HasWiden<OctagonDomain> && HasMeet<OctagonDomain> &&
              HasNarrow<OctagonDomain> && HasTop<OctagonDomain> && HashableDomain<OctagonDomain>);

}  // namespace precis
