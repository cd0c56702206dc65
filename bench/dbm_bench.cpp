// Zones and octagons: precis's own DBMs (domains/relational/dbm.hpp) against
// PPL's BD_Shape and Octagonal_Shape, on the operations the abstract interpreter and
// VINTA call per location: adding a constraint to a closed element (assume; the
// incremental closure), join, leq, an assignment x0 := x1 + 1, and the full closure of
// a fresh element. n variables in a chain x_i - x_{i+1} <= 1, 0 <= x_0 <= 100, for
// n = 4, 16, 64 (the growth: the closure is cubic, the rest quadratic).
//
//   build-bench/bench/precis_dbm_bench --benchmark_repetitions=3
//       (add --benchmark_report_aggregates_only=true for medians only)
//
// PPL's variants are built where PPL is found (PRECIS_HAVE_PPL), with exact integers
// (mpz_class) as PPL recommends for integer shapes.

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/domains/relational/octagon.hpp"
#include "precis/domains/relational/zone.hpp"
#include "precis/expr/term.hpp"

#ifdef PRECIS_HAVE_PPL
#include <ppl.hh>
#endif

namespace {

std::size_t arg_size(const benchmark::State& st) { return static_cast<std::size_t>(st.range(0)); }

struct Chain {
  precis::ExprManager em;
  std::vector<precis::VarId> vars;
  std::vector<precis::Term> chain;  // x_i - x_{i+1} <= 1 and the bounds of x_0
  explicit Chain(std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      std::string name = "x";
      name += std::to_string(i);
      vars.push_back(em.declare(std::move(name), precis::Type::Int));
    }
    for (std::size_t i = 0; i + 1 < n; ++i)
      chain.push_back(em.le(em.sub(x(i), x(i + 1)), em.int_val(1)));
    chain.push_back(em.le(em.int_val(0), x(0)));
    chain.push_back(em.le(x(0), em.int_val(100)));
  }
  precis::Term x(std::size_t i) { return em.var(vars[i]); }
  template <class D>
  typename D::element element(const D& d, std::int64_t shift = 0) {
    typename D::element e = d.top();
    for (precis::Term c : chain) e = d.assume(e, c);
    if (shift != 0) e = d.post(e, precis::Assign{vars[0], em.add(x(0), em.int_val(shift))});
    return e;
  }
};

template <class D>
void BM_OwnAssume(benchmark::State& st) {
  Chain c(arg_size(st));
  const D d;
  const auto e = c.element(d);
  const precis::Term extra = c.em.le(c.em.sub(c.x(arg_size(st) - 1), c.x(0)), c.em.int_val(5));
  for (auto _ : st) benchmark::DoNotOptimize(d.assume(e, extra));
}
template <class D>
void BM_OwnJoin(benchmark::State& st) {
  Chain c(arg_size(st));
  const D d;
  const auto a = c.element(d), b = c.element(d, 3);
  for (auto _ : st) benchmark::DoNotOptimize(d.join(a, b));
}
template <class D>
void BM_OwnLeq(benchmark::State& st) {
  Chain c(arg_size(st));
  const D d;
  const auto a = c.element(d), b = d.join(a, c.element(d, 3));
  for (auto _ : st) benchmark::DoNotOptimize(d.leq(a, b));
}
template <class D>
void BM_OwnAssign(benchmark::State& st) {
  Chain c(arg_size(st));
  const D d;
  const auto e = c.element(d);
  const precis::Operation op = precis::Assign{c.vars[0], c.em.add(c.x(1), c.em.int_val(1))};
  for (auto _ : st) benchmark::DoNotOptimize(d.post(e, op));
}
// The whole chain from top: n assumes, each an incremental closure.
template <class D>
void BM_OwnBuild(benchmark::State& st) {
  Chain c(arg_size(st));
  const D d;
  for (auto _ : st) benchmark::DoNotOptimize(c.element(d));
}

#ifdef PRECIS_HAVE_PPL
namespace ppl = Parma_Polyhedra_Library;

template <class Shape>
Shape ppl_chain(std::size_t n, std::int64_t shift = 0) {
  Shape s(n, ppl::UNIVERSE);
  for (std::size_t i = 0; i + 1 < n; ++i)
    s.add_constraint(ppl::Variable(i) - ppl::Variable(i + 1) <= 1);
  s.add_constraint(ppl::Variable(0) >= 0);
  s.add_constraint(ppl::Variable(0) <= 100);
  if (shift != 0) s.affine_image(ppl::Variable(0), ppl::Variable(0) + static_cast<long>(shift));
  (void)s.is_empty();  // closes it
  return s;
}
template <class Shape>
void BM_PplAssume(benchmark::State& st) {
  const std::size_t n = arg_size(st);
  const Shape e = ppl_chain<Shape>(n);
  for (auto _ : st) {
    Shape r = e;
    r.add_constraint(ppl::Variable(n - 1) - ppl::Variable(0) <= 5);
    benchmark::DoNotOptimize(r.is_empty());
  }
}
template <class Shape>
void BM_PplJoin(benchmark::State& st) {
  const std::size_t n = arg_size(st);
  const Shape a = ppl_chain<Shape>(n), b = ppl_chain<Shape>(n, 3);
  for (auto _ : st) {
    Shape r = a;
    r.upper_bound_assign(b);
    benchmark::DoNotOptimize(r.is_empty());
  }
}
template <class Shape>
void BM_PplLeq(benchmark::State& st) {
  const std::size_t n = arg_size(st);
  Shape b = ppl_chain<Shape>(n);
  b.upper_bound_assign(ppl_chain<Shape>(n, 3));
  const Shape a = ppl_chain<Shape>(n);
  for (auto _ : st) benchmark::DoNotOptimize(b.contains(a));
}
template <class Shape>
void BM_PplAssign(benchmark::State& st) {
  const std::size_t n = arg_size(st);
  const Shape e = ppl_chain<Shape>(n);
  for (auto _ : st) {
    Shape r = e;
    r.affine_image(ppl::Variable(0), ppl::Variable(1) + 1);
    benchmark::DoNotOptimize(r.is_empty());
  }
}
template <class Shape>
void BM_PplBuild(benchmark::State& st) {
  const std::size_t n = arg_size(st);
  for (auto _ : st) benchmark::DoNotOptimize(ppl_chain<Shape>(n));
}
using PplOctagon = ppl::Octagonal_Shape<mpz_class>;
using PplZone = ppl::BD_Shape<mpz_class>;
#endif

}  // namespace

#define PRECIS_DBM_BENCH(fn, T) BENCHMARK_TEMPLATE(fn, T)->Arg(4)->Arg(16)->Arg(64)

PRECIS_DBM_BENCH(BM_OwnAssume, precis::OctagonDomain);
PRECIS_DBM_BENCH(BM_OwnJoin, precis::OctagonDomain);
PRECIS_DBM_BENCH(BM_OwnLeq, precis::OctagonDomain);
PRECIS_DBM_BENCH(BM_OwnAssign, precis::OctagonDomain);
PRECIS_DBM_BENCH(BM_OwnBuild, precis::OctagonDomain);
PRECIS_DBM_BENCH(BM_OwnAssume, precis::ZoneDomain);
PRECIS_DBM_BENCH(BM_OwnJoin, precis::ZoneDomain);
PRECIS_DBM_BENCH(BM_OwnLeq, precis::ZoneDomain);
PRECIS_DBM_BENCH(BM_OwnAssign, precis::ZoneDomain);
PRECIS_DBM_BENCH(BM_OwnBuild, precis::ZoneDomain);
#ifdef PRECIS_HAVE_PPL
PRECIS_DBM_BENCH(BM_PplAssume, PplOctagon);
PRECIS_DBM_BENCH(BM_PplJoin, PplOctagon);
PRECIS_DBM_BENCH(BM_PplLeq, PplOctagon);
PRECIS_DBM_BENCH(BM_PplAssign, PplOctagon);
PRECIS_DBM_BENCH(BM_PplBuild, PplOctagon);
PRECIS_DBM_BENCH(BM_PplAssume, PplZone);
PRECIS_DBM_BENCH(BM_PplJoin, PplZone);
PRECIS_DBM_BENCH(BM_PplLeq, PplZone);
PRECIS_DBM_BENCH(BM_PplAssign, PplZone);
PRECIS_DBM_BENCH(BM_PplBuild, PplZone);
#endif

BENCHMARK_MAIN();
