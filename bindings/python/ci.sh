#!/usr/bin/env bash
# Builds the Python package into a fresh virtual environment under target/ and runs ruff,
# mypy and pytest on it. Reads RIGPORT_CORPUS (the real-file corpus) and RIGPORT_BIN (the
# rigport command to compare with); the tests that need them say they skipped when unset.
# The release build of the extension shares the workspace target folder (CARGO_TARGET_DIR
# if set), so a second run only relinks what changed. With RIGPORT_WHEEL set to a wheel
# already built (`cargo xtask dist` makes one), that wheel is installed and tested instead
# of a build from the sources here.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
python="${PYTHON:-python3}"
venv="$CARGO_TARGET_DIR/python-venv"

step() { printf '\n=== python: %s\n' "$*"; }

step "virtual environment ($venv)"
if [[ ! -x "$venv/bin/python" ]]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q ruff mypy pytest
# pycocotools: annotations.json of `render --keypoints` is loaded as COCO tools load it
# (the test says it skipped when the install fails).
"$venv/bin/python" -m pip install -q pycocotools || echo "pycocotools not installed: its test will skip"

"$venv/bin/python" -m pip uninstall -q -y rigport >/dev/null 2>&1 || true
if [[ -n "${RIGPORT_WHEEL:-}" ]]; then
    step "install the wheel $(basename "$RIGPORT_WHEEL") with [dask]"
    "$venv/bin/python" -m pip install -q "$RIGPORT_WHEEL[dask]"
else
    step "build and install the package with [dask]"
    # pip builds through maturin (pyproject.toml) with cargo's release profile.
    "$venv/bin/python" -m pip install -q "$here[dask]"
fi

cd "$here"
step "ruff"
"$venv/bin/ruff" check python tests benchmarks
"$venv/bin/ruff" format --check python tests benchmarks

step "mypy"
"$venv/bin/mypy"

step "pytest"
status=0
"$venv/bin/python" -m pytest -q -p no:cacheprovider tests || status=$?
if [[ $status -eq 5 ]]; then
    echo "error: pytest collected no tests" >&2
    exit 1
fi
exit $status
