"""Giving an exported .glb's joints back the rest scales of the source file.

A Blender bone's rest holds no scale. Where a file's joint is scaled at rest (B3D nodes
often are), Blender's glTF importer keeps the scale in the bone's pose, binds the skin to
the unscaled bones and moves the vertices to match; its exporter then writes the joint's
rest and inverse bind matrix at a unit scale, the vertices as Blender moved them, and keys
that still carry the scale. `restore` puts the recorded scales back on the joints, the
inverse bind matrices back to those of the scaled joints, and each skinned vertex back
where the file bound it (its normal and tangent turned with it), so the written file has
the source's rest and binds and poses exactly as Blender's did. Only where every joint is
otherwise where it was recorded (after `glb_rest.restore`), every skin binds where its
joints rest, and every vertex's joints agree on where it goes. No Blender imports, so it
runs under a plain Python too.
"""

from __future__ import annotations

import math
from typing import Callable, Mapping, Optional, Sequence

try:
    from . import glb_rest
except ImportError:  # loaded from its file by the plain-Python checks
    import glb_rest  # type: ignore[no-redef]

Matrix = glb_rest.Matrix
TOLERANCE = glb_rest.TOLERANCE
UNIT = (1.0, 1.0, 1.0)
#: The identity transform, as a 4×4 matrix (rows).
IDENTITY_MATRIX = glb_rest.trs_matrix((0, 0, 0), glb_rest.IDENTITY, UNIT)


def world_matrices(doc: dict, scales: Optional[Mapping[int, Sequence[float]]] = None) -> list[Optional[Matrix]]:
    """Every node's world transform at rest (with `scales` in place of those nodes' own),
    from its scene's roots; None under a node given as a matrix."""
    nodes = doc.get("nodes") or []
    parent = {int(c): i for i, n in enumerate(nodes) for c in n.get("children") or []}
    worlds: list[Optional[Matrix]] = [None] * len(nodes)
    done = [False] * len(nodes)
    scales = scales or {}

    def world(i: int) -> Optional[Matrix]:
        if not done[i]:
            done[i] = True  # a cycle ends in None
            node = nodes[i]
            local = None
            if "matrix" not in node:
                scale = scales.get(i, node.get("scale", UNIT))
                local = glb_rest.trs_matrix(node.get("translation", (0.0, 0.0, 0.0)), node.get("rotation", glb_rest.IDENTITY), scale)
            above = parent.get(i)
            up = world(above) if above is not None else IDENTITY_MATRIX
            worlds[i] = glb_rest.mul(up, local) if up is not None and local is not None else None
        return worlds[i]

    for i in range(len(nodes)):
        world(i)
    return worlds


def near(a: Matrix, b: Matrix, size: float) -> bool:
    """Equal within TOLERANCE (translations relative to `size`)."""
    return all(abs(a[r][c] - b[r][c]) <= TOLERANCE * (size if c == 3 else 1.0) for r in range(3) for c in range(4))


def recorded_scales(doc: dict, rest_of: Callable[[int], Optional[glb_rest.Rest]]) -> Optional[dict[int, list[float]]]:
    """The joints whose recorded rest scale Blender wrote as a unit one, with that scale;
    None when a joint was scaled, moved or turned in Blender (or is given as a matrix)."""
    nodes = doc.get("nodes") or []
    joints = sorted({int(j) for skin in doc.get("skins") or [] for j in skin.get("joints") or []})
    scales = {}
    for j in joints:
        rest = rest_of(j)
        node = nodes[j]
        if rest is None or len(rest) != 10:
            continue
        if "matrix" in node:
            return None
        recorded = [float(v) for v in rest[7:10]]
        written = [float(v) for v in node.get("scale", UNIT)]
        if all(abs(r - w) <= TOLERANCE for r, w in zip(recorded, written)):
            continue
        if not all(abs(w - 1.0) <= TOLERANCE for w in written) or min(abs(r) for r in recorded) < 1e-12:
            return None
        size = max(1.0, *(abs(float(c)) for c in rest[0:3]))
        moved = max(abs(float(a) - float(b)) for a, b in zip(node.get("translation", (0.0, 0.0, 0.0)), rest[0:3]))
        turned = node.get("rotation", glb_rest.IDENTITY)
        apart = min(
            max(abs(float(a) - float(b)) for a, b in zip(turned, rest[3:7])),
            max(abs(float(a) + float(b)) for a, b in zip(turned, rest[3:7])),
        )
        if moved > TOLERANCE * size or apart > TOLERANCE:
            return None
        scales[j] = recorded
    return scales


def same_move(a: Optional[Matrix], b: Optional[Matrix]) -> bool:
    """Whether two vertex moves (None: none) are one."""
    if a is None or b is None:
        return a is None and b is None
    return near(a, b, 1.0)


def vertex_moves(doc: dict, binary: bytearray, moves: dict[int, Matrix]) -> Optional[dict[int, list[Optional[Matrix]]]]:
    """For each POSITION accessor of a skinned primitive, the matrix each of its vertices
    moves by (None: stays): that of the joints it is weighted to, which must agree. None
    where they do not, or where a primitive cannot be rewritten (morph targets)."""
    nodes = doc.get("nodes") or []
    skins = doc.get("skins") or []
    meshes = doc.get("meshes") or []
    out: dict[int, list[Optional[Matrix]]] = {}
    for node in nodes:
        if "mesh" not in node or "skin" not in node:
            continue
        joints = [int(j) for j in skins[int(node["skin"])].get("joints") or []]
        for primitive in meshes[int(node["mesh"])].get("primitives") or []:
            attributes = primitive.get("attributes") or {}
            if "POSITION" not in attributes:
                continue
            if primitive.get("targets"):
                return None
            position = int(attributes["POSITION"])
            count = int(doc["accessors"][position]["count"])
            per_vertex: list[Optional[Matrix]] = [None] * count
            sets = sorted(name[len("JOINTS_") :] for name in attributes if name.startswith("JOINTS_"))
            influences = [
                (
                    glb_rest.read(doc, binary, int(attributes[f"JOINTS_{suffix}"])),
                    glb_rest.read(doc, binary, int(attributes[f"WEIGHTS_{suffix}"])),
                )
                for suffix in sets
                if f"WEIGHTS_{suffix}" in attributes
            ]
            for k in range(count):
                picked: Optional[Matrix] = None
                seen = False
                for which_all, weights_all in influences:
                    for joint, weight in zip(which_all[k], weights_all[k]):
                        if weight <= 0 or int(joint) >= len(joints):
                            continue
                        move = moves.get(joints[int(joint)])
                        if not seen:
                            picked, seen = move, True
                        elif not same_move(move, picked):
                            return None
                per_vertex[k] = picked
            if position in out and out[position] != per_vertex:
                return None
            out[position] = per_vertex
    return out


def restore(doc: dict, binary: bytearray, rest_of: Callable[[int], Optional[glb_rest.Rest]]) -> int:
    """Puts the recorded rest scales back on the joints of `doc` (a glb's JSON), with the
    inverse bind matrices and skinned vertices to match, in `binary` (its BIN chunk's data,
    edited in place). Returns how many joints took their scale back (0: the glb is left as
    it was)."""
    scales = recorded_scales(doc, rest_of)
    if not scales:
        return 0
    nodes = doc.get("nodes") or []
    skins = [skin for skin in doc.get("skins") or [] if skin.get("joints")]
    joints = {int(j) for skin in skins for j in skin["joints"]}
    before = world_matrices(doc)
    after = world_matrices(doc, scales)
    # A node placed under a joint (not a joint itself) would move with the new scale.
    for i, node in enumerate(nodes):
        for child in node.get("children") or []:
            old, new = before[int(child)], after[int(child)]
            if i in joints and int(child) not in joints and (old is None or new is None or not near(old, new, 1.0)):
                return 0
    moves: dict[int, Matrix] = {}
    for j in joints:
        old, new = before[j], after[j]
        if old is None or new is None:
            return 0
        size = max(1.0, *(abs(old[i][3]) for i in range(3)))
        inverse_old = glb_rest.inverse(old)
        if inverse_old is None:
            return 0
        move = glb_rest.mul(new, inverse_old)
        if not near(move, IDENTITY_MATRIX, size):
            moves[j] = move
    accessors = []
    for skin in skins:
        accessor = skin.get("inverseBindMatrices")
        if not isinstance(accessor, int) or not glb_rest.is_float(doc, accessor) or accessor in accessors:
            return 0
        matrices = glb_rest.read(doc, binary, accessor)
        for j, columns in zip(skin["joints"], matrices):
            world = before[int(j)]
            if world is None:
                return 0
            size = max(1.0, *(abs(world[i][3]) for i in range(3)))
            if not near(glb_rest.mul(world, glb_rest.rows_of(columns)), IDENTITY_MATRIX, size):
                return 0  # not bound where its joints rest
        accessors.append(accessor)
    planned = vertex_moves(doc, binary, moves)
    if planned is None:
        return 0
    edits = []
    for position, per_vertex in planned.items():
        edits.extend(moved_attributes(doc, binary, position, per_vertex))
    for skin, accessor in zip(skins, accessors):
        inverted = [glb_rest.inverse(after[int(j)]) for j in skin["joints"]]  # type: ignore[arg-type]
        if any(m is None for m in inverted):
            return 0
        edits.append((accessor, [glb_rest.columns_of(m) for m in inverted if m is not None]))
    for j, scale in scales.items():
        nodes[j]["scale"] = scale
    for accessor, values in edits:
        glb_rest.write(doc, binary, accessor, values)
    return len(scales)


def moved_attributes(doc: dict, binary: bytearray, position: int, per_vertex: list[Optional[Matrix]]) -> list[tuple[int, list]]:
    """The new values of a POSITION accessor and of the NORMAL and TANGENT accessors of
    every primitive that uses it, each vertex moved by its matrix."""
    out = [(position, [transformed(v, m) for v, m in zip(glb_rest.read(doc, binary, position), per_vertex)])]
    done = {position}
    for mesh in doc.get("meshes") or []:
        for primitive in mesh.get("primitives") or []:
            attributes = primitive.get("attributes") or {}
            if attributes.get("POSITION") != position:
                continue
            for name in ("NORMAL", "TANGENT"):
                accessor = attributes.get(name)
                if not isinstance(accessor, int) or accessor in done or not glb_rest.is_float(doc, accessor):
                    continue
                done.add(accessor)
                values = glb_rest.read(doc, binary, accessor)
                out.append((accessor, [turned(v, m, name == "NORMAL") for v, m in zip(values, per_vertex)]))
    return out


def transformed(point: tuple, m: Optional[Matrix]) -> tuple:
    """A position moved by `m` (kept where None)."""
    if m is None:
        return point
    return tuple(sum(m[r][c] * point[c] for c in range(3)) + m[r][3] for r in range(3))


def turned(vector: tuple, m: Optional[Matrix], normal: bool) -> tuple:
    """A direction (a normal by the inverse transpose of `m`), kept unit length; a tangent's
    fourth component (its sign) is kept."""
    if m is None:
        return vector
    linear = [row[:3] for row in m[:3]]
    if normal:
        full = glb_rest.inverse([row[:3] + [0.0] for row in linear] + [[0.0, 0.0, 0.0, 1.0]])
        if full is None:
            return vector
        linear = [[full[c][r] for c in range(3)] for r in range(3)]
    out = [sum(linear[r][c] * vector[c] for c in range(3)) for r in range(3)]
    length = math.sqrt(sum(c * c for c in out)) or 1.0
    return tuple(c / length for c in out) + tuple(vector[3:])
