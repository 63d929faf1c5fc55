//! What the SDK's compiler derives from the geometry: welded vertices, tangents, triangle
//! adjacency and per-frame bounds.

use rigport_model_core::glam::{Mat4, Vec2, Vec3, Vec4};
use std::collections::HashMap;

/// A vertex as written: every attribute the file stores, blend weights already quantized.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Written {
    pub position: Vec3,
    pub uv: Vec2,
    pub normal: Vec3,
    pub color: [u8; 4],
    pub joints: [u32; 4],
    pub weights: [u8; 4],
}

impl Written {
    /// Bit-exact identity, for welding (`-0.0` and `0.0` stay apart, as their bits differ).
    fn key(&self) -> [u32; 16] {
        let b = |f: f32| f.to_bits();
        [
            b(self.position.x),
            b(self.position.y),
            b(self.position.z),
            b(self.uv.x),
            b(self.uv.y),
            b(self.normal.x),
            b(self.normal.y),
            b(self.normal.z),
            u32::from_le_bytes(self.color),
            self.joints[0],
            self.joints[1],
            self.joints[2],
            self.joints[3],
            u32::from_le_bytes(self.weights),
            0,
            0,
        ]
    }
}

/// Welds identical vertices: returns the distinct vertices in first-use order and, for
/// each input vertex, its index among them.
pub(crate) fn weld(vertices: &[Written]) -> (Vec<Written>, Vec<u32>) {
    let mut seen: HashMap<[u32; 16], u32> = HashMap::with_capacity(vertices.len());
    let mut kept = Vec::with_capacity(vertices.len());
    let remap = vertices
        .iter()
        .map(|v| {
            *seen.entry(v.key()).or_insert_with(|| {
                kept.push(*v);
                (kept.len() - 1) as u32
            })
        })
        .collect();
    (kept, remap)
}

/// Per-vertex tangents `x y z w` from texture coordinates (`w` = the bitangent's sign),
/// orthogonalized against the normal; triangles index `vertices` in file order.
pub(crate) fn tangents(vertices: &[Written], triangles: &[[u32; 3]]) -> Vec<[f32; 4]> {
    let mut tangent = vec![Vec3::ZERO; vertices.len()];
    let mut bitangent = vec![Vec3::ZERO; vertices.len()];
    for t in triangles {
        let [a, b, c] = t.map(|i| vertices[i as usize]);
        let (e1, e2) = (b.position - a.position, c.position - a.position);
        let (d1, d2) = (b.uv - a.uv, c.uv - a.uv);
        let det = d1.x * d2.y - d2.x * d1.y;
        if det == 0.0 || !det.is_finite() {
            continue;
        }
        let r = 1.0 / det;
        let s = (e1 * d2.y - e2 * d1.y) * r;
        let u = (e2 * d1.x - e1 * d2.x) * r;
        for &i in t {
            tangent[i as usize] += s;
            bitangent[i as usize] += u;
        }
    }
    vertices
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let n = v.normal;
            let t = (tangent[i] - n * n.dot(tangent[i]))
                .try_normalize()
                .unwrap_or(Vec3::ZERO);
            let w = if n.cross(t).dot(bitangent[i]) < 0.0 {
                -1.0
            } else {
                1.0
            };
            [t.x, t.y, t.z, w]
        })
        .collect()
}

/// For each edge `k` (from corner `k` to corner `k + 1`) of each triangle, the one other
/// triangle sharing it, or `u32::MAX` when none or more than one does. Edges are compared
/// by position and blend, as the SDK does, so vertices split by normals or UVs still join.
pub(crate) fn adjacency(vertices: &[Written], triangles: &[[u32; 3]]) -> Vec<[u32; 3]> {
    let mut ids: HashMap<[u32; 11], u32> = HashMap::new();
    let id: Vec<u32> = vertices
        .iter()
        .map(|v| {
            let k = v.key();
            let key = [k[0], k[1], k[2], k[9], k[10], k[11], k[12], k[13], 0, 0, 0];
            let next = ids.len() as u32;
            *ids.entry(key).or_insert(next)
        })
        .collect();
    let edge = |t: &[u32; 3], k: usize| {
        let (a, b) = (id[t[k] as usize], id[t[(k + 1) % 3] as usize]);
        (a.min(b), a.max(b))
    };
    const NONE: u32 = u32::MAX;
    let mut shared: HashMap<(u32, u32), [u32; 2]> = HashMap::with_capacity(triangles.len() * 2);
    for (i, t) in triangles.iter().enumerate() {
        for k in 0..3 {
            let i = i as u32;
            shared
                .entry(edge(t, k))
                .and_modify(|pair| {
                    if pair[1] != NONE {
                        *pair = [NONE, NONE];
                    } else if pair[0] != NONE {
                        pair[1] = i;
                    }
                })
                .or_insert([i, NONE]);
        }
    }
    triangles
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let i = i as u32;
            [0, 1, 2].map(|k| {
                let pair = shared[&edge(t, k)];
                if pair[0] == i { pair[1] } else { pair[0] }
            })
        })
        .collect()
}

/// Box and radii of positions skinned by `skinning` (`G(t)·Gb⁻¹` per joint). A vertex with
/// no weight stays where it is.
pub(crate) fn bounds(vertices: &[Written], skinning: &[Mat4]) -> ([f32; 3], [f32; 3], f32, f32) {
    BoundsPlan::new(vertices).frame(skinning)
}

/// What per-frame bounds need, prepared once for all frames: each distinct (position,
/// blend) pair once, and each distinct blend once, so a frame blends one matrix per blend
/// and transforms each point with it (the SDK blends a matrix per vertex).
pub(crate) struct BoundsPlan {
    blends: Vec<([u32; 4], [u8; 4])>,
    points: Vec<(Vec3, u32)>,
}

impl BoundsPlan {
    pub(crate) fn new(vertices: &[Written]) -> Self {
        let mut blend_ids: HashMap<([u32; 4], [u8; 4]), u32> = HashMap::new();
        let mut blends = Vec::new();
        let mut seen: HashMap<([u32; 3], u32), ()> = HashMap::with_capacity(vertices.len());
        let mut points = Vec::with_capacity(vertices.len());
        for v in vertices {
            let key = (v.joints, v.weights);
            let id = *blend_ids.entry(key).or_insert_with(|| {
                blends.push(key);
                (blends.len() - 1) as u32
            });
            let p = v.position;
            if seen
                .insert(([p.x, p.y, p.z].map(f32::to_bits), id), ())
                .is_none()
            {
                points.push((p, id));
            }
        }
        Self { blends, points }
    }

    pub(crate) fn frame(&self, skinning: &[Mat4]) -> ([f32; 3], [f32; 3], f32, f32) {
        let matrices: Vec<Mat4> = self
            .blends
            .iter()
            .map(|(joints, weights)| {
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
            })
            .collect();
        let mut min = Vec3::splat(f32::INFINITY);
        let mut max = Vec3::splat(f32::NEG_INFINITY);
        let (mut xy, mut r) = (0f32, 0f32);
        for &(position, blend) in &self.points {
            let p = (matrices[blend as usize] * Vec4::from((position, 1.0))).truncate();
            min = min.min(p);
            max = max.max(p);
            let d = p.x * p.x + p.y * p.y;
            xy = xy.max(d);
            r = r.max(d + p.z * p.z);
        }
        if self.points.is_empty() {
            (min, max) = (Vec3::ZERO, Vec3::ZERO);
        }
        (min.to_array(), max.to_array(), xy.sqrt(), r.sqrt())
    }
}

/// Per joint, the bind-space box of the vertices it influences; and the box of the vertices
/// no joint moves. For [`conservative_bounds`].
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
    pub(crate) fn new(vertices: &[Written], joints: usize) -> Self {
        let mut boxes = vec![None; joints];
        let mut fixed = None;
        for v in vertices {
            if v.weights == [0; 4] {
                grow(&mut fixed, v.position);
            }
            for k in 0..4 {
                if v.weights[k] > 0 {
                    if let Some(b) = boxes.get_mut(v.joints[k] as usize) {
                        grow(b, v.position);
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
pub(crate) fn conservative_bounds(
    boxes: &JointBoxes,
    skinning: &[Mat4],
) -> ([f32; 3], [f32; 3], f32, f32) {
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
    let as_vertices: Vec<Written> = points
        .into_iter()
        .map(|position| Written {
            position,
            uv: Vec2::ZERO,
            normal: Vec3::ZERO,
            color: [0; 4],
            joints: [0; 4],
            weights: [0; 4],
        })
        .collect();
    bounds(&as_vertices, &[])
}

#[cfg(test)]
mod tests {
    use super::*;
    use rigport_model_core::glam::Quat;

    #[test]
    fn conservative_bounds_contain_the_exact_ones() {
        let vertex = |x: f32, y: f32, w: [u8; 4]| Written {
            position: Vec3::new(x, y, 0.5),
            uv: Vec2::ZERO,
            normal: Vec3::Z,
            color: [0; 4],
            joints: [0, 1, 0, 0],
            weights: w,
        };
        let vertices = [
            vertex(0.0, 0.0, [255, 0, 0, 0]),
            vertex(1.0, 2.0, [128, 127, 0, 0]),
            vertex(-1.0, 3.0, [0, 255, 0, 0]),
            vertex(4.0, -1.0, [0; 4]),
        ];
        let skinning = [
            Mat4::from_rotation_translation(Quat::from_rotation_z(0.7), Vec3::new(1.0, 0.0, 2.0)),
            Mat4::from_scale_rotation_translation(
                Vec3::splat(2.0),
                Quat::from_rotation_x(-1.2),
                Vec3::new(0.0, -3.0, 0.0),
            ),
        ];
        let (lo, hi, xy, r) = bounds(&vertices, &skinning);
        let (clo, chi, cxy, cr) = conservative_bounds(&JointBoxes::new(&vertices, 2), &skinning);
        for k in 0..3 {
            assert!(clo[k] <= lo[k] + 1e-5 && chi[k] >= hi[k] - 1e-5, "{k}");
        }
        assert!(cxy >= xy - 1e-5 && cr >= r - 1e-5);
        // The unskinned vertex stays where it is.
        assert_eq!(hi[0], 4.0);
    }
}
