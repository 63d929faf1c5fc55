"""rigport I/O: File > Import and File > Export for every model format rigport reads and
writes: MilkShape 3D (binary and ASCII), IQE, IQM, MD5, SMD, Unreal PSK/PSA, Blitz3D B3D and glTF.

Both directions go through rigport and a temporary glTF binary, read and written by
Blender's own glTF add-on. As an extension (Blender 4.2 and later) rigport runs in
Blender's process, from the `rigport` wheel the extension bundles; as a legacy add-on
(Blender 3.4 to 4.1) it uses the `rigport` module when it imports, else the `rigport`
command.
"""

from __future__ import annotations

bl_info = {
    "name": "rigport I/O (MilkShape 3D, IQE, IQM, MD5, SMD, PSK, B3D, glTF)",
    "author": "rigport contributors",
    "version": (0, 2, 0),
    "blender": (3, 4, 0),
    "location": "File > Import / Export > MilkShape 3D / IQE / IQM / glTF / MD5 / SMD / PSK / B3D (rigport)",
    "description": (
        "Import and export MilkShape 3D, IQE, IQM, MD5, SMD, Unreal PSK, Blitz3D B3D and glTF models, "
        "and import FBX, via rigport"
    ),
    "category": "Import-Export",
}

if "bpy" in locals():
    # Script reload (F8 / reload_scripts): pick up edited submodules.
    import importlib

    _modules: tuple = (formats, cli, backend, compat, faces, naming, reporting, rotations)  # noqa: F821
    _modules += (textures, scene_state, preferences, importer, exporter)  # noqa: F821
    for _module in _modules:
        importlib.reload(_module)

import bpy

from . import (
    backend,
    cli,
    compat,
    exporter,
    faces,
    formats,
    importer,
    naming,
    preferences,
    reporting,
    rotations,
    scene_state,
    textures,
)

#: The import menu's text: every family of format rigport reads.
MENU_LABEL = formats.label(formats.readable())

#: The export menu's text: every family of format rigport writes.
EXPORT_LABEL = formats.label(formats.writable())


def _menu_import(self: bpy.types.Menu, context: bpy.types.Context) -> None:
    """File > Import entry."""
    self.layout.operator(importer.ImportRigport.bl_idname, text=MENU_LABEL)


def _menu_export(self: bpy.types.Menu, context: bpy.types.Context) -> None:
    """File > Export entry."""
    self.layout.operator(exporter.ExportRigport.bl_idname, text=EXPORT_LABEL)


def _file_handler() -> list:
    """Drag and drop onto the 3D view (Blender 4.1 and later): every readable extension."""
    if not hasattr(bpy.types, "FileHandler"):
        return []

    class IO_FH_rigport(bpy.types.FileHandler):  # noqa: N801 - Blender's naming rule
        bl_idname = "IO_FH_rigport"
        bl_label = "rigport"
        bl_import_operator = importer.ImportRigport.bl_idname
        bl_file_extensions = ";".join(f.extension for f in formats.readable())

        @classmethod
        def poll_drop(cls, context: bpy.types.Context) -> bool:
            return context.area is not None and context.area.type == "VIEW_3D"

    return [IO_FH_rigport]


_CLASSES: list = []


def register() -> None:
    """Registers the preference, both operators, the drop handler and the menu entries."""
    _CLASSES[:] = [preferences.RigportPreferences, importer.ImportRigport, exporter.ExportRigport]
    _CLASSES.extend(_file_handler())
    for cls in _CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.TOPBAR_MT_file_import.append(_menu_import)
    bpy.types.TOPBAR_MT_file_export.append(_menu_export)


def unregister() -> None:
    """Removes what register() added, in reverse order."""
    bpy.types.TOPBAR_MT_file_export.remove(_menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(_menu_import)
    for cls in reversed(_CLASSES):
        bpy.utils.unregister_class(cls)
    _CLASSES.clear()
