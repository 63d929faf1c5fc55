"""Names for what the glTF importer made, taken from the source file."""

from __future__ import annotations

import json
import math
import os
import re
from typing import Callable, Iterable, Optional

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
#: there, which the export gives back (Blender's action names carry the object's name), and
#: the glTF animation's `extras` as JSON (rigport keeps a frame rate and a loop flag there,
#: which Blender's actions have no place for).
ANIMATION_NAME = "rigport_animation"
ANIMATION_INDEX = "rigport_index"
ANIMATION_EXTRAS = "rigport_extras"


def rename_actions(
    stem: str,
    objects: Iterable[bpy.types.Object],
    order: Optional[list[str]] = None,
    extras: Optional[list[dict]] = None,
) -> list[bpy.types.Action]:
    """Renames the actions of every imported animation to `stem|animation`.

    The glTF importer stashes each animation on an NLA track named after it, one
    track per animated object; when one animation moves several objects, their
    actions are told apart by `|object`. Each action keeps the animation's own name, its
    index in `order` (the file's animations in order) and its `extras` (the same order) as
    custom properties. Returns the renamed actions.
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
            index = order.index(track_name) if order is not None and track_name in order else None
            kept = extras[index] if extras is not None and index is not None and index < len(extras) else None
            record(action, track_name, index, kept)
            renamed.append(action)
    return renamed


def record(action: bpy.types.Action, name: str, index: Optional[int], extras: Optional[dict] = None) -> None:
    """Keeps on `action` the animation's name in its file and, when known, its index there
    and its glTF `extras`."""
    action[ANIMATION_NAME] = name
    if index is not None:
        action[ANIMATION_INDEX] = index
    if extras:
        action[ANIMATION_EXTRAS] = json.dumps(extras)


def next_index(actions: Iterable[bpy.types.Action], at_least: int) -> int:
    """The file index after every one `actions` record, and at least `at_least`."""
    recorded = [int(a[ANIMATION_INDEX]) for a in actions if ANIMATION_INDEX in a]
    return max([at_least - 1, *recorded]) + 1


def recorded_action(name: str) -> Optional[bpy.types.Action]:
    """The action an exported animation called `name` came from: the action of that name, or
    the one imported action that records it as its file name (Blender's exporter names an
    animation after its NLA track when it merges tracks)."""
    action = bpy.data.actions.get(name)
    if action is None or ANIMATION_NAME not in action:
        recorded = [a for a in bpy.data.actions if a.get(ANIMATION_NAME) == name]
        action = recorded[0] if len(recorded) == 1 else action
    return action


def exported_name(name: str) -> tuple[str, float]:
    """The name an exported animation takes, and where it goes in the file.

    An action this add-on imported gives back the animation's name and index in its
    file; another one keeps its own name, less the `object|` prefix Blender's naming
    puts in front, and goes after them.
    """
    action = recorded_action(name)
    if action is not None and ANIMATION_NAME in action:
        return str(action[ANIMATION_NAME]), float(action.get(ANIMATION_INDEX, math.inf))
    head, bar, rest = name.partition("|")
    if bar and rest and head in bpy.data.objects:
        return rest, math.inf
    return name, math.inf


def exported_extras(name: str) -> dict:
    """The glTF `extras` an exported animation takes back: those its imported action
    recorded (empty for another action)."""
    action = recorded_action(name)
    if action is None or ANIMATION_EXTRAS not in action:
        return {}
    try:
        kept = json.loads(str(action[ANIMATION_EXTRAS]))
    except ValueError:
        return {}
    return kept if isinstance(kept, dict) else {}


#: Custom properties of an imported material: its name and index in the source file, which
#: the export gives back (Blender renames a second material of one name `name.001`, and
#: its exporter writes materials in the order meshes use them).
MATERIAL_NAME = "rigport_material"
MATERIAL_INDEX = "rigport_material_index"


def matched(blender_names: Iterable[str], names: list[str], skipped: Iterable[int] = ()) -> dict[str, int]:
    """Which of `names` (a glTF's, in order) each Blender name was made from: Blender names
    a block as the glTF does, cut to its limit, or with a `.NNN` suffix where that name was
    taken. Each index is given once; none of `skipped` is given."""
    taken: set[int] = set(skipped)
    found = {}
    for name in blender_names:
        candidates = [i for i, n in enumerate(names) if fit(n) == name and i not in taken]
        if not candidates:
            stem, dot, digits = name.rpartition(".")
            if dot and digits.isdigit():
                candidates = [i for i, n in enumerate(names) if fit(n) == stem and i not in taken]
        if candidates:
            taken.add(candidates[0])
            found[name] = candidates[0]
    return found


def record_materials(materials: Iterable[bpy.types.Material], names: list[str], unused: Iterable[int] = ()) -> None:
    """Records on each imported material its name and index among `names`, the glTF's
    materials in order, less those at `unused` (no mesh uses them, so Blender made none)."""
    materials = list(materials)
    found = matched([m.name for m in materials], names, unused)
    for material in materials:
        if material.name in found:
            material[MATERIAL_NAME] = names[found[material.name]]
            material[MATERIAL_INDEX] = found[material.name]


#: Custom property of every object an import made: the file's materials that no mesh
#: uses (`glb_materials.unused`, as JSON), which Blender makes no material for; the export
#: puts them back.
UNUSED_MATERIALS = "rigport_unused_materials"


def record_unused_materials(objects: Iterable[bpy.types.Object], kept: list[dict]) -> None:
    """Records the file's unused materials on each object an import made (none for none)."""
    if kept:
        text = json.dumps(kept, separators=(",", ":"))
        for obj in objects:
            obj[UNUSED_MATERIALS] = text


def exported_unused_materials(objects: Iterable[bpy.types.Object]) -> list[dict]:
    """The unused materials recorded on the first of `objects` that has them (empty: none)."""
    for obj in objects:
        if UNUSED_MATERIALS in obj:
            try:
                kept = json.loads(str(obj[UNUSED_MATERIALS]))
            except ValueError:
                return []
            return [k for k in kept if isinstance(k, dict)] if isinstance(kept, list) else []
    return []


def exported_material(name: str) -> tuple[str, float]:
    """The name an exported material takes, and where it goes: an imported one's name and
    index in its file; another keeps its name and goes after them."""
    material = bpy.data.materials.get(name)
    if material is not None and MATERIAL_NAME in material:
        return str(material[MATERIAL_NAME]), float(material.get(MATERIAL_INDEX, math.inf))
    return name, math.inf


#: Custom properties of an imported bone: its joint's name and index in the source file,
#: which the export gives back (Blender orders bones its own way, and renames a second
#: bone of one name `name.001`).
JOINT_NAME = "rigport_joint"
JOINT_INDEX = "rigport_joint_index"
JOINT_REST = "rigport_joint_rest"


def record_joints(armature: bpy.types.Object, names: list[str], rests: list[list[float]]) -> None:
    """Records on each bone of an imported armature its joint's name and index among
    `names`, the glTF skin's joints in order (the file's joints, as rigport writes them),
    and its rest transform among `rests` (`glb_rest.joint_rests`)."""
    bones = list(armature.data.bones)
    found = matched([b.name for b in bones], names)
    for bone in bones:
        if bone.name in found:
            index = found[bone.name]
            bone[JOINT_NAME] = names[index]
            bone[JOINT_INDEX] = index
            if index < len(rests):
                bone[JOINT_REST] = rests[index]


def joint_namer(objects: Iterable[bpy.types.Object]) -> Callable[[str], tuple[str, float]]:
    """The name and place an exported joint takes, by its bone's name, for the armatures
    among `objects`: an imported bone's joint name and index in its file; another bone
    keeps its name and goes after them."""
    recorded: dict[str, tuple[str, float]] = {}
    for obj in objects:
        if obj.type != "ARMATURE":
            continue
        for bone in obj.data.bones:
            if JOINT_NAME in bone and bone.name not in recorded:
                recorded[bone.name] = (str(bone[JOINT_NAME]), float(bone.get(JOINT_INDEX, math.inf)))
    return lambda name: recorded.get(name, (name, math.inf))


def rest_recorder(objects: Iterable[bpy.types.Object]) -> Callable[[str], Optional[list[float]]]:
    """The rest transform recorded at import for a bone's joint, by the bone's name, for
    the armatures among `objects` (`glb_rest.restore` takes the bones' display turns out
    with it; a file may name two joints alike, Blender names its bones apart); None for a
    bone without one."""
    recorded: dict[str, list[float]] = {}
    for obj in objects:
        if obj.type != "ARMATURE":
            continue
        for bone in obj.data.bones:
            if JOINT_REST in bone:
                recorded.setdefault(bone.name, [float(v) for v in bone[JOINT_REST]])
    return recorded.get


#: Custom property of an imported mesh object: its place among the file's meshes, which the
#: export gives back (formats that name a material per mesh, such as MD5, list materials in
#: mesh order; Blender writes objects in an order of its own).
MESH_INDEX = "rigport_mesh_index"


def record_meshes(objects: Iterable[bpy.types.Object], names: list[str]) -> None:
    """Records on each imported mesh object its place among `names`, the glTF's mesh nodes
    in the order of its scene (the file's meshes, as rigport writes them)."""
    meshes = [o for o in objects if o.type == "MESH"]
    found = matched([o.name for o in meshes], names)
    for obj in meshes:
        if obj.name in found:
            obj[MESH_INDEX] = found[obj.name]


def mesh_placer(objects: Iterable[bpy.types.Object]) -> Callable[[str], float]:
    """The place an exported mesh node goes, by its object's name, for the objects among
    `objects`: an imported mesh's place in its file; any other after them."""
    places = {o.name: float(o[MESH_INDEX]) for o in objects if MESH_INDEX in o}
    return lambda name: places.get(name, math.inf)


#: Custom property of every object an import made: the file's comment (a MilkShape model
#: comment, an SMD's or IQE's comment lines), which Blender has no place for; the export
#: writes it back.
COMMENT = "rigport_comment"


def record_comment(objects: Iterable[bpy.types.Object], comment: str) -> None:
    """Records the file's comment on each object an import made (none for no comment)."""
    if comment:
        for obj in objects:
            obj[COMMENT] = comment


def exported_comment(objects: Iterable[bpy.types.Object]) -> Optional[str]:
    """The comment recorded on the first of `objects` that has one, if any."""
    return next((str(o[COMMENT]) for o in objects if COMMENT in o), None)


#: Custom property of an imported armature: the one animation file beside its model that
#: every animation came from whole (a PSK's `.psa`: rigport writes it as `<stem>.psa`), so
#: that an export back to the model's own path writes it under that name again.
COMPANION = "rigport_companion"

#: The message of rigport's `animations-attached` note names its file between backticks.
_ATTACHED = re.compile(r"^`([^`]+)`: ")


def whole_companion(report: Iterable, extension: str) -> Optional[str]:
    """The file name of the one animation file with `extension` a conversion's report says
    it attached, where it attached no other and dropped none of that file's keys; else None."""
    attached = []
    for line in report:
        if line.code == "animations-attached":
            found = _ATTACHED.match(line.message)
            if found:
                attached.append(found.group(1))
        elif line.code == "psa-bones-unmatched" and line.severity != "info":
            return None  # keys of joints the model does not have were left out
    if len(attached) == 1 and attached[0].lower().endswith(extension):
        return attached[0]
    return None


def companion_renames(objects: Iterable[bpy.types.Object], target: str, extension: str) -> dict[str, str]:
    """The companion file to rename when exporting to `target`: the `<stem><extension>`
    rigport writes, to the name the imported armature among `objects` recorded, where
    `target` is the path the armature's model was read from."""
    stem = os.path.splitext(os.path.basename(target))[0]
    for obj in objects:
        if obj.type != "ARMATURE" or COMPANION not in obj:
            continue
        source = str(obj.get("rigport_source", ""))
        if source and os.path.normcase(os.path.abspath(source)) == os.path.normcase(os.path.abspath(target)):
            return {stem + extension: str(obj[COMPANION])}
    return {}
