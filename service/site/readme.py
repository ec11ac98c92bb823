"""Sections of the README shown as pages (the walkthrough) or parts of one (/docs' "Reading the
streams"): the README stays the one text, and the pages follow it."""
from __future__ import annotations

from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def section(title: str) -> list[tuple[str, str]]:
    """The README's `## title` section as blocks; none when the README is not beside the code."""
    if not README.is_file():
        return []
    text = README.read_text(encoding="utf-8")
    start = text.find(f"## {title}\n")
    return markdown_blocks(text[start:text.find("\n## ", start + 1)]) if start >= 0 else []


def markdown_blocks(markdown: str) -> list[tuple[str, str]]:
    """("h2"|"p"|"pre", text) blocks: enough markdown for one README section."""
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
