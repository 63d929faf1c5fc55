"""Runs in the `bpy` module's Python (Blender as a module, from PyPI), one process per batch:

    python extension_check.py ZIP RESULT.json WORKDIR FILE...

Installs the extension zip into a throwaway HOME with
`bpy.ops.extensions.package_install_files` (no network: the wheel is inside), checks that
no `rigport`, `cargo` or `rustc` is on PATH, then per FILE, from an empty scene:

* import: Blender's triangles are rigport's (those that use one vertex twice or repeat
  another's vertices given vertices of their own; in a mesh with morph targets, less
  them), one bone per joint, one
  action per animation (an `.md5mesh` with the `.md5anim` files beside it that fit);
* fps: the scene's frame rate is the first animation's;
* shape keys: one per morph target, with animated values where the file animates weights;
* pose: the evaluated meshes (shape keys applied) at the first, second, middle and last frame of the first
  animation (the bind pose without one) equal rigport's posed vertices (`Model.pose`,
  what `rigport convert --time T --anim 0` writes to OBJ), Y-up turned to Z-up, within
  1e-3 of the model's size;
* textures: no image points into a temporary folder;
* export: exporting to the same format writes a file rigport reads with Blender's
  triangle count MD5 and SMD with one animation file
  beside it per action.

After the files, the add-on's own behaviour: the formats it offers are those
`rigport.formats()` reports, an animation-only file lands on the selected armature as one
more action, and a file rigport refuses leaves the scene as it was with rigport's message.
Writes {"blender": version, "results": [{"file", "checks": [...]}]}.
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import shutil
import sys
import tempfile
import traceback
from typing import Any, Callable, Optional

ZIP, RESULT, WORK, *FILES = (os.path.abspath(a) for a in sys.argv[1:])
HOME = tempfile.mkdtemp(prefix="home-", dir=WORK)
# Blender reads its user folders from HOME when bpy is first imported.
os.environ["HOME"] = HOME

import bpy  # noqa: E402
import numpy  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import round_trip  # noqa: E402

#: Allowed posed distance, relative to the posed model's bounding-box diagonal.
POSE_TOLERANCE = 1e-3

#: The joint rigport's glTF adds for skinned vertices bound to no joint; not a model joint.
SYNTHETIC_BONE = "rigport_unbound"

#: Export extension per format key.
EXPORT_EXTENSION = {
    "ms3d": ".ms3d",
    "ms3d-ascii": ".txt",
    "iqe": ".iqe",
    "iqm": ".iqm",
    "glb": ".glb",
    "gltf": ".gltf",
    "md5mesh": ".md5mesh",
    "md5anim": ".md5anim",
    "smd": ".smd",
    "psk": ".psk",
    "psa": ".psa",
    "b3d": ".b3d",
}

#: Formats written with one animation file beside the main one per animation.
BESIDE_EXTENSION = {".md5mesh": ".md5anim", ".smd": ".smd"}

#: Formats written with one animation file beside the main one holding every animation.
BESIDE_ALL = {".psk": ".psa"}


def check(name: str, ok: bool, detail: str) -> dict:
    return {"check": name, "status": "pass" if ok else "fail", "detail": detail}


def skip(name: str, detail: str) -> dict:
    return {"check": name, "status": "skip", "detail": detail}


def empty_scene() -> None:
    """An empty scene that keeps the installed extension (factory settings would drop it)."""
    bpy.ops.wm.read_homefile(use_empty=True)


def install() -> Any:
    """Installs and enables the zip; returns the `rigport` module its wheel brought."""
    result = bpy.ops.extensions.package_install_files(
        filepath=ZIP, repo="user_default", enable_on_install=True
    )
    assert "FINISHED" in result, result
    assert "bl_ext.user_default.rigport_io" in bpy.context.preferences.addons.keys()
    import rigport

    assert rigport.__file__.startswith(HOME), f"rigport came from {rigport.__file__}, not the extension"
    return rigport


def mesh_objects() -> list:
    return [o for o in bpy.data.objects if o.type == "MESH"]


def blender_triangles() -> int:
    return sum(sum(len(p.vertices) - 2 for p in o.data.polygons) for o in mesh_objects())


def held_triangles(model: Any) -> tuple:
    """(triangles, the ones Blender's meshes hold): every one, since the import gives those
    that use a vertex twice or repeat another's vertices vertices of their own
    (`glb_faces`), but in a mesh with morph targets (not split), where Blender holds no
    vertex used twice and no second face on the same three vertices."""
    total = held = 0
    for mesh in model.meshes:
        seen: set = set()
        for tri in mesh.triangles.tolist():
            total += 1
            key = frozenset(tri)
            if mesh.morph_targets and (len(key) < 3 or key in seen):
                continue
            seen.add(key)
            held += 1
    return total, held


def animated() -> list:
    """The animation data of every object and of every mesh's shape keys (where glTF's
    morph-target weights land)."""
    out = [o.animation_data for o in bpy.data.objects if o.animation_data is not None]
    for obj in mesh_objects():
        keys = obj.data.shape_keys
        if keys is not None and keys.animation_data is not None:
            out.append(keys.animation_data)
    return out


def actions() -> list:
    """Distinct actions on the objects' (and shape keys') NLA strips or active."""
    found: list = []
    for data in animated():
        for candidate in [data.action] + [s.action for t in data.nla_tracks for s in t.strips]:
            if candidate is not None and candidate not in found:
                found.append(candidate)
    return found


def blender_points() -> numpy.ndarray:
    """World positions of the vertices a polygon of the evaluated meshes uses."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    points = []
    for obj in mesh_objects():
        evaluated = obj.evaluated_get(depsgraph)
        mesh = evaluated.to_mesh()
        used = sorted({i for p in mesh.polygons for i in p.vertices})
        matrix = evaluated.matrix_world
        points += [tuple(matrix @ mesh.vertices[i].co) for i in used]
        evaluated.to_mesh_clear()
    return numpy.asarray(points, dtype=numpy.float64).reshape(-1, 3)


def rigport_points(model: Any, time: Optional[float]) -> numpy.ndarray:
    """rigport's posed vertices that a triangle Blender holds uses (`held_triangles`), in
    Blender's Z-up."""
    posed = model.pose(0, time) if time is not None else [at_rest(m) for m in model.meshes]
    points = []
    for mesh, positions in zip(model.meshes, posed):
        split = not mesh.morph_targets
        used = sorted({i for t in mesh.triangles.tolist() if split or len(set(t)) == 3 for i in t})
        points.append(numpy.asarray(positions, dtype=numpy.float64)[used])
    array = numpy.concatenate(points) if points else numpy.zeros((0, 3))
    if model.up_axis == "y":
        array = numpy.stack([array[:, 0], -array[:, 2], array[:, 1]], axis=1)
    return array


def at_rest(mesh: Any) -> numpy.ndarray:
    """A mesh's positions moved by its morph targets' default weights (what a viewer shows)."""
    positions = numpy.asarray(mesh.positions, dtype=numpy.float64).copy()
    for offsets, weight in zip(mesh.morph_targets.values(), mesh.default_weights):
        positions += float(weight) * numpy.asarray(offsets, dtype=numpy.float64)
    return positions


def shape_key_check(model: Any, info: dict) -> dict:
    """One shape key per morph target, animated where a weight track drives it."""
    targets = sum(len(m.morph_targets) for m in model.meshes)
    if targets == 0:
        return skip("shape keys", "no morph targets")
    keys, animated = 0, 0
    for obj in mesh_objects():
        shape_keys = obj.data.shape_keys
        if shape_keys is None:
            continue
        keys += len(shape_keys.key_blocks) - 1  # less the basis
        action = shape_keys.animation_data.action if shape_keys.animation_data else None
        if action is not None:
            animated += len({f.data_path for f in fcurves_of(action) if f.data_path.startswith("key_blocks")})
    tracks = int(info.get("weight_tracks", 0))
    ok = keys == targets and (animated > 0) == (tracks > 0)
    return check("shape keys", ok, f"{keys} shape keys for {targets} morph targets; {animated} animated, {tracks} weight tracks")


def fcurves_of(action: Any) -> list:
    """An action's F-curves: its own (Blender 4.x), or those of its layered channelbags (5.x)."""
    if hasattr(action, "fcurves") and len(action.fcurves):
        return list(action.fcurves)
    out = []
    for layer in getattr(action, "layers", []):
        for strip in layer.strips:
            for bag in getattr(strip, "channelbags", []):
                out += list(bag.fcurves)
    return out


def pose_check(model: Any) -> dict:
    """Blender's evaluated meshes against rigport's pose at a few frames of animation 0."""
    if not model.meshes or not mesh_objects():
        return skip("pose", "no meshes")
    scene = bpy.context.scene
    fps = scene.render.fps / scene.render.fps_base
    frames: list = [None]
    if model.animations:
        active = [d.action for d in animated() if d.action]
        if not active:
            return check("pose", False, "no active action for the first animation")
        first = min(int(round(a.frame_range[0])) for a in active)
        last = max(int(round(a.frame_range[1])) for a in active)
        frames = sorted({first, min(first + 1, last), (first + last) // 2, last})
    worst, at, size = 0.0, None, 0.0
    for frame in frames:
        time = None
        if frame is not None:
            scene.frame_set(frame)
            time = frame / fps
        expected = rigport_points(model, time)
        actual = blender_points()
        if len(expected) == 0 or len(actual) == 0:
            return check("pose", len(expected) == len(actual), f"{len(actual)} points in Blender, {len(expected)} in rigport")
        size = float(numpy.linalg.norm(expected.max(axis=0) - expected.min(axis=0)))
        error = max(round_trip.farthest_nearest(expected, actual), round_trip.farthest_nearest(actual, expected))
        relative = error / size if size > 0 else error
        if at is None or relative > worst:
            worst, at = relative, frame
    what = "bind pose" if frames == [None] else f"frames {frames} at {fps:g} fps, worst {at}"
    return check("pose", worst <= POSE_TOLERANCE, f"{what}: error {worst:.2e} of size {size:.4g}")


def texture_check() -> dict:
    """No image the import made points into a temporary folder."""
    temp = os.path.realpath(tempfile.gettempdir())
    bad = []
    for image in bpy.data.images:
        if image.packed_file is not None or not image.filepath:
            continue
        path = os.path.realpath(bpy.path.abspath(image.filepath))
        if path.startswith(temp) and not path.startswith(os.path.realpath(WORK)):
            bad.append(path)
    packed = sum(1 for i in bpy.data.images if i.packed_file is not None)
    linked = sum(1 for i in bpy.data.images if i.packed_file is None and i.filepath)
    return check("textures", not bad, f"{packed} packed, {linked} linked" + (f"; in a temporary folder: {bad[:2]}" if bad else ""))


#: Formats whose written animations are files beside the main one, read back with it.
READ_BESIDE = {"md5mesh", "psk", "smd"}

#: What a round trip through Blender may not keep yet, per format, measured on the corpus in
#: Blender 4.5 and 5.x (see round_trip.py): none today. Any property that differs fails the
#: check; a known gap gets an entry here, with the reason beside it.
ROUND_TRIP_GAPS: dict[str, set[str]] = {}


def round_trip_check(rigport: Any, fmt: str, source: Any, target: str) -> dict:
    """The file exported straight back, compared with the source (round_trip.compare)."""
    written = rigport.read(target, anims_beside=fmt in READ_BESIDE)
    compared = round_trip.compare(source, written)
    allowed = ROUND_TRIP_GAPS.get(fmt, set())
    failed = [name for name, (held, _) in compared.items() if not held and name not in allowed]
    kept = [name for name, (held, _) in compared.items() if held]
    differed = "; ".join(f"{name}: {detail}" for name, (held, detail) in compared.items() if not held)
    detail = f"kept {', '.join(kept) or 'nothing'}" + (f"; differs: {differed}" if differed else "")
    return check("round trip", not failed, detail)


def export_check(rigport: Any, fmt: str, stem: str, in_blender: int, action_count: int, source: Any = None) -> list:
    """Exports to the source's format and reads the file back with rigport; with the
    source's model, also what the round trip kept."""
    extension = EXPORT_EXTENSION[fmt]
    folder = tempfile.mkdtemp(prefix="export-", dir=WORK)
    target = os.path.join(folder, stem + extension)
    try:
        result = bpy.ops.export_scene.rigport(filepath=target)
    except RuntimeError as err:
        return [check("export", False, f"{extension}: {str(err).strip()[:200]}")]
    if "FINISHED" not in result:
        return [check("export", False, f"{extension}: {sorted(result)}")]
    written = rigport.info(target)
    ok = written.get("triangles") == in_blender
    detail = f"{extension}: {written.get('triangles')} triangles read back, {in_blender} in Blender"
    if extension in BESIDE_EXTENSION or extension in BESIDE_ALL:
        companion = BESIDE_EXTENSION.get(extension) or BESIDE_ALL[extension]
        beside = [n for n in os.listdir(folder) if n != os.path.basename(target) and n.endswith(companion)]
        wanted = action_count if extension in BESIDE_EXTENSION else min(action_count, 1)
        if extension == ".smd" and in_blender == 0 and action_count == 1:
            wanted = 0  # an animation alone is written as the main file, as it is read
        ok = ok and len(beside) == wanted
        detail += f"; {len(beside)} animation files beside it for {action_count} actions"
    checks = [check("export", ok, detail)]
    if source is not None:
        try:
            checks.append(round_trip_check(rigport, fmt, source, target))
        except Exception as err:  # noqa: BLE001 - a file rigport cannot read back is this check's failure
            checks.append(check("round trip", False, f"{type(err).__name__}: {str(err)[:200]}"))
    shutil.rmtree(folder, ignore_errors=True)
    return checks


def run_file(rigport: Any, source: str) -> dict:
    """Every check of one corpus file."""
    empty_scene()
    result: dict = {"file": source, "checks": []}
    try:
        info = rigport.info(source)
    except rigport.RigportError as err:
        before = (len(bpy.data.objects), len(bpy.data.actions), bpy.context.scene.render.fps)
        try:
            bpy.ops.import_scene.rigport(filepath=source)
            refused = False
        except RuntimeError as refusal:
            refused = str(err).splitlines()[0][:40] in str(refusal) or "rigport" in str(refusal)
        after = (len(bpy.data.objects), len(bpy.data.actions), bpy.context.scene.render.fps)
        result["checks"].append(check("refused", refused and before == after, f"rigport: {str(err)[:100]}"))
        return result
    fmt = info["format"]
    # The formats whose animations live in files beside the model: read with them, as the
    # import does by default.
    beside = fmt in ("md5mesh", "psk")
    model = rigport.read(source, anims_beside=True) if beside else rigport.read(source)
    bpy.ops.import_scene.rigport(filepath=source)
    total, held = held_triangles(model)
    triangles = blender_triangles()
    bones = sum(sum(b.name != SYNTHETIC_BONE for b in o.data.bones) for o in bpy.data.objects if o.type == "ARMATURE")
    found = actions()
    ok = (triangles, bones, len(found)) == (held, len(model.joints), len(model.animations))
    result["counts"] = {
        "triangles": [triangles, total],
        "bones": [bones, len(model.joints)],
        "actions": [len(found), len(model.animations)],
    }
    result["checks"].append(
        check(
            "import",
            ok,
            f"triangles {triangles} of {total} ({total - held} Blender cannot hold); bones {bones}/{len(model.joints)}; "
            f"actions {len(found)}/{len(model.animations)}",
        )
    )
    if model.animations:
        render = bpy.context.scene.render
        got = render.fps / render.fps_base
        want = model.animations[0].fps
        result["checks"].append(check("fps", abs(got - want) <= 1e-4 * want, f"scene {got:g}, file {want:g}"))
    result["checks"].append(shape_key_check(model, info))
    result["checks"].append(pose_check(model))
    result["checks"].append(texture_check())
    bpy.context.scene.frame_set(bpy.context.scene.frame_start)
    stem = os.path.splitext(os.path.basename(source))[0]
    result["checks"] += export_check(rigport, fmt, stem, triangles, len(found), model)
    return result


def behaviour(rigport: Any) -> list:
    """The add-on's own behaviour, not a corpus file."""
    checks = []

    def run(name: str, body: Callable[[], str]) -> None:
        try:
            checks.append(check(name, True, body()))
        except Exception:  # noqa: BLE001 - any failure is this check's failure
            checks.append(check(name, False, traceback.format_exc()[-400:]))

    def nothing_on_path() -> str:
        found = {tool: shutil.which(tool) for tool in ("rigport", "cargo", "rustc")}
        assert not any(found.values()), found
        return "no rigport, cargo or rustc on PATH"

    def formats_agree() -> str:
        addon = sys.modules["bl_ext.user_default.rigport_io"]
        table = {f.key: f for f in addon.formats.FORMATS}
        reported = rigport.formats()
        assert set(table) == set(reported), (sorted(table), sorted(reported))
        for key, entry in reported.items():
            mine = table[key]
            assert mine.extension == "." + entry["extension"], (key, mine.extension)
            assert (mine.reads, mine.writes) == (entry["reads"], entry["writes"]), key
        readable = [f for f in addon.formats.FORMATS if f.reads]
        # Blender drops an extension's `bl_info`: read the legacy add-on's from the source.
        folder = os.path.dirname(str(addon.__file__))
        with open(os.path.join(folder, "__init__.py"), encoding="utf-8") as text:
            tree = ast.parse(text.read())
        info = next(n.value for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "bl_info")  # type: ignore[attr-defined]
        description = ast.literal_eval(info)["description"]
        glob = bpy.ops.import_scene.rigport.get_rna_type().properties["filter_glob"].default
        for entry in readable:
            assert "*" + entry.extension in glob.split(";"), (entry.extension, glob)
            assert entry.family in addon.MENU_LABEL, (entry.family, addon.MENU_LABEL)
            assert entry.family in description, (entry.family, description)
        with open(os.path.join(folder, "blender_manifest.toml"), encoding="utf-8") as text:
            manifest = text.read()
        tagline = next(line for line in manifest.splitlines() if line.startswith("tagline"))
        for family in addon.formats.families(readable):
            assert family in tagline, (family, tagline)
        return f"{len(reported)} formats as rigport.formats() reports them; menus and manifest name them"

    def drop_handler() -> str:
        handler = bpy.types.FileHandler.bl_rna_get_subclass_py("IO_FH_rigport")
        assert handler is not None, "no IO_FH_rigport file handler"
        return f"drag and drop: {handler.bl_file_extensions}"

    corpus = os.path.dirname(os.path.dirname(FILES[0])) if FILES else ""

    def animation_onto_armature() -> str:
        """An animation-only file of each kind onto the armature of the model it animates."""
        pairs = (
            ("md5/unv_blaster_view.md5mesh", "md5/unv_blaster_view_fire.md5anim"),
            ("smd/mapbase_door01_left_reference.smd", "smd/mapbase_door01_left_open.smd"),
            ("iqm/redeclipse_cyber_tail_mesh.iqm", "iqm/redeclipse_cyber_tail_anim1.iqm"),
        )
        done = []
        for mesh, anim in pairs:
            mesh, anim = os.path.join(corpus, mesh), os.path.join(corpus, anim)
            if not (os.path.isfile(mesh) and os.path.isfile(anim)):
                continue
            empty_scene()
            bpy.ops.import_scene.rigport(filepath=mesh, anims_beside=False)
            own = actions()
            armature = next(o for o in bpy.data.objects if o.type == "ARMATURE")
            for obj in bpy.data.objects:
                obj.select_set(obj is armature)
            bpy.context.view_layer.objects.active = armature
            objects = len(bpy.data.objects)
            bpy.ops.import_scene.rigport(filepath=anim)
            got = [a for a in actions() if a not in own]
            assert len(got) == 1 and len(bpy.data.objects) == objects, ([a.name for a in got], len(bpy.data.objects), objects)
            assert armature.animation_data.action == got[0], armature.animation_data.action
            assert got[0].frame_range[1] > got[0].frame_range[0], got[0].frame_range
            stem = os.path.splitext(os.path.basename(anim))[0]
            assert got[0].name.endswith("|" + stem), got[0].name
            done.append(f"{os.path.basename(anim)} -> {got[0].name}")
        assert done, "no corpus pair here"
        return "; ".join(done)

    def written_in_place() -> str:
        """A model with the animation files beside it, imported and exported back to its
        own path, leaves the folder's file names as they were (companions overwritten, not
        added beside)."""
        groups = (
            ("psk/pyffi_examplemesh.psk", ["psk/pyffi_pendulum.psa"]),
            ("md5/unv_blaster_view.md5mesh", [f"md5/unv_blaster_view_{a}.md5anim" for a in ("fire", "idle", "raise")]),
        )
        done = []
        for model, companions in groups:
            files = [os.path.join(corpus, f) for f in [model, *companions]]
            if not all(os.path.isfile(f) for f in files):
                continue
            folder = tempfile.mkdtemp(prefix="in-place-", dir=WORK)
            for f in files:
                shutil.copy(f, folder)
            before = sorted(os.listdir(folder))
            target = os.path.join(folder, os.path.basename(model))
            empty_scene()
            bpy.ops.import_scene.rigport(filepath=target)
            animations = len(actions())
            result = bpy.ops.export_scene.rigport(filepath=target)
            assert "FINISHED" in result, result
            after = sorted(os.listdir(folder))
            assert after == before, (before, after)
            back = rigport.read(target, anims_beside=True)
            assert len(back.animations) == animations, (len(back.animations), animations)
            done.append(f"{', '.join(after)}: {animations} animations")
        assert done, "no corpus group here"
        return "; ".join(done)

    def keys_as_imported() -> str:
        """The export writes imported keys as they are only while every action is as the
        import made it: an edited key, or a constraint, makes it sample whole frames."""
        source = os.path.join(corpus, "ms3d-ascii", "scorched3d__none__meshes__arara__arara.txt")
        assert os.path.isfile(source), "no corpus file here"
        state = importlib.import_module("bl_ext.user_default.rigport_io.key_state")
        empty_scene()
        bpy.ops.import_scene.rigport(filepath=source)
        objects = list(bpy.data.objects)
        assert state.as_imported(objects), "just imported"
        armature = next(o for o in objects if o.type == "ARMATURE")
        constraint = armature.pose.bones[0].constraints.new("COPY_ROTATION")
        assert not state.as_imported(objects), "a bone constraint"
        armature.pose.bones[0].constraints.remove(constraint)
        assert state.as_imported(objects), "the constraint removed"
        action = armature.animation_data.action
        curve = next(iter(state.compat.action_fcurves(action)))
        curve.keyframe_points[0].co.y += 0.5
        assert not state.as_imported(objects), "a key moved"
        return "as imported; a bone constraint or a moved key: sampled"

    def refused_leaves_scene() -> str:
        empty_scene()
        bpy.ops.mesh.primitive_cube_add()
        bad = os.path.join(WORK, "bad.iqe")
        with open(bad, "w", encoding="utf-8") as out:
            out.write("# Inter-Quake Export\nmesh m\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 x\n")
        before = (sorted(o.name for o in bpy.data.objects), len(bpy.data.meshes), bpy.context.scene.render.fps)
        try:
            bpy.ops.import_scene.rigport(filepath=bad)
        except RuntimeError as err:
            message = str(err)
        else:
            raise AssertionError("a damaged file imported")
        after = (sorted(o.name for o in bpy.data.objects), len(bpy.data.meshes), bpy.context.scene.render.fps)
        assert before == after, (before, after)
        assert "bad.iqe" in message and ":" in message, message
        return "refused with rigport's message, scene unchanged: " + message.strip().splitlines()[0][:100]

    for name, body in (
        ("no_tools", nothing_on_path),
        ("formats", formats_agree),
        ("drop_handler", drop_handler),
        ("animation_onto_armature", animation_onto_armature),
        ("written_in_place", written_in_place),
        ("keys_as_imported", keys_as_imported),
        ("refused", refused_leaves_scene),
    ):
        run(name, body)
    return checks


def main() -> None:
    output: dict = {"blender": bpy.app.version_string, "results": []}
    try:
        rigport = install()
        empty_scene()
        for source in FILES:
            try:
                output["results"].append(run_file(rigport, source))
            except Exception:  # noqa: BLE001 - any failure is this file's failure
                output["results"].append({"file": source, "checks": [check("import", False, traceback.format_exc()[-500:])]})
        if not FILES or os.environ.get("RIGPORT_BEHAVIOUR") == "1":
            output["results"].append({"file": "(extension behaviour)", "checks": behaviour(rigport)})
    except Exception:  # noqa: BLE001
        output["results"].append({"file": "(install)", "checks": [check("install", False, traceback.format_exc()[-500:])]})
    with open(RESULT, "w", encoding="utf-8") as out:
        json.dump(output, out)


main()
