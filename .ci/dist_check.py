#!/usr/bin/env python3
"""Checks the artifacts `cargo xtask dist` wrote into target/dist/, as a user would meet them.

* every artifact's `.sha256` matches it;
* the CLI archive holds the executable, README.md, CHANGELOG.md, both licences and the
  third-party notices; the executable is static (`file`, `ldd`), prints the workspace
  version and converts a fixture in an empty folder with an empty environment;
* the wheel holds the third-party notices, is manylinux (2_17 up to 2_28) by `auditwheel
  show`, installs into a fresh venv
  whose PATH has no cargo or rustc, and `import rigport` there reads, poses and converts;
* the sdist holds pyproject.toml, the workspace's Cargo.toml and Cargo.lock, and every
  crate the extension builds from (`cargo tree`); with --build-sdist, pip builds and
  installs it into another venv and the same import check runs;
* the web zip has index.html, the wasm module and three.js, and no URL that leaves the
  folder (no scheme, no `//`, no leading `/`) in any HTML, JavaScript or CSS file;
* the Blender extension zip, when there is one, has a valid manifest of the workspace
  version whose `wheels` are all inside the zip.

Usage: python3 .ci/dist_check.py [--dist DIR] [--build-sdist] [--python PYTHON]
Exit status 1 names every failed check.
"""

from __future__ import annotations

import argparse
import hashlib
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "fixtures" / "ms3d" / "rig_full.ms3d"
CLI_TARGET = "x86_64-unknown-linux-musl"

failures: list[str] = []


def check(ok: bool, what: str) -> bool:
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        failures.append(what)
    return ok


def workspace_version() -> str:
    text = (ROOT / "Cargo.toml").read_text(encoding="utf-8")
    section = text.split("[workspace.package]", 1)[1]
    found = re.search(r'^version\s*=\s*"([^"]+)"', section, re.MULTILINE)
    if not found:
        sys.exit("Cargo.toml: no [workspace.package] version")
    return found.group(1)


def run(
    args: list[str], cwd: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, check=False, cwd=cwd, env=env)


# --- checksums ---------------------------------------------------------------------------


def check_checksums(dist: Path, artifacts: list[Path]) -> None:
    for artifact in artifacts:
        if not artifact.is_file():
            continue  # its own check says it is missing
        sums = artifact.with_name(artifact.name + ".sha256")
        if not check(sums.is_file(), f"{sums.name} exists"):
            continue
        digest = hashlib.sha256(artifact.read_bytes()).hexdigest()
        fields = sums.read_text(encoding="utf-8").split()
        check(
            fields == [digest, artifact.name],
            f"{sums.name} matches the file ({fields[:1]} vs {digest})",
        )


# --- the CLI archive -----------------------------------------------------------------------


def check_cli(dist: Path, version: str) -> None:
    folder = f"rigport-{version}-{CLI_TARGET}"
    archive = dist / f"{folder}.tar.gz"
    if not check(archive.is_file(), f"{archive.name} exists"):
        return
    with tempfile.TemporaryDirectory() as unpacked, tempfile.TemporaryDirectory() as empty:
        with tarfile.open(archive) as tar:
            names = set(tar.getnames())
            for name in [
                "rigport",
                "README.md",
                "CHANGELOG.md",
                "LICENSE-MIT",
                "LICENSE-APACHE",
                "THIRD-PARTY-NOTICES.md",
            ]:
                check(f"{folder}/{name}" in names, f"CLI archive holds {folder}/{name}")
            unsafe = [n for n in names if n.startswith("/") or ".." in n.split("/")]
            check(not unsafe, f"CLI archive entries stay in its folder {unsafe}")
            if unsafe:
                return
            tar.extractall(unpacked)
        exe = Path(unpacked) / folder / "rigport"
        if not check(os.access(exe, os.X_OK), "the executable is executable"):
            return
        described = run(["file", "-b", str(exe)]).stdout.strip()
        check(
            "statically linked" in described or "static-pie linked" in described,
            f"`file` says static: {described}",
        )
        ldd = run(["ldd", str(exe)])
        said = (ldd.stdout + ldd.stderr).strip()
        check(
            "not a dynamic executable" in said or "statically linked" in said,
            f"`ldd` finds no shared library: {said}",
        )
        printed = run([str(exe), "--version"], env={}).stdout.strip()
        check(printed == f"rigport {version}", f"`rigport --version` prints {printed!r}")
        # An empty folder and an empty environment: nothing but the executable and the input.
        shutil.copy(FIXTURE, Path(empty) / FIXTURE.name)
        converted = run([str(exe), "convert", FIXTURE.name, "out.glb"], cwd=empty, env={})
        out = Path(empty) / "out.glb"
        check(
            converted.returncode == 0 and out.is_file() and out.read_bytes()[:4] == b"glTF",
            f"the executable converts {FIXTURE.name} to glb in an empty folder"
            f" (exit {converted.returncode}: {converted.stderr.strip()[:300]})",
        )
        shown = run([str(exe), "info", "out.glb", "--json"], cwd=empty, env={})
        try:
            info = json.loads(shown.stdout.splitlines()[0])
        except (ValueError, IndexError):
            info = {}
        check(
            info.get("joints", 0) > 0 and info.get("meshes", 0) > 0,
            f"the glb it wrote reads back with joints and meshes: {shown.stdout.strip()[:200]}",
        )


# --- the Python packages -------------------------------------------------------------------

IMPORT_CHECK = r"""
import pathlib, sys, tempfile
import numpy as np
import rigport

version, fixture, repo = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
where = pathlib.Path(rigport.__file__).resolve()
assert repo not in where.parents, f"imported from the checkout: {where}"
assert rigport.__version__ == version, (rigport.__version__, version)
model = rigport.read(fixture)
assert model.meshes and model.joints and model.animations, model
bind = [m.positions for m in model.meshes]
posed = model.pose(0, model.animations[0].duration / 2)
assert [p.shape for p in posed] == [b.shape for b in bind], "posed shapes"
assert any(not np.allclose(p, b) for p, b in zip(posed, bind)), "posing moved nothing"
with tempfile.TemporaryDirectory() as out:
    for name in ["out.glb", "out.iqm"]:
        rigport.convert(fixture, pathlib.Path(out) / name)
        again = rigport.read(pathlib.Path(out) / name)
        assert len(again.joints) == len(model.joints), name
print(f"rigport {rigport.__version__} from {where.parent}: read, posed, converted")
"""


def path_without_rust() -> str:
    """PATH less every folder holding cargo or rustc."""
    keep = []
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        if not any((Path(folder) / tool).exists() for tool in ["cargo", "rustc", "rustup"]):
            keep.append(folder)
    return os.pathsep.join(keep)


def fresh_venv(python: str, where: Path, install: list[str], env: dict[str, str]) -> Path | None:
    made = run([python, "-m", "venv", str(where)])
    if not check(made.returncode == 0, f"python -m venv {where.name}: {made.stderr.strip()}"):
        return None
    venv_python = where / "bin" / "python"
    pip = run([str(venv_python), "-m", "pip", "install", "-q", *install], env=env)
    if not check(pip.returncode == 0, f"pip install {' '.join(install)}: {pip.stderr[-800:]}"):
        return None
    return venv_python


def check_import(venv_python: Path, version: str, env: dict[str, str], what: str) -> None:
    with tempfile.TemporaryDirectory() as cwd:
        ran = run(
            [str(venv_python), "-c", IMPORT_CHECK, version, str(FIXTURE), str(ROOT)],
            cwd=cwd,
            env=env,
        )
    check(ran.returncode == 0, f"{what}: {(ran.stdout + ran.stderr).strip()[-800:]}")


def check_wheel(dist: Path, version: str, python: str) -> None:
    wheels = sorted(dist.glob(f"rigport-{version}-cp39-abi3-*manylinux*.whl"))
    if not check(len(wheels) == 1, f"one manylinux abi3 wheel ({[w.name for w in wheels]})"):
        return
    wheel = wheels[0]
    with zipfile.ZipFile(wheel) as archive:
        notices = "rigport/THIRD-PARTY-NOTICES.md"
        check(notices in archive.namelist(), f"the wheel holds {notices}")
    shown = run(["auditwheel", "show", str(wheel)])
    said = " ".join(shown.stdout.split())
    tag = re.search(r'consistent with the following platform tag: "manylinux_2_(\d+)_', said)
    check(
        shown.returncode == 0 and tag is not None and 17 <= int(tag.group(1)) <= 28,
        f"auditwheel: {tag.group(0) if tag else said[:300] or shown.stderr.strip()[:300]}",
    )
    env = dict(os.environ, PATH=path_without_rust())
    env.pop("CARGO", None)
    env.pop("RUSTC", None)
    check(shutil.which("cargo", path=env["PATH"]) is None, "the venv's PATH has no cargo")
    with tempfile.TemporaryDirectory() as tmp:
        venv_python = fresh_venv(python, Path(tmp) / "venv", [str(wheel)], env)
        if venv_python:
            check_import(venv_python, version, env, "the wheel in a venv without Rust")


def crates_the_extension_needs() -> list[str]:
    tree = run(
        [
            "cargo",
            "tree",
            "--locked",
            "-p",
            "rigport-python",
            "--edges",
            "normal,build",
            "--prefix",
            "none",
            "-f",
            "{p}",
        ],
        cwd=str(ROOT),
    )
    found = set()
    for line in tree.stdout.splitlines():
        match = re.search(r"\((/[^)]+)\)", line)
        if match and Path(match.group(1)).is_relative_to(ROOT):
            found.add(Path(match.group(1)).relative_to(ROOT).as_posix())
    check(bool(found), f"`cargo tree` names the extension's crates: {tree.stderr.strip()[:300]}")
    return sorted(found)


def check_sdist(dist: Path, version: str, python: str, build: bool) -> None:
    sdist = dist / f"rigport-{version}.tar.gz"
    if not check(sdist.is_file(), f"{sdist.name} exists"):
        return
    top = f"rigport-{version}"
    with tarfile.open(sdist) as tar:
        names = set(tar.getnames())
    for name in ["pyproject.toml", "Cargo.toml", "Cargo.lock", "PKG-INFO"]:
        check(f"{top}/{name}" in names, f"sdist holds {name}")
    for crate in crates_the_extension_needs():
        held = f"{top}/{crate}/Cargo.toml" in names and any(
            n.startswith(f"{top}/{crate}/src/") for n in names
        )
        check(held, f"sdist holds the crate {crate} (Cargo.toml and src/)")
    check(
        any(n.startswith(f"{top}/python/rigport/") for n in names),
        "sdist holds the Python package (python/rigport)",
    )
    if build:
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, CARGO_TARGET_DIR=str(Path(tmp) / "target"))
            venv_python = fresh_venv(python, Path(tmp) / "venv", [str(sdist)], env)
            if venv_python:
                check_import(venv_python, version, env, "the sdist built by pip")


# --- the web page ------------------------------------------------------------------------

ABSOLUTE = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//|/)")
# Specifiers a module loads: static and dynamic imports, re-exports, workers, importScripts.
JS_LOADS = re.compile(
    r"""(?:\bimport\s*\(?\s*|\bfrom\s*|\bimportScripts\s*\(\s*|new\s+(?:Shared)?Worker\s*\(\s*"""
    r"""(?:new\s+URL\s*\(\s*)?)(['"`])([^'"`]*)\1"""
)
CSS_URLS = re.compile(r"""url\(\s*['"]?([^'")]+)""")
# Comments, whose examples are not loads: /* blocks */ and // to the line's end (after a space
# or at the start, so a "https://" string stays).
COMMENTS = re.compile(r"/\*.*?\*/|(?:^|(?<=\s))//[^\n]*", re.DOTALL)


class Links(html.parser.HTMLParser):
    """Every URL an HTML page loads: src, href, and an import map's targets."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.importmap = False
        self.inline: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("src", "href", "action", "poster", "data") and value:
                self.urls.append(value)
        self.importmap = tag == "script" and ("type", "importmap") in attrs

    def handle_data(self, data: str) -> None:
        if self.importmap:
            imports = json.loads(data).get("imports", {})
            self.urls.extend(imports.values())
        elif data.strip():
            self.inline.append(data)

    def handle_endtag(self, tag: str) -> None:
        self.importmap = False


def check_web(dist: Path, version: str) -> None:
    top = f"rigport-web-{version}"
    archive = dist / f"{top}.zip"
    if not check(archive.is_file(), f"{archive.name} exists"):
        return
    with zipfile.ZipFile(archive) as z:
        names = z.namelist()
        for name in [
            "index.html",
            "pkg/rigport_wasm_bg.wasm",
            "vendor/three/build/three.module.js",
        ]:
            check(f"{top}/{name}" in names, f"web zip holds {name}")
        check(all(n.startswith(f"{top}/") for n in names), f"web zip entries are under {top}/")
        remote = []
        for name in names:
            if not name.endswith((".html", ".js", ".mjs", ".css")):
                continue
            text = COMMENTS.sub("", z.read(name).decode("utf-8", errors="replace"))
            urls: list[str] = []
            if name.endswith(".html"):
                links = Links()
                links.feed(text)
                urls += links.urls
                text = "\n".join(links.inline)
            if name.endswith(".css"):
                urls += CSS_URLS.findall(text)
            else:
                urls += [m.group(2) for m in JS_LOADS.finditer(text)]
            # A bare specifier ("three") is resolved by the import map, checked above.
            remote += [f"{name}: {u}" for u in urls if ABSOLUTE.match(u) and u != "about:blank"]
        check(not remote, f"web zip loads nothing from outside its folder {remote[:10]}")


# --- the Blender extension -----------------------------------------------------------------


def check_blender(dist: Path, version: str) -> None:
    archive = dist / f"rigport_io-{version}.zip"
    if not archive.is_file():
        print(f"note  {archive.name} not built; the Blender extension is not checked")
        return
    if sys.version_info < (3, 11):
        print("note  no tomllib (Python 3.11+); the extension manifest is not checked")
        return
    import tomllib

    with zipfile.ZipFile(archive) as z:
        names = set(z.namelist())
        if not check("blender_manifest.toml" in names, "extension zip has blender_manifest.toml"):
            return
        try:
            manifest = tomllib.loads(z.read("blender_manifest.toml").decode("utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
            check(False, f"extension manifest parses: {error}")
            return
    for key in ["schema_version", "id", "version", "name", "maintainer", "type", "license"]:
        check(key in manifest, f"extension manifest has {key}")
    check(
        manifest.get("version") == version, f"extension manifest version {manifest.get('version')}"
    )
    wheels = manifest.get("wheels", [])
    check(bool(wheels), f"extension manifest lists wheels {wheels}")
    for wheel in wheels:
        inside = wheel.removeprefix("./")
        check(inside in names, f"extension zip holds the listed {inside}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "target" / "dist")
    parser.add_argument("--python", default=sys.executable, help="makes the fresh venvs")
    parser.add_argument("--build-sdist", action="store_true", help="pip install the sdist too")
    args = parser.parse_args()
    version = workspace_version()
    dist: Path = args.dist
    print(f"checking rigport {version} artifacts in {dist}")
    # What `dist` makes has a checksum beside it. The Blender extension's own subcommand
    # (`cargo xtask blender-extension`) writes its zip without one, so that zip's checksum is
    # checked only where it has one.
    required = [
        f"rigport-{version}-{CLI_TARGET}.tar.gz",
        f"rigport-{version}.tar.gz",
        f"rigport-web-{version}.zip",
        *[w.name for w in dist.glob(f"rigport-{version}-*.whl")],
    ]
    optional = [
        p.name for p in dist.glob(f"*{version}*") if p.with_name(p.name + ".sha256").is_file()
    ]
    check_checksums(dist, [dist / name for name in sorted(set(required + optional))])
    check_cli(dist, version)
    check_wheel(dist, version, args.python)
    check_sdist(dist, version, args.python, args.build_sdist)
    check_web(dist, version)
    check_blender(dist, version)
    if failures:
        print(f"\n{len(failures)} failed:", *failures, sep="\n  ")
        return 1
    print("\nevery artifact checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
