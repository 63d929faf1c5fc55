"""Showing rigport's report lines in Blender's info area."""

from __future__ import annotations

from typing import Callable, Iterable

from .cli import ReportLine

#: An operator's `report` method: `report({'WARNING'}, "text")`.
Reporter = Callable[[set, str], None]


def blender_level(severity: str, losses_warn: bool) -> str:
    """The Blender report type for a rigport severity.

    Warnings and errors always show as warnings (the conversion went through);
    losses are warnings on export, where the user's data is what is lost, and
    info on import, where they describe the intermediate glTF.
    """
    if severity in ("warning", "error"):
        return "WARNING"
    if severity == "loss" and losses_warn:
        return "WARNING"
    return "INFO"


def show(report: Reporter, lines: Iterable[ReportLine], losses_warn: bool) -> int:
    """Sends every line to `report`; returns how many were warnings."""
    warnings = 0
    for line in lines:
        level = blender_level(line.severity, losses_warn)
        warnings += level == "WARNING"
        report({level}, line.text())
    return warnings
