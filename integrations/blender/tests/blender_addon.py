"""Runs inside Blender: checks the add-on's own behaviour, not a corpus file.

    blender -b --factory-startup --python blender_addon.py -- RESULT.json WORKDIR

Binary lookup order and its message, menu entries, the numpy alias, that a failed
export leaves no partial file (and keeps an existing one), the frame-rate lookup and the
rotation keys added at whole frames.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Callable

import bpy

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import rigport_io  # noqa: E402
from fake_rigport import fake_binary  # noqa: E402
from rigport_io import cli, compat, rotations  # noqa: E402



def lookup_order(work: str) -> str:
    """Preference beats $RIGPORT_BIN beats PATH; none gives a message naming all three."""
    pref = fake_binary(os.path.join(work, "pref"), "rigport-pref", "exit 0")
    env = fake_binary(os.path.join(work, "env"), "rigport-env", "exit 0")
    on_path = fake_binary(os.path.join(work, "path"), "rigport", "exit 0")
    saved = dict(os.environ)
    try:
        os.environ[cli.ENV_VAR] = env
        os.environ["PATH"] = os.path.dirname(on_path)
        assert cli.find_binary(pref) == pref, "preference not first"
        assert cli.find_binary("") == env, "RIGPORT_BIN not second"
        del os.environ[cli.ENV_VAR]
        assert cli.find_binary("") == on_path, "PATH not third"
        os.environ["PATH"] = os.path.join(work, "empty")
        try:
            cli.find_binary("")
        except cli.RigportError as err:
            text = str(err)
            assert "RIGPORT_BIN" in text and "PATH" in text and "Preferences" in text, text
        else:
            raise AssertionError("no error without any binary")
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return "preference, then RIGPORT_BIN, then PATH; clear message without one"


def menus(work: str) -> str:
    """Both operators exist and both File menus show the contract's label."""
    assert hasattr(bpy.ops.import_scene, "rigport") and hasattr(bpy.ops.export_scene, "rigport")
    for menu, hook in (
        (bpy.types.TOPBAR_MT_file_import, rigport_io._menu_import),
        (bpy.types.TOPBAR_MT_file_export, rigport_io._menu_export),
    ):
        assert hook in menu._dyn_ui_initialize(), f"{menu.__name__} lacks the entry"
    for entry in rigport_io.formats.readable():
        assert entry.family in rigport_io.MENU_LABEL, (entry.family, rigport_io.MENU_LABEL)
    for entry in rigport_io.formats.writable():
        assert entry.family in rigport_io.EXPORT_LABEL, (entry.family, rigport_io.EXPORT_LABEL)
    return f"import_scene.rigport, export_scene.rigport and both menu entries ({rigport_io.MENU_LABEL})"


def numpy_alias(work: str) -> str:
    """After the patch `numpy.bool` is Python's bool (Debian's Blender 3.4 importer needs it)."""
    import numpy

    compat.patch_numpy_bool()
    assert numpy.bool is bool or numpy.dtype(numpy.bool) == numpy.dtype(bool)
    return "numpy.bool available"


def expect_cancel(call: Callable[[], object]) -> str:
    """Runs an operator that must fail; returns its error text."""
    try:
        call()
    except RuntimeError as err:
        return str(err)
    raise AssertionError("the operator did not fail")


def no_partial_file(work: str) -> str:
    """A rigport that writes half a file then fails leaves nothing; an old file survives."""
    bpy.ops.mesh.primitive_cube_add()
    broken = fake_binary(os.path.join(work, "broken"), "rigport", 'echo partial > "$3"; echo "boom" >&2; exit 1')
    out_dir = os.path.join(work, "out")
    os.makedirs(out_dir, exist_ok=True)
    target = os.path.join(out_dir, "model.ms3d")
    saved = os.environ.get(cli.ENV_VAR)
    os.environ[cli.ENV_VAR] = broken
    try:
        message = expect_cancel(lambda: bpy.ops.export_scene.rigport(filepath=target))
        assert "boom" in message, message
        assert os.listdir(out_dir) == [], f"left behind: {os.listdir(out_dir)}"
        with open(target, "w", encoding="utf-8") as old:
            old.write("old")
        expect_cancel(lambda: bpy.ops.export_scene.rigport(filepath=target))
        with open(target, encoding="utf-8") as old:
            assert old.read() == "old", "an existing file was overwritten by a failed export"
        assert os.listdir(out_dir) == ["model.ms3d"], f"left behind: {os.listdir(out_dir)}"
        message = expect_cancel(lambda: bpy.ops.export_scene.rigport(filepath=os.path.join(out_dir, "x.fbx")))
        assert ".fbx" in message, message
    finally:
        if saved is None:
            os.environ.pop(cli.ENV_VAR, None)
        else:
            os.environ[cli.ENV_VAR] = saved
    return "failed export leaves no file and keeps an old one; unknown extension refused"


def frame_rate_lookup(work: str) -> str:
    """`info --anim-details` gives the first animation's rate; a rigport without the flag
    is asked again without it, and the import then keeps the scene's rate."""
    fake = fake_binary(
        os.path.join(work, "old"),
        "rigport",
        'case "$*" in *--anim-details*) echo "error: unexpected argument \'--anim-details\' found" >&2; exit 2;; esac\n'
        "echo '{\"format\": \"iqe\", \"triangles\": 1}'",
    )
    summary = cli.info(fake, os.path.join(work, "any.iqe"), anim_details=True)
    assert summary == {"format": "iqe", "triangles": 1}, summary
    assert cli.first_fps(summary) is None
    assert cli.first_fps({"anim_details": [{"fps": 15.0}, {"fps": 60.0}]}) == 15.0
    assert cli.first_fps({"anim_details": [{"fps": 0}]}) is None
    assert cli.first_fps({"anim_details": []}) is None
    return "the first animation's rate; an older rigport without --anim-details still answers"


def rotation_keys(work: str) -> str:
    """A half turn about Z over 4 frames gets keys at frames 1-3 on the constant-speed path
    (22.5, 45 and 67.5 degree quaternion angles); a tiny turn, or keys a frame apart, none."""
    import math

    half_turn = [(1.0, 0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)]
    frames, values, added = rotations.whole_frame_keys([0.0, 4.0], half_turn)
    assert added == 3 and frames == [0.0, 1.0, 2.0, 3.0, 4.0], (frames, added)
    for frame, value in zip(frames[1:4], values[1:4]):
        angle = math.radians(22.5 * frame)
        expected = (math.cos(angle), 0.0, 0.0, math.sin(angle))
        assert all(abs(a - b) < 1e-12 for a, b in zip(value, expected)), (frame, value)
    tiny = [(1.0, 0.0, 0.0, 0.0), (math.cos(1e-4), 0.0, 0.0, math.sin(1e-4))]
    assert rotations.whole_frame_keys([0.0, 4.0], tiny)[2] == 0, "a tiny turn needs no keys"
    assert rotations.whole_frame_keys([0.0, 1.0], half_turn)[2] == 0, "no whole frame between"
    return "spherical keys where the per-component blend strays, none elsewhere"


def main() -> None:
    """Runs every check, writing one JSON result with a line per check."""
    args = sys.argv[sys.argv.index("--") + 1 :]
    result_path, work = args
    bpy.ops.wm.read_factory_settings(use_empty=True)
    rigport_io.register()
    checks = []
    for check in (lookup_order, menus, numpy_alias, no_partial_file, frame_rate_lookup, rotation_keys):
        try:
            checks.append({"check": check.__name__, "status": "pass", "detail": check(work)})
        except Exception:  # noqa: BLE001 - any failure is this check's failure, reported in full
            checks.append({"check": check.__name__, "status": "fail", "detail": traceback.format_exc()[-300:]})
    with open(result_path, "w", encoding="utf-8") as out:
        json.dump({"file": "(add-on behaviour)", "checks": checks}, out)


main()
