"""Print the layers of service/ as a text diagram: each layer's packages, top to bottom, and what each
package imports directly, read from the code's imports (grimp). docs/architecture.md holds its
output; tests/test_architecture.py fails when the two differ.

    .venv/bin/python scripts/architecture.py
"""
from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent


def layers() -> list[list[str]]:
    """The layers contract of pyproject.toml, top layer first: a list of package names per layer."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers")
    return [[name.strip() for name in layer.split("|")] for layer in contract["layers"]]


def imported_packages(graph, package: str, packages: list[str]) -> list[str]:
    """The other packages among `packages` that a module of `package` imports directly."""
    found = set()
    for other in packages:
        if other != package and graph.direct_import_exists(importer=package, imported=other, as_packages=True):
            found.add(other)
    return [p for p in packages if p in found]


def diagram() -> str:
    sys.path.insert(0, str(ROOT))
    graph = grimp.build_graph("service", cache_dir=None)
    order = layers()
    packages = [package for layer in order for package in layer]
    width = max(len(p) for p in packages)
    lines = []
    for number, layer in enumerate(order):
        for package in layer:
            uses = [p.removeprefix("service.") for p in imported_packages(graph, package, packages)]
            lines.append(f"  {package:<{width}}  imports {', '.join(uses) if uses else 'nothing of the service'}")
        if number < len(order) - 1:
            lines.append(f"  {'|':^{width}}")
            lines.append(f"  {'v':^{width}}")
    return "\n".join(line.rstrip() for line in lines) + "\n"


if __name__ == "__main__":
    print(diagram(), end="")
