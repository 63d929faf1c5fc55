"""Convert or draw many model files on a Dask cluster, one task per file.

Needs the ``dask`` extra (``pip install rigport[dask]``). Workers read their input from the
file system and write their output there: file contents never travel through the
scheduler, so every worker must see the same paths (one machine, or a shared file system).
A file that does not read is a failed result, never a failed job.

>>> from rigport.distributed import convert_all
>>> results = convert_all(["assets/"], "out/", to="glb")      # doctest: +SKIP
>>> [r["input"] for r in results if not r["ok"]]             # doctest: +SKIP

From a shell, with a progress bar (``--scheduler tcp://HOST:8786`` uses a running cluster,
``--to png`` draws pictures instead)::

    python -m rigport.distributed assets/ -o out/ --to glb
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Callable, Optional, TypedDict, Union

import rigport

if TYPE_CHECKING:
    from distributed import Client, Future

__all__ = ["Result", "convert_all", "main", "render_all"]

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


def _failed(input: str, output: Optional[str], error: str, seconds: float = 0.0) -> Result:
    return {
        "input": input,
        "output": output,
        "ok": False,
        "error": error,
        "report": [],
        "seconds": seconds,
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
        "report": [
            {"code": e["code"], "message": e["message"], "severity": e["severity"]} for e in report
        ],
        "seconds": time.perf_counter() - start,
    }


def convert_task(input: str, output: str, to: str, options: dict[str, Any]) -> Result:
    """The task of :func:`convert_all` for one file (runs on a worker)."""
    return _run_one(lambda: list(rigport.convert(input, output, to=to, **options)), input, output)


def render_task(input: str, output: str, options: dict[str, Any]) -> Result:
    """The task of :func:`render_all` for one file (runs on a worker)."""
    return _run_one(lambda: list(rigport.render(input, output, **options)), input, output)


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
    input, in input order.
    """
    known = rigport.formats()
    if to not in known or not known[to]["writes"]:
        writable = ", ".join(key for key, f in known.items() if f["writes"])
        raise ValueError(f"cannot write `{to}`: use one of {writable}")
    extension = str(known[to]["extension"])

    def submit(active: Client, input: str, output: str) -> Future[Result]:
        return active.submit(
            convert_task, input, output, to, options, pure=False, key=f"rigport-convert-{input}"
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
    **options: Any,
) -> list[Result]:
    """Draws every readable file below `paths` as ``out_dir/<stem>.png``, one Dask task per
    file, as ``rigport render PATHS... -o OUT_DIR`` does. `options` are
    :func:`rigport.render`'s (``size``, ``view``, ``sheet``, ``force``…); the rest as
    :func:`convert_all`.
    """

    def submit(active: Client, input: str, output: str) -> Future[Result]:
        return active.submit(
            render_task, input, output, options, pure=False, key=f"rigport-render-{input}"
        )

    return _run(paths, out_dir, "png", "render", submit, client, workers, processes, progress)


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
        if args.to == "png":
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
