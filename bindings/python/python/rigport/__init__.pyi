"""Types of the rigport package (the native module ``rigport._rigport``)."""

import os
from collections.abc import Sequence
from typing import Any, Optional, TypedDict, Union

import numpy as np
import numpy.typing as npt

__version__: str

StrPath = Union[str, "os.PathLike[str]"]

class ReportEntry(TypedDict):
    """One notice of a conversion or picture report."""

    code: str
    message: str
    severity: str  # "info", "warning" or "loss"

class RigportError(Exception):
    """A file rigport could not read, convert, pose or draw.

    ``offset`` is the byte offset (binary formats), ``line`` and ``column`` the 1-based
    place (text formats, glTF JSON), ``path`` the file the error is about; None when unknown.
    """

    offset: Optional[int]
    line: Optional[int]
    column: Optional[int]
    path: Optional[str]

class Mesh:
    """One mesh: vertex attributes as numpy arrays, one row per vertex."""

    @property
    def name(self) -> str: ...
    @property
    def material(self) -> Optional[int]:
        """Index into ``Model.materials``, or None."""
    @property
    def positions(self) -> npt.NDArray[np.float32]:
        """float32 (n, 3), bind pose."""
    @property
    def normals(self) -> npt.NDArray[np.float32]:
        """float32 (n, 3)."""
    @property
    def uvs(self) -> npt.NDArray[np.float32]:
        """float32 (n, 2), origin top-left."""
    @property
    def joints(self) -> npt.NDArray[np.uint16]:
        """uint16 (n, 4): indices into ``Model.joints``."""
    @property
    def weights(self) -> npt.NDArray[np.float32]:
        """float32 (n, 4): rows of skinned vertices sum to 1, zeros elsewhere."""
    @property
    def triangles(self) -> npt.NDArray[np.uint32]:
        """uint32 (m, 3): vertex indices, counter-clockwise from the front."""

class Material:
    """A material and the texture it names."""

    @property
    def name(self) -> str: ...
    @property
    def texture(self) -> Optional[str]:
        """The texture reference as the file stores it."""
    @property
    def texture_file(self) -> Optional[str]:
        """The image file found beside the model for that reference."""

class Joint:
    """A joint and its bind transform, local to its parent."""

    @property
    def name(self) -> str: ...
    @property
    def parent(self) -> Optional[int]:
        """Index of the parent in ``Model.joints``, or None for a root."""
    @property
    def translation(self) -> npt.NDArray[np.float32]:
        """float32 (3,)."""
    @property
    def rotation(self) -> npt.NDArray[np.float32]:
        """float32 (4,): unit quaternion x, y, z, w."""
    @property
    def scale(self) -> npt.NDArray[np.float32]:
        """float32 (3,)."""

class Animation:
    """An animation's name and timing."""

    @property
    def name(self) -> str: ...
    @property
    def fps(self) -> float: ...
    @property
    def duration(self) -> float:
        """Length in seconds."""
    @property
    def frames(self) -> int:
        """Frames spanned at ``fps``, the first included."""
    @property
    def looping(self) -> bool: ...

class Model:
    """A model read by :func:`read` or :func:`read_bytes`."""

    @property
    def format(self) -> str:
        """The format read: "ms3d", "ms3d-ascii", "iqe", "iqm", "glb" or "gltf"."""
    @property
    def meshes(self) -> list[Mesh]: ...
    @property
    def materials(self) -> list[Material]: ...
    @property
    def joints(self) -> list[Joint]: ...
    @property
    def animations(self) -> list[Animation]: ...
    @property
    def warnings(self) -> list[str]: ...
    @property
    def up_axis(self) -> str:
        """ "y" or "z": the axis the model stands along in its format."""
    def pose(
        self, animation: Union[int, str] = 0, time: float = 0.0
    ) -> list[npt.NDArray[np.float32]]:
        """Skinned positions per mesh, float32 (n, 3), at `time` seconds of `animation`."""
    def save(
        self,
        path: StrPath,
        *,
        force: bool = False,
        to: Optional[str] = None,
        keep_axes: bool = False,
        with_anims: Sequence[StrPath] = (),
        concat_animations: bool = False,
        embed_textures: bool = True,
        fps: float = 30.0,
    ) -> list[ReportEntry]:
        """Write the model as ``rigport.convert`` writes its source file."""

def read(path: StrPath, *, strict: bool = False, anims_beside: bool = False) -> Model:
    """Read a model file, any readable format, companions found beside it; with
    `anims_beside`, also the animation files beside it that fit its skeleton."""

def read_bytes(
    data: Union[bytes, bytearray], name: str = "<bytes>", *, strict: bool = False
) -> Model:
    """Read a model from bytes; `name` names it in errors."""

def convert(
    src: StrPath,
    dst: StrPath,
    *,
    to: Optional[str] = None,
    force: bool = False,
    keep_axes: bool = False,
    with_anims: Sequence[StrPath] = (),
    concat_animations: bool = False,
    embed_textures: bool = True,
    fps: float = 30.0,
    strict: bool = False,
    anims_beside: bool = False,
) -> list[ReportEntry]:
    """Convert `src` into `dst` as ``rigport convert`` does; returns the report."""

def info(path: StrPath, *, strict: bool = False) -> dict[str, Any]:
    """The dict ``rigport info --json`` prints for the file."""

def render(
    src: StrPath,
    png: StrPath,
    *,
    size: Union[int, tuple[int, int]] = 512,
    view: str = "iso",
    animation: Union[int, str, None] = None,
    time: Optional[float] = None,
    sheet: Optional[int] = None,
    background: Union[str, tuple[int, int, int], None] = None,
    wire: bool = False,
    force: bool = False,
    strict: bool = False,
) -> list[ReportEntry]:
    """Draw the posed model (or a contact sheet) to a PNG as ``rigport render`` does."""

def formats() -> dict[str, dict[str, Any]]:
    """Every format, in the registry's order: key → ``family``, ``description``,
    ``extension`` (the usual one), ``extensions``, ``reads``, ``writes``, ``animation_only``."""

def plan_batch(
    paths: Sequence[StrPath], out_dir: StrPath, extension: str, verb: str = "convert"
) -> list[tuple[str, Optional[str], Optional[str]]]:
    """The batch plan of ``rigport convert|render INPUTS... -o DIR``: (input, output, error)."""
