"""Point-set helpers for comparing posed meshes (plain Python + numpy, no Blender)."""

from __future__ import annotations

import json
import struct
from typing import Iterable, Optional

import numpy

#: Rows compared at once in the nearest-point search (bounds memory to ~CHUNK x N floats).
CHUNK = 128


def obj_points(path: str) -> list:
    """Positions of the `v` lines of an OBJ that some `f` line uses (Blender holds
    degenerate triangles too: the add-on gives them vertices of their own)."""
    vertices = []
    used = set()
    with open(path, encoding="utf-8") as text:
        for line in text:
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "v":
                vertices.append(tuple(float(c) for c in parts[1:4]))
            elif parts[0] == "f":
                corners = [int(corner.split("/")[0]) for corner in parts[1:]]
                for index in corners:
                    used.add(index - 1 if index > 0 else len(vertices) + index)
    return [vertices[i] for i in sorted(used)]


def diagonal(points: list) -> float:
    """Length of the axis-aligned bounding box's diagonal."""
    array = numpy.asarray(points, dtype=numpy.float64)
    return float(numpy.linalg.norm(array.max(axis=0) - array.min(axis=0)))


def farthest_nearest(a: numpy.ndarray, b: numpy.ndarray) -> float:
    """max over a of the distance to the nearest point of b."""
    worst = 0.0
    for start in range(0, len(a), CHUNK):
        block = a[start : start + CHUNK]
        d2 = ((block[:, None, :] - b[None, :, :]) ** 2).sum(axis=2)
        worst = max(worst, float(numpy.sqrt(d2.min(axis=1)).max()))
    return worst


def hausdorff(a: list, b: list) -> float:
    """Symmetric Hausdorff distance between two point sets."""
    x = numpy.asarray(a, dtype=numpy.float64)
    y = numpy.asarray(b, dtype=numpy.float64)
    return max(farthest_nearest(x, y), farthest_nearest(y, x))



#: glTF componentType -> (struct code, size) for index accessors.
_INDEX_TYPES = {5121: ("B", 1), 5123: ("H", 2), 5125: ("I", 4)}


def glb_face_counts(path: str) -> tuple:
    """(triangles, degenerate, repeated) over every mesh of a .glb.

    Degenerate: a triangle using one vertex index twice. Repeated: a triangle with the
    same three indices (in any order) as an earlier one of the same mesh. Blender's mesh
    holds neither, so its importer drops both.
    """
    with open(path, "rb") as data:
        blob = data.read()
    json_length = struct.unpack_from("<I", blob, 12)[0]
    doc = json.loads(blob[20 : 20 + json_length])
    binary_start = 20 + json_length + 8
    total = degenerate = repeated = 0
    for mesh in doc.get("meshes", []):
        seen = set()
        for primitive in mesh.get("primitives", []):
            if primitive.get("mode", 4) != 4:
                continue
            indices = _indices(doc, blob, binary_start, primitive)
            base = ("attributes", tuple(sorted(primitive["attributes"].items())))
            for t in range(0, len(indices) - 2, 3):
                face = indices[t : t + 3]
                total += 1
                if len(set(face)) < 3:
                    degenerate += 1
                    continue
                key = (base, tuple(sorted(face)))
                if key in seen:
                    repeated += 1
                seen.add(key)
    return total, degenerate, repeated


def _indices(doc: dict, blob: bytes, binary_start: int, primitive: dict) -> list:
    """A primitive's triangle indices (0, 1, 2, ... when it has no index accessor)."""
    if "indices" not in primitive:
        count = doc["accessors"][primitive["attributes"]["POSITION"]]["count"]
        return list(range(count))
    accessor = doc["accessors"][primitive["indices"]]
    view = doc["bufferViews"][accessor["bufferView"]]
    code, size = _INDEX_TYPES[accessor["componentType"]]
    start = binary_start + view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
    stride = view.get("byteStride", size)
    return [struct.unpack_from("<" + code, blob, start + i * stride)[0] for i in range(accessor["count"])]


def obj_degenerate_faces(path: str) -> int:
    """Triangles of an OBJ that use one vertex twice (Blender cannot hold such a face)."""
    count = 0
    with open(path, encoding="utf-8") as text:
        for line in text:
            parts = line.split()
            if parts and parts[0] == "f":
                corners = [corner.split("/")[0] for corner in parts[1:]]
                count += len(set(corners)) < len(corners)
    return count


# ---------------------------------------------------------------------------
# The file's own bind-pose box, read from the bytes without rigport, so that the
# add-on's placement is checked against the file's numbers and not against rigport.

#: IQM vertex array type and component format of float positions.
_IQM_POSITION, _IQM_FLOAT = 0, 7


def box(points: list) -> Optional[tuple]:
    """(min corner, max corner) of `points`, or None when there are none."""
    if not points:
        return None
    array = numpy.asarray(points, dtype=numpy.float64)
    return tuple(array.min(axis=0).tolist()), tuple(array.max(axis=0).tolist())


def turn_y_up_to_z_up(corners: tuple) -> tuple:
    """A Y-up box as Blender (Z-up) holds it: (x, y, z) -> (x, -z, y), corners re-sorted."""
    (x0, y0, z0), (x1, y1, z1) = corners
    return (x0, -z1, y0), (x1, -z0, y1)


def box_distance(a: tuple, b: tuple) -> float:
    """Largest difference between matching corner coordinates of two boxes."""
    return float(numpy.abs(numpy.asarray(a, dtype=numpy.float64) - numpy.asarray(b, dtype=numpy.float64)).max())


def box_size(corners: tuple) -> float:
    """The box's diagonal."""
    return float(numpy.linalg.norm(numpy.asarray(corners[1]) - numpy.asarray(corners[0])))


def _used(vertices: list, faces: Iterable) -> list:
    """Vertices some face with distinct corners uses (Blender keeps no degenerate face)."""
    used: set = set()
    for face in faces:
        if len(set(face)) == len(face):
            used.update(i for i in face if 0 <= i < len(vertices))
    return [vertices[i] for i in sorted(used)]


def iqm_points(data: bytes) -> list:
    """Bind-pose positions used by the triangles of an IQM v2 file (float positions only)."""
    header = struct.unpack_from("<16s27I", data, 0)
    fields = header[1:]
    num_vertexarrays, num_vertexes, ofs_vertexarrays = fields[7], fields[8], fields[9]
    num_triangles, ofs_triangles = fields[10], fields[11]
    positions = None
    for k in range(num_vertexarrays):
        kind, _flags, fmt, size, offset = struct.unpack_from("<5I", data, ofs_vertexarrays + 20 * k)
        if kind == _IQM_POSITION:
            if fmt != _IQM_FLOAT or size < 3:
                raise ValueError(f"IQM positions in format {fmt} x{size} are not read here")
            floats = struct.unpack_from(f"<{num_vertexes * size}f", data, offset)
            positions = [floats[i * size : i * size + 3] for i in range(num_vertexes)]
    if positions is None:
        return []
    indices = struct.unpack_from(f"<{3 * num_triangles}I", data, ofs_triangles)
    return _used(positions, (indices[t : t + 3] for t in range(0, len(indices), 3)))


def iqe_points(text: str) -> list:
    """Positions used by the faces of an IQE file (`fm` counts from its mesh's first `vp`)."""
    vertices: list = []
    faces = []
    mesh_start = 0
    for line in text.splitlines():
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "mesh":
            mesh_start = len(vertices)
        elif parts[0] == "vp":
            values = [float(v) for v in parts[1:4]] + [0.0] * (3 - len(parts[1:4]))
            vertices.append(tuple(values))
        elif parts[0] in ("fm", "fa"):
            base = mesh_start if parts[0] == "fm" else 0
            corners = [base + int(v) for v in parts[1:]]
            faces += [(corners[0], corners[k], corners[k + 1]) for k in range(1, len(corners) - 1)]
    return _used(vertices, faces)


def ms3d_points(data: bytes) -> list:
    """Positions used by the triangles of a binary MilkShape 3D file."""
    (count,) = struct.unpack_from("<H", data, 14)
    vertices = [struct.unpack_from("<3f", data, 16 + 15 * i + 1) for i in range(count)]
    at = 16 + 15 * count
    (triangles,) = struct.unpack_from("<H", data, at)
    faces = [struct.unpack_from("<3H", data, at + 2 + 70 * t + 2) for t in range(triangles)]
    return _used(vertices, faces)


def ms3d_ascii_points(text: str) -> list:
    """Positions used by the triangles of a MilkShape 3D ASCII file, mesh by mesh."""
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if line and not line.startswith("//")]
    points: list = []
    at = next(i for i, line in enumerate(lines) if line.startswith("Meshes:"))
    meshes = int(lines[at].split(":")[1])
    at += 1
    for _ in range(meshes):
        at += 1  # "name" flags material
        count = int(lines[at])
        vertices = [tuple(float(v) for v in lines[at + 1 + i].split()[1:4]) for i in range(count)]
        at += 1 + count
        at += 1 + int(lines[at])  # normals
        triangles = int(lines[at])
        faces = [tuple(int(v) for v in lines[at + 1 + t].split()[1:4]) for t in range(triangles)]
        at += 1 + triangles
        points += _used(vertices, faces)
    return points


def file_points(path: str, fmt: str) -> Optional[list]:
    """The file's bind-pose positions in its own axes, for the formats read here, else None."""
    with open(path, "rb") as source:
        data = source.read()
    if fmt == "iqm":
        return iqm_points(data)
    if fmt == "iqe":
        return iqe_points(data.decode("utf-8", errors="replace"))
    if fmt == "ms3d":
        return ms3d_points(data)
    if fmt == "ms3d-ascii":
        return ms3d_ascii_points(data.decode("latin-1"))
    return None


#: MilkShape's frame rate where a file stores none (ASCII files), and IQE's and IQM's
#: where an animation declares none (or 0, as Red Eclipse's files do).
DEFAULT_FPS = 24.0


def iqm_fps(data: bytes) -> Optional[float]:
    """The frame rate of an IQM file's first animation (None without animations)."""
    fields = struct.unpack_from("<27I", data, 16)
    num_anims, ofs_anims = fields[17], fields[18]
    if num_anims == 0:
        return None
    (rate,) = struct.unpack_from("<f", data, ofs_anims + 12)
    return rate if rate > 0 else DEFAULT_FPS


def iqe_fps(text: str) -> Optional[float]:
    """The `framerate` of an IQE file's first animation (None without `animation`)."""
    animations = 0
    for line in text.splitlines():
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "animation":
            animations += 1
            if animations > 1:
                break
        elif parts[0] == "framerate" and animations == 1 and len(parts) > 1:
            rate = float(parts[1])
            return rate if rate > 0 else DEFAULT_FPS
    return DEFAULT_FPS if animations else None


def ms3d_fps(data: bytes) -> float:
    """A binary MilkShape 3D file's `fAnimationFPS` (after vertices, triangles, groups, materials)."""
    (vertices,) = struct.unpack_from("<H", data, 14)
    at = 16 + 15 * vertices
    (triangles,) = struct.unpack_from("<H", data, at)
    at += 2 + 70 * triangles
    (groups,) = struct.unpack_from("<H", data, at)
    at += 2
    for _ in range(groups):
        (count,) = struct.unpack_from("<H", data, at + 33)
        at += 33 + 2 + 2 * count + 1
    (materials,) = struct.unpack_from("<H", data, at)
    at += 2 + 361 * materials
    (rate,) = struct.unpack_from("<f", data, at)
    return rate


def file_fps(path: str, fmt: str) -> Optional[float]:
    """The frame rate the file gives its first animation, read without rigport."""
    with open(path, "rb") as source:
        data = source.read()
    if fmt == "iqm":
        return iqm_fps(data)
    if fmt == "iqe":
        return iqe_fps(data.decode("utf-8", errors="replace"))
    if fmt == "ms3d":
        return ms3d_fps(data)
    if fmt == "ms3d-ascii":
        return DEFAULT_FPS  # MilkShape ASCII stores no frame rate
    return None
