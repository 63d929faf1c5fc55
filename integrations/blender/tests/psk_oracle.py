"""rigport's PSK/PSA poses against an outside importer: DarklightGames' io_scene_psk_psa.

Run in the Python of the `bpy` 5.x module (the add-on declares Blender 5.0 or later):

    RIGPORT_PSK_ADDON=/path/to/io_scene_psk_psa target/blender-venvs/bpy5/bin/python \\
        integrations/blender/tests/psk_oracle.py

RIGPORT_PSK_ADDON is a checkout of https://github.com/DarklightGames/io_scene_psk_psa (its
root, or the `io_scene_psk_psa` package folder in it with `blender_manifest.toml`). The add-on
(GPL-3.0) is only run, never shipped: the script puts its folder on `sys.path`, unpacks the
`psk_psa_py` wheel it bundles into a temporary folder and calls its `register()`, then
drives it through its own operators with their default options, as a user would
(`bpy.ops.psk.import_file(components='ALL')`, `bpy.ops.psa.import_all`). RIGPORT_CORPUS
names the real-file corpus (default `../shared/corpus` beside the repository), RIGPORT_BIN
the rigport command (default `target/release/rigport`, else `target/debug/rigport`). The
script skips, exiting 0, when RIGPORT_PSK_ADDON is unset, `bpy` cannot be imported, or the
corpus or the rigport command is missing.

Cases. Every `.psk`/`.pskx` in the corpus's `psk/` folder alone (the rest pose), and every
pairing of a mesh with a `.psa` of that folder. The pairs are chosen by bones, the way the
corpus's MANIFEST.tsv describes them ("pairs with ..."): a PSA goes with a PSK when more
than half of the PSA's bone names (trailing spaces trimmed, case ignored, as both readers
compare them) are bones of the PSK. In the corpus that gives `pyffi_examplemesh.psk` with
`pyffi_pendulum.psa` (3 of 3 names) and `dlg_Grunt_Preview_LOD0.psk` with
`dlg_grunt_hh_grabplayer_crouch_SEQ0.psa` (72 of 89); no other PSA shares more than one name
with a PSK.

Blender's side. The add-on makes one mesh vertex per PSK point, in point order, parented to
an armature with an Armature modifier; the PSA's first sequence becomes an action whose
frame i is the sequence's frame i. The mesh is evaluated through the depsgraph (world-space
vertex positions, `matrix_world` applied) at the rest pose (no action), then with the action
at every whole frame from 0 to N - 1 (120 spread over it when it is longer). Whole frames only:
Blender interpolates the quaternion curves component-wise between keys, rigport slerps, so
they agree exactly only on the keys. io_scene_psk_psa keeps PSK numbers unchanged (Z-up;
import scale 1.0, PSA translation scale 1.0, the defaults) and its bone-orientation
handling (edit bones built from the file's rotations, keys converted to pose-space by its
`_calculate_fcurve_data`) changes how bones are drawn, not where the skinned vertices land,
so nothing has to be undone for it.

rigport's side. `rigport convert X.psk out.glb --anims-beside`, run on a temporary folder
holding only the PSK and its paired PSA (`--with-anims` refuses a PSA that animates bones
the mesh lacks; `--anims-beside` keeps the shared bones, as `specs/psk.md` §5.1 says). The .glb
is skinned here by a minimal numpy glTF reader that shares no code with rigport (node TRS,
sampler keys, LINEAR/STEP/CUBICSPLINE, `inverseBindMatrices`, JOINTS_0/WEIGHTS_0), at the
rest pose (the nodes' own TRS) and at the animation's i-th key time. rigport turns Z-up into
glTF's Y-up with `(x, y, z) -> (x, z, -y)`, so its positions are turned back with
`(x, y, z) -> (x, -z, y)`; it keeps Unreal units, as the add-on does.

Matching. Each glTF vertex comes from a PSK wedge, but rigport may reorder the wedges and
split them where smoothing groups give a point several normals. When the .glb's vertices, in
order, are the PSK's wedges (same count, rest positions equal to their points'), vertex i is
compared with Blender's vertex `wedge[i].point` ("wedge order"). Otherwise each glTF vertex is matched at
the rest pose to the Blender vertex at the same place (ties broken by the closer skin
weights) and that pairing is kept for every frame ("rest match"); a vertex with no Blender
vertex within 1e-4 of the model's size falls back to the nearest Blender vertex at every frame
("nearest"). The error is the largest distance between paired vertices over the compared
frames, divided by the diagonal of Blender's rest-pose bounding box; the target is 2e-3.

Measured (bpy 5.3.0 from PyPI, io_scene_psk_psa 9.1.2 at 9dcdc23b, the corpus's 6 PSKs and
2 PSAs); "motion" is the largest distance a vertex moves from the rest pose in Blender, both
columns relative to the model's size:

    file                                                     frames             match        motion  max error
    dlg_Bat.psk                                              rest               rest match   0       1.97e-07
    dlg_Grunt_Preview_LOD0.psk                               rest               rest match   0       1.68e-07
    dlg_MAXIM_TURRET_EXT.psk                                 rest               rest match   0       6.16e-08
    dlg_Slurp_Monster_Axe_LOD0.psk                           rest               rest match   0       8.43e-09
    dlg_Suzanne.psk                                          rest               rest match   0       5.10e-08
    pyffi_examplemesh.psk                                    rest               wedge order  0       1.21e-07
    dlg_Grunt_Preview_LOD0.psk + ..._crouch_SEQ0.psa         rest + 101 frames  rest match   0.503   8.39e-06
    pyffi_examplemesh.psk + pyffi_pendulum.psa               rest + 20 frames   wedge order  0.341   5.24e-07

Every case agrees at float precision, far inside 2e-3, so there is no disagreement to settle:
both follow `specs/psk.md` §3.2 (the root's stored quaternion as its rotation, every other
bone's conjugated, keys like bones), leave the mesh's bones that the PSA lacks at rest (§5.1),
and normalise weights that do not sum to 1 (Grunt's). Shifting rigport's times by one frame
makes both animated cases fail (errors near 0.1), so the check does see the poses. Not
covered by this corpus: scale keys other than 1 (Grunt's SCALEKEYS are all 1), zero
quaternions in keys (none occur), and positions between keys.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any, Optional

import numpy as np

#: Allowed distance, relative to the diagonal of the rest pose's bounding box.
TOLERANCE = 2e-3

#: Whole frames compared per animation at most (all of them when it has no more; else spread over it).
FRAMES = 120

#: Two rest positions closer than this fraction of the model's size are the same place.
SAME_PLACE = 1e-4

ROOT = Path(__file__).resolve().parents[3]


def skip(reason: str) -> int:
    print(f"psk oracle: skipped: {reason}")
    return 0


# --- PSK/PSA sections, read here (not by rigport) for bone names, points and wedges -------


def sections(path: Path) -> dict[str, tuple[int, int, bytes]]:
    """The file's sections by name: (record size, record count, body)."""
    data = path.read_bytes()
    found: dict[str, tuple[int, int, bytes]] = {}
    offset = 0
    while offset + 32 <= len(data):
        name = data[offset : offset + 20].split(b"\0", 1)[0].decode("latin-1")
        _flag, size, count = struct.unpack_from("<iii", data, offset + 20)
        body = data[offset + 32 : offset + 32 + max(size, 0) * max(count, 0)]
        found.setdefault(name, (size, count, body))
        offset += 32 + len(body)
    return found


def bone_names(path: Path) -> list[str]:
    """Bone names of a PSK (REFSKELT) or PSA (BONENAMES), trailing spaces trimmed."""
    found = sections(path)
    size, count, body = found.get("REFSKELT") or found.get("BONENAMES") or (120, 0, b"")
    names = []
    for i in range(count):
        raw = body[i * size : i * size + 64].split(b"\0", 1)[0]
        names.append(raw.decode("windows-1252").rstrip(" "))
    return names


def points_and_wedges(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """PSK points (N×3) and each wedge's point index (16 bits while there are ≤ 65536 points)."""
    found = sections(path)
    _size, count, body = found["PNTS0000"]
    points = np.frombuffer(body, dtype="<f4", count=count * 3).reshape(-1, 3).astype(np.float64)
    wsize, wcount, wbody = found["VTXW0000"]
    raw = np.frombuffer(wbody, dtype="<u4", count=wcount * wsize // 4).reshape(wcount, wsize // 4)[:, 0]
    wedge_points = raw & 0xFFFF if count <= 65536 else raw
    return points, wedge_points.astype(np.int64)


def fits(psk: Path, psa: Path) -> bool:
    """A PSA pairs with a PSK when more than half of its bone names are the PSK's."""
    mesh = {n.lower() for n in bone_names(psk)}
    anim = [n.lower() for n in bone_names(psa)]
    return len(anim) > 0 and 2 * sum(n in mesh for n in anim) > len(anim)


# --- glTF: a minimal reader and skinning, independent of rigport ---------------------------

COMPONENTS = {5120: "i1", 5121: "u1", 5122: "<i2", 5123: "<u2", 5125: "<u4", 5126: "<f4"}
WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}


class Gltf:
    def __init__(self, path: Path) -> None:
        data = path.read_bytes()
        length = struct.unpack_from("<I", data, 12)[0]
        self.json: dict[str, Any] = json.loads(data[20 : 20 + length])
        self.bin = data[20 + length + 8 :]

    def accessor(self, index: int) -> np.ndarray:
        acc = self.json["accessors"][index]
        view = self.json["bufferViews"][acc["bufferView"]]
        dtype = np.dtype(COMPONENTS[acc["componentType"]])
        width = WIDTH[acc["type"]]
        start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        stride = view.get("byteStride", 0) or dtype.itemsize * width
        if stride == dtype.itemsize * width:
            flat = np.frombuffer(self.bin, dtype=dtype, count=width * acc["count"], offset=start)
        else:
            flat = np.concatenate(
                [np.frombuffer(self.bin, dtype=dtype, count=width, offset=start + i * stride) for i in range(acc["count"])]
            )
        out = flat.reshape(acc["count"], width).astype(np.float64)
        if acc.get("normalized"):
            out /= float(np.iinfo(dtype).max)
        return out

    def frame_times(self, animation: int) -> list[float]:
        """The key times of an animation (the union over its samplers)."""
        times: set[float] = set()
        for sampler in self.json["animations"][animation]["samplers"]:
            times.update(float(t) for t in self.accessor(sampler["input"])[:, 0])
        return sorted(times)

    def local_trs(self, animation: Optional[int], time: float) -> list[list[np.ndarray]]:
        """Each node's [translation, rotation (x,y,z,w), scale], animated at `time`."""
        trs = []
        for node in self.json["nodes"]:
            if "matrix" in node:
                raise ValueError("node matrices are not handled by this reader")
            trs.append(
                [
                    np.array(node.get("translation", [0, 0, 0]), dtype=np.float64),
                    np.array(node.get("rotation", [0, 0, 0, 1]), dtype=np.float64),
                    np.array(node.get("scale", [1, 1, 1]), dtype=np.float64),
                ]
            )
        if animation is None:
            return trs
        anim = self.json["animations"][animation]
        slot = {"translation": 0, "rotation": 1, "scale": 2}
        for channel in anim["channels"]:
            path = channel["target"].get("path")
            if path not in slot:
                continue
            sampler = anim["samplers"][channel["sampler"]]
            trs[channel["target"]["node"]][slot[path]] = sample(
                self.accessor(sampler["input"])[:, 0],
                self.accessor(sampler["output"]),
                sampler.get("interpolation", "LINEAR"),
                time,
                path == "rotation",
            )
        return trs

    def skinned(self, animation: Optional[int], time: float) -> np.ndarray:
        """Skinned world positions of every mesh node's vertices (glTF's axes), in node order."""
        nodes = self.json["nodes"]
        trs = self.local_trs(animation, time)
        world: dict[int, np.ndarray] = {}

        def walk(index: int, parent: np.ndarray) -> None:
            t, r, s = trs[index]
            world[index] = parent @ compose(t, r, s)
            for child in nodes[index].get("children", []):
                walk(child, world[index])

        scene = self.json["scenes"][self.json.get("scene", 0)]
        for root in scene["nodes"]:
            walk(root, np.eye(4))
        out = []
        for index, node in enumerate(nodes):
            if "mesh" not in node or index not in world:
                continue
            skin = self.json["skins"][node["skin"]] if "skin" in node else None
            for primitive in self.json["meshes"][node["mesh"]]["primitives"]:
                attrs = primitive["attributes"]
                positions = self.accessor(attrs["POSITION"])
                homogeneous = np.hstack([positions, np.ones((len(positions), 1))])
                if skin is None:
                    out.append((homogeneous @ world[index].T)[:, :3])
                    continue
                joints = skin["joints"]
                ibm = (
                    self.accessor(skin["inverseBindMatrices"]).reshape(-1, 4, 4).transpose(0, 2, 1)
                    if "inverseBindMatrices" in skin
                    else np.broadcast_to(np.eye(4), (len(joints), 4, 4))
                )
                palette = np.stack([world[j] @ ibm[k] for k, j in enumerate(joints)])
                result = np.zeros((len(positions), 3))
                total = np.zeros(len(positions))
                set_index = 0
                while f"JOINTS_{set_index}" in attrs:
                    which = self.accessor(attrs[f"JOINTS_{set_index}"]).astype(np.int64)
                    weights = self.accessor(attrs[f"WEIGHTS_{set_index}"])
                    for lane in range(which.shape[1]):
                        moved = np.einsum("nij,nj->ni", palette[which[:, lane]], homogeneous)[:, :3]
                        result += weights[:, lane : lane + 1] * moved
                        total += weights[:, lane]
                    set_index += 1
                out.append(result / np.where(total > 0, total, 1.0)[:, None])
        return np.vstack(out)

    def skin_weights(self) -> list[dict[str, float]]:
        """Each vertex's weights by joint name (vertex order as in `skinned`)."""
        nodes = self.json["nodes"]
        out: list[dict[str, float]] = []
        for node in nodes:
            if "mesh" not in node:
                continue
            skin = self.json["skins"][node["skin"]] if "skin" in node else None
            for primitive in self.json["meshes"][node["mesh"]]["primitives"]:
                attrs = primitive["attributes"]
                count = self.json["accessors"][attrs["POSITION"]]["count"]
                rows: list[dict[str, float]] = [{} for _ in range(count)]
                set_index = 0
                while skin is not None and f"JOINTS_{set_index}" in attrs:
                    which = self.accessor(attrs[f"JOINTS_{set_index}"]).astype(np.int64)
                    weights = self.accessor(attrs[f"WEIGHTS_{set_index}"])
                    for v in range(count):
                        for lane in range(which.shape[1]):
                            if weights[v, lane] > 0:
                                name = nodes[skin["joints"][which[v, lane]]].get("name", "")
                                rows[v][name] = rows[v].get(name, 0.0) + float(weights[v, lane])
                    set_index += 1
                out += [normalised(r) for r in rows]
        return out


def normalised(weights: dict[str, float]) -> dict[str, float]:
    total = sum(weights.values())
    return {k.lower(): v / total for k, v in weights.items()} if total > 0 else {}


def sample(times: np.ndarray, values: np.ndarray, interpolation: str, t: float, rotation: bool) -> np.ndarray:
    if interpolation == "CUBICSPLINE":
        values = values.reshape(len(times), 3, -1)[:, 1]
    if t <= times[0]:
        return values[0]
    if t >= times[-1]:
        return values[-1]
    k = int(np.searchsorted(times, t, side="right")) - 1
    if times[k] == t or interpolation == "STEP":
        return values[k]
    f = (t - times[k]) / (times[k + 1] - times[k])
    a, b = values[k], values[k + 1]
    if not rotation:
        return a + (b - a) * f
    if np.dot(a, b) < 0:
        b = -b
    q = a * (1 - f) + b * f if np.dot(a, b) > 0.9995 else slerp(a, b, f)
    return q / np.linalg.norm(q)


def slerp(a: np.ndarray, b: np.ndarray, f: float) -> np.ndarray:
    angle = np.arccos(np.clip(np.dot(a, b), -1.0, 1.0))
    return (np.sin((1 - f) * angle) * a + np.sin(f * angle) * b) / np.sin(angle)


def compose(t: np.ndarray, r: np.ndarray, s: np.ndarray) -> np.ndarray:
    x, y, z, w = r / (np.linalg.norm(r) or 1.0)
    rot = np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )
    m = np.eye(4)
    m[:3, :3] = rot * s[None, :]
    m[:3, 3] = t
    return m


def y_up_to_z_up(p: np.ndarray) -> np.ndarray:
    """Undo rigport's Z-up -> Y-up turn (x, y, z) -> (x, z, -y)."""
    return np.stack([p[:, 0], -p[:, 2], p[:, 1]], axis=1)


def nearest(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each row of `a`, the index of and distance to the nearest row of `b`."""
    index = np.zeros(len(a), dtype=np.int64)
    dist = np.zeros(len(a))
    for start in range(0, len(a), 512):
        chunk = a[start : start + 512]
        d = np.linalg.norm(chunk[:, None, :] - b[None, :, :], axis=2)
        index[start : start + 512] = d.argmin(axis=1)
        dist[start : start + 512] = d.min(axis=1)
    return index, dist


# --- Blender side ---------------------------------------------------------------------------


def load_addon(addon: Path) -> str:
    """Registers io_scene_psk_psa from its source folder; returns its version."""
    package = addon if (addon / "blender_manifest.toml").is_file() else addon / "io_scene_psk_psa"
    if not (package / "blender_manifest.toml").is_file():
        raise FileNotFoundError(f"no io_scene_psk_psa package with a blender_manifest.toml in {addon}")
    wheels = tempfile.mkdtemp(prefix="psk-oracle-wheels-")
    for wheel in glob.glob(str(package / "wheels" / "*.whl")):
        zipfile.ZipFile(wheel).extractall(wheels)
    sys.path[:0] = [wheels, str(package.parent)]
    import io_scene_psk_psa  # type: ignore[import-not-found]

    io_scene_psk_psa.register()
    manifest = (package / "blender_manifest.toml").read_text()
    version = next((line.split("=", 1)[1].strip().strip('"') for line in manifest.splitlines() if line.startswith("version")), "?")
    return version


def blender_case(bpy: Any, psk: Path, psa: Optional[Path]) -> tuple[list[np.ndarray], list[dict[str, float]], list[str]]:
    """Blender's world positions per compared frame (rest first), its vertex weights, frame labels."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    if bpy.ops.psk.import_file(filepath=str(psk), components="ALL") != {"FINISHED"}:
        raise RuntimeError(f"io_scene_psk_psa did not import {psk.name}")
    armature = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
    mesh = next(o for o in bpy.context.scene.objects if o.type == "MESH")
    groups = {g.index: g.name for g in mesh.vertex_groups}
    weights = [normalised({groups[g.group]: g.weight for g in v.groups}) for v in mesh.data.vertices]

    def evaluate() -> np.ndarray:
        depsgraph = bpy.context.evaluated_depsgraph_get()
        evaluated = mesh.evaluated_get(depsgraph)
        data = evaluated.to_mesh()
        co = np.zeros(len(data.vertices) * 3)
        data.vertices.foreach_get("co", co)
        matrix = np.array(evaluated.matrix_world)
        evaluated.to_mesh_clear()
        return (np.hstack([co.reshape(-1, 3), np.ones((len(co) // 3, 1))]) @ matrix.T)[:, :3]

    frames = [evaluate()]
    labels = ["rest"]
    if psa is not None:
        bpy.context.view_layer.objects.active = armature
        armature.select_set(True)
        if bpy.ops.psa.import_all(filepath=str(psa)) != {"FINISHED"}:
            raise RuntimeError(f"io_scene_psk_psa did not import {psa.name}")
        action = bpy.data.actions[0]
        data = armature.animation_data or armature.animation_data_create()
        data.action = action
        if hasattr(data, "action_slot") and len(action.slots) > 0:
            data.action_slot = action.slots[0]
        count = max(int(round(fc.range()[1])) for fc in action_fcurves(action)) + 1
        for frame in sorted({round(i * (count - 1) / (FRAMES - 1)) for i in range(FRAMES)} if count > FRAMES else range(count)):
            bpy.context.scene.frame_set(frame)
            frames.append(evaluate())
            labels.append(str(frame))
    return frames, weights, labels


def action_fcurves(action: Any) -> list[Any]:
    """F-curves of a (slotted, Blender 4.4+) action."""
    curves = []
    for layer in action.layers:
        for strip in layer.strips:
            for bag in strip.channelbags:
                curves += list(bag.fcurves)
    return curves


# --- rigport side ---------------------------------------------------------------------------


def rigport_case(
    rigport: str, psk: Path, psa: Optional[Path], frames: list[str], work: Path
) -> tuple[list[np.ndarray], list[dict[str, float]]]:
    """rigport's skinned positions (PSK's Z-up) at the same frames, and its vertex weights."""
    folder = Path(tempfile.mkdtemp(dir=work))
    shutil.copy(psk, folder / psk.name)
    if psa is not None:
        shutil.copy(psa, folder / psa.name)
    out = folder / "out.glb"
    subprocess.run(
        [rigport, "convert", str(folder / psk.name), str(out), "--anims-beside", "--force", "-q"],
        check=True,
    )
    gltf = Gltf(out)
    positions = [y_up_to_z_up(gltf.skinned(None, 0.0))]
    if psa is not None:
        if not gltf.json.get("animations"):
            raise RuntimeError(f"rigport attached no animation from {psa.name}")
        times = gltf.frame_times(0)
        for label in frames[1:]:
            positions.append(y_up_to_z_up(gltf.skinned(0, times[int(label)])))
    return positions, gltf.skin_weights()


# --- comparison -------------------------------------------------------------------------------


def pairing(
    psk: Path, rest_g: np.ndarray, rest_b: np.ndarray, weights_g: list[dict[str, float]], weights_b: list[dict[str, float]], size: float
) -> tuple[str, np.ndarray]:
    """Blender vertex per glTF vertex (-1: nearest at every frame), and how it was found."""
    points, wedge_points = points_and_wedges(psk)
    if len(wedge_points) == len(rest_g) and len(points) == len(rest_b):
        if np.all(np.linalg.norm(rest_g - points[wedge_points], axis=1) <= SAME_PLACE * size):
            return "wedge order", wedge_points
    index, dist = nearest(rest_g, rest_b)
    out = np.where(dist <= SAME_PLACE * size, index, -1)
    for i in np.nonzero(out >= 0)[0]:
        close = np.nonzero(np.linalg.norm(rest_b - rest_g[i], axis=1) <= SAME_PLACE * size)[0]
        if len(close) > 1:
            out[i] = min(close, key=lambda j: weight_distance(weights_g[i], weights_b[j]))
    return ("rest match" if np.all(out >= 0) else "nearest"), out


def weight_distance(a: dict[str, float], b: dict[str, float]) -> float:
    return sum(abs(a.get(k, 0.0) - b.get(k, 0.0)) for k in set(a) | set(b))


def compare(frames_g: list[np.ndarray], frames_b: list[np.ndarray], pair: np.ndarray) -> float:
    worst = 0.0
    for g, b in zip(frames_g, frames_b):
        paired = pair >= 0
        if paired.any():
            worst = max(worst, float(np.linalg.norm(g[paired] - b[pair[paired]], axis=1).max()))
        if (~paired).any():
            worst = max(worst, float(nearest(g[~paired], b)[1].max()))
    return worst


def main() -> int:
    addon = os.environ.get("RIGPORT_PSK_ADDON")
    if not addon:
        return skip("RIGPORT_PSK_ADDON is not set (a checkout of DarklightGames/io_scene_psk_psa)")
    corpus = Path(os.environ.get("RIGPORT_CORPUS") or ROOT.parent / "shared" / "corpus")
    if not (corpus / "psk").is_dir():
        return skip(f"no psk/ folder in the corpus {corpus}")
    rigport = os.environ.get("RIGPORT_BIN") or next(
        (str(p) for p in (ROOT / "target/release/rigport", ROOT / "target/debug/rigport") if p.is_file()), ""
    )
    if not rigport:
        return skip("no rigport command (RIGPORT_BIN, target/release/rigport, target/debug/rigport)")
    work = Path(tempfile.mkdtemp(prefix="psk-oracle-"))
    # Blender reads its user folders from HOME when bpy is first imported.
    os.environ["HOME"] = str(work)
    try:
        import bpy
    except ImportError:
        return skip("the bpy module is not installed in this Python")
    if bpy.app.version < (5, 0, 0):
        return skip(f"io_scene_psk_psa needs Blender 5.0 or later; this bpy is {bpy.app.version_string}")
    version = load_addon(Path(addon))
    print(f"psk oracle: bpy {bpy.app.version_string}, io_scene_psk_psa {version}, rigport {rigport}, corpus {corpus}")

    meshes = sorted(p for p in (corpus / "psk").iterdir() if p.suffix.lower() in (".psk", ".pskx"))
    anims = sorted(p for p in (corpus / "psk").iterdir() if p.suffix.lower() == ".psa")
    cases: list[tuple[Path, Optional[Path]]] = [(m, None) for m in meshes]
    cases += [(m, a) for m in meshes for a in anims if fits(m, a)]

    rows = []
    failed = 0
    for psk, psa in cases:
        name = psk.name + (f" + {psa.name}" if psa else "")
        try:
            frames_b, weights_b, labels = blender_case(bpy, psk, psa)
            frames_g, weights_g = rigport_case(rigport, psk, psa, labels, work)
            rest_b = frames_b[0]
            size = float(np.linalg.norm(rest_b.max(axis=0) - rest_b.min(axis=0))) or 1.0
            how, pair = pairing(psk, frames_g[0], rest_b, weights_g, weights_b, size)
            error = compare(frames_g, frames_b, pair) / size
            motion = max(float(np.linalg.norm(f - rest_b, axis=1).max()) for f in frames_b) / size
        except Exception as e:  # one bad case is reported, the rest still run
            failed += 1
            rows.append((name, "-", "-", "-", f"error: {e}"))
            continue
        ok = error <= TOLERANCE
        failed += not ok
        frames = "rest" + (f" + {len(labels) - 1} ({labels[1]}..{labels[-1]})" if len(labels) > 1 else "")
        rows.append((name, frames, how, f"{motion:.3f}", f"{error:.2e}" + ("" if ok else "  DISAGREE")))

    width = max(len(r[0]) for r in rows)
    print(f"{'file':<{width}}  {'frames':<20}  {'match':<11}  {'motion':<6}  max error / size")
    for r in rows:
        print(f"{r[0]:<{width}}  {r[1]:<20}  {r[2]:<11}  {r[3]:<6}  {r[4]}")
    print("(motion: the largest distance a vertex moves from the rest pose in Blender, / size)")
    print(f"psk oracle: {len(rows) - failed} agree, {failed} disagree (tolerance {TOLERANCE:g} of the model's size)")
    shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
