#!/usr/bin/env python3
"""The papers' table and quantile plot from precis-suite --csv.

  quantile_plot.py TABLE.csv OUTDIR [--timeout S]

Writes OUTDIR/papers_summary.md (per configuration: solved, wrong, unknown, CPU time of
the solved tasks and in all; the virtual best: a task solved if any of precis's
configurations solved it, at the fastest one's CPU time; a peer tool's column, from
precis-suite --tool, is listed and plotted but not part of the virtual best) and OUTDIR/quantile.svg, the SV-COMP-style quantile
plot: for each configuration its solved tasks sorted by CPU time, the n-th one at
x = n, y = its CPU time (log scale). Needs gnuplot for the SVG (the summary is written
without it). Standard library only.
"""
import argparse
import csv
import os
import shutil
import subprocess
from collections import OrderedDict


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("outdir")
    ap.add_argument("--timeout", type=float, default=0)
    a = ap.parse_args()

    rows = list(csv.DictReader(open(a.csv)))
    configs = OrderedDict()
    tasks = OrderedDict()
    for r in rows:
        configs.setdefault(r["config"], []).append(r)
        tasks.setdefault(r["model"], []).append(r)

    # Peer tools (precis-suite --tool; the CSV's `tool` column, absent in older CSVs)
    # have their own curves but no part in the virtual best of precis's configurations.
    peers = {r["config"] for r in rows if r.get("tool") == "peer"}
    best = {}
    for model, rs in tasks.items():
        solved = [float(r["cpu_ms"]) for r in rs
                  if r["outcome"] == "correct" and r["config"] not in peers]
        if solved:
            best[model] = min(solved)

    os.makedirs(a.outdir, exist_ok=True)
    lines = ["| Configuration | Solved | Wrong | Unknown | Errors | CPU of solved (s) | CPU all (s) |",
             "|---|---|---|---|---|---|---|"]
    curves = OrderedDict()
    for name, rs in configs.items():
        n = {k: sum(1 for r in rs if r["outcome"] == k)
             for k in ("correct", "wrong", "unknown", "rejected", "error")}
        times = sorted(float(r["cpu_ms"]) / 1000 for r in rs if r["outcome"] == "correct")
        total = sum(float(r["cpu_ms"]) for r in rs) / 1000
        curves[name] = times
        lines.append("| %s | %d | %d | %d | %d | %.1f | %.1f |" % (
            name + (" (peer tool, not certified)" if name in peers else ""), n["correct"], n["wrong"], n["unknown"], n["rejected"] + n["error"],
            sum(times), total))
    vb = sorted(t / 1000 for t in best.values())
    curves["virtual best"] = vb
    errors = sum(1 for rs in tasks.values()
                 if all(r["outcome"] in ("rejected", "error") for r in rs if r["config"] not in peers))
    lines.append("| virtual best | %d | 0 | %d | %d | %.1f | |" % (
        len(vb), len(tasks) - len(vb) - errors, errors, sum(vb)))
    summary = os.path.join(a.outdir, "papers_summary.md")
    with open(summary, "w") as f:
        f.write("%d tasks%s\n\n" % (len(tasks), ", %g s per run" % a.timeout if a.timeout else ""))
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    print("wrote", summary)

    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        print("note: no gnuplot; no plot")
        return
    data = os.path.join(a.outdir, "quantile.dat")
    with open(data, "w") as f:
        for name, times in curves.items():
            f.write('"%s"\n' % name)
            for i, t in enumerate(times, 1):
                f.write("%d %.6f\n" % (i, max(t, 1e-3)))
            f.write("\n\n")
    svg = os.path.join(a.outdir, "quantile.svg")
    script = "\n".join([
        "set terminal svg size 1000,650 dynamic",
        'set output "%s"' % svg,
        'set title "Quantile plot: CPU time per solved task (%d tasks)"' % len(tasks),
        'set xlabel "n-th fastest solved task"',
        'set ylabel "CPU time (s)"',
        "set logscale y",
        "set key outside right",
        "set grid",
        # gnuplot cycles through 8 colours: from the 9th curve on, the lines are wider
        # (2, 3, ...) so that no two curves look alike.
        "plot " + ", ".join(
            '"%s" index %d using 1:2 with linespoints pointsize 0.4 lc %d lw %d '
            "title columnheader(1)" % (data, i, i % 8 + 1, i // 8 + 1)
            for i in range(len(curves))),
    ])
    subprocess.run([gnuplot], input=script, text=True, check=True)
    print("wrote", svg)


if __name__ == "__main__":
    main()
