#!/usr/bin/env python3
"""Checks that the headers under include/precis keep the layer order of
docs/architecture.md: a header includes only headers of its own layer or of layers
listed before it in the table under "## Layers" (first column, one folder per row).
The umbrella headers directly in include/precis/ may include any layer.

Usage: check-layers.py [REPO]   (exit 0: the order holds; 1: the includes that break it)
"""
import pathlib
import re
import sys

repo = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent)
arch = (repo / "docs" / "architecture.md").read_text()
section = arch.split("## Layers", 1)[1].split("\n## ", 1)[0]
order = [m.group(1) for m in re.finditer(r"^\| *([a-z_]+) *\|", section, re.M)]
order = [name for name in order if name != "layer"]  # the table's header row
if not order:
    sys.exit("check-layers: no layer table under '## Layers' in docs/architecture.md")
rank = {name: i for i, name in enumerate(order)}

root = repo / "include" / "precis"
include = re.compile(r'^\s*#\s*include\s*[<"]precis/([^">]+)[">]', re.M)
bad, seen = [], set()
for header in sorted(root.rglob("*.hpp")):
    rel = header.relative_to(root)
    if len(rel.parts) == 1:
        continue  # an umbrella header
    layer = rel.parts[0]
    seen.add(layer)
    if layer not in rank:
        bad.append(f"include/precis/{rel}: folder '{layer}' is not a layer of docs/architecture.md")
        continue
    for target in include.findall(header.read_text()):
        to = target.split("/")[0]
        if "/" not in target:
            bad.append(f"include/precis/{rel}: includes the umbrella header precis/{target}")
        elif to not in rank:
            bad.append(f"include/precis/{rel}: includes precis/{target}, of no layer")
        elif rank[to] > rank[layer]:
            bad.append(f"include/precis/{rel} ({layer}) includes precis/{target} ({to}), "
                       f"a higher layer")
for name in order:
    if name not in seen:
        bad.append(f"docs/architecture.md: layer '{name}' has no folder include/precis/{name}")
if bad:
    print("\n".join(bad))
    print(f"check-layers: {len(bad)} problem(s); the order is {' < '.join(order)}")
    sys.exit(1)
print(f"check-layers: {sum(1 for _ in root.rglob('*.hpp'))} headers keep the order "
      f"{' < '.join(order)}")
