#!/usr/bin/env bash
# Installs the dependencies, builds everything (library checks, CLI, C front end, test
# suites plain and under ASan+UBSan) and runs the whole test suite with CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
jobs=$(nproc 2>/dev/null || echo 2)
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="$PWD"  # cache hits across clones in other folders
fi
# Tests are compiled without optimisation or debug info: compile time dominates here
# (the ASan+UBSan variants add -O1 themselves).
cmake -S . -B build/test -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O0 -g0" \
  "${launcher[@]}" </dev/null
cmake --build build/test -j"$jobs" </dev/null
ctest --test-dir build/test -j"$jobs" --output-on-failure --timeout 900 </dev/null
