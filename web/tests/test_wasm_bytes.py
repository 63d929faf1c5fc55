"""The page's WebAssembly module writes the bytes the CLI writes, for every corpus file and
fixture the page reads and every format it writes.

The module is the one `cargo xtask web` builds (target/web/pkg), run under Node.js by
convert_all.mjs; each file is given alone, as the page is given one file, and the CLI
converts a copy of it alone in a folder of its own ($RIGPORT_BIN, as in test_web.py).

FBX is the exception: ufbx bakes animations with C's math functions, the platform's libm in
the CLI and Rust's `f64` functions in the page (rigport-fbx's `wasm_libc`), which differ in the
last bit of some sines and powers. An FBX output must name the same files; its bytes may
differ where such a value is written. test_web.py compares two FBX files byte for byte.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "target" / "web"
CORPUS = Path(os.environ["RIGPORT_CORPUS"]) if os.environ.get("RIGPORT_CORPUS") else None
RIGPORT = os.environ.get("RIGPORT_BIN", "rigport")
HARNESS = ROOT / "web" / "tests" / "convert_all.mjs"


def module_formats(work):
    """The formats the module knows (its `formats()`), read through the harness."""
    subprocess.run(["node", str(HARNESS), str(SITE), str(work), "writes"], check=True)
    return json.loads((work / "formats.json").read_text())


def inputs(extensions):
    """Every model fixture, and every corpus model when $RIGPORT_CORPUS is set, with one of
    `extensions` (those of the formats the module reads)."""
    folders = [ROOT / "fixtures" / f for f in ("ms3d", "ms3d-ascii", "iqe", "gltf")]
    if CORPUS is not None:
        folders += sorted(p for p in CORPUS.iterdir() if p.is_dir() and not p.name.endswith("-damaged"))
    files = []
    for folder in folders:
        files += sorted(p for p in folder.iterdir() if p.suffix.lower() in extensions and not p.name.startswith("fail_"))
    return files


def cli_outputs(path, key, extension, work):
    """What `rigport convert` writes for `path` alone in a folder, or its error."""
    alone = work / "in" / path.name
    alone.mkdir(parents=True)
    shutil.copy(path, alone / path.name)
    out = work / "cli" / path.name / key
    out.mkdir(parents=True)
    stem = path.name.rsplit(".", 1)[0]
    target = out / f"{stem}.{extension}"
    result = subprocess.run(
        [RIGPORT, "convert", path.name, str(target), "--to", key],
        check=False,
        cwd=alone,
        capture_output=True,
        text=True,
    )
    shutil.rmtree(alone)
    if result.returncode != 0:
        return None
    return {p.name: p.read_bytes() for p in out.iterdir()}


def test_the_module_writes_the_cli_bytes_for_every_file_and_target(tmp_path):
    assert (SITE / "pkg" / "rigport_wasm_bg.wasm").is_file(), f"{SITE} is not built: run `cargo xtask web`"
    formats = module_formats(tmp_path / "formats")
    targets = {f["key"]: f["extension"] for f in formats if f["writes"]}
    extensions = {"." + e for f in formats if f["reads"] for e in f["extensions"]}
    files = inputs(extensions)
    assert len(files) >= 20, files
    page = tmp_path / "page"
    subprocess.run(["node", str(HARNESS), str(SITE), str(page), "writes"] + [str(p) for p in files], check=True)
    differing, compared = [], 0
    for path in files:
        for key, extension in targets.items():
            expected = cli_outputs(path, key, extension, tmp_path)
            got_dir = page / path.name / key
            if expected is None:
                assert not got_dir.exists(), f"{path.name} -> {key}: the page converts what the CLI refuses"
                continue
            assert got_dir.is_dir(), f"{path.name} -> {key}: {(page / path.name / (key + '.error')).read_text()}"
            got = {p.name: p.read_bytes() for p in got_dir.iterdir()}
            compared += 1
            if got != expected:
                names = sorted(n for n in set(got) | set(expected) if got.get(n) != expected.get(n))
                if path.suffix.lower() == ".fbx" and set(got) == set(expected):
                    print(f"{path.name} -> {key}: last bits differ in {names}")
                    continue
                differing.append(f"{path.name} -> {key}: {names}")
    assert not differing, "the page's bytes differ from the CLI's:\n" + "\n".join(differing)
    assert compared >= 100, compared
