// The lattice operations and transfers of every precis domain at 4, 16 and 64 variables
// (or predicates), through precis/bench/domain_ops.hpp: the domains with a transfer
// relation and top from their generic family, explicit values and Cartesian predicates
// from families of their own.
//
//   build/bench/precis_domain_ops_bench --benchmark_filter='zone/'
#include <precis/bench/domain_ops.hpp>
#include <precis/domains/box/box.hpp>
#include <precis/domains/congruence/interval_congruence.hpp>
#include <precis/domains/explicit/explicit_domain.hpp>
#include <precis/domains/relational/octagon.hpp>
#include <precis/domains/relational/zone.hpp>
#ifdef PRECIS_HAVE_PPL
#include <precis/domains/relational/polyhedra.hpp>
#endif
#ifdef PRECIS_HAVE_CVC5  // the predicate domain's header brings its abstractor's solver
#include <precis/domains/predicate/predicate_domain.hpp>
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

using precis::bench::DomainOpsFamily;

std::vector<precis::Term> variables(precis::ExprManager& em, std::size_t n) {
  std::vector<precis::Term> x;
  for (std::size_t i = 0; i < n; ++i) {
    std::string name = "x";
    name += std::to_string(i);
    x.push_back(em.var(em.declare(std::move(name), precis::Type::Int)));
  }
  return x;
}

// Explicit values: a binds x_i to i, b to i except every other variable, which it binds
// to i + 1 (join keeps half, leq scans all).
DomainOpsFamily<precis::ExplicitDomain> explicit_family(std::size_t n) {
  auto em = std::make_shared<precis::ExprManager>();
  const auto x = variables(*em, n);
  precis::ExplicitState a, b;
  for (std::size_t i = 0; i < n; ++i) {
    const auto v = static_cast<std::int64_t>(i);
    a.set(x[i].var(), v);
    b.set(x[i].var(), i % 2 == 0 ? v : v + 1);
  }
  return {em, precis::ExplicitDomain{}, std::move(a), std::move(b), precis::Skip{}, precis::Skip{}};
}

#ifdef PRECIS_HAVE_CVC5
// Cartesian predicates over n predicates x_i <= i: a has every literal positive, b the
// even ones positive and the odd ones negative (join keeps the even half).
DomainOpsFamily<precis::PredicateDomain> predicate_family(std::size_t n) {
  auto em = std::make_shared<precis::ExprManager>();
  const auto x = variables(*em, n);
  precis::Cube ca, cb;
  for (std::size_t i = 0; i < n; ++i) {
    const precis::Term p = em->le(x[i], em->int_val(static_cast<std::int64_t>(i)));
    ca.push_back({p, true});
    cb.push_back({p, i % 2 == 0});
  }
  std::sort(ca.begin(), ca.end());
  std::sort(cb.begin(), cb.end());
  return {em,
          precis::PredicateDomain{precis::AbstractionMode::Cartesian},
          precis::PredicateState::of_cube(std::move(ca)),
          precis::PredicateState::of_cube(std::move(cb)),
          precis::Skip{},
          precis::Skip{}};
}
#endif

}  // namespace

int main(int argc, char** argv) {
  precis::bench::register_domain_ops<precis::ExplicitDomain>("explicit", &explicit_family);
  precis::bench::register_domain_ops<precis::BoxDomain>("box");
  precis::bench::register_domain_ops<precis::IntervalCongruenceDomain>("interval-congruence");
  precis::bench::register_domain_ops<precis::ZoneDomain>("zone");
  precis::bench::register_domain_ops<precis::OctagonDomain>("octagon");
#ifdef PRECIS_HAVE_PPL
  precis::bench::register_domain_ops<precis::PolyhedraDomain>("polyhedra");
#endif
#ifdef PRECIS_HAVE_CVC5
  precis::bench::register_domain_ops<precis::PredicateDomain>("predicates-cartesian",
                                                              &predicate_family);
#endif
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
