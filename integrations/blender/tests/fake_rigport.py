"""Executable shell scripts standing in for the rigport command, for the add-on's tests
(in Blender and in plain Python alike)."""

from __future__ import annotations

import os
import stat


def fake_binary(folder: str, name: str, body: str) -> str:
    """Writes `folder/name`, an executable `/bin/sh` script running `body`; its path."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as out:
        out.write("#!/bin/sh\n" + body + "\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path
