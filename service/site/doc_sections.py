"""Sections of docs/api.md shown as pages (the walkthrough, "A turn with curl") or parts of one
(/docs' "Reading the streams"): the docs page stays the one text, and the pages follow it."""
from __future__ import annotations

from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def section(title: str) -> list[tuple[str, str]]:
    """The page's `## title` section as blocks; none when the docs are not beside the code."""
    if not PAGE.is_file():
        return []
    text = PAGE.read_text(encoding="utf-8")
    start = text.find(f"## {title}\n")
    return markdown_blocks(text[start:text.find("\n## ", start + 1)]) if start >= 0 else []


def markdown_blocks(markdown: str) -> list[tuple[str, str]]:
    """("h2"|"p"|"pre", text) blocks: enough markdown for one section of a docs page."""
    blocks, lines, fenced = [], [], False
    for line in markdown.splitlines() + [""]:
        if line.startswith("```"):
            if fenced:
                blocks.append(("pre", "\n".join(lines)))
            elif lines:
                blocks.append(("p", " ".join(lines)))
            lines, fenced = [], not fenced
        elif fenced:
            lines.append(line)
        elif line.startswith("## "):
            blocks.append(("h2", line[3:]))
        elif not line.strip() or line.startswith("<!--"):
            if lines:
                blocks.append(("p", " ".join(lines)))
            lines = []
        else:
            lines.append(line)
    return blocks
