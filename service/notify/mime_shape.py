"""How deep and how many parts an inbound message's MIME tree has, read from its bytes before the
email package parses it.

The email package parses a multipart message recursively: 118 kB holding 2,000 multiparts nested
one in the next drive it to RecursionError after seconds of work, on a thread of the listener. A
reply to a game mail is a few lines of text, perhaps with an HTML alternative, a quoted or
forwarded message and a few attachments; a message beyond MAX_DEPTH or MAX_PARTS is none of those
and is refused for good (a retry would fail the same way) before any parse.

The scan follows the parser where it decides the tree's shape: a part's headers end at the first
empty line; a multipart's boundary is its Content-Type's `boundary` parameter; a line `--B` (or
`--B--`) of any enclosing multipart starts its next part (or ends it), closing every part inside;
a message/* part (and a multipart/digest's part without a Content-Type) holds a message, with
headers of its own, one level deeper. Where it is unsure it counts more than the parser would
(a header block it reads past a line the parser would take for the body), never less.
"""
from __future__ import annotations

import email
import email.policy
import re

MAX_DEPTH = 16  # multiparts and enclosed messages, one inside the next
MAX_PARTS = 100  # parts in all (each boundary line starts one)

_HEADER_LINE = re.compile(rb"^(From |[\041-\071\073-\176]*:|[\t ])")  # the parser's own (feedparser)
_CONTENT_TYPE = re.compile(rb"^content-type[ \t]*:", re.IGNORECASE)
_CONTAINER_TYPE = re.compile(rb"multipart|message", re.IGNORECASE)  # in no other type's value


class Refused(ValueError):
    """A message whose MIME tree is deeper or larger than any reply: refused for good."""


class _Container:
    """An enclosing multipart (its delimiter b"--B"), or an enclosed message (delimiter None)."""

    def __init__(self, delimiter: bytes | None, digest: bool = False):
        self.delimiter, self.digest = delimiter, digest


class _Scan:
    def __init__(self):
        self.stack: list[_Container] = []  # innermost last
        self.parts = 0
        self.headers: list[bytes] | None = []  # the current part's header lines; None in a body
        self.default_message = False  # in a multipart/digest a part is a message unless it says otherwise

    def line(self, line: bytes) -> None:
        if self.headers is not None:
            if line and _HEADER_LINE.match(line):
                if line[:1] in (b" ", b"\t") and self.headers:
                    self.headers[-1] += line  # unfolded
                else:
                    self.headers.append(line)
                return
            self.headers_end(line)
            return
        if line.startswith(b"--"):
            self.boundary(line)

    def headers_end(self, line: bytes) -> None:
        """The part's headers ended at `line`: empty, or a line the parser takes for the body."""
        opened = _open(self.headers, self.default_message)
        self.headers = None
        if opened is not None:
            self.stack.append(opened)
            if len(self.stack) > MAX_DEPTH:
                raise Refused(f"its MIME parts nest deeper than {MAX_DEPTH} levels")
            if opened.delimiter is None:  # an enclosed message: its own headers follow
                self.headers, self.default_message = [], False
                if line:  # the parser reads a line that ended the headers again, as the message's first
                    self.line(line)
                return
        if line:
            self.line(line)

    def boundary(self, line: bytes) -> None:
        level = _enclosing(self.stack, line)
        if level is None:
            return
        container = self.stack[level]
        closing = line[len(container.delimiter):].rstrip(b" \t") == b"--"
        del self.stack[level + (0 if closing else 1):]
        if not closing:
            self.parts += 1
            if self.parts > MAX_PARTS:
                raise Refused(f"it has more than {MAX_PARTS} MIME parts")
            self.headers, self.default_message = [], container.digest


def check(raw: bytes) -> None:
    """Raise Refused when `raw`'s MIME tree passes MAX_DEPTH or MAX_PARTS."""
    scan = _Scan()
    for line in raw.splitlines():  # at \r\n, \r or \n, as the parser splits
        scan.line(line)


def _open(headers: list[bytes], default_message: bool) -> _Container | None:
    """What a part with these headers holds, as the email package reads its Content-Type (it
    parses that one header here): a multipart with a boundary, an enclosed message, or neither."""
    content_type = next((header for header in headers if _CONTENT_TYPE.match(header)), None)
    if content_type is None:
        return _Container(None) if default_message else None
    if not _CONTAINER_TYPE.search(content_type):  # text/plain, image/png, ...: no need to parse it
        return None
    part = email.message_from_bytes(content_type + b"\n\n", policy=email.policy.default)
    if part.get_content_maintype() == "multipart":
        boundary = part.get_boundary()
        if boundary is None:
            return None
        return _Container(b"--" + boundary.encode("ascii", "surrogateescape"),
                          digest=part.get_content_type() == "multipart/digest")
    return _Container(None) if part.get_content_maintype() == "message" else None


def _enclosing(stack: list[_Container], line: bytes) -> int | None:
    """The index of the innermost multipart `line` is a boundary line of, or None."""
    for level in range(len(stack) - 1, -1, -1):
        delimiter = stack[level].delimiter
        if delimiter is not None and line.startswith(delimiter) and \
                line[len(delimiter):].rstrip(b" \t") in (b"", b"--"):
            return level
    return None
