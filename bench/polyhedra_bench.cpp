// Microbenchmarks of the polyhedra domain on PPL (issue 24): join (convex hull), leq
// (inclusion), assume of a linear constraint and the affine image of an assignment, on
// n = 4, 16, 64 variables related by a chain of difference constraints
// x_i - x_(i+1) <= c, so the growth with n is visible; and the join of two boxes of n
// bounded variables (n = 4, 8, 12), the worst case of the double description (2^n
// vertices: 0.1 ms, 12 ms, 2 s).
// BM_PolyWiden's second argument: 0 for H79, 1 for BHRZ03.
// Elements are built once; each iteration copies its operands, as the analyses do, and
// the copies keep PPL's cached constraint and generator systems.

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/domains/relational/polyhedra.hpp"
#include "precis/expr/term.hpp"

namespace {

struct Fixture {
  precis::ExprManager em;
  std::vector<precis::VarId> vars;
  std::vector<precis::Term> x;
  precis::PolyhedraDomain d;

  explicit Fixture(std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      std::string name = "x";
      name += std::to_string(i);
      vars.push_back(em.declare(std::move(name), precis::Type::Int));
      x.push_back(em.var(vars.back()));
    }
  }
  // x_i - x_(i+1) <= c for every i, and x_0 in [lo, hi].
  precis::Poly chain(std::int64_t c, std::int64_t lo, std::int64_t hi) {
    std::vector<precis::Term> conj{em.le(em.int_val(lo), x[0]), em.le(x[0], em.int_val(hi))};
    for (std::size_t i = 0; i + 1 < x.size(); ++i)
      conj.push_back(em.le(em.sub(x[i], x[i + 1]), em.int_val(c)));
    return d.assume(d.top(), em.conj(conj));
  }
  // Every x_i in [lo, lo + i + 1].
  precis::Poly box(std::int64_t lo) {
    std::vector<precis::Term> conj;
    for (std::size_t i = 0; i < x.size(); ++i) {
      conj.push_back(em.le(em.int_val(lo), x[i]));
      conj.push_back(em.le(x[i], em.int_val(lo + static_cast<std::int64_t>(i) + 1)));
    }
    return d.assume(d.top(), em.conj(conj));
  }
};

std::size_t arg_size(const benchmark::State& st) { return static_cast<std::size_t>(st.range(0)); }

void BM_PolyJoin(benchmark::State& st) {
  Fixture f(arg_size(st));
  const auto a = f.chain(1, 0, 0);
  const auto b = f.chain(2, 5, 10);
  for (auto _ : st) benchmark::DoNotOptimize(f.d.join(a, b));
}
void BM_PolyLeq(benchmark::State& st) {
  Fixture f(arg_size(st));
  const auto a = f.chain(1, 0, 0);
  const auto b = f.chain(2, -1, 10);
  for (auto _ : st) benchmark::DoNotOptimize(f.d.leq(a, b));
}
void BM_PolyAssume(benchmark::State& st) {
  Fixture f(arg_size(st));
  const auto a = f.chain(1, 0, 10);
  const precis::Term cond = f.em.ge(f.em.sub(f.x.front(), f.x.back()),
                                    f.em.int_val(-static_cast<std::int64_t>(f.x.size())));
  for (auto _ : st) benchmark::DoNotOptimize(f.d.assume(a, cond));
}
void BM_PolyAffineImage(benchmark::State& st) {
  Fixture f(arg_size(st));
  const auto a = f.chain(1, 0, 10);
  const std::size_t m = f.x.size() / 2;
  const precis::Operation op =
      precis::Assign{f.vars[m], f.em.add(f.x[m], f.em.add(f.x[0], f.em.int_val(1)))};
  for (auto _ : st) benchmark::DoNotOptimize(f.d.post(a, op));
}
void BM_PolyWiden(benchmark::State& st) {
  Fixture f(arg_size(st));
  if (st.range(1) != 0) f.d = precis::PolyhedraDomain({}, precis::PolyhedraWidening::BHRZ03);
  const auto a = f.chain(1, 0, 0);
  const auto b = f.d.join(a, f.chain(1, 0, 1));
  for (auto _ : st) benchmark::DoNotOptimize(f.d.widen(a, b));
}
void BM_PolyJoinBox(benchmark::State& st) {
  Fixture f(arg_size(st));
  const auto a = f.box(0);
  const auto b = f.box(3);
  for (auto _ : st) benchmark::DoNotOptimize(f.d.join(a, b));
}

}  // namespace

BENCHMARK(BM_PolyJoin)->Arg(4)->Arg(16)->Arg(64);
BENCHMARK(BM_PolyLeq)->Arg(4)->Arg(16)->Arg(64);
BENCHMARK(BM_PolyAssume)->Arg(4)->Arg(16)->Arg(64);
BENCHMARK(BM_PolyAffineImage)->Arg(4)->Arg(16)->Arg(64);
BENCHMARK(BM_PolyWiden)->ArgsProduct({{4, 16, 64}, {0, 1}});  // H79, BHRZ03
// n = 16 takes minutes per join: 2^16 vertices on each side.
BENCHMARK(BM_PolyJoinBox)->Arg(4)->Arg(8)->Arg(12)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
