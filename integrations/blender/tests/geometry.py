"""Point-set helpers for comparing posed meshes (plain Python + numpy, no Blender)."""

from __future__ import annotations

import numpy

#: Rows compared at once in the nearest-point search (bounds memory to ~CHUNK x N floats).
CHUNK = 128


def obj_points(path: str) -> list:
    """Positions of the `v` lines of an OBJ that some `f` line uses."""
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
                for corner in parts[1:]:
                    index = int(corner.split("/")[0])
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
