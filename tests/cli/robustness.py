#!/usr/bin/env python3
"""precis-verify on hostile and oversized inputs that the test generates.

Every case runs the CLI once and checks its exit code and its report: limits that hold
in every phase (the reason names the limit), one JSON object for every error, clean
errors with a position for bad input, bounded output. A case never asserts how fast
the verifier is; the subprocess timeout only turns a hang into a failure. Where the
program's verdict is known (an SV-COMP task's expected_verdict for unreach-call, or a
generated program whose verdict its comment derives), a case accepts that verdict or
UNKNOWN with a reason, never the opposite verdict and never an input error.

A case that needs a feature the build lacks (cvc5, the C front end, PPL) is skipped
(exit 77) outside CI; under CI (the environment variable CI set, as CI services do) it
fails, since CI's build has every feature and a skip there would hide a lost check.

  robustness.py --cli PATH --case NAME [--features cvc5,cfront] [--workdir DIR]
  robustness.py --list
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

CASES = {}


def case(name, needs=()):
    def register(fn):
        CASES[name] = (fn, tuple(needs))
        return fn
    return register


class Failure(Exception):
    pass


class Skip(Exception):
    """The case cannot run here (a feature or device is missing): see main()."""


def under_ci():
    """CI services set CI (to "true"); "", "0" and "false" count as unset."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false")


def run(cli, args, timeout, stdin=subprocess.DEVNULL):
    start = time.monotonic()
    try:
        p = subprocess.run([cli] + args, stdin=stdin, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Failure(f"precis-verify {' '.join(args)} did not end within {timeout} s (hang)")
    elapsed = time.monotonic() - start
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    for bad in ("AddressSanitizer", "runtime error:", "Segmentation", "terminate called"):
        if bad in out or bad in err:
            raise Failure(f"crash or sanitizer report:\n{err[-4000:]}")
    # Every phase ends by its own limit; the watchdog is the last resort, and a run it
    # ended (its statistics lost) is a defect in the phase that overran.
    # (Not for the sanitized build: its instrumentation slows every phase several times,
    # and the test suite runs two at a time beside it.)
    if "stopped by the watchdog" in err and not os.path.basename(cli).endswith("-san"):
        raise Failure(f"the watchdog ended the run: a phase overran its limit\n{err[-2000:]}")
    return p.returncode, out, err, elapsed


def expect(cond, msg, out="", err=""):
    if not cond:
        raise Failure(f"{msg}\n--- stdout (tail)\n{out[-2000:]}\n--- stderr (tail)\n{err[-2000:]}")


def expect_unknown_limit(rc, out, err, what):
    """UNKNOWN (exit 2) whose reason names the limit (`time limit` / `memory limit`)."""
    expect(rc == 2, f"expected exit 2 (UNKNOWN), got {rc}", out, err)
    expect(out.startswith("UNKNOWN"), "the verdict line is not UNKNOWN", out, err)
    expect(re.search(r"Reason: .*" + what, out) is not None,
           f"the reason does not name the {what}", out, err)


SAFE, UNSAFE = True, False


def expect_verdict_or_limit(rc, out, err, safe):
    """The program's known verdict (`safe`: exit 0 and SAFE, else exit 1 and UNSAFE), or
    UNKNOWN (exit 2) with a reason; never the opposite verdict, an input error (exit 3:
    every program here is valid), a crash (exit 4) or a hang (docs/cli.md, exit codes)."""
    want, name = (0, "SAFE") if safe else (1, "UNSAFE")
    if rc == 1 - want:
        raise Failure(f"WRONG VERDICT: exit {rc} ({'UNSAFE' if safe else 'SAFE'}) on a "
                      f"{name} program\n--- stdout (tail)\n{out[-2000:]}\n"
                      f"--- stderr (tail)\n{err[-2000:]}")
    expect(rc in (want, 2), f"expected {name} (exit {want}) or UNKNOWN (exit 2), got exit {rc}",
           out, err)
    first = out.split("\n", 1)[0]
    if rc == want:
        expect(first == name, f"exit {rc}, but the verdict line is {first!r}, not {name}",
               out, err)
    else:
        expect(first == "UNKNOWN", f"exit 2, but the verdict line is {first!r}", out, err)
        expect(re.search(r"^Reason: \S", out, re.M) is not None, "UNKNOWN without a reason",
               out, err)


def expected_verdict(yml):
    """An SV-COMP task's expected verdict for unreach-call (True: safe), from its .yml."""
    with open(yml) as f:
        text = f.read()
    m = re.search(r"unreach-call\.prp['\"]?\s*\n\s*expected_verdict:\s*(true|false)", text)
    if m is None:
        raise Failure(f"{yml} states no expected verdict for unreach-call")
    return m.group(1) == "true"


def write(path, text, mode="w"):
    with open(path, mode) as f:
        f.write(text)
    return path


FIG1 = """main process fig1 {
    var x : int
    var flag : int
    var ticks : int
    var result : int
    init loc L0
    loc L1
    loc L2
    loc L3
    loc L4
    final loc END
    error loc ERR
    L0 -> L1 { flag := 0  ticks := 0 }
    L1 -> L2 { ticks := ticks + 1 }
    L2 -> L3 { havoc result }
    L3 -> L4 { assume result = 0 or ticks > x }
    L3 -> L1 { assume not (result = 0 or ticks > x) }
    L4 -> ERR { assume flag > 0 }
    L4 -> END { assume flag <= 0 }
}
"""

SAFE_MODEL = """main process small {
    var x : int
    init loc L0
    loc L1
    final loc END
    error loc ERR
    L0 -> L1 { x := 1 }
    L1 -> ERR { assume x /= 1 }
    L1 -> END { assume x = 1 }
}
"""


def counting_loop(n):
    """SAFE: x counts from 0 by 1 while x < n and leaves the loop with x = n."""
    return f"""main process count {{
    var x : int
    init loc L0
    loc L1
    loc L2
    final loc END
    error loc ERR
    L0 -> L1 {{ x := 0 }}
    L1 -> L1 {{ assume x < {n}  x := x + 1 }}
    L1 -> L2 {{ assume x >= {n} }}
    L2 -> ERR {{ assume x /= {n} }}
    L2 -> END {{ assume x = {n} }}
}}
"""


# ---- limits, one phase at a time ---------------------------------------------------------

@case("limit_time_analysis")
def _(cli, d, feat):
    # The track-everything baseline on Fig. 1 never ends: the CPA loop must stop it.
    m = write(os.path.join(d, "fig1.cfa"), FIG1)
    rc, out, err, _ = run(cli, ["-q", "--baseline", "-t", "1", m], timeout=60)
    expect_unknown_limit(rc, out, err, "time limit")


@case("limit_time_refinement", needs=("cvc5",))
def _(cli, d, feat):
    # Predicate refinement of a long counting loop, one iteration per refinement: the
    # time goes to refinement and solver calls, which must honour the deadline.
    m = write(os.path.join(d, "deep.cfa"), counting_loop(100000))
    rc, out, err, _ = run(cli, ["-q", "--analysis", "pred-cart", "-t", "2", m], timeout=90)
    expect_unknown_limit(rc, out, err, "time limit")


PARITY = """main process parity {
    var x : int
    var y : int
    var z : int
    var w : int
    init loc L0
    loc L1
    final loc END
    error loc ERR
    L0 -> L1 { x := 2 * y + 4 * w * w }
    L1 -> ERR { assume x = 2 * z + 1 }
    L1 -> END { assume not (x = 2 * z + 1) }
}
"""


@case("limit_time_interpolation_cvc5", needs=("cvc5",))
def _(cli, d, feat):
    # cvc5's own interpolation on a non-linear parity argument does not finish, and the
    # per-check limit does not bound it: the run's deadline has to.
    m = write(os.path.join(d, "parity.cfa"), PARITY)
    rc, out, err, _ = run(cli, ["-q", "--analysis", "pred-cart", "--interpolation", "cvc5",
                                "-t", "2", m], timeout=90)
    expect_unknown_limit(rc, out, err, "time limit")


@case("limit_time_front_end", needs=("cfront",))
def _(cli, d, feat):
    # Inlining doubles per level: 2^40 calls. The front end must stop at the limit (its
    # deadline, or the memory limit): UNKNOWN, not an input error, since the program is
    # valid C. It is UNSAFE (g sums 2^40 inputs, so g == 12345 is reachable), which a
    # run that got through the translation could answer.
    lines = ["extern int __VERIFIER_nondet_int(void);",
             "extern void reach_error(void);",
             "int g;",
             "void f40(void) { g = g + __VERIFIER_nondet_int(); }"]
    for i in range(39, -1, -1):
        lines.append(f"void f{i}(void) {{ f{i + 1}(); f{i + 1}(); }}")
    lines.append("int main(void) { f0(); if (g == 12345) reach_error(); return 0; }")
    m = write(os.path.join(d, "blowup.c"), "\n".join(lines) + "\n")
    rc, out, err, _ = run(cli, ["-q", "-t", "1", m], timeout=90)
    expect_verdict_or_limit(rc, out, err, UNSAFE)
    if rc == 2:
        expect_unknown_limit(rc, out, err, "limit")


@case("limit_time_large_c_file", needs=("cfront",))
def _(cli, d, feat):
    # 20,000 sequential nondeterministic increments (2 MB of C): front end, clean-up and
    # analysis all see a large input; the run ends with a verdict or at its limit. SAFE:
    # x is incremented at most 20,000 times from 0, so x > 20000 never holds.
    body = "\n".join("  if (__VERIFIER_nondet_int()) x++;" for _ in range(20000))
    src = ("extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n"
           "int main(void) {\n  int x = 0;\n" + body +
           "\n  if (x > 20000) reach_error();\n  return 0;\n}\n")
    m = write(os.path.join(d, "many_ifs.c"), src)
    rc, out, err, _ = run(cli, ["-q", "-t", "3", m], timeout=90)
    expect_verdict_or_limit(rc, out, err, SAFE)
    if rc == 2:
        expect("time limit" in out or "memory limit" in out, "UNKNOWN not by a limit", out, err)


@case("limit_time_output")
def _(cli, d, feat):
    # The analysis ends fast, then the ARG of 2*10^5 nodes goes to a DOT file; with a
    # limit that strikes during output the run is UNKNOWN (the watchdog) or finished.
    m = write(os.path.join(d, "count.cfa"), counting_loop(100000))
    rc, out, err, _ = run(cli, ["-q", "-a", "expl", "-t", "0.3", "--arg-dot",
                                os.path.join(d, "arg.dot"), m],
                          timeout=60)
    expect_verdict_or_limit(rc, out, err, SAFE)
    if rc == 2:
        expect_unknown_limit(rc, out, err, "time limit")


TASKS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tasks")


def task(rel):
    return os.path.join(TASKS, rel)


# Each phase of each analysis family, with a short limit, on a task where that phase is
# where the time goes: the run ends by itself (never by the watchdog, see run()) with
# UNKNOWN and its reason, or with the task's verdict: the expected_verdict of its .yml
# for unreach-call (token_ring.03.cil-1 UNSAFE; Problem01_label00, test_locks_14-1,
# simple_1-2 and pc_sfifo_1.cil-2 SAFE), never the opposite one.
PHASE_RUNS = {
    # CPA expansion and explicit refinement of a counter to 10^6 (SAFE: see
    # counting_loop); then the certificate (building it from 2 * 10^6 ARG nodes, then the
    # check) at the limit
    "limit_phase_certificate": (("cvc5",), ["-a", "expl", "-t", "4"], "counter"),
    # predicate abstraction and AllSAT on a deep state machine
    "limit_phase_abstraction": (("cvc5", "cfront"), ["-a", "pred-abe", "-t", "1"],
                                "sv-comp/systemc/token_ring.03.cil-1.yml"),
    # Boolean abstraction (pred-bool) on the RERS task
    "limit_phase_allsat": (("cvc5", "cfront"), ["-a", "pred-bool", "-t", "1"],
                           "sv-comp/eca-rers2012/Problem01_label00.yml"),
    # VINTA: expansion over the cutpoint graph, BMC of the ARG, DAG interpolation
    "limit_phase_vinta": (("cvc5", "cfront"), ["-a", "vinta-box", "-t", "1"],
                          "sv-comp/eca-rers2012/Problem01_label00.yml"),
    # abstract interpretation with disjunctive boxes (costly posts)
    "limit_phase_ai": (("cvc5", "cfront"), ["-a", "ai-boxes", "-t", "1"],
                       "sv-comp/locks/test_locks_14-1.yml"),
    # the product with value enumeration and its strategy refiner (a `mod` query)
    "limit_phase_product": (("cvc5", "cfront"), ["-a", "prod-path", "-t", "1"],
                            "sv-comp-more/loop-acceleration/simple_1-2.yml"),
    # interpolation tiers and refinement selection of the predicate analysis
    "limit_phase_interpolation": (("cvc5", "cfront"), ["-a", "pred-cart", "-t", "1"],
                                  "sv-comp/systemc/pc_sfifo_1.cil-2.yml"),
    # the portfolio: every stage within its budget, the report lists each stage's reason
    "limit_phase_portfolio": (("cvc5", "cfront"), ["-t", "2"],
                              "sv-comp/eca-rers2012/Problem01_label00.yml"),
}


def make_phase_case(name, needs, args, target):
    @case(name, needs=needs)
    def _(cli, d, feat):
        if target == "counter":
            m = write(os.path.join(d, "count.cfa"), counting_loop(1000000))
            safe = SAFE
        else:
            m = task(target)
            safe = expected_verdict(m)
        rc, out, err, _ = run(cli, ["-q"] + args + [m], timeout=120)
        expect_verdict_or_limit(rc, out, err, safe)
        if target != "counter" and rc != 2:  # the task's own comparison agrees
            sv = "true" if safe else "false"
            expect(f"SV-COMP verdict: {sv} (expected {sv}: correct)" in out,
                   "the report does not say the SV-COMP verdict is correct", out, err)
        if target == "counter" and rc == 2:  # SAFE in ~3 s uncertified: the limit ends
            expect_unknown_limit(rc, out, err, "time limit")  # the certificate
        if name == "limit_phase_portfolio" and rc == 2:
            expect("no stage decided" in out or "time limit" in out,
                   "the portfolio's report names neither its stages nor the limit", out, err)


for _name, (_needs, _args, _target) in PHASE_RUNS.items():
    make_phase_case(_name, _needs, _args, _target)


@case("limit_memory")
def _(cli, d, feat):
    m = write(os.path.join(d, "fig1.cfa"), FIG1)
    rc, out, err, _ = run(cli, ["-q", "--baseline", "-t", "120", "--memory-limit", "200", m],
                          timeout=180)
    expect_unknown_limit(rc, out, err, "memory limit")


@case("limit_memory_json")
def _(cli, d, feat):
    m = write(os.path.join(d, "fig1.cfa"), FIG1)
    rc, out, err, _ = run(cli, ["-q", "--json", "--baseline", "-t", "120", "--memory-limit",
                                "200", m], timeout=180)
    expect(rc == 2, f"expected exit 2, got {rc}", out, err)
    doc = json.loads(out)
    expect(doc["verdict"] == "UNKNOWN" and "memory limit" in doc["reason"],
           "JSON report does not say UNKNOWN / memory limit", out, err)


# ---- one JSON object for every error -----------------------------------------------------

def json_error(cli, args, rc_expected, out_kind, need_position):
    rc, out, err, _ = run(cli, ["-q", "--json"] + args, timeout=60)
    expect(rc == rc_expected, f"expected exit {rc_expected}, got {rc}", out, err)
    try:
        doc = json.loads(out)
    except json.JSONDecodeError as e:
        raise Failure(f"stdout is not one JSON object ({e}):\n{out[:2000]}")
    expect(doc.get("verdict") == "ERROR", "verdict is not ERROR", out, err)
    expect(doc.get("error") == out_kind, f"error kind is not {out_kind}", out, err)
    expect(isinstance(doc.get("message"), str) and doc["message"], "no message", out, err)
    if need_position:
        expect(isinstance(doc.get("line"), int) and isinstance(doc.get("column"), int),
               "no line/column", out, err)


@case("json_missing_file")
def _(cli, d, feat):
    json_error(cli, [os.path.join(d, "nope.cfa")], 3, "input", False)


@case("json_syntax_error")
def _(cli, d, feat):
    m = write(os.path.join(d, "bad.cfa"), "main process p {\n  var x : int\n  loc L0 {\n}\n")
    json_error(cli, [m], 3, "input", True)


@case("json_type_error")
def _(cli, d, feat):
    m = write(os.path.join(d, "bad.cfa"), SAFE_MODEL.replace("x := 1", "x := true"))
    json_error(cli, [m], 3, "input", True)


@case("json_unsupported_type")
def _(cli, d, feat):
    m = write(os.path.join(d, "bad.cfa"), SAFE_MODEL.replace("x : int", "x : bv[8]"))
    json_error(cli, [m], 3, "input", True)


@case("json_no_error_location")
def _(cli, d, feat):
    m = write(os.path.join(d, "bad.cfa"),
              "main process p {\n  var x : int\n  init loc L0\n  final loc E\n  L0 -> E { x := 1 }\n}\n")
    json_error(cli, [m], 3, "input", False)


@case("json_usage_error")
def _(cli, d, feat):
    m = write(os.path.join(d, "ok.cfa"), SAFE_MODEL)
    json_error(cli, ["--time-limit", "nan", m], 4, "usage", False)


@case("json_fifo")
def _(cli, d, feat):
    fifo = os.path.join(d, "model.cfa")
    os.mkfifo(fifo)  # no writer: opening it would block forever
    json_error(cli, [fifo], 3, "input", False)


@case("json_bad_c", needs=("cfront",))
def _(cli, d, feat):
    m = write(os.path.join(d, "bad.c"), "int main(void) { long double x = 1.5; return (int)x; }\n")
    json_error(cli, [m], 3, "input", True)


@case("json_unsupported_property", needs=("cfront",))
def _(cli, d, feat):
    write(os.path.join(d, "t.c"), "int main(void) { return 0; }\n")
    m = write(os.path.join(d, "t.yml"),
              "format_version: '2.0'\ninput_files: 't.c'\nproperties:\n"
              "  - property_file: ../properties/termination.prp\n    expected_verdict: true\n"
              "options:\n  language: C\n  data_model: ILP32\n")
    json_error(cli, [m], 3, "input", True)


@case("json_verdicts_are_json")
def _(cli, d, feat):
    m = write(os.path.join(d, "ok.cfa"), SAFE_MODEL)
    rc, out, err, _ = run(cli, ["-q", "--json", m], timeout=60)
    expect(rc == 0 and json.loads(out)["verdict"] == "SAFE", "SAFE as JSON", out, err)


# ---- bad input: clean errors, never a crash -------------------------------------------------

@case("cli_rejects_nan_and_negative")
def _(cli, d, feat):
    m = write(os.path.join(d, "ok.cfa"), SAFE_MODEL)
    for args in (["-t", "nan"], ["-t", "inf"], ["--solver-timeout", "nan"],
                 ["--max-nodes", "-1"], ["--max-refinements", "-3"], ["--memory-limit", "x"]):
        rc, out, err, _ = run(cli, args + [m], timeout=30)
        expect(rc == 4, f"{args}: expected exit 4 (usage), got {rc}", out, err)


@case("bom_is_read")
def _(cli, d, feat):
    m = write(os.path.join(d, "bom.cfa"), b"\xef\xbb\xbf" + SAFE_MODEL.encode(), mode="wb")
    rc, out, err, _ = run(cli, ["-q", m], timeout=60)
    expect(rc == 0 and out.startswith("SAFE"), f"BOM model: expected SAFE, got {rc}", out, err)


@case("flat_disjunction_cfa")
def _(cli, d, feat):
    # One assume over a flat disjunction of 365,000 equalities (5 MB). SAFE: x is one of
    # 0..364999, never below 0.
    disj = " or ".join(f"x = {i}" for i in range(365000))
    src = ("main process big {\n  var x : int\n  init loc L0\n  loc L1\n  final loc END\n"
           "  error loc ERR\n  L0 -> L1 { assume " + disj + " }\n"
           "  L1 -> ERR { assume x < 0 }\n  L1 -> END { assume x >= 0 }\n}\n")
    m = write(os.path.join(d, "big.cfa"), src)
    for analysis in ["expl"] + (["pred-cart", "expl+pred"] if "cvc5" in feat else []):
        rc, out, err, _ = run(cli, ["-q", "-a", analysis, "-t", "5", m], timeout=120)
        expect_verdict_or_limit(rc, out, err, SAFE)


@case("deep_c_expression", needs=("cfront",))
def _(cli, d, feat):
    # SAFE: a is 0 or 1, so the sum of 100,000 a's is at most 100,000.
    terms = " + ".join(["a"] * 100000)
    src = ("extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n"
           "int main(void) {\n  int a = __VERIFIER_nondet_int();\n  if (a < 0 || a > 1) return 0;\n"
           f"  int s = {terms};\n  if (s > 100000) reach_error();\n  return 0;\n}}\n")
    m = write(os.path.join(d, "deep.c"), src)
    rc, out, err, _ = run(cli, ["-q", "-t", "10", m], timeout=120)
    expect_verdict_or_limit(rc, out, err, SAFE)


@case("deep_c_parentheses", needs=("cfront",))
def _(cli, d, feat):
    # 100,000 nested parentheses: C11 5.2.4.1 guarantees 63 levels, clang refuses more
    # than its -fbracket-depth (256), so an input error at a position is the answer here
    # (the one case that expects exit 3 on a program a compiler may refuse).
    src = ("int main(void) {\n  int s = " + "(" * 100000 + "1" + ")" * 100000 +
           ";\n  return s;\n}\n")
    m = write(os.path.join(d, "parens.c"), src)
    rc, out, err, _ = run(cli, ["-q", "-t", "10", m], timeout=120)
    expect(rc == 3, f"expected an input error, got {rc}", out, err)
    expect(re.search(r":\d+:\d+: error: ", err) is not None, "no file:line:col", out, err)


@case("many_small_calls", needs=("cfront",))
def _(cli, d, feat):
    # SAFE: g starts at 0 and is only incremented, at most 2,000 times (no overflow).
    lines = ["extern int __VERIFIER_nondet_int(void);", "extern void reach_error(void);",
             "int g;"]
    for i in range(50):
        lines.append(f"void h{i}(int k) {{ if (k > {i}) g = g + 1; }}")
    lines.append("int main(void) {\n  int k = __VERIFIER_nondet_int();")
    lines += [f"  h{i % 50}(k);" for i in range(2000)]
    lines.append("  if (g < 0) reach_error();\n  return 0;\n}")
    m = write(os.path.join(d, "calls.c"), "\n".join(lines) + "\n")
    # expl+pred-abe, not the portfolio: under load the portfolio reaches vinta-box, whose
    # certificate check sends the one huge block to cvc5, and cvc5 1.0.3 overruns its own
    # time limit there (tlimit-per is not checked in its preprocessing): the watchdog's
    # last-resort case, a defect of cvc5 that precis cannot bound from outside, not this
    # test's subject.
    rc, out, err, _ = run(cli, ["-q", "-a", "expl+pred-abe", "-t", "5", m], timeout=120)
    expect_verdict_or_limit(rc, out, err, SAFE)


@case("nonlinear_mod_hang", needs=("cvc5",))
def _(cli, d, feat):
    # SAFE: with b = 3 and 0 <= a < 3, a mod b = a <= 2 and a / b = 0.
    for op in ("mod", "/"):
        bound = "2" if op == "mod" else "1000000"
        src = ("main process nl {\n  var a : int\n  var b : int\n  init loc L0\n  loc L1\n"
               "  final loc END\n  error loc ERR\n  L0 -> L1 { assume b = 3 }\n"
               f"  L1 -> ERR {{ assume (a {op} b) > {bound} and a < 3 and a >= 0 }}\n"
               f"  L1 -> END {{ assume not ((a {op} b) > {bound} and a < 3 and a >= 0) }}\n}}\n")
        m = write(os.path.join(d, "nl.cfa"), src)
        for analysis in ("expl+pred", "pred-cart", "pred-bool"):
            rc, out, err, _ = run(cli, ["-q", "-a", analysis, "-t", "5", m], timeout=90)
            expect_verdict_or_limit(rc, out, err, SAFE)


@case("invalid_yaml", needs=("cfront",))
def _(cli, d, feat):
    write(os.path.join(d, "t.c"), "int main(void) { return 0; }\n")
    for i, text in enumerate([
            "format_version: '2.0'\ninput_files: 't.c\nproperties: []\n",      # unclosed quote
            "format_version: '2.0'\ninput_files: [ 't.c'\n",                   # unbalanced
            "format_version: '2.0'\ninput_files:\n\t- 't.c'\n"]):              # tab indent
        m = write(os.path.join(d, f"bad{i}.yml"), text)
        rc, out, err, _ = run(cli, ["-q", m], timeout=60)
        expect(rc == 3, f"invalid YAML {i}: expected exit 3, got {rc}", out, err)
        expect(re.search(r"bad%d\.yml:\d+:\d+: error: " % i, err) is not None,
               "no file:line:col", out, err)


@case("output_missing_directory")
def _(cli, d, feat):
    m = write(os.path.join(d, "ok.cfa"), SAFE_MODEL)
    rc, out, err, _ = run(cli, ["-q", "--arg-dot", os.path.join(d, "no", "such", "a.dot"), m],
                          timeout=30)
    expect(rc == 3 and "a.dot" in err, f"expected an input error naming a.dot, got {rc}", out, err)
    expect(out == "", "a verdict was printed although the output cannot be written", out, err)


@case("output_full_device")
def _(cli, d, feat):
    if not os.path.exists("/dev/full"):
        raise Skip("no /dev/full on this machine")
    m = write(os.path.join(d, "ok.cfa"), SAFE_MODEL)
    with open("/dev/full", "w") as full:
        p = subprocess.run([cli, "-q", m], stdin=subprocess.DEVNULL, stdout=full,
                           stderr=subprocess.PIPE, timeout=30)
    err = p.stderr.decode()
    expect(p.returncode == 4 and "cannot write" in err,
           f"writing to /dev/full: expected exit 4 with a message, got {p.returncode}", "", err)
    # An analysis with an ARG (the portfolio's sim decides this model and builds none).
    rc, out, err, _ = run(cli, ["-q", "-a", "expl", "--arg-dot", "/dev/full", m], timeout=30)
    expect(rc == 3 and "cannot write" in err, f"--arg-dot /dev/full: got {rc}", out, err)


@case("wide_counterexample")
def _(cli, d, feat):
    # 20,000 variables, each assigned on the path: the text report shows what changes
    # and caps the table instead of printing 20,000 x 20,000 values. UNSAFE (the one path
    # sets v19999 to 19999); the cap is only seen on a counterexample, so the case needs
    # the verdict: the portfolio's sim finds it in 0.6 s and 100 MB (Release build, under
    # load), and -t 60 leaves room for the sanitized build's slowdown.
    n = 20000
    decls = "\n".join(f"  var v{i} : int" for i in range(n))
    ops = "  ".join(f"v{i} := {i}" for i in range(n))
    src = (f"main process wide {{\n{decls}\n  init loc L0\n  loc L1\n  error loc ERR\n"
           f"  L0 -> L1 {{ {ops} }}\n  L1 -> ERR {{ assume v{n - 1} = {n - 1} }}\n}}\n")
    m = write(os.path.join(d, "wide.cfa"), src)
    rc, out, err, _ = run(cli, ["-q", "-t", "60", "--memory-limit", "4000", m], timeout=180)
    expect(rc == 1 and out.startswith("UNSAFE\n"), f"expected UNSAFE, got exit {rc}",
           out[:3000], err)
    expect(len(out) < 2_000_000, f"the report is {len(out)} bytes", out[:3000], err)
    expect("more steps not shown" in out, "the table is not capped with a note", out[:3000],
           err)



def box_loop(n):
    """n counters, each to its own bound on its own edge, at one loop head: a box of 2^n
    vertices as one polyhedron. SAFE (x_(n-1) <= n)."""
    xs = [f"x{i}" for i in range(n)]
    lines = [f"main process boxes{n} {{"] + [f"    var {x} : int" for x in xs]
    lines += ["    init loc L0", "    loc L1", "    final loc END", "    error loc ERR",
              "    L0 -> L1 { " + "  ".join(f"{x} := 0" for x in xs) + " }"]
    lines += [f"    L1 -> L1 {{ assume {x} < {i + 1}  {x} := {x} + 1 }}" for i, x in enumerate(xs)]
    lines += [f"    L1 -> ERR {{ assume {xs[-1]} > {n} }}",
              f"    L1 -> END {{ assume {xs[-1]} <= {n} }}", "}"]
    return "\n".join(lines) + "\n"


def sum_loop(n):
    """The box of box_loop in s_i, with t_i = s_i + s_(i+1) kept by every edge: the same
    2^n vertices, but every variable related (no interval splits it). SAFE."""
    lines = [f"main process sums{n} {{"]
    lines += [f"    var s{i} : int" for i in range(n)] + [f"    var t{i} : int" for i in range(n - 1)]
    lines += ["    init loc L0", "    loc L1", "    final loc END", "    error loc ERR",
              "    L0 -> L1 { " + "  ".join([f"s{i} := 0" for i in range(n)] +
                                          [f"t{i} := 0" for i in range(n - 1)]) + " }"]
    for i in range(n):
        ops = [f"s{i} := s{i} + 1"] + [f"t{j} := t{j} + 1" for j in (i - 1, i) if 0 <= j < n - 1]
        lines.append(f"    L1 -> L1 {{ assume s{i} < 1  " + "  ".join(ops) + " }")
    lines += ["    L1 -> ERR { assume s0 > 1 }", "    L1 -> END { assume s0 <= 1 }", "}"]
    return "\n".join(lines) + "\n"


# Limits in every phase, for the polyhedra: a single PPL operation on 16 bounded
# variables can take minutes. ai-poly and vinta-poly with a 1 s limit end by themselves: the box
# stays intervals, the related variables meet the size limit, and PPL polls the run's
# deadline inside its conversion; a verdict or UNKNOWN, never the watchdog (see run()).
@case("limit_phase_polyhedra", needs=("cvc5", "ppl"))
def _(cli, d, feat):
    for name, text in (("boxes", box_loop(16)), ("sums", sum_loop(16))):
        m = write(os.path.join(d, name + ".cfa"), text)
        for analysis in ("ai-poly", "vinta-poly"):
            rc, out, err, _ = run(cli, ["-q", "-a", analysis, "-t", "1", m], timeout=120)
            expect_verdict_or_limit(rc, out, err, SAFE)
            if name == "boxes" and rc == 2:
                expect_unknown_limit(rc, out, err, "time limit")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli")
    ap.add_argument("--case")
    ap.add_argument("--features", default="")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    if a.list:
        for name, (_, needs) in CASES.items():
            print(name, ",".join(needs))
        return 0
    fn, needs = CASES[a.case]
    feat = set(f for f in a.features.split(",") if f)
    missing = [n for n in needs if n not in feat]
    with tempfile.TemporaryDirectory(prefix="precis-robust-") as d:
        try:
            if missing:
                raise Skip(f"the build lacks {', '.join(missing)}")
            fn(a.cli, d, feat)
        except Failure as e:
            print(f"FAIL {a.case}: {e}")
            return 1
        except Skip as e:
            if under_ci():
                print(f"FAIL {a.case}: cannot run under CI: {e}")
                return 1
            print(f"SKIPPED {a.case}: {e}")
            return 77  # CTest SKIP_RETURN_CODE
    print(f"ok {a.case}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
