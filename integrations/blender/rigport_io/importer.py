"""File > Import: a rigport-readable model, through a temporary glTF binary."""

from __future__ import annotations

import math
import os
import struct
import tempfile
from typing import Optional

import bpy
from bpy.props import BoolProperty, CollectionProperty, StringProperty
from bpy_extras.io_utils import ImportHelper

from . import (
    backend,
    bone_display,
    cli,
    compat,
    faces,
    formats,
    glb_faces,
    glb_file,
    glb_materials,
    glb_rest,
    key_state,
    naming,
    reporting,
    rotations,
    scene_state,
    textures,
)
from .preferences import binary_preference


class ImportRigport(bpy.types.Operator, ImportHelper):
    """Import a model (or an animation onto the selected armature) that rigport reads"""

    bl_idname = "import_scene.rigport"
    bl_label = "Import " + formats.label(formats.readable())
    bl_options = {"REGISTER", "UNDO", "PRESET"}

    filter_glob: StringProperty(  # type: ignore[valid-type]
        default=formats.glob(formats.readable()), options={"HIDDEN"}
    )
    files: CollectionProperty(  # type: ignore[valid-type]
        type=bpy.types.OperatorFileListElement, options={"HIDDEN", "SKIP_SAVE"}
    )
    directory: StringProperty(subtype="DIR_PATH", options={"HIDDEN", "SKIP_SAVE"})  # type: ignore[valid-type]
    anims_beside: BoolProperty(  # type: ignore[valid-type]
        name="Animations beside",
        description=(
            "Also import the animation files beside the model that fit its skeleton "
            "(MD5: every .md5anim in its folder). Animation files picked with the model "
            "are imported instead"
        ),
        default=True,
    )

    def draw(self, context: bpy.types.Context) -> None:
        """The options of the file browser's side panel."""
        self.layout.prop(self, "anims_beside")
        self.layout.label(text="Pick .md5anim / .smd animations with the model to choose them")

    def invoke(self, context: bpy.types.Context, event: bpy.types.Event) -> set:
        """Opens the file browser, or imports at once when called with files (drag and drop)."""
        if self.files and self.directory:
            return self.execute(context)
        return ImportHelper.invoke(self, context, event)

    def picked(self) -> list[str]:
        """The files asked for: every file picked in the browser, else `filepath`."""
        folder = bpy.path.abspath(self.directory) if self.directory else ""
        names = [f.name for f in self.files if f.name] if folder else []
        if names:
            return [os.path.abspath(os.path.join(folder, name)) for name in names]
        return [os.path.abspath(bpy.path.abspath(self.filepath))]

    def execute(self, context: bpy.types.Context) -> set:
        """Converts with rigport, imports the glTF, names what it made after the source."""
        paths = self.picked()
        missing = [p for p in paths if not os.path.isfile(p)]
        if missing:
            self.report({"ERROR"}, f"no such file: {missing[0]}")
            return {"CANCELLED"}
        snapshot = scene_state.Snapshot(context.scene)
        try:
            rig = backend.find(binary_preference(context))
            summaries = [(p, rig.info(p)) for p in paths]
            models = [(p, s) for p, s in summaries if not is_animation_only(s)]
            animations = [p for p, s in summaries if is_animation_only(s)]
            if len(models) > 1:
                raise cli.RigportError("pick one model at a time (and any animation files for it)")
            target = selected_armature(context)
            if models:
                source, summary = models[0]
                self.import_model(context, rig, source, summary, animations)
            elif target is not None:
                self.import_animations(context, rig, target, animations)
            else:
                # No armature to put them on: the first animation file as a model of its own
                # (its skeleton, placeholder joints where the file names none).
                self.import_model(context, rig, animations[0], summaries[0][1], animations[1:])
        except cli.RigportError as err:
            snapshot.restore()
            self.report({"ERROR"}, str(err))
            return {"CANCELLED"}
        except Exception as err:
            snapshot.restore()
            self.report({"ERROR"}, f"import failed: {err}")
            raise
        return {"FINISHED"}

    def import_model(
        self,
        context: bpy.types.Context,
        rig: backend.Backend,
        source: str,
        summary: dict,
        animations: list[str],
    ) -> None:
        """Imports one model with its animations (those picked, or those beside it)."""
        stem = os.path.splitext(os.path.basename(source))[0]
        beside = self.anims_beside and not animations
        with tempfile.TemporaryDirectory(prefix="rigport-import-") as work:
            glb = os.path.join(work, "model.glb")
            conversion = rig.convert(source, glb, with_anims=animations, anims_beside=beside)
            reporting.show(self.report, conversion.report, losses_warn=False)
            companion = naming.whole_companion(conversion.report, ".psa") if source.lower().endswith((".psk", ".pskx")) else None
            apart = split_faces(glb)
            if apart:
                self.report(
                    {"INFO"},
                    f"{apart} triangles that use a vertex twice or repeat another's vertices have "
                    "vertices of their own, so Blender keeps them (as faces of no area where a vertex repeats)",
                )
            counts = count_faces(glb)
            doc, binary = glb_parts(glb)
            quarter_turns = glb_rest.scaled_unevenly(doc, binary)
            order = animation_names(doc)
            extras = animation_extras(doc)
            # Blender's glTF importer turns seconds into frames at the scene's rate:
            # set the file's rate first, so its frames land on Blender's whole frames.
            set_scene_fps(self.report, context.scene, rig.first_fps(source, animations, beside))
            images_before = set(bpy.data.images)
            materials_before = set(bpy.data.materials)
            made = import_glb(context, glb, quarter_turns)
            unused = glb_materials.unused(doc)
            naming.record_materials(
                [m for m in bpy.data.materials if m not in materials_before],
                material_names(doc),
                [u["index"] for u in unused],
            )
            naming.record_unused_materials(made, unused)
            if unused:
                self.report(
                    {"INFO"},
                    f"{len(unused)} materials no face uses are kept on the imported objects "
                    "(Blender makes none for them) and written back on export",
                )
            joints = joint_names(doc)
            rests = glb_rest.joint_rests(doc)
            naming.record_meshes(made, mesh_node_names(doc))
            naming.record_comment(made, file_comment(doc))
            for obj in made:
                if obj.type == "ARMATURE":
                    naming.record_joints(obj, joints, rests)
                    obj[QUARTER_TURNS] = quarter_turns
            images = [i for i in bpy.data.images if i not in images_before]
            textures.relink(images, work, os.path.dirname(source), self.report)
        retime_actions(context.scene, made, action_rates(made, dict(zip(order, extras))))
        keys = rotations.add_whole_frame_keys(actions_of(made))
        report_dropped_faces(self.report, summary.get("triangles"), counts, made)
        if keys:
            self.report(
                {"INFO"},
                f"added {keys} rotation keys at whole frames where Blender's per-component "
                "blend of quaternions strays from the file's constant-speed turn between keys",
            )
        naming.rename_objects(stem, made)
        actions = naming.rename_actions(stem, made, order, extras)
        key_state.record(key_state.actions_in(made))
        for obj in made:
            if obj.type == "ARMATURE":
                obj["rigport_source"] = source
                obj["rigport_animations"] = ";".join(animations)
                obj["rigport_anims_beside"] = beside
                if companion:
                    obj[naming.COMPANION] = companion
        fit_scene_range(context, actions)
        self.report(
            {"INFO"},
            f"imported {os.path.basename(source)}: {len(made)} objects, {len(actions)} actions",
        )


    def import_animations(
        self, context: bpy.types.Context, rig: backend.Backend, target: bpy.types.Object, animations: list[str]
    ) -> None:
        """Puts the animations of animation-only files onto `target`, an armature this add-on
        imported: its source model is converted again with them attached (rigport matches
        their joints to the model's by name), imported beside it, and the new actions move
        over, one per animation; what that import made besides is removed."""
        source = str(target.get("rigport_source", ""))
        if not source or not os.path.isfile(source):
            raise cli.RigportError(
                f"{target.name} was not imported by rigport from a file that is still there "
                "(animations are put on an armature rigport imported; import the model first)"
            )
        own = int(rig.info(source).get("animations") or 0)
        snapshot = scene_state.Snapshot(context.scene)
        with tempfile.TemporaryDirectory(prefix="rigport-import-") as work:
            glb = os.path.join(work, "model.glb")
            conversion = rig.convert(source, glb, with_anims=animations)
            reporting.show(self.report, conversion.report, losses_warn=False)
            doc = glb_json(glb)
            names = animation_names(doc)[own:]
            extras_by_name = dict(zip(names, animation_extras(doc)[own:]))
            if not names:
                raise cli.RigportError("the picked files hold no animation for this armature")
            fps = None
            for path in animations:
                fps = fps or rig.first_fps(path)
            set_scene_fps(self.report, context.scene, fps)
            # The same turns as the armature's own bones, so the keys fit its frames.
            made = import_glb(context, glb, bool(target.get(QUARTER_TURNS, False)))
        retime_actions(context.scene, made, action_rates(made, extras_by_name))
        rotations.add_whole_frame_keys(actions_of(made))
        temp = next((o for o in made if o.type == "ARMATURE"), None)
        moved = []
        if temp is not None and temp.animation_data is not None:
            for track in temp.animation_data.nla_tracks:
                for strip in track.strips:
                    if track.name in names and strip.action is not None:
                        moved.append((track.name, strip.action, compat.strip_slot(strip)))
        extras_of = {action: extras_by_name.get(name) for name, action, _ in moved}
        if not moved:
            raise cli.RigportError("no animation of the picked files reached the armature")
        if len(moved) == len(animations):
            # One animation per file: each is named after its file, as `--anims-beside` names them.
            stems = [os.path.splitext(os.path.basename(p))[0] for p in animations]
            moved = [(stem, action, slot) for stem, (_, action, slot) in zip(stems, moved)]
        data = target.animation_data or target.animation_data_create()
        held = [s.action for t in data.nla_tracks for s in t.strips if s.action is not None]
        first = naming.next_index(held, own)
        for at, (name, action, slot) in enumerate(moved):
            action.name = naming.joined(target.name, "|", name)
            naming.record(action, name, first + at, extras_of.get(action))
            action.use_fake_user = False
            track = data.nla_tracks.new()
            track.name = name
            strip = track.strips.new(name, int(round(action.frame_range[0])), action)
            compat.set_strip_slot(strip, slot)
        data.action = moved[0][1]
        if moved[0][2] is not None and hasattr(data, "action_slot"):
            data.action_slot = moved[0][2]
        keep = {action for _, action, _ in moved}
        for name in ("objects", "meshes", "armatures", "materials", "images", "actions"):
            store = getattr(bpy.data, name)
            for block in snapshot.added(name):
                if block not in keep:
                    store.remove(block)
        key_state.record(keep)
        fit_scene_range(context, [action for _, action, _ in moved])
        self.report({"INFO"}, f"put {len(moved)} animations on {target.name}")


def selected_armature(context: bpy.types.Context) -> Optional[bpy.types.Object]:
    """The active object when it is an armature, else the only selected armature, else None."""
    active = context.view_layer.objects.active
    if active is not None and active.type == "ARMATURE" and active.select_get():
        return active
    armatures = [o for o in context.selected_objects if o.type == "ARMATURE"]
    return armatures[0] if len(armatures) == 1 else None


def glb_json(glb: str) -> dict:
    """The JSON chunk of a .glb."""
    return glb_file.read_json(glb)


def glb_parts(glb: str) -> tuple[dict, bytearray]:
    """The JSON chunk of a .glb and its BIN chunk's data (empty without one)."""
    doc, binary = glb_file.read(glb)
    return dict(doc), binary if binary is not None else bytearray()


def animation_names(doc: dict) -> list[str]:
    """The names of a glTF's animations (`doc`, its JSON), in order."""
    return [str(a.get("name", f"animation_{i}")) for i, a in enumerate(doc.get("animations", []))]


def animation_extras(doc: dict) -> list[dict]:
    """The `extras` of a glTF's animations, in order (rigport keeps each one's frame rate
    and loop flag there); an empty dict where there are none."""
    out = []
    for animation in doc.get("animations", []):
        extras = animation.get("extras")
        out.append(dict(extras) if isinstance(extras, dict) else {})
    return out


def material_names(doc: dict) -> list[str]:
    """The names of a glTF's materials, in order."""
    return [str(m.get("name", f"material_{i}")) for i, m in enumerate(doc.get("materials", []))]


def joint_names(doc: dict) -> list[str]:
    """The names of a glTF's first skin's joints, in order (rigport writes one skin, its
    joints in the file's order)."""
    nodes = doc.get("nodes", [])
    skins = doc.get("skins") or [{}]
    return [str(nodes[j].get("name", f"node{j}")) for j in skins[0].get("joints", [])]


def is_animation_only(summary: dict) -> bool:
    """Whether a file holds an animation and no mesh (an .md5anim, an animation .smd or
    .iqm): imported onto the selected armature."""
    if summary.get("format") in formats.ANIMATION_ONLY:
        return True
    return not summary.get("triangles") and bool(summary.get("animations"))


def file_comment(doc: dict) -> str:
    """The model comment rigport keeps in a glTF's `asset.extras` (empty: none)."""
    extras = (doc.get("asset") or {}).get("extras") or {}
    comment = extras.get("comment") if isinstance(extras, dict) else None
    return comment if isinstance(comment, str) else ""


def mesh_node_names(doc: dict) -> list[str]:
    """The names of a glTF's nodes that show a mesh, in its scene's order (depth first, as
    rigport reads a glTF's meshes)."""
    nodes = doc.get("nodes", [])
    scenes = doc.get("scenes") or [{}]
    names: list[str] = []
    todo = list(reversed(scenes[int(doc.get("scene", 0))].get("nodes", [])))
    while todo:
        index = int(todo.pop())
        node = nodes[index]
        if "mesh" in node:
            names.append(str(node.get("name", f"node{index}")))
        todo.extend(reversed(node.get("children", [])))
    return names


def import_glb(context: bpy.types.Context, glb: str, quarter_turns: bool) -> list[bpy.types.Object]:
    """Runs Blender's glTF importer on `glb`, its bones drawn toward their children
    (`bone_display`, in quarter turns where asked); returns the objects it created."""
    compat.patch_numpy_bool()
    before = set(bpy.data.objects)
    options: dict[str, object] = {}
    known = bpy.ops.import_scene.gltf.get_rna_type().properties.keys()
    if "disable_bone_shape" in known:
        # Blender 4.2+ would give every bone a custom shape object; keep Blender's own.
        options["disable_bone_shape"] = True
    # Blender's glTF importers disagree on `fps_base` (3.x ignores it, 4.x multiplies by
    # it): import at the whole rate, and `retime_actions` moves the keys to the true one.
    render = context.scene.render
    base, render.fps_base = render.fps_base, 1.0
    try:
        with bone_display.drawn_toward_children(quarter_turns) as turned:
            if turned and "bone_heuristic" in known:
                # Any heuristic but BLENDER has the importer use the turns picked.
                options["bone_heuristic"] = "TEMPERANCE"
            result = bpy.ops.import_scene.gltf(filepath=glb, **options)
    except RuntimeError as err:
        raise cli.RigportError(f"Blender's glTF importer failed: {err}") from err
    finally:
        render.fps_base = base
    if "FINISHED" not in result:
        raise cli.RigportError(f"Blender's glTF importer did not finish: {sorted(result)}")
    made = [o for o in bpy.data.objects if o not in before]
    return tidy_bone_shapes(made)


#: The custom property on an imported armature saying whether its bones were turned in
#: quarter turns (`bone_display`), so animations imported onto it later are turned alike.
QUARTER_TURNS = "rigport_quarter_turns"


def tidy_bone_shapes(objects: list[bpy.types.Object]) -> list[bpy.types.Object]:
    """Removes the custom bone shape objects a glTF importer made (none where it was told
    not to); returns the other objects."""
    shapes = {
        bone.custom_shape
        for obj in objects
        if obj.type == "ARMATURE"
        for bone in obj.pose.bones
        if bone.custom_shape is not None and bone.custom_shape in objects
    }
    for obj in objects:
        if obj.type == "ARMATURE":
            for bone in obj.pose.bones:
                if bone.custom_shape in shapes:
                    bone.custom_shape = None
    for shape in shapes:
        data = shape.data
        bpy.data.objects.remove(shape)
        if data is not None and data.users == 0:
            bpy.data.meshes.remove(data)
    return [o for o in objects if o not in shapes]


def triangle_count(objects: list[bpy.types.Object]) -> int:
    """Triangles of the imported meshes (an n-gon counts n - 2)."""
    return sum(
        sum(len(p.vertices) - 2 for p in o.data.polygons) for o in objects if o.type == "MESH"
    )


def split_faces(glb: str) -> int:
    """Gives the .glb's triangles Blender cannot keep vertices of their own
    (`glb_faces.split`); 0 where the glb cannot be read here."""
    try:
        return glb_faces.split(glb)
    except (OSError, ValueError, KeyError, IndexError, TypeError, struct.error):
        return 0


def count_faces(glb: str) -> Optional[faces.FaceCounts]:
    """The .glb's triangles that Blender cannot keep, or None when the glb cannot be read here."""
    try:
        return faces.count(glb)
    except (OSError, ValueError, KeyError, IndexError, TypeError, struct.error):
        return None


def report_dropped_faces(
    report: reporting.Reporter, expected: object, counts: Optional[faces.FaceCounts], objects: list
) -> None:
    """Says when Blender holds fewer triangles than rigport read, and why.

    Blender's meshes cannot hold a face that uses one vertex twice (its glTF importer drops
    it) nor a second face on the same set of vertices (merged into the face it repeats); the
    user should know both counts, since the source file keeps those triangles.
    """
    if not isinstance(expected, int):
        return
    held = triangle_count(objects)
    dropped = expected - held
    if dropped <= 0:
        return
    if counts is not None and counts.degenerate + counts.repeated == dropped:
        if counts.repeated:
            report(
                {"WARNING"},
                f"Blender merged {counts.repeated} of {expected} triangles into an earlier face "
                "on the same vertices (a face repeating another's vertex set); the source file keeps them",
            )
        if counts.degenerate:
            report(
                {"WARNING"},
                f"Blender dropped {counts.degenerate} of {expected} triangles that use one vertex twice "
                "(degenerate); the source file keeps them",
            )
        return
    report(
        {"WARNING"},
        f"Blender dropped {dropped} of {expected} triangles "
        "(degenerate, or repeating another face on the same vertices); the source file keeps them",
    )


def set_scene_fps(report: reporting.Reporter, scene: bpy.types.Scene, fps: Optional[float]) -> None:
    """Sets the scene's frame rate to `fps` (the file's first animation), when there is one.

    Blender keeps a whole `fps` and a divisor `fps_base`; a fractional rate (30.1034) is
    the nearest whole rate over a matching base, so `fps / fps_base` is the file's rate.
    """
    if fps is None:
        return
    render = scene.render
    whole = max(1, int(round(fps)))
    base = whole / fps
    if abs(render.fps / render.fps_base - fps) <= 1e-6 * fps:
        return
    render.fps = whole
    render.fps_base = base
    report({"INFO"}, f"scene frame rate set to the file's {fps:g} fps")


def actions_of(objects: list[bpy.types.Object]) -> set:
    """Every action the objects use: active, or stashed on an NLA track."""
    return key_state.actions_in(objects, shape_keys=False)


#: How far off a whole frame (in frames) an imported key may be and still be put on it.
SNAP_FRAMES = 1e-3


def action_rates(objects: list[bpy.types.Object], extras: dict[str, dict]) -> dict:
    """The frame rate of each imported action's animation, where its `extras` (by the
    animation's name: the NLA track the importer stashed it on) give one."""
    rates = {}
    for obj in objects:
        data = obj.animation_data
        if data is None:
            continue
        for track in data.nla_tracks:
            fps = (extras.get(track.name) or {}).get("fps")
            if not isinstance(fps, (int, float)) or not math.isfinite(fps) or fps <= 0:
                continue
            for strip in track.strips:
                if strip.action is not None:
                    rates[strip.action] = float(fps)
    return rates


def retime_actions(scene: bpy.types.Scene, objects: list[bpy.types.Object], rates: Optional[dict] = None) -> None:
    """Puts each imported animation's frame k on Blender's frame k, at its own rate, and its
    keys on whole frames where they are within SNAP_FRAMES of one.

    Blender's glTF importer turns seconds into frames at `render.fps` alone, ignoring
    `fps_base`; at a fractional rate (the file's 30.1034 as 30 / 0.99656) the file's frame k
    would land on frame 0.99656 k. Scaling every key's frame (and handle) by the
    animation's rate over `render.fps` (`rates`, by action; the scene's true rate,
    1 / fps_base, for an action without one) puts it back on frame k. An animation whose
    rate is not the scene's (a 60 fps one in a file whose first is 30 fps) so keeps every
    frame, and plays at the scene's rate in Blender; the export writes it at its own
    (`glb_times`). The stashed NLA strips are made again to span their actions' new ranges.
    """
    scene_factor = 1.0 / scene.render.fps_base
    actions = actions_of(objects)
    rates = rates or {}
    for action in actions:
        rate = rates.get(action)
        factor = rate / scene.render.fps if rate else scene_factor
        for curve in compat.action_fcurves(action):
            for point in curve.keyframe_points:
                scaled = point.co.x * factor
                # glTF times are 32-bit: the file's frame 29 arrives as 28.99999, and
                # Blender's exporter cuts an action's range to whole frames, so a key a hair
                # off a whole frame is put on it.
                whole = float(round(scaled))
                shift = whole - scaled if abs(whole - scaled) <= SNAP_FRAMES else 0.0
                point.co.x = scaled + shift
                point.handle_left.x = point.handle_left.x * factor + shift
                point.handle_right.x = point.handle_right.x * factor + shift
            curve.update()
    for obj in objects:
        data = obj.animation_data
        if data is None:
            continue
        for track in data.nla_tracks:
            locked, track.lock = track.lock, False
            for strip in list(track.strips):
                if strip.action not in actions:
                    continue
                name, start, action = strip.name, strip.frame_start, strip.action
                slot = compat.strip_slot(strip)
                track.strips.remove(strip)
                compat.set_strip_slot(track.strips.new(name, int(round(start)), action), slot)
            track.lock = locked


def fit_scene_range(context: bpy.types.Context, actions: list[bpy.types.Action]) -> None:
    """Widens the scene's frame range to cover every imported action (an IQE or IQM
    animation's first frame is Blender's frame 0, a MilkShape file's frame 1)."""
    if not actions:
        return
    start = min(int(math.floor(a.frame_range[0])) for a in actions)
    end = max(int(math.ceil(a.frame_range[1])) for a in actions)
    scene = context.scene
    if start < scene.frame_start:
        scene.frame_start = max(0, start)
    if end > scene.frame_end:
        scene.frame_end = end
