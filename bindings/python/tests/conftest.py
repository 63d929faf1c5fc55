"""Shared test helpers: the repository's fixtures, the real-file corpus (RIGPORT_CORPUS) and
the rigport command (RIGPORT_BIN), each skipped with a message when absent."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Optional

import pytest

import rigport

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "fixtures"


def corpus_root() -> Optional[Path]:
    """$RIGPORT_CORPUS (relative paths taken from the repository root), or None."""
    value = os.environ.get("RIGPORT_CORPUS")
    if not value:
        return None
    root = Path(value)
    return root if root.is_absolute() else REPO / root


def corpus_files() -> list[Path]:
    """Every corpus file whose extension rigport reads (the batch walk's rule), sorted."""
    root = corpus_root()
    if root is None:
        return []
    planned = rigport.plan_batch([str(root)], "/nonexistent", "x")
    return [Path(input) for input, _, _ in planned]


def cli() -> Optional[str]:
    """$RIGPORT_BIN, the rigport command to compare with, or None."""
    return os.environ.get("RIGPORT_BIN") or None


def need_cli() -> str:
    binary = cli()
    if binary is None:
        pytest.skip("RIGPORT_BIN not set: the comparison with the rigport command skipped")
    return binary


def need_corpus() -> list[Path]:
    if corpus_root() is None:
        pytest.skip("RIGPORT_CORPUS not set: the corpus tests skipped")
    files = corpus_files()
    assert files, "RIGPORT_CORPUS holds no readable file"
    return files


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """Runs the rigport command; its exit status is the caller's to check."""
    return subprocess.run(
        [need_cli(), *args], capture_output=True, text=True, check=False, timeout=600
    )


def cli_info(path: Path) -> dict[str, Any]:
    """What ``rigport info --json PATH`` prints, parsed."""
    done = run_cli("info", "--json", str(path))
    line = done.stdout.strip().splitlines()[0]
    result: dict[str, Any] = json.loads(line)
    return result


def tree(folder: Path) -> dict[str, bytes]:
    """Every file below `folder` by relative path, with its bytes."""
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }
