#!/usr/bin/env bash
# Installs what precis needs on Debian 12 (bookworm) from Debian's packages.
#   required : cmake g++ libboost-dev libcli11-dev doctest-dev (ninja-build: the scripts'
#              generator when present; without it CMake's default, make)
#   optional : libcvc5-dev (SMT analyses; Debian's cvc5 is a GPLv3 build), libppl-dev
#              (the polyhedra domain; GPLv3),
#              clang-14 libclang-14-dev libclang-cpp14-dev llvm-14-dev libyaml-cpp-dev
#              (C front end and its SV-COMP task reader),
#              libc6-dev-i386 gcc-multilib (-m32 differential tests; qemu-user runs their
#              32-bit programs on a kernel without IA32 emulation), libbenchmark-dev
#              (bench/), ccache (faster rebuilds), python3 (CLI robustness tests), python3-lxml
#              (the SV-COMP witness linter),
#              clang-16 (the clang build check), libfuzzer-14-dev (fuzzing with clang 14),
#              z3 (solves the Horn clauses of --emit-chc in the tests).
# Packages already installed are not asked for again, so a second run needs no network.
set -euo pipefail

packages=(cmake make ninja-build g++ ccache libboost-dev libcli11-dev doctest-dev libbenchmark-dev
          libcvc5-dev libppl-dev clang-14 libclang-14-dev libclang-cpp14-dev llvm-14-dev libyaml-cpp-dev
          libc6-dev-i386 gcc-multilib qemu-user python3 python3-lxml clang-16 libfuzzer-14-dev z3)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all dependencies are installed" >&2
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq </dev/null
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
