"""Counting the triangles of rigport's temporary .glb that Blender's meshes cannot hold.

Blender's mesh keeps no face that uses one vertex twice (degenerate) and no second face on
the same set of vertices: its glTF importer drops the first kind and merges the second into
the face it repeats. Counting both in the .glb before the import lets the add-on say which
happened. No Blender imports, so it runs under a plain Python too.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

try:
    from . import glb_file
except ImportError:  # loaded from its file by the plain-Python checks
    import glb_file  # type: ignore[no-redef]

#: glTF index component types: struct code and byte size.
_INDEX_FORMATS = {5121: ("B", 1), 5123: ("H", 2), 5125: ("I", 4)}

#: glTF primitive mode of a triangle list (the default).
_TRIANGLES = 4


@dataclass
class FaceCounts:
    """Triangles of a .glb, and how many of them Blender cannot keep as faces of their own."""

    triangles: int = 0
    degenerate: int = 0
    repeated: int = 0


def count(path: str) -> FaceCounts:
    """Counts triangles, degenerate ones and repeats of an earlier one in a .glb's meshes.

    A repeat uses the same three vertices (in any order) as an earlier triangle of the same
    mesh drawn from the same vertex arrays. Raises ValueError for a file that is not a glb
    this reader understands.
    """
    doc, data = glb_file.read(path)
    binary = bytes(data or b"")
    counts = FaceCounts()
    for mesh in doc.get("meshes", []):
        seen: set = set()
        for primitive in mesh.get("primitives", []):
            if primitive.get("mode", _TRIANGLES) != _TRIANGLES:
                continue
            arrays = tuple(sorted(primitive.get("attributes", {}).items()))
            corners = _triangle_indices(doc, binary, primitive)
            for start in range(0, len(corners) - 2, 3):
                counts.triangles += 1
                kind = dropped(corners[start : start + 3], arrays, seen)
                if kind == "degenerate":
                    counts.degenerate += 1
                elif kind == "repeated":
                    counts.repeated += 1
    return counts


def dropped(triangle: list, arrays: tuple, seen: set) -> str | None:
    """Why Blender's mesh keeps no face for `triangle` (its vertex indices into the vertex
    arrays `arrays` name): "degenerate" (a vertex used twice), "repeated" (the vertex set
    of a triangle already in `seen`), or None, when it is kept and recorded in `seen`."""
    if len(set(triangle)) < 3:
        return "degenerate"
    key = (arrays, frozenset(triangle))
    if key in seen:
        return "repeated"
    seen.add(key)
    return None


def _triangle_indices(doc: dict, binary: bytes, primitive: dict) -> list:
    """The vertex indices of a primitive (0, 1, 2, ... when it has no index accessor)."""
    if "indices" not in primitive:
        position = primitive.get("attributes", {}).get("POSITION")
        return list(range(doc["accessors"][position]["count"])) if position is not None else []
    accessor = doc["accessors"][primitive["indices"]]
    view = doc["bufferViews"][accessor["bufferView"]]
    code, size = _INDEX_FORMATS[accessor["componentType"]]
    start = view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
    stride = view.get("byteStride", size)
    if stride == size:
        return list(struct.unpack_from(f"<{accessor['count']}{code}", binary, start))
    return [struct.unpack_from("<" + code, binary, start + i * stride)[0] for i in range(accessor["count"])]
