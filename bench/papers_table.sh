#!/usr/bin/env bash
# The papers' table: every configuration of the five papers and the portfolio
# (`auto`) as columns, over every model and task set of the repository (tests/models,
# tests/tasks/theta, tests/tasks/sv-comp, tests/tasks/sv-comp-more); solved, wrong, CPU
# time, the virtual best; and the quantile plot (CPU time against the number of tasks
# solved, one line per configuration). With node and bench/spacer's z3-solver installed,
# z3's Spacer (bench/spacer/precis-spacer) is a peer column beside them.
#
#   bench/papers_table.sh                  build (Release, build-bench/), run, plot
#   TIMEOUT=60 bench/papers_table.sh       seconds per run (default 60)
#   JOBS=2 bench/papers_table.sh           runs at once (precis-suite -j; default: nproc)
#   MEMORY=4096 bench/papers_table.sh      MB per run (default: the machine's memory / JOBS)
#   CONFIGS="EXPLitp auto" bench/papers_table.sh   only these columns (a smoke test)
#   DIRS="tests/tasks/sv-comp-more/loop-lit" bench/papers_table.sh   only these task folders
#   PRECIS_SUITE=build/x/bench/precis-suite PRECIS_VERIFY=build/y/examples/precis-verify \
#     bench/papers_table.sh                use this precis-suite (no build) and precis-verify
#   OUT=bench/results bench/papers_table.sh
#
# Parallel runs share the machine's memory bandwidth and caches, so their CPU times are
# somewhat higher than one at a time: compare tables made with the same JOBS.
#
# Writes $OUT/papers_table.txt (precis-suite's table, notes and summary),
# $OUT/papers_table.csv (one row per task and configuration), $OUT/papers_summary.md
# and $OUT/quantile.svg (bench/quantile_plot.py, gnuplot). Needs the C front end (clang
# 14) and cvc5; gnuplot for the plot. Exit status: non-zero on a wrong verdict.
set -euo pipefail
cd "$(dirname "$0")/.."

timeout=${TIMEOUT:-60}
out=${OUT:-bench/results}
jobs=${JOBS:-$(nproc)}
build_jobs=${BUILD_JOBS:-1}  # the machines here are shared: one compile job by default
mkdir -p "$out"

suite=${PRECIS_SUITE:-}
verify=()  # by default precis-suite runs the precis-verify of its own build
if [[ -n "${PRECIS_VERIFY:-}" ]]; then verify=(--verify "$PRECIS_VERIFY"); fi
if [[ -z "$suite" ]]; then
  launcher=()
  if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
  cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DPRECIS_BUILD_BENCH=ON \
    -DPRECIS_BUILD_TESTS=OFF -DPRECIS_WITH_C_FRONTEND=ON "${launcher[@]}" </dev/null
  cmake --build build-bench -j"$build_jobs" --target precis-suite precis-verify </dev/null
  suite=./build-bench/bench/precis-suite
fi

# label=precis-verify arguments, one column each. The papers' names:
#   explicit-value paper:   EXPLitp (expl), EXPLitp-PRED on SBE and on ABE-lf
#   sliced prefixes:        refinement selection off (none) against the domain score;
#                           expl+pred's default (all: the union of every infeasible
#                           prefix's increments) against the domain score
#   product abstraction:    PRED, EXPL, PROD STATE / PATH / ARG (limit k = 1)
#   VINTA:                  vBox, vBoxes, and UFO's refinement uBox
#   synergy:                WP (Cartesian), SATQE (Boolean), NewST+NewSP
configs=(
  "EXPLitp=--analysis expl"
  "EXPLitp-noselect=--analysis expl --prefixes none"
  "EXPLitp-PRED-SBE=--analysis expl+pred"
  "EXPLitp-PRED-SBE-domain=--analysis expl+pred --prefixes domain"
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
  # Beyond the papers: relational domains, BMC and k-induction, and
  # the portfolio as it was before them (its stages named explicitly).
  "ai-zone=--analysis ai-zone"
  "ai-oct=--analysis ai-oct"
  "ai-poly=--analysis ai-poly"
  "vinta-oct=--analysis vinta-oct"
  "vinta-poly=--analysis vinta-poly"
  "bmc=--analysis bmc"
  "kind=--analysis kind"
  "auto-before=--analysis auto --stages expl+pred-abe,expl+pred,vinta-box"
)
args=()
for c in "${configs[@]}"; do
  if [[ -n "${CONFIGS:-}" && " $CONFIGS " != *" ${c%%=*} "* ]]; then continue; fi
  args+=(--config "$c")
done
if [[ ${#args[@]} -eq 0 ]]; then
  echo "papers_table.sh: CONFIGS='$CONFIGS' names no configuration" >&2
  exit 2
fi

# The peer column: z3's Spacer on the CHC encoding (bench/spacer/README.md).
if command -v node >/dev/null 2>&1 && [[ -d bench/spacer/node_modules/z3-solver ]]; then
  args+=(--tool "Spacer=bench/spacer/precis-spacer")
else
  echo "note: no Spacer column (needs node and bench/spacer/node_modules/z3-solver:" \
    "npm install in bench/spacer)" >&2
fi
columns=$((${#args[@]} / 2))
if [[ -n "${MEMORY:-}" ]]; then args+=(--memory-limit "$MEMORY"); fi

read -r -a dirs <<<"${DIRS:-tests/models tests/tasks/theta tests/tasks/sv-comp tests/tasks/sv-comp-more}"
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "== precis-suite -j $jobs --timeout $timeout ${dirs[*]} ($columns columns)"
status=0
"$suite" "${verify[@]}" --analysis "" "${args[@]}" -j "$jobs" --timeout "$timeout" \
  --csv "$out/papers_table.csv" "${dirs[@]}" | tee "$out/papers_table.txt" || status=$?
python3 bench/quantile_plot.py "$out/papers_table.csv" "$out" --timeout "$timeout"
exit "$status"
