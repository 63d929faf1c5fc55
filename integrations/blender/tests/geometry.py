"""Point-set helpers for comparing posed meshes (plain Python + numpy, no Blender)."""

from __future__ import annotations

import json
import struct

import numpy

#: Rows compared at once in the nearest-point search (bounds memory to ~CHUNK x N floats).
CHUNK = 128


def obj_points(path: str) -> list:
    """Positions of the `v` lines of an OBJ that some non-degenerate `f` line uses."""
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
                if len(set(corners)) < len(corners):
                    continue  # degenerate: Blender holds no such face
                for index in corners:
                    used.add(index - 1 if index > 0 else len(vertices) + index)
    return [vertices[i] for i in sorted(used)]


def diagonal(points: list) -> float:
    """Length of the axis-aligned bounding box's diagonal."""
    array = numpy.asarray(points, dtype=numpy.float64)
    return float(numpy.linalg.norm(array.max(axis=0) - array.min(axis=0)))


def _farthest_nearest(a: numpy.ndarray, b: numpy.ndarray) -> float:
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
    return max(_farthest_nearest(x, y), _farthest_nearest(y, x))



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
