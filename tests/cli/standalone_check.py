#!/usr/bin/env python3
"""A clone is the whole project: no file of the repository may point outside it.

Searches every file of the source tree (not .git, not build folders, not the copied
third-party tasks and tools) for a path into the steering folder beside the clone (its
models, papers, tools or design notes) and
fails naming each file and line. Exit 0 when there is none.

  standalone_check.py SOURCE_DIR
"""
import os
import re
import sys

# The folder's name is assembled, so that this file does not name it itself.
_FOLDER = "sha" + "red"
PATTERN = re.compile(r"\.\./" + _FOLDER + r"\b|\b" + _FOLDER +
                     r"/(models|papers|tools|design\.md|sealed)\b")
SKIP_DIRS = {".git", "node_modules", "__pycache__"}
# Copied from elsewhere, unchanged: their own READMEs may name their origin.
SKIP_PREFIXES = ("tests/tasks/", "tests/tools/")
TEXT_SUFFIXES = {".md", ".txt", ".cmake", ".in", ".sh", ".py", ".hpp", ".cpp", ".h", ".c",
                 ".yml", ".yaml", ".xml", ".json", ".mjs", ".js", ".cfa", ".tsv", ""}


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    hits = []
    checked = 0
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        dirnames[:] = [d for d in dirnames
                       if d not in SKIP_DIRS and not (rel_dir == "." and d.startswith("build"))]
        for name in filenames:
            rel = os.path.normpath(os.path.join(rel_dir, name))
            if rel.startswith(SKIP_PREFIXES) or os.path.splitext(name)[1] not in TEXT_SUFFIXES:
                continue
            checked += 1
            try:
                with open(os.path.join(dirpath, name), encoding="utf-8", errors="replace") as f:
                    for n, line in enumerate(f, 1):
                        if PATTERN.search(line):
                            hits.append(f"{rel}:{n}: {line.strip()}")
            except OSError as e:
                hits.append(f"{rel}: cannot read: {e}")
    if checked < 50:
        print(f"FAIL: only {checked} files checked under {root}: wrong folder?")
        return 1
    for h in hits:
        print(h)
    print(f"{checked} files checked, {len(hits)} point outside the repository")
    return 1 if hits else 0


if __name__ == "__main__":
    sys.exit(main())
