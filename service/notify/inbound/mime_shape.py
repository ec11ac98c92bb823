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

The headers the service reads are bounded too: the email package parses a header when it is read,
at a cost that grows faster than its length (a From folded into 20,000 lines, 100 kB, held a thread
about 20 s), so a field it reads (READ_FIELDS, at the top; a part's Content-* fields) longer than
any reply's is refused before the parse. Other fields (Received, signatures, anti-spam stamps) are
never parsed, whatever their size. A RecursionError anywhere in reading a message (a header of
comments nested 2,000 deep) is a refusal as well (inbound.receive): the same bytes fail every time.
"""
from __future__ import annotations

import email
import email.policy
import re

MAX_DEPTH = 16  # multiparts and enclosed messages, one inside the next
MAX_PARTS = 100  # parts in all (each boundary line starts one)
# The top header fields the service reads (msg.get in notify: tests/notify/test_listener_limits.py
# checks the list): each at most MAX_READ_FIELD_BYTES, the addresses among them together at most
# MAX_ADDRESS_BYTES; every part's Content-* fields (the body is found and decoded by them) at most
# MAX_CONTENT_FIELD_BYTES. Folded lines count together; a reply's are a few hundred bytes.
ADDRESS_FIELDS = frozenset({"from", "to", "cc", "delivered-to", "x-original-to"})
READ_FIELDS = ADDRESS_FIELDS | {"subject", "message-id", "auto-submitted", "precedence", "x-autoreply",
                                "x-autorespond", "authentication-results"}
CONTENT_FIELDS = frozenset({"content-type", "content-disposition", "content-transfer-encoding"})
MAX_READ_FIELD_BYTES = 4000
MAX_ADDRESS_BYTES = 4000
MAX_CONTENT_FIELD_BYTES = 1000

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
        self.headers: list[list[bytes]] | None = []  # the current part's fields, each its lines; None in a body
        self.default_message = False  # in a multipart/digest a part is a message unless it says otherwise
        self.top = True  # the current header block is the message's own (the one whose fields are read)

    def line(self, line: bytes) -> None:
        if self.headers is not None:
            if line and _HEADER_LINE.match(line):
                if line[:1] in (b" ", b"\t") and self.headers:
                    self.headers[-1].append(line)  # unfolded (joined once, at the block's end)
                else:
                    self.headers.append([line])
                return
            self.headers_end(line)
            return
        if line.startswith(b"--"):
            self.boundary(line)

    def headers_end(self, line: bytes) -> None:
        """The part's headers ended at `line`: empty, or a line the parser takes for the body."""
        fields = [b"".join(lines) for lines in self.headers]
        _judge_fields(fields, self.top)
        opened = _open(fields, self.default_message)
        self.headers, self.top = None, False
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
    """Raise Refused when `raw`'s MIME tree passes MAX_DEPTH or MAX_PARTS, or a field it reads is
    longer than its bound."""
    scan = _Scan()
    for line in raw.splitlines():  # at \r\n, \r or \n, as the parser splits
        scan.line(line)
    if scan.headers:  # the bytes ended inside a header block: its fields are read all the same
        _judge_fields([b"".join(lines) for lines in scan.headers], scan.top)


def _judge_fields(fields: list[bytes], top: bool) -> None:
    """Refused when a field the service reads (at the top: READ_FIELDS; in every part: the
    Content-* fields) is longer than any reply's."""
    addresses = 0
    for field in fields:
        name = field.split(b":", 1)[0].strip().lower().decode("ascii", "replace")
        limit = MAX_CONTENT_FIELD_BYTES if name in CONTENT_FIELDS else \
            MAX_READ_FIELD_BYTES if top and name in READ_FIELDS else None
        if limit is not None and len(field) > limit:
            raise Refused(f"its {name} header is longer than {limit} bytes")
        addresses += len(field) if top and name in ADDRESS_FIELDS else 0
    if addresses > MAX_ADDRESS_BYTES:
        raise Refused(f"its address headers are longer than {MAX_ADDRESS_BYTES} bytes together")


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
