#!/usr/bin/env python3
"""Witness tests: written for every decided SV-COMP task, linted, validated; one CTest
case per task or check.

  witness_test.py --cli precis-verify --tasks DIR --case NAME [--lint LINTER]

A case named after an SV-COMP task (every task with an unreach-call property under
--tasks; e.g. loops/sum04-1) runs precis-verify (the default analysis) with
--witness; an UNSAFE verdict must give a GraphML violation witness that the SV-COMP
linter accepts (when the linter and Debian's python3-lxml are there) and that
--validate confirms; a SAFE verdict must be certified and give a YAML correctness
witness that --validate confirms. Every such task is decided by the default analysis
within the limit (that is why it is here), so an UNKNOWN verdict is a failure: a
regression from decided to UNKNOWN must not leave CTest green.

The linter needs the SV-COMP linter script (tests/tools/witnesslint) and Debian's
python3-lxml (scripts/setup.sh installs it). Where either is missing, the case still
runs every other check, then fails under CI (the environment variable CI set, as CI
services do) and is skipped (exit 77, CTest's SKIP_RETURN_CODE) elsewhere, saying why.
The case "wrong_invariant" checks that a correctness witness with a wrong invariant is
rejected with the line it fails at, and right hand-written ones confirmed (an inductive
one by the certificate checker, a true but weaker one as an assertion by the analysis);
"helped_by_witness" that the right invariant validates a task the pre-relational stages
cannot verify by themselves, and that a weak one leaves it undecided (exit 2); "tampered_violation" that a violation
witness's nondeterministic calls are marked, that dropping the values of uninitialized
variables does not shift the others, and that a changed call value is rejected.
"cells_and_members" checks invariants over array cells and struct members (written with
their C designators, read back, a changed one rejected, an unknown one an input error at
the witness's line and column); "open_choices" that the replay tries the choices a
violation witness cannot state (fopen's null or handle). A case "more:SET/NAME" is a task
of --more (tasks from other categories: arrays and handles, a program with one
execution, whose witness states its value ranges, and a recursive one, whose witness has
no invariant).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

def task_names(tasks_dir):
    """Every SV-COMP task under tasks_dir with an unreach-call property, as set/name."""
    names = []
    for root, _, files in os.walk(tasks_dir):
        for f in files:
            if f.endswith(".yml") and expected_verdict(os.path.join(root, f)) is not None:
                names.append(os.path.relpath(os.path.join(root, f), tasks_dir)[:-4])
    return sorted(names)


def expected_verdict(yml):
    """The task's expected unreach-call verdict (True: safe), or None."""
    text = open(yml).read()
    m = re.search(r"unreach-call\.prp\s*\n\s*expected_verdict:\s*(true|false)", text)
    return None if m is None else m.group(1) == "true"


LXML_PYTHON = "/usr/bin/python3"  # Debian's python3-lxml belongs to the system python


def run(cmd, timeout=300):
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stdout + p.stderr


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def under_ci():
    """CI services set CI (to "true"); "", "0" and "false" count as unset."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false")


# Why a check could not run here (the linter or its python3-lxml missing); main() turns
# it into a failure under CI and a skip elsewhere, after every other check passed.
NOT_RUN = []


def write_witness(args, target, witness, expected_rc, limit="60"):
    """Verifies target with --witness; any verdict but expected_rc (0 SAFE, 1 UNSAFE),
    UNKNOWN included, is a failure. Returns the output."""
    rc, out = run([args.cli, "-q", "-t", limit, "--witness", witness, target])
    print(out)
    if rc == 2:
        fail("UNKNOWN within %s s on a target decided before: no witness to check" % limit)
    if rc != expected_rc:
        fail("unexpected verdict (exit %d, expected %d)" % (rc, expected_rc))
    return out


def lint(linter, witness, program):
    if not linter or not os.path.exists(linter):
        NOT_RUN.append("the witness linter %r does not exist" % linter)
        print("lint not run: " + NOT_RUN[-1])
        return
    try:
        rc, _ = run([LXML_PYTHON, "-c", "import lxml"])
    except OSError:
        rc = 1
    if rc != 0:
        NOT_RUN.append("%s cannot import lxml (apt-get install python3-lxml)" % LXML_PYTHON)
        print("lint not run: " + NOT_RUN[-1])
        return
    rc, out = run([LXML_PYTHON, linter, "--witness", witness, program])
    if rc != 0:
        fail("the linter rejects the witness:\n" + out)
    print("linter: accepted")


def task_case(args, name):
    yml = os.path.join(args.tasks, name + ".yml")
    program = os.path.join(args.tasks, name + ".c")
    if not os.path.exists(program):
        program = program[:-2] + ".i"
    with tempfile.TemporaryDirectory() as tmp:
        unsafe = not expected_verdict(yml)
        witness = os.path.join(tmp, "witness.graphml" if unsafe else "witness.yml")
        out = write_witness(args, yml, witness, 1 if unsafe else 0)
        if not unsafe and not re.search(r"^Certificate: .*checked", out, re.M):
            fail("SAFE without a checked certificate")
        if not os.path.exists(witness):
            fail("no witness written")
        if unsafe:
            lint(args.lint, witness, program)
        rc, out = run([args.cli, "-q", "--validate", witness, yml])
        print(out)
        if rc != 0 or not out.startswith("confirmed"):
            fail("--validate does not confirm the witness")


WITNESS = """- entry_type: invariant_set
  metadata:
    format_version: "2.0"
    uuid: 00000000-0000-4000-8000-000000000000
    creation_time: 2026-01-01T00:00:00Z
    producer: {name: hand, version: "1"}
    task:
      input_files: [sum04-2.c]
      input_file_hashes: {sum04-2.c: "0"}
      specification: G ! call(reach_error())
      data_model: ILP32
      language: C
  content:
    - invariant:
        type: loop_invariant
        location: {file_name: sum04-2.c, line: 13, column: 3, function: main}
        value: "%s"
        format: c_expression
"""


def wrong_invariant(args):
    yml = os.path.join(args.tasks, "loops/sum04-2.yml")
    with tempfile.TemporaryDirectory() as tmp:
        w = os.path.join(tmp, "w.yml")
        # (invariant, verdict, what the reason must say): an inductive invariant is
        # proved as a certificate; a true one too weak to be inductive is checked as an
        # assertion by the analysis; a false one is rejected with the line it fails at.
        for value, expect, why in [
                ("sn == 2 * i - 2 && i <= 9", "confirmed", "inductive and exclude"),
                ("i <= 9", "confirmed", "not inductive by themselves.*they hold"),
                ("sn == 2 * i - 2 && i <= 8", "rejected", "invariant at line 13 does not hold"),
                ("sn == 2 * i", "rejected", "invariant at line 13 does not hold")]:
            with open(w, "w") as f:
                f.write(WITNESS % value)
            rc, out = run([args.cli, "-q", "--validate", w, yml])
            print(value, "->", out.strip())
            if not out.startswith(expect) or rc != (0 if expect == "confirmed" else 1):
                fail("expected %s for %s" % (expect, value))
            if not re.search(why, out):
                fail("expected the reason to say '%s' for %s" % (why, value))


def helped_by_witness(args):
    """count_up_down-1 needs x + y == n, which the stages without a relational domain
    (expl+pred-abe, expl+pred, vinta-box) do not find (UNKNOWN within 60 s): with it in
    the witness the task is validated (the assertion edge hands the relation to the
    analysis; as a certificate alone it is not inductive, since the checker does not know
    that the unsigned y is never negative); with a true but weak invariant the assertion
    check has to verify the task itself and stays undecided. (The default portfolio now
    finds x + y == n with polyhedra and would confirm the weak witness too.)"""
    yml = os.path.join(args.tasks, "loops/count_up_down-1.yml")
    with tempfile.TemporaryDirectory() as tmp:
        w = os.path.join(tmp, "w.yml")
        for value, expect, rc_expected, limit in [
                ("x + y == n && n <= 4294967295", "confirmed", 0, "60"),
                ("x <= n", "undecided", 2, "5")]:
            text = WITNESS.replace("sum04-2.c", "count_up_down-1.c").replace(
                "line: 13, column: 3", "line: 17, column: 3")
            with open(w, "w") as f:
                f.write(text % value)
            rc, out = run([args.cli, "-q", "-t", limit, "--stages",
                           "expl+pred-abe,expl+pred,vinta-box", "--validate", w, yml])
            print(value, "->", out.strip())
            if not out.startswith(expect) or rc != rc_expected:
                fail("expected %s (exit %d) for %s, got exit %d" % (expect, rc_expected, value, rc))


def last_result_to_zero(text):
    m = list(re.finditer(r"\\result == -?[0-9]+;", text))[-1]
    return text[:m.start()] + "\\result == 0;" + text[m.end():]


def tampered_violation(args):
    yml = os.path.join(args.tasks, "locks/test_locks_14-2.yml")
    with tempfile.TemporaryDirectory() as tmp:
        w = os.path.join(tmp, "w.graphml")
        write_witness(args, yml, w, 1, limit="120")
        text = open(w).read()
        results = re.findall(r'<data key="assumption">\\result == (-?[0-9]+);</data>', text)
        # p1..p14 and the loop's cond come from __VERIFIER_nondet_int().
        if len(results) != 15 or text.count("__VERIFIER_nondet_int") < 15:
            fail("expected 15 marked nondet calls, got %d:\n%s" % (len(results), text))
        cases = [
            # Without the values of the uninitialized lk1..lk14 and cond: 0 is as good.
            (re.sub(r'<data key="assumption">(lk[0-9]+|cond) == -?[0-9]+;</data>', "", text),
             "confirmed"),
            # The last call is cond's: 0 leaves the loop and ends without an error.
            (last_result_to_zero(text), "rejected"),
        ]
        for i, (t, expect) in enumerate(cases):
            if t == text:
                fail("case %d: the witness was not changed" % i)
            with open(w, "w") as f:
                f.write(t)
            rc, out = run([args.cli, "-q", "--validate", w, yml])
            print("case", i, "->", out.strip())
            if not out.startswith(expect) or rc != (0 if expect == "confirmed" else 1):
                fail("case %d: expected %s" % (i, expect))


MORE = ["loop-industry-pattern/aiob_4", "loop-industry-pattern/ofuf_3", "loop-lit/gj2007",
        "recursive-simple/fibo_10-2"]


def cells_and_members(args):
    program = os.path.join(args.programs, "cells_members_safe.c")
    with tempfile.TemporaryDirectory() as tmp:
        w = os.path.join(tmp, "w.yml")
        write_witness(args, program, w, 0)
        text = open(w).read()
        for cell in ["a[1][1] == 5", "g[1].y[0] == 0", "p.x == 1", "p.y[1] == 3"]:
            if cell not in text:
                fail("the invariant does not state %s:\n%s" % (cell, text))
        cases = [(text, 0, "^confirmed: the invariants are inductive"),
                 (text.replace("a[1][1] == 5", "a[1][1] == 4"), 1,
                  "^rejected: the invariant at line 14 does not hold"),
                 (text.replace("g[1].y[0] == 0", "g[2].y[0] == 0"), 3,
                  r"w.yml:\d+:\d+: error: unknown identifier 'g\[2\]\.y\[0\]'")]
        for t, rc_expected, pattern in cases:
            with open(w, "w") as f:
                f.write(t)
            rc, out = run([args.cli, "-q", "-t", "60", "--validate", w, program])
            print("->", out.strip()[:300])
            if rc != rc_expected or not re.search(pattern, out, re.M):
                fail("expected exit %d and /%s/" % (rc_expected, pattern))
        # The error's column is the unknown name's in the witness file.
        m = re.search(r"w.yml:(\d+):(\d+):", out)
        line = open(w).read().split("\n")[int(m.group(1)) - 1]
        if not line[int(m.group(2)) - 1:].startswith("g[2].y[0]"):
            fail("the column does not point at the unknown name: %r" % line)


def open_choices(args):
    program = os.path.join(args.programs, "open_choices_unsafe.c")
    with tempfile.TemporaryDirectory() as tmp:
        w = os.path.join(tmp, "w.graphml")
        write_witness(args, program, w, 1)
        lint(args.lint, w, program)
        rc, out = run([args.cli, "-q", "--validate", w, program])
        print(out)
        # a, b, c = open, null, open: the third execution of the depth-first order
        # (open before null).
        if rc != 0 or not re.search(r"^confirmed: .*execution 3, with 3 choices", out):
            fail("--validate does not find the witness's execution")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli")
    ap.add_argument("--tasks")
    ap.add_argument("--lint", default="")
    ap.add_argument("--more", default="")
    ap.add_argument("--programs", default="")
    ap.add_argument("--case")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if args.list:
        print("\n".join(task_names(args.tasks) + ["more:" + m for m in MORE] +
                        ["wrong_invariant", "helped_by_witness", "tampered_violation",
                         "cells_and_members", "open_choices"]))
        return
    if args.case == "wrong_invariant":
        wrong_invariant(args)
    elif args.case == "helped_by_witness":
        helped_by_witness(args)
    elif args.case == "tampered_violation":
        tampered_violation(args)
    elif args.case == "cells_and_members":
        cells_and_members(args)
    elif args.case == "open_choices":
        open_choices(args)
    elif args.case.startswith("more:"):
        args.tasks = args.more
        task_case(args, args.case[len("more:"):])
    else:
        task_case(args, args.case)
    if NOT_RUN:
        if under_ci():
            fail("under CI every check must run; not run: " + "; ".join(NOT_RUN))
        print("SKIPPED (the other checks passed): " + "; ".join(NOT_RUN))
        sys.exit(77)
    print("ok")


if __name__ == "__main__":
    main()
