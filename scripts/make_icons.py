"""Draws the web app's icons (service/site/static/icon-192.png, icon-512.png): a white card with a
red diamond on the felt green, with the margin a maskable icon needs. Pure Python (zlib), so
anyone can redraw them: .venv/bin/python scripts/make_icons.py"""
from __future__ import annotations

import struct
import zlib
from pathlib import Path

FELT, CARD, RED = (0x1F, 0x5E, 0x3B), (0xFD, 0xFC, 0xF7), (0xB3, 0x12, 0x2B)
STATIC = Path(__file__).resolve().parents[1] / "service" / "site" / "static"


def pixel(x: float, y: float) -> tuple[int, int, int]:
    """The colour at (x, y), both from 0 to 1: the card fills the middle 60% (the maskable safe zone)."""
    if abs(x - 0.5) / 0.11 + abs(y - 0.5) / 0.17 <= 1:
        return RED
    if 0.28 <= x <= 0.72 and 0.2 <= y <= 0.8:
        return CARD
    return FELT


def png(size: int) -> bytes:
    rows = b"".join(b"\x00" + bytes(c for x in range(size) for c in pixel((x + 0.5) / size, (y + 0.5) / size))
                    for y in range(size))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    for size in (192, 512):
        (STATIC / f"icon-{size}.png").write_bytes(png(size))
        print(f"wrote {STATIC / f'icon-{size}.png'}")
