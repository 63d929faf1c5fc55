"""rigport I/O: File > Import and File > Export for MilkShape 3D (binary and ASCII), IQE and IQM.

Both directions go through the `rigport` command-line tool and a temporary glTF
binary, read and written by Blender's own glTF add-on.
"""

from __future__ import annotations

bl_info = {
    "name": "rigport I/O (MilkShape 3D, IQE, IQM)",
    "author": "rigport contributors",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "File > Import / Export > MilkShape 3D / IQE / IQM (rigport)",
    "description": "Import and export MilkShape 3D (binary and ASCII), IQE and IQM models through rigport",
    "category": "Import-Export",
}

#: The menu text the contract names.
MENU_LABEL = "MilkShape 3D / IQE / IQM (rigport)"

if "bpy" in locals():
    # Script reload (F8 / reload_scripts): pick up edited submodules.
    import importlib

    for _module in (cli, compat, faces, naming, reporting, rotations, preferences, importer, exporter):  # noqa: F821
        importlib.reload(_module)

import bpy

from . import cli, compat, exporter, faces, importer, naming, preferences, reporting, rotations

_CLASSES = (preferences.RigportPreferences, importer.ImportRigport, exporter.ExportRigport)


def _menu_import(self: bpy.types.Menu, context: bpy.types.Context) -> None:
    """File > Import entry."""
    self.layout.operator(importer.ImportRigport.bl_idname, text=MENU_LABEL)


def _menu_export(self: bpy.types.Menu, context: bpy.types.Context) -> None:
    """File > Export entry."""
    self.layout.operator(exporter.ExportRigport.bl_idname, text=MENU_LABEL)


def register() -> None:
    """Registers the preference, both operators and their menu entries."""
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
