"""rigport.distributed on a two-worker LocalCluster (threads of this process)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

import rigport

from conftest import FIXTURES, cli, run_cli, tree

distributed = pytest.importorskip("distributed")

from rigport.distributed import SkippedFilesWarning, convert_all, main, render_all  # noqa: E402

if TYPE_CHECKING:
    from distributed import Client


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    )
    with distributed.Client(cluster) as client:
        yield client
    cluster.close()


def folder_with_a_truncated_file(root: Path) -> Path:
    folder = root / "in"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(FIXTURES / "ms3d" / "rig_full.ms3d", folder / "rig_full.ms3d")
    shutil.copy(FIXTURES / "iqe" / "crlf.iqe", folder / "sub" / "crlf.iqe")
    shutil.copy(FIXTURES / "gltf" / "textures.glb", folder / "textures.glb")
    data = (FIXTURES / "ms3d" / "rig_full.ms3d").read_bytes()
    (folder / "truncated.ms3d").write_bytes(data[: len(data) // 2])
    (folder / "notes.md").write_text("not a model: skipped by the walk")
    return folder


def test_convert_all_converts_a_folder_and_fails_only_the_damaged_file(
    tmp_path: Path, client: Client
) -> None:
    folder = folder_with_a_truncated_file(tmp_path)
    with pytest.warns(SkippedFilesWarning, match=r"1 skipped: \.md \(1\)"):
        results = convert_all([folder], tmp_path / "out", to="glb", client=client, strict=True)
    assert [Path(r["input"]).name for r in results] == [
        "rig_full.ms3d",
        "crlf.iqe",
        "textures.glb",
        "truncated.ms3d",
    ]
    by_name = {Path(r["input"]).name: r for r in results}
    bad = by_name.pop("truncated.ms3d")
    assert bad["ok"] is False and bad["error"] and "byte" in bad["error"]
    assert not (tmp_path / "out" / "truncated.glb").exists()
    for name, result in by_name.items():
        assert result["ok"], result
        assert result["error"] is None and result["seconds"] >= 0
        assert isinstance(result["report"], list)
        output = Path(str(result["output"]))
        expected = tmp_path / f"single_{output.name}"
        rigport.convert(result["input"], expected, strict=True)
        assert output.read_bytes() == expected.read_bytes(), name
    # A second run without force fails every file (outputs exist), still without raising.
    with pytest.warns(SkippedFilesWarning):
        again = convert_all([folder], tmp_path / "out", to="glb", client=client)
    assert [r["ok"] for r in again] == [False] * 4


def test_render_all_and_clashing_outputs(tmp_path: Path, client: Client) -> None:
    folder = tmp_path / "in"
    (folder / "a").mkdir(parents=True)
    (folder / "b").mkdir()
    shutil.copy(FIXTURES / "iqe" / "crlf.iqe", folder / "a" / "x.iqe")
    shutil.copy(FIXTURES / "iqe" / "blends.iqe", folder / "b" / "x.iqe")
    results = render_all([folder], tmp_path / "png", client=client, size=32)
    assert [r["ok"] for r in results] == [True, False]
    assert "also the output of" in str(results[1]["error"])
    assert (tmp_path / "png" / "x.png").read_bytes()[:4] == b"\x89PNG"


def test_unknown_target_and_missing_input_raise(tmp_path: Path, client: Client) -> None:
    with pytest.raises(ValueError):
        convert_all([FIXTURES / "iqe"], tmp_path, to="fbx", client=client)
    with pytest.raises(FileNotFoundError):
        convert_all([tmp_path / "missing"], tmp_path, client=client)


def test_a_batch_counts_what_it_skips_and_refuses_a_folder_with_nothing_to_do(
    tmp_path: Path, client: Client
) -> None:
    folder = folder_with_a_truncated_file(tmp_path)
    (folder / "hero.blend").write_bytes(b"BLENDER")
    (folder / "hero_diffuse.png").write_bytes(b"")
    with pytest.warns(SkippedFilesWarning) as caught:
        results = convert_all([folder], tmp_path / "out", to="glb", client=client)
    assert len(results) == 4
    messages = [str(w.message) for w in caught]
    assert messages == ["2 skipped: .blend (1), .md (1), not a format rigport reads"], messages
    unread = tmp_path / "unread"
    unread.mkdir()
    for n in range(3):
        (unread / f"char{n}.blend").write_bytes(b"BLENDER")
    for run in (
        lambda: convert_all([unread], tmp_path / "out2", to="glb", client=client),
        lambda: render_all([unread], tmp_path / "out3", client=client),
        lambda: render_all([unread], tmp_path / "out4", orbit=2, client=client),
    ):
        with pytest.raises(ValueError, match=r"nothing to \w+ in .*: 3 skipped: \.blend \(3\)"):
            run()


def test_command_line_on_a_local_cluster(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = folder_with_a_truncated_file(tmp_path)
    with pytest.warns(SkippedFilesWarning):
        status = main([str(folder), "-o", str(tmp_path / "out"), "--to", "iqm", "--workers", "2"])
    assert status == 1
    err = capsys.readouterr().err
    assert "3 written, 1 failed" in err and "truncated.ms3d" in err
    assert sorted(p.name for p in (tmp_path / "out").glob("*.iqm")) == [
        "crlf.iqm",
        "rig_full.iqm",
        "textures.iqm",
    ]


def dataset_inputs(root: Path) -> Path:
    folder = root / "in"
    folder.mkdir()
    shutil.copy(FIXTURES / "ms3d" / "rig_full.ms3d", folder / "rig_full.ms3d")
    shutil.copy(FIXTURES / "iqe" / "crlf.iqe", folder / "crlf.iqe")
    data = (FIXTURES / "ms3d" / "rig_full.ms3d").read_bytes()
    (folder / "truncated.ms3d").write_bytes(data[: len(data) // 2])
    return folder


def manifest(out: Path) -> dict[str, dict[str, object]]:
    lines = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    return {Path(line["input"]).name: line for line in lines}


def test_render_all_writes_the_cli_dataset_with_keypoints_and_animation(
    tmp_path: Path, client: Client
) -> None:
    folder = dataset_inputs(tmp_path)
    out = tmp_path / "out"
    options = {"orbit": 2, "animate": True, "frames": 2, "size": (40, 32), "passes": ["mask"]}
    results = render_all([folder], out, client=client, **options)  # type: ignore[arg-type]
    by_name = {Path(r["input"]).name: r for r in results}
    assert [by_name[n]["ok"] for n in ("crlf.iqe", "rig_full.ms3d", "truncated.ms3d")] == [
        True,
        True,
        False,
    ]
    rig = by_name["rig_full.ms3d"]
    assert rig["output"] == str(out / "rig_full") and not rig["skipped"]
    assert str(out / "rig_full" / "view_01" / "frame_0001.png") in rig["outputs"]
    assert (out / "rig_full" / "keypoints.json").is_file()
    assert (out / "annotations.json").is_file()
    lines = manifest(out)
    assert lines["rig_full.ms3d"]["status"] == "ok" and "bboxes" in lines["rig_full.ms3d"]
    assert lines["truncated.ms3d"]["status"] == "failed"
    if cli() is None:
        return
    expected = tmp_path / "cli"
    done = run_cli(
        *("render", str(folder), "-o", str(expected), "--orbit", "2", "--keypoints"),
        *("--animate", "--frames", "2", "--size", "40x32", "--passes", "mask"),
    )
    assert done.returncode == 1, done.stderr  # the truncated file
    ours, theirs = tree(out), tree(expected)
    assert ours.pop("manifest.jsonl") and theirs.pop("manifest.jsonl")
    assert sorted(ours) == sorted(theirs)
    for path, content in theirs.items():
        assert ours[path] == content, path
    assert manifest(out) == manifest(expected)


def test_render_all_resume_skips_a_finished_model_and_redoes_one_without_transforms(
    tmp_path: Path, client: Client
) -> None:
    folder = dataset_inputs(tmp_path)
    out = tmp_path / "out"
    first = render_all([folder], out, client=client, orbit=2, size=32)
    assert [r["skipped"] for r in first] == [False] * 3
    annotations = (out / "annotations.json").read_bytes()
    rig_files = sorted((out / "rig_full").rglob("*"))
    stamps = {p: p.stat().st_mtime_ns for p in rig_files}
    (out / "crlf" / "transforms.json").unlink()
    again = render_all([folder], out, client=client, orbit=2, size=32, resume=True)
    by_name = {Path(r["input"]).name: r for r in again}
    assert by_name["rig_full.ms3d"]["skipped"] and by_name["rig_full.ms3d"]["ok"]
    assert not by_name["crlf.iqe"]["skipped"] and by_name["crlf.iqe"]["ok"]
    assert not by_name["truncated.ms3d"]["ok"]
    assert sorted((out / "rig_full").rglob("*")) == rig_files
    assert {p: p.stat().st_mtime_ns for p in rig_files} == stamps
    assert (out / "crlf" / "transforms.json").is_file()
    assert (out / "annotations.json").read_bytes() == annotations
    assert manifest(out)["crlf.iqe"]["status"] == "ok"
    if cli() is not None:
        # The command reads the same manifest by the same rule: nothing left to draw.
        done = run_cli("render", str(folder), "-o", str(out), "--orbit", "2", "--resume")
        assert "2 already done (--resume)" in done.stderr, done.stderr
    with pytest.raises(ValueError):
        render_all([folder], out, client=client, resume=True)
