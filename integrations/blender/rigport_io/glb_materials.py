"""A file's materials that no mesh uses, kept across Blender.

Blender's glTF importer makes a material only where a mesh uses it, so a material the
file lists but no face uses (B3D brushes kept for a later surface, a MilkShape material
whose triangle Blender could not hold) would be gone from the export. `unused` takes each
such material out of the .glb rigport wrote for the import, with its texture references
made self-contained (the image's URI or name and the sampler, in place of indices that
only mean something in that file); `restore` puts them back into the .glb Blender wrote,
each at its index in the file. No Blender imports, so it runs under a plain Python too.
"""

from __future__ import annotations

import copy
from typing import Any

#: The key that stands for a texture's index in a material kept by `unused`.
TEXTURE = "rigport_texture"


def used(doc: dict) -> set[int]:
    """The indices of the materials some mesh primitive uses."""
    return {
        int(primitive["material"])
        for mesh in doc.get("meshes") or []
        for primitive in mesh.get("primitives") or []
        if isinstance(primitive.get("material"), int)
    }


def _texture_entries(value: Any) -> list[dict]:
    """Every texture reference in a material's JSON (a `…Texture` object with an index)."""
    found = []
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            for key, inner in item.items():
                if key.endswith("Texture") and isinstance(inner, dict) and ("index" in inner or TEXTURE in inner):
                    found.append(inner)
                todo.append(inner)
        elif isinstance(item, list):
            todo.extend(item)
    return found


def unused(doc: dict) -> list[dict]:
    """The materials of `doc` that no primitive uses, as `{"index": i, "material": {...}}`,
    each texture index replaced by what it points at (`TEXTURE`: the image's `uri` or
    `name` and `mimeType`, and the sampler)."""
    textures = doc.get("textures") or []
    images = doc.get("images") or []
    samplers = doc.get("samplers") or []
    taken = used(doc)
    out = []
    for index, material in enumerate(doc.get("materials") or []):
        if index in taken or not isinstance(material, dict):
            continue
        kept = copy.deepcopy(material)
        for entry in _texture_entries(kept):
            at = entry.pop("index", None)
            texture = textures[at] if isinstance(at, int) and 0 <= at < len(textures) else {}
            source = texture.get("source")
            image = images[source] if isinstance(source, int) and 0 <= source < len(images) else {}
            sampler_at = texture.get("sampler")
            sampler = samplers[sampler_at] if isinstance(sampler_at, int) and 0 <= sampler_at < len(samplers) else None
            entry[TEXTURE] = {
                "image": {k: image[k] for k in ("uri", "name", "mimeType") if k in image},
                "sampler": copy.deepcopy(sampler),
            }
        out.append({"index": index, "material": kept})
    return out


def _image_index(doc: dict, image: dict) -> int:
    """The index of an image in `doc` that is `image` (same URI, or same name where it has
    none); a new image by URI (its name standing in for a missing one) where none is."""
    images = doc.setdefault("images", [])
    uri = image.get("uri")
    name = image.get("name")
    for at, other in enumerate(images):
        if uri is not None and other.get("uri") == uri:
            return at
        if uri is None and name is not None and other.get("name") == name:
            return at
    entry = {"uri": uri if uri is not None else str(name or "")}
    if name is not None:
        entry["name"] = name
    images.append(entry)
    return len(images) - 1


def _texture_index(doc: dict, kept: dict) -> int:
    """The index of a texture in `doc` showing the kept image with the kept sampler, added
    where none is."""
    image = _image_index(doc, kept.get("image") or {})
    sampler = kept.get("sampler")
    sampler_at = None
    if isinstance(sampler, dict):
        samplers = doc.setdefault("samplers", [])
        sampler_at = next((k for k, s in enumerate(samplers) if s == sampler), None)
        if sampler_at is None:
            samplers.append(copy.deepcopy(sampler))
            sampler_at = len(samplers) - 1
    textures = doc.setdefault("textures", [])
    for at, texture in enumerate(textures):
        if texture.get("source") == image and texture.get("sampler") == sampler_at:
            return at
    entry: dict = {"source": image}
    if sampler_at is not None:
        entry["sampler"] = sampler_at
    textures.append(entry)
    return len(textures) - 1


def restore(doc: dict, kept: list[dict]) -> list[tuple[dict, int]]:
    """Appends the materials `unused` kept to `doc`'s materials, their textures pointed at
    images and textures of `doc` (added where missing). Returns each appended material with
    the index it had in its file, for the caller to put it back in place."""
    materials = doc.setdefault("materials", [])
    added = []
    for entry in kept:
        material = entry.get("material")
        index = entry.get("index")
        if not isinstance(material, dict) or not isinstance(index, int):
            continue
        material = copy.deepcopy(material)
        for texture in _texture_entries(material):
            if TEXTURE in texture:
                texture["index"] = _texture_index(doc, texture.pop(TEXTURE) or {})
        materials.append(material)
        added.append((material, index))
    return added
