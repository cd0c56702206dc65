#!/usr/bin/env python3
"""How predicate abstraction grows on the systemc state machines.

Runs precis-verify with each configuration on token_ring.01-09 and transmitter.04-10
(tests/tasks/sv-comp and tests/tasks/sv-comp-deep) and writes one row per run: the
verdict and whether it is right, the wall time, refinements, abstractions (block
abstractions for the -abe analyses, abstract posts otherwise), the time per
abstraction, the precision size (predicate-location pairs) and the time spent in
covering checks.

  bench/systemc_scaling.py --cli build/dev/examples/precis-verify --label after \\
      --config pred-abe:scope="-a pred-abe --granularity scope" \\
      -t 60 -j 2 --out bench/results/systemc/after.tsv

A configuration is NAME="precis-verify options"; several may be given. With --tasks a
regular expression selects tasks by file name.
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SETS = ["tests/tasks/sv-comp", "tests/tasks/sv-comp-deep"]


def tasks():
    out = []
    for s in SETS:
        with open(os.path.join(ROOT, s, "verdicts.tsv")) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) < 2 or parts[0] == "task":
                    continue
                name = parts[0]
                if not re.search(r"(token_ring|transmitter)\.", name):
                    continue
                yml = re.sub(r"\.c$", ".yml", name)
                out.append((os.path.join(s, yml), parts[-1] == "true"))
    return sorted(out)


def run(cli, label, cname, opts, task, expected_safe, limit):
    cmd = [cli, "--json", "-t", str(limit)] + shlex.split(opts) + [os.path.join(ROOT, task)]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    wall = time.monotonic() - t0
    try:
        d = json.loads(p.stdout)
    except json.JSONDecodeError:
        d = {"verdict": "ERROR", "reason": (p.stderr.strip().splitlines() or ["?"])[-1]}
    s = d.get("statistics", {}) or {}
    v = d.get("verdict", "ERROR")
    if v == "SAFE":
        right = "yes" if expected_safe else "WRONG"
    elif v == "UNSAFE":
        right = "yes" if not expected_safe else "WRONG"
    else:
        right = "-"
    abstractions = s.get("abe abstractions", s.get("pred posts", 0)) or 0
    abs_time = s.get("abe time abstraction s", s.get("pred post time s", 0)) or 0
    leq_time = s.get("abe leq time s", s.get("pred leq time s", 0)) or 0
    per = 1000.0 * abs_time / abstractions if abstractions else 0.0
    reason = (d.get("reason") or "").splitlines()[0][:70] if d.get("reason") else ""
    return [label, cname, os.path.basename(task), v, right, f"{wall:.2f}",
            str(s.get("refinements", 0)), str(int(abstractions)), f"{abs_time:.2f}",
            f"{per:.2f}", str(s.get("precision_size", 0)), f"{leq_time:.2f}", reason]


HEADER = ["label", "config", "task", "verdict", "right", "wall_s", "refinements",
          "abstractions", "abstraction_s", "ms_per_abstraction", "precision_size",
          "leq_s", "reason"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--label", default="run")
    ap.add_argument("--config", action="append", required=True, help='NAME="options"')
    ap.add_argument("-t", "--time-limit", type=float, default=60)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--tasks", default="", help="regular expression over task file names")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    configs = []
    for c in a.config:
        name, _, opts = c.partition("=")
        configs.append((name, opts))
    jobs = [(c, o, t, safe) for c, o in configs for t, safe in tasks()
            if re.search(a.tasks, os.path.basename(t))]
    rows = []
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = [ex.submit(run, a.cli, a.label, c, o, t, safe, a.time_limit)
                for c, o, t, safe in jobs]
        for f in cf.as_completed(futs):
            r = f.result()
            rows.append(r)
            print("\t".join(r[:6]), file=sys.stderr, flush=True)
    rows.sort(key=lambda r: (r[1], r[2]))
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        f.write("\t".join(HEADER) + "\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    for c, _ in configs:
        mine = [r for r in rows if r[1] == c]
        decided = sum(r[4] == "yes" for r in mine)
        wrong = sum(r[4] == "WRONG" for r in mine)
        print(f"{a.label} {c}: {decided}/{len(mine)} decided, {wrong} wrong")


if __name__ == "__main__":
    main()
