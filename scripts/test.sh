#!/usr/bin/env bash
# Installs the dependencies, then builds and tests precis the way a user builds it:
#   1. the conventional build, `cmake -DCMAKE_BUILD_TYPE=Release` with the default
#      options (library checks, CLI, C front end, examples, the test suites, the CLI's
#      tests plain and under ASan+UBSan, hostile inputs under ASan+UBSan), with the
#      project's -Werror on, and every test with CTest; -DPRECIS_SANITIZER_SUITES=ON
#      (not here, for CI's time) adds the SMT and polyhedra suites under ASan+UBSan;
#   2. precis-verify's and the C front end's sources with clang 16, -fsyntax-only
#      (scripts/syntax-check.py: the point is that they compile, so that a build with the
#      other compiler keeps working; code generation was half of the time at -O0);
#   3. the fuzz targets for a bounded time each (scripts/fuzz-ci.sh, 30 s unless
#      FUZZ_SECONDS says otherwise), when libFuzzer is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
# setup.sh installed every tool a test uses (z3, the witness linter's Python packages,
# libFuzzer, ...): here a test that finds one missing fails instead of skipping.
export CI=${CI:-true}
jobs=$(nproc 2>/dev/null || echo 2)
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="$PWD"  # cache hits across clones in other folders
fi
step() { echo; echo "== $* ($(date +%T))"; }
# Ninja (Debian's ninja-build, installed by setup.sh) schedules the whole build as one
# graph: CI's cold GCC build took 11.7 minutes with it and 17.2 with make (bench/README.md,
# "CI's time"). CMAKE_GENERATOR, when set, decides instead, and a
# build folder keeps the generator it was first configured with.
generator() {
  if [ -z "${CMAKE_GENERATOR:-}" ] && command -v ninja >/dev/null 2>&1 &&
     { [ ! -f "$1/CMakeCache.txt" ] || grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$1/CMakeCache.txt"; }; then
    echo "-GNinja"
  fi
}

step "conventional Release build (GCC, -Werror)"
cmake -S . -B build/test $(generator build/test) -DCMAKE_BUILD_TYPE=Release -DPRECIS_WERROR=ON \
  "${launcher[@]}" </dev/null
cmake --build build/test -j"$jobs" </dev/null

if command -v clang++-16 >/dev/null 2>&1; then
  step "precis-verify and the C front end compile with clang 16 (-fsyntax-only)"
  cmake -S . -B build/clang16 $(generator build/clang16) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 \
    -DCMAKE_CXX_COMPILER=clang++-16 -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
    -DPRECIS_BUILD_TESTS=OFF -DPRECIS_WERROR=ON "${launcher[@]}" </dev/null >/dev/null
  cmake --build build/clang16 --target precis_verify_version </dev/null >/dev/null
  python3 scripts/syntax-check.py build/clang16 precis-verify precis_cfront -j"$jobs" </dev/null
fi

if [ -x scripts/fuzz-ci.sh ]; then
  step "fuzzing (scripts/fuzz-ci.sh)"
  FUZZ_SECONDS=${FUZZ_SECONDS:-30} ./scripts/fuzz-ci.sh </dev/null
fi

step "tests"
ctest --test-dir build/test -j"$jobs" --output-on-failure --timeout 900 </dev/null
