"""The formats the add-on offers: rigport's registry, as `rigport.formats()` gives it.

The add-on names no format of its own. The zips carry the registry's table as
`formats.json` beside this file; `cargo xtask blender-extension` and `blender-addon` write it
there (git-ignored) before zipping, so the add-on run from the source tree reads it too.
Without it the table comes from the `rigport` module. No Blender imports, so the table can be
checked with a plain Python (the tests do).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The table's name beside this file.
TABLE = "formats.json"


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
    """The registry's table: `formats.json` beside this file, else `rigport.formats()`."""
    beside = Path(__file__).with_name(TABLE)
    if beside.is_file():
        table: dict[str, Any] = json.loads(beside.read_text(encoding="utf-8"))
        return table
    import rigport

    reported: dict[str, Any] = rigport.formats()
    return reported


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
