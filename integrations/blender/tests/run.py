#!/usr/bin/env python3
"""Runs the Blender add-on checks on every corpus file and prints a table.

Usage: python3 integrations/blender/tests/run.py [FILE...]

First, with a plain Python, where the add-on's format table comes from (formats_table.py:
formats.json, the `rigport` module, `rigport formats --json`, else a message saying what to
run) and how an export gives animations back their names and order in the source file
(glb_names_check.py, glb_rest_check.py, glb_scales_check.py); these run also where Blender is not installed.

Environment: RIGPORT_BIN (else target/release/rigport, else target/debug/rigport),
RIGPORT_CORPUS (else ../shared/corpus beside the repository), BLENDER (else `blender`
on PATH), RIGPORT_BLENDER_JOBS (parallel Blender processes, default 2).
Ends with `N passed, N failed, N skipped` (counting checks); exits 1 on any failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import formats_table
import glb_names_check
import glb_rest_check
import glb_scales_check

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
CHECKS = ("import", "box", "fps", "pose", "export", "round_trip")
CORPUS_DIRS = ("ms3d", "ms3d-ascii", "iqe", "iqm", "gltf")
MODEL_EXTENSIONS = (".ms3d", ".txt", ".iqe", ".iqm", ".gltf", ".glb")
#: Longest one file's Blender run may take before it counts as hung (seconds).
FILE_TIMEOUT = 900
#: A small fixture the capability probe converts to glTF and reads back.
PROBE_FIXTURE = os.path.join(REPO, "fixtures", "ms3d", "rig_full.ms3d")
#: The installable add-on, from `cargo xtask blender-addon`.
ADDON_ZIP = os.path.join(REPO, "target", "rigport_io.zip")


def find_rigport() -> str | None:
    """$RIGPORT_BIN, else the workspace's release build, else its debug build."""
    candidates = [os.environ.get("RIGPORT_BIN", "")]
    candidates += [os.path.join(REPO, "target", kind, "rigport") for kind in ("release", "debug")]
    for path in candidates:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return os.path.abspath(path)
    return None


def find_corpus() -> str | None:
    """$RIGPORT_CORPUS, else ../shared/corpus beside the repository."""
    for path in (os.environ.get("RIGPORT_CORPUS", ""), os.path.join(REPO, "..", "shared", "corpus")):
        if path and os.path.isdir(path):
            return os.path.abspath(path)
    return None


def corpus_files(corpus: str) -> list[str]:
    """Every model file in the corpus's format folders, sorted."""
    files = []
    for folder in CORPUS_DIRS:
        root = os.path.join(corpus, folder)
        if not os.path.isdir(root):
            continue
        for name in sorted(os.listdir(root)):
            if name.lower().endswith(MODEL_EXTENSIONS):
                files.append(os.path.join(root, name))
    return files


def export_mode(rigport: str, work: str) -> str:
    """`run` when this rigport reads glTF (the export round trip needs it), else `skip:<why>`."""
    probe = os.path.join(work, "probe.glb")
    made = subprocess.run([rigport, "convert", PROBE_FIXTURE, probe, "--force"], capture_output=True, text=True, check=False)
    if made.returncode != 0:
        return "skip:could not make the glTF probe: " + made.stderr.strip()[:100]
    read = subprocess.run([rigport, "info", "--json", probe], capture_output=True, text=True, check=False)
    if read.returncode != 0:
        return "skip:this rigport cannot read glTF yet (needs glTF import)"
    return "run"


def blender_environment(blender: str, rigport: str) -> dict:
    """The environment for Blender: RIGPORT_BIN set, Blender's own folder first on PATH.

    A system Blender's embedded Python finds its home through the `python3` on PATH; a
    pyenv (or similar) interpreter earlier on PATH would lend it a stdlib without the
    system's numpy, which the glTF add-on needs.
    """
    folder = os.path.dirname(os.path.realpath(blender))
    path = os.pathsep.join([folder, os.environ.get("PATH", "")])
    return dict(os.environ, RIGPORT_BIN=rigport, PATH=path)


def run_file(blender: str, source: str, work: str, mode: str, env: dict) -> dict:
    """One Blender process for one file; a crash or hang is that file's failure."""
    folder = tempfile.mkdtemp(prefix="file-", dir=work)
    result_path = os.path.join(folder, "result.json")
    script = os.path.join(HERE, "blender_check.py")
    command = [blender, "-b", "--factory-startup", "--python-exit-code", "1", "--python", script, "--"]
    command += [source, result_path, folder, mode]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=FILE_TIMEOUT, env=env, check=False)
        log = proc.stdout[-600:] + proc.stderr[-600:]
    except subprocess.TimeoutExpired:
        log = f"timed out after {FILE_TIMEOUT} s"
    result: dict = {"file": source, "checks": [{"check": "import", "status": "fail", "detail": "no result: " + log}]}
    if os.path.isfile(result_path):
        with open(result_path, encoding="utf-8") as text:
            try:
                result = json.load(text)
            except ValueError as err:
                result["checks"][0]["detail"] = f"unreadable result ({err}): {log}"
    shutil.rmtree(folder, ignore_errors=True)
    return result


def status(result: dict, name: str) -> str:
    """A check's status mark: `ok`, `FAIL`, `skip`, or `-` when it did not run."""
    for item in result["checks"]:
        if item["check"] == name:
            return {"pass": "ok", "fail": "FAIL", "skip": "skip"}[item["status"]]
    return "-"


def detail(result: dict, name: str) -> str:
    """A check's detail line."""
    for item in result["checks"]:
        if item["check"] == name:
            return str(item["detail"]).replace("\n", " ")
    return ""


def row(result: dict, corpus: str | None) -> list[str]:
    """One table row: file, Blender/rigport triangles, bones, actions, then the box, frame
    rate, posed error, export and round-trip marks."""
    path = result["file"]
    name = os.path.relpath(path, corpus) if corpus and path.startswith(corpus) else path
    info = result.get("info", {})
    got = result.get("blender", {})
    if not got:
        why = detail(result, "import") if status(result, "import") != "skip" else detail(result, "pose")
        return [name, status(result, "import"), "", "", "", "", "", "", "", why[:60]]
    tris = f"{got['triangles']}/{info['triangles']}"
    if got.get("dropped"):
        tris += f" (-{got['dropped']})"
    pose = detail(result, "pose").split(" error ")[-1].split(" of ")[0] if status(result, "pose") != "skip" else "-"
    fps = detail(result, "fps").split(" fps")[0].replace("scene ", "") if status(result, "fps") != "skip" else "-"
    export = status(result, "export")
    if export != "skip":
        export += " " + detail(result, "export").split(":")[0]
    return [
        name,
        status(result, "import"),
        tris,
        f"{got['bones']}/{info['joints']}",
        f"{got['actions']}/{info['animations']}",
        status(result, "box"),
        f"{status(result, 'fps')} {fps}",
        f"{status(result, 'pose')} {pose}",
        export,
        status(result, "round_trip"),
    ]


def print_table(results: list[dict], corpus: str | None) -> None:
    """The per-file table (Blender/rigport counts), then every failure's detail."""
    header = ["file", "import", "triangles", "bones", "actions", "box", "fps", "posed error", "export", "round trip"]
    rows = [header] + [row(r, corpus) for r in results if "blender" in r or r["file"] != "(add-on behaviour)"]
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    for line in rows:
        print("  ".join(text.ljust(width) for text, width in zip(line, widths)).rstrip())
    for result in results:
        for item in result["checks"]:
            if item["status"] != "pass" or result["file"] == "(add-on behaviour)":
                print(f"{item['status']:<4} {os.path.basename(result['file'])} {item['check']}: {detail(result, item['check'])[:300]}")


def main() -> int:
    """Runs the format-table checks, finds the tools, runs every file, prints the table and
    the closing line."""
    counts = {"pass": 0, "fail": 0, "skip": 0}
    rigport = find_rigport()
    for item in formats_table.checks(rigport):
        counts[item["status"]] += 1
        print(f"{item['status']:<4} formats {item['check']}: {item['detail']}")
    for label, module in (("glb names", glb_names_check), ("glb rest", glb_rest_check), ("glb scales", glb_scales_check)):
        for item in module.checks():
            counts[item["status"]] += 1
            print(f"{item['status']:<4} {label} {item['check']}: {item['detail']}")
    blender_checks(rigport, counts)
    print(f"\n{counts['pass']} passed, {counts['fail']} failed, {counts['skip']} skipped")
    return 1 if counts["fail"] else 0


def blender_checks(rigport: str | None, counts: dict[str, int]) -> None:
    """Finds Blender and the corpus, runs every file and the add-on's own checks in Blender,
    prints the table and adds each check's status to `counts`."""
    blender = os.environ.get("BLENDER") or shutil.which("blender")
    if not blender:
        print("blender is not installed: the Blender add-on tests skipped")
        counts["skip"] += 1
        return
    if rigport is None:
        print("no rigport binary: set RIGPORT_BIN or build target/release/rigport (cargo build --release)")
        counts["fail"] += 1
        return
    corpus = find_corpus()
    files = sys.argv[1:] or (corpus_files(corpus) if corpus else [])
    if not files:
        print("no corpus (set RIGPORT_CORPUS): the Blender add-on tests skipped")
        counts["skip"] += 1
        return
    env = blender_environment(blender, rigport)
    jobs = max(1, int(os.environ.get("RIGPORT_BLENDER_JOBS", "2")))
    print(f"blender: {blender}\nrigport: {rigport}\nfiles: {len(files)}, {jobs} at a time")
    with tempfile.TemporaryDirectory(prefix="rigport-blender-tests-") as work:
        mode = export_mode(rigport, work)
        if mode != "run":
            print(f"export round trip: {mode[len('skip:') :]}")
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(lambda f: run_file(blender, f, work, mode, env), files))
        results.append(addon_checks(blender, work, env))
    print_table(results, corpus)
    for result in results:
        for item in result["checks"]:
            counts[item["status"]] += 1


def addon_checks(blender: str, work: str, env: dict) -> dict:
    """The add-on's own behaviour (binary lookup, menus, failures), in one Blender process."""
    result_path = os.path.join(work, "addon.json")
    script = os.path.join(HERE, "blender_addon.py")
    command = [blender, "-b", "--factory-startup", "--python", script, "--", result_path, work]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=FILE_TIMEOUT, env=env, check=False)
        log = proc.stdout[-600:] + proc.stderr[-600:]
    except subprocess.TimeoutExpired:
        log = "timed out"
    checks = [{"check": "addon", "status": "fail", "detail": "no result: " + log}]
    if os.path.isfile(result_path):
        with open(result_path, encoding="utf-8") as text:
            checks = json.load(text)["checks"]
    checks.append(zip_check(blender, work, env))
    checks.append(kept_faces_check(blender, work, env))
    return {"file": "(add-on behaviour)", "checks": checks}


#: An IQE quad (2 triangles) with two repeats of its first triangle (one reversed) and a
#: triangle that uses one vertex twice: 5 triangles, of which Blender keeps 2.
REPEATED_FACES_IQE = """# Inter-Quake Export
mesh "quad"
vp 0 0 0
vp 1 0 0
vp 1 1 0
vp 0 1 0
fm 0 1 2
fm 0 2 3
fm 0 1 2
fm 2 1 0
fm 0 0 1
"""

#: What Blender runs for the check above: the add-on imports the file given after `--`.
IMPORT_EXPR = (
    "import sys, bpy; sys.path.insert(0, sys.argv[sys.argv.index('--') + 1]); import rigport_io; "
    "bpy.ops.wm.read_factory_settings(use_empty=True); rigport_io.register(); "
    "bpy.ops.import_scene.rigport(filepath=sys.argv[sys.argv.index('--') + 2]); "
    "print('BLENDER TRIANGLES', sum(len(p.vertices) - 2 for o in bpy.data.objects if o.type == 'MESH' "
    "for p in o.data.polygons))"
)


def kept_faces_check(blender: str, work: str, env: dict) -> dict:
    """Blender keeps every triangle of a file with faces its meshes cannot hold on shared
    vertices (a face repeating another's vertex set, one vertex used twice): the import
    gives them vertices of their own and says how many."""
    source = os.path.join(work, "repeated_faces.iqe")
    with open(source, "w", encoding="utf-8") as out:
        out.write(REPEATED_FACES_IQE)
    command = [blender, "-b", "--factory-startup", "--python-exit-code", "1", "--python-expr", IMPORT_EXPR]
    command += ["--", os.path.dirname(HERE), source]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=FILE_TIMEOUT, env=env, check=False)
    except subprocess.TimeoutExpired:
        return {"check": "kept_faces", "status": "fail", "detail": "timed out"}
    text = proc.stdout + proc.stderr
    wanted = ("BLENDER TRIANGLES 5", "3 triangles that use a vertex twice or repeat another's vertices have vertices of their own")
    missing = [w for w in wanted if w not in text]
    unwanted = [w for w in ("Blender merged", "Blender dropped") if w in text]
    if missing or unwanted:
        return {"check": "kept_faces", "status": "fail", "detail": f"missing {missing}, unwanted {unwanted}: {text[-400:]}"}
    return {"check": "kept_faces", "status": "pass", "detail": "5 of 5 triangles held, 3 given vertices of their own"}


def zip_check(blender: str, work: str, env: dict) -> dict:
    """Installs target/rigport_io.zip into an empty user-scripts folder and enables it."""
    if not os.path.isfile(ADDON_ZIP):
        return {"check": "zip_install", "status": "skip", "detail": "no target/rigport_io.zip (cargo xtask blender-addon)"}
    result_path = os.path.join(work, "zip.json")
    scripts = tempfile.mkdtemp(prefix="user-scripts-", dir=work)
    command = [blender, "-b", "--factory-startup", "--python", os.path.join(HERE, "blender_zip.py")]
    command += ["--", ADDON_ZIP, result_path]
    try:
        proc = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=FILE_TIMEOUT,
            env=dict(env, BLENDER_USER_SCRIPTS=scripts),
            check=False,
        )
        log = proc.stdout[-600:] + proc.stderr[-600:]
    except subprocess.TimeoutExpired:
        log = "timed out"
    if os.path.isfile(result_path):
        with open(result_path, encoding="utf-8") as text:
            return json.load(text)
    return {"check": "zip_install", "status": "fail", "detail": "no result: " + log}


if __name__ == "__main__":
    sys.exit(main())
