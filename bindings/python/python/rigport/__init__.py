"""Read, pose, convert and draw skeletal models from Python.

rigport reads every format :func:`formats` lists (MilkShape 3D, IQE and IQM, glTF 2.0, MD5,
SMD, Unreal PSK/PSA and Blitz3D B3D), detecting the format from the content, and writes them
and OBJ. Everything runs in rigport's Rust engine, the same one the ``rigport`` command
uses, so a conversion here writes the same bytes.

>>> import rigport
>>> model = rigport.read("hero.ms3d")  # doctest: +SKIP
>>> model.meshes[0].positions.shape  # doctest: +SKIP
(1234, 3)
>>> posed = model.pose("walk", 0.5)  # doctest: +SKIP
>>> report = rigport.convert("hero.ms3d", "hero.glb")  # doctest: +SKIP

Functions: :func:`read`, :func:`read_bytes`, :func:`convert`, :func:`info`,
:func:`render`, :func:`render_views` (orbit views, depth, masks, cameras and keypoints as
numpy arrays), :func:`formats`, :func:`plan_batch`. Classes: :class:`Model`,
:class:`Mesh`, :class:`Material`, :class:`Joint`, :class:`Animation`, :class:`Views`.
Errors: :class:`RigportError` (with ``offset``, ``line``, ``column``, ``path``); missing
files raise ``FileNotFoundError``.
Many files on many machines: :mod:`rigport.distributed` (``pip install rigport[dask]``).
"""

from rigport._rigport import (
    Animation,
    Joint,
    Material,
    Mesh,
    Model,
    RigportError,
    Views,
    __version__,
    convert,
    formats,
    info,
    plan_batch,
    read,
    read_bytes,
    render,
    render_views,
)

__all__ = [
    "Animation",
    "Joint",
    "Material",
    "Mesh",
    "Model",
    "RigportError",
    "Views",
    "__version__",
    "convert",
    "formats",
    "info",
    "plan_batch",
    "read",
    "read_bytes",
    "render",
    "render_views",
]
