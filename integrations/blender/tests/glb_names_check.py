#!/usr/bin/env python3
"""The export's animation, material and joint renaming (`rigport_io/glb_names.py`,
`rigport_io/glb_skins.py`), checked with a plain Python.

Usage: python3 integrations/blender/tests/glb_names_check.py

A .glb with animations named as Blender names actions (`object|animation`, out of file order)
is renamed with a stand-in for the add-on's rule; the animations must come out under their
file names, in file order, with those the rule places nowhere after them in their own order,
and the binary chunk and everything but the animations' names and order unchanged; materials
likewise, with each mesh primitive still naming its own; materials no mesh used put back;
each animation given back its own frame rate; and, before import, the triangles Blender
cannot hold on shared vertices given vertices of their own (`glb_faces.py`). Prints one
line per check and `N passed, N failed`; exits 1 on a failure. run.py runs these checks too.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import struct
import sys
import tempfile
from typing import Any, Callable

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE = os.path.join(os.path.dirname(HERE), "rigport_io", "glb_names.py")


def load() -> Callable:
    """`glb_names.rename`, loaded from its file (the package imports bpy), with `glb_skins`
    beside it."""
    if os.path.dirname(MODULE) not in sys.path:
        sys.path.insert(0, os.path.dirname(MODULE))
    spec = importlib.util.spec_from_file_location("glb_names", MODULE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.rename


def materials_module() -> Any:
    """`glb_materials`, loaded from its file."""
    return module_beside("glb_materials")


def module_beside(name: str) -> Any:
    """A module of the package that imports no Blender, loaded from its file."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(os.path.dirname(MODULE), name + ".py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def glb(doc: dict, binary: bytes) -> bytes:
    text = json.dumps(doc).encode("utf-8")
    text += b" " * (-len(text) % 4)
    binary += b"\0" * (-len(binary) % 4)
    total = 12 + 8 + len(text) + 8 + len(binary)
    return (
        struct.pack("<4sII", b"glTF", 2, total)
        + struct.pack("<I4s", len(text), b"JSON")
        + text
        + struct.pack("<I4s", len(binary), b"BIN\0")
        + binary
    )


def read(path: str) -> tuple[dict, bytes, int]:
    with open(path, "rb") as source:
        blob = source.read()
    (total,) = struct.unpack_from("<I", blob, 8)
    (length,) = struct.unpack_from("<I", blob, 12)
    return json.loads(blob[20 : 20 + length]), blob[20 + length :], total - len(blob)


#: What the add-on knows of each action: (file name, index in the file).
KNOWN = {"guy|jump": ("jump", 1.0), "guy|dance": ("dance", 0.0), "guy|idle": ("idle", 2.0)}


def rule(name: str) -> tuple[str, float]:
    """The add-on's rule without Blender: known actions, else `object|` dropped for `guy`."""
    if name in KNOWN:
        return KNOWN[name]
    head, bar, rest = name.partition("|")
    return (rest, math.inf) if bar and head == "guy" else (name, math.inf)


def checks() -> list[dict]:
    rename = load()
    results = []

    def check(name: str, ok: bool, detail: str) -> None:
        results.append({"check": name, "status": "pass" if ok else "fail", "detail": detail})

    binary = bytes(range(7))
    names = ["guy|jump", "Wave", "guy|idle", "guy|Made", "guy|dance"]
    doc = {
        "asset": {"version": "2.0"},
        "animations": [{"name": n, "channels": [], "samplers": [], "extras": {"at": i}} for i, n in enumerate(names)],
        "nodes": [{"name": "guy|jump"}],
    }
    with tempfile.TemporaryDirectory(prefix="rigport-glb-names-") as root:
        path = os.path.join(root, "scene.glb")
        with open(path, "wb") as out:
            out.write(glb(doc, binary))
        changed = rename(path, rule)
        after, rest, length_off = read(path)
        got = [a["name"] for a in after["animations"]]
        want = ["dance", "jump", "idle", "Wave", "Made"]
        check("names_and_order", got == want, f"{got}")
        check("changed_count", changed == 5, f"{changed} animations changed name or place")
        check("payload_kept", [a["extras"]["at"] for a in after["animations"]] == [4, 0, 2, 1, 3], "each animation moved whole")
        check("rest_kept", after["nodes"] == doc["nodes"] and rest[8:15] == binary and length_off == 0, "nodes, BIN chunk, total length")
        check("idempotent", rename(path, lambda n: (n, math.inf)) == 0, "a second pass with names as they are changes nothing")

        # Extras an imported action recorded (a frame rate and loop flag) go back beside the
        # animation's own.
        with open(path, "wb") as out:
            out.write(glb(doc, binary))
        recorded = {"guy|jump": {"fps": 24.0, "looping": True}}
        rename(path, rule, None, None, lambda n: recorded.get(n, {}))
        after, _, _ = read(path)
        given = {a["name"]: a["extras"] for a in after["animations"]}
        check("extras", given["jump"] == {"at": 0, "fps": 24.0, "looping": True} and given["dance"] == {"at": 4}, f"{given}")

        # The file's comment goes back where rigport reads it, beside Blender's asset fields.
        with open(path, "wb") as out:
            out.write(glb({**doc, "asset": {"version": "2.0", "generator": "Blender"}}, binary))
        rename(path, rule, comment="made in 2004")
        after, _, _ = read(path)
        asset = after["asset"]
        check("comment", asset.get("extras") == {"comment": "made in 2004"} and asset["generator"] == "Blender", f"{asset}")

        # Materials: Blender's `skin.001` back to `skin`, file order restored, primitives
        # following their materials, an unknown material after the known ones.
        materials = {"metal": ("metal", 1.0), "skin.001": ("skin", 0.0)}
        doc = {
            "asset": {"version": "2.0"},
            "materials": [{"name": "metal"}, {"name": "new"}, {"name": "skin.001"}],
            "meshes": [{"primitives": [{"attributes": {}, "material": 0}, {"attributes": {}, "material": 2}, {"attributes": {}}]}],
        }
        with open(path, "wb") as out:
            out.write(glb(doc, binary))
        changed = rename(path, rule, lambda n: materials.get(n, (n, math.inf)))
        after, rest, length_off = read(path)
        got = [m["name"] for m in after["materials"]]
        used = [after["materials"][p["material"]]["name"] for p in after["meshes"][0]["primitives"] if "material" in p]
        check("materials", got == ["skin", "metal", "new"] and changed == 3 and "animations" not in after, f"{got}, {changed} changed")
        check("primitives_follow", used == ["metal", "skin"], f"{used}")

        # Materials no mesh used: taken from the imported file (their textures by image),
        # put back at their indices in the file Blender wrote, which has one used material.
        source = {
            "materials": [
                {"name": "wall", "pbrMetallicRoughness": {"baseColorTexture": {"index": 1}}},
                {"name": "wall", "pbrMetallicRoughness": {"baseColorFactor": [1, 0, 0, 1]}},
                {"name": "wall", "normalTexture": {"index": 0, "scale": 0.5}},
            ],
            "textures": [{"source": 0}, {"source": 1, "sampler": 0}],
            "images": [{"uri": "bump.png"}, {"uri": "brick.jpg"}],
            "samplers": [{"wrapS": 33071}],
            "meshes": [{"primitives": [{"attributes": {}, "material": 1}]}],
        }
        kept = materials_module().unused(source)
        check("unused_taken", [k["index"] for k in kept] == [0, 2], f"{[k['index'] for k in kept]}")
        blender = {
            "asset": {"version": "2.0"},
            "materials": [{"name": "wall", "pbrMetallicRoughness": {"baseColorFactor": [1, 0, 0, 1]}}],
            "images": [{"uri": "brick.jpg"}],
            "textures": [{"source": 0}],
            "meshes": [{"primitives": [{"attributes": {}, "material": 0}]}],
        }
        with open(path, "wb") as out:
            out.write(glb(blender, binary))
        rename(path, rule, lambda n: ("wall", 1.0), unused_materials=kept)
        after, _, _ = read(path)
        got = [json.dumps(m, sort_keys=True) for m in after["materials"]]
        first = after["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["index"]
        third = after["materials"][2]["normalTexture"]
        shown = after["textures"][first], after["images"][after["textures"][first]["source"]]
        bump = after["images"][after["textures"][third["index"]]["source"]]
        primitive = after["materials"][after["meshes"][0]["primitives"][0]["material"]]
        ok = (
            len(got) == 3
            and shown == ({"source": 0, "sampler": 0}, {"uri": "brick.jpg"})
            and after["samplers"] == [{"wrapS": 33071}]
            and third["scale"] == 0.5
            and bump == {"uri": "bump.png"}
            and len(after["images"]) == 2
            and primitive["pbrMetallicRoughness"] == {"baseColorFactor": [1, 0, 0, 1]}
        )
        check("unused_restored", ok, f"{got}")

        # Faces Blender cannot hold on shared vertices (a vertex used twice, a repeat of an
        # earlier triangle) get vertices of their own before import; the rest stay as they are.
        faces_module = module_beside("glb_faces")
        positions = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
        corners = struct.pack("<9H", 0, 1, 2, 2, 1, 0, 0, 0, 1) + b"\0\0"
        shared = {
            "asset": {"version": "2.0"},
            "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
            "accessors": [
                {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
                {"bufferView": 1, "componentType": 5123, "count": 9, "type": "SCALAR"},
            ],
            "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 18}],
            "buffers": [{"byteLength": 56}],
        }
        with open(path, "wb") as out:
            out.write(glb(shared, positions + corners))
        given = faces_module.split(path)
        after, rest, length_off = read(path)
        data = rest[8:]
        primitive = after["meshes"][0]["primitives"][0]
        index_view = after["bufferViews"][after["accessors"][primitive["indices"]]["bufferView"]]
        split_corners = list(struct.unpack_from("<9I", data, index_view["byteOffset"]))
        position = after["accessors"][primitive["attributes"]["POSITION"]]
        view = after["bufferViews"][position["bufferView"]]
        points = [struct.unpack_from("<3f", data, view["byteOffset"] + 12 * k) for k in range(position["count"])]
        copies = points[3:] == [points[2], points[1], points[0], points[0], points[0], points[1]]
        ok = given == 2 and split_corners == [0, 1, 2, 3, 4, 5, 6, 7, 8] and copies and length_off == 0
        check("faces_apart", ok, f"{given} triangles given vertices: {split_corners}, {len(points)} positions")

        # Frame rates: Blender wrote every animation's frame k at k / 30 s; the one recorded
        # at 60 fps goes back to k / 60 s, on times of its own where it shared them.
        times = struct.pack("<3f", 0.0, 1 / 30, 2 / 30)
        timed = {
            "asset": {"version": "2.0"},
            "animations": [
                {"name": "walk", "samplers": [{"input": 0, "output": 0}], "channels": []},
                {"name": "run", "samplers": [{"input": 0, "output": 0}], "channels": []},
            ],
            "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "SCALAR", "min": [0.0], "max": [2 / 30]}],
            "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": len(times)}],
            "buffers": [{"byteLength": len(times)}],
        }
        with open(path, "wb") as out:
            out.write(glb(timed, times))
        rates = {"walk": {"fps": 30.0}, "run": {"fps": 60.0}}
        rename(path, lambda n: (n, math.inf), None, None, lambda n: rates.get(n, {}), scene_rate=30.0)
        after, rest, _ = read(path)
        data = rest[8:]

        def keys(animation: int) -> list[float]:
            accessor = after["accessors"][after["animations"][animation]["samplers"][0]["input"]]
            offset = after["bufferViews"][accessor["bufferView"]]["byteOffset"]
            return [round(v * 60, 4) for v in struct.unpack_from("<3f", data, offset)] + [round(accessor["max"][0] * 60, 4)]

        walk, run = keys(0), keys(1)
        check("own_rates", walk == [0.0, 2.0, 4.0, 4.0] and run == [0.0, 1.0, 2.0, 2.0], f"walk {walk}, run {run} (sixtieths)")

        # Joints: Blender's order (b, a.001, c) back to the file's (a, b, c), with `a.001`
        # named `a` again, the inverse bind matrices moved with their joints and every
        # JOINTS_0 value renumbered; a mesh of another skin is left alone.
        joints = {"b": ("b", 1.0), "a.001": ("a", 0.0), "c": ("c", 2.0)}
        matrices = b"".join(struct.pack("<16f", *([float(k)] * 16)) for k in range(3))
        influences = bytes([0, 1, 2, 0, 2, 2, 1, 0])
        skinned: dict = {
            "asset": {"version": "2.0"},
            "nodes": [{"name": "b"}, {"name": "a.001"}, {"name": "c"}, {"mesh": 0, "skin": 0}],
            "skins": [{"joints": [0, 1, 2], "inverseBindMatrices": 0}],
            "meshes": [{"primitives": [{"attributes": {"JOINTS_0": 1}}]}],
            "accessors": [
                {"bufferView": 0, "componentType": 5126, "count": 3, "type": "MAT4"},
                {"bufferView": 1, "componentType": 5121, "count": 2, "type": "VEC4"},
            ],
            "bufferViews": [
                {"buffer": 0, "byteOffset": 0, "byteLength": len(matrices)},
                {"buffer": 0, "byteOffset": len(matrices), "byteLength": len(influences)},
            ],
        }
        with open(path, "wb") as out:
            out.write(glb(skinned, matrices + influences))
        changed = rename(path, rule, None, lambda n: joints.get(n, (n, math.inf)))
        after, rest, length_off = read(path)
        data = rest[8:]
        order = [after["nodes"][j]["name"] for j in after["skins"][0]["joints"]]
        firsts = [struct.unpack_from("<f", data, 64 * k)[0] for k in range(3)]
        renumbered = list(data[len(matrices) : len(matrices) + 8])
        check("joint_order", order == ["a", "b", "c"] and changed == 3, f"{order}, {changed} changed")
        check("bind_matrices_follow", firsts == [1.0, 0.0, 2.0], f"{firsts}")
        check("influences_renumbered", renumbered == [1, 0, 2, 1, 2, 2, 0, 1], f"{renumbered}")
        skinned["nodes"].append({"mesh": 0})
        with open(path, "wb") as out:
            out.write(glb(skinned, matrices + influences))
        rename(path, rule, None, lambda n: joints.get(n, (n, math.inf)))
        after, rest, _ = read(path)
        kept = after["skins"][0]["joints"] == [0, 1, 2] and rest[8:] == matrices + influences
        check("shared_mesh_kept", kept, "a mesh shown unskinned too keeps its skin's order")
        # `glb_file`: the JSON chunk alone, or with the BIN chunk's data; not a glb refused.
        glb_file = module_beside("glb_file")
        doc = {"asset": {"version": "2.0"}, "extras": {"name": "é"}}
        with open(path, "wb") as out:
            out.write(glb(doc, b"\1\2\3\4\5"))
        whole = glb_file.read(path)
        alone = glb_file.read_json(path)
        with open(path, "wb") as out:
            out.write(b"not a glb, but long enough to hold a header")
        refused = []
        for reader in (glb_file.read, glb_file.read_json):
            try:
                reader(path)
            except ValueError:
                refused.append(reader.__name__)
        ok = alone == doc and whole == (doc, bytearray(b"\1\2\3\4\5\0\0\0")) and len(refused) == 2
        check("glb_file_reads", ok, f"json alone {alone == doc}, both chunks {whole[1]!r}, refused {refused}")
    return results


def main() -> int:
    sys.path.insert(0, HERE)
    import checklist

    return checklist.run("glb names", checks)


if __name__ == "__main__":
    sys.exit(main())
