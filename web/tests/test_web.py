"""End-to-end tests of the rigport web page in headless Chromium.

The page is served from target/web (built by `cargo xtask web`) by Python's http.server on
127.0.0.1; Chromium is the system one (/usr/bin/chromium or $CHROMIUM), driven by Playwright.
Exports and window.rigport are compared byte for byte with the rigport binary ($RIGPORT_BIN).
Files come from the repository's fixtures and, when $RIGPORT_CORPUS is set, the real-file
corpus (a standing, animated IQM character and a Red Eclipse mesh with a separate animation file).
"""

import io
import json
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
CORPUS = Path(os.environ["RIGPORT_CORPUS"]) if os.environ.get("RIGPORT_CORPUS") else None
RIGPORT = os.environ.get("RIGPORT_BIN", "rigport")
SCREENSHOT = ROOT / "docs" / "images" / "web.png"
BACKGROUND = (0x2A, 0x2D, 0x33)
EXPORTS = ["glb", "gltf", "ms3d", "ms3d-ascii", "iqe", "iqm", "obj", "md5mesh", "smd"]
EXTENSION = {"ms3d-ascii": "txt"}


def corpus(*names):
    """Corpus files, or a skip when the corpus is not there."""
    if CORPUS is None:
        pytest.skip("RIGPORT_CORPUS is not set: the real-file tests need the corpus")
    paths = [CORPUS / name for name in names]
    for path in paths:
        if not path.is_file():
            pytest.skip(f"{path} is not in the corpus")
    return paths


def character():
    """A standing character with a separate animation file (raylib's guy, IQM)."""
    return corpus("iqm/raylib_guy.iqm", "iqm/raylib_guyanim.iqm")


@pytest.fixture()
def page(browser, server):
    context = browser.new_context(viewport={"width": 1000, "height": 600}, accept_downloads=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server)
    page.wait_for_function("document.querySelectorAll('#export-format option').length > 0")
    yield page
    context.close()
    assert not errors, f"uncaught errors in the page: {errors}"


def open_files(page, paths, timeout=60_000):
    page.set_input_files("#open", [str(p) for p in paths])
    page.wait_for_function("document.body.dataset.loaded === 'true'", timeout=timeout)


def canvas_pixels(page):
    """The canvas as (width, height, RGBA bytes), read back from WebGL's drawing buffer."""
    data = page.evaluate(
        """() => {
        const c = document.getElementById('view');
        const copy = document.createElement('canvas');
        copy.width = c.width; copy.height = c.height;
        const ctx = copy.getContext('2d');
        ctx.drawImage(c, 0, 0);
        return { w: c.width, h: c.height, data: Array.from(ctx.getImageData(0, 0, c.width, c.height).data) };
    }"""
    )
    return data["w"], data["h"], bytes(data["data"])


def model_box(width, height, rgba):
    """Bounding box (x0, y0, x1, y1) of the pixels that are neither background nor grid."""
    xs, ys = [], []
    for y in range(0, height, 2):
        row = y * width * 4
        for x in range(0, width, 2):
            r, g, b = rgba[row + 4 * x : row + 4 * x + 3]
            grey = abs(r - g) < 6 and abs(g - b) < 6 and (r < 0x80)
            near_bg = abs(r - BACKGROUND[0]) + abs(g - BACKGROUND[1]) + abs(b - BACKGROUND[2]) < 24
            if not (near_bg or grey):
                xs.append(x)
                ys.append(y)
    if not xs:
        return None
    return min(xs), min(ys), max(xs), max(ys)


def cli(*args, cwd):
    result = subprocess.run([RIGPORT, *map(str, args)], cwd=cwd, capture_output=True, text=True)
    assert result.returncode == 0, f"rigport {' '.join(map(str, args))}: {result.stderr}"
    return result.stdout


def cli_convert(tmp_path, main, anims, key):
    """What `rigport convert MAIN OUT --with-anims …` writes, from copies of the inputs in a
    folder of their own (so no file the page was not given is found beside them)."""
    inputs = tmp_path / "in"
    inputs.mkdir(exist_ok=True)
    for path in [main, *anims]:
        shutil.copy(path, inputs / path.name)
    out = tmp_path / f"out-{key}"
    out.mkdir()
    stem = main.name.rsplit(".", 1)[0]
    target = out / f"{stem}.{EXTENSION.get(key, key)}"
    extra = [arg for a in anims for arg in ("--with-anims", a.name)]
    cli("convert", main.name, target, "--to", key, *extra, cwd=inputs)
    return {p.name: p.read_bytes() for p in out.iterdir()}


def test_character_stands_lit_and_animates(page):
    mesh, anim = character()
    open_files(page, [mesh, anim])
    assert page.evaluate("document.getElementById('error').hidden")
    # Animations listed, one playing.
    options = page.eval_on_selector_all("#animation option", "o => o.map(x => x.textContent)")
    assert options and options[0] != "(none)", options
    # Measured paused at the animation's start, so the pose does not depend on timing.
    page.click("#play")
    page.eval_on_selector("#timeline", "t => { t.value = '0'; t.dispatchEvent(new Event('input')); }")
    page.wait_for_timeout(200)
    w, h, still = canvas_pixels(page)
    box = model_box(w, h, still)
    assert box is not None, "the canvas shows nothing but the background"
    x0, y0, x1, y1 = box
    assert (y1 - y0) > 1.1 * (x1 - x0), f"a standing character is drawn taller than wide: {box}"
    page.click("#play")
    page.wait_for_timeout(300)
    _, _, first = canvas_pixels(page)
    page.wait_for_timeout(400)
    _, _, second = canvas_pixels(page)
    assert first != second, "the picture does not change while the animation plays"
    # Paused, the picture holds still; scrubbing moves it.
    page.click("#play")
    page.wait_for_timeout(100)
    _, _, paused = canvas_pixels(page)
    page.wait_for_timeout(300)
    assert canvas_pixels(page)[2] == paused, "paused, the picture still changes"
    page.eval_on_selector("#timeline", "t => { t.value = String(Number(t.max) / 2); t.dispatchEvent(new Event('input')); }")
    page.wait_for_timeout(100)
    assert canvas_pixels(page)[2] != paused, "scrubbing does not move the model"
    info = page.inner_text("#info")
    assert "joints" in info and "Conversion report" in info and "raylib_guyanim.iqm" in info, info
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    page.click("#play")
    page.wait_for_timeout(200)
    page.screenshot(path=str(SCREENSHOT), type="png")


def test_morph_targets_play(page, tmp_path):
    # Khronos' AnimatedMorphCube: two targets, and an animation that drives only their weights,
    # so the picture moves only if three.js plays the morph targets of the glb the page built.
    # As a .glb: the page reads a .gltf only when its buffers are inside it.
    (cube, _) = corpus("gltf-morph/AnimatedMorphCube.gltf", "gltf-morph/AnimatedMorphCube.bin")
    glb = tmp_path / "AnimatedMorphCube.glb"
    cli("convert", cube, glb, cwd=tmp_path)
    open_files(page, [glb])
    assert page.evaluate("document.getElementById('error').hidden")
    page.click("#play")  # pause: only scrubbing changes the picture
    scrub = "f => { const t = document.getElementById('timeline'); t.value = String(Number(t.max) * f); t.dispatchEvent(new Event('input')); }"
    page.evaluate(scrub, 0.0)
    page.wait_for_timeout(150)
    _, _, start = canvas_pixels(page)
    page.evaluate(scrub, 0.5)
    page.wait_for_timeout(150)
    _, _, middle = canvas_pixels(page)
    assert start != middle, "the morph weights' animation does not move the cube"
    info = page.inner_text("#info")
    assert re.search(r"morph targets\s+2", info) and re.search(r"weight tracks\s+1", info), info


def test_skeleton_toggle_draws_the_skeleton(page):
    mesh, anim = character()
    open_files(page, [mesh, anim])
    page.click("#play")  # pause, so only the toggle changes the picture
    page.wait_for_timeout(100)
    _, _, without = canvas_pixels(page)
    page.check("#skeleton")
    page.wait_for_timeout(100)
    assert canvas_pixels(page)[2] != without


def test_animation_files_attach_like_with_anims(page, tmp_path):
    mesh, anim = corpus("iqm/redeclipse_cyber_tail_mesh.iqm", "iqm/redeclipse_cyber_tail_anim1.iqm")
    open_files(page, [mesh, anim])
    count = page.eval_on_selector_all("#animation option", "o => o.length")
    expected = json.loads(cli("convert", mesh, tmp_path / "x.glb", "--with-anims", anim, "--json", cwd=tmp_path).splitlines()[-1])
    assert count >= 1
    assert any(n["code"] == "animations-attached" for n in expected["report"])
    assert "redeclipse_cyber_tail_anim1.iqm" in page.inner_text("#info")


@pytest.mark.parametrize("key", EXPORTS)
def test_export_gives_the_cli_bytes(page, tmp_path, key):
    mesh, anim = character()
    open_files(page, [mesh, anim])
    page.select_option("#export-format", key)
    with page.expect_download() as info:
        page.click("#export")
    download = info.value
    data = Path(download.path()).read_bytes()
    expected = cli_convert(tmp_path, mesh, [anim], key)
    if len(expected) == 1:
        (name, bytes_), = expected.items()
        assert download.suggested_filename == name
        assert data == bytes_, f"{key}: the page's export differs from the CLI's"
    else:
        assert download.suggested_filename.endswith(".zip")
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            got = {n: z.read(n) for n in z.namelist()}
        assert got == expected, f"{key}: files {sorted(got)} vs {sorted(expected)}"


def test_script_api_matches_the_cli(page, tmp_path):
    mesh, anim = character()
    files = {p.name: list(p.read_bytes()) for p in (mesh, anim)}
    got = page.evaluate(
        """async ([files, main, anim]) => {
            const map = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, new Uint8Array(v)]));
            const out = await window.rigport.convert(map, main, 'iqm', { withAnims: [anim] });
            return Array.from(out);
        }""",
        [files, mesh.name, anim.name],
    )
    assert bytes(got) == cli_convert(tmp_path, mesh, [anim], "iqm")[mesh.stem + ".iqm"]


def info_paths():
    paths = [FIXTURES / "iqe" / "blends.iqe", FIXTURES / "gltf" / "interpolations.glb", FIXTURES / "iqe" / "fail_bad_number.iqe"]
    if CORPUS is not None:
        paths += sorted((CORPUS / "iqm").glob("*.iqm"))[:4] + sorted((CORPUS / "ms3d").glob("*.ms3d"))[:2]
        paths += [CORPUS / "fbx" / n for n in ("ufbx_maya_kenney_character_7700_binary.fbx", "ufbx_maya_character_6100_ascii.fbx")]
    return paths


def test_fbx_opens_and_converts_as_the_cli_does(page, tmp_path):
    # ufbx compiled for WebAssembly: a binary and an ASCII FBX, one with blend shapes.
    for name in ("ufbx_maya_kenney_character_7700_binary.fbx", "ufbx_blender440_shape_weight_anim_7400_binary.fbx"):
        (path,) = corpus(f"fbx/{name}")
        open_files(page, [path])
        assert page.evaluate("document.getElementById('error').hidden"), page.inner_text("#error")
        assert "fbx" in page.inner_text("#info")
        got = page.evaluate(
            """async ([name, bytes]) => Array.from(await window.rigport.convert({ [name]: new Uint8Array(bytes) }, name, 'glb'))""",
            [path.name, list(path.read_bytes())],
        )
        (tmp_path / path.stem).mkdir()
        expected = cli_convert(tmp_path / path.stem, path, [], "glb")[path.stem + ".glb"]
        assert bytes(got) == expected, f"{name}: the page's glb differs from the CLI's"


def test_info_equals_rigport_info_json(page, tmp_path):
    # `window.rigport.info` is given one file: the CLI is given the same file alone in a
    # folder, so textures are looked up among the same (no) files.
    for path in info_paths():
        got = page.evaluate(
            "async ([name, bytes]) => window.rigport.info(name, new Uint8Array(bytes))",
            [path.name, list(path.read_bytes())],
        )
        alone = tmp_path / path.parent.name
        alone.mkdir(exist_ok=True)
        shutil.copy(path, alone / path.name)
        result = subprocess.run([RIGPORT, "info", "--json", path.name], cwd=alone, capture_output=True, text=True)
        expected = json.loads(result.stdout.splitlines()[0])
        assert got == expected, path.name


def test_a_damaged_file_shows_an_error_and_the_next_one_loads(page, tmp_path):
    damaged = tmp_path / "damaged.iqe"
    damaged.write_bytes(b"# Inter-Quake Export\nmesh m\nvp 0 0 0\nvp 1 x 0\n")
    page.set_input_files("#open", [str(damaged)])
    page.wait_for_function("!document.getElementById('error').hidden")
    message = page.inner_text("#error")
    assert "damaged.iqe" in message and "4:" in message, message
    assert page.evaluate("document.body.dataset.loaded") is None
    junk = tmp_path / "junk.bin"
    junk.write_bytes(bytes(range(256)) * 4)
    page.set_input_files("#open", [str(junk)])
    page.wait_for_function("document.getElementById('error').textContent.includes('junk.bin')")
    open_files(page, [FIXTURES / "iqe" / "blends.iqe"])
    assert page.evaluate("document.getElementById('error').hidden")
    assert "blends.iqe" in page.inner_text("#info")
