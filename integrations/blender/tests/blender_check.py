"""Runs inside Blender (`blender -b --factory-startup --python blender_check.py -- ARGS`).

Checks one corpus file through the add-on and writes a JSON result:
    -- SOURCE RESULT.json WORKDIR EXPORT_MODE
EXPORT_MODE is `run`, or `skip:<reason>` when this rigport cannot do the round trip.

Checks (each `pass`, `fail` or `skip`, with a detail line):
* import: triangles equal `rigport info`, one bone per joint, one action per animation;
* pose: the evaluated mesh at a key frame equals rigport's posed OBJ within 1e-3 of the model size;
* export: export to the source's format, then `rigport info` keeps the triangle count.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import traceback
from typing import Optional

import bpy

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import rigport_io  # noqa: E402
from rigport_io import cli, naming  # noqa: E402

import geometry  # noqa: E402

#: Allowed posed distance, relative to the posed model's bounding-box diagonal.
POSE_TOLERANCE = 1e-3

#: Export extension per source format (glTF sources go to IQE: Blender already writes glTF).
EXPORT_EXTENSION = {"ms3d": ".ms3d", "ms3d-ascii": ".txt", "iqe": ".iqe", "iqm": ".iqm", "gltf": ".iqe", "glb": ".iqe"}

#: The joint rigport's glTF adds for skinned vertices bound to no joint; not a model joint.
SYNTHETIC_BONE = "rigport_unbound"

#: rigport's words for a file in a format it does not read at all.
UNSUPPORTED_FORMAT = "no known signature"



def expected_joints(source: str, info: dict) -> int:
    """The joints rigport's model has: the file's, or for an animation-only IQM (no joints, one
    pose per joint of the skeleton it animates, as Red Eclipse and raylib ship them) its pose
    count, which rigport reads as placeholder joints."""
    if info.get("format") != "iqm" or info.get("joints"):
        return info["joints"]
    with open(source, "rb") as file:
        header = file.read(80)
    # IQM v2 header: num_poses is the 20th u32 field (byte 76).
    return struct.unpack_from("<I", header, 76)[0] if len(header) >= 80 else 0

def check(name: str, ok: bool, detail: str) -> dict:
    """One check's result."""
    return {"check": name, "status": "pass" if ok else "fail", "detail": detail}


def skip(name: str, detail: str) -> dict:
    """A check that did not run, and why."""
    return {"check": name, "status": "skip", "detail": detail}


def imported_objects() -> list:
    """Every object in the file (the test starts from an empty scene)."""
    return list(bpy.data.objects)


def triangle_count(objects: list) -> int:
    """Triangles of every mesh object, counting an n-gon as n - 2."""
    return sum(
        sum(len(p.vertices) - 2 for p in o.data.polygons) for o in objects if o.type == "MESH"
    )


def imported_actions(objects: list) -> list:
    """Distinct actions stashed on the imported objects' NLA tracks."""
    seen = []
    for obj in objects:
        if obj.animation_data is None:
            continue
        for track in obj.animation_data.nla_tracks:
            for strip in track.strips:
                if strip.action is not None and strip.action not in seen:
                    seen.append(strip.action)
    return seen


def key_frame(objects: list) -> Optional[float]:
    """A keyframe of the first animation (the active actions after import) that the most curves share.

    At such a frame Blender's curves hold the stored key values, so no interpolation
    difference between Blender and rigport enters the comparison.
    """
    counts: dict[float, int] = {}
    for obj in objects:
        data = obj.animation_data
        if data is None or data.action is None:
            continue
        for curve in data.action.fcurves:
            for point in curve.keyframe_points:
                frame = round(point.co[0], 4)
                counts[frame] = counts.get(frame, 0) + 1
    if not counts:
        return None
    frames = sorted(counts)
    best = max(counts.values())
    candidates = [f for f in frames if counts[f] == best]
    # Prefer a frame inside the animation over its first frame (often the bind pose).
    inner = [f for f in candidates if f != frames[0]] or candidates
    return inner[len(inner) // 2]


def posed_points(objects: list) -> list:
    """World positions of every vertex used by a polygon, in glTF's Y-up axes."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    points = []
    for obj in objects:
        if obj.type != "MESH":
            continue
        evaluated = obj.evaluated_get(depsgraph)
        mesh = evaluated.to_mesh()
        used = {i for p in mesh.polygons for i in p.vertices}
        matrix = evaluated.matrix_world
        for i in sorted(used):
            x, y, z = matrix @ mesh.vertices[i].co
            points.append((x, z, -y))  # Blender Z-up to glTF Y-up
        evaluated.to_mesh_clear()
    return points


def posed_obj(binary: str, source: str, info: dict, objects: list, work: str) -> tuple:
    """Writes rigport's OBJ at a key frame of the first animation (bind pose without one).

    Sets Blender's scene to the same time. Returns (obj path or None, what, error text).
    """
    obj_path = os.path.join(work, "posed.obj")
    args = [binary, "convert", source, obj_path, "--force"]
    what = "bind pose"
    if info.get("animations", 0) > 0:
        frame = key_frame(objects)
        if frame is None:
            return None, what, "the first animation has no keyframes in Blender"
        fps = bpy.context.scene.render.fps / bpy.context.scene.render.fps_base
        seconds = frame / fps
        whole = int(frame // 1)
        bpy.context.scene.frame_set(whole, subframe=frame - whole)
        args += ["--time", repr(seconds), "--anim", "0"]
        what = f"t={seconds:.4g}s"
    proc = subprocess.run(args, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        return None, what, f"rigport obj failed: {proc.stderr.strip()[:200]}"
    return obj_path, what, ""


def pose_check(obj_path: Optional[str], what: str, problem: str, objects: list) -> dict:
    """Compares the evaluated meshes with rigport's posed OBJ."""
    if obj_path is None:
        return check("pose", False, problem)
    expected = geometry.obj_points(obj_path)
    actual = posed_points(objects)
    if not expected and not actual:
        return skip("pose", "no triangles to compare")
    if not expected or not actual:
        return check("pose", False, f"{len(actual)} posed points in Blender, {len(expected)} in rigport's OBJ")
    size = geometry.diagonal(expected)
    error = geometry.hausdorff(expected, actual)
    relative = error / size if size > 0 else error
    return check(
        "pose",
        relative <= POSE_TOLERANCE,
        f"{what} error {relative:.2e} of size {size:.4g}",
    )


def export_check(binary: str, info: dict, in_blender: int, work: str, mode: str, stem: str) -> dict:
    """Exports through the add-on to the source's format and compares `rigport info` triangles.

    The written file must hold every triangle Blender holds (`in_blender`: rigport's count
    less the degenerate and repeated faces Blender's meshes cannot keep).
    """
    if mode.startswith("skip:"):
        return skip("export", mode[len("skip:"):])
    extension = EXPORT_EXTENSION.get(info.get("format", ""), ".ms3d")
    target = os.path.join(work, stem + extension)
    try:
        result = bpy.ops.export_scene.rigport(filepath=target)
    except RuntimeError as err:
        return check("export", False, f"{extension}: {str(err).strip()[:200]}")
    if "FINISHED" not in result:
        return check("export", False, f"{extension}: operator returned {sorted(result)}")
    try:
        written = cli.info(binary, target)
    except cli.RigportError as err:
        return check("export", False, f"{extension}: rigport cannot read it back: {err}")
    ok = written.get("triangles") == in_blender
    return check("export", ok, f"{extension}: {written.get('triangles')} triangles, {in_blender} in Blender")


def run(source: str, work: str, mode: str) -> dict:
    """All checks for one file."""
    binary = cli.find_binary()
    stem = os.path.splitext(os.path.basename(source))[0]
    result: dict = {"file": source, "checks": []}
    try:
        info = cli.info(binary, source)
    except cli.RigportError as err:
        message = str(err)
        if UNSUPPORTED_FORMAT in message:
            result["checks"] = [skip(n, "rigport does not read this format yet") for n in ("import", "pose", "export")]
            return result
        # rigport refuses a damaged file: the add-on must cancel cleanly and import nothing.
        try:
            bpy.ops.import_scene.rigport(filepath=source)
            cancelled = False
        except RuntimeError:
            cancelled = True
        ok = cancelled and not bpy.data.objects
        result["checks"] = [
            check("import", ok, f"refused as rigport does: {message[:120]}"),
            skip("pose", "rigport refuses the file"),
            skip("export", "rigport refuses the file"),
        ]
        return result
    result["info"] = {k: info.get(k) for k in ("format", "triangles", "joints", "animations")}
    bpy.ops.import_scene.rigport(filepath=source)
    objects = imported_objects()
    triangles = triangle_count(objects)
    bones = sum(
        sum(b.name != SYNTHETIC_BONE for b in o.data.bones) for o in objects if o.type == "ARMATURE"
    )
    actions = imported_actions(objects)
    joints = expected_joints(source, info)
    obj_path, what, problem = posed_obj(binary, source, info, objects, work)
    # Blender's meshes hold no triangle that uses one vertex twice and no second copy of a
    # face: its importer drops those (the add-on warns how many). Count them in the same
    # .glb rigport gives Blender, and check that .glb carries every triangle rigport read.
    glb = os.path.join(work, "model.glb")
    cli.convert(binary, source, glb)
    in_glb, degenerate, repeated = geometry.glb_face_counts(glb)
    expected = in_glb - degenerate - repeated
    result["blender"] = {
        "triangles": triangles,
        "bones": bones,
        "actions": len(actions),
        "dropped": degenerate + repeated,
    }
    # Names may be cut to Blender's 63 bytes, the file's stem first (to 8 bytes at least).
    prefix = stem[: naming.MIN_STEM_BYTES]
    misnamed = [o.name for o in objects if not o.name.startswith(prefix)]
    misnamed += [a.name for a in actions if not (a.name.startswith(prefix) and "|" in a.name)]
    ok = not misnamed and (in_glb, triangles, bones, len(actions)) == (
        info["triangles"],
        expected,
        joints,
        info["animations"],
    )
    dropped = f" (Blender holds no {degenerate} degenerate, {repeated} repeated)" if expected != in_glb else ""
    result["checks"].append(
        check(
            "import",
            ok,
            f"tris {triangles}/{info['triangles']}{dropped}, glb {in_glb}; bones {bones}/{joints}; "
            f"actions {len(actions)}/{info['animations']}"
            + (f"; not named after the file: {misnamed[:3]}" if misnamed else ""),
        )
    )
    result["checks"].append(pose_check(obj_path, what, problem, objects))
    result["checks"].append(export_check(binary, info, triangles, work, mode, stem))
    return result


def main() -> None:
    """Parses the arguments after `--`, runs the checks, writes the JSON result."""
    args = sys.argv[sys.argv.index("--") + 1 :]
    source, result_path, work, mode = args
    # Start from an empty scene (no default cube, camera or light).
    bpy.ops.wm.read_factory_settings(use_empty=True)
    rigport_io.register()
    try:
        result = run(source, work, mode)
    except Exception:  # noqa: BLE001 - any failure is this file's failure, reported in full
        result = {"file": source, "checks": [check("import", False, traceback.format_exc()[-400:])]}
    with open(result_path, "w", encoding="utf-8") as out:
        json.dump(result, out)


main()
