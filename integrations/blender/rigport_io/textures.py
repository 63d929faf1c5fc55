"""Images the glTF importer made, pointed at the source's folder instead of the temporary one.

rigport embeds the textures it finds beside the source (its lookup rule: the reference's
base name in any case, else the same stem with another image extension), and Blender's
glTF importer packs those into the .blend. A texture rigport did not find stays a
reference, which the glTF importer would resolve against the temporary .glb's folder;
it is pointed at the source's folder here, so it loads if the file appears there and a
missing texture names the folder the user knows.
"""

from __future__ import annotations

import os
from typing import Any, Callable

import bpy


def _inside(path: str, folder: str) -> bool:
    """Whether `path` lies in `folder` (both made absolute)."""
    path, folder = os.path.abspath(path), os.path.abspath(folder)
    return os.path.commonpath([path, folder]) == folder


def relink(images: list, work: str, source_dir: str, report: Callable[[set, str], Any]) -> int:
    """Points every image among `images` whose file lies in `work`, or that names no file
    (a reference like `..\\textures\\skin.jpg` resolved against the temporary .glb's folder
    lands beside it), at `source_dir`; returns how many were moved. A file that is not there
    either is reported as missing."""
    moved = 0
    for image in images:
        if image.packed_file is not None or image.source != "FILE" or not image.filepath:
            continue
        current = bpy.path.abspath(image.filepath)
        if not _inside(current, work) and os.path.isfile(current):
            continue
        beside = os.path.join(source_dir, os.path.basename(current))
        image.filepath = beside
        moved += 1
        if os.path.isfile(beside):
            image.reload()
        else:
            report({"WARNING"}, f"texture {os.path.basename(current)} is not beside the source file")
    return moved
