"""Writes a large skinned, animated FBX with Blender's own FBX exporter, for the FBX benches
(BENCHMARKS.md): a 512 x 512 grid (524 288 triangles) bent by a chain of 64 bones, each bone
rotating over 240 frames at 30 fps, every vertex weighted to the two nearest bones.

    blender -b --factory-startup --python crates/fbx/benches/large_fbx.py -- OUT.fbx
"""

import math
import sys

import bpy  # type: ignore[import-not-found]

out = sys.argv[sys.argv.index("--") + 1]
GRID, BONES, FRAMES = 512, 64, 240

bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps = 30
scene.frame_start, scene.frame_end = 1, FRAMES

bpy.ops.mesh.primitive_grid_add(x_subdivisions=GRID, y_subdivisions=GRID, size=2.0)
grid = bpy.context.object
grid.name = "Sheet"

armature_data = bpy.data.armatures.new("Rig")
armature = bpy.data.objects.new("Rig", armature_data)
scene.collection.objects.link(armature)
bpy.context.view_layer.objects.active = armature
bpy.ops.object.mode_set(mode="EDIT")
step = 2.0 / BONES
parent = None
for i in range(BONES):
    bone = armature_data.edit_bones.new(f"bone_{i:02}")
    bone.head = (-1.0 + i * step, 0.0, 0.0)
    bone.tail = (-1.0 + (i + 1) * step, 0.0, 0.0)
    if parent is not None:
        bone.parent = parent
        bone.use_connect = True
    parent = bone
bpy.ops.object.mode_set(mode="OBJECT")

for i in range(BONES):
    grid.vertex_groups.new(name=f"bone_{i:02}")
for vertex in grid.data.vertices:
    at = (vertex.co.x + 1.0) / step - 0.5
    first = max(0, min(BONES - 1, int(math.floor(at))))
    second = min(BONES - 1, first + 1)
    blend = max(0.0, min(1.0, at - first))
    grid.vertex_groups[first].add([vertex.index], 1.0 - blend, "REPLACE")
    if second != first:
        grid.vertex_groups[second].add([vertex.index], blend, "ADD")
modifier = grid.modifiers.new("Rig", "ARMATURE")
modifier.object = armature
grid.parent = armature

armature.animation_data_create()
action = bpy.data.actions.new("Wave")
armature.animation_data.action = action
bpy.context.view_layer.objects.active = armature
bpy.ops.object.mode_set(mode="POSE")
for i, pose_bone in enumerate(armature.pose.bones):
    pose_bone.rotation_mode = "XYZ"
    for frame in range(1, FRAMES + 1, 2):
        pose_bone.rotation_euler = (0.0, 0.0, 0.15 * math.sin(frame / 12.0 + i / 4.0))
        pose_bone.keyframe_insert("rotation_euler", frame=frame)
bpy.ops.object.mode_set(mode="OBJECT")

bpy.ops.export_scene.fbx(filepath=out, bake_anim=True, add_leaf_bones=False)
print(f"wrote {out}")
