#!/usr/bin/env python3
"""Runs the extension checks in each Blender given and prints a table.

Usage: python3 extension_run.py ZIP PYTHON [PYTHON...]

Each PYTHON is an interpreter with the `bpy` module installed (Blender as a Python
module, from PyPI). The corpus (RIGPORT_CORPUS, else ../shared/corpus beside the
repository) is split into one batch per format folder; each batch is one process of
`extension_check.py` with a PATH that holds no rigport, cargo or rustc (RIGPORT_BPY_JOBS
processes at a time, default 2). Each Blender's table ends with how many round trips came
back whole (RIGPORT_ROUND_TRIP_DETAIL=1 prints what each kept and lost). Ends with
`N passed, N failed, N skipped`; exits 1 on a failure.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
#: The corpus folders of every format rigport reads, and the extensions taken from each.
CORPUS = {
    "ms3d": (".ms3d",),
    "ms3d-ascii": (".txt",),
    "iqe": (".iqe",),
    "iqm": (".iqm",),
    "md5": (".md5mesh", ".md5anim"),
    "md5-damaged": (".md5mesh",),
    "smd": (".smd",),
    "psk": (".psk", ".pskx", ".psa"),
    "b3d": (".b3d",),
    "gltf": (".glb", ".gltf"),
    "gltf-morph": (".glb", ".gltf"),
}
#: Longest one batch may run (seconds).
TIMEOUT = 900


def find_corpus() -> str | None:
    for path in (os.environ.get("RIGPORT_CORPUS", ""), os.path.join(REPO, "..", "shared", "corpus")):
        if path and os.path.isdir(path):
            return os.path.abspath(path)
    return None


def batches(corpus: str) -> list[list[str]]:
    """One list of files per corpus folder, sorted."""
    out = []
    for folder, extensions in CORPUS.items():
        root = os.path.join(corpus, folder)
        if os.path.isdir(root):
            files = [os.path.join(root, n) for n in sorted(os.listdir(root)) if n.lower().endswith(extensions)]
            if files:
                out.append(files)
    return out


#: RIGPORT_ROUND_TRIP_DETAIL=1 prints what every round trip kept and lost, not only failures.
DETAIL = os.environ.get("RIGPORT_ROUND_TRIP_DETAIL") == "1"


def clean_path() -> str:
    """PATH without any folder that holds rigport, cargo or rustc."""
    keep = []
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        if not folder or any(os.path.exists(os.path.join(folder, t)) for t in ("rigport", "cargo", "rustc")):
            continue
        keep.append(folder)
    return os.pathsep.join(keep)


def run_batch(python: str, zip_path: str, files: list[str], behaviour: bool, work: str) -> dict:
    folder = tempfile.mkdtemp(prefix="batch-", dir=work)
    result = os.path.join(folder, "result.json")
    env = dict(os.environ, PATH=clean_path(), RIGPORT_BEHAVIOUR="1" if behaviour else "0")
    env.pop("RIGPORT_BIN", None)
    command = [python, os.path.join(HERE, "extension_check.py"), zip_path, result, folder, *files]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, env=env, check=False)
        log = (proc.stdout + proc.stderr)[-800:]
    except subprocess.TimeoutExpired:
        log = f"timed out after {TIMEOUT} s"
    if os.path.isfile(result):
        with open(result, encoding="utf-8") as text:
            return json.load(text)
    return {"blender": "?", "results": [{"file": files[0], "checks": [{"check": "batch", "status": "fail", "detail": log}]}]}


def main() -> int:
    zip_path, *pythons = sys.argv[1:]
    corpus = find_corpus()
    if corpus is None:
        print("no corpus (set RIGPORT_CORPUS): the extension tests skipped\n0 passed, 0 failed, 1 skipped")
        return 0
    jobs = max(1, int(os.environ.get("RIGPORT_BPY_JOBS", "2")))
    counts = {"pass": 0, "fail": 0, "skip": 0}
    with tempfile.TemporaryDirectory(prefix="rigport-extension-tests-") as work:
        for python in pythons:
            started = time.monotonic()
            groups = batches(corpus)
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                jobs_here = [(python, zip_path, files, i == 0, work) for i, files in enumerate(groups)]
                outputs = list(pool.map(lambda job: run_batch(*job), jobs_here))
            blender = next((o["blender"] for o in outputs if o["blender"] != "?"), "?")
            print(f"\n=== Blender {blender} ({python}): {sum(len(g) for g in groups)} files, {time.monotonic() - started:.0f} s")
            trips = []
            for output in outputs:
                for result in output["results"]:
                    name = os.path.relpath(result["file"], corpus) if result["file"].startswith(corpus) else result["file"]
                    mark = {"pass": "ok", "fail": "FAIL", "skip": "skip"}
                    marks = " ".join(f"{c['check']}:{mark[c['status']]}" for c in result["checks"])
                    counts_text = result.get("counts", {})
                    summary = " ".join(f"{k} {v[0]}/{v[1]}" for k, v in counts_text.items())
                    print(f"{name:<55} {summary:<40} {marks}")
                    for c in result["checks"]:
                        counts[c["status"]] += 1
                        shown = DETAIL and c["check"] == "round trip"
                        if c["status"] == "fail" or name.startswith("(") or shown:
                            print(f"    {c['status']} {c['check']}: {c['detail'][:400]}")
                        if c["check"] == "round trip":
                            trips.append(c["detail"])
            whole = sum(1 for detail in trips if "differs:" not in detail)
            print(f"round trips whole (every property equal): {whole} of {len(trips)} in Blender {blender}")
    print(f"\n{counts['pass']} passed, {counts['fail']} failed, {counts['skip']} skipped")
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
