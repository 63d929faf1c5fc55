"""Work-arounds for the Blender builds the add-on supports."""

from __future__ import annotations

from typing import Any


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
