#!/usr/bin/env python3
"""Taking the bones' display turns back out of an exported .glb (`rigport_io/glb_rest.py`),
checked with a plain Python.

Usage: python3 integrations/blender/tests/glb_rest_check.py

A two-joint skeleton is written as Blender's exporter writes it once each bone's frame was
turned to point at its child: every joint's rest, its animation keys, the node placed in it
and the inverse bind matrices are in the turned frames, and two channels share one accessor
of keys (Blender writes equal keys once). `restore` must give back the file's own rest,
keys and matrices, give each of the two channels its own keys, and leave a glb alone whose
joint was moved rather than turned. Prints one line per check and `N passed, N failed`;
exits 1 on a failure. run.py runs these checks too.
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


def load() -> Any:
    """`glb_rest`, loaded from its file (the package imports bpy), with `glb_skins` beside it."""
    if PACKAGE not in sys.path:
        sys.path.insert(0, PACKAGE)
    spec = importlib.util.spec_from_file_location("glb_rest", os.path.join(PACKAGE, "glb_rest.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def axis_angle(axis: tuple, degrees: float) -> tuple:
    n = math.sqrt(sum(c * c for c in axis))
    s = math.sin(math.radians(degrees) / 2)
    return (axis[0] / n * s, axis[1] / n * s, axis[2] / n * s, math.cos(math.radians(degrees) / 2))


def close(a: Any, b: Any, tolerance: float = 1e-5) -> bool:
    """Equal within `tolerance`, a quaternion equal to its negation too."""
    a, b = list(a), list(b)
    same = all(abs(x - y) <= tolerance for x, y in zip(a, b))
    if len(a) == 4 and not same:
        return all(abs(x + y) <= tolerance for x, y in zip(a, b))
    return same and len(a) == len(b)


class Written:
    """A glb's JSON and BIN data as Blender would write the skeleton, its frames turned."""

    def __init__(self, g: Any) -> None:
        self.g = g
        self.turns = {1: axis_angle((1, 1, 0), 40), 2: axis_angle((0, 1, 0), 90)}
        self.rest = {
            1: [0.0, 1.0, 0.0, *axis_angle((0, 0, 1), 30), 1.0, 1.0, 1.0],
            2: [0.0, 2.0, 0.5, *axis_angle((1, 0, 0), 20), 2.0, 2.0, 2.0],
        }
        self.place = (0.1, 0.0, 0.3)  # node 3, placed in joint 2
        # Keys as written (turned): one rotation accessor shared by both joints.
        self.shared = [axis_angle((0, 0, 1), 10), axis_angle((0, 1, 1), 50)]
        self.moves = [(0.0, 2.0, 0.5), (0.5, 2.0, 0.0)]

    def turned(self, node: int, t: Any, r: Any) -> tuple:
        """The local translation and rotation Blender writes for an original one."""
        g = self.g
        parent = {1: None, 2: 1, 3: 2}[node]
        left = g.qconj(self.turns[parent]) if parent in self.turns else g.IDENTITY
        right = self.turns.get(node, g.IDENTITY)
        return g.qrotate(left, t), g.qmul(g.qmul(left, tuple(r)), right)

    def original_key(self, node: int, r: Any) -> tuple:
        """The original rotation key of `node` that Blender writes as `r`."""
        g = self.g
        parent = {1: None, 2: 1}[node]
        left = self.turns[parent] if parent in self.turns else g.IDENTITY
        return g.qmul(g.qmul(left, tuple(r)), g.qconj(self.turns[node]))

    def globals_(self) -> dict:
        g = self.g
        out: dict = {}
        above = g.trs_matrix((0, 0, 0), g.IDENTITY, (1, 1, 1))
        for j in (1, 2):
            rest = self.rest[j]
            above = g.mul(above, g.trs_matrix(rest[0:3], rest[3:7], rest[7:10]))
            out[j] = above
        return out

    def build(self) -> tuple[dict, bytearray]:
        g = self.g
        nodes: list[dict] = [{"name": "armature", "children": [1]}]
        for j in (1, 2):
            rest = self.rest[j]
            t, r = self.turned(j, rest[0:3], rest[3:7])
            node = {"name": f"bone{j}", "translation": list(t), "rotation": list(r), "scale": rest[7:10]}
            nodes.append(node)
        nodes[1]["children"] = [2]
        nodes[2]["children"] = [3]
        t, r = self.turned(3, self.place, g.IDENTITY)
        nodes.append({"name": "prop", "translation": list(t), "rotation": list(r)})
        nodes.append({"name": "body", "mesh": 0, "skin": 0})
        binary = bytearray()
        views: list[dict] = []
        accessors: list[dict] = []

        def add(values: list, kind: str) -> int:
            start = len(binary)
            for value in values:
                binary.extend(struct.pack(f"<{len(value)}f", *value))
            views.append({"buffer": 0, "byteOffset": start, "byteLength": len(binary) - start})
            accessors.append({"bufferView": len(views) - 1, "componentType": 5126, "count": len(values), "type": kind})
            return len(accessors) - 1

        inverse_binds = []
        for j, world in self.globals_().items():
            turned = g.mul(world, g.trs_matrix((0, 0, 0), self.turns[j], (1, 1, 1)))
            back = g.inverse(turned)
            inverse_binds.append(tuple(back[r][c] for c in range(4) for r in range(4)))
        ibm = add(inverse_binds, "MAT4")
        times = add([(0.0,), (1.0,)], "SCALAR")
        rotations = add(self.shared, "VEC4")
        moves = add([self.turned(2, m, g.IDENTITY)[0] for m in self.moves], "VEC3")
        scales = add([(1.0, 1.0, 1.0), (1.0, 1.0, 1.0)], "VEC3")
        samplers = [{"input": times, "output": out} for out in (rotations, rotations, moves, scales, scales)]
        targets = [(1, "rotation"), (2, "rotation"), (2, "translation"), (1, "scale"), (2, "scale")]
        channels = [{"sampler": k, "target": {"node": n, "path": p}} for k, (n, p) in enumerate(targets)]
        doc = {
            "asset": {"version": "2.0"},
            "nodes": nodes,
            "skins": [{"joints": [1, 2], "inverseBindMatrices": ibm}],
            "meshes": [{"primitives": [{"attributes": {}}]}],
            "animations": [{"channels": channels, "samplers": samplers}],
            "accessors": accessors,
            "bufferViews": views,
            "buffers": [{"byteLength": len(binary)}],
        }
        return doc, binary


def checks() -> list[dict]:
    g = load()
    results = []

    def check(name: str, ok: bool, detail: str) -> None:
        results.append({"check": name, "status": "pass" if ok else "fail", "detail": detail})

    check(
        "quaternion_product",
        close(g.qmul(axis_angle((0, 0, 1), 90), axis_angle((1, 0, 0), 90)), (0.5, 0.5, 0.5, 0.5)),
        "a quarter turn about Z after one about X",
    )
    written = Written(g)
    doc, binary = written.build()
    rests = {1: written.rest[1], 2: written.rest[2]}
    turned_back = g.restore(doc, binary, rests.get)
    nodes = doc["nodes"]
    check("joints_turned_back", turned_back == 2, f"{turned_back} joints")
    for j in (1, 2):
        rest = written.rest[j]
        node = nodes[j]
        same = close(node["translation"], rest[0:3]) and close(node["rotation"], rest[3:7]) and close(node["scale"], rest[7:10])
        check(f"rest_{j}", same, f"{node}")
    check("placed_child", close(nodes[3]["translation"], written.place) and close(nodes[3]["rotation"], g.IDENTITY), f"{nodes[3]}")
    matrices = g.read(doc, binary, doc["skins"][0]["inverseBindMatrices"])
    worlds = written.globals_()
    for k, j in enumerate((1, 2)):
        want = g.inverse(worlds[j])
        flat = tuple(want[r][c] for c in range(4) for r in range(4))
        check(f"inverse_bind_{j}", close(matrices[k], flat), "the file's inverse bind matrix")
    animation = doc["animations"][0]
    outputs = [animation["samplers"][c["sampler"]]["output"] for c in animation["channels"]]
    check("own_keys", outputs[0] != outputs[1] and outputs[3] == outputs[4], f"outputs {outputs}")
    for channel, node in ((0, 1), (1, 2)):
        keys = g.read(doc, binary, outputs[channel])
        want = [written.original_key(node, r) for r in written.shared]
        check(f"rotation_keys_{node}", all(close(a, b) for a, b in zip(keys, want)), f"{keys}")
    moves = g.read(doc, binary, outputs[2])
    check("translation_keys", all(close(a, b) for a, b in zip(moves, written.moves)), f"{moves}")
    check("buffer_length", doc["buffers"][0]["byteLength"] == len(binary), "the buffer grew with the new keys")

    # A joint moved in Blender (not only turned) leaves the glb as Blender wrote it.
    doc, binary = written.build()
    doc["nodes"][2]["translation"][0] += 0.5
    before = (copy.deepcopy(doc), bytes(binary))
    kept = g.restore(doc, binary, rests.get) == 0 and (doc, bytes(binary)) == before
    check("moved_joint_kept", kept, "a joint that moved is not a display turn")
    # No recorded rest: nothing to do.
    doc, binary = written.build()
    check("unrecorded_kept", g.restore(doc, binary, lambda _: None) == 0, "joints without a recorded rest")
    return results


def main() -> int:
    sys.path.insert(0, HERE)
    import checklist

    return checklist.run("glb rest", checks)


if __name__ == "__main__":
    sys.exit(main())
