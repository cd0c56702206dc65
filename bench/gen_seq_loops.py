#!/usr/bin/env python3
"""k counting loops in sequence, each to 10, then a check: VINTA's growth in the program.

Each loop needs its bound back after widening (refinement, or thresholds for ai-box);
the program, the cutpoint graph and the ARG grow linearly in k.

usage: gen_seq_loops.py K [--unsafe] > model.cfa
"""
import sys

k = int(sys.argv[1])
unsafe = "--unsafe" in sys.argv[2:]
out = [f"// {'UNSAFE' if unsafe else 'SAFE'}. {k} counting loops in sequence (bench/gen_seq_loops.py).",
       f"main process seq_loops_{k} {{", "    var i : int", "    var s : int", "",
       "    init loc L0"]
for j in range(k):
    out += [f"    loc H{j}", f"    loc B{j}"]
out += ["    loc X", "    final loc END", "    error loc ERR", "", "    L0 -> H0 { s := 0  i := 0 }"]
for j in range(k):
    nxt = f"H{j + 1}" if j + 1 < k else "X"
    out += [f"    H{j} -> B{j} {{ assume i < 10 }}",
            f"    B{j} -> H{j} {{ i := i + 1 }}",
            f"    H{j} -> {nxt} {{ assume i >= 10  s := s + i  i := 0 }}"]
bound = 10 * k
cond = f"s = {bound}" if unsafe else f"s /= {bound}"
out += [f"    X -> ERR {{ assume {cond} }}", f"    X -> END {{ assume not ({cond}) }}", "}"]
print("\n".join(out))
