"""Runs inside Blender with BLENDER_USER_SCRIPTS set to an empty folder:

    blender -b --factory-startup --python blender_zip.py -- ZIP RESULT.json

Installs the add-on zip `cargo xtask blender-addon` builds, enables it the way a user
would, and checks that both operators and the binary preference exist.
"""

from __future__ import annotations

import json
import sys
import traceback

import addon_utils
import bpy


def main() -> None:
    """Installs, enables and inspects the add-on; writes one JSON result."""
    zip_path, result_path = sys.argv[sys.argv.index("--") + 1 :]
    try:
        bpy.ops.preferences.addon_install(filepath=zip_path)
        bpy.ops.preferences.addon_enable(module="rigport_io")
        loaded, enabled = addon_utils.check("rigport_io")
        assert loaded and enabled, f"not enabled: loaded={loaded} enabled={enabled}"
        assert hasattr(bpy.ops.import_scene, "rigport") and hasattr(bpy.ops.export_scene, "rigport")
        preferences = bpy.context.preferences.addons["rigport_io"].preferences
        assert preferences.binary == "", "the binary preference should start empty"
        status = {"check": "zip_install", "status": "pass", "detail": "the zip installs and enables in Blender"}
    except Exception:  # noqa: BLE001 - any failure is this check's failure, reported in full
        status = {"check": "zip_install", "status": "fail", "detail": traceback.format_exc()[-300:]}
    with open(result_path, "w", encoding="utf-8") as out:
        json.dump(status, out)


main()
