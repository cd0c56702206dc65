// Microbenchmarks of the explicit-value domain (explicit-value paper, II-C): the lattice operations
// the CPA algorithm calls on every successor (leq for stop, join for merge), the strongest
// post of an assignment and of an assume, precision adjustment by restriction, and the
// interpolation of Alg. 3 / refinement of Alg. 4 on paths of growing length.
//
// State sizes are the number of variables with a known value (4, 16, 64); the
// target is leq and join on 16 variables under 20 ns.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "precis/cfa/builder.hpp"
#include "precis/cpa/local_precision.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/domains/explicit/explicit_domain.hpp"
#include "precis/domains/explicit/explicit_transfer.hpp"
#include "precis/refine/explicit_interpolation.hpp"

namespace {

// n integer variables v0..v(n-1) plus two spare ones (x, y) that the states leave
// unknown, so an assume over them has something to bind or leave undecided.
struct Fixture {
  std::shared_ptr<precis::ExprManager> em = std::make_shared<precis::ExprManager>();
  std::vector<precis::VarId> vars;
  precis::VarId x{};
  precis::VarId y{};

  explicit Fixture(std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      // Appended, not `"v" + to_string(i)`: GCC 12 warns falsely (-Wrestrict, PR 105329).
      std::string name = "v";
      name += std::to_string(i);
      vars.push_back(em->declare(std::move(name), precis::Type::Int));
    }
    x = em->declare("x", precis::Type::Int);
    y = em->declare("y", precis::Type::Int);
  }
  // Every vi = i.
  [[nodiscard]] precis::ExplicitState full_state() const {
    precis::ExplicitState s;
    for (std::size_t i = 0; i < vars.size(); ++i) s.set(vars[i], static_cast<std::int64_t>(i));
    return s;
  }
};

std::size_t arg_size(const benchmark::State& st) { return static_cast<std::size_t>(st.range(0)); }

// ---- lattice operations ----------------------------------------------------------------

// leq on equal states: the full scan, the common case of a stop check that succeeds.
void BM_Leq_Equal(benchmark::State& st) {
  Fixture f(arg_size(st));
  precis::ExplicitDomain d;
  const auto a = f.full_state();
  const auto b = f.full_state();
  for (auto _ : st) {
    benchmark::DoNotOptimize(d.leq(a, b));
  }
}
// leq on states that differ only in the last variable: a full scan that fails at the end.
void BM_Leq_Differ(benchmark::State& st) {
  Fixture f(arg_size(st));
  precis::ExplicitDomain d;
  const auto a = f.full_state();
  auto b = f.full_state();
  b.set(f.vars.back(), std::int64_t{-1});
  for (auto _ : st) {
    benchmark::DoNotOptimize(d.leq(a, b));
  }
}
void BM_Join_Equal(benchmark::State& st) {
  Fixture f(arg_size(st));
  precis::ExplicitDomain d;
  const auto a = f.full_state();
  const auto b = f.full_state();
  for (auto _ : st) {
    auto j = d.join(a, b);
    benchmark::DoNotOptimize(j);
  }
}
// Every other variable differs: the join keeps half of the bindings.
void BM_Join_Differ(benchmark::State& st) {
  Fixture f(arg_size(st));
  precis::ExplicitDomain d;
  const auto a = f.full_state();
  auto b = f.full_state();
  for (std::size_t i = 0; i < f.vars.size(); i += 2) b.set(f.vars[i], std::int64_t{-1});
  for (auto _ : st) {
    auto j = d.join(a, b);
    benchmark::DoNotOptimize(j);
  }
}

// ---- transfer ----------------------------------------------------------------------------

// v0 := v0 + v(n-1): copy of the state, evaluation, update in place.
void BM_Post_Assign(benchmark::State& st) {
  Fixture f(arg_size(st));
  auto& e = *f.em;
  const precis::Operation op =
      precis::Assign{f.vars[0], e.add(e.var(f.vars[0]), e.var(f.vars.back()))};
  const auto s = f.full_state();
  for (auto _ : st) {
    auto r = precis::explicit_post(s, op);
    benchmark::DoNotOptimize(r);
  }
}
// assume x = v0 + 1 with x unknown: the assume binds x (section II-C, one satisfying value).
void BM_Post_AssumeBinds(benchmark::State& st) {
  Fixture f(arg_size(st));
  auto& e = *f.em;
  const precis::Operation op =
      precis::Assume{e.eq(e.var(f.x), e.add(e.var(f.vars[0]), e.int_val(1)))};
  const auto s = f.full_state();
  for (auto _ : st) {
    auto r = precis::explicit_post(s, op);
    benchmark::DoNotOptimize(r);
  }
}
// assume x < y /\ y < v0 with x, y unknown: undecided, nothing to bind, state unchanged.
void BM_Post_AssumeUndecided(benchmark::State& st) {
  Fixture f(arg_size(st));
  auto& e = *f.em;
  const precis::Operation op =
      precis::Assume{e.and_(e.lt(e.var(f.x), e.var(f.y)), e.lt(e.var(f.y), e.var(f.vars[0])))};
  const auto s = f.full_state();
  for (auto _ : st) {
    auto r = precis::explicit_post(s, op);
    benchmark::DoNotOptimize(r);
  }
}

// ---- precision adjustment ---------------------------------------------------------------

// The CFA the analysis needs for its LocalPrecision: one edge, two locations.
precis::Cfa tiny_cfa(const std::shared_ptr<precis::ExprManager>& em) {
  precis::CfaBuilder b(em);
  b.edge("L0", "L1", precis::Skip{});
  b.initial("L0");
  return std::move(b).build();
}

// ExplicitAnalysis::adjust at a location that tracks every other variable (v|pi, III-A).
void BM_Adjust_Half(benchmark::State& st) {
  Fixture f(arg_size(st));
  const precis::Cfa cfa = tiny_cfa(f.em);
  const precis::ExplicitAnalysis analysis(cfa);
  auto pi = analysis.initial_precision(precis::Granularity::Location);
  const precis::Loc loc = 1;
  precis::VariableSet tracked;
  for (std::size_t i = 0; i < f.vars.size(); i += 2) tracked.insert(f.vars[i]);
  pi.add(loc, tracked, cfa.exprs());
  const auto s = f.full_state();
  for (auto _ : st) {
    auto r = analysis.adjust(s, pi, loc);
    benchmark::DoNotOptimize(r);
  }
}
// The same with the track-all precision of the baseline: a copy and nothing else.
void BM_Adjust_All(benchmark::State& st) {
  Fixture f(arg_size(st));
  const precis::Cfa cfa = tiny_cfa(f.em);
  const precis::ExplicitAnalysis analysis(cfa);
  const auto pi = analysis.full_precision();
  const auto s = f.full_state();
  for (auto _ : st) {
    auto r = analysis.adjust(s, pi, 1);
    benchmark::DoNotOptimize(r);
  }
}

// ---- interpolation and refinement -------------------------------------------------------

// An infeasible path of n steps shaped like an unrolled loop:
//   c := 0; z := 0; (c := c + 1; z := z + c; assume c < 10^9)* ; assume c /= k
// where k is the final value of c. The contradiction needs c at every step and never z,
// so each Interpolate (Alg. 3) keeps one variable and drops one, and Refine (Alg. 4)
// interpolates at every step: O(n^2) posts in all, as on a real loop counter.
struct LoopPath {
  precis::ExprManager em;
  std::vector<precis::Operation> ops;

  explicit LoopPath(std::size_t n) {
    const auto c = em.declare("c", precis::Type::Int);
    const auto z = em.declare("z", precis::Type::Int);
    const auto tc = em.var(c);
    const auto tz = em.var(z);
    ops.emplace_back(precis::Assign{c, em.int_val(0)});
    ops.emplace_back(precis::Assign{z, em.int_val(0)});
    std::int64_t k = 0;
    for (std::size_t i = 0; ops.size() + 1 < n; ++i) {
      switch (i % 3) {
        case 0:
          ops.emplace_back(precis::Assign{c, em.add(tc, em.int_val(1))});
          ++k;
          break;
        case 1: ops.emplace_back(precis::Assign{z, em.add(tz, tc)}); break;
        default: ops.emplace_back(precis::Assume{em.lt(tc, em.int_val(1'000'000'000))}); break;
      }
    }
    ops.emplace_back(precis::Assume{em.neq(tc, em.int_val(k))});
  }
};

// Alg. 3 once: the interpolant after the first two steps against the rest of the path.
void BM_Interpolate(benchmark::State& st) {
  const LoopPath p(arg_size(st));
  const std::span<const precis::Operation> ops(p.ops);
  const auto prefix_state = precis::explicit_post_all(precis::ExplicitState{}, ops.first(2));
  for (auto _ : st) {
    auto itp = precis::explicit_interpolate(prefix_state, ops.subspan(2));
    benchmark::DoNotOptimize(itp);
  }
}
// Alg. 4: the whole interpolant sequence and the precision increments.
void BM_Refine(benchmark::State& st) {
  const LoopPath p(arg_size(st));
  const std::span<const precis::Operation> ops(p.ops);
  for (auto _ : st) {
    auto itps = precis::explicit_interpolants(ops);
    if (!itps.infeasible) st.SkipWithError("the benchmark path is feasible");
    auto inc = precis::explicit_refine(itps);
    benchmark::DoNotOptimize(inc);
  }
}

}  // namespace

BENCHMARK(BM_Leq_Equal)->Arg(4)->Arg(16)->Arg(64);
BENCHMARK(BM_Leq_Differ)->Arg(4)->Arg(16)->Arg(64);
BENCHMARK(BM_Join_Equal)->Arg(4)->Arg(16)->Arg(64);
BENCHMARK(BM_Join_Differ)->Arg(4)->Arg(16)->Arg(64);
BENCHMARK(BM_Post_Assign)->Arg(4)->Arg(16)->Arg(64);
BENCHMARK(BM_Post_AssumeBinds)->Arg(4)->Arg(16)->Arg(64);
BENCHMARK(BM_Post_AssumeUndecided)->Arg(4)->Arg(16)->Arg(64);
BENCHMARK(BM_Adjust_Half)->Arg(4)->Arg(16)->Arg(64);
BENCHMARK(BM_Adjust_All)->Arg(4)->Arg(16)->Arg(64);
BENCHMARK(BM_Interpolate)->Arg(10)->Arg(100)->Arg(1000);
BENCHMARK(BM_Refine)->Arg(10)->Arg(100)->Arg(1000)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
