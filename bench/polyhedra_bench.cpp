// Microbenchmarks of the polyhedra domain on PPL: join, leq, assume and the
// affine image of an assignment, on n = 4, 16, 64 variables related by a chain of
// difference constraints x_i - x_(i+1) <= c, so the growth with n is visible; and the
// exponential cases of the double description, 2^n vertices: the join of two boxes of n
// bounded variables (as intervals now, see polyhedra.hpp; BM_PolyJoinBoxExact is the
// box as one polyhedron: 0.1 ms, 12 ms, 2 s for n = 4, 8, 12) and the join of two
// skewed cubes 0 <= x_i - x_(i-1) <= 1 (every variable related).
// BM_PolyWiden's second argument: 0 for H79, 1 for BHRZ03.
// BM_PolyJoinSkewed's second argument: 1 runs under a deadline (an hour away), so PPL
// polls the clock (ppl_limits.hpp): the difference to 0 is the cost of the time limit
// inside PPL. Its counters: the rows (constraints + generators) of the result, and the
// polls per join.
// Elements are built once; each iteration copies its operands, as the analyses do, and
// the copies keep PPL's cached constraint and generator systems.
//
// Measured (2-core AMD EPYC VM, shared with other builds; CPU time, median of 3):
//   deadline overhead, skewed join n = 6 / 8 / 10 (rows 131 / 515 / 2051):
//     within the noise of the machine (measured for commit 80a4cc1).
//   time per join against the rows of its result (the size limit's default, 2,000,
//   keeps one operation below about 0.1 s): rows 131: 0.5 ms, 515: 8 ms, 2051: 0.1 s.

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/domains/relational/polyhedra.hpp"
#include "precis/domains/relational/ppl_limits.hpp"
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
  // 0 <= x_0 - lo <= 1 and 0 <= x_i - x_(i-1) <= 1: 2^n vertices, all variables related.
  precis::Poly skewed(std::int64_t lo) {
    std::vector<precis::Term> conj{em.le(em.int_val(lo), x[0]), em.le(x[0], em.int_val(lo + 1))};
    for (std::size_t i = 1; i < x.size(); ++i) {
      conj.push_back(em.le(em.int_val(0), em.sub(x[i], x[i - 1])));
      conj.push_back(em.le(em.sub(x[i], x[i - 1]), em.int_val(1)));
    }
    return d.assume(d.top(), em.conj(conj));
  }
  static std::size_t rows(const precis::Poly& p) {
    const auto& cs = p.polyhedron().minimized_constraints();
    const auto& gs = p.polyhedron().minimized_generators();
    return static_cast<std::size_t>(std::distance(cs.begin(), cs.end()) +
                                    std::distance(gs.begin(), gs.end()));
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
// The same boxes as one polyhedron each (no size limit, so the join relates them).
void BM_PolyJoinBoxExact(benchmark::State& st) {
  Fixture f(arg_size(st));
  f.d.set_size_limit(0);
  const auto a = f.box(0);
  const auto b = f.box(3);
  for (auto _ : st) benchmark::DoNotOptimize(f.d.join(a, b));
}
void BM_PolyJoinSkewed(benchmark::State& st) {
  Fixture f(arg_size(st));
  f.d.set_size_limit(0);
  const auto a = f.skewed(0);
  const auto b = f.skewed(2);
  std::size_t rows = 0;
  std::uint64_t polls = 0;
  const precis::Deadline far{std::chrono::steady_clock::now() + std::chrono::hours(1),
                             "time limit"};
  for (auto _ : st) {
    if (st.range(1) == 0) {
      benchmark::DoNotOptimize(f.d.join(a, b));
      continue;
    }
    // The guard the domain installs under set_deadline, here outside it for its polls.
    const precis::PplDeadlineGuard guard(far);
    const precis::Poly j = f.d.join(a, b);
    benchmark::DoNotOptimize(j);
    polls += guard.polls();
    if (rows == 0) rows = f.rows(j);
  }
  if (rows == 0) rows = f.rows(f.d.join(a, b));
  st.counters["rows"] = static_cast<double>(rows);
  st.counters["polls"] =
      benchmark::Counter(static_cast<double>(polls), benchmark::Counter::kAvgIterations);
}

// One poll: what PPL's maybe_abandon() costs under a deadline (a virtual call, and a
// steady_clock read at every PplDeadlineGuard::kStride-th), and the clock read alone.
void BM_DeadlinePoll(benchmark::State& st) {
  const precis::Deadline far{std::chrono::steady_clock::now() + std::chrono::hours(1),
                             "time limit"};
  const precis::PplDeadlineGuard guard(far);
  const auto* t = Parma_Polyhedra_Library::abandon_expensive_computations;
  for (auto _ : st) t->throw_me();
}
void BM_DeadlineClock(benchmark::State& st) {
  const precis::Deadline far{std::chrono::steady_clock::now() + std::chrono::hours(1),
                             "time limit"};
  for (auto _ : st) benchmark::DoNotOptimize(far.passed());
}

}  // namespace

BENCHMARK(BM_DeadlinePoll);
BENCHMARK(BM_DeadlineClock);
BENCHMARK(BM_PolyJoin)->Arg(4)->Arg(16)->Arg(64);
BENCHMARK(BM_PolyLeq)->Arg(4)->Arg(16)->Arg(64);
BENCHMARK(BM_PolyAssume)->Arg(4)->Arg(16)->Arg(64);
BENCHMARK(BM_PolyAffineImage)->Arg(4)->Arg(16)->Arg(64);
BENCHMARK(BM_PolyWiden)->ArgsProduct({{4, 16, 64}, {0, 1}});  // H79, BHRZ03
BENCHMARK(BM_PolyJoinBox)->Arg(4)->Arg(8)->Arg(12)->Arg(16)->Unit(benchmark::kMillisecond);
// n = 16 takes minutes per join: 2^16 vertices on each side.
BENCHMARK(BM_PolyJoinBoxExact)->Arg(4)->Arg(8)->Arg(12)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PolyJoinSkewed)->ArgsProduct({{6, 8, 10}, {0, 1}})->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
