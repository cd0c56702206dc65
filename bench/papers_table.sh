#!/usr/bin/env bash
# The papers' table (issue 14): every configuration of the five papers and the portfolio
# (`auto`) as columns, over every model and SV-COMP task of the repository and
# ../shared/models; solved, wrong, CPU time, the virtual best; and the quantile plot
# (CPU time against the number of tasks solved, one line per configuration).
#
#   bench/papers_table.sh                  build (Release, build-bench/), run, plot
#   TIMEOUT=60 bench/papers_table.sh       seconds per run (default 60)
#   OUT=bench/results bench/papers_table.sh
#
# Writes $OUT/papers_table.txt (precis-suite's table, notes and summary),
# $OUT/papers_table.csv (one row per task and configuration), $OUT/papers_summary.md
# and $OUT/quantile.svg (bench/quantile_plot.py, gnuplot). Needs the C front end (clang
# 14) and cvc5; gnuplot for the plot. Exit status: non-zero on a wrong verdict.
set -euo pipefail
cd "$(dirname "$0")/.."

timeout=${TIMEOUT:-60}
out=${OUT:-bench/results}
jobs=${JOBS:-1}
mkdir -p "$out"

launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DPRECIS_BUILD_BENCH=ON \
  -DPRECIS_BUILD_TESTS=OFF -DPRECIS_WITH_C_FRONTEND=ON "${launcher[@]}" </dev/null
cmake --build build-bench -j"$jobs" --target precis-suite precis-verify </dev/null

# label=precis-verify arguments, one column each. The papers' names:
#   explicit-value paper:   EXPLitp (expl), EXPLitp-PRED on SBE and on ABE-lf
#   sliced prefixes:        refinement selection off (none) against the domain score
#   product abstraction:    PRED, EXPL, PROD STATE / PATH / ARG (limit k = 1)
#   VINTA:                  vBox, vBoxes, and UFO's refinement uBox
#   synergy:                WP (Cartesian), SATQE (Boolean), NewST+NewSP
configs=(
  "EXPLitp=--analysis expl"
  "EXPLitp-noselect=--analysis expl --prefixes none"
  "EXPLitp-PRED-SBE=--analysis expl+pred"
  "EXPLitp-PRED-ABE=--analysis expl+pred-abe"
  "PRED-ABE=--analysis pred-abe"
  "PRED=--analysis pred-cart --prefixes none"
  "PROD-STATE=--analysis prod-state"
  "PROD-PATH=--analysis prod-path"
  "PROD-ARG=--analysis prod-arg"
  "vBox=--analysis vinta-box"
  "vBoxes=--analysis vinta-boxes"
  "uBox=--analysis ufo-box"
  "WP=--analysis pred-cart"
  "SATQE=--analysis pred-bool"
  "NewST+NewSP=--analysis synergy"
  "auto=--analysis auto"
)
args=()
for c in "${configs[@]}"; do args+=(--config "$c"); done

dirs=(tests/models ../shared/models/theta ../shared/models/sv-comp)
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "== precis-suite --timeout $timeout ${dirs[*]} (${#configs[@]} configurations)"
status=0
./build-bench/bench/precis-suite --analysis "" "${args[@]}" --timeout "$timeout" \
  --csv "$out/papers_table.csv" "${dirs[@]}" | tee "$out/papers_table.txt" || status=$?
python3 bench/quantile_plot.py "$out/papers_table.csv" "$out" --timeout "$timeout"
exit "$status"
