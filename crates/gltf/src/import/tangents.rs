//! Vertex tangents of a `.glb` copy: glTF requires every `TANGENT` to be a unit `xyz` with
//! `w` = ±1, and real files break that (zero-length tangents from exporters that had no UVs
//! to derive them from). The neutral model carries no tangents, so only a same-format copy
//! writes them; [`GltfFile::valid_copy`] repairs the ones the Khronos validator would
//! refuse, in place, and leaves every other byte as read.

use super::accessor::{visit_f32, visit_u32};
use super::{GltfFile, ImportError};
use glam::{Vec2, Vec3};
use gltf_json as json;
use json::accessor::{ComponentType, Type};
use json::mesh::{Mode, Semantic};
use json::validation::Checked;
use rigport_model_core::{Report, codes};

/// How far from 1 a tangent's length may be: the Khronos validator's tolerance, wide enough
/// for tangents quantized to normalized bytes (`KHR_mesh_quantization`), so a tangent it
/// accepts is never rewritten. A rebuilt tangent is normalized in f32, far inside it.
const UNIT_TOLERANCE: f64 = 0.00674;

/// Whether a stored tangent is one the validator accepts (its length taken in f64, as the
/// validator does).
fn is_valid(t: [f32; 4]) -> bool {
    let length = t[..3]
        .iter()
        .map(|&c| f64::from(c).powi(2))
        .sum::<f64>()
        .sqrt();
    (length - 1.0).abs() <= UNIT_TOLERANCE && (t[3] == 1.0 || t[3] == -1.0)
}

/// One primitive's vertex data a tangent is rebuilt from.
#[derive(Default)]
struct Geometry {
    normals: Vec<Vec3>,
    positions: Vec<Vec3>,
    uvs: Vec<Vec2>,
    triangles: Vec<[u32; 3]>,
}

impl Geometry {
    /// What the primitive holds; attributes that cannot be read are left empty (a tangent is
    /// then rebuilt from less).
    fn read(file: &GltfFile, primitive: &json::mesh::Primitive, count: usize) -> Geometry {
        let attribute = |semantic| {
            primitive
                .attributes
                .get(&Checked::Valid(semantic))
                .map(|a| a.value())
        };
        let vec3 = |index: Option<usize>| {
            let mut out = Vec::new();
            if let Some(index) = index {
                out = vec![Vec3::ZERO; count];
                let read = visit_f32::<3>(file, index, "tangent source", |i, v| {
                    if let Some(slot) = out.get_mut(i) {
                        *slot = Vec3::from(v);
                    }
                });
                if read.is_err() {
                    out.clear();
                }
            }
            out
        };
        let mut geometry = Geometry {
            normals: vec3(attribute(Semantic::Normals)),
            positions: vec3(attribute(Semantic::Positions)),
            ..Geometry::default()
        };
        if let Some(index) = attribute(Semantic::TexCoords(0)) {
            geometry.uvs = vec![Vec2::ZERO; count];
            let uvs = &mut geometry.uvs;
            if visit_f32::<2>(file, index, "tangent source", |i, v| {
                // glTF's V runs down the image; the handedness `w` is taken with V up, as
                // glTF's reference tangent generator (MikkTSpace) does.
                if let Some(slot) = uvs.get_mut(i) {
                    *slot = Vec2::new(v[0], 1.0 - v[1]);
                }
            })
            .is_err()
            {
                uvs.clear();
            }
        }
        if primitive.mode == Checked::Valid(Mode::Triangles) {
            let mut corners = Vec::new();
            let read = match primitive.indices {
                Some(indices) => visit_u32::<1>(file, indices.value(), "tangent source", |_, v| {
                    corners.push(v[0]);
                })
                .is_ok(),
                None => {
                    corners.extend(0..u32::try_from(count).unwrap_or(u32::MAX));
                    true
                }
            };
            if read {
                geometry.triangles = corners
                    .chunks_exact(3)
                    .map(|c| [c[0], c[1], c[2]])
                    .filter(|t| t.iter().all(|&i| (i as usize) < count))
                    .collect();
            }
        }
        geometry
    }

    /// Per-vertex tangent directions from the texture coordinates' gradient over each
    /// triangle (summed, unnormalized), or nothing without positions and UVs.
    fn uv_directions(&self, count: usize) -> Vec<(Vec3, f32)> {
        if self.positions.len() != count || self.uvs.len() != count {
            return Vec::new();
        }
        let mut sums = vec![(Vec3::ZERO, 0.0f32); count];
        for &[a, b, c] in &self.triangles {
            let [a, b, c] = [a as usize, b as usize, c as usize];
            let (e1, e2) = (
                self.positions[b] - self.positions[a],
                self.positions[c] - self.positions[a],
            );
            let (d1, d2) = (self.uvs[b] - self.uvs[a], self.uvs[c] - self.uvs[a]);
            let det = d1.perp_dot(d2);
            if det == 0.0 || !det.is_finite() {
                continue;
            }
            let tangent = (e1 * d2.y - e2 * d1.y) / det;
            let bitangent = (e2 * d1.x - e1 * d2.x) / det;
            if !tangent.is_finite() || !bitangent.is_finite() {
                continue;
            }
            // Handedness: whether (normal × tangent) points along the UV bitangent.
            let face = e1.cross(e2);
            let sign = if face.cross(tangent).dot(bitangent) < 0.0 {
                -1.0
            } else {
                1.0
            };
            for v in [a, b, c] {
                sums[v].0 += tangent;
                sums[v].1 += sign;
            }
        }
        sums
    }

    /// A valid tangent for vertex `i` in place of `stored`: the stored direction normalized
    /// when it has one, else the UV gradient, else any direction perpendicular to the
    /// normal; made perpendicular to the normal; `w` kept when it is ±1.
    fn rebuild(&self, i: usize, stored: [f32; 4], uv: &[(Vec3, f32)]) -> [f32; 4] {
        let normal = self
            .normals
            .get(i)
            .copied()
            .filter(|n| n.is_finite())
            .and_then(Vec3::try_normalize);
        let perpendicular = |t: Vec3| match normal {
            Some(n) => (t - n * n.dot(t)).try_normalize(),
            None => t.try_normalize(),
        };
        let xyz = Vec3::new(stored[0], stored[1], stored[2]);
        let from_uv = uv.get(i).copied();
        let direction = Some(xyz)
            .filter(|t| t.is_finite())
            .and_then(perpendicular)
            .or_else(|| from_uv.and_then(|(t, _)| perpendicular(t)))
            .or_else(|| normal.map(|n| n.any_orthonormal_vector()))
            .unwrap_or(Vec3::X);
        let w = if stored[3] == 1.0 || stored[3] == -1.0 {
            stored[3]
        } else if stored[3].is_finite() && stored[3] != 0.0 {
            stored[3].signum()
        } else if from_uv.is_some_and(|(_, sign)| sign < 0.0) {
            -1.0
        } else {
            1.0
        };
        [direction.x, direction.y, direction.z, w]
    }
}

/// Where a tangent accessor's elements are in the input, when they can be rewritten in place:
/// dense f32 VEC4 in the GLB `BIN` chunk. `(first byte, stride)`.
fn in_place(file: &GltfFile, index: usize) -> Option<(usize, usize)> {
    let accessor = file.root().accessors.get(index)?;
    let f32_components = matches!(
        accessor.component_type,
        Checked::Valid(json::accessor::GenericComponentType(ComponentType::F32))
    );
    if accessor.type_ != Checked::Valid(Type::Vec4) || !f32_components || accessor.sparse.is_some()
    {
        return None;
    }
    let view = file
        .root()
        .buffer_views
        .get(accessor.buffer_view?.value())?;
    let start = file.bin_chunk_offset(view.buffer.value())?;
    let offset = start
        .checked_add(usize::try_from(view.byte_offset.map_or(0, |o| o.0)).ok()?)?
        .checked_add(usize::try_from(accessor.byte_offset.map_or(0, |o| o.0)).ok()?)?;
    Some((offset, view.byte_stride.map_or(16, |s| s.0)))
}

impl GltfFile {
    /// The bytes a same-format copy writes: exactly the bytes read, except that vertex
    /// tangents glTF forbids (not of unit length, zero, not finite, or `w` other than ±1) are
    /// rebuilt in place — the stored direction normalized when it has one, else from the
    /// texture coordinates, else perpendicular to the normal — with a
    /// [`codes::TANGENTS_REPAIRED`] notice per accessor. An accessor that declares `min` or
    /// `max` gets the bounds of its rebuilt values (the JSON chunk is then written anew from
    /// its parsed form).
    ///
    /// `None` when such tangents cannot be rewritten in place (a `.gltf`, or an accessor
    /// that is sparse, not f32 VEC4, unreadable, or outside the `BIN` chunk): the caller
    /// then converts through the model, which does not carry tangents.
    pub fn valid_copy(&self) -> Option<(Vec<u8>, Report)> {
        let mut report = Report::default();
        let mut bytes: Option<Vec<u8>> = None;
        let mut done = Vec::new();
        let mut bounds = Vec::new();
        for (m, mesh) in self.root().meshes.iter().enumerate() {
            for (p, primitive) in mesh.primitives.iter().enumerate() {
                let Some(index) = primitive
                    .attributes
                    .get(&Checked::Valid(Semantic::Tangents))
                    .map(|a| a.value())
                else {
                    continue;
                };
                if done.contains(&index) {
                    continue;
                }
                done.push(index);
                // Without a buffer view every element is zero (invalid), and there are no
                // bytes to rewrite: the caller goes through the model.
                self.root().accessors.get(index)?.buffer_view?;
                let mut stored = Vec::new();
                let read: Result<usize, ImportError> =
                    visit_f32::<4>(self, index, "TANGENT", |i, v| {
                        if i == stored.len() {
                            stored.push(v);
                        } else if let Some(slot) = stored.get_mut(i) {
                            *slot = v;
                        }
                    });
                if read.ok() != Some(stored.len()) {
                    return None;
                }
                let bad: Vec<usize> = (0..stored.len())
                    .filter(|&i| !is_valid(stored[i]))
                    .collect();
                if bad.is_empty() {
                    continue;
                }
                let (start, stride) = in_place(self, index)?;
                let geometry = Geometry::read(self, primitive, stored.len());
                let uv = geometry.uv_directions(stored.len());
                let out = bytes.get_or_insert_with(|| self.to_vec());
                for &i in &bad {
                    let tangent = geometry.rebuild(i, stored[i], &uv);
                    stored[i] = tangent;
                    let at = start + i * stride;
                    let slot = out.get_mut(at..at + 16)?;
                    for (chunk, value) in slot.chunks_exact_mut(4).zip(tangent) {
                        chunk.copy_from_slice(&value.to_le_bytes());
                    }
                }
                let accessor = &self.root().accessors[index];
                if accessor.min.is_some() || accessor.max.is_some() {
                    bounds.push((index, bounds_of(&stored)));
                }
                report.warn(
                    codes::TANGENTS_REPAIRED,
                    format!(
                        "mesh {m} primitive {p}: {} of {} tangents (accessor {index}) were not unit vectors with w = ±1; rebuilt",
                        bad.len(),
                        stored.len()
                    ),
                );
            }
        }
        let mut bytes = bytes.unwrap_or_else(|| self.to_vec());
        if !bounds.is_empty() {
            bytes = with_bounds(&bytes, &bounds)?;
        }
        Some((bytes, report))
    }
}

/// An accessor's component-wise minimum and maximum.
type Bounds = ([f32; 4], [f32; 4]);

/// The component-wise minimum and maximum of `values`.
fn bounds_of(values: &[[f32; 4]]) -> Bounds {
    let mut min = [f32::INFINITY; 4];
    let mut max = [f32::NEG_INFINITY; 4];
    for v in values {
        for c in 0..4 {
            min[c] = min[c].min(v[c]);
            max[c] = max[c].max(v[c]);
        }
    }
    (min, max)
}

/// A `.glb` whose JSON chunk gives the accessors in `bounds` the `min` and `max` of their
/// rebuilt values (only the bounds an accessor declares, which glTF requires to be exact).
/// The JSON is rewritten from its parsed form (same content, keys in sorted order) when any
/// declared bound changed; the BIN chunk and everything after the JSON stay as they are.
fn with_bounds(glb: &[u8], bounds: &[(usize, Bounds)]) -> Option<Vec<u8>> {
    let length = u32::from_le_bytes(glb.get(12..16)?.try_into().ok()?) as usize;
    let json_end = 20usize.checked_add(length)?;
    let mut root: json::Value = json::deserialize::from_slice(glb.get(20..json_end)?).ok()?;
    let mut changed = false;
    for (index, (min, max)) in bounds {
        let accessor = root
            .get_mut("accessors")?
            .get_mut(*index)?
            .as_object_mut()?;
        for (key, values) in [("min", min), ("max", max)] {
            if let Some(declared) = accessor.get_mut(key) {
                let exact: Vec<json::Value> = values.iter().map(|&v| f64::from(v).into()).collect();
                let same = declared.as_array().is_some_and(|d| {
                    d.len() == 4
                        && d.iter()
                            .zip(values)
                            .all(|(d, &v)| d.as_f64() == Some(f64::from(v)))
                });
                if !same {
                    *declared = json::Value::Array(exact);
                    changed = true;
                }
            }
        }
    }
    if !changed {
        return Some(glb.to_vec());
    }
    let mut text = json::serialize::to_vec(&root).ok()?;
    text.resize(text.len().div_ceil(4) * 4, b' ');
    let rest = glb.get(json_end..)?;
    let total = u32::try_from(20 + text.len() + rest.len()).ok()?;
    let mut out = Vec::with_capacity(total as usize);
    out.extend_from_slice(&glb[..8]);
    out.extend_from_slice(&total.to_le_bytes());
    out.extend_from_slice(&u32::try_from(text.len()).ok()?.to_le_bytes());
    out.extend_from_slice(&glb[16..20]);
    out.extend_from_slice(&text);
    out.extend_from_slice(rest);
    Some(out)
}
