"""Finding and running the rigport command-line binary.

This module has no Blender imports so that it can be tested (and reused by the
test runner) with a plain Python interpreter.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Optional, Sequence

from . import formats

#: Environment variable naming the rigport binary (second in the lookup order).
ENV_VAR = "RIGPORT_BIN"

#: Output format per file extension, as `rigport convert --to` names it.
FORMAT_BY_EXTENSION = {f.extension: f.key for f in formats.writable()}

#: Longest a single conversion may run before it is treated as hung (seconds).
TIMEOUT_SECONDS = 600


class RigportError(Exception):
    """rigport could not be found, could not be run, or refused the input."""


@dataclass
class ReportLine:
    """One line of rigport's conversion report."""

    severity: str
    message: str
    code: str = ""

    def text(self) -> str:
        """The line as shown to the user: `rigport loss: message [code]`."""
        suffix = f" [{self.code}]" if self.code else ""
        return f"rigport {self.severity}: {self.message}{suffix}"


@dataclass
class Conversion:
    """What one `rigport convert --json` run said."""

    outputs: list[str] = field(default_factory=list)
    report: list[ReportLine] = field(default_factory=list)


def find_binary(preference: str = "") -> str:
    """The rigport binary: the add-on preference, then $RIGPORT_BIN, then PATH.

    Raises RigportError with a message saying where it looked when none is found.
    """
    tried = []
    for origin, candidate in (
        ("add-on preference", preference.strip()),
        (ENV_VAR, os.environ.get(ENV_VAR, "").strip()),
    ):
        if not candidate:
            continue
        path = os.path.abspath(os.path.expanduser(candidate))
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
        tried.append(f"{origin} {path!r} is not an executable file")
    on_path = shutil.which("rigport")
    if on_path:
        return on_path
    tried.append("no `rigport` on PATH")
    raise RigportError(
        "rigport binary not found ("
        + "; ".join(tried)
        + "). Set it in Edit > Preferences > Add-ons > rigport, "
        f"or set {ENV_VAR}, or put `rigport` on PATH."
    )


def _run(binary: str, args: Sequence[str]) -> subprocess.CompletedProcess:
    """Runs rigport with `args`, capturing text output; raises RigportError if it cannot start."""
    try:
        return subprocess.run(
            [binary, *args],
            capture_output=True,
            text=True,
            timeout=TIMEOUT_SECONDS,
            check=False,
        )
    except OSError as err:
        raise RigportError(f"cannot run {binary}: {err}") from err
    except subprocess.TimeoutExpired as err:
        raise RigportError(f"{binary} did not finish within {TIMEOUT_SECONDS} s") from err


def _error_text(proc: subprocess.CompletedProcess) -> str:
    """rigport's own error message: the JSON `error` field if there is one, else stderr."""
    for line in proc.stdout.splitlines():
        try:
            doc = json.loads(line)
        except ValueError:
            continue
        if isinstance(doc, dict) and "error" in doc:
            return str(doc["error"])
    text = proc.stderr.strip() or proc.stdout.strip()
    return text or f"rigport exited with status {proc.returncode}"


def parse_conversion(stdout: str) -> Conversion:
    """Reads the JSON document `rigport convert --json` prints for one file."""
    for line in stdout.splitlines():
        try:
            doc = json.loads(line)
        except ValueError:
            continue
        if not isinstance(doc, dict) or "report" not in doc:
            continue
        lines = [
            ReportLine(
                severity=str(item.get("severity", "info")),
                message=str(item.get("message", "")),
                code=str(item.get("code", "")),
            )
            for item in doc.get("report", [])
            if isinstance(item, dict)
        ]
        return Conversion(outputs=[str(o) for o in doc.get("outputs", [])], report=lines)
    raise RigportError(f"rigport printed no JSON report: {stdout.strip()[:200]!r}")


def convert(
    binary: str,
    source: str,
    target: str,
    to: Optional[str] = None,
    with_anims: Sequence[str] = (),
    anims_beside: bool = False,
) -> Conversion:
    """Runs `rigport convert SOURCE TARGET --force --json` (and `--to`, `--with-anims`,
    `--anims-beside` when given).

    Raises RigportError with rigport's message when it fails.
    """
    args = ["convert", source, target, "--force", "--json"]
    if to:
        args += ["--to", to]
    for extra in with_anims:
        args += ["--with-anims", extra]
    if anims_beside:
        args.append("--anims-beside")
    proc = _run(binary, args)
    if proc.returncode != 0:
        raise RigportError(f"rigport could not convert {os.path.basename(source)}: {_error_text(proc)}")
    return parse_conversion(proc.stdout)


def info(binary: str, path: str, anim_details: bool = False, anims_beside: bool = False) -> dict:
    """The `rigport info --json` summary of one file; raises RigportError when rigport refuses it.

    With `anim_details`, also asks for `anim_details` (each animation's name, frame rate and
    length); a rigport too old for that flag is asked again without it, and the summary then
    has no `anim_details` key.
    """
    if anim_details:
        beside = ["--anims-beside"] if anims_beside else []
        proc = _run(binary, ["info", "--json", "--anim-details", *beside, path])
        if proc.returncode == USAGE_ERROR and "--anim-details" in proc.stderr:
            return info(binary, path)
        return _info_json(proc)
    return _info_json(_run(binary, ["info", "--json", path]))


#: The exit status of a command line rigport does not understand (clap's usage error).
USAGE_ERROR = 2


def first_fps(summary: dict) -> Optional[float]:
    """The frame rate of the first animation in an `info --anim-details` summary, if valid."""
    details = summary.get("anim_details")
    if not isinstance(details, list) or not details or not isinstance(details[0], dict):
        return None
    fps = details[0].get("fps")
    if isinstance(fps, (int, float)) and math.isfinite(fps) and fps > 0:
        return float(fps)
    return None


def _info_json(proc: subprocess.CompletedProcess) -> dict:
    """The JSON object an `info --json` run printed; raises RigportError on its error."""
    for line in proc.stdout.splitlines():
        try:
            doc = json.loads(line)
        except ValueError:
            continue
        if isinstance(doc, dict):
            if "error" in doc:
                raise RigportError(str(doc["error"]))
            if proc.returncode == 0:
                return doc
    raise RigportError(_error_text(proc))
