#!/usr/bin/env bash
# Builds the benchmarks (Release, build-bench/) and runs them: the end-to-end suite
# (precis-suite over tests/models and tests/tasks/theta, CEGAR against the
# track-all baseline), then the explicit-domain microbenchmarks.
#
#   scripts/bench_suite.sh                 everything
#   TIMEOUT=30 JOBS=2 scripts/bench_suite.sh
#   ANALYSES=expl,pred-cart scripts/bench_suite.sh
#   SVCOMP=1 scripts/bench_suite.sh        also the SV-COMP tasks with Frama-C Eva beside
#                                          (needs the C front end and frama-c-base)
#
# Exit status: non-zero if the build fails or any verdict is wrong.
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=${JOBS:-1}          # the machines here are shared: one compile job by default
timeout=${TIMEOUT:-10}   # seconds per run; the bundled models take milliseconds
analyses=${ANALYSES:-expl}
theta=tests/tasks/theta

launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
frontend=OFF
targets=(precis-suite precis-verify precis_explicit_domain_bench)
if [[ "${SVCOMP:-0}" == 1 ]]; then
  frontend=ON
fi
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DPRECIS_BUILD_BENCH=ON \
  -DPRECIS_BUILD_TESTS=OFF -DPRECIS_WITH_C_FRONTEND="$frontend" "${launcher[@]}" </dev/null
cmake --build build-bench -j"$jobs" --target "${targets[@]}" </dev/null

echo
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "== precis-suite --analysis $analyses --baseline --timeout $timeout tests/models $theta"
status=0
./build-bench/bench/precis-suite --analysis "$analyses" --baseline --timeout "$timeout" \
  tests/models "$theta" || status=$?

if [[ "${SVCOMP:-0}" == 1 ]]; then
  echo
  echo "== precis-suite --analysis $analyses --frama-c --timeout $timeout tests/tasks/sv-comp"
  ./build-bench/bench/precis-suite --analysis "$analyses" --frama-c --timeout "$timeout" \
    tests/tasks/sv-comp || status=$?
fi

echo
echo "== microbenchmarks (median of 3 repetitions)"
./build-bench/bench/precis_explicit_domain_bench --benchmark_repetitions=3 \
  --benchmark_report_aggregates_only=true

exit "$status"
