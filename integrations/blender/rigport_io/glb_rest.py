"""Giving an exported .glb's joints back the rest frames of the source file.

Blender draws a bone from its head to its tail along the bone's own +Y axis, so the
importer turns each bone's frame to point it at its child (`bone_display`); the turn is
display only. Blender's glTF exporter writes each joint in the frame Blender drew, turned
by that amount. `restore` takes the turn back out of a glb Blender wrote, from the rest
transform each joint had in the file (recorded on its bone at import): every joint's rest
frame, its animation keys, the children placed in it and the skins' inverse bind matrices
are given back in the file's frame. A glb whose joints differ from the recorded rests by
more than a turn (a bone moved or reparented in Blender) is left as Blender wrote it.
No Blender imports, so it runs under a plain Python too.
"""

from __future__ import annotations

import math
import struct
from typing import Callable, Optional, Sequence

try:
    from . import glb_skins
except ImportError:  # loaded from its file by the plain-Python checks
    import glb_skins  # type: ignore[no-redef]

Quat = tuple[float, float, float, float]
Vec = tuple[float, float, float]
Matrix = list[list[float]]

#: A joint's recorded rest: translation (3), rotation as x, y, z, w (4), scale (3).
Rest = Sequence[float]

#: How far a turn may be from a rotation (in its matrix entries), or a scale from uniform
#: (relative), and still count as one.
TOLERANCE = 1e-4

IDENTITY: Quat = (0.0, 0.0, 0.0, 1.0)


def qmul(a: Quat, b: Quat) -> Quat:
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    )


def qconj(q: Quat) -> Quat:
    return (-q[0], -q[1], -q[2], q[3])


def qrotate(q: Quat, v: Sequence[float]) -> Vec:
    x, y, z, _ = qmul(qmul(q, (v[0], v[1], v[2], 0.0)), qconj(q))
    return (x, y, z)


def rotation_matrix(q: Quat) -> Matrix:
    x, y, z, w = q
    return [
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ]


def quat_of(m: Matrix) -> Quat:
    """The unit quaternion of a rotation matrix (rows)."""
    trace = m[0][0] + m[1][1] + m[2][2]
    if trace > 0:
        s = 2 * math.sqrt(1 + trace)
        q = ((m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s, s / 4)
    elif m[0][0] > m[1][1] and m[0][0] > m[2][2]:
        s = 2 * math.sqrt(1 + m[0][0] - m[1][1] - m[2][2])
        q = (s / 4, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s, (m[2][1] - m[1][2]) / s)
    elif m[1][1] > m[2][2]:
        s = 2 * math.sqrt(1 + m[1][1] - m[0][0] - m[2][2])
        q = ((m[0][1] + m[1][0]) / s, s / 4, (m[1][2] + m[2][1]) / s, (m[0][2] - m[2][0]) / s)
    else:
        s = 2 * math.sqrt(1 + m[2][2] - m[0][0] - m[1][1])
        q = ((m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, s / 4, (m[1][0] - m[0][1]) / s)
    n = math.sqrt(sum(c * c for c in q))
    return (q[0] / n, q[1] / n, q[2] / n, q[3] / n)


def trs_matrix(t: Sequence[float], r: Sequence[float], s: Sequence[float]) -> Matrix:
    """The 4×4 matrix (rows) of a translation, rotation (x, y, z, w) and scale."""
    rot = rotation_matrix((r[0], r[1], r[2], r[3]))
    rows = [[rot[i][k] * s[k] for k in range(3)] + [t[i]] for i in range(3)]
    return rows + [[0.0, 0.0, 0.0, 1.0]]


def columns_of(m: Matrix) -> tuple:
    """A 4×4 matrix (rows) as glTF's 16 column-major values."""
    return tuple(float(m[r][c]) for c in range(4) for r in range(4))


def rows_of(columns: Sequence[float]) -> Matrix:
    """glTF's 16 column-major values as a 4×4 matrix (rows)."""
    return [[float(columns[c * 4 + r]) for c in range(4)] for r in range(4)]


def mul(a: Matrix, b: Matrix) -> Matrix:
    return [[sum(a[i][k] * b[k][j] for k in range(4)) for j in range(4)] for i in range(4)]


def inverse(m: Matrix) -> Optional[Matrix]:
    """The inverse of an affine 4×4 matrix, or None when it has none."""
    a = [row[:3] for row in m[:3]]
    det = (
        a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
        - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
        + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
    )
    if abs(det) < 1e-30:
        return None
    inv = [[0.0] * 3 for _ in range(3)]
    for i in range(3):
        for j in range(3):
            r = [k for k in range(3) if k != j]
            c = [k for k in range(3) if k != i]
            minor = a[r[0]][c[0]] * a[r[1]][c[1]] - a[r[0]][c[1]] * a[r[1]][c[0]]
            inv[i][j] = (-1) ** (i + j) * minor / det
    t = [-sum(inv[i][k] * m[k][3] for k in range(3)) for i in range(3)]
    return [inv[i] + [t[i]] for i in range(3)] + [[0.0, 0.0, 0.0, 1.0]]


def local_matrix(node: dict) -> Optional[Matrix]:
    """A node's local transform (None for a node given as a matrix: not rewritten here)."""
    if "matrix" in node:
        return None
    return trs_matrix(
        node.get("translation", (0.0, 0.0, 0.0)),
        node.get("rotation", IDENTITY),
        node.get("scale", (1.0, 1.0, 1.0)),
    )


def turn_of(m: Matrix, size: float) -> Optional[Quat]:
    """The rotation `m` is, less a scale of its rows (a joint whose own scale Blender
    changed is still turned back: L⁻¹ · X_p · L' is then diag(s)⁻¹ · diag(s') · X), or None
    when it moves or shears as well (beyond TOLERANCE)."""
    if any(abs(m[i][3]) > TOLERANCE * size for i in range(3)):
        return None
    lengths = [math.sqrt(sum(m[i][k] ** 2 for k in range(3))) for i in range(3)]
    if min(lengths) < 1e-12:
        return None
    a = [[m[i][k] / lengths[i] for k in range(3)] for i in range(3)]
    for i in range(3):
        for j in range(3):
            dot = sum(a[k][i] * a[k][j] for k in range(3))
            if abs(dot - (1.0 if i == j else 0.0)) > TOLERANCE:
                return None
    q = quat_of(a)
    if max(abs(a[i][j] - rotation_matrix(q)[i][j]) for i in range(3) for j in range(3)) > TOLERANCE:
        return None  # a reflection
    return q


def is_identity(q: Quat) -> bool:
    return abs(abs(q[3]) - 1.0) < 1e-12


def scale_through(turn: Quat, scale: Sequence[float]) -> Optional[Vec]:
    """The scale `s` with diag(s) = R(turn) · diag(scale) · R(turn)⁻¹, when that is one: a
    uniform scale, or any scale under a turn that maps axes onto axes. None otherwise."""
    high = max(abs(c) for c in scale)
    if all(abs(c - scale[0]) <= TOLERANCE * max(high, 1e-30) for c in scale):
        return (scale[0], scale[1], scale[2])
    m = rotation_matrix(turn)
    out = [0.0, 0.0, 0.0]
    for i in range(3):
        hits = [k for k in range(3) if abs(abs(m[i][k]) - 1.0) < TOLERANCE]
        if len(hits) != 1:
            return None
        out[i] = scale[hits[0]]
    return (out[0], out[1], out[2])


class Plan:
    """The turns of one glb's joints and what they change, worked out before anything is
    written, so that a glb is rewritten whole or not at all."""

    def __init__(self, doc: dict, turns: dict[int, Quat]) -> None:
        self.doc = doc
        self.turns = turns
        nodes = doc.get("nodes") or []
        self.parent = {int(c): i for i, n in enumerate(nodes) for c in n.get("children") or []}

    def sides(self, node: int) -> tuple[Quat, Quat]:
        """The turn of a node's parent (on the left of its local transform) and its own
        (on the right, taken back out)."""
        parent = self.parent.get(node)
        left = self.turns.get(parent, IDENTITY) if parent is not None else IDENTITY
        return left, self.turns.get(node, IDENTITY)


def recorded_turns(doc: dict, rest_of: Callable[[int], Optional[Rest]]) -> Optional[dict[int, Quat]]:
    """Each joint's turn from its recorded rest to what Blender wrote; None when one is not
    a turn alone. Blender writes a joint's local transform as its parent's turn taken out
    and its own put in (L' = X_p⁻¹ · L · X), so each turn is found from its parent's, down
    the skeleton: X = L⁻¹ · X_p · L'."""
    nodes = doc.get("nodes") or []
    parent = {int(c): i for i, n in enumerate(nodes) for c in n.get("children") or []}
    joints = sorted({int(j) for skin in doc.get("skins") or [] for j in skin.get("joints") or []})
    rests = {}
    for j in joints:
        rest = rest_of(j)
        if rest is not None and len(rest) == 10:
            rests[j] = rest
    found: dict[int, Optional[Quat]] = {}

    def turn(j: int) -> Optional[Quat]:
        if j not in found:
            above = parent.get(j)
            left = turn(above) if above in rests else IDENTITY
            rest = rests[j]
            local = inverse(trs_matrix(rest[0:3], rest[3:7], rest[7:10]))
            written = local_matrix(nodes[j])
            if left is None or local is None or written is None:
                found[j] = None
            else:
                size = max(1.0, *(abs(c) for c in rest[0:3]))
                found[j] = turn_of(mul(local, mul(trs_matrix((0, 0, 0), left, (1, 1, 1)), written)), size)
        return found[j]

    turns = {}
    for j in rests:
        got = turn(j)
        if got is None:
            return None
        if not is_identity(got):
            turns[j] = got
    return turns


def restore(doc: dict, binary: bytearray, rest_of: Callable[[int], Optional[Rest]]) -> int:
    """Takes the display turns out of the joints of `doc` (a glb's JSON) and of `binary` (its
    BIN chunk's data, edited in place), given each joint's recorded rest by its node's index;
    returns how many joints were turned back (0: the glb is left as it was)."""
    turns = recorded_turns(doc, rest_of)
    if not turns:
        return 0
    plan = Plan(doc, turns)
    edits = planned_edits(plan, binary)
    if edits is None:
        return 0
    nodes, accessors, copies = edits
    for index, fields in nodes.items():
        doc["nodes"][index].update(fields)
    for accessor, values in accessors.items():
        write(doc, binary, accessor, values)
    for sampler, accessor, values in copies:
        sampler["output"] = appended(doc, binary, accessor, values)
    return len(turns)


def appended(doc: dict, binary: bytearray, like: int, values: list) -> int:
    """A new accessor of the kind of accessor `like` holding `values`, its data appended to
    `binary` (and the buffer's length with it); returns its index."""
    code, width, _ = glb_skins.elements(doc, like)
    binary.extend(b"\0" * (-len(binary) % 4))
    start = len(binary)
    for value in values:
        binary.extend(struct.pack(f"<{width}{code}", *value))
    views = doc.setdefault("bufferViews", [])
    views.append({"buffer": 0, "byteOffset": start, "byteLength": len(binary) - start})
    accessor = {k: v for k, v in doc["accessors"][like].items() if k not in ("byteOffset", "min", "max", "name")}
    accessor["bufferView"] = len(views) - 1
    doc["accessors"].append(accessor)
    doc["buffers"][0]["byteLength"] = len(binary)
    return len(doc["accessors"]) - 1


Edits = tuple[dict[int, dict], dict[int, list], list[tuple[dict, int, list]]]


def planned_edits(plan: Plan, binary: bytearray) -> Optional[Edits]:
    """The node fields, accessor values and new accessors (a sampler, the accessor it
    reads and the values it is to read instead) `restore` writes, or None when one cannot
    be written (a scale that the turn makes a shear, data not plain floats)."""
    doc = plan.doc
    nodes = doc.get("nodes") or []
    touched = set(plan.turns) | {c for j in plan.turns for c in nodes[j].get("children") or []}
    node_edits: dict[int, dict] = {}
    for n in sorted(touched):
        node = nodes[n]
        if "matrix" in node:
            return None
        left, right = plan.sides(n)
        fields: dict = {}
        if "translation" in node:
            fields["translation"] = list(qrotate(left, node["translation"]))
        rotation = tuple(node.get("rotation", IDENTITY))
        fields["rotation"] = list(qmul(qmul(left, rotation), qconj(right)))  # type: ignore[arg-type]
        if "scale" in node:
            scale = scale_through(right, node["scale"])
            if scale is None:
                return None
            fields["scale"] = list(scale)
        node_edits[n] = fields
    uses: dict[int, int] = {}
    for animation in doc.get("animations") or []:
        for sampler in animation.get("samplers") or []:
            out = int(sampler["output"])
            uses[out] = uses.get(out, 0) + 1
    accessor_edits: dict[int, list[Sequence[float]]] = {}
    copies: list[tuple[dict, int, list[Sequence[float]]]] = []
    for animation in doc.get("animations") or []:
        samplers = animation.get("samplers") or []
        for channel in animation.get("channels") or []:
            target = channel.get("target") or {}
            node, path = target.get("node"), target.get("path")
            if node is None or int(node) not in touched or path not in ("translation", "rotation", "scale"):
                continue
            left, right = plan.sides(int(node))
            accessor = int(samplers[int(channel["sampler"])]["output"])
            if not is_float(doc, accessor):
                return None
            values = read(doc, binary, accessor)
            changed: list[Sequence[float]] = []
            for v in values:
                if path == "translation":
                    changed.append(qrotate(left, v))
                elif path == "rotation":
                    changed.append(qmul(qmul(left, (v[0], v[1], v[2], v[3])), qconj(right)))
                else:
                    scaled = scale_through(right, v)
                    if scaled is None:
                        return None
                    changed.append(scaled)
            if all(tuple(c) == tuple(v) for c, v in zip(changed, values)):
                continue  # unchanged (an even scale): may be shared with other channels
            if uses[accessor] == 1 and accessor not in accessor_edits:
                accessor_edits[accessor] = changed
            else:
                # Blender writes equal keys once: this channel gets an accessor of its own.
                copies.append((samplers[int(channel["sampler"])], accessor, changed))
    for skin in doc.get("skins") or []:
        if "inverseBindMatrices" not in skin:
            continue
        accessor = int(skin["inverseBindMatrices"])
        joints = [int(j) for j in skin.get("joints") or []]
        if not any(j in plan.turns for j in joints):
            continue
        if not is_float(doc, accessor) or accessor in accessor_edits:
            return None
        matrices = read(doc, binary, accessor)
        changed = []
        for j, columns in zip(joints, matrices):
            turn = plan.turns.get(j)
            if turn is None:
                changed.append(columns)
                continue
            changed.append(columns_of(mul(trs_matrix((0, 0, 0), turn, (1, 1, 1)), rows_of(columns))))
        changed.extend(matrices[len(changed) :])
        accessor_edits[accessor] = changed
    return node_edits, accessor_edits, copies


def is_float(doc: dict, accessor: int) -> bool:
    acc = doc["accessors"][accessor]
    return int(acc.get("componentType", 0)) == 5126 and "sparse" not in acc


def read(doc: dict, binary: bytearray, accessor: int) -> list[tuple]:
    code, width, at = glb_skins.elements(doc, accessor)
    fmt = f"<{width}{code}"
    return [struct.unpack_from(fmt, binary, offset) for offset in at]


def write(doc: dict, binary: bytearray, accessor: int, values: list) -> None:
    """Writes `values` over an accessor's elements, and its bounds where it has them."""
    code, width, at = glb_skins.elements(doc, accessor)
    fmt = f"<{width}{code}"
    for offset, value in zip(at, values):
        struct.pack_into(fmt, binary, offset, *value)
    acc = doc["accessors"][accessor]
    if values and ("min" in acc or "max" in acc):
        bound(doc, accessor, [struct.unpack_from(fmt, binary, offset) for offset in at])


def bound(doc: dict, accessor: int, stored: list) -> None:
    """Sets an accessor's `min` and `max` to those of `stored`, its elements as written
    (not empty)."""
    width = len(stored[0])
    acc = doc["accessors"][accessor]
    acc["min"] = [min(v[k] for v in stored) for k in range(width)]
    acc["max"] = [max(v[k] for v in stored) for k in range(width)]


def joint_rests(doc: dict) -> list[list[float]]:
    """The rest transform of each joint of a glTF's first skin, in order (translation,
    rotation as x, y, z, w, scale: what `restore` is given back per joint)."""
    nodes = doc.get("nodes") or []
    skins = doc.get("skins") or [{}]
    rests = []
    for j in skins[0].get("joints") or []:
        node = nodes[int(j)]
        rest = [
            *node.get("translation", (0.0, 0.0, 0.0)),
            *node.get("rotation", IDENTITY),
            *node.get("scale", (1.0, 1.0, 1.0)),
        ]
        rests.append([float(v) for v in rest])
    return rests


def uneven(scale: Sequence[float]) -> bool:
    high = max(abs(c) for c in scale)
    return any(abs(c - scale[0]) > TOLERANCE * max(high, 1e-30) for c in scale)


def scaled_unevenly(doc: dict, binary: bytearray) -> bool:
    """Whether a joint of the glb is scaled unevenly, at rest or in an animation key."""
    nodes = doc.get("nodes") or []
    joints = {int(j) for skin in doc.get("skins") or [] for j in skin.get("joints") or []}
    if any(uneven(nodes[j].get("scale", (1.0, 1.0, 1.0))) for j in joints):
        return True
    for animation in doc.get("animations") or []:
        samplers = animation.get("samplers") or []
        for channel in animation.get("channels") or []:
            target = channel.get("target") or {}
            if target.get("path") != "scale" or target.get("node") not in joints:
                continue
            accessor = int(samplers[int(channel["sampler"])]["output"])
            if not is_float(doc, accessor):
                return True
            if any(uneven(v) for v in read(doc, binary, accessor)):
                return True
    return False
