"""The add-on preference naming the rigport binary."""

from __future__ import annotations

import bpy
from bpy.props import StringProperty


class RigportPreferences(bpy.types.AddonPreferences):
    """Where the rigport binary is; empty means $RIGPORT_BIN, then PATH."""

    bl_idname = __package__

    binary: StringProperty(  # type: ignore[valid-type]
        name="rigport binary",
        description="Path to the rigport executable; empty: use $RIGPORT_BIN, then PATH",
        subtype="FILE_PATH",
        default="",
    )

    def draw(self, context: bpy.types.Context) -> None:
        """Draws the single path field."""
        self.layout.prop(self, "binary")


def binary_preference(context: bpy.types.Context) -> str:
    """The preference's value, or "" when the add-on is not registered as an add-on."""
    addon = context.preferences.addons.get(__package__)
    if addon is None or addon.preferences is None:
        return ""
    return bpy.path.abspath(addon.preferences.binary) if addon.preferences.binary else ""
