"""`rigport render --orbit N --animate --keypoints` read as nerfstudio's `nerfstudio` dataparser
reads a dataset: intrinsics `fl_x`, `fl_y`, `cx`, `cy`, `w`, `h` (and `k1`...) at the top level,
per frame `file_path`, camera-to-world `transform_matrix` in OpenGL camera axes (looking down
-Z, +Y up), `depth_file_path` and `mask_path`, every path taken relative to the folder of
transforms.json. The joints of keypoints.json must land on their pixels through those cameras,
and the 16-bit depth pass must hold the surface in front of each visible joint."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Optional

import numpy as np
import pytest

from conftest import FIXTURES, need_cli, png_pixels, png_rows, run_cli

# A Y-up model whose four joints move (Milkshape 3D) and a Z-up one turned into the Y-up world
# (IQE), both animated.
INPUTS = ["ms3d/rig_full.ms3d", "iqe/crlf.iqe"]
VIEWS, FRAMES = 4, 3
# Not square, so that a swap of width and height or of fl_x and fl_y shows.
WIDTH, HEIGHT = 96, 64
# The camera models nerfstudio's CAMERA_MODEL_TO_TYPE knows.
CAMERA_MODELS = {
    "PERSPECTIVE",
    "SIMPLE_PINHOLE",
    "PINHOLE",
    "SIMPLE_RADIAL",
    "RADIAL",
    "OPENCV",
    "OPENCV_FISHEYE",
    "EQUIRECTANGULAR",
    "OMNIDIRECTIONALSTEREO_L",
    "OMNIDIRECTIONALSTEREO_R",
    "VR180_L",
    "VR180_R",
    "ORTHOPHOTO",
    "FISHEYE624",
}
# nerfstudio's dataparser does not read depth_unit_scale_factor from transforms.json: it takes
# the config's, 0.001 unless told (millimetres to metres). The fixtures are a few units across,
# so rigport's file must say the same step.
NERFSTUDIO_DEPTH_UNIT = 1e-3
# OpenCV camera axes from OpenGL ones: Y and Z turned round.
FLIP_YZ = np.diag([1.0, -1.0, -1.0, 1.0])


def png_grey16(data: bytes) -> np.ndarray[Any, np.dtype[np.float64]]:
    """A non-interlaced 16-bit grey PNG (as cv2.IMREAD_ANYDEPTH reads it), rows by columns."""
    width, height, channels, sample, rows = png_rows(data)
    assert (channels, sample) == (1, 2), "16-bit grey, not interlaced"
    values = np.frombuffer(rows, dtype=">u2").reshape(height, width)
    return values.astype(np.float64)


def render(out: Path, convention: Optional[str]) -> Path:
    inputs = out.parent / "in"
    inputs.mkdir(parents=True, exist_ok=True)
    for name in INPUTS:
        source = FIXTURES / name
        (inputs / source.name).write_bytes(source.read_bytes())
    args = [
        "render",
        str(inputs),
        "-o",
        str(out),
        "--orbit",
        str(VIEWS),
        "--animate",
        "--frames",
        str(FRAMES),
        "--keypoints",
        "--metadata",
        "--passes",
        "depth,mask",
        "--depth-format",
        "png16",
        "--size",
        f"{WIDTH}x{HEIGHT}",
        "-q",
    ]
    if convention is not None:
        args += ["--camera-convention", convention]
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr
    return out


def opengl_pose(meta: dict[str, Any], frame: dict[str, Any]) -> np.ndarray[Any, Any]:
    """The frame's camera-to-world matrix in OpenGL camera axes, as nerfstudio takes it."""
    pose = np.array(frame["transform_matrix"], dtype=np.float64)
    if meta.get("camera_convention") == "opencv":
        assert meta["transform"] == "camera_to_world"
        return pose @ FLIP_YZ
    return pose


def check_model(folder: Path, convention: Optional[str]) -> dict[str, np.ndarray[Any, Any]]:
    """Reads one model's folder as nerfstudio does; returns each picture's OpenGL pose."""
    meta = json.loads((folder / "transforms.json").read_text())
    data_dir = folder  # nerfstudio: the folder of transforms.json
    if convention == "opencv":
        assert meta["camera_convention"] == "opencv"
        assert meta["transform"] == "camera_to_world"
    else:
        assert meta.get("camera_convention", "opengl") == "opengl"

    # Intrinsics fixed at the top level (nerfstudio's fx_fixed ...), no distortion.
    for key in ("fl_x", "fl_y", "cx", "cy", "w", "h"):
        assert key in meta, key
    fx, fy = float(meta["fl_x"]), float(meta["fl_y"])
    cx, cy = float(meta["cx"]), float(meta["cy"])
    w, h = int(meta["w"]), int(meta["h"])
    assert (w, h) == (WIDTH, HEIGHT)
    assert meta.get("camera_model", "PERSPECTIVE") in CAMERA_MODELS
    for key in ("k1", "k2", "k3", "k4", "p1", "p2"):
        assert float(meta.get(key, 0.0)) == 0.0
    assert math.isclose(fx, 0.5 * w / math.tan(0.5 * meta["camera_angle_x"]), rel_tol=1e-9)
    assert math.isclose(fy, 0.5 * h / math.tan(0.5 * meta["camera_angle_y"]), rel_tol=1e-9)
    assert math.isclose(fx, fy, rel_tol=1e-9)  # square pixels
    assert meta["depth_unit_scale_factor"] == NERFSTUDIO_DEPTH_UNIT
    unit = NERFSTUDIO_DEPTH_UNIT

    frames = meta["frames"]
    assert len(frames) == VIEWS * FRAMES
    # nerfstudio wants a mask and a depth for every frame or for none.
    assert all("mask_path" in f and "depth_file_path" in f for f in frames)
    names = [f["file_path"] for f in frames]
    assert len(set(names)) == len(names)

    bounds = json.loads((folder / "metadata.json").read_text())["bounds"]
    size = float(np.linalg.norm(np.subtract(bounds["max"], bounds["min"])))
    assert size > 0
    # A visible joint is at most 5 % of the model's size behind the surface at its pixel; the
    # depth pass is quantised to the step and a pixel's depth can come from a neighbouring
    # sample on a slanted face, hence the slack.
    behind = 0.05 * size + 2 * unit + 0.02 * size

    keypoints = json.loads((folder / "keypoints.json").read_text())
    by_path = {f["file_path"]: f for f in keypoints["frames"]}
    assert set(by_path) == set(names)

    poses: dict[str, np.ndarray[Any, Any]] = {}
    projected = depth_checked = 0
    for frame in frames:
        image = data_dir / frame["file_path"]
        depth_file = data_dir / frame["depth_file_path"]
        mask_file = data_dir / frame["mask_path"]
        for path in (image, depth_file, mask_file):
            assert path.is_file(), path
        width, height, _, _ = png_pixels(image.read_bytes())
        assert (width, height) == (w, h)
        mask_w, mask_h, mask_channels, _ = png_pixels(mask_file.read_bytes())
        assert (mask_w, mask_h, mask_channels) == (w, h, 1)
        depth = png_grey16(depth_file.read_bytes()) * unit
        assert depth.shape == (h, w)

        # Rigid camera-to-world: orthonormal rotation, det +1, last row 0 0 0 1.
        pose = np.array(frame["transform_matrix"], dtype=np.float64)
        assert pose.shape == (4, 4)
        assert np.array_equal(pose[3], [0.0, 0.0, 0.0, 1.0])
        rotation = pose[:3, :3]
        assert np.allclose(rotation.T @ rotation, np.eye(3), atol=1e-9)
        assert math.isclose(float(np.linalg.det(rotation)), 1.0, abs_tol=1e-9)
        gl = opengl_pose(meta, frame)
        poses[frame["file_path"]] = gl
        world_to_camera = np.linalg.inv(gl)
        native_to_camera = np.linalg.inv(pose)

        for point in by_path[frame["file_path"]]["keypoints"]:
            world = np.array([*point["world"], 1.0])
            x, y, z, _ = world_to_camera @ world
            if point["visibility"] == "outside":
                continue
            assert z < 0, "in front of an OpenGL camera"
            u, v = cx + fx * x / -z, cy - fy * y / -z
            assert abs(u - point["pixel"][0]) <= 0.5 and abs(v - point["pixel"][1]) <= 0.5
            assert 0 <= u <= w and 0 <= v <= h
            assert math.isclose(-z, point["depth"], rel_tol=1e-6, abs_tol=1e-9)
            if convention == "opencv":
                # The file's own axes, read as COLMAP / OpenCV read them, give the same pixel.
                xc, yc, zc, _ = native_to_camera @ world
                assert zc > 0
                assert math.isclose(cx + fx * xc / zc, u, abs_tol=1e-6)
                assert math.isclose(cy + fy * yc / zc, v, abs_tol=1e-6)
            projected += 1
            if point["visibility"] != "visible":
                continue
            column, row = min(int(u), w - 1), min(int(v), h - 1)
            surface = depth[row, column]
            if surface == 0:
                continue  # visible beside the silhouette: no surface at the pixel
            # The surface drawn at a visible joint's pixel is not far in front of the joint.
            assert surface >= -z - behind, (frame["file_path"], point, surface)
            depth_checked += 1
    assert projected > 0 and depth_checked > 0
    return poses


@pytest.mark.parametrize("convention", [None, "opengl", "opencv"])
def test_orbit_reads_as_nerfstudio_dataset(tmp_path: Path, convention: Optional[str]) -> None:
    need_cli()
    out = render(tmp_path / "out", convention)
    for name in INPUTS:
        check_model(out / Path(name).stem, convention)


def test_conventions_give_the_same_cameras(tmp_path: Path) -> None:
    """The OpenCV matrices, turned back to OpenGL axes, are the default run's."""
    need_cli()
    opengl = render(tmp_path / "gl" / "out", None)
    opencv = render(tmp_path / "cv" / "out", "opencv")
    for name in INPUTS:
        gl_poses = check_model(opengl / Path(name).stem, None)
        cv_poses = check_model(opencv / Path(name).stem, "opencv")
        assert gl_poses.keys() == cv_poses.keys()
        for path, pose in gl_poses.items():
            assert np.allclose(pose, cv_poses[path], atol=1e-12)
        gl_keys = json.loads((opengl / Path(name).stem / "keypoints.json").read_text())
        cv_keys = json.loads((opencv / Path(name).stem / "keypoints.json").read_text())
        assert gl_keys == cv_keys
