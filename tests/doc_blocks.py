"""The code the docs show, as the tests run it: a block marked `<!-- docs-test: NAME -->` right above
its fence, in any page of docs/ (the walkthrough and the readers in docs/api.md, the engine's in
docs/engine.md), found by its name wherever it moves."""
from __future__ import annotations

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"


def marked_blocks() -> dict[str, list[tuple[Path, str]]]:
    """Every marked block of every page: name -> [(page, code)]."""
    found: dict[str, list[tuple[Path, str]]] = {}
    for page in sorted(DOCS.glob("*.md")):
        for match in re.finditer(r"<!-- docs-test: ([\w-]+) -->\n```\w+\n(.*?)```", page.read_text(), re.DOTALL):
            found.setdefault(match.group(1), []).append((page, match.group(2)))
    return found


def block(name: str) -> str:
    """The code of the one block marked `name` (a name marks one block only)."""
    places = marked_blocks().get(name, [])
    assert len(places) == 1, f"docs/ has {len(places)} blocks marked docs-test: {name}, not one"
    return places[0][1]
