"""Convert or draw many model files on a Dask cluster, one task per file.

Needs the ``dask`` extra (``pip install rigport[dask]``). Workers read their input from the
file system and write their output there: file contents never travel through the
scheduler, so every worker must see the same paths (one machine, or a shared file system).
A file that does not read is a failed result, never a failed job.

>>> from rigport.distributed import convert_all
>>> results = convert_all(["assets/"], "out/", to="glb")      # doctest: +SKIP
>>> [r["input"] for r in results if not r["ok"]]             # doctest: +SKIP

Datasets: ``render_all(paths, out_dir, orbit=8)`` writes what ``rigport render PATHS -o
OUT_DIR --orbit 8 --keypoints`` writes (a folder per model, ``manifest.jsonl``,
``annotations.json``), the same bytes; ``resume=True`` skips the models the manifest says
are done and whose files are all there whole, as ``--resume`` does.

From a shell, with a progress bar (``--scheduler tcp://HOST:8786`` uses a running cluster,
``--to png`` draws pictures instead, ``--orbit N`` orbit datasets)::

    python -m rigport.distributed assets/ -o out/ --to glb
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import uuid
import warnings
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Callable, Optional, TypedDict, Union

import rigport
from rigport import _rigport

if TYPE_CHECKING:
    from distributed import Client, Future

__all__ = ["Result", "SkippedFilesWarning", "convert_all", "main", "render_all"]

StrPath = Union[str, "os.PathLike[str]"]


class Result(TypedDict):
    """What happened to one input file."""

    input: str
    """The input file."""
    output: Optional[str]
    """The main output file (None when the input got no output path)."""
    ok: bool
    """Whether the output was written."""
    error: Optional[str]
    """Why not (the message of the exception), or None."""
    report: list[dict[str, str]]
    """The conversion's or picture's report: dicts with code, message and severity."""
    seconds: float
    """Time the task took on its worker."""
    outputs: list[str]
    """Every file written (the model's folder's files for a dataset; else the output)."""
    skipped: bool
    """Whether a resumed run found the input done and left it alone."""


def _failed(input: str, output: Optional[str], error: str, seconds: float = 0.0) -> Result:
    return {
        "input": input,
        "output": output,
        "ok": False,
        "error": error,
        "report": [],
        "seconds": seconds,
        "outputs": [],
        "skipped": False,
    }


def _run_one(work: Callable[[], list[rigport.ReportEntry]], input: str, output: str) -> Result:
    """Runs one file's job on a worker; any exception becomes a failed result."""
    start = time.perf_counter()
    try:
        report = work()
    except Exception as error:  # a damaged file fails its result, never the job
        kind = type(error).__name__
        message = f"{kind}: {error}" if not isinstance(error, rigport.RigportError) else str(error)
        return _failed(input, output, message, time.perf_counter() - start)
    return {
        "input": input,
        "output": output,
        "ok": True,
        "error": None,
        "report": _report(report),
        "seconds": time.perf_counter() - start,
        "outputs": [output],
        "skipped": False,
    }


def _report(report: Sequence[rigport.ReportEntry]) -> list[dict[str, str]]:
    return [{"code": e["code"], "message": e["message"], "severity": e["severity"]} for e in report]


def convert_task(input: str, output: str, to: str, options: dict[str, Any]) -> Result:
    """The task of :func:`convert_all` for one file (runs on a worker)."""
    return _run_one(lambda: list(rigport.convert(input, output, to=to, **options)), input, output)


def render_task(input: str, output: str, options: dict[str, Any]) -> Result:
    """The task of :func:`render_all` for one file (runs on a worker)."""
    return _run_one(lambda: list(rigport.render(input, output, **options)), input, output)


def model_task(input: str, out_dir: str, name: str, options: dict[str, Any]) -> tuple[str, Result]:
    """The task of :func:`render_all` for one model of a dataset (runs on a worker): its
    manifest line and result."""
    start = time.perf_counter()
    folder = os.path.join(out_dir, name)
    try:
        line, report = _rigport.render_model(input, out_dir, name, **options)
    except Exception as error:  # bad options fail the model's result, never the job
        message = f"{type(error).__name__}: {error}"
        line, report = _rigport.manifest_failure(input, name, message), []
    entry = json.loads(line)
    seconds = time.perf_counter() - start
    if entry["status"] != "ok":
        return line, _failed(input, folder, str(entry["error"]), seconds)
    result: Result = {
        "input": input,
        "output": folder,
        "ok": True,
        "error": None,
        "report": _report(report),
        "seconds": seconds,
        "outputs": [os.path.join(out_dir, o) for o in entry["outputs"]],
        "skipped": False,
    }
    return line, result


def _passed_over(paths: Sequence[StrPath], verb: str) -> None:
    """Says what a batch skips, as ``rigport convert|render DIR`` does: a warning counting the
    files below `paths` that rigport does not read (companions such as images aside), and
    ``ValueError`` when nothing there can be worked on."""
    _files, summary, nothing = _rigport.batch_skipped([os.fspath(p) for p in paths], verb)
    if nothing is not None:
        raise ValueError(nothing)
    if summary is not None:
        warnings.warn(summary, SkippedFilesWarning, stacklevel=3)


class SkippedFilesWarning(UserWarning):
    """A batch found files below its inputs that rigport does not read (the message counts
    them by extension: ``17 skipped: .fbx (17), not a format rigport reads``)."""


def _local_client(workers: Optional[int], processes: bool) -> Client:
    from distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=processes,
        dashboard_address=":0",
    )
    return Client(cluster)


def _progress(done: int, total: int, failed: int) -> None:
    width = 30
    filled = width * done // total if total else width
    bar = "#" * filled + "-" * (width - filled)
    tail = f", {failed} failed" if failed else ""
    sys.stderr.write(f"\r[{bar}] {done}/{total}{tail}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def _run(
    paths: Sequence[StrPath],
    out_dir: StrPath,
    extension: str,
    verb: str,
    submit: Callable[[Client, str, str], Future[Result]],
    client: Optional[Client],
    workers: Optional[int],
    processes: bool,
    progress: bool,
) -> list[Result]:
    planned = rigport.plan_batch([os.fspath(p) for p in paths], os.fspath(out_dir), extension, verb)
    _passed_over(paths, verb)
    results: list[Optional[Result]] = [None] * len(planned)
    own = client is None
    active = _local_client(workers, processes) if client is None else client
    try:
        futures: dict[Future[Result], int] = {}
        for index, (input, output, clash) in enumerate(planned):
            if output is None:
                results[index] = _failed(input, None, clash or "no output path")
            else:
                futures[submit(active, input, output)] = index
        total = len(planned)
        done = total - len(futures)
        failed = done
        if progress:
            _progress(done, total, failed)
        for future in _completed(futures):
            result: Result = future.result()
            results[futures[future]] = result
            done += 1
            failed += not result["ok"]
            if progress:
                _progress(done, total, failed)
    finally:
        if own:
            cluster = active.cluster
            active.close()
            if cluster is not None:
                cluster.close()
    return [r for r in results if r is not None]


def _completed(futures: dict[Future[Result], int]) -> Iterator[Future[Result]]:
    if not futures:
        return iter(())
    from distributed import as_completed

    return iter(as_completed(list(futures)))


def convert_all(
    paths: Sequence[StrPath],
    out_dir: StrPath,
    *,
    to: str = "glb",
    client: Optional[Client] = None,
    workers: Optional[int] = None,
    processes: bool = True,
    progress: bool = False,
    **options: Any,
) -> list[Result]:
    """Converts every readable file below `paths` into `out_dir` (``<stem>.<to's
    extension>``), one Dask task per file, as ``rigport convert PATHS... --to TO -o OUT_DIR``
    does on one machine.

    `options` are :func:`rigport.convert`'s (``force``, ``keep_axes``, ``embed_textures``,
    ``fps``…). `client` is a ``distributed.Client``; None starts a ``LocalCluster`` of
    `workers` single-threaded workers (``processes=False``: threads of this process) and
    closes it afterwards. `progress` draws a bar on stderr. Returns one :class:`Result` per
    input, in input order. Files below `paths` that rigport does not read are counted in a
    :class:`SkippedFilesWarning` (images, ``.bin`` and ``.mtl`` companions aside); when
    nothing there can be converted, ``ValueError`` says so.
    """
    known = rigport.formats()
    if to not in known or not known[to]["writes"]:
        writable = ", ".join(key for key, f in known.items() if f["writes"])
        raise ValueError(f"cannot write `{to}`: use one of {writable}")
    extension = str(known[to]["extension"])
    run = uuid.uuid4().hex

    def submit(active: Client, input: str, output: str) -> Future[Result]:
        return active.submit(
            convert_task,
            input,
            output,
            to,
            options,
            pure=False,
            key=f"rigport-convert-{input}-{run}",
        )

    return _run(paths, out_dir, extension, "convert", submit, client, workers, processes, progress)


def render_all(
    paths: Sequence[StrPath],
    out_dir: StrPath,
    *,
    client: Optional[Client] = None,
    workers: Optional[int] = None,
    processes: bool = True,
    progress: bool = False,
    orbit: Optional[int] = None,
    keypoints: bool = True,
    animate: bool = False,
    metadata: bool = False,
    resume: bool = False,
    **options: Any,
) -> list[Result]:
    """Draws every readable file below `paths` as ``out_dir/<stem>.png``, one Dask task per
    file, as ``rigport render PATHS... -o OUT_DIR`` does. `options` are
    :func:`rigport.render`'s (``size``, ``view``, ``sheet``, ``force``…); the rest as
    :func:`convert_all`.

    With `orbit` (views), `animate` or `metadata` it writes instead what ``rigport render
    PATHS... -o OUT_DIR --orbit N`` writes, byte for byte: a folder ``out_dir/<stem>/`` per
    model (``view_00.png``…, ``transforms.json``; with `keypoints` and `orbit`
    ``keypoints.json`` and ``out_dir/annotations.json``; with `animate` every frame,
    ``--animate``; with `metadata` ``metadata.json``) and ``out_dir/manifest.jsonl``, a
    line per input (its outputs, or its error) appended as each finishes. `options` are then
    the command's: ``size`` (one side or (w, h)), ``seed`` (random cameras), ``elevation``,
    ``passes`` (list of ``"depth"``, ``"normal"``, ``"mask"``), ``depth_format``,
    ``camera_convention``, ``anim``, ``time``, ``frame``, ``fps``, ``frames``,
    ``views_per_frame``, ``background``, ``wire``, ``force``, ``strict``, ``anims_beside``.
    `resume` skips the inputs whose last manifest line says ok and whose listed files are
    all there whole (``--resume``'s rule); the others are drawn again, replacing what an
    interrupted run left. A skipped input's result has ``skipped`` True. Files rigport does
    not read are counted in a :class:`SkippedFilesWarning`, and a folder with nothing to
    draw raises ``ValueError``, as in :func:`convert_all`.
    """
    if orbit is not None or animate or metadata:
        return _render_library(
            paths,
            out_dir,
            {
                "orbit": orbit,
                "keypoints": keypoints and orbit is not None,
                "animate": animate,
                "metadata": metadata,
                **options,
            },
            resume,
            client,
            workers,
            processes,
            progress,
        )
    if resume:
        raise ValueError("resume needs a dataset: orbit=N, animate=True or metadata=True")
    run = uuid.uuid4().hex

    def submit(active: Client, input: str, output: str) -> Future[Result]:
        return active.submit(
            render_task, input, output, options, pure=False, key=f"rigport-render-{input}-{run}"
        )

    return _run(paths, out_dir, "png", "render", submit, client, workers, processes, progress)


def _size(size: Any) -> tuple[int, int]:
    if isinstance(size, int):
        return (size, size)
    width, height = size
    return (int(width), int(height))


def _render_library(
    paths: Sequence[StrPath],
    out_dir: StrPath,
    options: dict[str, Any],
    resume: bool,
    client: Optional[Client],
    workers: Optional[int],
    processes: bool,
    progress: bool,
) -> list[Result]:
    out = os.fspath(out_dir)
    planned = _rigport.plan_library([os.fspath(p) for p in paths], out, resume)
    _passed_over(paths, "render")
    os.makedirs(out, exist_ok=True)
    size = _size(options.pop("size", 512))
    options = {**options, "size": size, "force": bool(options.get("force")) or resume}
    run = uuid.uuid4().hex
    results: list[Optional[Result]] = [None] * len(planned)
    own = client is None
    active = _local_client(workers, processes) if client is None else client
    manifest_path = os.path.join(out, "manifest.jsonl")
    try:
        with open(manifest_path, "a" if resume else "w", encoding="utf-8") as manifest:
            futures: dict[Future[tuple[str, Result]], int] = {}
            for index, (input, name, clash, done) in enumerate(planned):
                folder = os.path.join(out, name)
                if done:
                    results[index] = {
                        "input": input,
                        "output": folder,
                        "ok": True,
                        "error": None,
                        "report": [],
                        "seconds": 0.0,
                        "outputs": [],
                        "skipped": True,
                    }
                elif clash is not None:
                    manifest.write(_rigport.manifest_failure(input, name, clash) + "\n")
                    manifest.flush()
                    results[index] = _failed(input, folder, clash)
                else:
                    future = active.submit(
                        model_task,
                        input,
                        out,
                        name,
                        options,
                        pure=False,
                        key=f"rigport-dataset-{input}-{run}",
                    )
                    futures[future] = index
            total = len(planned)
            done_count = total - len(futures)
            failed = sum(1 for r in results if r is not None and not r["ok"])
            if progress:
                _progress(done_count, total, failed)
            if futures:
                from distributed import as_completed

                for future in as_completed(list(futures)):
                    line, result = future.result()
                    manifest.write(line + "\n")
                    manifest.flush()
                    results[futures[future]] = result
                    done_count += 1
                    failed += not result["ok"]
                    if progress:
                        _progress(done_count, total, failed)
    finally:
        if own:
            cluster = active.cluster
            active.close()
            if cluster is not None:
                cluster.close()
    finished = [r for r in results if r is not None]
    if options.get("keypoints"):
        _write_annotations(out, planned, finished, size)
    return finished


def _write_annotations(
    out: str,
    planned: list[tuple[str, str, Optional[str], bool]],
    finished: list[Result],
    size: tuple[int, int],
) -> None:
    """``annotations.json`` of the models done, read back with Python's exact float parser
    from their ``keypoints.json`` and the boxes of their last ok manifest line."""
    ok = {r["input"] for r in finished if r["ok"]}
    lines: dict[str, dict[str, Any]] = {}
    with open(os.path.join(out, "manifest.jsonl"), encoding="utf-8") as manifest:
        for text in manifest:
            try:
                line = json.loads(text)
            except ValueError:  # a line an interrupted run left half written
                continue
            if line.get("status") == "ok" and line.get("input") in ok:
                lines[line["input"]] = line
    models: list[tuple[str, Any, Any]] = []
    for input, name, _, _ in planned:
        line = lines.get(input)
        if line is None:
            continue
        try:
            with open(os.path.join(out, name, "keypoints.json"), encoding="utf-8") as file:
                keypoints = json.load(file)
        except (OSError, ValueError):
            keypoints = None
        models.append((name, keypoints, line.get("bboxes")))
    for name in _rigport.write_annotations(out, models, size):
        print(
            f"warning: {name}: no keypoints to read back; left out of annotations.json",
            file=sys.stderr,
        )


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m rigport.distributed``: exit 0 when every file converted, 1 otherwise."""
    parser = argparse.ArgumentParser(
        prog="python -m rigport.distributed",
        description="Convert (or, with --to png, draw) model files on a Dask cluster, one "
        "task per file. Workers read and write the paths themselves: they must share a file "
        "system with this machine.",
    )
    parser.add_argument("paths", nargs="+", help="model files or folders (recursed)")
    parser.add_argument("-o", "--out-dir", required=True, help="output folder")
    parser.add_argument("--to", default="glb", help="target format key, or png (default: glb)")
    parser.add_argument("--scheduler", help="address of a running scheduler (tcp://HOST:8786)")
    parser.add_argument("--workers", type=int, help="local workers when no --scheduler")
    parser.add_argument("--force", action="store_true", help="overwrite existing outputs")
    parser.add_argument(
        "--orbit",
        type=int,
        help="with --to png: N orbit views per model, keypoints and transforms.json (datasets)",
    )
    parser.add_argument(
        "--resume", action="store_true", help="with --orbit: skip the models already done"
    )
    args = parser.parse_args(argv)

    client = None
    if args.scheduler:
        from distributed import Client

        client = Client(args.scheduler)
    try:
        common: dict[str, Any] = {
            "client": client,
            "workers": args.workers,
            "progress": True,
            "force": args.force,
        }
        if args.to == "png" and args.orbit is not None:
            results = render_all(
                args.paths, args.out_dir, orbit=args.orbit, resume=args.resume, **common
            )
        elif args.to == "png":
            results = render_all(args.paths, args.out_dir, **common)
        else:
            results = convert_all(args.paths, args.out_dir, to=args.to, **common)
    except (OSError, ValueError, rigport.RigportError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        if client is not None:
            client.close()
    failed = [r for r in results if not r["ok"]]
    seconds = sum(r["seconds"] for r in results)
    print(
        f"{len(results) - len(failed)} written, {len(failed)} failed ({seconds:.2f} s of work)",
        file=sys.stderr,
    )
    for result in failed:
        print(f"  {result['input']}: {result['error']}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
