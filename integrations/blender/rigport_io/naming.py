"""Names for what the glTF importer made, taken from the source file."""

from __future__ import annotations

import math
from typing import Iterable, Optional

import bpy

#: Blender's longest ID name, in UTF-8 bytes.
MAX_NAME_BYTES = 63


def fit(name: str) -> str:
    """`name` cut to Blender's name limit without splitting a UTF-8 character."""
    return fit_bytes(name, MAX_NAME_BYTES)


#: Bytes of the file's stem always kept when a long name must be cut.
MIN_STEM_BYTES = 8


def joined(stem: str, separator: str, tail: str) -> str:
    """`stem + separator + tail` within Blender's limit, cutting the stem first.

    The tail (an animation or object name) tells names apart, so it keeps its bytes
    while the stem keeps at least MIN_STEM_BYTES.
    """
    room = MAX_NAME_BYTES - len(separator.encode("utf-8")) - len(tail.encode("utf-8"))
    head = fit_bytes(stem, max(room, MIN_STEM_BYTES))
    return fit(head + separator + tail)


def fit_bytes(text: str, limit: int) -> str:
    """`text` cut to `limit` UTF-8 bytes without splitting a character."""
    return text.encode("utf-8")[:limit].decode("utf-8", errors="ignore")


def rename_objects(stem: str, objects: Iterable[bpy.types.Object]) -> None:
    """Renames imported objects after the source file.

    A single armature takes the file's stem (so its actions read `stem|anim`);
    every other object becomes `stem:original name`.
    """
    objects = list(objects)
    armatures = [o for o in objects if o.type == "ARMATURE"]
    for obj in objects:
        if len(armatures) == 1 and obj is armatures[0]:
            obj.name = fit(stem)
        else:
            obj.name = joined(stem, ":", obj.name)


#: Custom properties of an imported action: the animation's name in the file and its index
#: there, which the export gives back (Blender's action names carry the object's name).
ANIMATION_NAME = "rigport_animation"
ANIMATION_INDEX = "rigport_index"


def rename_actions(
    stem: str, objects: Iterable[bpy.types.Object], order: Optional[list[str]] = None
) -> list[bpy.types.Action]:
    """Renames the actions of every imported animation to `stem|animation`.

    The glTF importer stashes each animation on an NLA track named after it, one
    track per animated object; when one animation moves several objects, their
    actions are told apart by `|object`. Each action keeps the animation's own name and
    its index in `order` (the file's animations in order) as custom properties. Returns
    the renamed actions.
    """
    by_track: dict[str, list[tuple[bpy.types.Object, bpy.types.Action]]] = {}
    for obj in objects:
        data = obj.animation_data
        if data is None:
            continue
        for track in data.nla_tracks:
            for strip in track.strips:
                if strip.action is not None:
                    by_track.setdefault(track.name, []).append((obj, strip.action))
    renamed = []
    for track_name, pairs in by_track.items():
        if len({action for _, action in pairs}) == 1:
            # One action for the animation, with a slot per object (Blender 4.4+ layered actions).
            pairs = pairs[:1]
        for obj, action in pairs:
            if len(pairs) == 1:
                action.name = joined(stem, "|", track_name)
            else:
                action.name = joined(stem, "|", f"{track_name}|{obj.name}")
            action[ANIMATION_NAME] = track_name
            if order is not None and track_name in order:
                action[ANIMATION_INDEX] = order.index(track_name)
            renamed.append(action)
    return renamed


def exported_name(name: str) -> tuple[str, float]:
    """The name an exported animation takes, and where it goes in the file.

    An action this add-on imported gives back the animation's name and index in its
    file; another one keeps its own name, less the `object|` prefix Blender's naming
    puts in front, and goes after them.
    """
    action = bpy.data.actions.get(name)
    if action is not None and ANIMATION_NAME in action:
        return str(action[ANIMATION_NAME]), float(action.get(ANIMATION_INDEX, math.inf))
    head, bar, rest = name.partition("|")
    if bar and rest and head in bpy.data.objects:
        return rest, math.inf
    return name, math.inf
