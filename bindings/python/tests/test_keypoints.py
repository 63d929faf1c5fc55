"""`rigport render --orbit N --keypoints`: annotations.json loads with pycocotools and says
what each model's keypoints.json says."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
INPUTS = ["ms3d/rig_full.ms3d", "iqe/blends.iqe", "ms3d-ascii/lf_skinned_quad.txt"]


def test_annotations_load_with_pycocotools(tmp_path: Path) -> None:
    binary = os.environ.get("RIGPORT_BIN")
    if not binary:
        pytest.skip("RIGPORT_BIN not set: the keypoints run skipped")
    coco_module = pytest.importorskip(
        "pycocotools.coco", reason="pycocotools not installed: the COCO check skipped"
    )
    inputs = tmp_path / "in"
    inputs.mkdir()
    for name in INPUTS:
        source = REPO / "fixtures" / name
        (inputs / source.name).write_bytes(source.read_bytes())
    out = tmp_path / "out"
    run = subprocess.run(
        [binary, "render", str(inputs), "-o", str(out), "--orbit", "4", "--keypoints"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr

    coco = coco_module.COCO(str(out / "annotations.json"))
    images = coco.getImgIds()
    assert len(images) == 4 * len(INPUTS)
    for image in coco.loadImgs(images):
        folder, file_name = image["file_name"].split("/")
        assert (out / folder / file_name).is_file()
        keypoints = json.loads((out / folder / "keypoints.json").read_text())
        frame = next(f for f in keypoints["frames"] if f["file_path"] == file_name)
        (annotation,) = coco.loadAnns(coco.getAnnIds(imgIds=[image["id"]]))
        (category,) = coco.loadCats([annotation["category_id"]])
        assert category["keypoints"] == [j["name"] for j in keypoints["joints"]]
        joints = keypoints["joints"]
        bones = [[j["parent"] + 1, i + 1] for i, j in enumerate(joints) if j["parent"] is not None]
        assert category["skeleton"] == bones
        flags = {"visible": 2, "occluded": 1, "outside": 0}
        triples = annotation["keypoints"]
        assert len(triples) == 3 * len(frame["keypoints"])
        for k, point in enumerate(frame["keypoints"]):
            x, y, v = triples[3 * k : 3 * k + 3]
            assert v == flags[point["visibility"]]
            if v > 0:
                assert abs(x - (point["pixel"][0] - 0.5)) < 1e-9
                assert abs(y - (point["pixel"][1] - 0.5)) < 1e-9
        assert annotation["num_keypoints"] == sum(1 for t in triples[2::3] if t > 0)
        x, y, w, h = annotation["bbox"]
        if annotation["area"] == 0:
            # A flat model seen edge-on covers no pixel.
            assert [x, y, w, h] == [0, 0, 0, 0]
        else:
            assert w > 0 and h > 0 and x >= 0 and x + w <= image["width"]
            assert y >= 0 and y + h <= image["height"]
            assert annotation["area"] <= w * h
        assert annotation["iscrowd"] == 0
