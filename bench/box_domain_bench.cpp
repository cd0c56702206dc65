// Microbenchmarks of the Box and Boxes domains (VINTA paper, section 5): the lattice operations
// VINTA's ExpandArg calls on every node (join over the predecessors, leq for the
// abstract side of covering) and the abstract post of an assignment and of a linear
// assume, on boxes of 10, 100 and 1000 variables; Boxes join with 1..64 disjuncts.
//
// To register it, add to bench/CMakeLists.txt after the explicit-domain benchmark (inside
// the `benchmark_FOUND` part):
//
//   add_executable(precis_box_domain_bench box_domain_bench.cpp)
//   target_link_libraries(precis_box_domain_bench PRIVATE precis::precis benchmark::benchmark)
//   precis_target_options(precis_box_domain_bench)
//   if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
//     target_compile_options(precis_box_domain_bench PRIVATE -Wno-error=stringop-overread)
//   endif()

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/domains/box/box.hpp"
#include "precis/domains/box/boxes.hpp"
#include "precis/domains/box/interval.hpp"
#include "precis/expr/term.hpp"

namespace {

// n integer variables v0..v(n-1).
struct Fixture {
  precis::ExprManager em;
  std::vector<precis::VarId> vars;

  explicit Fixture(std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      // Appended, not `"v" + to_string(i)`: GCC 12 warns falsely (-Wrestrict, PR 105329).
      std::string name = "v";
      name += std::to_string(i);
      vars.push_back(em.declare(std::move(name), precis::Type::Int));
    }
  }
  // Every vi in [i, i + width].
  [[nodiscard]] precis::Box box(std::int64_t width) const {
    precis::Box b;
    for (std::size_t i = 0; i < vars.size(); ++i) {
      const auto lo = static_cast<std::int64_t>(i);
      b.set(vars[i], precis::Interval(lo, lo + width));
    }
    return b;
  }
};

std::size_t arg_size(const benchmark::State& st) { return static_cast<std::size_t>(st.range(0)); }

// ---- Box -------------------------------------------------------------------------------

// leq of a box below another on every variable: the full scan of a successful check.
void BM_BoxLeq(benchmark::State& st) {
  const Fixture f(arg_size(st));
  const precis::BoxDomain d;
  const auto a = f.box(1);
  const auto b = f.box(2);
  for (auto _ : st) benchmark::DoNotOptimize(d.leq(a, b));
}
void BM_BoxJoin(benchmark::State& st) {
  const Fixture f(arg_size(st));
  const precis::BoxDomain d;
  const auto a = f.box(1);
  const auto b = f.box(2);
  for (auto _ : st) benchmark::DoNotOptimize(d.join(a, b));
}
void BM_BoxWiden(benchmark::State& st) {
  const Fixture f(arg_size(st));
  const precis::BoxDomain d;
  const auto a = f.box(1);
  const auto b = f.box(2);
  for (auto _ : st) benchmark::DoNotOptimize(d.widen(a, b));
}
// v0 := v1 + 2 * v2 (copying the box dominates for large boxes, as it does in an ARG).
void BM_BoxPostAssign(benchmark::State& st) {
  Fixture f(arg_size(st));
  const precis::BoxDomain d;
  const auto s = f.box(3);
  auto& em = f.em;
  const precis::Operation op = precis::Assign{
      f.vars[0], em.add(em.var(f.vars[1]), em.mul(em.int_val(2), em.var(f.vars[2])))};
  for (auto _ : st) benchmark::DoNotOptimize(d.post(s, op));
}
// assume v0 + v1 <= v2 + 1 && v3 >= 4: linear propagation over a conjunction.
void BM_BoxPostAssume(benchmark::State& st) {
  Fixture f(arg_size(st));
  const precis::BoxDomain d;
  const auto s = f.box(10);
  auto& em = f.em;
  const precis::Term c1 =
      em.le(em.add(em.var(f.vars[0]), em.var(f.vars[1])), em.add(em.var(f.vars[2]), em.int_val(1)));
  const precis::Term c2 = em.ge(em.var(f.vars[3]), em.int_val(4));
  const precis::Operation op = precis::Assume{em.and_(c1, c2)};
  for (auto _ : st) benchmark::DoNotOptimize(d.post(s, op));
}

// ---- Boxes -----------------------------------------------------------------------------

// Two disjunctions of k boxes over 10 variables, pairwise incomparable (disjoint in v0),
// the second shifted so that half of its boxes are new: join runs the subsumption check
// of every incoming box against the growing list.
void BM_BoxesJoin(benchmark::State& st) {
  const auto k = static_cast<std::int64_t>(st.range(0));
  const Fixture f(10);
  const precis::BoxesDomain d{precis::BoxDomain{}, 256};
  std::vector<precis::Box> xs;
  std::vector<precis::Box> ys;
  for (std::int64_t i = 0; i < k; ++i) {
    precis::Box a = f.box(1);
    a.set(f.vars[0], precis::Interval::constant(10 * i));
    xs.push_back(a);
    a.set(f.vars[0], precis::Interval::constant(10 * i + 5 * (i % 2)));
    ys.push_back(a);
  }
  const auto a = d.make(xs);
  const auto b = d.make(ys);
  for (auto _ : st) benchmark::DoNotOptimize(d.join(a, b));
}
void BM_BoxesLeq(benchmark::State& st) {
  const auto k = static_cast<std::int64_t>(st.range(0));
  const Fixture f(10);
  const precis::BoxesDomain d{precis::BoxDomain{}, 256};
  std::vector<precis::Box> xs;
  for (std::int64_t i = 0; i < k; ++i) {
    precis::Box a = f.box(1);
    a.set(f.vars[0], precis::Interval::constant(10 * i));
    xs.push_back(a);
  }
  const auto a = d.make(xs);
  for (auto _ : st) benchmark::DoNotOptimize(d.leq(a, a));
}

}  // namespace

BENCHMARK(BM_BoxLeq)->Arg(10)->Arg(100)->Arg(1000);
BENCHMARK(BM_BoxJoin)->Arg(10)->Arg(100)->Arg(1000);
BENCHMARK(BM_BoxWiden)->Arg(10)->Arg(100)->Arg(1000);
BENCHMARK(BM_BoxPostAssign)->Arg(10)->Arg(100)->Arg(1000);
BENCHMARK(BM_BoxPostAssume)->Arg(10)->Arg(100)->Arg(1000);
BENCHMARK(BM_BoxesJoin)->RangeMultiplier(2)->Range(1, 64);
BENCHMARK(BM_BoxesLeq)->RangeMultiplier(2)->Range(1, 64);

BENCHMARK_MAIN();
