"""Figures for BENCHMARKS.md: ``rigport.read`` + ``Model.pose`` against trimesh loading the
same glTF files, and ``rigport.distributed.convert_all`` files per second on 1 and 2 workers.

    RIGPORT_CORPUS=../shared/corpus python bindings/python/benchmarks/bench.py

Needs the package with [dask] and trimesh (``pip install trimesh``). The glTF inputs are the
corpus's glTF files and fixtures/gltf's, plus every corpus model converted to .glb by rigport
(trimesh reads none of MilkShape, IQE or IQM).
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import rigport
from rigport.distributed import convert_all

REPO = Path(__file__).resolve().parents[3]


def best_of(repeats: int, work: Callable[[], object]) -> float:
    """The fastest of `repeats` runs, in seconds (the least disturbed by other load)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def gltf_inputs(corpus: Path, scratch: Path) -> list[Path]:
    files = [p for p in sorted((REPO / "fixtures" / "gltf").glob("*.glb")) if "fail" not in p.name]
    files += sorted((corpus / "gltf").glob("*.gl*"))
    for source, output, _ in rigport.plan_batch([str(corpus)], str(scratch), "glb"):
        if output is None or Path(source).suffix in (".glb", ".gltf"):
            continue
        try:
            rigport.convert(source, output)
        except (rigport.RigportError, OSError):
            continue
        files.append(Path(output))
    readable = []
    for path in files:
        try:
            rigport.read(path)
        except rigport.RigportError:
            continue
        readable.append(path)
    return readable


def read_and_pose(path: Path) -> None:
    model = rigport.read(path)
    if model.animations:
        model.pose(0, model.animations[0].duration / 2)


def main() -> None:
    import trimesh

    corpus = Path(os.environ.get("RIGPORT_CORPUS", REPO.parent / "shared" / "corpus"))
    if not corpus.is_absolute():
        corpus = REPO / corpus
    print(f"date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    print(f"rigport {rigport.__version__}, trimesh {trimesh.__version__}")
    with tempfile.TemporaryDirectory() as scratch:
        files = gltf_inputs(corpus, Path(scratch))
        size = sum(p.stat().st_size for p in files)
        rig = [best_of(5, partial(read_and_pose, p)) for p in files]
        tri: list[float] = []
        failed = 0
        for path in files:
            try:
                tri.append(best_of(5, partial(trimesh.load, path, force="scene")))
            except Exception:
                failed += 1
        print(f"\n{len(files)} glTF files, {size / 1e6:.1f} MB")
        print(
            f"rigport.read + pose: total {sum(rig) * 1e3:.1f} ms, "
            f"median {statistics.median(rig) * 1e3:.2f} ms per file"
        )
        print(
            f"trimesh.load:        total {sum(tri) * 1e3:.1f} ms, "
            f"median {statistics.median(tri) * 1e3:.2f} ms per file"
            + (f" ({failed} files trimesh could not load)" if failed else "")
        )

        from distributed import Client, LocalCluster

        inputs = [str(corpus)]
        count = len(rigport.plan_batch(inputs, scratch, "glb"))
        for workers in (1, 2):
            cluster = LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
            )
            with Client(cluster) as client:
                warm = convert_all(inputs, Path(scratch) / "warm", client=client, force=True)
                ok = sum(r["ok"] for r in warm)
                seconds = best_of(
                    3,
                    partial(
                        convert_all,
                        inputs,
                        Path(scratch) / f"out{workers}",
                        client=client,
                        force=True,
                    ),
                )
            cluster.close()
            print(
                f"convert_all {count} corpus files -> glb, {workers} worker(s): "
                f"{seconds:.2f} s, {count / seconds:.1f} files/s ({ok} converted, the rest fail)"
            )
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
