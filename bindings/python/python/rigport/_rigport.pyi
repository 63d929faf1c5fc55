"""Types of the native module's helpers for :mod:`rigport.distributed` (the public API is
typed in ``rigport/__init__.pyi``)."""

from collections.abc import Sequence
from typing import Any, Optional

from rigport import ReportEntry, StrPath

def batch_skipped(
    paths: Sequence[StrPath], verb: str = "convert"
) -> tuple[list[tuple[str, str]], Optional[str], Optional[str]]:
    """The files a batch passes over as (path, reason), their summary line, and the message
    when nothing below `paths` can be worked on."""

def plan_library(
    paths: Sequence[StrPath], out_dir: StrPath, resume: bool = False
) -> list[tuple[str, str, Optional[str], bool]]:
    """(input, folder name, clash message or None, done) per input of a library run."""

def render_model(
    input: StrPath, out_dir: StrPath, name: str, **options: Any
) -> tuple[str, list[ReportEntry]]:
    """Draws one model into ``out_dir/name/``; its manifest line (JSON) and report."""

def manifest_failure(input: StrPath, name: str, error: str) -> str:
    """The manifest line (JSON) of an input that failed."""

def write_annotations(
    out_dir: StrPath, models: Sequence[tuple[str, Any, Any]], size: tuple[int, int]
) -> list[str]:
    """Writes ``out_dir/annotations.json`` of (name, keypoints.json, bboxes) per model; the
    names left out."""
