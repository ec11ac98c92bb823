"""Plain-text lines of at most 78 characters (RFC 5322's advice), wrapped only between words.

Every mail's text goes through `wrap_text` (message.build calls it), so no composer has to count.
A line is broken only at a space, so a card (`7H`), a card list, a command (`discard 7H` stays on
one line: the break goes before the command, never inside it, when the command is in backquotes)
or an address is never split. Continuation lines are indented: under the second column of a
two-column line (`  discard CARD    one of 7H 8H ...` continues under `one of`), two spaces deeper
for an indented line, flush left for a paragraph. A single word longer than the width (a link) stands on a line of
its own; a link (http:// or https://) is never moved to a line of its own either, so
`Play in your browser: <link>` stays one line for anything that reads it: those are the only
lines that may be longer than 78 characters.
"""
from __future__ import annotations

import re

WIDTH = 78
_COLUMN = re.compile(r"^(\s*\S+(?: \S+)?\s{2,})\S")  # "  draw stock      draw the top card"
_LINK = re.compile(r"^https?://")  # a link stays on the line it is written on, however long
_WORD = re.compile(r"(?:`[^`\n]*`|[^\s`]|`)+")  # a `quoted command` and what touches it: one piece


def wrap_text(text: str, width: int = WIDTH) -> str:
    lines = text.replace("\r\n", "\n").split("\n")
    return "\n".join(out for line in lines for out in wrap_line(line, width))


def wrap_line(line: str, width: int = WIDTH) -> list[str]:
    line = line.rstrip()
    if len(line) <= width:
        return [line]
    lead = len(line) - len(line.lstrip(" "))
    column = _COLUMN.match(line)
    # A paragraph continues flush left; an indented item two spaces deeper (it stays one item).
    hang = len(column.group(1)) if column and len(column.group(1)) < width // 2 else lead + 2 if lead else 0
    out, current, previous_end = [], "", 0
    for word in _WORD.finditer(line):
        gap = line[previous_end:word.start()]  # the spaces as written (columns stay aligned)
        previous_end = word.end()
        if not current.strip():
            current = (current or line[:lead]) + word.group()
        elif len(current) + len(gap) + len(word.group()) <= width or _LINK.match(word.group()):
            current += gap + word.group()
        else:
            out.append(current)
            current = " " * hang + word.group()
    out.append(current)
    return [o.rstrip() for o in out]
