#!/usr/bin/env python3
"""Checks that the sources of some targets compile, without generating code.

Reads a build's compile_commands.json (CMAKE_EXPORT_COMPILE_COMMANDS=ON) and runs the
compile command of every object of the named targets with -fsyntax-only instead of
-o OBJECT -c: the compiler's front end, semantic analysis and template instantiation run
(what a build with another compiler exists to check), its code generation does not.

  scripts/syntax-check.py BUILD_DIR TARGET... [-j N]

Exit status 0 when every file passed, 1 when one failed (its diagnostics are printed),
2 when a target has no file in the database.
"""
import argparse
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys


def syntax_command(entry):
    args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    out = []
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if a in ("-c", "-MD", "-MMD"):
            continue
        out.append(a)
    return out + ["-fsyntax-only"]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("build")
    p.add_argument("targets", nargs="+")
    p.add_argument("-j", type=int, default=os.cpu_count() or 2)
    a = p.parse_args()
    with open(os.path.join(a.build, "compile_commands.json")) as f:
        db = json.load(f)
    jobs = []
    for target in a.targets:
        marker = "/" + target + ".dir/"
        mine = [e for e in db if marker in e.get("output", "") or
                marker in e.get("command", "")]
        if not mine:
            print(f"syntax-check: no file of target {target} in {a.build}", file=sys.stderr)
            return 2
        jobs += [(target, e) for e in mine]

    def run(job):
        target, e = job
        r = subprocess.run(syntax_command(e), cwd=e["directory"], capture_output=True,
                           text=True, stdin=subprocess.DEVNULL)
        return target, e["file"], r

    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as pool:
        for target, name, r in pool.map(run, jobs):
            status = "ok" if r.returncode == 0 else "FAILED"
            print(f"syntax-check: {target}: {os.path.basename(name)} {status}", flush=True)
            if r.returncode != 0:
                failed += 1
                sys.stderr.write(r.stdout + r.stderr)
    print(f"syntax-check: {len(jobs) - failed} of {len(jobs)} files compile", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
