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
    @property
    def morph_targets(self) -> dict[str, npt.NDArray[np.float32]]:
        """Morph targets by name: float32 (n, 3) position offsets, one row per vertex."""
    @property
    def default_weights(self) -> npt.NDArray[np.float32]:
        """float32 (t,): the weight of each morph target at rest, in ``morph_targets`` order."""

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
        """Positions per mesh, float32 (n, 3), at `time` s of `animation`: morphed, then skinned."""
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

class Intrinsics(TypedDict):
    """The pinhole camera of every orbit view (``transforms.json``'s)."""

    fl_x: float
    fl_y: float
    cx: float
    cy: float
    w: float
    h: float

class Views:
    """Orbit views of one model as numpy arrays (:func:`render_views`). Per-picture arrays
    lead with (views,), or (frames, views) for an animation: written ``...`` below."""

    @property
    def images(self) -> npt.NDArray[np.uint8]:
        """uint8 (..., h, w, 4) RGBA: the pixels of ``rigport render``'s PNGs."""
    @property
    def depth(self) -> npt.NDArray[np.float32]:
        """float32 (..., h, w): distance along the view axis, model units; 0 = nothing."""
    @property
    def mask(self) -> npt.NDArray[np.uint8]:
        """uint8 (..., h, w): coverage, 0 to 255."""
    @property
    def intrinsics(self) -> Intrinsics:
        """fl_x, fl_y, cx, cy (pixels), w, h."""
    @property
    def camera_to_world(self) -> npt.NDArray[np.float64]:
        """float64 (..., 4, 4) in ``camera_convention``'s camera axes."""
    @property
    def camera_convention(self) -> str:
        """ "opengl" or "opencv"."""
    @property
    def file_paths(self) -> list[str]:
        """Each picture's name in ``rigport render``'s layout, arrays flattened."""
    @property
    def times(self) -> npt.NDArray[np.float64]:
        """float64 (frames,): seconds into the animation of each frame."""
    @property
    def joint_names(self) -> list[str]: ...
    @property
    def joint_parents(self) -> list[Optional[int]]: ...
    @property
    def joints_world(self) -> Optional[npt.NDArray[np.float64]]:
        """float64 (..., joints, 3), posed as the pictures are; None without keypoints."""
    @property
    def joints_pixel(self) -> Optional[npt.NDArray[np.float64]]:
        """float64 (..., joints, 2): u right, v down, (0, 0) the top-left corner."""
    @property
    def joints_depth(self) -> Optional[npt.NDArray[np.float64]]:
        """float64 (..., joints): along the view axis, as ``depth`` measures it."""
    @property
    def joints_visibility(self) -> Optional[npt.NDArray[np.int8]]:
        """int8 (..., joints): 2 visible, 1 occluded, 0 outside the frame (COCO's v)."""
    @property
    def warnings(self) -> list[str]: ...

def render_views(
    path: StrPath,
    views: int = 8,
    *,
    width: int = 512,
    height: int = 512,
    keypoints: bool = True,
    camera_convention: str = "opengl",
    seed: Optional[int] = None,
    elevation: float = 20.0,
    anim: Union[int, str, None] = None,
    time: Optional[float] = None,
    frame: Optional[float] = None,
    frames: Optional[int] = None,
    fps: Optional[float] = None,
    animate: bool = False,
    views_per_frame: Optional[int] = None,
    background: Union[str, tuple[int, int, int], None] = None,
    strict: bool = False,
) -> Views:
    """The orbit ``rigport render DIR -o OUT --orbit N --keypoints`` writes for the model,
    as numpy arrays; with `frames`, `fps` or `animate`, every view at every frame."""

def formats() -> dict[str, dict[str, Any]]:
    """Every format, in the registry's order: key → ``family``, ``description``,
    ``extension`` (the usual one), ``extensions``, ``reads``, ``writes``, ``animation_only``."""

def plan_batch(
    paths: Sequence[StrPath], out_dir: StrPath, extension: str, verb: str = "convert"
) -> list[tuple[str, Optional[str], Optional[str]]]:
    """The batch plan of ``rigport convert|render INPUTS... -o DIR``: (input, output, error)."""
