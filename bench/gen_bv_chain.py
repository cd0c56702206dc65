#!/usr/bin/env python3
"""A Theta .cfa model with N bit-vector statements in a row, for the growth of the .cfa
reader's bit-vector translation (bench/README.md, "Theta's bit-vectors").

    python3 bench/gen_bv_chain.py N [--linear] > chain.cfa

x, y : bv[32]; each statement mixes the operators (+ * & | ^ shifts, a signed compare in
an if-then-else), and the error location is reached when x ends odd. The program has one
input (y), so every analysis must reason about the whole chain. With --linear, no operator
of two variables needs iand (no &, |, ^ between x and y): only +, constant factors and
shifts, the signed compare, and a constant mask."""
import sys

n = int(sys.argv[1])
linear = "--linear" in sys.argv[2:]
ops = [
    "x := x bvadd (y bvmul 32'd3)",
    "x := x bvshl 32'd2",
    "x := (if x bvslt 32'd0 then bvneg x else x)",
    "x := x bvand 32'xFF00FF",
    "x := x bvlshr 32'd1",
] if linear else [
    "x := x bvadd (y bvmul 32'd3)",
    "x := x bvxor (y bvshl 32'd2)",
    "x := (if x bvslt 32'd0 then bvneg x else x)",
    "x := x bvor (y bvand 32'xFF)",
    "x := x bvlshr 32'd1",
]
print("main process chain {")
print("  var x : bv[32]")
print("  var y : bv[32]")
print("  init loc L0")
for i in range(1, n + 1):
    print(f"  loc L{i}")
print("  error loc ERR")
print("  final loc END")
for i in range(n):
    print(f"  L{i} -> L{i + 1} {{ {ops[i % len(ops)]} }}")
print(f"  L{n} -> ERR {{ assume x[1:0] = 1'd1 }}")
print(f"  L{n} -> END {{ assume x[1:0] = 1'd0 }}")
print("}")
