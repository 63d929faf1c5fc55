"""Work-arounds for the Blender builds the add-on supports."""

from __future__ import annotations


def patch_numpy_bool() -> None:
    """Restores `numpy.bool` when missing.

    Debian's Blender 3.4 glTF importer still says `numpy.bool`, which numpy 1.24
    removed; the alias to Python's `bool` is what older numpy had.
    """
    import numpy

    if "bool" not in numpy.__dict__:
        numpy.bool = bool  # type: ignore[attr-defined]
