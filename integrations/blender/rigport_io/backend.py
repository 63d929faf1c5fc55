"""The two routes to rigport: the `rigport` Python module in-process, else the command.

The extension (Blender 4.2 and later) bundles the `rigport` wheel, so `import rigport`
works and nothing else is needed. The legacy add-on (Blender 3.4 to 4.1) uses the module
when it can be imported and otherwise runs the `rigport` command found as `cli` says.
Both routes answer the same questions with the same shapes. No Blender imports.
"""

from __future__ import annotations

import math
import os
from typing import Any, Optional, Protocol, Sequence

from . import cli
from .cli import Conversion, ReportLine, RigportError


class Backend(Protocol):
    """What the importer and exporter ask of rigport."""

    #: `module` or the path of the command, for messages.
    name: str

    def convert(
        self,
        source: str,
        target: str,
        to: Optional[str] = None,
        with_anims: Sequence[str] = (),
        anims_beside: bool = False,
    ) -> Conversion:
        """Converts `source` to `target` (overwriting it); raises RigportError on failure."""

    def info(self, path: str) -> dict:
        """What `rigport info --json` says about `path`; raises RigportError when refused."""

    def first_fps(self, path: str, with_anims: Sequence[str] = (), anims_beside: bool = False) -> Optional[float]:
        """The frame rate of the first animation `path` gives, or None."""


def _module() -> Any:
    """The `rigport` Python module, or None when it cannot be imported."""
    try:
        import rigport
    except ImportError:
        return None
    if not hasattr(rigport, "convert"):
        return None
    return rigport


class ModuleBackend:
    """rigport in this process, through its Python package."""

    def __init__(self, module: Any) -> None:
        self.module = module
        self.name = "module"

    def _call(self, what: str, path: str, call: Any) -> Any:
        try:
            return call()
        except self.module.RigportError as err:
            raise RigportError(f"rigport could not {what} {os.path.basename(path)}: {err}") from err
        except (OSError, ValueError) as err:
            raise RigportError(f"rigport could not {what} {os.path.basename(path)}: {err}") from err

    def convert(
        self,
        source: str,
        target: str,
        to: Optional[str] = None,
        with_anims: Sequence[str] = (),
        anims_beside: bool = False,
    ) -> Conversion:
        options: dict = {"force": True, "with_anims": list(with_anims)}
        if to:
            options["to"] = to
        if anims_beside:
            options["anims_beside"] = True
        report = self._call("convert", source, lambda: self.module.convert(source, target, **options))
        lines = [
            ReportLine(
                severity=str(item.get("severity", "info")),
                message=str(item.get("message", "")),
                code=str(item.get("code", "")),
            )
            for item in report
        ]
        return Conversion(outputs=[target], report=lines)

    def info(self, path: str) -> dict:
        return dict(self._call("read", path, lambda: self.module.info(path)))

    def first_fps(self, path: str, with_anims: Sequence[str] = (), anims_beside: bool = False) -> Optional[float]:
        def read() -> Any:
            if anims_beside:
                return self.module.read(path, anims_beside=True)
            return self.module.read(path)

        model = self._call("read", path, read)
        rates = [a.fps for a in model.animations]
        for extra in with_anims:
            other = self._call("read", extra, lambda path=extra: self.module.read(path))
            rates += [a.fps for a in other.animations]
        for fps in rates:
            if isinstance(fps, (int, float)) and math.isfinite(fps) and fps > 0:
                return float(fps)
        return None


class CommandBackend:
    """rigport as a command (the legacy add-on without the module)."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        self.name = binary

    def convert(
        self,
        source: str,
        target: str,
        to: Optional[str] = None,
        with_anims: Sequence[str] = (),
        anims_beside: bool = False,
    ) -> Conversion:
        return cli.convert(self.binary, source, target, to=to, with_anims=with_anims, anims_beside=anims_beside)

    def info(self, path: str) -> dict:
        return cli.info(self.binary, path)

    def first_fps(self, path: str, with_anims: Sequence[str] = (), anims_beside: bool = False) -> Optional[float]:
        fps = cli.first_fps(cli.info(self.binary, path, anims_beside=anims_beside, anim_details=True))
        if fps is None:
            for extra in with_anims:
                fps = cli.first_fps(cli.info(self.binary, extra, anim_details=True))
                if fps is not None:
                    break
        return fps


def find(preference: str = "", use_module: bool = True) -> Backend:
    """The `rigport` module when it imports (and `use_module`), else the command.

    Raises RigportError saying where it looked when neither is there.
    """
    module = _module() if use_module else None
    if module is not None:
        return ModuleBackend(module)
    try:
        return CommandBackend(cli.find_binary(preference))
    except RigportError as err:
        raise RigportError(f"the rigport Python module is not installed, and {err}") from err
