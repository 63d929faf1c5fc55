"""Giving an exported .glb's animations their own frame rates back.

Blender has one frame rate, the scene's. The import puts each animation's frame k on
Blender's frame k whatever its rate (a file may hold a 30.1 fps animation beside 60 fps
ones), and records the rate in the action's `extras` (`fps`). Blender's glTF exporter
writes frame k at k / scene rate seconds; `retime` scales the key times of every
animation whose recorded rate differs by scene rate / own rate, so frame k is at
k / own rate again. No Blender imports, so it runs under a plain Python too.
"""

from __future__ import annotations

import math

try:
    from . import glb_rest
except ImportError:  # loaded from its file by the plain-Python checks
    import glb_rest  # type: ignore[no-redef]

#: Rates closer than this (relative) are one rate: the keys are left as written.
SAME_RATE = 1e-9


def own_rate(animation: dict) -> float | None:
    """The frame rate an animation's `extras` record, if a valid one."""
    extras = animation.get("extras")
    fps = extras.get("fps") if isinstance(extras, dict) else None
    if isinstance(fps, (int, float)) and not isinstance(fps, bool) and math.isfinite(fps) and fps > 0:
        return float(fps)
    return None


def retime(doc: dict, binary: bytearray, scene_rate: float) -> int:
    """Scales the key times of each animation of `doc` that records a rate other than
    `scene_rate` (the rate Blender's exporter wrote its frames at) by scene rate / own
    rate, in `binary` (the BIN chunk's data, edited in place). Times another animation
    shares at another factor get an accessor of their own. Returns how many animations
    were retimed."""
    if not math.isfinite(scene_rate) or scene_rate <= 0:
        return 0
    factor_of: dict[int, float] = {}
    users: dict[int, list[int]] = {}
    for at, animation in enumerate(doc.get("animations") or []):
        rate = own_rate(animation)
        factor = scene_rate / rate if rate is not None else 1.0
        if abs(factor - 1.0) > SAME_RATE:
            factor_of[at] = factor
        for sampler in animation.get("samplers") or []:
            if isinstance(sampler.get("input"), int):
                users.setdefault(int(sampler["input"]), []).append(at)
    if not factor_of:
        return 0
    accessors = doc.get("accessors") or []
    for accessor in users:
        if accessor >= len(accessors) or not glb_rest.is_float(doc, accessor):
            return 0
    animations = doc["animations"]
    for accessor, using in users.items():
        by_factor: dict[float, list[int]] = {}
        for at in dict.fromkeys(using):
            by_factor.setdefault(factor_of.get(at, 1.0), []).append(at)
        times = glb_rest.read(doc, binary, accessor)
        for factor, ats in by_factor.items():
            if factor == 1.0:
                continue
            values = [tuple(t * factor for t in key) for key in times]
            if len(by_factor) == 1:
                target = accessor
                glb_rest.write(doc, binary, accessor, values)
            else:
                target = glb_rest.appended(doc, binary, accessor, values)
                for at in ats:
                    for sampler in animations[at].get("samplers") or []:
                        if sampler.get("input") == accessor:
                            sampler["input"] = target
            stored = glb_rest.read(doc, binary, target)
            if stored:
                glb_rest.bound(doc, target, stored)
            else:
                doc["accessors"][target].update({"min": [0.0], "max": [0.0]})
    return len(factor_of)
