# Blender headless: N orbit views at 512x512 of every .glb in a folder (one Blender process).
# usage: env PATH=/usr/bin:/bin blender -b --python folder.py -- GLB_DIR OUT_DIR ENGINE N [keypoints]
# With `keypoints`, each view also projects every bone's head (posed, world space) into the
# picture (pixel, depth along the view) and the folder's joints go to OUT_DIR/keypoints.json,
# the work `rigport render --keypoints` does beside its pictures.
import sys, os, math, time, json
argv = sys.argv[sys.argv.index("--") + 1:]
src, out, engine, n = argv[0], argv[1], argv[2], int(argv[3])
keypoints = len(argv) > 4 and argv[4] == "keypoints"
projected = {}
import numpy
if not hasattr(numpy, "bool"):
    numpy.bool = bool
import bpy
from mathutils import Vector
images = 0
t_start = time.process_time()
w_start = time.perf_counter()
for name in sorted(os.listdir(src)):
    if not name.endswith(".glb"):
        continue
    bpy.ops.wm.read_factory_settings(use_empty=True)
    try:
        bpy.ops.import_scene.gltf(filepath=os.path.join(src, name))
    except Exception as e:
        print("FAILED", name, e)
        continue
    scene = bpy.context.scene
    scene.render.engine = engine
    scene.render.resolution_x = scene.render.resolution_y = 512
    scene.render.resolution_percentage = 100
    scene.render.image_settings.file_format = "PNG"
    if engine == "BLENDER_EEVEE":
        scene.eevee.taa_render_samples = 16
    meshes = [o for o in scene.objects if o.type == "MESH"]
    if not meshes:
        print("NOMESH", name)
        continue
    lo = Vector((1e30,) * 3); hi = Vector((-1e30,) * 3)
    for o in meshes:
        for c in o.bound_box:
            w = o.matrix_world @ Vector(c)
            lo = Vector(map(min, lo, w)); hi = Vector(map(max, hi, w))
    centre = (lo + hi) / 2
    radius = max((hi - lo).length / 2, 1e-6)
    cam_data = bpy.data.cameras.new("cam"); cam_data.angle = math.radians(40)
    cam = bpy.data.objects.new("cam", cam_data); scene.collection.objects.link(cam); scene.camera = cam
    sun = bpy.data.objects.new("sun", bpy.data.lights.new("sun", "SUN")); scene.collection.objects.link(sun)
    d = radius / math.sin(math.radians(20))
    for i in range(n):
        az = 2 * math.pi * i / n; el = math.radians(20)
        eye = centre + Vector((math.sin(az) * math.cos(el), -math.cos(az) * math.cos(el), math.sin(el))) * d
        cam.location = eye
        cam.rotation_euler = (centre - eye).to_track_quat("-Z", "Y").to_euler()
        scene.render.filepath = os.path.join(out, name[:-4], f"view_{i:02d}.png")
        bpy.ops.render.render(write_still=True)
        images += 1
        if keypoints:
            from bpy_extras.object_utils import world_to_camera_view
            bpy.context.view_layer.update()
            joints = []
            for arm in (o for o in scene.objects if o.type == "ARMATURE"):
                for bone in arm.pose.bones:
                    world = arm.matrix_world @ bone.head
                    p = world_to_camera_view(scene, cam, world)
                    joints.append([p.x * 512, (1 - p.y) * 512, p.z])
            projected[f"{name[:-4]}/view_{i:02d}"] = joints
if keypoints:
    with open(os.path.join(out, "keypoints.json"), "w") as f:
        json.dump(projected, f)
print(f"BENCH engine {engine} images {images} process_cpu {time.process_time()-t_start:.2f}s wall {time.perf_counter()-w_start:.2f}s")
