"""Rotation keys at whole frames, so Blender turns a joint between keys as rigport does.

glTF's LINEAR rotations (and rigport's sampling) turn at constant speed between two keys
(spherical interpolation). Blender's glTF importer writes each quaternion component as its
own linear curve, and Blender normalizes the blend of the components: the same end points,
but a different path in between, off by up to several degrees when keys are far apart (a
MilkShape key every 36 frames). Where the two differ at a whole frame, keys holding the
spherical value are added at every whole frame of that stretch; elsewhere the file's keys are
left as they are.
"""

from __future__ import annotations

import math
from typing import Iterable, Sequence

#: Largest turn (radians) between Blender's blend and the spherical path at a whole frame
#: that is left alone.
TOLERANCE = 1e-5

Quaternion = tuple


def slerp(a: Sequence[float], b: Sequence[float], t: float) -> Quaternion:
    """Spherical interpolation of unit quaternions `a` to `b` (the shorter way) at `t`."""
    dot = sum(x * y for x, y in zip(a, b))
    if dot < 0.0:
        b, dot = [-x for x in b], -dot
    if dot > 1.0 - 1e-12:
        return normalized([x + (y - x) * t for x, y in zip(a, b)])
    angle = math.acos(min(1.0, dot))
    sin = math.sin(angle)
    wa, wb = math.sin((1.0 - t) * angle) / sin, math.sin(t * angle) / sin
    return tuple(wa * x + wb * y for x, y in zip(a, b))


def normalized(q: Iterable[float]) -> Quaternion:
    """`q` scaled to unit length (the identity for a zero quaternion)."""
    q = tuple(q)
    length = math.sqrt(sum(x * x for x in q))
    return tuple(x / length for x in q) if length > 0 else (1.0, 0.0, 0.0, 0.0)


def turn_between(a: Sequence[float], b: Sequence[float]) -> float:
    """The rotation angle (radians) between two unit quaternions."""
    dot = abs(sum(x * y for x, y in zip(a, b)))
    return 2.0 * math.acos(min(1.0, dot))


def whole_frame_keys(frames: Sequence[float], values: Sequence[Quaternion]) -> tuple:
    """The keys with spherical keys added at the whole frames where Blender's blend strays.

    `frames` are sorted key frames, `values` their quaternions (w, x, y, z). Returns
    (frames, values, added): the original keys, plus, for each stretch between two keys
    whose blend at some whole frame turns more than TOLERANCE away from the spherical path,
    a key at every whole frame strictly inside it.
    """
    out_frames: list = []
    out_values: list = []
    added = 0
    for k, (frame, value) in enumerate(zip(frames, values)):
        out_frames.append(frame)
        out_values.append(tuple(value))
        if k + 1 == len(frames):
            break
        end, target = frames[k + 1], values[k + 1]
        inside = range(math.floor(frame) + 1, math.ceil(end))
        if end - frame <= 0 or not inside:
            continue
        a, b = normalized(value), normalized(target)
        spherical = [slerp(a, b, (f - frame) / (end - frame)) for f in inside]
        blended = [
            normalized(x + (y - x) * (f - frame) / (end - frame) for x, y in zip(value, target))
            for f in inside
        ]
        if max(turn_between(s, m) for s, m in zip(spherical, blended)) <= TOLERANCE:
            continue
        out_frames += [float(f) for f in inside]
        out_values += spherical
        added += len(spherical)
    return out_frames, out_values, added


def add_whole_frame_keys(actions: Iterable) -> int:
    """Adds spherical rotation keys to every linear quaternion curve of `actions`.

    Only quaternion rotations whose four curves share their key frames and are linear
    throughout are touched. Returns how many keys were added (per rotation, not per curve).
    """
    import bpy

    from .compat import curve_bags

    linear = bpy.types.Keyframe.bl_rna.properties["interpolation"].enum_items["LINEAR"].value
    added = 0
    # One group per rotation of one animated thing: with slots (Blender 4.4+) one action
    # may move several objects, each with its own bag of curves.
    groups: list = []
    for action in actions:
        for bag in curve_bags(action):
            by_path: dict = {}
            for curve in bag:
                if curve.data_path.endswith("rotation_quaternion"):
                    by_path.setdefault(curve.data_path, {})[curve.array_index] = curve
            groups.extend(by_path.values())
    for curves in groups:
        if sorted(curves) != [0, 1, 2, 3]:
            continue
        quad = [curves[i] for i in range(4)]
        points = [list(c.keyframe_points) for c in quad]
        count = len(points[0])
        if count < 2 or any(len(p) != count for p in points):
            continue
        if any(k.interpolation != "LINEAR" for p in points for k in p):
            continue
        frames = [k.co[0] for k in points[0]]
        if any(abs(k.co[0] - f) > 1e-6 for p in points[1:] for k, f in zip(p, frames)):
            continue
        values = [tuple(points[i][k].co[1] for i in range(4)) for k in range(count)]
        new_frames, new_values, more = whole_frame_keys(frames, values)
        if not more:
            continue
        added += more
        for i, curve in enumerate(quad):
            curve.keyframe_points.add(len(new_frames) - count)
            co = [c for f, q in zip(new_frames, new_values) for c in (f, q[i])]
            curve.keyframe_points.foreach_set("co", co)
            curve.keyframe_points.foreach_set("interpolation", [linear] * len(new_frames))
            curve.update()
    return added
