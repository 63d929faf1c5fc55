"""File > Export: the scene (or the selection) through a temporary glTF binary to rigport."""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Optional

import bpy
from bpy.props import BoolProperty, StringProperty
from bpy_extras.io_utils import ExportHelper

from . import backend, cli, compat, formats, glb_names, key_state, naming, reporting
from .preferences import binary_preference


class ExportRigport(bpy.types.Operator, ExportHelper):
    """Export to a format rigport writes; the format follows the extension"""

    bl_idname = "export_scene.rigport"
    bl_label = "Export " + formats.label(formats.writable())
    bl_options = {"REGISTER", "PRESET"}

    filename_ext = ".ms3d"
    # The user picks the format by typing the extension; never append another one.
    check_extension = None

    filter_glob: StringProperty(  # type: ignore[valid-type]
        default=formats.glob(formats.writable()), options={"HIDDEN"}
    )
    use_selection: BoolProperty(  # type: ignore[valid-type]
        name="Selected Objects",
        description="Export the selected objects only (otherwise every object)",
        default=False,
    )

    def execute(self, context: bpy.types.Context) -> set:
        """Writes a temporary .glb with Blender's exporter, then has rigport convert it."""
        target = os.path.abspath(bpy.path.abspath(self.filepath))
        extension = os.path.splitext(target)[1].lower()
        fmt = cli.FORMAT_BY_EXTENSION.get(extension)
        if fmt is None:
            known = ", ".join(sorted(cli.FORMAT_BY_EXTENSION))
            self.report({"ERROR"}, f"cannot tell the format from {extension or 'no extension'!r}; use one of {known}")
            return {"CANCELLED"}
        if self.use_selection and not context.selected_objects:
            self.report({"ERROR"}, "nothing is selected (turn off Selected Objects to export everything)")
            return {"CANCELLED"}
        try:
            rig = backend.find(binary_preference(context))
            with tempfile.TemporaryDirectory(prefix="rigport-export-") as work:
                glb = os.path.join(work, "scene.glb")
                exported = context.selected_objects if self.use_selection else context.scene.objects
                export_glb(glb, self.use_selection, sampled=not key_state.as_imported(exported))
                joint_of = naming.joint_namer(exported)
                glb_names.rename(
                    glb,
                    naming.exported_name,
                    naming.exported_material,
                    joint_of,
                    naming.exported_extras,
                    rest_of=naming.rest_recorder(exported),
                    mesh_place=naming.mesh_placer(exported),
                    comment=naming.exported_comment(exported),
                    unused_materials=naming.exported_unused_materials(exported),
                    scene_rate=compat.exported_rate(context.scene.render, tuple(bpy.app.version)),
                )
                renames = naming.companion_renames(exported, target, ".psa") if fmt == "psk" else {}
                conversion = convert_atomically(rig, glb, target, fmt, renames)
        except cli.RigportError as err:
            self.report({"ERROR"}, str(err))
            return {"CANCELLED"}
        losses = reporting.show(self.report, conversion.report, losses_warn=True)
        self.report({"INFO"}, f"wrote {target} ({losses} losses or warnings)")
        return {"FINISHED"}


def export_glb(glb: str, use_selection: bool, sampled: bool = True) -> None:
    """Runs Blender's glTF exporter: Y-up, skins, every action of every armature, whole
    actions; each sampled at the scene's whole frames, or (`sampled` False: the actions are
    as the import made them, `key_state.as_imported`) its keys written as they are."""
    try:
        with compat.exporter_frame_rate(bpy.context.scene.render, tuple(bpy.app.version)):
            result = bpy.ops.export_scene.gltf(
                filepath=glb,
                export_format="GLB",
                use_selection=use_selection,
                export_yup=True,
                export_skins=True,
                export_animations=True,
                export_frame_range=False,
                export_nla_strips=True,
                export_anim_single_armature=True,
                export_apply=False,
                export_force_sampling=sampled,
            )
    except RuntimeError as err:
        raise cli.RigportError(f"Blender's glTF exporter failed: {err}") from err
    if "FINISHED" not in result or not os.path.isfile(glb):
        raise cli.RigportError(f"Blender's glTF exporter did not finish: {sorted(result)}")


def convert_atomically(
    rig: backend.Backend, glb: str, target: str, fmt: str, renames: Optional[dict[str, str]] = None
) -> cli.Conversion:
    """Converts into a scratch directory beside `target`, then moves the files into place:
    the main one and those written beside it (MD5 and SMD animations, a .gltf's .bin, an
    .obj's .mtl), each file named in `renames` under the name it gives (a PSK's `.psa`
    under the name it was read from).

    A failed conversion leaves no partial file at `target` (an existing one is kept).
    """
    folder = os.path.dirname(target) or "."
    try:
        staging = tempfile.mkdtemp(prefix=".rigport-", dir=folder)
    except OSError as err:
        raise cli.RigportError(f"cannot write into {folder}: {err}") from err
    try:
        staged = os.path.join(staging, os.path.basename(target))
        conversion = rig.convert(glb, staged, to=fmt)
        if not os.path.isfile(staged):
            raise cli.RigportError(f"rigport reported success but wrote no {os.path.basename(target)}")
        for name in sorted(os.listdir(staging)):
            if name != os.path.basename(target):
                os.replace(os.path.join(staging, name), os.path.join(folder, (renames or {}).get(name, name)))
        os.replace(staged, target)
        conversion.outputs = [target]
        return conversion
    finally:
        shutil.rmtree(staging, ignore_errors=True)
