"""Draws how the extension points an imported character's bones, with Blender's Workbench,
headless.

Usage (with the `bpy` module's Python):
    python bone_picture.py ZIP MODEL OUT.png

Installs the extension zip into a throwaway HOME, imports MODEL through it, and renders the
model see-through with its armature: a final render draws no armature, so each bone is
built as the octahedron Blender draws for it (head, tail and roll from the bone's rest
matrix) before rendering. integrations/blender/README.md shows the picture this makes of
the corpus's `iqm/raylib_guy.iqm`.
"""

from __future__ import annotations

import math
import os
import sys
import tempfile

ZIP, MODEL, OUT = (os.path.abspath(a) for a in sys.argv[-3:])
os.environ["HOME"] = tempfile.mkdtemp(prefix="rigport-picture-home-")

import bpy  # noqa: E402
from mathutils import Vector  # noqa: E402

#: Octahedron of a bone of length 1 along +Y, as Blender draws it (its waist at 0.1).
SHAPE = [(0, 0, 0), (0.1, 0.1, 0.1), (0.1, 0.1, -0.1), (-0.1, 0.1, -0.1), (-0.1, 0.1, 0.1), (0, 1, 0)]
FACES = [(0, 1, 2), (0, 2, 3), (0, 3, 4), (0, 4, 1), (5, 2, 1), (5, 3, 2), (5, 4, 3), (5, 1, 4)]


def bone_meshes(armature: bpy.types.Object) -> bpy.types.Object:
    """One mesh object holding an octahedron per bone of `armature`, at rest, in world space."""
    vertices: list = []
    faces: list = []
    for bone in armature.data.bones:
        frame = armature.matrix_world @ bone.matrix_local
        length = bone.length
        base = len(vertices)
        for x, y, z in SHAPE:
            vertices.append(frame @ Vector((x * length, y * length, z * length)))
        faces.extend(tuple(base + i for i in face) for face in FACES)
    mesh = bpy.data.meshes.new("bones")
    mesh.from_pydata(vertices, [], faces)
    material = bpy.data.materials.new("bones")
    material.diffuse_color = (1.0, 0.55, 0.1, 1.0)
    mesh.materials.append(material)
    obj = bpy.data.objects.new("bones", mesh)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def frame_camera(objects: list) -> None:
    """A camera looking at `objects` from the front and a little to the side."""
    corners = [o.matrix_world @ Vector(c) for o in objects if o.type == "MESH" for c in o.bound_box]
    low = Vector(tuple(min(c[i] for c in corners) for i in range(3)))
    high = Vector(tuple(max(c[i] for c in corners) for i in range(3)))
    middle, size = (low + high) / 2, (high - low).length
    camera = bpy.data.objects.new("camera", bpy.data.cameras.new("camera"))
    bpy.context.scene.collection.objects.link(camera)
    direction = Vector((math.sin(math.radians(30)), -math.cos(math.radians(30)), 0.4)).normalized()
    camera.location = middle + direction * size * 1.25
    camera.rotation_euler = (-direction).to_track_quat("-Z", "Y").to_euler()
    bpy.context.scene.camera = camera


def main() -> None:
    bpy.ops.wm.read_homefile(use_empty=True)
    result = bpy.ops.extensions.package_install_files(filepath=ZIP, repo="user_default", enable_on_install=True)
    assert "FINISHED" in result, result
    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.ops.import_scene.rigport(filepath=MODEL)
    armature = next(o for o in bpy.data.objects if o.type == "ARMATURE")
    bones = bone_meshes(armature)
    frame_camera([bones, *(o for o in bpy.data.objects if o.type == "MESH")])
    scene = bpy.context.scene
    scene.render.engine = "BLENDER_WORKBENCH"
    scene.display.shading.light = "STUDIO"
    scene.display.shading.color_type = "MATERIAL"
    scene.display.shading.show_xray = True
    scene.display.shading.xray_alpha = 0.35
    scene.render.resolution_x, scene.render.resolution_y = 640, 640
    scene.render.film_transparent = False
    scene.render.filepath = OUT
    bpy.ops.render.render(write_still=True)
    print(f"wrote {OUT}: {len(armature.data.bones)} bones")


main()
