#!/usr/bin/env python3
"""Where the add-on's format table comes from, checked with a plain Python (no Blender).

Usage: python3 integrations/blender/tests/formats_table.py [RIGPORT]

`rigport_io/formats.py` reads `formats.json` beside it, else `rigport.formats()`, else what
`rigport formats --json` prints ($RIGPORT_BIN, else `rigport` on PATH), and otherwise stops
the add-on's import with a message saying what to run. Each check loads a copy of
formats.py from a temporary folder in a fresh `python3 -I` (so neither the source tree's
git-ignored formats.json nor an installed `rigport` module is seen unless the check puts one
there), with a controlled PATH and RIGPORT_BIN and stand-ins for the command and the module.
With a real rigport (RIGPORT, else as run.py finds it) that has `formats --json`, the
table it gives must equal the source tree's formats.json from `cargo xtask blender-addon`.
Prints one line per check and `N passed, N failed, N skipped`; exits 1 on a failure.
run.py runs these checks too.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any, Callable, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from fake_rigport import fake_binary  # noqa: E402

ADDON = os.path.join(os.path.dirname(HERE), "rigport_io")
FORMATS_PY = os.path.join(ADDON, "formats.py")
#: The table `cargo xtask blender-addon` writes beside the add-on (git-ignored).
SOURCE_TABLE = os.path.join(ADDON, "formats.json")

#: A table in the shape `rigport formats --json`, `rigport.formats()` and formats.json give.
TABLE: dict[str, dict[str, Any]] = {
    "ms3d": {
        "family": "MilkShape 3D",
        "description": "MilkShape 3D binary",
        "extension": "ms3d",
        "extensions": ["ms3d"],
        "reads": True,
        "writes": True,
        "animation_only": False,
    },
    "ms3d-ascii": {
        "family": "MilkShape 3D",
        "description": "MilkShape 3D ASCII",
        "extension": "txt",
        "extensions": ["txt"],
        "reads": True,
        "writes": True,
        "animation_only": False,
    },
    "md5anim": {
        "family": "MD5",
        "description": "id Tech 4 MD5 animation",
        "extension": "md5anim",
        "extensions": ["md5anim"],
        "reads": True,
        "writes": True,
        "animation_only": True,
    },
    "obj": {
        "family": "OBJ",
        "description": "Wavefront OBJ",
        "extension": "obj",
        "extensions": ["obj"],
        "reads": False,
        "writes": True,
        "animation_only": False,
    },
}

#: Loads the formats.py given as argv[1] and prints what it offers as one JSON line, or the
#: error its import raised. argv[2] is a folder to import `rigport` from, or `-` to make
#: `import rigport` fail as it does where the module is not installed.
LOADER = """
import importlib.util, json, sys
path, module_dir = sys.argv[1], sys.argv[2]
if module_dir == "-":
    sys.modules["rigport"] = None
else:
    sys.path.insert(0, module_dir)
spec = importlib.util.spec_from_file_location("formats_under_test", path)
formats = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = formats
try:
    spec.loader.exec_module(formats)
except ImportError as err:
    print(json.dumps({"error": type(err).__name__, "message": str(err)}))
else:
    print(json.dumps({
        "keys": [f.key for f in formats.FORMATS],
        "readable": [f.key for f in formats.readable()],
        "writable": [f.key for f in formats.writable()],
        "animation_only": list(formats.ANIMATION_ONLY),
        "glob": formats.glob(formats.readable()),
        "table": formats._table(),
    }))
"""

#: What the message must name when no source gives the table.
ADVICE = ("cargo xtask blender-addon", "RIGPORT_BIN", "PATH", "rigport` Python wheel")


class Sandbox:
    """A temporary folder with a copy of formats.py, an empty folder for PATH, and helpers
    that add formats.json, a stand-in `rigport` module and stand-in rigport commands."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.addon = os.path.join(root, "addon")
        self.empty = os.path.join(root, "empty")
        for folder in (self.addon, self.empty):
            os.makedirs(folder)
        shutil.copy(FORMATS_PY, os.path.join(self.addon, "formats.py"))

    def table_beside(self, table: dict) -> None:
        """Writes `table` as formats.json beside the copy of formats.py."""
        with open(os.path.join(self.addon, "formats.json"), "w", encoding="utf-8") as out:
            json.dump(table, out)

    def module(self, table: dict) -> str:
        """A folder holding a `rigport` module whose formats() returns `table`."""
        folder = os.path.join(self.root, "module")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "rigport.py"), "w", encoding="utf-8") as out:
            out.write(f"def formats():\n    return {table!r}\n\ndef convert(*args, **kwargs):\n    raise NotImplementedError\n")
        return folder

    def command(self, folder: str, name: str, body: str) -> str:
        """An executable shell script standing in for rigport (shell builtins only: PATH may
        be empty)."""
        return fake_binary(os.path.join(self.root, folder), name, body)

    def printing(self, folder: str, name: str, table: dict) -> str:
        """A stand-in rigport that prints `table` for `formats --json` and refuses anything else."""
        text = json.dumps(table, indent=2)
        assert "'" not in text
        body = f"""if [ "$*" = "formats --json" ]; then printf '%s\\n' '{text}'; exit 0; fi
echo "error: unexpected arguments: $*" >&2
exit 2"""
        return self.command(folder, name, body)

    def load(self, path: Optional[str] = None, rigport_bin: Optional[str] = None, module_dir: str = "-") -> dict:
        """Loads the copy of formats.py in a fresh `python3 -I` with PATH set to `path` (else
        the empty folder) and RIGPORT_BIN to `rigport_bin` (else unset); returns its JSON line."""
        env = {k: v for k, v in os.environ.items() if k != "RIGPORT_BIN" and not k.startswith("PYTHON")}
        env["PATH"] = path or self.empty
        if rigport_bin is not None:
            env["RIGPORT_BIN"] = rigport_bin
        command = [sys.executable, "-I", "-c", LOADER, os.path.join(self.addon, "formats.py"), module_dir]
        proc = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env, cwd=self.root, check=False)
        lines = proc.stdout.strip().splitlines()
        if proc.returncode != 0 or not lines:
            raise AssertionError(f"the loader failed (status {proc.returncode}): {proc.stderr.strip()[-600:]}")
        loaded: dict = json.loads(lines[-1])
        return loaded


def marked(table: dict, family: str) -> dict:
    """`table` with every entry's family set to `family`, to tell the sources apart."""
    return {key: dict(entry, family=family) for key, entry in table.items()}


def loaded_table(result: dict) -> dict:
    """The table formats.py loaded, or an AssertionError with the import's message."""
    if "error" in result:
        raise AssertionError(f"import failed: {result['error']}: {result['message']}")
    table: dict = result["table"]
    return table


def from_rigport_bin(box: Sandbox) -> str:
    """No formats.json, no module: the table comes from $RIGPORT_BIN's `formats --json`."""
    binary = box.printing("bin", "rigport-dev", TABLE)
    result = box.load(rigport_bin=binary)
    assert loaded_table(result) == TABLE, result
    assert result["keys"] == list(TABLE), result["keys"]
    assert result["readable"] == ["ms3d", "ms3d-ascii", "md5anim"], result["readable"]
    assert result["writable"] == list(TABLE), result["writable"]
    assert result["animation_only"] == ["md5anim"], result["animation_only"]
    assert result["glob"] == "*.ms3d;*.txt;*.md5anim", result["glob"]
    return f"{len(TABLE)} formats, in order, from `$RIGPORT_BIN formats --json`"


def from_path(box: Sandbox) -> str:
    """RIGPORT_BIN unset (and then naming no file): the `rigport` on PATH gives the table."""
    binary = box.printing("path", "rigport", TABLE)
    assert loaded_table(box.load(path=os.path.dirname(binary))) == TABLE
    missing = os.path.join(box.root, "no-such-rigport")
    assert loaded_table(box.load(path=os.path.dirname(binary), rigport_bin=missing)) == TABLE
    return "`rigport formats --json` from PATH, also past a RIGPORT_BIN that names no file"


def order(box: Sandbox) -> str:
    """formats.json beside formats.py beats the `rigport` module, which beats the command."""
    binary = box.printing("bin", "rigport-dev", marked(TABLE, "command"))
    module_dir = box.module(marked(TABLE, "module"))
    got = loaded_table(box.load(rigport_bin=binary, module_dir=module_dir))
    assert got == marked(TABLE, "module"), f"the module does not come before the command: {got}"
    box.table_beside(marked(TABLE, "beside"))
    got = loaded_table(box.load(rigport_bin=binary, module_dir=module_dir))
    assert got == marked(TABLE, "beside"), f"formats.json does not come first: {got}"
    return "formats.json, then the rigport module, then the command"


def error_from(result: dict) -> str:
    """The message of the import error formats.py raised; AssertionError when it loaded."""
    assert "error" in result, f"loaded without any source: {result.get('keys')}"
    assert result["error"] == "TableNotFound", result
    message: str = result["message"]
    missing = [word for word in ADVICE if word not in message]
    assert not missing, f"the message does not name {missing}: {message}"
    return message


def nothing(box: Sandbox) -> str:
    """No formats.json, no module, no command: the import fails saying what to run."""
    message = error_from(box.load())
    assert "no `rigport` on PATH" in message and "RIGPORT_BIN is not set" in message, message
    return "TableNotFound naming `cargo xtask blender-addon`, the wheel, PATH and RIGPORT_BIN"


def command_without_formats(box: Sandbox) -> str:
    """A rigport without `formats --json` (usage error), or printing something else: the
    import fails naming the command and what it did, with the same advice."""
    old = box.command("old", "rigport", "echo \"error: unrecognized subcommand 'formats'\" >&2\nexit 2")
    message = error_from(box.load(rigport_bin=old))
    assert f"`{old} formats --json` exited with status 2" in message and "unrecognized subcommand" in message, message
    garbled = box.command("garbled", "rigport", 'echo \'{"ms3d": {"family": "MilkShape 3D"}}\'')
    message = error_from(box.load(rigport_bin=garbled))
    assert "printed no table of formats" in message and "extension" in message, message
    return "a usage error or a table without the fields stops the import with the command's answer"


def real_command(box: Sandbox, rigport: Optional[str]) -> dict:
    """This rigport's `formats --json`, loaded through formats.py, equals the source tree's
    formats.json (what `cargo xtask blender-addon` writes), keys in the same order."""
    if not rigport:
        return {"check": "real_command", "status": "skip", "detail": "no rigport binary (RIGPORT_BIN, target/*/rigport)"}
    probe = subprocess.run([rigport, "formats", "--json"], capture_output=True, text=True, timeout=60, check=False)
    if probe.returncode == 2 and "formats" in probe.stderr:
        said = probe.stderr.strip().splitlines()[0] if probe.stderr.strip() else ""
        return {"check": "real_command", "status": "skip", "detail": f"{rigport} has no `formats --json` ({said})"}
    result = box.load(rigport_bin=rigport)
    table = loaded_table(result)
    if not os.path.isfile(SOURCE_TABLE):
        return {
            "check": "real_command",
            "status": "pass",
            "detail": f"{len(table)} formats from {rigport}; no formats.json to compare (cargo xtask blender-addon)",
        }
    with open(SOURCE_TABLE, encoding="utf-8") as text:
        written = json.load(text)
    assert table == written, f"`rigport formats --json` differs from formats.json: {table} != {written}"
    assert list(table) == list(written), f"keys in another order: {list(table)} != {list(written)}"
    return {"check": "real_command", "status": "pass", "detail": f"{len(table)} formats from {rigport}, equal to formats.json"}


CHECKS: tuple[Callable[[Sandbox], str], ...] = (from_rigport_bin, from_path, order, nothing, command_without_formats)


def checks(rigport: Optional[str]) -> list[dict]:
    """Every check, each in a fresh sandbox: `{check, status, detail}`."""
    results = []
    for check in CHECKS:
        with tempfile.TemporaryDirectory(prefix="rigport-formats-") as root:
            try:
                results.append({"check": check.__name__, "status": "pass", "detail": check(Sandbox(root))})
            except Exception as err:
                results.append({"check": check.__name__, "status": "fail", "detail": f"{type(err).__name__}: {err}"})
    with tempfile.TemporaryDirectory(prefix="rigport-formats-") as root:
        try:
            results.append(real_command(Sandbox(root), rigport))
        except Exception as err:
            results.append({"check": "real_command", "status": "fail", "detail": f"{type(err).__name__}: {err}"})
    return results


def main() -> int:
    """Runs the checks, prints one line each and the closing counts."""
    if len(sys.argv) > 1:
        rigport: Optional[str] = os.path.abspath(sys.argv[1])
    else:
        from run import find_rigport

        rigport = find_rigport()
    results = checks(rigport)
    for item in results:
        print(f"{item['status']:<4} formats {item['check']}: {item['detail']}")
    counts = {status: sum(r["status"] == status for r in results) for status in ("pass", "fail", "skip")}
    print(f"\n{counts['pass']} passed, {counts['fail']} failed, {counts['skip']} skipped")
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
