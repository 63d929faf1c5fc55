#!/usr/bin/env bash
# End-to-end test of the web page: builds the site (`cargo xtask web`), installs the test's
# Python packages into a venv under target/, and runs web/tests in headless Chromium.
# Needs: Debian's chromium (or $CHROMIUM), python3 with venv, npm. $RIGPORT_BIN is the CLI
# the exports are compared with (built here when unset). Exits non-zero on any failure;
# pytest prints the "N passed, N failed" summary.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target_dir=${CARGO_TARGET_DIR:-$root/target}
case "$target_dir" in /*) ;; *) target_dir=$root/$target_dir ;; esac

chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
    echo "web/ci.sh: no Chromium at $chromium (install Debian's: apt-get install chromium, or set CHROMIUM)" >&2
    exit 1
fi
export CHROMIUM=$chromium

cargo xtask web

if [ -z "${RIGPORT_BIN:-}" ]; then
    cargo build -p rigport-cli
    RIGPORT_BIN=$target_dir/debug/rigport
fi
export RIGPORT_BIN

venv=$root/target/web-venv
if ! "$venv/bin/python" -c 'import playwright, pytest' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r web/requirements-test.txt
fi
# The system Chromium is used; Playwright must not fetch a browser of its own.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
exec "$venv/bin/python" -m pytest web/tests -q -p no:cacheprovider "$@"
