//! Per-frame bounds: the box and radii of the skinned vertices in every frame, as the SDK
//! writes them, without skinning every vertex in every frame.
//!
//! The SDK skins each vertex each frame. Only the vertices that end up on the box's faces
//! or farthest from the origin matter, so [`BoundsPlan`] groups the distinct (position,
//! blend) pairs into small clusters of nearby points sharing a blend. Per frame, a cluster
//! whose conservatively transformed box lies inside the bounds found so far cannot change
//! them and is skipped; the others are skinned point by point. The clusters that held the
//! extremes in the previous frame go first, so the bounds are nearly complete before the
//! rest are tested. The result is that of skinning every point (see the tests).

use super::geometry::Vertices;
use super::quantize::Channels;
use crate::records::Bounds;
use foldhash::{HashMap, HashMapExt};
use rigport_anim::Pose as Posed;
use rigport_anim::sample::Transform;
use rigport_model_core::glam::{Mat3A, Mat4, Quat, Vec3, Vec3A, Vec4};

/// Points per cluster: testing a cluster costs about as much as skinning two points.
const CLUSTER: usize = 16;

/// Relative slack added to a cluster's transformed box, far above the rounding error of
/// a 4×4 product in `f32` (a few units in the last place of the sum of the magnitudes of
/// its terms), so a point is never skipped when its skinned value could be an extreme.
const SLACK: f32 = 1e-5;

/// Frames × points below which the frames are not shared out between threads.
const PARALLEL_WORK: u64 = 1 << 21;

/// Frames per job when the frames are shared out: small enough that a thread finishing
/// other work can take over the last of them, large enough that the previous frame's
/// extremes (see [`BoundsPlan`]) still speed up most frames of a job.
#[cfg(feature = "parallel")]
const FRAMES_PER_JOB: usize = 16;

/// How the bounds of each frame are found.
pub(crate) enum Method {
    /// Every vertex skinned (in effect: see [`BoundsPlan`]), as the SDK does.
    Exact(BoundsPlan),
    /// From per-joint boxes ([`conservative_bounds`]).
    Conservative(JointBoxes),
}

/// The bounds of every frame; `values` holds `joints` local poses per frame, `work` is the
/// number of point skinnings it takes. With the `parallel` feature a long job is shared
/// out in runs of frames on rayon's thread pool (the frames are independent, and the
/// result is the same).
pub(crate) fn every_frame(
    values: &[Channels],
    joints: usize,
    posed: &Posed,
    method: &Method,
    work: u64,
) -> Vec<Bounds> {
    let run = |part: &[Channels]| {
        run_of_frames(
            part,
            joints,
            &mut posed.clone(),
            method,
            &mut method.scratch(),
        )
    };
    if work < PARALLEL_WORK || joints == 0 {
        return run(values);
    }
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        let parts: Vec<Vec<Bounds>> = values
            .par_chunks(FRAMES_PER_JOB * joints)
            .map_init(
                || (posed.clone(), method.scratch()),
                |(posed, scratch), part| run_of_frames(part, joints, posed, method, scratch),
            )
            .collect();
        parts.concat()
    }
    #[cfg(not(feature = "parallel"))]
    run(values)
}

/// The bounds of consecutive frames, on one thread.
fn run_of_frames(
    values: &[Channels],
    joints: usize,
    posed: &mut Posed,
    method: &Method,
    scratch: &mut Scratch,
) -> Vec<Bounds> {
    let mut local = vec![Transform::IDENTITY; joints];
    let mut out = Vec::with_capacity(values.len() / joints.max(1));
    for frame in values.chunks_exact(joints.max(1)) {
        for (l, v) in local.iter_mut().zip(frame) {
            *l = Transform {
                translation: [v[0], v[1], v[2]].into(),
                rotation: Quat::from_xyzw(v[3], v[4], v[5], v[6]),
                scale: [v[7], v[8], v[9]].into(),
            };
        }
        posed.set_local(&local);
        let (bbmin, bbmax, xyradius, radius) = match method {
            Method::Exact(plan) => plan.frame(scratch, posed.skinning_matrices()),
            Method::Conservative(boxes) => conservative_bounds(boxes, posed.skinning_matrices()),
        };
        out.push(Bounds {
            bbmin,
            bbmax,
            xyradius,
            radius,
        });
    }
    out
}

impl Method {
    /// Fresh per-thread state for [`BoundsPlan::frame`].
    fn scratch(&self) -> Scratch {
        match self {
            Method::Exact(plan) => plan.scratch(),
            Method::Conservative(_) => Scratch::default(),
        }
    }
}

/// The bounds of one frame: box minimum, maximum, largest distance from the Z axis, and
/// from the origin.
pub(crate) type FrameBounds = ([f32; 3], [f32; 3], f32, f32);

/// A box: centre and half extents.
#[derive(Clone, Copy, Debug)]
struct Box3 {
    center: Vec3A,
    half: Vec3A,
}

impl Box3 {
    fn around(points: &[(Vec3, u32)]) -> Self {
        let first = points.first().map_or(Vec3::ZERO, |p| p.0);
        let (lo, hi) = points
            .iter()
            .fold((first, first), |(lo, hi), (p, _)| (lo.min(*p), hi.max(*p)));
        Self {
            center: ((lo + hi) * 0.5).into(),
            half: ((hi - lo) * 0.5).into(),
        }
    }
}

/// A blend: joints and weight bytes.
type Blend = ([u32; 4], [u8; 4]);

/// A run of at most [`CLUSTER`] points sharing a blend.
#[derive(Clone, Copy, Debug)]
struct Cluster {
    start: u32,
    end: u32,
    bounds: Box3,
}

/// Every cluster of one blend.
#[derive(Clone, Copy, Debug)]
struct Group {
    blend: u32,
    clusters: (u32, u32),
    bounds: Box3,
    /// `|centre| + half`: bounds the magnitude of every point, for the rounding slack.
    reach: Vec3A,
}

/// One blend's matrix in a frame, with what the box tests need.
#[derive(Clone, Copy, Debug)]
struct Blended {
    matrix: Mat4,
    /// The 3×3 part, its absolute value, and the translation.
    linear: Mat3A,
    abs: Mat3A,
    translation: Vec3A,
}

/// What per-frame bounds need, prepared once for all frames: each distinct (position,
/// blend) pair once, grouped by blend into spatially compact clusters, and each distinct
/// blend once, so a frame blends one matrix per blend (the SDK blends a matrix per vertex).
#[derive(Clone)]
pub(crate) struct BoundsPlan {
    blends: Vec<Blend>,
    points: Vec<(Vec3, u32)>,
    clusters: Vec<Cluster>,
    groups: Vec<Group>,
    /// Whether every position is finite; clusters are only skipped then (a NaN compares
    /// false with everything, so the box tests would mean nothing).
    finite: bool,
}

/// What [`BoundsPlan::frame`] keeps between the frames one thread bounds.
#[derive(Default)]
pub(crate) struct Scratch {
    /// Each blend's matrix in the current frame.
    matrices: Vec<Blended>,
    /// Clusters that held an extreme in the previous frame.
    hot: Vec<u32>,
    /// Per cluster, the number of the last frame it was skinned in.
    seen: Vec<u32>,
    frame: u32,
}

/// The bounds found so far in a frame, and which cluster gave each.
///
/// The box is kept in SIMD lanes: `Vec3A::min` and `max` pick per lane exactly as `Vec3`'s
/// do (`a < b ? a : b`), and the radii are raised by comparison (`d > r`: a NaN distance
/// is ignored, as `f32::max` ignores it), so the bounds are those of the plain code.
struct Extremes {
    min: Vec3A,
    max: Vec3A,
    xy: f32,
    r: f32,
    from: [u32; 8],
}

impl Extremes {
    fn new() -> Self {
        Self {
            min: Vec3A::splat(f32::INFINITY),
            max: Vec3A::splat(f32::NEG_INFINITY),
            xy: 0.0,
            r: 0.0,
            from: [u32::MAX; 8],
        }
    }

    /// Adds skinned points; `cluster` is remembered for each extreme they move.
    fn add(&mut self, points: &[(Vec3, u32)], m: &Mat4, cluster: u32) {
        let (min0, max0, xy0, r0) = (self.min, self.max, self.xy, self.r);
        for &(position, _) in points {
            let p = Vec3A::from_vec4(*m * Vec4::from((position, 1.0)));
            self.min = self.min.min(p);
            self.max = self.max.max(p);
            let d = p.x * p.x + p.y * p.y;
            if d > self.xy {
                self.xy = d;
            }
            let r = d + p.z * p.z;
            if r > self.r {
                self.r = r;
            }
        }
        let moved = [
            self.min.x != min0.x,
            self.min.y != min0.y,
            self.min.z != min0.z,
            self.max.x != max0.x,
            self.max.y != max0.y,
            self.max.z != max0.z,
            self.xy != xy0,
            self.r != r0,
        ];
        for (from, moved) in self.from.iter_mut().zip(moved) {
            if moved {
                *from = cluster;
            }
        }
    }

    /// Whether `bounds` transformed by `m`, grown by `slack`, can hold no point beyond
    /// the bounds so far. The radii are compared as the points' would be computed, and
    /// rounding is monotonic, so a point in the box never gives a larger computed radius
    /// than its farthest corner does.
    ///
    /// This runs for most clusters in every frame: the box is compared in SIMD lanes
    /// (the same comparisons as component by component, NaN failing them).
    fn contains(&self, bounds: &Box3, m: &Blended, slack: Vec3A) -> bool {
        let center = m.linear * bounds.center + m.translation;
        let extent = m.abs * bounds.half + slack;
        let (lo, hi) = (center - extent, center + extent);
        if !(lo.cmpge(self.min) & hi.cmple(self.max)).all() {
            return false;
        }
        let far = lo.abs().max(hi.abs());
        let d = far.x * far.x + far.y * far.y;
        d <= self.xy && d + far.z * far.z <= self.r
    }

    fn finish(&self, empty: bool) -> FrameBounds {
        let (min, max) = match empty {
            true => (Vec3A::ZERO, Vec3A::ZERO),
            false => (self.min, self.max),
        };
        (
            min.to_array(),
            max.to_array(),
            self.xy.sqrt(),
            self.r.sqrt(),
        )
    }
}

/// A key in `0..2³⁰` that keeps nearby points near each other when sorted (Morton order of
/// the position quantized to 1024 steps per axis of `lo..hi`).
fn morton(p: Vec3, lo: Vec3, hi: Vec3) -> u32 {
    let steps = (p - lo) / (hi - lo).max(Vec3::splat(f32::MIN_POSITIVE)) * 1023.0;
    let spread = |v: f32| {
        // `as` saturates, and a NaN becomes 0.
        let mut x = (v as u32).min(1023);
        x = (x | (x << 16)) & 0x0300_00ff;
        x = (x | (x << 8)) & 0x0300_f00f;
        x = (x | (x << 4)) & 0x030c_30c3;
        (x | (x << 2)) & 0x0924_9249
    };
    spread(steps.x) | (spread(steps.y) << 1) | (spread(steps.z) << 2)
}

impl BoundsPlan {
    pub(crate) fn new<V: Vertices + ?Sized>(vertices: &V) -> Self {
        let mut blend_ids: HashMap<Blend, u32> = HashMap::new();
        let mut blends = Vec::new();
        // Neighbouring vertices usually share their blend: the last one is looked up first.
        let mut last: Option<(Blend, u32)> = None;
        let mut points: Vec<(Vec3, u32)> = (0..vertices.count())
            .map(|i| {
                let key = vertices.skin(i);
                let id = match last {
                    Some((last_key, id)) if last_key == key => id,
                    _ => {
                        let id = *blend_ids.entry(key).or_insert_with(|| {
                            blends.push(key);
                            (blends.len() - 1) as u32
                        });
                        last = Some((key, id));
                        id
                    }
                };
                (vertices.position(i), id)
            })
            .collect();
        let finite = points.iter().all(|(p, _)| p.is_finite());
        let whole = Box3::around(&points);
        let (lo, hi) = (
            Vec3::from(whole.center - whole.half),
            Vec3::from(whole.center + whole.half),
        );
        // Sorted by blend, then along a space-filling curve (so each run of the same blend
        // is spatially compact), then by bits, so that repeated points sit side by side:
        // as keys (blend and curve in one word, then the bits), which hold the whole point,
        // so equal keys are equal points and an unstable sort gives the one order.
        let mut keys: Vec<(u64, [u32; 3])> = points
            .iter()
            .map(|&(p, blend)| {
                let order = (u64::from(blend) << 32) | u64::from(morton(p, lo, hi));
                (order, p.to_array().map(f32::to_bits))
            })
            .collect();
        keys.sort_unstable();
        keys.dedup();
        points.clear();
        points.extend(keys.iter().map(|&(order, bits)| {
            (
                Vec3::from_array(bits.map(f32::from_bits)),
                (order >> 32) as u32,
            )
        }));
        drop(keys);
        let mut clusters = Vec::with_capacity(points.len() / CLUSTER + blends.len());
        let mut groups = Vec::with_capacity(blends.len());
        let mut start = 0;
        for run in points.chunk_by(|a, b| a.1 == b.1) {
            let offset = clusters.len() as u32;
            for (k, chunk) in run.chunks(CLUSTER).enumerate() {
                let first = start + k * CLUSTER;
                clusters.push(Cluster {
                    start: first as u32,
                    end: (first + chunk.len()) as u32,
                    bounds: Box3::around(chunk),
                });
            }
            let bounds = Box3::around(run);
            groups.push(Group {
                blend: run[0].1,
                clusters: (offset, clusters.len() as u32),
                bounds,
                reach: bounds.center.abs() + bounds.half,
            });
            start += run.len();
        }
        Self {
            blends,
            points,
            clusters,
            groups,
            finite,
        }
    }

    /// State for bounding frames one after another with [`BoundsPlan::frame`].
    pub(crate) fn scratch(&self) -> Scratch {
        Scratch {
            seen: vec![0; self.clusters.len()],
            ..Scratch::default()
        }
    }

    /// The bounds of the points skinned by `skinning`; `scratch` comes from
    /// [`BoundsPlan::scratch`] and carries over from the frame before.
    pub(crate) fn frame(&self, scratch: &mut Scratch, skinning: &[Mat4]) -> FrameBounds {
        scratch.matrices.clear();
        scratch
            .matrices
            .extend(self.blends.iter().map(|(joints, weights)| {
                let matrix = blend(joints, weights, skinning);
                let linear = Mat3A::from_mat4(matrix);
                Blended {
                    matrix,
                    linear,
                    abs: Mat3A::from_cols(
                        linear.x_axis.abs(),
                        linear.y_axis.abs(),
                        linear.z_axis.abs(),
                    ),
                    translation: matrix.w_axis.truncate().into(),
                }
            }));
        let mut found = Extremes::new();
        let exact = self.finite && scratch.matrices.iter().all(|m| m.matrix.is_finite());
        if !exact {
            for g in &self.groups {
                let (first, last) = g.clusters;
                let start = self.clusters[first as usize].start as usize;
                let end = self.clusters[last as usize - 1].end as usize;
                let m = &scratch.matrices[g.blend as usize].matrix;
                found.add(&self.points[start..end], m, first);
            }
            return found.finish(self.points.is_empty());
        }
        scratch.frame = scratch.frame.wrapping_add(1);
        if scratch.frame == 0 {
            scratch.seen.fill(0);
            scratch.frame = 1;
        }
        // Last frame's extremes first: they are likely this frame's too, so few of the
        // other clusters survive the box test.
        for &i in &scratch.hot {
            let c = &self.clusters[i as usize];
            let points = &self.points[c.start as usize..c.end as usize];
            let blend = points[0].1 as usize;
            found.add(points, &scratch.matrices[blend].matrix, i);
            scratch.seen[i as usize] = scratch.frame;
        }
        for g in &self.groups {
            let m = &scratch.matrices[g.blend as usize];
            // One slack for the whole group: every point's magnitude is within `reach`.
            let slack = (m.abs * g.reach + m.translation.abs()) * SLACK;
            if found.contains(&g.bounds, m, slack) {
                continue;
            }
            for i in g.clusters.0..g.clusters.1 {
                let c = &self.clusters[i as usize];
                if scratch.seen[i as usize] == scratch.frame || found.contains(&c.bounds, m, slack)
                {
                    continue;
                }
                let points = &self.points[c.start as usize..c.end as usize];
                found.add(points, &m.matrix, i);
            }
        }
        scratch.hot.clear();
        for &i in &found.from {
            if i != u32::MAX && !scratch.hot.contains(&i) {
                scratch.hot.push(i);
            }
        }
        found.finish(self.points.is_empty())
    }
}

/// The blended matrix of a blend: the identity for a vertex with no weight (it stays where
/// it is), else `Σ wₖ/255 · skinning[jₖ]` over its weights (joints past `skinning` ignored).
fn blend(joints: &[u32; 4], weights: &[u8; 4], skinning: &[Mat4]) -> Mat4 {
    if *weights == [0; 4] {
        return Mat4::IDENTITY;
    }
    let mut m = Mat4::ZERO;
    for k in 0..4 {
        if weights[k] > 0 {
            if let Some(s) = skinning.get(joints[k] as usize) {
                m += *s * (f32::from(weights[k]) / 255.0);
            }
        }
    }
    m
}

/// Per joint, the bind-space box of the vertices it influences; and the box of the vertices
/// no joint moves. For [`conservative_bounds`].
#[derive(Clone)]
pub(crate) struct JointBoxes {
    boxes: Vec<Option<(Vec3, Vec3)>>,
    fixed: Option<(Vec3, Vec3)>,
}

fn grow(b: &mut Option<(Vec3, Vec3)>, p: Vec3) {
    *b = Some(match *b {
        Some((lo, hi)) => (lo.min(p), hi.max(p)),
        None => (p, p),
    });
}

impl JointBoxes {
    pub(crate) fn new<V: Vertices + ?Sized>(vertices: &V, joints: usize) -> Self {
        let mut boxes = vec![None; joints];
        let mut fixed = None;
        for i in 0..vertices.count() {
            let ((joints, weights), position) = (vertices.skin(i), vertices.position(i));
            if weights == [0; 4] {
                grow(&mut fixed, position);
            }
            for k in 0..4 {
                if weights[k] > 0 {
                    if let Some(b) = boxes.get_mut(joints[k] as usize) {
                        grow(b, position);
                    }
                }
            }
        }
        Self { boxes, fixed }
    }
}

/// Bounds that contain every skinned vertex without skinning each one: a blended vertex is
/// a convex combination of its joints' transforms of it, so it lies in the union of each
/// joint's box transformed by that joint. Frames × joints × 8 corners instead of frames ×
/// vertices: used when the exact bounds would take too long.
pub(crate) fn conservative_bounds(boxes: &JointBoxes, skinning: &[Mat4]) -> FrameBounds {
    let mut points = Vec::with_capacity(boxes.boxes.len() * 8 + 8);
    let corners = |(lo, hi): (Vec3, Vec3)| {
        (0..8).map(move |i| {
            Vec3::new(
                if i & 1 == 0 { lo.x } else { hi.x },
                if i & 2 == 0 { lo.y } else { hi.y },
                if i & 4 == 0 { lo.z } else { hi.z },
            )
        })
    };
    for (b, m) in boxes.boxes.iter().zip(skinning) {
        if let Some(b) = *b {
            points.extend(corners(b).map(|p| m.transform_point3(p)));
        }
    }
    if let Some(b) = boxes.fixed {
        points.extend(corners(b));
    }
    let mut found = Extremes::new();
    let fixed: Vec<(Vec3, u32)> = points.into_iter().map(|p| (p, 0)).collect();
    found.add(&fixed, &Mat4::IDENTITY, 0);
    found.finish(fixed.is_empty())
}

#[cfg(test)]
mod tests {
    use super::super::geometry::Written;
    use super::*;
    use rigport_model_core::glam::{Quat, Vec2};

    fn vertex(x: f32, y: f32, z: f32, joints: [u32; 4], weights: [u8; 4]) -> Written {
        Written {
            position: Vec3::new(x, y, z),
            uv: Vec2::ZERO,
            normal: Vec3::Z,
            color: [0; 4],
            joints,
            weights,
        }
    }

    /// Every point skinned, as the SDK does: what the plan must give exactly.
    fn brute_force(vertices: &[Written], skinning: &[Mat4]) -> FrameBounds {
        let mut found = Extremes::new();
        for v in vertices {
            let m = blend(&v.joints, &v.weights, skinning);
            found.add(&[(v.position, 0)], &m, 0);
        }
        found.finish(vertices.is_empty())
    }

    #[test]
    fn conservative_bounds_contain_the_exact_ones() {
        let vertices = [
            vertex(0.0, 0.0, 0.5, [0, 1, 0, 0], [255, 0, 0, 0]),
            vertex(1.0, 2.0, 0.5, [0, 1, 0, 0], [128, 127, 0, 0]),
            vertex(-1.0, 3.0, 0.5, [0, 1, 0, 0], [0, 255, 0, 0]),
            vertex(4.0, -1.0, 0.5, [0, 1, 0, 0], [0; 4]),
        ];
        let skinning = [
            Mat4::from_rotation_translation(Quat::from_rotation_z(0.7), Vec3::new(1.0, 0.0, 2.0)),
            Mat4::from_scale_rotation_translation(
                Vec3::splat(2.0),
                Quat::from_rotation_x(-1.2),
                Vec3::new(0.0, -3.0, 0.0),
            ),
        ];
        let plan = BoundsPlan::new(&vertices[..]);
        let (lo, hi, xy, r) = plan.frame(&mut plan.scratch(), &skinning);
        let (clo, chi, cxy, cr) =
            conservative_bounds(&JointBoxes::new(&vertices[..], 2), &skinning);
        for k in 0..3 {
            assert!(clo[k] <= lo[k] + 1e-5 && chi[k] >= hi[k] - 1e-5, "{k}");
        }
        assert!(cxy >= xy - 1e-5 && cr >= r - 1e-5);
        // The unskinned vertex stays where it is.
        assert_eq!(hi[0], 4.0);
    }

    /// Deterministic noise in `[-1, 1)`.
    fn noise(seed: u64) -> f32 {
        let mut z = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z ^= z >> 31;
        (z >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }

    #[test]
    fn skipping_clusters_gives_exactly_the_bounds_of_every_point() {
        // A bumpy sheet and a ball of points far from the origin, six joints, blends of one
        // to three joints, some points unweighted; 40 frames of moving joints.
        let mut vertices = Vec::new();
        for i in 0..4000u64 {
            let (x, y, z) = if i < 3000 {
                ((i % 60) as f32 * 0.3, (i / 60) as f32 * 0.2, noise(i) * 0.1)
            } else {
                (
                    50.0 + noise(i) * 3.0,
                    -20.0 + noise(i + 1) * 3.0,
                    noise(i + 2) * 3.0,
                )
            };
            let j = (i / 7 % 6) as u32;
            let (joints, weights) = match i % 5 {
                0 => ([j, 0, 0, 0], [255, 0, 0, 0]),
                1 => ([j, (j + 1) % 6, 0, 0], [200, 55, 0, 0]),
                2 => ([j, (j + 2) % 6, (j + 3) % 6, 0], [100, 100, 55, 0]),
                3 => ([0; 4], [0; 4]),
                _ => ([(j + 1) % 6, 0, 0, 0], [255, 0, 0, 0]),
            };
            vertices.push(vertex(x, y, z, joints, weights));
        }
        let plan = BoundsPlan::new(&vertices[..]);
        let mut scratch = plan.scratch();
        for f in 0..40u64 {
            let skinning: Vec<Mat4> = (0..6u64)
                .map(|j| {
                    let s = f * 16 + j * 1000;
                    Mat4::from_scale_rotation_translation(
                        Vec3::splat(1.0 + noise(s) * 0.2),
                        Quat::from_euler(
                            rigport_model_core::glam::EulerRot::XYZ,
                            noise(s + 1),
                            noise(s + 2),
                            noise(s + 3),
                        ),
                        Vec3::new(noise(s + 4), noise(s + 5), noise(s + 6)) * 10.0,
                    )
                })
                .collect();
            let got = plan.frame(&mut scratch, &skinning);
            assert_eq!(got, brute_force(&vertices, &skinning), "frame {f}");
        }
        assert!(
            plan.clusters.len() > 200 && plan.groups.len() > 10,
            "{} clusters",
            plan.clusters.len()
        );
    }

    #[test]
    fn non_finite_matrices_skin_every_point() {
        let vertices = [
            vertex(1.0, 0.0, 0.0, [0; 4], [255, 0, 0, 0]),
            vertex(-3.0, 2.0, 0.0, [1, 0, 0, 0], [255, 0, 0, 0]),
        ];
        let skinning = [
            Mat4::IDENTITY,
            Mat4::from_translation(Vec3::new(f32::NAN, 0.0, 0.0)),
        ];
        let plan = BoundsPlan::new(&vertices[..]);
        let got = plan.frame(&mut plan.scratch(), &skinning);
        assert_eq!(got.0[1], 0.0);
        assert_eq!(got.1[1], 2.0);
    }
}
