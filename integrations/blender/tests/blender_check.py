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
import math
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
from rigport_io import cli, glb_faces, naming  # noqa: E402

import geometry  # noqa: E402

#: Allowed posed distance, relative to the posed model's bounding-box diagonal.
POSE_TOLERANCE = 1e-3

#: Whole frames of the first animation at which the pose is compared (every one up to this
#: many, else this many spread over it).
POSE_FRAMES = 60

#: Allowed difference of a bounding-box corner, relative to the box's diagonal (float noise).
BOX_TOLERANCE = 1e-5

#: Every check of one file, in table order.
CHECKS = ("import", "box", "fps", "pose", "export", "round_trip")

#: Formats whose box is read from the file here, and those of them that are Y-up.
BOX_FORMATS = ("iqm", "iqe", "ms3d", "ms3d-ascii")
Y_UP_FORMATS = ("ms3d", "ms3d-ascii")

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


def active_range(objects: list) -> Optional[tuple]:
    """The whole frames the active actions (the first animation) span, first and last."""
    ranges = [
        tuple(obj.animation_data.action.frame_range)
        for obj in objects
        if obj.animation_data is not None and obj.animation_data.action is not None
    ]
    if not ranges:
        return None
    return int(math.ceil(min(r[0] for r in ranges) - 1e-4)), int(math.floor(max(r[1] for r in ranges) + 1e-4))


def whole_frames(first: int, last: int) -> list:
    """Every whole frame of [first, last] when there are at most POSE_FRAMES, else
    POSE_FRAMES of them spread evenly (both ends included, most between the keys of a sparse
    animation), plus the frame after the first."""
    if last - first + 1 <= POSE_FRAMES:
        return list(range(first, last + 1))
    picks = {first + round((last - first) * k / (POSE_FRAMES - 1)) for k in range(POSE_FRAMES)}
    picks.add(first + 1)
    return sorted(picks)


def scene_fps() -> float:
    """The scene's frame rate, frames per second."""
    render = bpy.context.scene.render
    return render.fps / render.fps_base


def blender_posed_points(objects: list) -> list:
    """World positions, in Blender's axes, of every vertex a polygon of the evaluated meshes uses."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    points = []
    for obj in objects:
        if obj.type != "MESH":
            continue
        evaluated = obj.evaluated_get(depsgraph)
        mesh = evaluated.to_mesh()
        used = {i for p in mesh.polygons for i in p.vertices}
        matrix = evaluated.matrix_world
        points += [tuple(matrix @ mesh.vertices[i].co) for i in sorted(used)]
        evaluated.to_mesh_clear()
    return points


def rest_points(objects: list) -> list:
    """World positions, in Blender's axes, of the vertices the meshes' polygons use, unposed."""
    points = []
    for obj in objects:
        if obj.type != "MESH":
            continue
        used = {i for p in obj.data.polygons for i in p.vertices}
        points += [tuple(obj.matrix_world @ obj.data.vertices[i].co) for i in sorted(used)]
    return points


def obj_points_in_blender(path: str) -> list:
    """rigport's posed OBJ (Y-up, as OBJ is) in Blender's Z-up axes: (x, y, z) -> (x, -z, y)."""
    return [(x, -z, y) for x, y, z in geometry.obj_points(path)]


def posed_obj(binary: str, source: str, path: str, seconds: Optional[float]) -> str:
    """Writes rigport's OBJ of the first animation at `seconds` (None: the bind pose); "" or the error."""
    args = [binary, "convert", source, path, "--force"]
    if seconds is not None:
        args += ["--time", repr(seconds), "--anim", "0"]
    proc = subprocess.run(args, capture_output=True, text=True, check=False)
    return "" if proc.returncode == 0 else f"rigport obj failed: {proc.stderr.strip()[:200]}"


def pose_check(binary: str, source: str, info: dict, objects: list, work: str) -> dict:
    """The evaluated meshes equal rigport's posed OBJ at the whole frames of the first animation.

    Frame f is `f / fps` seconds at the scene's rate (the file's, set by the add-on); with
    no animation the bind pose is compared.
    """
    if not any(o.type == "MESH" for o in objects):
        return skip("pose", "no meshes to pose")
    span = active_range(objects) if info.get("animations", 0) > 0 else None
    if info.get("animations", 0) > 0 and span is None:
        return check("pose", False, "the first animation has no keyframes in Blender")
    frames = whole_frames(*span) if span else [None]
    fps = scene_fps()
    worst, worst_at, size = 0.0, None, 0.0
    for frame in frames:
        if frame is not None:
            bpy.context.scene.frame_set(frame)
        obj_path = os.path.join(work, "posed.obj")
        problem = posed_obj(binary, source, obj_path, None if frame is None else frame / fps)
        if problem:
            return check("pose", False, problem)
        expected = obj_points_in_blender(obj_path)
        actual = blender_posed_points(objects)
        if not expected and not actual:
            return skip("pose", "no triangles to compare")
        if not expected or not actual:
            return check("pose", False, f"{len(actual)} posed points in Blender, {len(expected)} in rigport's OBJ")
        size = geometry.diagonal(expected)
        error = geometry.hausdorff(expected, actual)
        relative = error / size if size > 0 else error
        if worst_at is None or relative > worst:
            worst, worst_at = relative, frame
    what = "bind pose" if span is None else f"{len(frames)} frames {span[0]}-{span[1]} at {fps:g} fps, worst frame {worst_at}"
    return check("pose", worst <= POSE_TOLERANCE, f"{what} error {worst:.2e} of size {size:.4g}")


def expected_box(source: str, fmt: str) -> Optional[tuple]:
    """The file's bind-pose box as Blender must hold it: IQE and IQM numbers as they are
    (both Z-up, as Blender is), MilkShape's turned Y-up -> Z-up; None for other formats."""
    points = geometry.file_points(source, fmt)
    if not points:
        return None
    corners = geometry.box(points)
    return geometry.turn_y_up_to_z_up(corners) if fmt in Y_UP_FORMATS else corners


def box_check(source: str, fmt: str, objects: list) -> dict:
    """Blender's rest-pose box equals the file's own numbers, turned into Blender's axes."""
    try:
        expected = expected_box(source, fmt)
    except (ValueError, struct.error, IndexError, StopIteration) as err:
        return skip("box", f"the file's vertices are not read here: {err}")
    if expected is None:
        return skip("box", f"no file box for {fmt}" if fmt not in BOX_FORMATS else "no vertices in faces")
    got = geometry.box(rest_points(objects))
    if got is None:
        return check("box", False, "Blender holds no vertices")
    size = geometry.box_size(expected)
    difference = geometry.box_distance(expected, got)
    relative = difference / size if size > 0 else difference
    turned = " (Y-up turned to Z-up)" if fmt in Y_UP_FORMATS else " (numbers unchanged)"
    return check(
        "box",
        relative <= BOX_TOLERANCE,
        f"max corner difference {relative:.1e} of size {size:.4g}{turned}; Blender {fmt_box(got)}",
    )


def fmt_box(corners: tuple) -> str:
    """A box as `[x0 y0 z0 .. x1 y1 z1]` with 4 significant digits."""
    return "[" + " ".join(f"{v:.4g}" for v in corners[0]) + " .. " + " ".join(f"{v:.4g}" for v in corners[1]) + "]"


def fps_check(source: str, fmt: str, info: dict) -> dict:
    """The scene's frame rate equals the file's (its first animation's)."""
    if not info.get("animations"):
        return skip("fps", "no animation")
    try:
        expected = geometry.file_fps(source, fmt)
    except (ValueError, struct.error, IndexError) as err:
        return skip("fps", f"the file's frame rate is not read here: {err}")
    if expected is None:
        return skip("fps", f"no frame rate read from {fmt} here")
    got = scene_fps()
    return check("fps", abs(got - expected) <= 1e-4 * expected, f"scene {got:g} fps, file {expected:g} fps")


def export_check(binary: str, info: dict, in_blender: int, work: str, mode: str, stem: str) -> tuple:
    """Exports through the add-on to the source's format and compares `rigport info` triangles.

    The written file must hold every triangle Blender holds (`in_blender`: rigport's count
    less the degenerate and repeated faces Blender's meshes cannot keep). Returns the check
    and the written file's path ("" when nothing was written).
    """
    if mode.startswith("skip:"):
        return skip("export", mode[len("skip:"):]), ""
    extension = EXPORT_EXTENSION.get(info.get("format", ""), ".ms3d")
    target = os.path.join(work, stem + extension)
    try:
        result = bpy.ops.export_scene.rigport(filepath=target)
    except RuntimeError as err:
        return check("export", False, f"{extension}: {str(err).strip()[:200]}"), ""
    if "FINISHED" not in result:
        return check("export", False, f"{extension}: operator returned {sorted(result)}"), ""
    try:
        written = cli.info(binary, target)
    except cli.RigportError as err:
        return check("export", False, f"{extension}: rigport cannot read it back: {err}"), ""
    ok = written.get("triangles") == in_blender
    return check("export", ok, f"{extension}: {written.get('triangles')} triangles, {in_blender} in Blender"), target


def round_trip_check(source: str, fmt: str, info: dict, written: str, first_box: Optional[tuple]) -> dict:
    """Export then import through the add-on turns nothing.

    The written file (same format as the source) has the source's own box and frame rate,
    and importing it into an emptied scene gives Blender the box
    the first import gave.
    """
    if not written:
        return skip("round_trip", "nothing exported")
    if fmt not in BOX_FORMATS or first_box is None:
        return skip("round_trip", f"no box compared for {fmt}")
    original = geometry.box(geometry.file_points(source, fmt))
    again = geometry.box(geometry.file_points(written, fmt))
    size = geometry.box_size(first_box)
    in_file = geometry.box_distance(original, again) / size if size > 0 else 0.0
    rates = ""
    if info.get("animations"):
        # Blender's glTF exporter samples at the scene's whole rate (it ignores fps_base); the
        # add-on gives each animation its own rate back from the rate its action records.
        source_fps, written_fps = geometry.file_fps(source, fmt), geometry.file_fps(written, fmt)
        expected_fps = source_fps
        rates = f"; frame rate {source_fps:g} -> {written_fps:g}" if source_fps and written_fps else ""
        if written_fps is None or expected_fps is None or abs(written_fps - expected_fps) > 1e-4 * expected_fps:
            return check("round_trip", False, f"the written file's frame rate is {written_fps}, not {expected_fps}")
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj)
    try:
        bpy.ops.import_scene.rigport(filepath=written)
    except RuntimeError as err:
        return check("round_trip", False, f"re-import failed: {str(err).strip()[:200]}")
    got = geometry.box(rest_points(list(bpy.data.objects)))
    if got is None:
        return check("round_trip", False, "the re-imported file gave Blender no vertices")
    in_blender = geometry.box_distance(first_box, got) / size if size > 0 else 0.0
    ok = in_file <= BOX_TOLERANCE and in_blender <= BOX_TOLERANCE
    return check(
        "round_trip",
        ok,
        f"written file's box differs by {in_file:.1e}, re-imported Blender box by {in_blender:.1e} "
        f"of size {size:.4g}{rates}",
    )


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
            result["checks"] = [skip(n, "rigport does not read this format yet") for n in CHECKS]
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
            *(skip(n, "rigport refuses the file") for n in CHECKS[1:]),
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
    # Blender's meshes hold no triangle that uses one vertex twice and no second copy of a
    # face: the add-on gives those vertices of their own (`glb_faces`) but in meshes with
    # morph targets, where its importer drops them (the add-on warns how many). Count them
    # in the same .glb the add-on gives Blender, and check that .glb carries every
    # triangle rigport read.
    glb = os.path.join(work, "model.glb")
    cli.convert(binary, source, glb)
    glb_faces.split(glb)
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
    fmt = info.get("format", "")
    result["checks"].append(box_check(source, fmt, objects))
    first_box = geometry.box(rest_points(objects))
    result["checks"].append(fps_check(source, fmt, info))
    result["checks"].append(pose_check(binary, source, info, objects, work))
    bpy.context.scene.frame_set(bpy.context.scene.frame_start)
    exported, written = export_check(binary, info, triangles, work, mode, stem)
    result["checks"].append(exported)
    result["checks"].append(round_trip_check(source, fmt, info, written, first_box))
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
