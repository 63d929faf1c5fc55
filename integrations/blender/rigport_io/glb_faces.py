"""Giving the triangles Blender's meshes cannot hold vertices of their own, before import.

Blender's mesh keeps no face that uses one vertex twice and no second face on the same
set of vertices (`faces.count`); a file may hold both (a MilkShape triangle folded onto an
edge, a face drawn twice). `split` rewrites rigport's temporary .glb so that each such
triangle uses three new vertices, copies of those it named: Blender then keeps it as a
face of its own (one of no area where a vertex was repeated), and the export writes it
back. No Blender imports, so it runs under a plain Python too.
"""

from __future__ import annotations

import struct

try:
    from . import faces, glb_file, glb_rest
except ImportError:  # loaded from its file by the plain-Python checks
    import faces  # type: ignore[no-redef]
    import glb_file  # type: ignore[no-redef]
    import glb_rest  # type: ignore[no-redef]

#: glTF primitive mode of a triangle list (the default).
_TRIANGLES = 4


def _kept_apart(indices: list[int], count: int, seen: set, arrays: tuple) -> list[int] | None:
    """A primitive's corners (`indices`, into `count` vertices) with each triangle Blender
    would drop (`faces.dropped`) given three new vertex numbers (after the last), or None
    when it has none."""
    out: list[int] = []
    split = False
    for start in range(0, len(indices) - 2, 3):
        triangle = indices[start : start + 3]
        if faces.dropped(triangle, arrays, seen):
            out.extend(range(count, count + 3))
            count += 3
            split = True
        else:
            out.extend(triangle)
    return out if split else None


def _splittable(doc: dict, primitive: dict) -> bool:
    """Whether `split` rewrites this primitive: an indexed triangle list whose attributes
    are plain accessors (no morph targets, no sparse or buffer-less accessors)."""
    accessors = doc.get("accessors") or []
    attributes = primitive.get("attributes") or {}
    if primitive.get("mode", _TRIANGLES) != _TRIANGLES or "indices" not in primitive or "POSITION" not in attributes:
        return False
    if primitive.get("targets"):
        return False
    for at in [primitive["indices"], *attributes.values()]:
        if not isinstance(at, int) or at >= len(accessors):
            return False
        if "sparse" in accessors[at] or "bufferView" not in accessors[at]:
            return False
    return True


def _extended(doc: dict, binary: bytearray, accessor: int, corners: list[int], first_new: int) -> int:
    """A new accessor holding `accessor`'s elements followed by a copy of each element the
    new vertices (numbered from `first_new`, in `corners` order) copy."""
    values = glb_rest.read(doc, binary, accessor)
    copies = [values[c] for c in corners]
    target = glb_rest.appended(doc, binary, accessor, values + copies)
    doc["accessors"][target]["count"] = first_new + len(copies)
    old = doc["accessors"][accessor]
    if "min" in old or "max" in old:
        glb_rest.bound(doc, target, values + copies)
    return target


def split(path: str) -> int:
    """Rewrites the .glb at `path` so that every triangle Blender would drop (a vertex used
    twice, or the vertex set of an earlier triangle of its mesh) has vertices of its own;
    returns how many triangles were given new vertices (0: the file is left as it was).
    Raises ValueError for a file that is not a glb."""
    doc, binary = glb_file.read(path)
    if binary is None:
        return 0
    given = 0
    for mesh in doc.get("meshes") or []:
        seen: set = set()
        for primitive in mesh.get("primitives") or []:
            if not _splittable(doc, primitive):
                continue
            arrays = tuple(sorted(primitive["attributes"].items()))
            old_corners = [int(v[0]) for v in glb_rest.read(doc, binary, int(primitive["indices"]))]
            first_new = int(doc["accessors"][int(primitive["attributes"]["POSITION"])]["count"])
            corners = _kept_apart(old_corners, first_new, seen, arrays)
            if corners is None:
                continue
            copied = [old_corners[k] for k, c in enumerate(corners) if c >= first_new]
            for name, accessor in list(primitive["attributes"].items()):
                primitive["attributes"][name] = _extended(doc, binary, int(accessor), copied, first_new)
            binary.extend(b"\0" * (-len(binary) % 4))
            start = len(binary)
            binary.extend(struct.pack(f"<{len(corners)}I", *corners))
            views = doc.setdefault("bufferViews", [])
            views.append({"buffer": 0, "byteOffset": start, "byteLength": len(binary) - start})
            doc["accessors"].append({"bufferView": len(views) - 1, "componentType": 5125, "count": len(corners), "type": "SCALAR"})
            primitive["indices"] = len(doc["accessors"]) - 1
            doc["buffers"][0]["byteLength"] = len(binary)
            given += sum(1 for c in corners[::3] if c >= first_new)
    if not given:
        return 0
    binary.extend(b"\0" * (-len(binary) % 4))
    doc["buffers"][0]["byteLength"] = len(binary)
    glb_file.write(path, doc, binary)
    return given
