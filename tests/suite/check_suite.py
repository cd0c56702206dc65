#!/usr/bin/env python3
"""The bundled task sets as a test: precis-suite runs precis-verify's default analysis
(the portfolio, `--analysis auto`) on every task of each set listed in floors.tsv, one
run at a time, at a short per-task limit, and compares each verdict with the task's known
one (precis-suite reads it from the task's .yml, its verdicts.tsv or the set's
verdicts.tsv, and calls a verdict against it "wrong").

The check fails when
  - any verdict is wrong (SAFE on an UNSAFE task or the reverse), or precis-suite says so
    (exit 1);
  - a run ends in an error (a crash, an exit code that disagrees with the verdict, a
    usage error): outcome "error";
  - a task has no known verdict (a wrong answer on it could not be seen), or a model
    without an error location (expected NONE) is not refused as an input error;
  - a SAFE verdict comes without a checked certificate (precis-suite's summary counts
    them; every SAFE of this build's analyses stands on one);
  - a set decides fewer tasks than its floor in floors.tsv;
  - a set's number of tasks is not the one its floor was measured on (re-measure and
    update floors.tsv with the new count);
  - a set of floors.tsv is missing, or precis-suite cannot run (exit 2).

  check_suite.py --suite PRECIS-SUITE --verify PRECIS-VERIFY --tasks TASKS-DIR
                 [--floors FLOORS.tsv] [--timeout S] [--memory-limit MB]
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def read_floors(path):
    """floors.tsv: '#' comment lines, a header `set tasks floor timeout_s ...`, then one
    row per set. Returns [(set, tasks, floor, timeout_s)]."""
    rows = []
    header = None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            cols = line.split("\t")
            if header is None:
                header = cols
                continue
            r = dict(zip(header, cols))
            rows.append((r["set"], int(r["tasks"]), int(r["floor"]), float(r["timeout_s"])))
    if not rows:
        raise SystemExit(f"FAIL: {path} lists no set")
    return rows


def run_set(args, name, timeout_s, tmp):
    """precis-suite on one set; returns (exit code, CSV rows, seconds, stdout)."""
    csv_path = os.path.join(tmp, name.replace("/", "_") + ".csv")
    cmd = [args.suite, "--verify", args.verify, "--analysis", "auto", "-j", "1",
           "--timeout", f"{timeout_s:g}",
           "--memory-limit", str(args.memory_limit), "--csv", csv_path,
           os.path.join(args.tasks, name)]
    print("$ " + " ".join(cmd), flush=True)
    start = time.monotonic()
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    seconds = time.monotonic() - start
    # The table, its notes (why each undecided task is undecided) and the summary.
    print(p.stdout)
    if p.returncode not in (0, 1):
        print(p.stderr[-4000:])
        return p.returncode, [], seconds, p.stdout
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    return p.returncode, rows, seconds, p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--suite", required=True, help="precis-suite")
    ap.add_argument("--verify", required=True, help="precis-verify")
    ap.add_argument("--tasks", required=True, help="tests/tasks")
    ap.add_argument("--floors", default=os.path.join(HERE, "floors.tsv"))
    ap.add_argument("--memory-limit", type=int, default=2000,
                    help="MB per run (two tests run at once on CI's machine)")
    ap.add_argument("--timeout", type=float, default=None,
                    help="per-task limit in seconds for every set (default: floors.tsv's; "
                         "the floors hold only at their own limit)")
    args = ap.parse_args()
    for exe in (args.suite, args.verify):
        if not os.access(exe, os.X_OK):
            print(f"FAIL: {exe} is not an executable")
            return 1

    failures = []
    summary = []
    total_start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="precis-suite-check-") as tmp:
        for name, tasks, floor, timeout_s in read_floors(args.floors):
            if args.timeout is not None:
                timeout_s = args.timeout
            if not os.path.isdir(os.path.join(args.tasks, name)):
                failures.append(f"{name}: no such set under {args.tasks}")
                continue
            rc, rows, seconds, stdout = run_set(args, name, timeout_s, tmp)
            if rc not in (0, 1):
                failures.append(f"{name}: precis-suite failed (exit {rc})")
                continue
            count = {}
            for r in rows:
                count[r["outcome"]] = count.get(r["outcome"], 0) + 1
            decided = count.get("correct", 0)
            wrong = [r for r in rows if r["outcome"] == "wrong"]
            errors = [r for r in rows if r["outcome"] == "error"]
            no_verdict = [r for r in rows if r["expected"] not in ("SAFE", "UNSAFE", "NONE")]
            not_refused = [r for r in rows
                           if r["expected"] == "NONE" and r["outcome"] != "rejected"]
            uncertified = re.search(r"(\d+) correct SAFE without a checked certificate",
                                    stdout)
            summary.append(f"{name}: {decided} of {len(rows)} decided (floor {floor}), "
                           f"{len(wrong)} wrong, {count.get('unknown', 0)} unknown, "
                           f"{count.get('rejected', 0)} rejected, {len(errors)} errors, "
                           f"-t {timeout_s:g}, {seconds:.0f} s")
            for r in wrong:
                failures.append(f"{name}: WRONG VERDICT on {r['model']}: {r['verdict']}, "
                                f"expected {r['expected']}")
            if rc == 1 and not wrong:
                failures.append(f"{name}: precis-suite reports wrong verdicts (exit 1)")
            for r in errors:
                failures.append(f"{name}: error on {r['model']}: {r['verdict']} (see the "
                                "notes above)")
            for r in no_verdict:
                failures.append(f"{name}: {r['model']} has no known verdict "
                                f"({r['expected']}): a wrong answer would go unseen")
            for r in not_refused:
                failures.append(f"{name}: {r['model']} has no error location, but the run "
                                f"said {r['verdict']} instead of refusing it")
            if uncertified:
                failures.append(f"{name}: {uncertified.group(1)} SAFE verdicts without a "
                                "checked certificate")
            if len(rows) != tasks:
                failures.append(f"{name}: {len(rows)} tasks, floors.tsv's floor was measured "
                                f"on {tasks}: re-measure the set and update floors.tsv")
            if decided < floor:
                failures.append(f"{name}: {decided} decided, fewer than the floor {floor}")
    print("summary:")
    for s in summary:
        print("  " + s)
    print(f"  total {time.monotonic() - total_start:.0f} s")
    if failures:
        for f in failures:
            print("FAIL: " + f)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
