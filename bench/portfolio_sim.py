#!/usr/bin/env python3
"""Simulates portfolio rules on a papers' table (bench/papers_table.sh).

Each configuration of bench/papers_table.sh ran alone on every task under the same time
limit; a portfolio runs some of them in sequence, stage i getting `share` of the time
left when it starts (algorithms/sequential.hpp). From the table's per-task CPU times:
a stage decides a task if its configuration decided it alone in no more than the
stage's budget; a stage that does not decide uses its budget, or less if its
configuration gave up earlier (UNKNOWN before the limit). This is an estimate (a stage
gets the machine alone in both cases; start-up costs are counted once per stage), good
for ranking rules, not for the final figure: the chosen rule is measured for real.

  portfolio_sim.py TABLE.csv --limit 5 \
      --rule 'default=EXPLitp-PRED-ABE:0.5,EXPLitp-PRED-SBE:0.5,vBox:1' \
      --rule 'bmc-2nd=EXPLitp-PRED-ABE:0.5,bmc:0.4,EXPLitp-PRED-SBE:0.5,vBox:1' \
      [--features FEATURES.tsv --when 'bmc-2nd:loop_counters==0']

A stage written CFG:SHARE?EXPR runs only on tasks whose features satisfy EXPR (the
portfolio's ai-poly stage: 'ai-poly:0.1?loops>0 and arithmetic>0').

`--features` reads one row per task (model, then feature columns: precis-verify --json
"portfolio features", spaces as underscores); `--when NAME:EXPR` applies rule NAME only
where the Python expression over the features holds (else the first rule).
`--collect CLI --features OUT.tsv` writes that file first, from every model and task of
the sets (tests/models, tests/tasks/*), keyed like the table (set/name, no extension).
"""

import argparse
import csv
import glob
import json
import os
import subprocess
import sys
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def collect_features(cli, out):
    """Runs `cli` briefly on every model and task; writes their portfolio features."""
    files = glob.glob(os.path.join(ROOT, "tests/models/**/*.cfa"), recursive=True)
    files += glob.glob(os.path.join(ROOT, "tests/tasks/**/*.yml"), recursive=True)
    files += glob.glob(os.path.join(ROOT, "tests/tasks/theta/*.cfa"))
    rows = []
    for path in sorted(set(files)):
        p = subprocess.run([cli, "--json", "-q", "-a", "auto", "--stages", "expl", "-t", "1", path],
                           capture_output=True, text=True, stdin=subprocess.DEVNULL)
        try:
            feats = json.loads(p.stdout)["statistics"]["portfolio features"]
        except (ValueError, KeyError):
            continue  # an input the front end refuses: the table has it as an error
        row = {"model": os.path.basename(os.path.dirname(path)) + "/" +
               os.path.splitext(os.path.basename(path))[0]}
        for f in feats:
            k, _, v = f.rpartition(" ")
            row[k.replace(" ", "_")] = {"no": "0", "yes": "1"}.get(v, v)
        rows.append(row)
    keys = ["model"] + [k for k in rows[0] if k != "model"] if rows else ["model"]
    with open(out, "w") as f:
        w = csv.DictWriter(f, keys, delimiter="\t")
        w.writeheader()
        w.writerows(rows)
    print(f"portfolio_sim: features of {len(rows)} tasks in {out}", file=sys.stderr)


def parse_rule(text):
    """NAME=CFG:SHARE[?EXPR],... (a stage with ?EXPR runs only where EXPR holds)."""
    name, _, stages = text.partition("=")
    out = []
    for s in stages.split(","):
        s, _, cond = s.partition("?")
        cfg, _, share = s.partition(":")
        out.append((cfg, float(share or 1), cond or None))
    return name, out


def applicable(stages, feats):
    out = []
    for cfg, share, cond in stages:
        if cond is None or (feats is not None and eval(cond, {}, dict(feats))):  # noqa: S307
            out.append((cfg, share))
    return out


def simulate(stages, results, limit_ms):
    """(decided, cpu_ms) of one task under a sequence of stages."""
    left = limit_ms
    used = 0.0
    for i, (cfg, share) in enumerate(stages):
        budget = left if i == len(stages) - 1 else left * share
        r = results.get(cfg)
        if r is None:
            raise SystemExit(f"portfolio_sim: configuration {cfg} is not in the table")
        outcome, cpu = r
        if outcome == "correct" and cpu <= budget:
            return True, used + cpu
        if outcome == "wrong" and cpu <= budget:
            return False, used + cpu  # a wrong verdict ends the portfolio
        spent = min(cpu, budget)
        used += spent
        left -= spent
        if left <= 0:
            break
    return False, used


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("table")
    ap.add_argument("--limit", type=float, required=True, help="seconds per task")
    ap.add_argument("--rule", action="append", required=True)
    ap.add_argument("--features")
    ap.add_argument("--when", action="append", default=[])
    ap.add_argument("--list", action="store_true", help="print the tasks each rule loses or wins")
    ap.add_argument("--collect", metavar="CLI", help="write --features from this precis-verify")
    a = ap.parse_args()
    if a.collect:
        if not a.features:
            raise SystemExit("portfolio_sim: --collect needs --features OUT.tsv")
        collect_features(a.collect, a.features)

    table = defaultdict(dict)
    with open(a.table) as f:
        for row in csv.DictReader(f):
            table[row["model"]][row["config"]] = (row["outcome"], float(row["cpu_ms"] or 0))
    feats = {}
    if a.features:
        with open(a.features) as f:
            for row in csv.DictReader(f, delimiter="\t"):
                feats[row["model"]] = {k: int(v) if v.lstrip("-").isdigit() else v
                                       for k, v in row.items() if k != "model"}
    rules = [parse_rule(r) for r in a.rule]
    when = dict(w.split(":", 1) for w in a.when)
    limit_ms = a.limit * 1000
    base = rules[0]
    solved_by = {}
    print(f"{'rule':<24} {'solved':>6} {'cpu (s)':>9}")
    for name, stages in rules:
        solved, cpu, won = 0, 0.0, set()
        for model, results in sorted(table.items()):
            use = stages
            f = feats.get(model)
            if name in when and (f is None or not eval(when[name], {}, dict(f))):  # noqa: S307
                use = base[1]
            ok, t = simulate(applicable(use, f), results, limit_ms)
            solved += ok
            cpu += t
            if ok:
                won.add(model)
        solved_by[name] = won
        print(f"{name:<24} {solved:>6} {cpu / 1000:>9.1f}")
    if a.list:
        for name, _ in rules[1:]:
            print(f"{name}: +{sorted(solved_by[name] - solved_by[base[0]])}"
                  f" -{sorted(solved_by[base[0]] - solved_by[name])}")


if __name__ == "__main__":
    sys.exit(main())
