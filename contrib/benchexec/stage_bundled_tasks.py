#!/usr/bin/env python3
"""Stage the SV-COMP tasks bundled with precis so that BenchExec can read them.

The task definitions in tests/tasks/sv-comp*/ list, besides unreach-call, properties
(termination, valid-memsafety, no-overflow, coverage-*) whose .prp files the repository
does not have. BenchExec resolves every property file of a task definition and stops the
whole benchmark when one does not exist. This script builds, by default in
contrib/benchexec/bundled-tasks/:

    <set>/<folder>/X     symbolic link to tests/tasks/<set>/<folder>/X, except for
                         the 13 task definitions of format_version '1.1' (a version
                         BenchExec does not accept: it knows 0.1, 1.0, 2.0, 2.1) that
                         have an options block (data model), which only 2.0 allows:
                         those are copied with format_version '2.0', nothing else changed
    <set>/properties/    unreach-call.prp: link to the repository's file;
                         every other referenced .prp: SV-COMP's text for that property,
                         written only so that the name resolves (precis-bundled.xml
                         selects unreach-call; no run reads these files)

The task definitions find bundled-tasks/<set>/properties/ through "../properties/X.prp".

Usage: python3 contrib/benchexec/stage_bundled_tasks.py [OUTPUT_DIR]
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SETS = ("sv-comp", "sv-comp-more")

# The property files of the sv-benchmarks collection (c/properties/).
KNOWN_PROPERTIES = {
    "termination.prp": "CHECK( init(main()), LTL(F end) )\n",
    "no-overflow.prp": "CHECK( init(main()), LTL(G ! overflow) )\n",
    "valid-memsafety.prp": (
        "CHECK( init(main()), LTL(G valid-free) )\n"
        "CHECK( init(main()), LTL(G valid-deref) )\n"
        "CHECK( init(main()), LTL(G valid-memtrack) )\n"
    ),
    "valid-memcleanup.prp": "CHECK( init(main()), LTL(G valid-memcleanup) )\n",
    "coverage-branches.prp": "COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )\n",
    "coverage-conditions.prp": "COVER( init(main()), FQL(COVER EDGES(@CONDITIONEDGE)) )\n",
    "coverage-statements.prp": "COVER( init(main()), FQL(COVER EDGES(@BASICBLOCKENTRY)) )\n",
    "coverage-error-call.prp": "COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )\n",
}

PROPERTY_LINE = re.compile(r"^\s*-?\s*property_file:\s*['\"]?([^'\"\s#]+)")
VERSION_LINE = re.compile(r"^format_version:\s*['\"]?([0-9.]+)['\"]?\s*$", re.M)
BENCHEXEC_VERSIONS = ("0.1", "1.0", "2.0", "2.1")  # benchexec/model.py _TASK_DEF_VERSIONS


def link(target, name):
    if os.path.islink(name):
        if os.readlink(name) == target:
            return
        os.unlink(name)
    os.symlink(target, name)


def stage(out_dir):
    for task_set in SETS:
        source = os.path.join(REPO, "tests", "tasks", task_set)
        dest = os.path.join(out_dir, task_set)
        props = os.path.join(dest, "properties")
        os.makedirs(props, exist_ok=True)
        referenced = set()
        count = 0
        rewritten = 0
        for folder in sorted(os.listdir(source)):
            path = os.path.join(source, folder)
            if folder == "properties" or not os.path.isdir(path):
                continue
            staged_folder = os.path.join(dest, folder)
            if os.path.islink(staged_folder):  # layout of an earlier version of this script
                os.unlink(staged_folder)
            os.makedirs(staged_folder, exist_ok=True)
            for name in sorted(os.listdir(path)):
                file = os.path.join(path, name)
                staged = os.path.join(staged_folder, name)
                if not name.endswith(".yml"):
                    link(file, staged)
                    continue
                count += 1
                with open(file, encoding="utf-8") as f:
                    text = f.read()
                for line in text.splitlines():
                    match = PROPERTY_LINE.match(line)
                    if match:
                        referenced.add(os.path.basename(match.group(1)))
                version = VERSION_LINE.search(text)
                if version and version.group(1) not in BENCHEXEC_VERSIONS:
                    if os.path.islink(staged):
                        os.unlink(staged)
                    with open(staged, "w", encoding="utf-8") as f:
                        f.write(
                            f"# staged copy of tests/tasks/{task_set}/{folder}/{name}: "
                            f"format_version {version.group(1)} -> 2.0 for BenchExec\n"
                            + VERSION_LINE.sub("format_version: '2.0'", text, count=1)
                        )
                    rewritten += 1
                else:
                    link(file, staged)
        for prp in sorted(referenced):
            real = os.path.join(source, "properties", prp)
            staged = os.path.join(props, prp)
            if os.path.exists(real):
                link(real, staged)
            elif prp in KNOWN_PROPERTIES:
                if os.path.islink(staged):
                    os.unlink(staged)
                with open(staged, "w", encoding="utf-8") as f:
                    f.write(KNOWN_PROPERTIES[prp])
            else:
                sys.exit(f"{task_set}: unknown property file {prp}: add it to KNOWN_PROPERTIES")
        print(
            f"{dest}: {count} task definitions ({rewritten} as format 2.0), "
            f"properties: {', '.join(sorted(referenced))}"
        )


if __name__ == "__main__":
    stage(os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(HERE, "bundled-tasks"))
