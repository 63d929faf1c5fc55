"""Shared test helpers: the repository's fixtures, the real-file corpus (RIGPORT_CORPUS) and
the rigport command (RIGPORT_BIN), each skipped with a message when absent."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import zlib
from pathlib import Path
from typing import Any, Optional

import pytest

import rigport

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "fixtures"


def corpus_root() -> Optional[Path]:
    """$RIGPORT_CORPUS (relative paths taken from the repository root), or None."""
    value = os.environ.get("RIGPORT_CORPUS")
    if not value:
        return None
    root = Path(value)
    return root if root.is_absolute() else REPO / root


def corpus_files() -> list[Path]:
    """Every corpus file whose extension rigport reads (the batch walk's rule), sorted."""
    root = corpus_root()
    if root is None:
        return []
    planned = rigport.plan_batch([str(root)], "/nonexistent", "x")
    return [Path(input) for input, _, _ in planned]


def cli() -> Optional[str]:
    """$RIGPORT_BIN, the rigport command to compare with, or None."""
    return os.environ.get("RIGPORT_BIN") or None


def need_cli() -> str:
    binary = cli()
    if binary is None:
        pytest.skip("RIGPORT_BIN not set: the comparison with the rigport command skipped")
    return binary


def need_corpus() -> list[Path]:
    if corpus_root() is None:
        pytest.skip("RIGPORT_CORPUS not set: the corpus tests skipped")
    files = corpus_files()
    assert files, "RIGPORT_CORPUS holds no readable file"
    return files


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """Runs the rigport command; its exit status is the caller's to check."""
    return subprocess.run(
        [need_cli(), *args], capture_output=True, text=True, check=False, timeout=600
    )


def cli_info(path: Path) -> dict[str, Any]:
    """What ``rigport info --json PATH`` prints, parsed."""
    done = run_cli("info", "--json", str(path))
    line = done.stdout.strip().splitlines()[0]
    result: dict[str, Any] = json.loads(line)
    return result


def tree(folder: Path) -> dict[str, bytes]:
    """Every file below `folder` by relative path, with its bytes."""
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def png_rows(data: bytes) -> tuple[int, int, int, int, bytes]:
    """Width, height, channels, bytes per sample and raw rows (big-endian samples) of a
    non-interlaced 8- or 16-bit PNG (grey, RGB or RGBA, as rigport writes them), unfiltered."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, channels, sample = 8, b"", 0, 0, 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth in (8, 16) and body[12] == 0, "8- or 16-bit, not interlaced"
            channels, sample = {0: 1, 2: 3, 6: 4}[colour], depth // 8
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    step = channels * sample
    stride = width * step
    rows: list[bytearray] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        filter_type, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up = previous[i]
            corner = previous[i - step] if i >= step else 0
            if filter_type == 1:
                line[i] = (line[i] + left) & 255
            elif filter_type == 2:
                line[i] = (line[i] + up) & 255
            elif filter_type == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif filter_type == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                near = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + near) & 255
        rows.append(line)
        previous = line
    return width, height, channels, sample, b"".join(rows)


def png_pixels(data: bytes) -> tuple[int, int, int, bytes]:
    """Width, height, channels and raw 8-bit rows of a non-interlaced PNG (grey, RGB or
    RGBA, as rigport writes them), unfiltered."""
    width, height, channels, sample, rows = png_rows(data)
    assert sample == 1, "8-bit, not interlaced"
    return width, height, channels, rows
