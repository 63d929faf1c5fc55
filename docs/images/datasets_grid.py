#!/usr/bin/env python3
"""Joins the pictures of an animated orbit (`rigport render --orbit V --animate`) into one
PNG: a row per view, a column per frame. Standard library only.

    python3 docs/images/datasets_grid.py OUT/<name> docs/images/datasets_grid.png
"""

import struct
import sys
import zlib
from pathlib import Path


def read_png(path):
    """Width, height and rows (bytes, RGB) of an 8-bit RGB or RGBA PNG, not interlaced."""
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat = 8, b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, path
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        previous = line
        if channels == 4:
            line = bytearray(v for k, v in enumerate(line) if k % 4 != 3)
        rows.append(bytes(line))
    return width, height, rows


def write_png(path, width, height, rows):
    """An 8-bit RGB PNG of `rows`, each row filtered with `Up` (type 2)."""
    raw, previous = bytearray(), bytes(width * 3)
    for row in rows:
        raw.append(2)
        raw.extend((v - p) & 255 for v, p in zip(row, previous))
        previous = row

    def chunk(kind, body):
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    Path(path).write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(raw), 9))
        + chunk(b"IEND", b"")
    )


def main():
    folder, out = Path(sys.argv[1]), sys.argv[2]
    views = sorted(p for p in folder.glob("view_*") if p.is_dir())
    grid = []
    for view in views:
        frames = sorted(f for f in view.glob("frame_*.png") if f.stem.count("_") == 1)
        grid.append([read_png(f) for f in frames])
    width, height = grid[0][0][0], grid[0][0][1]
    gap = 2
    columns = max(len(row) for row in grid)
    total_w = columns * width + (columns - 1) * gap
    rows = []
    for r, pictures in enumerate(grid):
        if r:
            rows.extend([bytes(total_w * 3)] * gap)
        for y in range(height):
            line = bytearray()
            for c, (_, _, picture) in enumerate(pictures):
                if c:
                    line.extend(bytes(gap * 3))
                line.extend(picture[y])
            line.extend(bytes(total_w * 3 - len(line)))
            rows.append(bytes(line))
    write_png(out, total_w, len(rows), rows)


if __name__ == "__main__":
    main()
