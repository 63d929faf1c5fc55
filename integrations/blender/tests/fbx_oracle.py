"""Runs inside Blender: rigport's FBX reading against Blender's own FBX importer.

Blender's importer (`io_scene_fbx`, Python, independent of ufbx) reads each binary FBX 7.1+
file; its evaluated meshes, in world space, are compared with the posed OBJ that
`rigport convert FILE posed.obj --anim I --time T` writes (Y up turned to Blender's Z up) at
the first, middle and last frame of every animation, and at rest for a file without one:
every vertex of each side must lie within TOLERANCE of the model's size of a vertex of the
other. Blender puts a stack's time t at frame t x fps + 1, and names each object's action
`<object>|<stack>[|<layer>]`.

    blender -b --factory-startup --python fbx_oracle.py -- RIGPORT FILE.fbx...

Prints a line per comparison and `N passed, N failed`; exits 1 on a failure.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

import bpy  # type: ignore[import-not-found]
from mathutils import Vector, kdtree  # type: ignore[import-not-found]

#: Largest distance between the two sides, as a fraction of the model's size.
TOLERANCE = 1e-3

#: Files where Blender's importer and ufbx (which rigport follows, checked against ufbx's own
#: skinning in crates/fbx/tests/against_ufbx.rs) disagree, and why. Their comparisons are
#: printed, not counted.
KNOWN = {
    "ufbx_maya_anim_layers_over_acc_orders_7500_binary.fbx": "Blender makes an action per layer and does not blend them",
    "ufbx_motionbuilder_sausage_rrss_7700_binary.fbx": "Blender ignores InheritType (componentwise scale)",
    "ufbx_maya_slime_7500_binary.fbx": "Blender leaves the hidden high mesh unscaled (100x the low one)",
    "ufbx_maya_game_sausage_7500_binary_combined.fbx": "Blender's 'deform' action poses differently from ufbx's evaluation",
    "ufbx_max_geometry_transform_7700_binary.fbx": (
        "Blender moves the child box by its parent's geometric transform (assimp agrees with ufbx)"
    ),
}


def rigport_json(rigport: str, path: str) -> dict:
    out = subprocess.run(
        [rigport, "info", "--json", "--anim-details", path],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.splitlines()[0])


def rigport_posed(rigport: str, path: str, anim: int | None, time: float) -> list[Vector]:
    """rigport's posed OBJ vertices, turned from Y up to Z up as Blender shows them."""
    with tempfile.TemporaryDirectory() as folder:
        obj = os.path.join(folder, "posed.obj")
        command = [rigport, "convert", path, obj, "-q", "--no-embed-textures"]
        if anim is not None:
            command += ["--anim", str(anim), "--time", repr(time)]
        subprocess.run(command, check=True, capture_output=True)
        points = []
        with open(obj, encoding="utf-8") as text:
            for line in text:
                if line.startswith("v "):
                    x, y, z = (float(v) for v in line.split()[1:4])
                    points.append(Vector((x, -z, y)))
        return points


def blender_vertices() -> list[Vector]:
    depsgraph = bpy.context.evaluated_depsgraph_get()
    points = []
    for obj in bpy.context.scene.objects:
        if obj.type != "MESH":
            continue
        evaluated = obj.evaluated_get(depsgraph)
        mesh = evaluated.to_mesh()
        points += [evaluated.matrix_world @ v.co for v in mesh.vertices]
        evaluated.to_mesh_clear()
    return points


def farthest(ours: list[Vector], theirs: list[Vector]) -> float:
    tree = kdtree.KDTree(len(theirs))
    for i, p in enumerate(theirs):
        tree.insert(p, i)
    tree.balance()
    return max((tree.find(p)[2] for p in ours), default=0.0)


def size(points: list[Vector]) -> float:
    lo = Vector(tuple(min(p[i] for p in points) for i in range(3)))
    hi = Vector(tuple(max(p[i] for p in points) for i in range(3)))
    return max((hi - lo).length, 1e-9)


def set_stack(stack: str) -> float | None:
    """Gives every object its action of `stack`; the stack's first frame, if any."""
    first = None
    for obj in bpy.context.scene.objects:
        actions = [a for a in bpy.data.actions if a.name.startswith(f"{obj.name}|{stack}")]
        if not actions:
            continue
        if obj.animation_data is None:
            obj.animation_data_create()
        obj.animation_data.action = actions[0]
        start = actions[0].frame_range[0]
        first = start if first is None else min(first, start)
    return first


def main() -> int:
    args = sys.argv[sys.argv.index("--") + 1 :]
    rigport, files = args[0], args[1:]
    passed = failed = 0
    for path in files:
        name = os.path.basename(path)
        bpy.ops.wm.read_factory_settings(use_empty=True)
        try:
            bpy.ops.import_scene.fbx(filepath=path)
        except Exception as error:  # Blender's importer refuses some valid files
            print(f"skip {name}: Blender's importer fails: {type(error).__name__}")
            continue
        info = rigport_json(rigport, path)
        fps = bpy.context.scene.render.fps / bpy.context.scene.render.fps_base
        cases: list[tuple[str, int | None, float]] = []
        for number, anim in enumerate(info.get("anim_details", [])):
            frames = int(anim["duration"] * anim["fps"] + 1e-3)
            for frame in sorted({0, frames // 2, frames}):
                cases.append((anim["name"], number, frame / anim["fps"]))
        if not cases:
            cases.append(("rest", None, 0.0))
        for stack, index, time in cases:
            if index is not None:
                first = set_stack(stack)
                if first is None:
                    # A stack that moves nothing (Maya's "Take 001"): Blender makes no
                    # action and shows the saved pose, which the stack holds at its start.
                    if time > 0.0:
                        continue
                else:
                    bpy.context.scene.frame_set(int(round(first + time * fps)))
            theirs = blender_vertices()
            ours = rigport_posed(rigport, path, index, time)
            if not theirs or not ours:
                print(f"skip {name} {stack!r} at {time:.4f} s: no vertices")
                continue
            scale = size(theirs)
            off = max(farthest(ours, theirs), farthest(theirs, ours)) / scale
            line = f"{name} {stack!r} at {time:.4f} s: {off:.2e} of the size ({scale:.3g} m)"
            if name in KNOWN:
                print(f"known {line}: {KNOWN[name]}")
                continue
            ok = off <= TOLERANCE
            passed += ok
            failed += not ok
            print(f"{'pass' if ok else 'FAIL'} {line}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    os._exit(code)
