"""What a Blender round trip kept: a file and the file exported straight back from Blender,
both read by rigport, compared property by property.

No Blender imports: it takes two `rigport.Model`s (and numpy), so it runs under any Python
with the rigport package. `compare` gives, per property, whether it held and what differed:

* skeleton: joint names, parents and order;
* rest: every joint's bind translation, rotation and scale (1e-4 of the model's size, 1e-4);
* triangles: the triangle count;
* materials: the material names, in order;
* animations: the animation names, in order;
* durations: every animation's length, within 1e-4 s;
* poses: every animation posed at 7 times spread over it, the two point sets within 1e-4
  of the model's size of each other (vertex order and splits may differ).
"""

from __future__ import annotations

from typing import Any

import numpy

import geometry

#: Allowed distance, relative to the model's bounding-box diagonal.
SIZE_TOLERANCE = 1e-4
#: Allowed difference in an animation's duration, in seconds.
DURATION_TOLERANCE = 1e-4
#: Times each animation is posed at.
POSE_TIMES = 7
#: Points of the source's pose compared (a larger mesh is sampled evenly).
MOST_POINTS = 1500

PROPERTIES = ("skeleton", "rest", "triangles", "materials", "animations", "durations", "poses")


def points(model: Any, animation: int | None, time: float) -> numpy.ndarray:
    """Every mesh's positions, posed (bind pose for `animation` None), as one (n, 3) array."""
    if animation is None:
        parts = [numpy.asarray(m.positions, dtype=numpy.float64) for m in model.meshes]
    else:
        parts = [numpy.asarray(p, dtype=numpy.float64) for p in model.pose(animation, time)]
    parts = [p.reshape(-1, 3) for p in parts if len(p)]
    return numpy.concatenate(parts) if parts else numpy.zeros((0, 3))


def size_of(cloud: numpy.ndarray) -> float:
    """The bounding-box diagonal (1 for an empty or flat-to-a-point cloud)."""
    if not len(cloud):
        return 1.0
    diagonal = float(numpy.linalg.norm(cloud.max(axis=0) - cloud.min(axis=0)))
    return diagonal or 1.0


def farthest_nearest(a: numpy.ndarray, b: numpy.ndarray) -> float:
    """How far the point of `a` farthest from `b` is from its nearest point of `b`."""
    if not len(a) or not len(b):
        return 0.0 if len(a) == len(b) else float("inf")
    return geometry.farthest_nearest(a, b)


def sampled(cloud: numpy.ndarray) -> numpy.ndarray:
    """At most MOST_POINTS of `cloud`, evenly spread over its order."""
    if len(cloud) <= MOST_POINTS:
        return cloud
    return cloud[numpy.linspace(0, len(cloud) - 1, MOST_POINTS).astype(int)]


def apart(a: numpy.ndarray, b: numpy.ndarray) -> float:
    """A symmetric distance between two point sets (each sampled)."""
    return max(farthest_nearest(sampled(a), b), farthest_nearest(sampled(b), a))


def biggest(a: Any, b: Any) -> float:
    """The largest component of |a - b|."""
    return float(numpy.abs(numpy.asarray(a, dtype=numpy.float64) - numpy.asarray(b, dtype=numpy.float64)).max())


def first_difference(before: list, after: list) -> str:
    if len(before) != len(after):
        return f"{len(before)} → {len(after)}: {before[:6]} → {after[:6]}"
    for i, (x, y) in enumerate(zip(before, after)):
        if x != y:
            return f"at {i}: {x!r} → {y!r}"
    return "equal"


def compare(source: Any, written: Any) -> dict[str, tuple[bool, str]]:
    """Property → (held, what differed), for the model read from a file and the one read
    from what Blender exported of it."""
    out: dict[str, tuple[bool, str]] = {}
    size = size_of(points(source, None, 0.0))

    skeleton = [(j.name, j.parent) for j in source.joints]
    back = [(j.name, j.parent) for j in written.joints]
    out["skeleton"] = (skeleton == back, first_difference(skeleton, back))

    if skeleton == back:
        joints = list(zip(source.joints, written.joints))
        worst_t = max((biggest(a.translation, b.translation) for a, b in joints), default=0.0)
        # q and -q are the same turn.
        worst_r = max((min(biggest(a.rotation, b.rotation), biggest(a.rotation, -b.rotation)) for a, b in joints), default=0.0)
        worst_s = max((biggest(a.scale, b.scale) for a, b in joints), default=0.0)
        ok = worst_t <= SIZE_TOLERANCE * size and worst_r <= 1e-4 and worst_s <= 1e-4
        out["rest"] = (ok, f"translation {worst_t / size:.1e} of the size, rotation {worst_r:.1e}, scale {worst_s:.1e}")
    else:
        out["rest"] = (False, "skeletons differ")

    tris = sum(len(m.triangles) for m in source.meshes)
    tris_back = sum(len(m.triangles) for m in written.meshes)
    out["triangles"] = (tris == tris_back, f"{tris} → {tris_back}")

    materials = [m.name for m in source.materials]
    materials_back = [m.name for m in written.materials]
    out["materials"] = (materials == materials_back, first_difference(materials, materials_back))

    names = [a.name for a in source.animations]
    names_back = [a.name for a in written.animations]
    out["animations"] = (names == names_back, first_difference(names, names_back))

    pairs = list(zip(source.animations, written.animations))
    worst_d = max((abs(a.duration - b.duration) for a, b in pairs), default=0.0)
    counted = len(source.animations) == len(written.animations)
    out["durations"] = (counted and worst_d <= DURATION_TOLERANCE, f"worst {worst_d:.2e} s over {len(pairs)} animations")

    worst_p, where = 0.0, "no animation"
    if counted:
        for index, (a, _) in enumerate(pairs):
            for k in range(POSE_TIMES):
                time = a.duration * k / (POSE_TIMES - 1)
                d = apart(points(source, index, time), points(written, index, time)) / size
                if d >= worst_p:
                    worst_p, where = d, f"{a.name} at {time:.3f} s"
    out["poses"] = (counted and worst_p <= SIZE_TOLERANCE, f"worst {worst_p:.1e} of the size ({where})")
    return out
