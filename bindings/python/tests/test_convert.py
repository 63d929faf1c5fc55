"""info, convert, save and render give what the rigport command gives."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

import rigport

from conftest import FIXTURES, cli_info, corpus_files, need_cli, need_corpus, run_cli, tree

RIG = FIXTURES / "ms3d" / "rig_full.ms3d"


def test_info_is_the_cli_json_for_every_corpus_file() -> None:
    need_cli()
    for path in need_corpus():
        expected = cli_info(path)
        if "error" in expected:
            with pytest.raises(rigport.RigportError) as caught:
                rigport.info(path)
            assert str(caught.value) == expected["error"], path
        else:
            assert rigport.info(path) == expected, path


def test_info_of_a_fixture_is_the_cli_json() -> None:
    assert rigport.info(RIG) == cli_info(RIG)
    assert json.dumps(rigport.info(RIG))  # plain JSON values


@pytest.mark.parametrize("to", ["glb", "gltf", "iqm", "iqe", "ms3d", "ms3d-ascii", "obj"])
def test_convert_writes_the_cli_bytes(tmp_path: Path, to: str) -> None:
    need_cli()
    extension = rigport.formats()[to]["extension"]
    sources = [RIG, FIXTURES / "iqe" / "crlf.iqe", FIXTURES / "gltf" / "textures.glb"]
    sources += corpus_files()
    mine, theirs = tmp_path / "py", tmp_path / "cli"
    converted = 0
    for source, output, clash in rigport.plan_batch(
        [str(s) for s in sources], str(mine), extension
    ):
        if output is None:
            assert clash is not None
            continue
        try:
            report = rigport.convert(source, output, to=to)
        except rigport.RigportError:
            continue  # the command must fail on it too: no output in its tree either
        converted += 1
        assert all(set(entry) == {"code", "message", "severity"} for entry in report)
    assert converted >= 3
    run_cli("convert", *map(str, sources), "--to", to, "-o", str(theirs), "-q")
    assert tree(mine) == tree(theirs)


def test_save_is_convert_and_a_same_format_save_is_a_copy(tmp_path: Path) -> None:
    model = rigport.read(RIG)
    model.save(tmp_path / "copy.ms3d")
    assert (tmp_path / "copy.ms3d").read_bytes() == RIG.read_bytes()
    report = model.save(tmp_path / "a.glb")
    rigport.convert(RIG, tmp_path / "b.glb")
    assert (tmp_path / "a.glb").read_bytes() == (tmp_path / "b.glb").read_bytes()
    assert isinstance(report, list)
    with pytest.raises(FileExistsError):
        model.save(tmp_path / "a.glb")
    model.save(tmp_path / "a.glb", force=True, keep_axes=True)
    with pytest.raises(rigport.RigportError):
        model.save(RIG, force=True)  # never over the input
    with pytest.raises(ValueError):
        model.save(tmp_path / "a.unknown")
    with pytest.raises(ValueError):
        model.save(tmp_path / "c.glb", fps=0)


def test_convert_options_reach_the_pipeline(tmp_path: Path) -> None:
    source = FIXTURES / "gltf" / "textures.glb"
    uris = rigport.convert(source, tmp_path / "uris.gltf", embed_textures=False)
    embedded = rigport.convert(source, tmp_path / "embedded.gltf")
    assert (tmp_path / "uris.gltf").read_bytes() != (tmp_path / "embedded.gltf").read_bytes()
    assert isinstance(uris, list) and isinstance(embedded, list)
    concat = rigport.convert(RIG, tmp_path / "rig.iqe", concat_animations=True)
    assert any(entry["code"] == "setting-ignored" for entry in concat)


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_render_writes_a_png(tmp_path: Path) -> None:
    out = tmp_path / "rig.png"
    rigport.render(RIG, out, size=(64, 48), view="front")
    assert png_size(out) == (64, 48)
    with pytest.raises(FileExistsError):
        rigport.render(RIG, out)
    rigport.render(RIG, out, size=32, sheet=4, background="#102030", force=True)
    assert png_size(out)[0] >= 32
    with pytest.raises(ValueError):
        rigport.render(RIG, out, view="sideways", force=True)
    with pytest.raises(rigport.RigportError):
        rigport.render(FIXTURES / "iqe" / "skeleton_only.iqe", tmp_path / "none.png")


def test_render_writes_the_cli_bytes(tmp_path: Path) -> None:
    need_cli()
    rigport.render(RIG, tmp_path / "py.png", size=(96, 64), animation=0, time=0.25, wire=True)
    done = run_cli(
        "render",
        str(RIG),
        str(tmp_path / "cli.png"),
        "--size",
        "96x64",
        "--anim",
        "0",
        "--time",
        "0.25",
        "--wire",
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "py.png").read_bytes() == (tmp_path / "cli.png").read_bytes()


def test_anims_beside_attaches_the_animation_files_that_fit(tmp_path: Path) -> None:
    for name in ("spec_mesh.md5mesh", "spec_anim.md5anim"):
        (tmp_path / name).write_bytes((FIXTURES / "md5" / name).read_bytes())
    alone = tmp_path / "alone.iqe"
    beside = tmp_path / "beside.iqe"
    rigport.convert(tmp_path / "spec_mesh.md5mesh", alone)
    rigport.convert(tmp_path / "spec_mesh.md5mesh", beside, anims_beside=True)
    assert rigport.info(alone)["animations"] == 0
    assert rigport.info(beside)["animations"] == 1
