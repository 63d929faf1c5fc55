"""The formats the add-on offers: rigport's registry, as `rigport.formats()` gives it.

The add-on names no format of its own. The zips carry the registry's table as
`formats.json` beside this file; `cargo xtask blender-extension` and `blender-addon` write it
there (git-ignored) before zipping, so the add-on run from the source tree reads it too.
Without it the table comes from the `rigport` module, else from the `rigport` command
(`rigport formats --json`, the same table), found as `cli.find_binary` finds it less the
add-on preference, which cannot be read before the add-on registers: $RIGPORT_BIN, then
PATH. Without any of the three, importing this module raises `TableNotFound`, saying what to
run. No Blender imports and no imports from the package, so the table can be checked with a
plain Python (the tests do).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The table's name beside this file.
TABLE = "formats.json"

#: Environment variable naming the rigport binary (as `cli.ENV_VAR`).
ENV_VAR = "RIGPORT_BIN"

#: The command line, after the binary, that prints the table.
COMMAND = ("formats", "--json")

#: Longest `rigport formats --json` may run (seconds).
TIMEOUT_SECONDS = 10

#: What each entry of the table must hold, and of which type.
FIELDS = {"extension": str, "family": str, "reads": bool, "writes": bool, "animation_only": bool, "extensions": list}


class TableNotFound(ImportError):
    """No source of the registry's table: no `formats.json`, no `rigport` module, no command."""


@dataclass(frozen=True)
class FormatEntry:
    """One format rigport knows."""

    #: rigport's key (`--to`, `info`'s `format`).
    key: str
    #: The usual file extension, with its dot.
    extension: str
    #: The family name menus and the manifest use (`MD5` for `.md5mesh` and `.md5anim`).
    family: str
    reads: bool
    writes: bool
    #: Whether its files hold a skeleton's animations and no mesh: imported onto an armature.
    animation_only: bool = False
    #: Every file extension, with dots, the usual one first.
    extensions: tuple[str, ...] = ()


def _table() -> dict[str, Any]:
    """The registry's table: `formats.json` beside this file, else `rigport.formats()`, else
    `rigport formats --json`; raises TableNotFound saying what to run when none gives it."""
    beside = Path(__file__).with_name(TABLE)
    if beside.is_file():
        table: dict[str, Any] = json.loads(beside.read_text(encoding="utf-8"))
        return table
    try:
        import rigport
    except ImportError as err:
        missing = isinstance(err, ModuleNotFoundError) and err.name == "rigport"
        module_said = "the `rigport` Python module is not installed" if missing else f"the `rigport` module does not import ({err})"
    else:
        if hasattr(rigport, "formats"):
            reported: dict[str, Any] = rigport.formats()
            return reported
        module_said = f"the `rigport` module at {getattr(rigport, '__file__', '?')} has no formats()"
    try:
        return _command_table()
    except _CommandFailed as err:
        command_said = str(err)
    raise TableNotFound(
        f"rigport I/O cannot list rigport's formats: there is no {TABLE} beside {beside.parent}, "
        f"{module_said}, and {command_said}. Do one of: run `cargo xtask blender-addon` in the rigport "
        f"source tree (it writes {beside}); install the `rigport` Python wheel where Blender's Python "
        f"imports it; or put a `rigport` command that has `rigport formats --json` on PATH, or set "
        f"{ENV_VAR} to one (`cargo build --release -p rigport-cli` builds target/release/rigport)."
    )


class _CommandFailed(Exception):
    """The rigport command is missing or did not print the table; says which."""


def _binary() -> str:
    """The rigport command: $RIGPORT_BIN when it names an executable file, else `rigport` on PATH."""
    tried = []
    named = os.environ.get(ENV_VAR, "").strip()
    if named:
        path = os.path.abspath(os.path.expanduser(named))
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
        tried.append(f"{ENV_VAR} {path!r} is not an executable file")
    else:
        tried.append(f"{ENV_VAR} is not set")
    on_path = shutil.which("rigport")
    if on_path:
        return on_path
    tried.append("there is no `rigport` on PATH")
    raise _CommandFailed(" and ".join(tried))


def _command_table() -> dict[str, Any]:
    """The table `rigport formats --json` prints; raises _CommandFailed saying what went wrong."""
    binary = _binary()
    shown = " ".join([binary, *COMMAND])
    try:
        proc = subprocess.run([binary, *COMMAND], capture_output=True, text=True, timeout=TIMEOUT_SECONDS, check=False)
    except OSError as err:
        raise _CommandFailed(f"`{shown}` could not run: {err}") from err
    except subprocess.TimeoutExpired as err:
        raise _CommandFailed(f"`{shown}` did not finish within {TIMEOUT_SECONDS} s") from err
    if proc.returncode != 0:
        said = (proc.stderr.strip() or proc.stdout.strip()).splitlines()
        raise _CommandFailed(f"`{shown}` exited with status {proc.returncode}" + (f" ({said[0][:200]})" if said else ""))
    try:
        table = json.loads(proc.stdout)
    except ValueError as err:
        raise _CommandFailed(f"`{shown}` printed no JSON ({err}): {proc.stdout.strip()[:200]!r}") from err
    problem = _shape_problem(table)
    if problem:
        raise _CommandFailed(f"`{shown}` printed no table of formats: {problem}")
    checked: dict[str, Any] = table
    return checked


def _shape_problem(table: object) -> str:
    """What keeps `table` from being the registry's table, or "" when nothing does."""
    if not isinstance(table, dict) or not table:
        return "not a non-empty JSON object"
    for key, entry in table.items():
        if not isinstance(entry, dict):
            return f"{key!r} is not an object"
        for field, kind in FIELDS.items():
            if not isinstance(entry.get(field), kind):
                return f"{key!r} has no {kind.__name__} {field!r}"
        if not all(isinstance(e, str) for e in entry["extensions"]):
            return f"{key!r} has extensions that are not strings"
    return ""


def _entries(table: dict[str, Any]) -> tuple[FormatEntry, ...]:
    return tuple(
        FormatEntry(
            key=key,
            extension="." + entry["extension"],
            family=entry["family"],
            reads=bool(entry["reads"]),
            writes=bool(entry["writes"]),
            animation_only=bool(entry["animation_only"]),
            extensions=tuple("." + e for e in entry["extensions"]),
        )
        for key, entry in table.items()
    )


#: Every format rigport knows, in the order of `rigport.formats()`.
FORMATS = _entries(_table())

#: Formats whose files hold a skeleton's animation and no mesh: imported onto an armature.
ANIMATION_ONLY = tuple(f.key for f in FORMATS if f.animation_only)


def readable() -> list[FormatEntry]:
    """The formats File > Import offers."""
    return [f for f in FORMATS if f.reads]


def writable() -> list[FormatEntry]:
    """The formats File > Export offers."""
    return [f for f in FORMATS if f.writes]


def families(entries: list[FormatEntry]) -> list[str]:
    """The family names of `entries`, each once, in order."""
    seen: list[str] = []
    for entry in entries:
        if entry.family not in seen:
            seen.append(entry.family)
    return seen


def glob(entries: list[FormatEntry]) -> str:
    """A file browser filter for `entries`: `*.ms3d;*.txt;...`."""
    return ";".join("*" + e for f in entries for e in (f.extensions or (f.extension,)))


def key_for_extension(extension: str, entries: list[FormatEntry]) -> str | None:
    """rigport's key for a file extension (any case) among `entries`, or None."""
    extension = extension.lower()
    for entry in entries:
        if extension in (entry.extensions or (entry.extension,)):
            return entry.key
    return None


def label(entries: list[FormatEntry]) -> str:
    """A menu label naming every family: `MilkShape 3D / IQE / ... (rigport)`."""
    return " / ".join(families(entries)) + " (rigport)"
