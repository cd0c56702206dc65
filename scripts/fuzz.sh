#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) in build/fuzz and fuzzes one of them.
#
#   scripts/fuzz.sh TARGET SECONDS      TARGET: cfa_reader | task_reader | c_translate
#                                       (or fuzz_cfa_reader, ...)
#
# First every regression input in fuzz/regressions/TARGET/ is replayed on its own (each
# must pass), then the target is fuzzed for SECONDS starting from the seeds: the inputs
# found so far (build/fuzz/corpus/TARGET, kept between runs), fuzz/corpus/TARGET, the
# regression inputs that pass, the repository's models and the tasks of tests/tasks
# (Theta models, SV-COMP tasks). A crash, sanitizer report, escaping exception, timeout or OOM is a
# finding: the input is saved under build/fuzz/artifacts/TARGET/ and the script exits
# with status 1 (status 2: the fuzz build is not possible here). libFuzzer's final
# statistics (executions, exec/s, coverage) are printed at the end.
#
# Environment (all optional):
#   PRECIS_FUZZ_CXX, PRECIS_FUZZ_CC   compilers (default clang++-14 / clang-14)
#   PRECIS_FUZZ_BUILD                 build folder (default build/fuzz)
#   PRECIS_EXTRA_SEEDS                a folder of further seed inputs (optional)
#   FUZZ_BUILD_JOBS                   parallel compile jobs (default: number of cores)
#   FUZZ_NO_BUILD=1                   use the existing build (fuzz-ci.sh builds once)
#   FUZZ_NO_REPLAY=1                  skip the replay of the regression inputs
#   FUZZ_ARGS                         extra libFuzzer flags (e.g. "-seed=1 -jobs=2")
set -uo pipefail
exec </dev/null
cd "$(dirname "$0")/.." || exit 2
root=$PWD

usage() {
  echo "usage: $0 TARGET SECONDS   (TARGET: cfa_reader, task_reader, c_translate)" >&2
  exit 2
}
[ $# -eq 2 ] || usage
target=${1#fuzz_}
seconds=$2
case "$target" in
  cfa_reader) max_len=8192 timeout=10 dict=cfa.dict exts="cfa" ;;
  task_reader) max_len=4096 timeout=10 dict=yaml.dict exts="yml yaml" ;;
  c_translate) max_len=16384 timeout=25 dict=c.dict exts="c i" ;;
  *) usage ;;
esac
[[ "$seconds" =~ ^[0-9]+$ ]] || usage

build=${PRECIS_FUZZ_BUILD:-build/fuzz}
cxx=${PRECIS_FUZZ_CXX:-clang++-14}
cc=${PRECIS_FUZZ_CC:-${cxx/clang++/clang}}
jobs=${FUZZ_BUILD_JOBS:-$(nproc 2>/dev/null || echo 2)}
extra_seeds=${PRECIS_EXTRA_SEEDS:-}
exe=$build/fuzz_$target

# ---- build -----------------------------------------------------------------------------
if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
  if ! command -v "$cxx" >/dev/null 2>&1; then
    echo "fuzz: $cxx not found (install clang-14 and libfuzzer-14-dev)" >&2
    exit 2
  fi
  launcher=()
  if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
    export CCACHE_BASEDIR="$root"
  fi
  mkdir -p "$build"
  cmake -S fuzz -B "$build" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_C_COMPILER="$cc" \
    "${launcher[@]}" >"$build/configure.log" 2>&1 || {
    cat "$build/configure.log" >&2
    echo "fuzz: configuring the fuzz build failed" >&2
    exit 2
  }
  cmake --build "$build" -j"$jobs" --target "fuzz_$target" || {
    echo "fuzz: building fuzz_$target failed" >&2
    exit 2
  }
fi
if [ ! -x "$exe" ]; then
  echo "fuzz: $exe was not built (no clang/libFuzzer, or no C front end for $target);" \
    "see $build/configure.log" >&2
  exit 2
fi

# ---- regression inputs: each must pass ------------------------------------------------
findings=0
regressions=fuzz/regressions/$target
work=$build/work/$target
rm -rf "$work"
mkdir -p "$work/seeds" "$build/corpus/$target" "$build/artifacts/$target"
if [ "${FUZZ_NO_REPLAY:-0}" != 1 ] && [ -d "$regressions" ]; then
  n=0
  failed=0
  for f in "$regressions"/*; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    log=$work/replay-$(basename "$f").log
    if "$exe" -timeout="$timeout" -rss_limit_mb=2048 "$f" >"$log" 2>&1; then
      cp "$f" "$work/seeds/"
    else
      failed=$((failed + 1))
      echo "fuzz_$target: FINDING: regression input $f fails:" >&2
      grep -m3 -E "ERROR|FINDING|LLVM ERROR|runtime error|SUMMARY|terminate" "$log" | sed 's/^/    /' >&2
      echo "    (full log: $log)" >&2
    fi
  done
  echo "fuzz_$target: $((n - failed)) of $n regression inputs pass"
  [ "$failed" -eq 0 ] || findings=1
fi

# ---- seeds -----------------------------------------------------------------------------
# Copies of the models the target reads (no larger than max_len), so that libFuzzer does
# not truncate them and does not read unrelated files.
add_seeds() {
  local dir=$1 ext
  [ -d "$dir" ] || return 0
  for ext in $exts; do
    find "$dir" -type f -name "*.$ext" -size -"$((max_len + 1))"c -print0 |
      while IFS= read -r -d '' f; do
        cp "$f" "$work/seeds/$(echo "$f" | tr '/' '_')"
      done
  done
}
add_seeds "fuzz/corpus/$target"
add_seeds tests/models
[ "$target" = c_translate ] && add_seeds tests/cli/bad
add_seeds tests/tasks
[ -n "$extra_seeds" ] && add_seeds "$extra_seeds"
echo "fuzz_$target: $(find "$work/seeds" -type f | wc -l) seed inputs, fuzzing for $seconds s"

# ---- fuzzing ----------------------------------------------------------------------------
log=$work/fuzz.log
# shellcheck disable=SC2086
"$exe" "$build/corpus/$target" "$work/seeds" \
  -max_total_time="$seconds" -max_len="$max_len" -timeout="$timeout" -rss_limit_mb=2048 \
  -dict="fuzz/dict/$dict" -artifact_prefix="$build/artifacts/$target/" \
  -print_final_stats=1 ${FUZZ_ARGS:-} >"$log" 2>&1
rc=$?

last=$(grep -E '^#[0-9]+' "$log" | tail -1)
stat() { grep -m1 "^stat::$1:" "$log" | awk '{print $2}'; }
execs=$(stat number_of_executed_units)
rate=$(stat average_exec_per_sec)
cov=$(echo "$last" | grep -oE 'cov: [0-9]+' | awk '{print $2}')
ft=$(echo "$last" | grep -oE 'ft: [0-9]+' | awk '{print $2}')
corp=$(echo "$last" | grep -oE 'corp: [0-9]+/[0-9A-Za-z]+' | awk '{print $2}')
echo "fuzz_$target: ${execs:-?} executions, ${rate:-?} exec/s, coverage ${cov:-?} edges" \
  "(${ft:-?} features), corpus ${corp:-?}, new units $(stat new_units_added)," \
  "peak RSS $(stat peak_rss_mb) MB"
if [ "$rc" -ne 0 ]; then
  findings=1
  echo "fuzz_$target: FINDING (libFuzzer exit status $rc):" >&2
  grep -E "ERROR: |FINDING|LLVM ERROR|runtime error|SUMMARY|terminate called|Test unit written" \
    "$log" | head -8 | sed 's/^/    /' >&2
  echo "    full log: $log" >&2
  echo "    keep the input as a regression: cp ARTIFACT fuzz/regressions/$target/" >&2
fi
[ "$findings" -eq 0 ] && echo "fuzz_$target: no findings"
exit "$findings"
