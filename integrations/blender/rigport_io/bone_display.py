"""How imported bones are drawn: each bone's tail points along its only child (toward the
middle of its children where it has several), and a leaf's along its parent's bone.

Blender draws a bone from its head along the bone's own +Y axis, so pointing a bone means
turning its frame. Blender's glTF importer has that step (`pick_bone_rotation`, run for
every bone); while `drawn_toward_children` is active it picks the turn by the rule above.
The importer carries every animation key into the turned frame, and on export
`glb_rest.restore` takes the turn back out, so the file written has the joints' own frames
and keys: the turn is display only. Where a joint is scaled unevenly (in its rest or a
key), a turn that is not a quarter turn would shear it, so each turn is snapped to the
nearest quarter turn (the bone then points along the axis closest to its child).
Blender's whose importer lacks the step keep Blender's own bone directions.
"""

from __future__ import annotations

import contextlib
import importlib
from typing import Any, Iterator, Optional

#: Where Blender's glTF importer keeps the step, by Blender version.
MODULES = ("io_scene_gltf2.blender.imp.vnode", "io_scene_gltf2.blender.imp.gltf2_blender_vnode")


def importer_module() -> Optional[Any]:
    """Blender's glTF importer module that picks bone turns, if it has the step."""
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        needed = ("pick_bone_rotation", "VNode", "MIN_BONE_LENGTH", "nearby_signed_perm_matrix")
        if all(hasattr(module, a) for a in needed):
            return module
    return None


def picker(module: Any, quarter_turns: bool) -> Any:
    """`pick_bone_rotation` by this module's rule."""
    from mathutils import Vector

    bone = module.VNode.Bone
    up = Vector((0.0, 1.0, 0.0))

    def pick_bone_rotation(gltf: Any, bone_id: Any, parent_rot: Any) -> Any:
        vnode = gltf.vnodes[bone_id]
        toward = Vector((0.0, 0.0, 0.0))
        for child in vnode.children:
            place = gltf.vnodes[child]
            if place.type == bone and place.editbone_trans.length > module.MIN_BONE_LENGTH:
                toward += place.editbone_trans
        if toward.length <= module.MIN_BONE_LENGTH:
            parent = gltf.vnodes.get(vnode.parent)
            if parent is None or parent.type != bone:
                return parent_rot
            # The parent's bone (its +Y in its turned frame) seen from this bone's frame.
            toward = vnode.editbone_rot.conjugated() @ up
        turn = up.rotation_difference(toward)
        if quarter_turns:
            turn = module.nearby_signed_perm_matrix(turn).to_quaternion()
        return turn

    return pick_bone_rotation


@contextlib.contextmanager
def drawn_toward_children(quarter_turns: bool) -> Iterator[bool]:
    """Blender's glTF importer picking bone turns by this module's rule while active; gives
    whether it does (False: the importer has no such step here). The importer must run with
    a `bone_heuristic` other than BLENDER for the turns to be used."""
    module = importer_module()
    if module is None:
        yield False
        return
    own = module.pick_bone_rotation
    module.pick_bone_rotation = picker(module, quarter_turns)
    try:
        yield True
    finally:
        module.pick_bone_rotation = own
