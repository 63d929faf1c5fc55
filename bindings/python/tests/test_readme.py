"""The README's examples run as written."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

from conftest import REPO

README = Path(__file__).resolve().parents[1] / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def run(code: str) -> str:
    out = io.StringIO()
    here = os.getcwd()
    os.chdir(REPO)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, str(README), "exec"), {})
    finally:
        os.chdir(here)
    return out.getvalue()


def test_the_ten_line_example_runs() -> None:
    block = python_blocks()[0]
    assert len(block.strip().splitlines()) <= 12
    printed = run(block)
    assert printed.startswith("ms3d y ")


def test_the_error_example_prints_what_it_says() -> None:
    block = python_blocks()[1]
    expected = re.search(r"# (\d+ \d+),", block)
    assert expected is not None
    assert run("import rigport\n" + block).strip() == expected.group(1)
