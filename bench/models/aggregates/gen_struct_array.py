#!/usr/bin/env python3
"""An array of N structs filled in a loop and read at a nondeterministic index: how the
leaf-wise encoding of aggregates grows with N (bench/README.md, "Structs and the heap").
A variable-index access is an ite over N leaves, a write N guarded assignments.

usage: gen_struct_array.py N [safe|unsafe] > struct_array_N.c
"""
import sys

n = int(sys.argv[1])
safe = len(sys.argv) < 3 or sys.argv[2] == "safe"
print("void reach_error(void);")
print("extern int __VERIFIER_nondet_int(void);")
print("struct P { int x; int y; };")
print(f"struct P a[{n}];")
print("int main(void) {")
print(f"  for (int i = 0; i < {n}; i++) {{ a[i].x = i; a[i].y = 2 * i; }}")
print("  int k = __VERIFIER_nondet_int();")
print(f"  if (k < 0 || k >= {n}) return 0;")
print(f"  if (a[k].y - a[k].x != k{'' if safe else ' - 1'}) reach_error();")
print("  return 0;")
print("}")
