"""Work-arounds for the Blender builds the add-on supports."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator


def patch_numpy_bool() -> None:
    """Restores `numpy.bool` when missing.

    Debian's Blender 3.4 glTF importer still says `numpy.bool`, which numpy 1.24
    removed; the alias to Python's `bool` is what older numpy had.
    """
    import numpy

    if "bool" not in numpy.__dict__:
        setattr(numpy, "bool", bool)  # noqa: B010 - numpy 1.24+ has no such attribute to assign


def curve_bags(action: Any) -> list:
    """The F-curves of `action`, one list per animated thing, whatever Blender keeps them in.

    Blender 4.4 and later hold an action's curves in layers of strips of channel bags,
    one bag per slot (one slot per animated object); 5.0 removed the older `Action.fcurves`
    that 4.x still offers for the first slot. Both are read here: the bags when the action
    has layers, else `Action.fcurves` as one list.
    """
    layers = getattr(action, "layers", None)
    if layers:
        bags: list = []
        for layer in layers:
            for strip in layer.strips:
                for bag in getattr(strip, "channelbags", ()):
                    bags.append(list(bag.fcurves))
        return bags
    legacy = getattr(action, "fcurves", None)
    return [list(legacy)] if legacy is not None else []


def action_fcurves(action: Any) -> list:
    """Every F-curve of `action` (see `curve_bags`)."""
    return [curve for bag in curve_bags(action) for curve in bag]


def strip_slot(strip: Any) -> Any:
    """The action slot an NLA strip plays (Blender 4.4+), or None."""
    return getattr(strip, "action_slot", None)


def set_strip_slot(strip: Any, slot: Any) -> None:
    """Makes an NLA strip play `slot` of its action, where Blender has slots."""
    if slot is not None and hasattr(strip, "action_slot"):
        strip.action_slot = slot


@contextmanager
def exporter_frame_rate(render: Any, version: tuple) -> Iterator[None]:
    """Lets Blender's glTF exporter turn frames into the scene's own seconds.

    Blender's rate is `fps / fps_base`, but the glTF exporter of 4.2 and later divides
    frames by `fps * fps_base`: at a fractional rate (30.3 fps as 30 / 0.990099) frame 100
    would be written at 3.367 s instead of 3.300 s. While the exporter runs, the base is
    its reciprocal, so its product is the scene's rate; it is restored afterwards. Older
    exporters ignore the base, and are left as they are.
    """
    base = render.fps_base
    inverted = version >= (4, 2, 0) and base != 1.0
    if inverted:
        render.fps_base = 1.0 / base
    try:
        yield
    finally:
        if inverted:
            render.fps_base = base


def exported_rate(render: Any, version: tuple) -> float:
    """The frames per second Blender's glTF exporter writes frames at, under
    `exporter_frame_rate`: the scene's own rate, or `fps` alone for exporters that ignore
    the base."""
    if version >= (4, 2, 0):
        return float(render.fps) / float(render.fps_base)
    return float(render.fps)
