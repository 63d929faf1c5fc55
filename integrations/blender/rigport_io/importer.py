"""File > Import: a rigport-readable model, through a temporary glTF binary."""

from __future__ import annotations

import math
import os
import struct
import tempfile
from typing import Optional

import bpy
from bpy.props import StringProperty
from bpy_extras.io_utils import ImportHelper

from . import cli, compat, faces, naming, reporting, rotations
from .preferences import binary_preference


class ImportRigport(bpy.types.Operator, ImportHelper):
    """Import a MilkShape 3D (binary or ASCII), IQE or IQM model through rigport"""

    bl_idname = "import_scene.rigport"
    bl_label = "Import MilkShape 3D / IQE / IQM (rigport)"
    bl_options = {"REGISTER", "UNDO", "PRESET"}

    filter_glob: StringProperty(  # type: ignore[valid-type]
        default="*.ms3d;*.txt;*.iqe;*.iqm", options={"HIDDEN"}
    )

    def execute(self, context: bpy.types.Context) -> set:
        """Converts with rigport, imports the glTF, names what it made after the source."""
        source = os.path.abspath(bpy.path.abspath(self.filepath))
        if not os.path.isfile(source):
            self.report({"ERROR"}, f"no such file: {source}")
            return {"CANCELLED"}
        stem = os.path.splitext(os.path.basename(source))[0]
        try:
            binary = cli.find_binary(binary_preference(context))
            with tempfile.TemporaryDirectory(prefix="rigport-import-") as work:
                glb = os.path.join(work, "model.glb")
                conversion = cli.convert(binary, source, glb)
                summary = cli.info(binary, source, anim_details=True)
                reporting.show(self.report, conversion.report, losses_warn=False)
                counts = count_faces(glb)
                # Blender's glTF importer turns seconds into frames at the scene's rate:
                # set the file's rate first, so its frames land on Blender's whole frames.
                set_scene_fps(self.report, context.scene, cli.first_fps(summary))
                made = import_glb(context, glb)
                retime_actions(context.scene, made)
                keys = rotations.add_whole_frame_keys(actions_of(made))
        except cli.RigportError as err:
            self.report({"ERROR"}, str(err))
            return {"CANCELLED"}
        report_dropped_faces(self.report, summary.get("triangles"), counts, made)
        if keys:
            self.report(
                {"INFO"},
                f"added {keys} rotation keys at whole frames where Blender's per-component "
                "blend of quaternions strays from the file's constant-speed turn between keys",
            )
        naming.rename_objects(stem, made)
        actions = naming.rename_actions(stem, made)
        fit_scene_range(context, actions)
        self.report(
            {"INFO"},
            f"imported {os.path.basename(source)}: {len(made)} objects, {len(actions)} actions",
        )
        return {"FINISHED"}


def import_glb(context: bpy.types.Context, glb: str) -> list[bpy.types.Object]:
    """Runs Blender's glTF importer on `glb`; returns the objects it created."""
    compat.patch_numpy_bool()
    before = set(bpy.data.objects)
    try:
        result = bpy.ops.import_scene.gltf(filepath=glb)
    except RuntimeError as err:
        raise cli.RigportError(f"Blender's glTF importer failed: {err}") from err
    if "FINISHED" not in result:
        raise cli.RigportError(f"Blender's glTF importer did not finish: {sorted(result)}")
    return [o for o in bpy.data.objects if o not in before]


def triangle_count(objects: list[bpy.types.Object]) -> int:
    """Triangles of the imported meshes (an n-gon counts n - 2)."""
    return sum(
        sum(len(p.vertices) - 2 for p in o.data.polygons) for o in objects if o.type == "MESH"
    )


def count_faces(glb: str) -> Optional[faces.FaceCounts]:
    """The .glb's triangles that Blender cannot keep, or None when the glb cannot be read here."""
    try:
        return faces.count(glb)
    except (OSError, ValueError, KeyError, IndexError, TypeError, struct.error):
        return None


def report_dropped_faces(
    report: reporting.Reporter, expected: object, counts: Optional[faces.FaceCounts], objects: list
) -> None:
    """Says when Blender holds fewer triangles than rigport read, and why.

    Blender's meshes cannot hold a face that uses one vertex twice (its glTF importer drops
    it) nor a second face on the same set of vertices (merged into the face it repeats); the
    user should know both counts, since the source file keeps those triangles.
    """
    if not isinstance(expected, int):
        return
    held = triangle_count(objects)
    dropped = expected - held
    if dropped <= 0:
        return
    if counts is not None and counts.degenerate + counts.repeated == dropped:
        if counts.repeated:
            report(
                {"WARNING"},
                f"Blender merged {counts.repeated} of {expected} triangles into an earlier face "
                "on the same vertices (a face repeating another's vertex set); the source file keeps them",
            )
        if counts.degenerate:
            report(
                {"WARNING"},
                f"Blender dropped {counts.degenerate} of {expected} triangles that use one vertex twice "
                "(degenerate); the source file keeps them",
            )
        return
    report(
        {"WARNING"},
        f"Blender dropped {dropped} of {expected} triangles "
        "(degenerate, or repeating another face on the same vertices); the source file keeps them",
    )


def set_scene_fps(report: reporting.Reporter, scene: bpy.types.Scene, fps: Optional[float]) -> None:
    """Sets the scene's frame rate to `fps` (the file's first animation), when there is one.

    Blender keeps a whole `fps` and a divisor `fps_base`; a fractional rate (30.1034) is
    the nearest whole rate over a matching base, so `fps / fps_base` is the file's rate.
    """
    if fps is None:
        return
    render = scene.render
    whole = max(1, int(round(fps)))
    base = whole / fps
    if abs(render.fps / render.fps_base - fps) <= 1e-6 * fps:
        return
    render.fps = whole
    render.fps_base = base
    report({"INFO"}, f"scene frame rate set to the file's {fps:g} fps")


def actions_of(objects: list[bpy.types.Object]) -> set:
    """Every action the objects use: active, or stashed on an NLA track."""
    actions = set()
    for obj in objects:
        data = obj.animation_data
        if data is None:
            continue
        if data.action is not None:
            actions.add(data.action)
        actions.update(s.action for t in data.nla_tracks for s in t.strips if s.action is not None)
    return actions


def retime_actions(scene: bpy.types.Scene, objects: list[bpy.types.Object]) -> None:
    """Puts the imported keys on the scene's true frame rate when it is not a whole one.

    Blender's glTF importer turns seconds into frames at `render.fps` alone, ignoring
    `fps_base`; at a fractional rate (the file's 30.1034 as 30 / 0.99656) the file's frame k
    would land on frame 0.99656 k. Scaling every key's frame (and handle) by 1 / fps_base
    puts it back on frame k, and the stashed NLA strips are made again to span their
    actions' new ranges.
    """
    factor = 1.0 / scene.render.fps_base
    if abs(factor - 1.0) < 1e-9:
        return
    actions = actions_of(objects)
    for action in actions:
        for curve in action.fcurves:
            for point in curve.keyframe_points:
                point.co.x *= factor
                point.handle_left.x *= factor
                point.handle_right.x *= factor
            curve.update()
    for obj in objects:
        data = obj.animation_data
        if data is None:
            continue
        for track in data.nla_tracks:
            locked, track.lock = track.lock, False
            for strip in list(track.strips):
                if strip.action not in actions:
                    continue
                name, start, action = strip.name, strip.frame_start, strip.action
                track.strips.remove(strip)
                track.strips.new(name, int(round(start)), action)
            track.lock = locked


def fit_scene_range(context: bpy.types.Context, actions: list[bpy.types.Action]) -> None:
    """Widens the scene's frame range to cover every imported action (an IQE or IQM
    animation's first frame is Blender's frame 0, a MilkShape file's frame 1)."""
    if not actions:
        return
    start = min(int(math.floor(a.frame_range[0])) for a in actions)
    end = max(int(math.ceil(a.frame_range[1])) for a in actions)
    scene = context.scene
    if start < scene.frame_start:
        scene.frame_start = max(0, start)
    if end > scene.frame_end:
        scene.frame_end = end
