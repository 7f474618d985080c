#!/usr/bin/env python3
"""mkfavicon.py -- writes web/favicon.ico, the icon tttd serves at
/favicon.ico (built into tttd like the page, cmake/embed.cmake): a tic-tac-toe
grid on a white tile, X and O in the page's colours, at 16, 32 and 48
pixels (PNG images in an ICO, as every browser since 2007 reads them).

Python's standard library only; drawn with 8x8 samples a pixel.
Run it from anywhere: python3 web/mkfavicon.py
"""
import math
import os
import struct
import zlib

X_RGB = (0xb3, 0x26, 0x1e)	# --x in web/index.html
O_RGB = (0x0b, 0x57, 0xd0)	# --o
GRID_RGB = (0x5f, 0x63, 0x68)	# --muted
TILE_RGB = (0xff, 0xff, 0xff)
SS = 8				# samples a pixel, each way


def seg_dist(px, py, ax, ay, bx, by):
    """The distance from a point to a segment."""
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def sample(x, y):
    """The colour (r, g, b, a) at a point of the unit square."""
    # The tile: a rounded square.
    r = 0.16
    cx, cy = min(max(x, r), 1 - r), min(max(y, r), 1 - r)
    if math.hypot(x - cx, y - cy) > r:
        return (0, 0, 0, 0)
    # The marks: X in A1 and C3, O in B2 (cells a third wide).
    w = 0.085
    for (c0, r0) in ((0, 0), (2, 2)):
        ax, ay = c0 / 3 + 0.1, r0 / 3 + 0.1
        bx, by = (c0 + 1) / 3 - 0.1, (r0 + 1) / 3 - 0.1
        if (seg_dist(x, y, ax, ay, bx, by) < w / 2 or
                seg_dist(x, y, bx, ay, ax, by) < w / 2):
            return X_RGB + (255,)
    if abs(math.hypot(x - 0.5, y - 0.5) - 0.105) < w / 2:
        return O_RGB + (255,)
    # The grid: two lines each way.
    g = 0.04
    for k in (1 / 3, 2 / 3):
        if (abs(x - k) < g / 2 and 0.06 < y < 0.94) or \
                (abs(y - k) < g / 2 and 0.06 < x < 0.94):
            return GRID_RGB + (255,)
    return TILE_RGB + (255,)


def image(n):
    """An n x n RGBA image, rows top to bottom."""
    rows = []
    for j in range(n):
        row = bytearray()
        for i in range(n):
            acc = [0, 0, 0, 0]
            for sj in range(SS):
                for si in range(SS):
                    c = sample((i + (si + 0.5) / SS) / n, (j + (sj + 0.5) / SS) / n)
                    for k in range(3):
                        acc[k] += c[k] * c[3]
                    acc[3] += c[3]
            a = acc[3] / (SS * SS)
            rgb = [round(acc[k] / acc[3]) if acc[3] else 0 for k in range(3)]
            row += bytes(rgb + [round(a)])
        rows.append(bytes(row))
    return rows


def png(n, rows):
    """The rows as a PNG file."""
    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))
    raw = b"".join(b"\0" + r for r in rows)
    return (b"\x89PNG\r\n\x1a\n" +
            chunk(b"IHDR", struct.pack(">IIBBBBB", n, n, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def ico(sizes):
    """An ICO file holding one PNG image per size."""
    pngs = [png(n, image(n)) for n in sizes]
    out = struct.pack("<HHH", 0, 1, len(sizes))
    at = 6 + 16 * len(sizes)
    for n, p in zip(sizes, pngs):
        out += struct.pack("<BBBBHHII", n % 256, n % 256, 0, 0, 1, 32, len(p), at)
        at += len(p)
    return out + b"".join(pngs)


if __name__ == "__main__":
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "favicon.ico")
    with open(path, "wb") as f:
        f.write(ico([16, 32, 48]))
