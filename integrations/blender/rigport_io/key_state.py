"""Whether the scene's animation is still as the import made it.

Blender's glTF exporter either samples every action at the scene's whole frames or writes
each F-curve's own keys. Sampling is what Blender shows of an action made or edited in
Blender (its per-component blend of quaternions, constraints, drivers), but it moves the
keys of an imported file that lie between whole frames (MilkShape ASCII keys at frame
4.41, a glTF morph animation's) onto whole frames. The import records a fingerprint of
every action it made (`rigport_keys`: its curves' keys, handles and interpolations); an
export whose actions all still match theirs, with no constraint or driver on the way, can
write the keys as they are, and so gives the file's own keys back.
"""

from __future__ import annotations

import hashlib
import struct
from typing import Iterable

import bpy

from . import compat

#: Custom property of an imported action: the fingerprint of its keys after the import.
KEYS = "rigport_keys"


def fingerprint(action: bpy.types.Action) -> str:
    """A digest of every F-curve of `action`: path, index, keys, handles, interpolation
    and modifiers."""
    digest = hashlib.sha256()
    curves = sorted(compat.action_fcurves(action), key=lambda c: (c.data_path, c.array_index))
    for curve in curves:
        points = curve.keyframe_points
        count = len(points)
        digest.update(f"{curve.data_path}[{curve.array_index}]:{count}:{len(curve.modifiers)}:{curve.mute}".encode())
        for field in ("co", "handle_left", "handle_right"):
            values = [0.0] * (2 * count)
            points.foreach_get(field, values)
            digest.update(struct.pack(f"<{len(values)}d", *values))
        kinds = [0] * count
        points.foreach_get("interpolation", kinds)
        digest.update(struct.pack(f"<{count}i", *kinds))
    return digest.hexdigest()


def animated_ids(objects: Iterable[bpy.types.Object], shape_keys: bool = True) -> list:
    """The objects and (with `shape_keys`) their shape keys: the data blocks that hold
    actions."""
    out: list = []
    for obj in objects:
        out.append(obj)
        keys = getattr(obj.data, "shape_keys", None) if shape_keys and obj.data is not None else None
        if keys is not None:
            out.append(keys)
    return out


def actions_in(objects: Iterable[bpy.types.Object], shape_keys: bool = True) -> set:
    """Every action the objects (and with `shape_keys`, their shape keys) use: active, or
    on an NLA track."""
    actions = set()
    for block in animated_ids(objects, shape_keys):
        data = block.animation_data
        if data is None:
            continue
        if data.action is not None:
            actions.add(data.action)
        actions.update(s.action for t in data.nla_tracks for s in t.strips if s.action is not None)
    return actions


def record(actions: Iterable[bpy.types.Action]) -> None:
    """Records the fingerprint of each action an import made (after its last change to
    their keys)."""
    for action in actions:
        action[KEYS] = fingerprint(action)


def as_imported(objects: Iterable[bpy.types.Object]) -> bool:
    """Whether every action the objects use is as the import left it, and nothing else moves
    them (no object or bone constraint, no driver): their keys can be written as they are."""
    objects = list(objects)
    for obj in objects:
        if len(obj.constraints):
            return False
        if obj.pose is not None and any(len(bone.constraints) for bone in obj.pose.bones):
            return False
    for block in animated_ids(objects):
        data = block.animation_data
        if data is not None and len(data.drivers):
            return False
    return all(KEYS in action and action[KEYS] == fingerprint(action) for action in actions_in(objects))
