"""The formats the add-on offers, as the `rigport` module's `formats()` names them.

No Blender imports, so the table can be checked against `rigport.formats()` with a plain
Python (the tests do). Each entry: rigport's key, the file extensions Blender offers for
it, its family name (the word menus and the manifest use), whether rigport reads and
writes it, and whether its files hold animations only.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FormatEntry:
    """One format rigport knows."""

    key: str
    extension: str
    family: str
    reads: bool
    writes: bool


#: Every format rigport knows, in the order of `rigport.formats()`.
FORMATS = (
    FormatEntry("ms3d", ".ms3d", "MilkShape 3D", True, True),
    FormatEntry("ms3d-ascii", ".txt", "MilkShape 3D", True, True),
    FormatEntry("iqe", ".iqe", "IQE", True, True),
    FormatEntry("iqm", ".iqm", "IQM", True, True),
    FormatEntry("glb", ".glb", "glTF", True, True),
    FormatEntry("gltf", ".gltf", "glTF", True, True),
    FormatEntry("md5mesh", ".md5mesh", "MD5", True, True),
    FormatEntry("md5anim", ".md5anim", "MD5", True, True),
    FormatEntry("smd", ".smd", "SMD", True, True),
    FormatEntry("psk", ".psk", "PSK", True, True),
    FormatEntry("psa", ".psa", "PSK", True, True),
    FormatEntry("b3d", ".b3d", "B3D", True, True),
    FormatEntry("obj", ".obj", "OBJ", False, True),
)

#: Formats whose files hold a skeleton's animation and no mesh: imported onto an armature.
ANIMATION_ONLY = ("md5anim", "psa")

#: Formats written with their animations in files of their own beside the main one.
ANIMATIONS_BESIDE = ("md5mesh", "smd", "psk")


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
    return ";".join("*" + f.extension for f in entries)


def key_for_extension(extension: str, entries: list[FormatEntry]) -> str | None:
    """rigport's key for a file extension (any case) among `entries`, or None."""
    extension = extension.lower()
    for entry in entries:
        if entry.extension == extension:
            return entry.key
    return None


def label(entries: list[FormatEntry]) -> str:
    """A menu label naming every family: `MilkShape 3D / IQE / ... (rigport)`."""
    return " / ".join(families(entries)) + " (rigport)"
