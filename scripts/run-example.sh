#!/usr/bin/env bash
# Installs the dependencies, builds precis-verify and verifies a bundled model
# (default: the explicit-value paper's Fig. 1 program). Extra arguments go to the CLI:
#   scripts/run-example.sh                                  # Fig. 1, proved SAFE
#   scripts/run-example.sh tests/tasks/theta/ifelse.cfa     # an UNSAFE model
#   scripts/run-example.sh tests/tasks/sv-comp/locks/test_locks_5.yml  # an SV-COMP C task
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
generator=()  # Ninja, as scripts/test.sh chooses it
if [ -z "${CMAKE_GENERATOR:-}" ] && command -v ninja >/dev/null 2>&1 &&
   { [ ! -f build/release/CMakeCache.txt ] ||
     grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' build/release/CMakeCache.txt; }; then
  generator=(-GNinja)
fi
cmake -S . -B build/release "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DPRECIS_BUILD_TESTS=OFF "${launcher[@]}" \
  </dev/null >/dev/null
cmake --build build/release -j"$(nproc 2>/dev/null || echo 2)" --target precis-verify </dev/null
if [ $# -eq 0 ]; then set -- tests/models/paper_fig1_safe.cfa; fi
set +e
./build/release/examples/precis-verify "$@"
rc=$?
echo "(exit code $rc: 0 SAFE, 1 UNSAFE, 2 UNKNOWN, 3 input error)" >&2
[ $rc -ge 3 ] && exit $rc
exit 0
