#!/usr/bin/env python3
"""The speed goals of BENCHMARKS.md, measured side by side in one run.

Every command of a goal runs in the same rounds as its anchor (``cp``, ``assimp export``,
the IQM SDK's ``iqm``, Blender), the order alternating from round to round, each to a new
output file removed beforehand (outside the timing). A goal's ratio is that of the two
medians; a peak is the child's maximum resident set (``wait4``) against the input's size.
With ``--baseline`` another rigport build runs in the same rounds, and each of its commands
is compared with this build's by the median of the paired ratios.

    cargo build --release -p rigport-cli && cargo xtask bench-data
    python3 docs/benchmarks/goals.py --runs 10 [--baseline OLD/rigport] [--only ms3d,iqm]

Anchors not installed are left out with a note. ``--orbit`` adds the folder render against
Blender's Workbench (a minute or more), ``--large-fbx FILE`` the large FBX of
``crates/fbx/benches/large_fbx.py``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Sample:
    """One run of a command."""

    wall: float
    user: float
    system: float
    peak_kib: int


@dataclass
class Command:
    """A command and the files it writes (removed before each run)."""

    name: str
    argv: list[str]
    outputs: list[Path]
    samples: list[Sample] = field(default_factory=list)
    # A folder render exits non-zero for the models it cannot draw (no triangles).
    may_fail: bool = False
    # The median of the runs under `/usr/bin/time` (`peaks`), when there were any.
    peak: float | None = None

    def median_wall(self) -> float:
        return statistics.median(s.wall for s in self.samples)

    def median_peak_kib(self) -> float:
        if self.peak is not None:
            return self.peak
        return statistics.median(s.peak_kib for s in self.samples)

    def clear_outputs(self) -> None:
        for output in self.outputs:
            remove(output)


@dataclass
class Goal:
    """``numerator / denominator`` (wall medians, or a peak against a size) held against a
    limit: at most ``limit`` when ``at_most``, else at least."""

    title: str
    numerator: str
    denominator: str | None
    limit: float | None
    at_most: bool
    peak_of: Path | None = None


def remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    elif path.exists():
        path.unlink()


def run_once(command: Command) -> Sample:
    """Runs `command` once, its outputs removed first; fails if it does."""
    command.clear_outputs()
    start = time.perf_counter()
    child = subprocess.Popen(command.argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    stderr = child.stderr.read().decode(errors="replace") if child.stderr else ""
    if child.stderr:
        child.stderr.close()
    if child.returncode != 0 and not command.may_fail:
        raise SystemExit(f"{command.name} failed ({child.returncode}): {stderr.strip()}")
    return Sample(wall, usage.ru_utime, usage.ru_stime, usage.ru_maxrss)


def peak_kib(command: Command) -> int | None:
    """The peak resident set of one run, as `/usr/bin/time` sees it: the child forked from
    this Python process would count the interpreter's pages before it starts the command."""
    if not Path("/usr/bin/time").exists():
        return None
    command.clear_outputs()
    done = subprocess.run(
        ["/usr/bin/time", "-f", "%M", *command.argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    lines = done.stderr.strip().splitlines()
    return int(lines[-1]) if done.returncode == 0 and lines and lines[-1].isdigit() else None


def peaks(commands: list[Command], runs: int) -> None:
    """Each command's peak, the median of `runs` runs (in place of what `wait4` saw)."""
    for command in commands:
        seen = [p for p in (peak_kib(command) for _ in range(runs)) if p is not None]
        if seen:
            command.peak = statistics.median(seen)


def rounds(commands: list[Command], runs: int, warmup: int) -> None:
    """`warmup` rounds left out, then `runs` rounds; odd rounds run the list backwards."""
    for round_ in range(warmup + runs):
        order = commands if round_ % 2 == 0 else commands[::-1]
        for command in order:
            sample = run_once(command)
            if round_ >= warmup:
                command.samples.append(sample)
        print(f"  round {round_ + 1}/{warmup + runs}", end="\r", file=sys.stderr, flush=True)
    print(file=sys.stderr)


def paired_ratio(new: Command, old: Command) -> float:
    """Median of the ratios of the runs of one round (`new` / `old`).

    >>> a = Command("a", [], [], [Sample(2.0, 0, 0, 0), Sample(3.0, 0, 0, 0)])
    >>> b = Command("b", [], [], [Sample(4.0, 0, 0, 0), Sample(3.0, 0, 0, 0)])
    >>> paired_ratio(a, b)
    0.75
    """
    return statistics.median(n.wall / o.wall for n, o in zip(new.samples, old.samples))


def ratio(goal: Goal, by_name: dict[str, Command]) -> float:
    """The goal's measured ratio.

    >>> c = {"x": Command("x", [], [], [Sample(3.0, 0, 0, 1024)]),
    ...      "y": Command("y", [], [], [Sample(1.0, 0, 0, 0)])}
    >>> ratio(Goal("", "x", "y", 3.0, True), c)
    3.0
    """
    numerator = by_name[goal.numerator]
    if goal.peak_of is not None:
        return numerator.median_peak_kib() * 1024 / goal.peak_of.stat().st_size
    assert goal.denominator is not None
    return numerator.median_wall() / by_name[goal.denominator].median_wall()


def verdict(goal: Goal, value: float) -> str:
    """Met or not, with the limit.

    >>> verdict(Goal("", "x", "y", 3.0, True), 2.5)
    'met (at most 3x)'
    >>> verdict(Goal("", "x", "y", 20.0, False), 11.3)
    'not met (at least 20x)'
    >>> verdict(Goal("", "x", "y", None, False), 9.9)
    'measured (no goal)'
    """
    if goal.limit is None:
        return "measured (no goal)"
    met = value <= goal.limit if goal.at_most else value >= goal.limit
    bound = "at most" if goal.at_most else "at least"
    return f"{'met' if met else 'not met'} ({bound} {goal.limit:g}x)"


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"{platform.node()}: {cpu}, {os.cpu_count()} cores, load {load}"


def plan(args: argparse.Namespace, out: Path) -> tuple[list[Command], list[Goal], list[str]]:
    """The commands and goals the installed anchors and the inputs allow."""
    data: Path = args.data
    rigport = str(args.rigport)
    commands: list[Command] = []
    goals: list[Goal] = []
    notes: list[str] = []
    only = set(args.only.split(",")) if args.only else None

    def wanted(key: str) -> bool:
        return only is None or key in only

    def add(name: str, argv: list[str], *outputs: Path) -> None:
        commands.append(Command(name, argv, list(outputs)))

    def convert(name: str, source: Path, target: str) -> None:
        output = out / f"{name}.{target}"
        add(name, [rigport, "convert", str(source), str(output)], output)

    def anchor(
        title: str, ours: str, theirs: str, argv: list[str], output: Path, limit: float | None
    ) -> None:
        """The anchor `theirs` (writing `output`) beside `ours`, and its goal: at least
        `limit` times the time of `ours` (`None`: measured only)."""
        add(theirs, argv, output)
        goals.append(Goal(title, theirs, ours, limit, False))

    quad100, quad10 = data / "quad100.iqe", data / "quad10.iqe"
    if wanted("quad") and quad100.exists() and quad10.exists():
        add("cp quad100", ["cp", str(quad100), str(out / "copy.iqe")], out / "copy.iqe")
        for target, limit in (("glb", 3.0), ("iqm", 3.5)):
            convert(f"quad100 {target}", quad100, target)
            convert(f"quad10 {target}", quad10, target)
            goals += [
                Goal(f"quad100 → {target} / cp", f"quad100 {target}", "cp quad100", limit, True),
                Goal(
                    f"quad100 → {target} peak / input",
                    f"quad100 {target}",
                    None,
                    1.5,
                    True,
                    peak_of=quad100,
                ),
                Goal(
                    f"quad10 → quad100 ({target})",
                    f"quad100 {target}",
                    f"quad10 {target}",
                    10.5,
                    True,
                ),
            ]
    elif wanted("quad"):
        notes.append(f"no {quad100} or {quad10}: `cargo xtask bench-data` writes them")

    ms3d = data / "big32767.ms3d"
    assimp = shutil.which("assimp")
    if wanted("ms3d") and ms3d.exists() and assimp:
        convert("ms3d glb", ms3d, "glb")
        output = out / "a.glb"
        argv = [assimp, "export", str(ms3d), str(output)]
        anchor("`.ms3d` → glb, assimp / rigport", "ms3d glb", "assimp ms3d", argv, output, 20)
    elif wanted("ms3d"):
        notes.append("`.ms3d` against assimp left out: no assimp or no big32767.ms3d")

    big10 = data / "big10.iqe"
    sdk = shutil.which(str(args.iqm_sdk))
    if wanted("iqm") and big10.exists() and sdk:
        convert("big10 iqm", big10, "iqm")
        output = out / "s.iqm"
        argv = [sdk, str(output), str(big10)]
        anchor("`.iqe` → `.iqm`, IQM SDK / rigport", "big10 iqm", "IQM SDK big10", argv, output, 18)
    elif wanted("iqm"):
        notes.append("`.iqe` → `.iqm` against the IQM SDK left out: no `iqm` (--iqm-sdk)")

    if wanted("text") and big10.exists() and sdk:
        # The same rig as MD5 (mesh and animation) and SMD (reference and sequence),
        # written untimed by this build, each animation as `big10_<name>.*` beside it.
        for label, main, motions in (("md5", "md5mesh", "md5anim"), ("smd", "smd", "smd")):
            mesh = out / f"big10.{main}"
            write = [rigport, "convert", str(big10), str(mesh), "-q"]
            subprocess.run(write, check=True, capture_output=True)
            written = sorted(out.glob(f"big10_*.{motions}"))
            if not written:
                notes.append(f"{label} against the IQM SDK left out: big10.iqe has no animation")
                continue
            motion, ours = written[0], out / f"{label}.iqm"
            argv = [rigport, "convert", str(mesh), str(ours), "--with-anims", str(motion)]
            add(f"{label} iqm", argv, ours)
            theirs = out / f"sdk-{label}.iqm"
            argv = [sdk, str(theirs), str(mesh), str(motion)]
            title = f"{label} → `.iqm`, IQM SDK / rigport"
            anchor(title, f"{label} iqm", f"IQM SDK {label}", argv, theirs, None)
        if (data / "big10.txt").exists():
            convert("ms3d-ascii iqm", data / "big10.txt", "iqm")
    elif wanted("text"):
        notes.append("MD5 and SMD against the IQM SDK left out: no `iqm` or no big10.iqe")

    fbx_inputs = [("character", args.corpus / "fbx" / "ufbx_maya_kenney_character_7700_binary.fbx")]
    if args.large_fbx:
        fbx_inputs.append(("large", args.large_fbx))
    for label, source in fbx_inputs if wanted("fbx") else []:
        if not (source.exists() and assimp):
            notes.append(f"FBX {label} against assimp left out: no assimp or no {source}")
            continue
        convert(f"fbx {label}", source, "glb")
        output = out / f"assimp-{label}.glb"
        argv = [assimp, "export", str(source), str(output)]
        title = f"FBX {label} → glb, assimp / rigport"
        anchor(title, f"fbx {label}", f"assimp fbx {label}", argv, output, 10)
    return commands, goals, notes


def orbit(args: argparse.Namespace, out: Path) -> tuple[str, float] | None:
    """Per-picture wall time of Blender's Workbench over rigport's, on the corpus folders
    converted to glb (8 views of 512 x 512 each)."""
    blender = shutil.which("blender")
    if blender is None:
        print("orbit left out: no blender", file=sys.stderr)
        return None
    rigport = str(args.rigport)
    glbs = out / "orbit-glb"
    remove(glbs)
    glbs.mkdir()
    for folder in ("ms3d", "iqe", "iqm", "gltf", "md5", "smd"):
        converted = out / "orbit-convert"
        remove(converted)
        subprocess.run(
            [
                rigport,
                "convert",
                str(args.corpus / folder),
                "--to",
                "glb",
                "-o",
                str(converted),
                "-q",
            ],
            check=False,
            capture_output=True,
        )
        for glb in converted.rglob("*.glb"):
            shutil.move(str(glb), glbs / f"{folder}_{glb.name}")
    pictures = out / "orbit-rigport"
    render = Command(
        "render",
        [
            rigport,
            "render",
            str(glbs),
            "-o",
            str(pictures),
            "--orbit",
            "8",
            "--size",
            "512x512",
            "-q",
        ],
        [pictures],
        may_fail=True,
    )
    rounds([render], args.runs, 1)
    ours = render.median_wall() / max(1, len(list(pictures.rglob("*.png"))))
    script = ROOT / "docs" / "benchmarks" / "render_blender.py"
    env = {k: v for k, v in os.environ.items() if k != "PATH"} | {"PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [
            blender,
            "-b",
            "--python",
            str(script),
            "--",
            str(glbs),
            str(out / "orbit-blender"),
            "BLENDER_WORKBENCH",
            "8",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    line = next((x for x in done.stdout.splitlines() if x.startswith("BENCH")), None)
    if line is None:
        print("orbit left out: Blender printed no BENCH line", file=sys.stderr)
        return None
    words = line.split()
    images = int(words[words.index("images") + 1])
    wall = float(words[words.index("wall") + 1].rstrip("s"))
    theirs = wall / max(1, images)
    return (f"{ours * 1e3:.1f} ms a picture against Blender's {theirs * 1e3:.0f} ms", theirs / ours)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rigport", type=Path, default=ROOT / "target/release/rigport")
    parser.add_argument("--baseline", type=Path, help="another rigport build run beside it")
    parser.add_argument("--data", type=Path, default=ROOT / "bench-data")
    parser.add_argument(
        "--corpus",
        type=Path,
        default=Path(os.environ.get("RIGPORT_CORPUS", ROOT.parent / "shared/corpus")),
    )
    parser.add_argument("--iqm-sdk", default="iqm", help="the IQM SDK's compiler")
    parser.add_argument("--large-fbx", type=Path, help="crates/fbx/benches/large_fbx.py's file")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--only", help="comma-separated: quad, ms3d, iqm, text, fbx")
    parser.add_argument("--orbit", action="store_true", help="also the folder render (slow)")
    args = parser.parse_args()
    if not args.rigport.exists():
        raise SystemExit(f"no {args.rigport}: cargo build --release -p rigport-cli")

    with tempfile.TemporaryDirectory(prefix="rigport-goals-", dir=args.data) as scratch:
        out = Path(scratch)
        commands, goals, notes = plan(args, out)
        pairs: list[tuple[Command, Command]] = []
        if args.baseline:
            for command in [c for c in commands if c.argv[:1] == [str(args.rigport)]]:
                outputs = [o.with_name("base-" + o.name) for o in command.outputs]
                argv = [str(args.baseline)] + [
                    str(outputs[command.outputs.index(Path(a))])
                    if Path(a) in command.outputs
                    else a
                    for a in command.argv[1:]
                ]
                old = Command(f"{command.name} (baseline)", argv, outputs)
                pairs.append((command, old))
            commands += [old for _, old in pairs]
        print(f"{len(commands)} commands, {args.runs} rounds", file=sys.stderr)
        rounds(commands, args.runs, args.warmup)
        peaks(commands, min(args.runs, 5))
        orbit_result = orbit(args, out) if args.orbit else None

    by_name = {c.name: c for c in commands}
    print(f"{datetime.date.today()} · {machine()} · {args.rigport}\n")
    print("| command | median wall | p10-p90 | user + system | peak |")
    print("|---|---:|---:|---:|---:|")
    for c in commands:
        walls = [s.wall for s in c.samples]
        deciles = statistics.quantiles(walls, n=10) if len(walls) > 1 else walls * 9
        low, high = deciles[0], deciles[-1]
        cpu = statistics.median(s.user + s.system for s in c.samples)
        print(
            f"| {c.name} | {c.median_wall() * 1e3:.1f} ms | {low * 1e3:.1f}-{high * 1e3:.1f} ms"
            f" | {cpu * 1e3:.1f} ms | {c.median_peak_kib() / 1024:.1f} MB |"
        )
    print("\n| goal | ratio | status |\n|---|---:|---|")
    for goal in goals:
        value = ratio(goal, by_name)
        print(f"| {goal.title} | {value:.2f}x | {verdict(goal, value)} |")
    if orbit_result is not None:
        text, value = orbit_result
        orbit_goal = Goal("orbit pictures, Blender / rigport", "", None, 150, False)
        print(
            f"| orbit pictures, Blender / rigport ({text}) | {value:.0f}x |"
            f" {verdict(orbit_goal, value)} |"
        )
    if pairs:
        print("\n| command | this build / baseline (paired median) |\n|---|---:|")
        for new, old in pairs:
            print(f"| {new.name} | {paired_ratio(new, old):.3f}x |")
    for note in notes:
        print(f"\nnote: {note}")


if __name__ == "__main__":
    main()
