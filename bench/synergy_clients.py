#!/usr/bin/env python3
"""Synergy's five configurations on the k-clients family (bench/gen_clients.py).

For each k: verdict, CEGAR iterations, precise (Boolean) abstractions computed, and the
time split of the paper's Table 1 (total, abstraction = predicate posts, model checking
= the rest of the ARG exploration, refinement), then the k from which NewST+NewSP is
faster than each other configuration (the crossing points of the paper's Fig. 2).

usage: synergy_clients.py PRECIS_VERIFY [--ks 1,2,3,4,5,6,8] [--timeout 60] [--extra ARGS]
  --extra: more precis-verify arguments for every run (e.g. "--granularity location")
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

CONFIGS = [
    ("Cartesian", ["--analysis", "pred-cart"]),
    ("Boolean", ["--analysis", "pred-bool"]),
    ("NewST", ["--analysis", "synergy", "--synergy", "st"]),
    ("NewSP", ["--analysis", "synergy", "--synergy", "sp"]),
    ("NewST+NewSP", ["--analysis", "synergy"]),
    ("NewST+NewSP no thr.", ["--analysis", "synergy", "--threshold", "off"]),
]


def run(verify, model, args, timeout, extra):
    cmd = [verify, model, "--json", "-q", "--time-limit", str(timeout)] + args + extra
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 30)
    d = json.loads(p.stdout)
    s = d.get("statistics", {})
    abs_t = s.get("pred post time s", 0.0)
    return {
        "verdict": d["verdict"],
        "iter": s.get("refinements", 0),
        "precise": int(s.get("pred boolean posts", 0)),
        "total": s.get("time_total", 0.0),
        "abs": abs_t,
        "mc": max(0.0, s.get("time_cpa", 0.0) - abs_t),
        "ref": s.get("time_refinement", 0.0),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("verify")
    ap.add_argument("--ks", default="1,2,3,4,5,6,8")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--extra", default="")
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    ks = [int(k) for k in a.ks.split(",")]
    results = {}
    print("| k | configuration | verdict | iterations | precise abstractions | total s | abs s | MC s | ref s |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for k in ks:
            model = os.path.join(tmp, f"clients_{k}.cfa")
            with open(model, "w") as f:
                subprocess.run([sys.executable, os.path.join(here, "gen_clients.py"), str(k)],
                               stdout=f, check=True)
            for name, args in CONFIGS:
                r = run(a.verify, model, args, a.timeout, a.extra.split())
                results[(k, name)] = r
                print(f"| {k} | {name} | {r['verdict']} | {r['iter']} | {r['precise']} | "
                      f"{r['total']:.2f} | {r['abs']:.2f} | {r['mc']:.2f} | {r['ref']:.2f} |",
                      flush=True)
    print()
    for name, _ in CONFIGS:
        if name.startswith("NewST+NewSP"):
            continue
        cross = None
        for k in ks:
            mine, other = results[(k, "NewST+NewSP")], results[(k, name)]
            faster = mine["verdict"] == "SAFE" and (other["verdict"] != "SAFE" or
                                                    mine["total"] < other["total"])
            if faster and cross is None:
                cross = k
            elif not faster:
                cross = None
        print(f"NewST+NewSP faster than {name} from k = {cross if cross else '-'} on")


if __name__ == "__main__":
    main()
