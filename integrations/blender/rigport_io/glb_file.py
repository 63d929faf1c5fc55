"""Reading and writing a .glb's two chunks: the JSON document and the BIN chunk's data.

The one home for the container layout the add-on's glb edits share (`glb_faces`,
`glb_names`): a 12-byte header, a JSON chunk padded with spaces, and an optional BIN
chunk padded with zeros. No Blender imports, so it runs under a plain Python too.
"""

from __future__ import annotations

import json
import struct
from typing import Optional


def json_length(head: bytes, path: str) -> int:
    """The length of the JSON chunk of a .glb whose first 20 bytes are `head`. Raises
    ValueError for a file that is not a glb."""
    if len(head) < 20 or head[:4] != b"glTF":
        raise ValueError(f"{path} is not a .glb")
    if head[16:20] != b"JSON":
        raise ValueError(f"{path}: the first chunk is not JSON")
    (length,) = struct.unpack_from("<I", head, 12)
    return int(length)


def read_json(path: str) -> dict:
    """The JSON document of the .glb at `path`, without reading its BIN chunk. Raises
    ValueError for a file that is not a glb."""
    with open(path, "rb") as source:
        length = json_length(source.read(20), path)
        text = source.read(length)
    if len(text) < length:
        raise ValueError(f"{path}: the first chunk is not JSON")
    return dict(json.loads(text.decode("utf-8")))


def read(path: str) -> tuple[dict, Optional[bytearray]]:
    """The JSON document of the .glb at `path` and its BIN chunk's data (None without one).
    Raises ValueError for a file that is not a glb."""
    with open(path, "rb") as source:
        blob = source.read()
    length = json_length(blob[:20], path)
    if 20 + length > len(blob):
        raise ValueError(f"{path}: the first chunk is not JSON")
    doc = json.loads(blob[20 : 20 + length].decode("utf-8"))
    rest = blob[20 + length :]
    if len(rest) >= 8 and rest[4:8] == b"BIN\0":
        (length,) = struct.unpack_from("<I", rest, 0)
        return doc, bytearray(rest[8 : 8 + length])
    return doc, None


def write(path: str, doc: dict, binary: Optional[bytearray]) -> None:
    """Writes `doc` and `binary` (None: no BIN chunk) as the .glb at `path`, each chunk
    padded to 4 bytes."""
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 4)
    parts = [struct.pack("<I4s", len(text), b"JSON"), text]
    if binary is not None:
        data = bytes(binary) + b"\0" * (-len(binary) % 4)
        parts += [struct.pack("<I4s", len(data), b"BIN\0"), data]
    body = b"".join(parts)
    with open(path, "wb") as out:
        out.write(struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body)
