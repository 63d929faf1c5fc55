"""Giving an exported .glb's animations back their names and order in the source file.

Blender names an action `object|animation`, and its glTF exporter writes actions in an
order of its own; game code addresses animations by their names in the file (IQM and IQE
also by index). `rename` rewrites the JSON chunk of the .glb Blender wrote before rigport
converts it: each animation takes the name `name_of` gives for its action's name and goes
to the place it gives (animations without one keep their order, after the others). The
binary chunk is left as it is. No Blender imports, so it runs under a plain Python too.
"""

from __future__ import annotations

import json
import struct
from typing import Callable


def rename(path: str, name_of: Callable[[str], tuple[str, float]]) -> int:
    """Renames and orders the animations of the .glb at `path`; returns how many changed
    name or place. Raises ValueError for a file that is not a glb."""
    with open(path, "rb") as source:
        blob = source.read()
    if len(blob) < 20 or blob[:4] != b"glTF":
        raise ValueError(f"{path} is not a .glb")
    (json_length,) = struct.unpack_from("<I", blob, 12)
    if blob[16:20] != b"JSON" or 20 + json_length > len(blob):
        raise ValueError(f"{path}: the first chunk is not JSON")
    doc = json.loads(blob[20 : 20 + json_length].decode("utf-8"))
    animations = doc.get("animations") or []
    placed = []
    for position, animation in enumerate(animations):
        old = str(animation.get("name", ""))
        name, index = name_of(old)
        animation["name"] = name
        placed.append((index, position, old != name, animation))
    placed.sort(key=lambda item: (item[0], item[1]))
    changed = sum(1 for at, item in enumerate(placed) if item[2] or item[1] != at)
    if not changed:
        return 0
    doc["animations"] = [item[3] for item in placed]
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 4)
    rest = blob[20 + json_length :]
    total = 12 + 8 + len(text) + len(rest)
    head = struct.pack("<4sII", b"glTF", 2, total) + struct.pack("<I4s", len(text), b"JSON")
    with open(path, "wb") as out:
        out.write(head + text + rest)
    return changed
