"""Giving an exported .glb's animations and materials back their names and order in the
source file.

Blender names an action `object|animation`, and its glTF exporter writes actions in an
order of its own; game code addresses animations by their names in the file (IQM and IQE
also by index). Materials come out in the order meshes first use them, and two of one name
as `name` and `name.001`. `rename` rewrites the JSON chunk of the .glb Blender wrote before
rigport converts it: each animation (and, with `material_of`, each material) takes the name
the function gives for its Blender name and goes to the place it gives (those without one
keep their order, after the others); mesh primitives follow their materials. With
`joint_of`, each skin's joints get their names and order back too (`glb_skins.reorder`, the
one edit of the binary chunk). No Blender imports, so it runs under a plain Python too.
"""

from __future__ import annotations

from typing import Callable

try:
    from . import glb_file, glb_materials, glb_rest, glb_scales, glb_skins, glb_times
except ImportError:  # loaded from its file by the plain-Python checks
    import glb_file  # type: ignore[no-redef]
    import glb_materials  # type: ignore[no-redef]
    import glb_rest  # type: ignore[no-redef]
    import glb_scales  # type: ignore[no-redef]
    import glb_skins  # type: ignore[no-redef]
    import glb_times  # type: ignore[no-redef]

Namer = glb_skins.Namer


def placed(items: list, name_of: Namer, fixed: dict[int, int] | None = None) -> tuple[list[int], int]:
    """The order `name_of` puts `items` in (each renamed in place), as old indices, and how
    many changed name or place. An item whose `id` is in `fixed` keeps its name and goes
    to the index given there."""
    order = []
    for position, item in enumerate(items):
        old = str(item.get("name", ""))
        if fixed is not None and id(item) in fixed:
            name, index = old, float(fixed[id(item)])
        else:
            name, index = name_of(old)
        item["name"] = name
        order.append((index, position, old != name))
    order.sort(key=lambda entry: (entry[0], entry[1]))
    changed = sum(1 for at, entry in enumerate(order) if entry[2] or entry[1] != at)
    return [entry[1] for entry in order], changed


def order_meshes(doc: dict, place_of: Callable[[str], float]) -> int:
    """Puts the nodes that show a mesh in the order `place_of` gives for their names, in
    every list of a scene's or a node's children: each takes a place one of them had, so
    the other nodes stay where they were. Returns how many moved."""
    nodes = doc.get("nodes") or []
    lists = [scene.get("nodes") or [] for scene in doc.get("scenes") or []]
    lists += [node.get("children") or [] for node in nodes]
    moved = 0
    for items in lists:
        slots = [k for k, i in enumerate(items) if "mesh" in nodes[int(i)]]
        ordered = sorted((items[k] for k in slots), key=lambda i: place_of(str(nodes[int(i)].get("name", ""))))
        for k, i in zip(slots, ordered):
            if items[k] != i:
                items[k] = i
                moved += 1
    return moved


def rename(
    path: str,
    name_of: Namer,
    material_of: Namer | None = None,
    joint_of: Namer | None = None,
    extras_of: Callable[[str], dict] | None = None,
    rest_of: Callable[[str], glb_rest.Rest | None] | None = None,
    mesh_place: Callable[[str], float] | None = None,
    comment: str | None = None,
    unused_materials: list[dict] | None = None,
    scene_rate: float | None = None,
) -> int:
    """Renames and orders the animations (and, with `material_of`, the materials; with
    `joint_of`, each skin's joints) of the .glb at `path`; with `extras_of`, gives each
    animation the `extras` it returns for its Blender name; with `rest_of` (a joint's rest
    in the file, by its bone's name), takes the bones' display turns out of the joints
    (`glb_rest.restore`) and gives joints back the rest scales Blender's bones do not
    hold (`glb_scales.restore`); with `mesh_place`, puts the nodes showing meshes in the places it
    gives for their names, among their siblings (`order_meshes`); with `comment`, keeps it
    as the model comment rigport reads (`asset.extras.comment`); with `unused_materials`
    (`glb_materials.unused` of the imported file), puts the materials no mesh used back at
    their indices; with `scene_rate` (the rate Blender's exporter wrote frames at), gives
    each animation whose `extras` record another rate its own back (`glb_times.retime`).
    Returns how many changed.
    Raises ValueError for a file that is not a glb."""
    doc, read_binary = glb_file.read(path)
    animations = doc.get("animations") or []
    given = 0
    for animation in animations:
        extras = extras_of(str(animation.get("name", ""))) if extras_of is not None else {}
        if extras:
            animation["extras"] = {**(animation.get("extras") or {}), **extras}
            given += 1
    order, changed = placed(animations, name_of)
    changed += given
    if animations:
        doc["animations"] = [animations[i] for i in order]
    added = glb_materials.restore(doc, unused_materials) if unused_materials else []
    changed += len(added)
    materials = doc.get("materials") or []
    if material_of is not None and materials:
        order, moved = placed(materials, material_of, {id(m): index for m, index in added})
        doc["materials"] = [materials[i] for i in order]
        new_index = {old: new for new, old in enumerate(order)}
        for mesh in doc.get("meshes") or []:
            for primitive in mesh.get("primitives") or []:
                if "material" in primitive:
                    primitive["material"] = new_index[primitive["material"]]
        changed += moved
    if mesh_place is not None:
        changed += order_meshes(doc, mesh_place)
    if comment:
        asset = doc.setdefault("asset", {"version": "2.0"})
        extras = asset.get("extras") if isinstance(asset.get("extras"), dict) else {}
        if extras.get("comment") != comment:
            asset["extras"] = {**extras, "comment": comment}
            changed += 1
    has_binary = read_binary is not None
    binary = read_binary if read_binary is not None else bytearray()
    # The bone names Blender wrote, before joints take their file's names back.
    bone_names = [str(node.get("name", "")) for node in doc.get("nodes") or []]
    if joint_of is not None and doc.get("skins"):
        changed += glb_skins.reorder(doc, binary, joint_of)
        if rest_of is not None and has_binary:
            changed += glb_rest.restore(doc, binary, lambda node: rest_of(bone_names[node]))
            changed += glb_scales.restore(doc, binary, lambda node: rest_of(bone_names[node]))
    if scene_rate is not None and has_binary:
        changed += glb_times.retime(doc, binary, scene_rate)
    if not changed:
        return 0
    glb_file.write(path, doc, binary if has_binary else None)
    return changed
