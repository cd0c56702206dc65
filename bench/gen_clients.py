#!/usr/bin/env python3
"""k clients served in sequence, each request disjunctive: synergy's growth in k.

In the spirit of the synergy paper's shopping-agent benchmark (section 4.1, Fig. 2):
client j sends a request (a_j, b_j) that the server accepts only if a_j = b_j or
a_j = -b_j, does some bookkeeping (n := n + 1), and then checks the request again. The
check needs the disjunction kept across the bookkeeping edge: Cartesian abstraction
keeps neither atom (a spurious transition per client, one more refinement each: 2k),
Boolean abstraction keeps it but carries all clients' predicates (its posts grow as
3^j x 4^(k-j) cubes), synergy puts a cluster of two predicates on the client's edges
only (k refinements, few precise posts).

usage: gen_clients.py K [--unsafe] > model.cfa
  --unsafe: the last client's check forgets the a = -b case (a counterexample with
            a_k = -b_k /= 0).
"""
import sys

k = int(sys.argv[1])
unsafe = "--unsafe" in sys.argv[2:]
verdict = "UNSAFE" if unsafe else "SAFE"
out = [f"// {verdict}. {k} clients with disjunctive requests (bench/gen_clients.py).",
       f"main process clients_{k} {{"]
for j in range(1, k + 1):
    out += [f"    var a{j} : int", f"    var b{j} : int"]
out += ["    var n : int", "", "    init loc L0"]
for j in range(1, k + 1):
    out += [f"    loc R{j}", f"    loc A{j}", f"    loc C{j}", f"    loc D{j}"]
out += ["    final loc END", "    error loc ERR", ""]
for j in range(1, k + 1):
    start = "L0" if j == 1 else f"D{j - 1}"
    ok = f"a{j} = b{j} or a{j} = 0 - b{j}"
    bad = f"a{j} /= b{j}" if unsafe and j == k else f"a{j} /= b{j} and a{j} /= 0 - b{j}"
    out += [f"    {start} -> R{j} {{ havoc a{j}  havoc b{j} }}",
            f"    R{j} -> A{j} {{ assume {ok} }}",
            f"    R{j} -> D{j} {{ assume not ({ok}) }}",
            f"    A{j} -> C{j} {{ n := n + 1 }}",
            f"    C{j} -> ERR {{ assume {bad} }}",
            f"    C{j} -> D{j} {{ assume not ({bad}) }}"]
out += [f"    D{k} -> END {{ assume true }}", "}"]
print("\n".join(out))
