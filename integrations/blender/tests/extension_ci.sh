#!/usr/bin/env bash
# The Blender extension (integrations/blender) in Blender 4.5 LTS and the newest 5.x, run
# headless as the `bpy` module from PyPI: ruff and mypy on the add-on, one virtual
# environment per Blender under target/blender-venvs/ (bpy 4.5.x on Python 3.11, bpy 5.x on
# Python 3.13; BPY45_PYTHON and BPY5_PYTHON name other interpreters), the extension zip from
# `cargo xtask blender-extension` (or the one RIGPORT_EXTENSION_ZIP names), then
# tests/extension_run.py in both, then tests/psk_oracle.py in bpy 5.x when RIGPORT_PSK_ADDON
# names a checkout of DarklightGames/io_scene_psk_psa. Skips with a note
# where PyPI cannot be reached or an interpreter is missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
venvs="$root/target/blender-venvs"
step() { printf '\n=== blender extension: %s\n' "$*"; }
started=$SECONDS

if ! python3 -c 'import urllib.request; urllib.request.urlopen("https://pypi.org/simple/bpy/", timeout=15)' >/dev/null 2>&1; then
    echo "note: PyPI cannot be reached: the Blender extension tests skipped"
    exit 0
fi

step "ruff and mypy"
lint="$venvs/lint"
if [[ ! -x "$lint/bin/python" ]]; then
    python3 -m venv "$lint"
fi
"$lint/bin/python" -m pip install -q ruff mypy maturin
(cd "$root/integrations/blender" && "$lint/bin/ruff" check rigport_io tests && "$lint/bin/mypy")

# An interpreter called NAME that runs: the one on PATH, else one of pyenv's versions (pyenv's
# shim for a version that is installed but not selected is on PATH and fails when run).
find_python() {
    local name="$1" candidate
    if "$name" -c 'import sys' >/dev/null 2>&1; then
        echo "$name"
        return 0
    fi
    if command -v pyenv >/dev/null 2>&1; then
        for candidate in "$(pyenv root)"/versions/*/bin/"$name"; do
            if [[ -x "$candidate" ]] && "$candidate" -c 'import sys' >/dev/null 2>&1; then
                echo "$candidate"
                return 0
            fi
        done
    fi
    return 1
}

# One venv per Blender: NAME PYTHON REQUIREMENT.
pythons=()
make_venv() {
    local name="$1" python="$2" requirement="$3" venv="$venvs/$1" t0=$SECONDS
    if ! python="$(find_python "$python")"; then
        echo "note: no $2 runs here: $requirement skipped"
        return 0
    fi
    step "$requirement on $("$python" --version 2>&1) ($venv)"
    if [[ ! -x "$venv/bin/python" ]]; then
        "$python" -m venv "$venv"
    fi
    if ! "$venv/bin/python" -m pip install -q --disable-pip-version-check "$requirement"; then
        echo "note: could not install $requirement: skipped"
        return 0
    fi
    echo "installed in $((SECONDS - t0)) s"
    pythons+=("$venv/bin/python")
}
make_venv bpy45 "${BPY45_PYTHON:-python3.11}" "bpy>=4.5,<4.6"
make_venv bpy5 "${BPY5_PYTHON:-python3.13}" "bpy>=5,<6"
if [[ ${#pythons[@]} -eq 0 ]]; then
    echo "note: no Blender module installed: the Blender extension tests skipped"
    exit 0
fi

if [[ -n "${RIGPORT_EXTENSION_ZIP:-}" ]]; then
    # The zip `cargo xtask dist` already built (CI), with its manylinux wheel inside.
    zip="$RIGPORT_EXTENSION_ZIP"
    step "extension zip ($zip)"
else
    step "extension zip (cargo xtask blender-extension)"
    version="$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' "$root/Cargo.toml")"
    zip="$root/target/dist/rigport_io-$version.zip"
    (cd "$root" && PATH="$lint/bin:$PATH" cargo xtask blender-extension)
fi

step "checks"
python3 "$here/extension_run.py" "$zip" "${pythons[@]}"

# PSK/PSA poses against DarklightGames' io_scene_psk_psa (Blender 5.0+), run from the checkout
# RIGPORT_PSK_ADDON names; the add-on is never part of this repository.
step "io_scene_psk_psa oracle"
bpy5="$venvs/bpy5/bin/python"
if [[ -z "${RIGPORT_PSK_ADDON:-}" ]]; then
    echo "note: RIGPORT_PSK_ADDON is not set: the io_scene_psk_psa oracle skipped"
elif [[ " ${pythons[*]} " != *" $bpy5 "* ]]; then
    echo "note: no bpy 5.x environment: the io_scene_psk_psa oracle skipped"
else
    "$bpy5" "$here/psk_oracle.py"
fi
echo "blender extension step: $((SECONDS - started)) s"
