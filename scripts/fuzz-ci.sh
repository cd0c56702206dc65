#!/usr/bin/env bash
# The fuzzing step of CI: builds the three libFuzzer targets once (clang, ASan + UBSan,
# in build/fuzz), then runs scripts/fuzz.sh for each of them: every regression input in
# fuzz/regressions/TARGET/ is replayed first and must pass, then the target is fuzzed
# for FUZZ_SECONDS (default 60). The targets run side by side (FUZZ_PARALLEL=0 runs them
# one after the other), so the whole step takes about the build time plus FUZZ_SECONDS.
# Exit status: 0 no findings, 1 a finding (a failing regression input, a crash, a
# sanitizer report, an escaping exception, a timeout, OOM), 2 the build failed.
# A target that cannot be built here (no C front end) is reported as skipped.
set -uo pipefail
exec </dev/null
cd "$(dirname "$0")/.." || exit 2

seconds=${FUZZ_SECONDS:-60}
build=${PRECIS_FUZZ_BUILD:-build/fuzz}
cxx=${PRECIS_FUZZ_CXX:-clang++-14}
cc=${PRECIS_FUZZ_CC:-${cxx/clang++/clang}}
jobs=${FUZZ_BUILD_JOBS:-$(nproc 2>/dev/null || echo 2)}
targets=(cfa_reader task_reader c_translate)

start=$(date +%s)
if ! command -v "$cxx" >/dev/null 2>&1; then
  echo "fuzz-ci: $cxx not found (install clang-14 and libfuzzer-14-dev)" >&2
  exit 2
fi
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="$PWD"
fi
mkdir -p "$build"
if ! cmake -S fuzz -B "$build" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_C_COMPILER="$cc" \
  "${launcher[@]}" >"$build/configure.log" 2>&1; then
  cat "$build/configure.log" >&2
  echo "fuzz-ci: configuring the fuzz build failed" >&2
  exit 2
fi
if ! cmake --build "$build" -j"$jobs"; then
  echo "fuzz-ci: the fuzz build failed" >&2
  exit 2
fi
built=$(date +%s)
echo "fuzz-ci: fuzz targets built in $((built - start)) s"

status=0
run() {
  FUZZ_NO_BUILD=1 PRECIS_FUZZ_BUILD="$build" scripts/fuzz.sh "$1" "$seconds" \
    >"$build/ci-$1.log" 2>&1
}
pids=()
ran=()
for t in "${targets[@]}"; do
  if [ ! -x "$build/fuzz_$t" ]; then
    echo "fuzz-ci: fuzz_$t SKIPPED (not built here: no C front end?)"
    continue
  fi
  ran+=("$t")
  if [ "${FUZZ_PARALLEL:-1}" = 1 ]; then
    run "$t" &
    pids+=($!)
  else
    run "$t"
    pids+=($?)
  fi
done
for i in "${!ran[@]}"; do
  t=${ran[$i]}
  if [ "${FUZZ_PARALLEL:-1}" = 1 ]; then
    wait "${pids[$i]}"
    rc=$?
  else
    rc=${pids[$i]}
  fi
  echo "==== fuzz_$t (exit status $rc)"
  cat "$build/ci-$t.log"
  if [ "$rc" -ne 0 ]; then
    [ "$rc" -eq 1 ] && status=1
    [ "$rc" -ne 1 ] && [ "$status" -eq 0 ] && status=$rc
  fi
done
echo "fuzz-ci: $((  $(date +%s) - start )) s in total; $([ "$status" -eq 0 ] && echo "no findings" || echo "FINDINGS (see above)")"
exit "$status"
