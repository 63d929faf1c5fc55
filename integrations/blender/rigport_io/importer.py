"""File > Import: a rigport-readable model, through a temporary glTF binary."""

from __future__ import annotations

import os
import tempfile

import bpy
from bpy.props import StringProperty
from bpy_extras.io_utils import ImportHelper

from . import cli, compat, naming, reporting
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
                expected = cli.info(binary, source).get("triangles")
                reporting.show(self.report, conversion.report, losses_warn=False)
                made = import_glb(context, glb)
        except cli.RigportError as err:
            self.report({"ERROR"}, str(err))
            return {"CANCELLED"}
        report_dropped_faces(self.report, expected, made)
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


def report_dropped_faces(report: reporting.Reporter, expected: object, objects: list) -> None:
    """Warns when Blender holds fewer triangles than rigport read.

    Blender's meshes cannot hold a face that uses one vertex twice, nor a second face
    on the same vertices, so its glTF importer drops them; the user should know the count.
    """
    if not isinstance(expected, int):
        return
    dropped = expected - triangle_count(objects)
    if dropped > 0:
        report(
            {"WARNING"},
            f"Blender dropped {dropped} of {expected} triangles "
            "(degenerate, or repeating another face on the same vertices); the source file keeps them",
        )


def fit_scene_range(context: bpy.types.Context, actions: list[bpy.types.Action]) -> None:
    """Widens the scene's frame range to cover every imported action."""
    if not actions:
        return
    end = max(int(round(a.frame_range[1])) for a in actions)
    scene = context.scene
    if end > scene.frame_end:
        scene.frame_end = end
