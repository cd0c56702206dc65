// Translation time of the C front end (parse + AST walk + cleanup) on sv-comp tasks;
// the target is the largest task (about 600-740 lines) under 50 ms.

#include <benchmark/benchmark.h>

#include <string>

#include "precis/frontends/c/c_frontend.hpp"

namespace {

void translate(benchmark::State& state, const std::string& rel) {
  const std::string path = std::string(PRECIS_SV_COMP_DIR) + "/" + rel;
  std::size_t edges = 0;
  for (auto _ : state) {
    precis::Cfa cfa = precis::c::translate_file(path);
    edges = cfa.num_edges();
    benchmark::DoNotOptimize(edges);
  }
  state.counters["edges"] = static_cast<double>(edges);
}

}  // namespace

BENCHMARK_CAPTURE(translate, token_ring_03_cil_1, std::string("systemc/token_ring.03.cil-1.c"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(translate, token_ring_02_cil_1, std::string("systemc/token_ring.02.cil-1.c"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(translate, eca_Problem01_label00, std::string("eca-rers2012/Problem01_label00.c"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(translate, kbfiltr_simpl1,
                  std::string("ntdrivers-simplified/kbfiltr_simpl1.cil.c"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(translate, sum04_1_with_assert_h, std::string("loops/sum04-1.c"))
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
