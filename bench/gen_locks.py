#!/usr/bin/env python3
"""Writes test_locks_N.c (the SV-COMP `locks` family's shape, safe) for the ABE scaling
benchmark: N condition variables p_i and locks lk_i; every iteration acquires lock i
iff p_i and releases it iff p_i, failing if it is not held. SV-COMP has N = 5..15;
larger N shows how an analysis grows with the branching of one loop body.

    python3 bench/gen_locks.py OUTDIR N...
"""
import os
import sys


def program(n: int) -> str:
    out = ["extern void abort(void);",
           "extern void __assert_fail(const char *, const char *, unsigned int, const char *);",
           f'void reach_error() {{ __assert_fail("0", "test_locks_{n}.c", 3, "reach_error"); }}',
           "extern int __VERIFIER_nondet_int();",
           "int main()", "{"]
    for i in range(1, n + 1):
        out += [f"    int p{i} = __VERIFIER_nondet_int();", f"    int lk{i};"]
    out += ["    int cond;", "    while(1) {", "        cond = __VERIFIER_nondet_int();",
            "        if (cond == 0) { goto out; } else {}"]
    out += [f"        lk{i} = 0;" for i in range(1, n + 1)]
    out += [f"        if (p{i} != 0) {{ lk{i} = 1; }} else {{}}" for i in range(1, n + 1)]
    for i in range(1, n + 1):
        out += [f"        if (p{i} != 0) {{",
                f"            if (lk{i} != 1) goto ERROR;",
                f"            lk{i} = 0;",
                "        } else {}"]
    out += ["    }", "  out:", "    return 0;", "  ERROR: {reach_error();abort();}",
            "    return 0;", "}", ""]
    return "\n".join(out)


def main() -> None:
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    for n in map(int, sys.argv[2:]):
        with open(os.path.join(outdir, f"test_locks_{n}.c"), "w") as f:
            f.write(program(n))


if __name__ == "__main__":
    main()
