"""rigport.render_views: the orbit `rigport render --orbit N --keypoints` writes, as numpy
arrays with the command's numbers."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

import rigport

from conftest import FIXTURES, need_cli, png_pixels, run_cli

RIG = FIXTURES / "ms3d" / "rig_full.ms3d"


def test_render_views_shapes_and_projection() -> None:
    views = rigport.render_views(RIG, 3, width=40, height=30, camera_convention="opengl")
    joints = len(rigport.read(RIG).joints)
    assert views.images.shape == (3, 30, 40, 4) and views.images.dtype == np.uint8
    assert views.depth.shape == (3, 30, 40) and views.depth.dtype == np.float32
    assert views.mask.shape == (3, 30, 40) and views.mask.dtype == np.uint8
    assert views.camera_to_world.shape == (3, 4, 4)
    assert views.file_paths == ["view_00.png", "view_01.png", "view_02.png"]
    assert views.joints_world is not None and views.joints_world.shape == (3, joints, 3)
    assert views.joints_pixel is not None and views.joints_pixel.shape == (3, joints, 2)
    assert views.joints_depth is not None and views.joints_depth.shape == (3, joints)
    visibility = views.joints_visibility
    assert visibility is not None and visibility.dtype == np.int8
    assert set(np.unique(visibility)) <= {0, 1, 2}
    assert len(views.joint_names) == len(views.joint_parents) == joints
    assert ((views.depth > 0) <= (views.mask > 0)).all()
    k = views.intrinsics
    assert (k["w"], k["h"]) == (40, 30)
    # u = cx + fl_x x / (-z), v = cy - fl_y y / (-z) in OpenGL camera axes.
    for v in range(3):
        world_to_camera = np.linalg.inv(views.camera_to_world[v])
        points = np.c_[views.joints_world[v], np.ones(joints)] @ world_to_camera.T
        u = k["cx"] + k["fl_x"] * points[:, 0] / -points[:, 2]
        w = k["cy"] - k["fl_y"] * points[:, 1] / -points[:, 2]
        np.testing.assert_allclose(np.c_[u, w], views.joints_pixel[v], rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(-points[:, 2], views.joints_depth[v], rtol=1e-6)
    opencv = rigport.render_views(RIG, 3, width=40, height=30, camera_convention="opencv")
    flip = np.diag([1.0, -1.0, -1.0, 1.0])
    np.testing.assert_array_equal(opencv.camera_to_world, views.camera_to_world @ flip)
    np.testing.assert_array_equal(opencv.images, views.images)
    none = rigport.render_views(RIG, 2, width=16, height=16, keypoints=False)
    assert none.joints_world is None and none.joints_visibility is None
    with pytest.raises(ValueError):
        rigport.render_views(RIG, 2, camera_convention="directx")


def cli_orbit(tmp_path: Path, *flags: str) -> Path:
    """The command's folder for a copy of the rig in `tmp_path/in` (textures not copied: the
    arrays are drawn from that copy too)."""
    inputs = tmp_path / "in"
    inputs.mkdir()
    shutil.copy(RIG, inputs / RIG.name)
    out = tmp_path / "out"
    done = run_cli("render", str(inputs), "-o", str(out), "--keypoints", *flags)
    assert done.returncode == 0, done.stderr
    return out / RIG.stem


def assert_same_as_files(views: rigport.Views, folder: Path) -> None:
    transforms = json.loads((folder / "transforms.json").read_text())
    keypoints = json.loads((folder / "keypoints.json").read_text())
    frames = transforms["frames"]
    assert views.file_paths == [f["file_path"] for f in frames]
    lead = views.images.shape[:-3]
    images = views.images.reshape(-1, *views.images.shape[-3:])
    depth = views.depth.reshape(-1, *views.depth.shape[-2:])
    mask = views.mask.reshape(-1, *views.mask.shape[-2:])
    matrices = views.camera_to_world.reshape(-1, 4, 4)
    for i, frame in enumerate(frames):
        width, height, channels, pixels = png_pixels((folder / frame["file_path"]).read_bytes())
        assert (width, height) == (images.shape[2], images.shape[1])
        # An opaque picture is written as RGB: its alpha is 255 everywhere.
        assert images[i][..., :channels].tobytes() == pixels, frame["file_path"]
        assert channels == 4 or (images[i][..., 3] == 255).all()
        _, _, _, coverage = png_pixels((folder / frame["mask_path"]).read_bytes())
        assert mask[i].tobytes() == coverage
        np.testing.assert_array_equal(depth[i], np.load(folder / frame["depth_file_path"]))
        np.testing.assert_array_equal(matrices[i], np.array(frame["transform_matrix"]))
    for key in ("fl_x", "fl_y", "cx", "cy", "w", "h"):
        assert views.intrinsics[key] == transforms[key]
    assert views.joint_names == [j["name"] for j in keypoints["joints"]]
    assert views.joint_parents == [j["parent"] for j in keypoints["joints"]]
    assert views.joints_world is not None and views.joints_pixel is not None
    assert views.joints_depth is not None and views.joints_visibility is not None
    world = views.joints_world.reshape(-1, *views.joints_world.shape[-2:])
    pixel = views.joints_pixel.reshape(-1, *views.joints_pixel.shape[-2:])
    along = views.joints_depth.reshape(-1, views.joints_depth.shape[-1])
    seen = views.joints_visibility.reshape(-1, views.joints_visibility.shape[-1])
    flags = {"visible": 2, "occluded": 1, "outside": 0}
    assert len(keypoints["frames"]) == world.shape[0] == int(np.prod(lead))
    for i, frame in enumerate(keypoints["frames"]):
        assert frame["file_path"] == views.file_paths[i]
        points = frame["keypoints"]
        np.testing.assert_allclose(world[i], [p["world"] for p in points], rtol=1e-15)
        np.testing.assert_allclose(pixel[i], [p["pixel"] for p in points], rtol=1e-15)
        np.testing.assert_allclose(along[i], [p["depth"] for p in points], rtol=1e-15)
        assert seen[i].tolist() == [flags[p["visibility"]] for p in points]


def test_render_views_equals_the_cli_files(tmp_path: Path) -> None:
    need_cli()
    folder = cli_orbit(
        tmp_path,
        *("--orbit", "4", "--size", "48x32", "--passes", "mask", "--depth-format", "npy"),
        *("--camera-convention", "opencv"),
    )
    copy = tmp_path / "in" / RIG.name
    views = rigport.render_views(copy, 4, width=48, height=32, camera_convention="opencv")
    assert views.images.shape == (4, 32, 48, 4)
    assert_same_as_files(views, folder)


def test_render_views_of_random_cameras_over_an_animation_equal_the_cli_files(
    tmp_path: Path,
) -> None:
    need_cli()
    folder = cli_orbit(
        tmp_path,
        *("--orbit", "random:2", "--seed", "7", "--animate", "--frames", "3"),
        *("--size", "40x40", "--passes", "mask", "--depth-format", "npy"),
    )
    copy = tmp_path / "in" / RIG.name
    views = rigport.render_views(copy, 2, width=40, height=40, seed=7, frames=3)
    assert views.images.shape == (3, 2, 40, 40, 4)
    assert views.joints_visibility is not None
    assert views.joints_visibility.shape[:2] == (3, 2)
    assert views.times.shape == (3,)
    assert_same_as_files(views, folder)
