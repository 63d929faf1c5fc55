"""Giving an exported .glb's skins back the joint order and names of the source file.

Blender keeps bones in an order of its own and renames a second bone of one name
`name.001`; IQM, MD5, SMD and PSK address joints by their index in the file. `reorder`
rewrites a glb's skins in place: each skin's joints go to the places the function gives
for their Blender names (those without one keep their order, after the others) and take
the names it gives; the inverse bind matrices move with them, and every JOINTS_n value of
the meshes the skin deforms is renumbered to match. Nothing else of the binary chunk
changes. No Blender imports, so it runs under a plain Python too.
"""

from __future__ import annotations

import struct
from typing import Callable

Namer = Callable[[str], tuple[str, float]]

#: Bytes per component of a glTF accessor's componentType.
COMPONENT = {5121: ("B", 1), 5123: ("H", 2), 5125: ("I", 4), 5126: ("f", 4)}

#: Components per element of a glTF accessor's type.
WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}


def reorder(doc: dict, binary: bytearray, joint_of: Namer) -> int:
    """Reorders and renames the joints of every skin of `doc` (a glb's JSON) whose meshes
    use it alone, editing `binary` (its BIN chunk's data) in place; returns how many joints
    changed name or place."""
    nodes = doc.get("nodes") or []
    changed = 0
    done: set[int] = set()
    for s, skin in enumerate(doc.get("skins") or []):
        joints = [int(j) for j in skin.get("joints") or []]
        named = [joint_of(str(nodes[j].get("name", ""))) for j in joints]
        for j, (name, _) in zip(joints, named):
            if nodes[j].get("name") != name:
                nodes[j]["name"] = name
                changed += 1
        order = sorted(range(len(joints)), key=lambda k: (named[k][1], k))
        if order == list(range(len(joints))):
            continue
        primitives = skinned_primitives(doc, s)
        if primitives is None:
            continue
        skin["joints"] = [joints[k] for k in order]
        changed += sum(1 for at, k in enumerate(order) if at != k)
        if "inverseBindMatrices" in skin:
            permute(doc, binary, int(skin["inverseBindMatrices"]), order)
        place = {old: new for new, old in enumerate(order)}
        for primitive in primitives:
            for semantic, accessor in (primitive.get("attributes") or {}).items():
                if semantic.startswith("JOINTS_") and int(accessor) not in done:
                    done.add(int(accessor))
                    renumber(doc, binary, int(accessor), place)
    return changed


def skinned_primitives(doc: dict, skin: int) -> list[dict] | None:
    """The primitives of the meshes that nodes with `skin` show, or None when one of those
    meshes is shown with another skin (or none) too: renumbering it would break that one."""
    users: dict[int, set] = {}
    for node in doc.get("nodes") or []:
        if "mesh" in node:
            users.setdefault(int(node["mesh"]), set()).add(node.get("skin"))
    meshes = doc.get("meshes") or []
    mine = [m for m, skins in users.items() if skin in skins]
    if any(users[m] != {skin} for m in mine):
        return None
    return [p for m in mine for p in meshes[m].get("primitives") or []]


def elements(doc: dict, accessor: int) -> tuple[str, int, list[int]]:
    """An accessor's component format, its components per element and the byte offset of
    each element in the BIN chunk."""
    acc = doc["accessors"][accessor]
    view = doc["bufferViews"][int(acc["bufferView"])]
    if int(view.get("buffer", 0)) != 0 or "sparse" in acc:
        raise ValueError(f"accessor {accessor} is not plain data in the binary chunk")
    code, size = COMPONENT[int(acc["componentType"])]
    width = WIDTH[str(acc["type"])]
    stride = int(view.get("byteStride") or size * width)
    start = int(view.get("byteOffset", 0)) + int(acc.get("byteOffset", 0))
    return code, width, [start + i * stride for i in range(int(acc["count"]))]


def permute(doc: dict, binary: bytearray, accessor: int, order: list[int]) -> None:
    """Puts element `order[k]` of an accessor at place k."""
    code, width, at = elements(doc, accessor)
    fmt = f"<{width}{code}"
    values = [struct.unpack_from(fmt, binary, offset) for offset in at]
    for k, old in enumerate(order[: len(at)]):
        struct.pack_into(fmt, binary, at[k], *values[old])


def renumber(doc: dict, binary: bytearray, accessor: int, place: dict[int, int]) -> None:
    """Replaces every joint index of a JOINTS_n accessor by its new place."""
    code, width, at = elements(doc, accessor)
    fmt = f"<{width}{code}"
    for offset in at:
        values = struct.unpack_from(fmt, binary, offset)
        struct.pack_into(fmt, binary, offset, *(place.get(v, v) for v in values))
