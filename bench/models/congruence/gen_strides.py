#!/usr/bin/env python3
"""N loops in sequence, loop j counting a variable of its own by a stride of j % 5 + 2 to a
bound, then a check of every variable's residue: ai-cong's growth in the number of
variables and loops (bench/README.md, "Congruences").

The program is SAFE: each x_j ends a multiple of its stride (n is at most 10^6, so no
addition overflows). With --unsafe the last check is negated, and every execution reaches
the error (UNSAFE).

usage: gen_strides.py N [--unsafe] > model.c
"""
import sys

n = int(sys.argv[1])
unsafe = "--unsafe" in sys.argv[2:]
out = [f"// {'UNSAFE' if unsafe else 'SAFE'}: {n} stride loops in sequence "
       "(bench/models/congruence/gen_strides.py).",
       "extern void abort(void);",
       "void reach_error(void) {}",
       "void __VERIFIER_assert(int c) { if (!c) { ERROR: { reach_error(); abort(); } } }",
       "extern int __VERIFIER_nondet_int(void);",
       "int main(void) {",
       "  int n = __VERIFIER_nondet_int();",
       "  if (n > 1000000) return 0;"]
for j in range(n):
    out.append(f"  int x{j} = 0;")
for j in range(n):
    k = j % 5 + 2
    out.append(f"  while (x{j} < n) x{j} += {k};")
for j in range(n):
    k = j % 5 + 2
    if unsafe and j == n - 1:
        out.append(f"  __VERIFIER_assert(x{j} % {k} != 0);")
    else:
        out.append(f"  __VERIFIER_assert(x{j} % {k} == 0);")
out += ["  return 0;", "}"]
print("\n".join(out))
