#!/usr/bin/env python3
"""Giving joints back the rest scales Blender's bones do not hold (`rigport_io/glb_scales.py`),
checked with a plain Python.

Usage: python3 integrations/blender/tests/glb_scales_check.py

Two joints under a turned armature node are written as Blender's exporter writes joints
whose rests the file scaled: at a unit scale, bound where they rest, the vertices moved to
those binds. `restore` must give the joints their recorded scales, invert the scaled joints'
world transforms in the inverse bind matrices, and move each vertex so that it sits where
it sat relative to its joint (every pose of the keys draws it where Blender's file did),
its normal turned with it; a glb whose joint moved in Blender, or whose vertex is weighted
to joints that disagree, is left as written. Prints one line per check and
`N passed, N failed`; exits 1 on a failure. run.py runs these checks too.
"""

from __future__ import annotations

import copy
import importlib.util
import math
import os
import struct
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(os.path.dirname(HERE), "rigport_io")

#: The recorded rests (translation, rotation x y z w, scale) of the two joints, by node.
RESTS = {
    1: [0.0, 1.0, 0.0, 0.0, 0.0, math.sin(math.radians(15)), math.cos(math.radians(15)), 2.0, 1.0, 1.5],
    2: [0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.5, 1.0, 1.0],
}
#: Vertices (position, normal) and the joint node each is weighted to.
VERTICES = [((1.0, 1.0, 0.0), (1.0, 0.0, 0.0), 1), ((0.0, 3.0, 1.0), (0.0, 0.0, 1.0), 2)]


def load() -> Any:
    """`glb_scales`, loaded from its file (the package imports bpy), with `glb_rest` beside it."""
    if PACKAGE not in sys.path:
        sys.path.insert(0, PACKAGE)
    spec = importlib.util.spec_from_file_location("glb_scales", os.path.join(PACKAGE, "glb_scales.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def written(s: Any, second_joint: int = 1) -> tuple[dict, bytearray]:
    """The glb as Blender writes it: unit scales, bound at rest. The second vertex is
    weighted to its joint and to joint `second_joint` (0: the armature's first joint too)."""
    g = s.glb_rest
    nodes: list[dict] = [{"name": "armature", "rotation": [-math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5)], "children": [1]}]
    for j in (1, 2):
        nodes.append({"name": f"bone{j}", "translation": RESTS[j][0:3], "rotation": RESTS[j][3:7]})
    nodes[1]["children"] = [2]
    nodes.append({"name": "body", "mesh": 0, "skin": 0})
    doc: dict = {"asset": {"version": "2.0"}, "nodes": nodes, "scenes": [{"nodes": [0, 3]}]}
    worlds = s.world_matrices(doc)
    binary = bytearray()
    binary += b"".join(struct.pack("<16f", *g.columns_of(g.inverse(worlds[j]))) for j in (1, 2))
    binary += b"".join(struct.pack("<3f", *p) for p, _, _ in VERTICES)
    binary += b"".join(struct.pack("<3f", *n) for _, n, _ in VERTICES)
    influences = [(0, 0, 0, 0), (1, second_joint - 1, 0, 0)]
    weights = [(1.0, 0.0, 0.0, 0.0), (0.5, 0.5 if second_joint != 2 else 0.0, 0.0, 0.0)]
    binary += b"".join(struct.pack("<4B", *i) for i in influences)
    binary += b"".join(struct.pack("<4f", *w) for w in weights)
    lengths = [128, 24, 24, 8, 32]
    views, at = [], 0
    for length in lengths:
        views.append({"buffer": 0, "byteOffset": at, "byteLength": length})
        at += length
    doc["bufferViews"] = views
    doc["buffers"] = [{"byteLength": len(binary)}]
    doc["accessors"] = [
        {"bufferView": 0, "componentType": 5126, "count": 2, "type": "MAT4"},
        {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC3", "min": [0, 1, 0], "max": [1, 3, 1]},
        {"bufferView": 2, "componentType": 5126, "count": 2, "type": "VEC3"},
        {"bufferView": 3, "componentType": 5121, "count": 2, "type": "VEC4"},
        {"bufferView": 4, "componentType": 5126, "count": 2, "type": "VEC4"},
    ]
    doc["skins"] = [{"joints": [1, 2], "inverseBindMatrices": 0}]
    attributes = {"POSITION": 1, "NORMAL": 2, "JOINTS_0": 3, "WEIGHTS_0": 4}
    doc["meshes"] = [{"primitives": [{"attributes": attributes}]}]
    return doc, binary


def apply(m: list, p: tuple) -> tuple:
    return tuple(sum(m[r][c] * p[c] for c in range(3)) + m[r][3] for r in range(3))


def close(a: Any, b: Any, tolerance: float = 1e-5) -> bool:
    a, b = list(a), list(b)
    return len(a) == len(b) and all(abs(x - y) <= tolerance for x, y in zip(a, b))


def checks() -> list[dict]:
    s = load()
    g = s.glb_rest
    results = []

    def check(name: str, ok: bool, detail: str) -> None:
        results.append({"check": name, "status": "pass" if ok else "fail", "detail": detail})

    doc, binary = written(s, second_joint=2)
    before = copy.deepcopy(doc), bytes(binary)
    given = s.restore(doc, binary, RESTS.get)
    scales = [doc["nodes"][j].get("scale") for j in (1, 2)]
    check("scales_back", given == 2 and scales == [RESTS[1][7:10], RESTS[2][7:10]], f"{given} joints, {scales}")
    worlds = s.world_matrices(doc)
    binds = [g.rows_of(m) for m in g.read(doc, binary, 0)]
    unit = g.columns_of(g.trs_matrix((0, 0, 0), g.IDENTITY, (1, 1, 1)))
    inverted = all(close(g.columns_of(g.mul(worlds[j], binds[k])), unit) for k, j in enumerate((1, 2)))
    check("inverse_binds", inverted, "each matrix inverts its scaled joint's world transform")
    old_doc, old_binary = before
    old_binds = [g.rows_of(m) for m in g.read(old_doc, bytearray(old_binary), 0)]
    old_points = g.read(old_doc, bytearray(old_binary), 1)
    points = g.read(doc, binary, 1)
    kept = all(close(apply(binds[j - 1], points[k]), apply(old_binds[j - 1], old_points[k])) for k, (_, _, j) in enumerate(VERTICES))
    check("vertices_follow", kept, f"{points}: each where it sat relative to its joint")
    normals = g.read(doc, binary, 2)
    unit_length = all(abs(math.sqrt(sum(c * c for c in n)) - 1.0) < 1e-5 for n in normals)
    check("normals_turned", unit_length and normals[0] != tuple(VERTICES[0][1]), f"{normals}")

    doc, binary = written(s, second_joint=2)
    doc["nodes"][2]["translation"] = [0.0, 2.5, 0.0]
    before = copy.deepcopy(doc), bytes(binary)
    check("moved_joint_kept", s.restore(doc, binary, RESTS.get) == 0 and (doc, bytes(binary)) == before, "a joint moved in Blender")

    # The second vertex weighted to both joints, which move apart: no one place for it.
    doc, binary = written(s, second_joint=1)
    before = copy.deepcopy(doc), bytes(binary)
    check("split_vertex_kept", s.restore(doc, binary, RESTS.get) == 0 and (doc, bytes(binary)) == before, "joints disagree")
    return results


def main() -> int:
    sys.path.insert(0, HERE)
    import checklist

    return checklist.run("glb scales", checks)


if __name__ == "__main__":
    sys.exit(main())
