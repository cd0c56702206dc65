// A loop that counts a variable to N and checks it afterwards: the work is N
// explicit states at the loop head, so the cost of CEGAR<Expl> must grow linearly in N.
// Stop-sep used to scan every reached state at the loop head (O(N^2)); the reached set's
// hash index (cpa/reached_set.hpp) answers it with one lookup per state.
//
//   build-bench/bench/precis_counting_loop_bench --benchmark_repetitions=3
//
// Reported per N: CPU time of one whole run (CFA built outside the timing), ARG nodes.

#include <benchmark/benchmark.h>

#include <cstdint>

#include "precis/algorithms/cegar.hpp"
#include "precis/cfa/builder.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/refine/explicit_refiner.hpp"

namespace {

// L0 -x:=0-> L1; L1 -[x < N] x := x + 1-> L1; L1 -[x >= N]-> L2; L2 -[x /= N]-> ERR.
precis::Cfa counting_loop(std::int64_t n) {
  precis::CfaBuilder b;
  auto x = b.int_var("x");
  auto& em = b.exprs();
  const auto X = em.var(x);
  const auto N = em.int_val(n);
  const auto l0 = b.location("L0"), l1 = b.location("L1"), body = b.location("B");
  const auto l2 = b.location("L2"), end = b.location("END"), err = b.location("ERR");
  b.edge(l0, l1, precis::Assign{x, em.int_val(0)});
  b.edge(l1, body, precis::Assume{em.lt(X, N)});
  b.edge(body, l1, precis::Assign{x, em.add(X, em.int_val(1))});
  b.edge(l1, l2, precis::Assume{em.ge(X, N)});
  b.edge(l2, err, precis::Assume{em.neq(X, N)});
  b.edge(l2, end, precis::Assume{em.eq(X, N)});
  b.initial(l0);
  b.error(err);
  b.final_(end);
  return std::move(b).build();
}

void BM_CountingLoop(benchmark::State& state) {
  const precis::Cfa cfa = counting_loop(state.range(0));
  std::size_t nodes = 0;
  for (auto _ : state) {
    precis::CEGAR<precis::Expl> cegar{cfa};
    auto r = cegar.run();
    if (r.verdict != precis::Verdict::Safe) state.SkipWithError("not SAFE");
    nodes = r.stats.arg_nodes;
    benchmark::DoNotOptimize(nodes);
  }
  state.counters["arg_nodes"] = static_cast<double>(nodes);
  state.counters["ns_per_node"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
}
BENCHMARK(BM_CountingLoop)
    ->Arg(10'000)
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
