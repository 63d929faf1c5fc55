"""Reading models: arrays, skeletons, animations, poses and errors."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import rigport

from conftest import FIXTURES, corpus_root, need_corpus, run_cli

RIG = FIXTURES / "ms3d" / "rig_full.ms3d"


def check_model(model: rigport.Model) -> None:
    """Shapes, dtypes, index ranges and weights of every mesh."""
    assert model.up_axis in ("y", "z")
    for mesh in model.meshes:
        n = mesh.positions.shape[0]
        checks: list[tuple[npt.NDArray[Any], int, type[np.generic]]] = [
            (mesh.positions, 3, np.float32),
            (mesh.normals, 3, np.float32),
            (mesh.uvs, 2, np.float32),
            (mesh.joints, 4, np.uint16),
            (mesh.weights, 4, np.float32),
        ]
        for array, width, dtype in checks:
            assert array.shape == (n, width)
            assert array.dtype == dtype
        assert mesh.triangles.dtype == np.uint32
        assert mesh.triangles.ndim == 2 and mesh.triangles.shape[1] == 3
        if mesh.triangles.size:
            assert int(mesh.triangles.max()) < n
        if mesh.material is not None:
            assert 0 <= mesh.material < len(model.materials)
        sums = mesh.weights.sum(axis=1)
        skinned = (mesh.weights > 0).any(axis=1)
        np.testing.assert_allclose(sums[skinned], 1.0, atol=1e-4)
        assert not mesh.weights[~skinned].any()
        used = mesh.weights > 0
        if used.any():
            assert int(mesh.joints[used].max()) < len(model.joints)
    for index, joint in enumerate(model.joints):
        assert joint.parent is None or (
            0 <= joint.parent < len(model.joints) and joint.parent != index
        )
        assert joint.translation.shape == (3,) and joint.translation.dtype == np.float32
        assert joint.rotation.shape == (4,)
        assert joint.scale.shape == (3,)
    for animation in model.animations:
        assert animation.duration >= 0 and animation.frames >= 1


def test_fixture_reads_with_arrays_skeleton_and_animation() -> None:
    model = rigport.read(RIG)
    assert model.format == "ms3d"
    assert model.up_axis == "y"
    assert model.meshes and model.joints and model.animations
    check_model(model)
    info = rigport.info(RIG)
    assert len(model.joints) == info["joints"]
    assert len(model.animations) == info["animations"]
    assert sum(m.triangles.shape[0] for m in model.meshes) == info["triangles"]
    # Arrays belong to Python: writable copies that outlive the model.
    positions = model.meshes[0].positions
    del model
    positions[0, 0] += 1.0


def test_read_bytes_equals_read() -> None:
    a = rigport.read(RIG)
    b = rigport.read_bytes(RIG.read_bytes(), "rig_full.ms3d")
    assert a.format == b.format
    for x, y in zip(a.meshes, b.meshes):
        np.testing.assert_array_equal(x.positions, y.positions)
        np.testing.assert_array_equal(x.triangles, y.triangles)
    assert [j.name for j in a.joints] == [j.name for j in b.joints]


def test_z_up_formats_say_so() -> None:
    model = rigport.read(FIXTURES / "iqe" / "poses.iqe")
    assert model.format == "iqe"
    assert model.up_axis == "z"


def test_pose_is_the_posed_obj_of_the_cli(tmp_path: Path) -> None:
    model = rigport.read(RIG)
    animation = model.animations[0]
    time = animation.duration * 0.4
    posed = model.pose(0, time)
    assert [p.shape for p in posed] == [m.positions.shape for m in model.meshes]
    assert all(p.dtype == np.float32 for p in posed)
    assert any(not np.array_equal(p, m.positions) for p, m in zip(posed, model.meshes))
    by_name = model.pose(animation.name, time)
    for a, b in zip(posed, by_name):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(rigport.RigportError):
        model.pose(len(model.animations), 0.0)
    with pytest.raises(rigport.RigportError):
        model.pose("no such animation", 0.0)

    out = tmp_path / "posed.obj"
    done = run_cli("convert", str(RIG), str(out), "--anim", "0", "--time", repr(time))
    assert done.returncode == 0, done.stderr
    rows = [
        [np.float32(x) for x in line.split()[1:4]]
        for line in out.read_text().splitlines()
        if line.startswith("v ")
    ]
    np.testing.assert_array_equal(np.array(rows, dtype=np.float32), np.concatenate(posed))


def test_missing_file_is_file_not_found(tmp_path: Path) -> None:
    missing = tmp_path / "missing.ms3d"
    with pytest.raises(FileNotFoundError) as caught:
        rigport.read(missing)
    assert caught.value.filename == str(missing)
    with pytest.raises(FileNotFoundError):
        rigport.info(missing)
    with pytest.raises(FileNotFoundError):
        rigport.convert(missing, tmp_path / "x.glb")


def test_damaged_binary_names_its_offset(tmp_path: Path) -> None:
    data = RIG.read_bytes()
    cut = tmp_path / "cut.ms3d"
    cut.write_bytes(data[: len(data) // 3])
    with pytest.raises(rigport.RigportError) as caught:
        rigport.read(cut, strict=True)
    error = caught.value
    assert isinstance(error.offset, int) and 0 < error.offset <= len(data)
    assert error.line is None and error.column is None
    assert error.path == str(cut)
    assert str(error.offset) in str(error)
    with pytest.raises(rigport.RigportError) as truncated:
        rigport.read(FIXTURES / "gltf" / "fail_truncated.glb")
    assert truncated.value.offset is not None


def test_damaged_text_names_its_line_and_column() -> None:
    path = FIXTURES / "iqe" / "fail_bad_number.iqe"
    with pytest.raises(rigport.RigportError) as caught:
        rigport.read(path)
    error = caught.value
    assert error.offset is None
    assert isinstance(error.line, int) and error.line > 1
    assert isinstance(error.column, int) and error.column >= 1
    assert f"{error.line}:{error.column}" in str(error)
    # glTF's JSON is text too.
    with pytest.raises(rigport.RigportError) as json_error:
        rigport.read(FIXTURES / "gltf" / "fail_broken_json.gltf")
    assert json_error.value.line is not None


def test_unknown_content_and_missing_companion() -> None:
    with pytest.raises(rigport.RigportError) as caught:
        rigport.read_bytes(b"not a model at all", "junk.bin")
    assert caught.value.path == "junk.bin"
    assert caught.value.offset is None and caught.value.line is None
    with pytest.raises(rigport.RigportError) as missing:
        rigport.read(FIXTURES / "gltf" / "fail_missing_external.gltf")
    assert missing.value.path is not None


def test_external_gltf_finds_its_buffers_beside_it(tmp_path: Path) -> None:
    model = rigport.read(FIXTURES / "gltf" / "external.gltf")
    assert model.format == "gltf"
    check_model(model)
    # From bytes there is no folder to find them in.
    with pytest.raises(rigport.RigportError):
        rigport.read_bytes((FIXTURES / "gltf" / "external.gltf").read_bytes(), "external.gltf")
    # Texture references resolve beside the file.
    shutil.copytree(FIXTURES / "gltf", tmp_path / "g")
    textured = rigport.read(tmp_path / "g" / "external.gltf")
    files = [m.texture_file for m in textured.materials if m.texture_file]
    assert all(Path(f).is_file() for f in files)


def test_every_corpus_file_reads_like_the_cli() -> None:
    files = need_corpus()
    for path in files:
        try:
            info = rigport.info(path)
        except rigport.RigportError:
            with pytest.raises(rigport.RigportError):
                rigport.read(path)
            continue
        model = rigport.read(path)
        assert model.format == info["format"], path
        check_model(model)
        assert len(model.animations) == info["animations"], path
        if info["joints"] == 0 and model.animations:
            # An animation-only file (IQM, IQE) has no joints: the model holds placeholder
            # joints (joint0, joint1, ...) for its poses, matched by index when attached.
            assert all(j.name.startswith("joint") for j in model.joints), path
        else:
            assert len(model.joints) == info["joints"], path
        for index in range(len(model.animations)):
            posed = model.pose(index, model.animations[index].duration / 2)
            assert [p.shape for p in posed] == [m.positions.shape for m in model.meshes]
            assert all(np.isfinite(p).all() for p in posed), path


def test_md5_animations_beside_a_mesh_are_attached_when_asked() -> None:
    root = corpus_root()
    if root is None:
        pytest.skip("RIGPORT_CORPUS not set: the corpus tests skipped")
    mesh = root / "md5" / "unv_blaster_view.md5mesh"
    assert rigport.read(mesh).animations == []
    names = sorted(a.name for a in rigport.read(mesh, anims_beside=True).animations)
    # `unv_blaster_view_fire.md5anim` beside `unv_blaster_view.md5mesh` is `fire`.
    assert names == ["fire", "idle", "raise"]


def test_morph_targets_come_as_offsets_and_pose_moves_by_their_weights(tmp_path: Path) -> None:
    path = FIXTURES / "gltf" / "morph.glb"
    model = rigport.read(path)
    (mesh,) = [m for m in model.meshes if m.morph_targets]
    assert list(mesh.morph_targets) == ["target0"]
    offsets = mesh.morph_targets["target0"]
    assert offsets.shape == mesh.positions.shape and offsets.dtype == np.float32
    np.testing.assert_allclose(np.abs(offsets).max(), 0.5, rtol=1e-6)
    np.testing.assert_array_equal(mesh.default_weights, np.array([0.0], dtype=np.float32))
    others = [m for m in model.meshes if m is not mesh]
    assert all(not m.morph_targets and m.default_weights.shape == (0,) for m in others)

    summary = rigport.info(path)
    assert summary["morph_targets"] == 1 and summary["weight_tracks"] == 1
    assert summary["morph"]["weight_tracks"][0]["animation"] == "puff"

    # The weight reaches 1 at t = 1 s: the posed mesh is the CLI's posed OBJ, which is
    # checked against glTF's own math in the Rust tests.
    posed = model.pose("puff", 1.0)
    out = tmp_path / "posed.obj"
    done = run_cli("convert", str(path), str(out), "--anim", "puff", "--time", "1")
    assert done.returncode == 0, done.stderr
    lines = out.read_text().splitlines()
    rows = [[float(x) for x in line.split()[1:4]] for line in lines if line.startswith("v ")]
    np.testing.assert_allclose(np.array(rows, dtype=np.float32), np.concatenate(posed), atol=1e-5)
    # At 0 s the weight is 0 and the bar has not turned: the bind positions.
    rest = model.pose("puff", 0.0)
    for p, m in zip(rest, model.meshes):
        np.testing.assert_allclose(p, m.positions, atol=1e-5)
