//! What the SDK's compiler derives from the geometry: welded vertices, tangents and triangle
//! adjacency (per-frame bounds are in `bounds`).

use super::numbering::{first_equal, number_first_seen};
use crate::file::{ArrayKind, Format, VertexArray};
use rigport_model_core::glam::{Vec2, Vec3};

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

/// The welded vertices the tangents, the adjacency and the bounds read: a list of
/// [`Written`] vertices, or the file's own vertex arrays read back ([`ArrayVertices`]), so
/// that a large model's welded list need not be kept beside the arrays made from it.
pub(crate) trait Vertices: Sync {
    /// How many vertices there are.
    fn count(&self) -> usize;
    /// Vertex `i`'s position (`i < count()`).
    fn position(&self, i: usize) -> Vec3;
    /// Vertex `i`'s texture coordinates.
    fn uv(&self, i: usize) -> Vec2;
    /// Vertex `i`'s normal.
    fn normal(&self, i: usize) -> Vec3;
    /// Vertex `i`'s blend indexes and weights.
    fn skin(&self, i: usize) -> ([u32; 4], [u8; 4]);
}

impl Vertices for [Written] {
    fn count(&self) -> usize {
        self.len()
    }

    fn position(&self, i: usize) -> Vec3 {
        self[i].position
    }

    fn uv(&self, i: usize) -> Vec2 {
        self[i].uv
    }

    fn normal(&self, i: usize) -> Vec3 {
        self[i].normal
    }

    fn skin(&self, i: usize) -> ([u32; 4], [u8; 4]) {
        (self[i].joints, self[i].weights)
    }
}

/// The vertices of a file's standard vertex arrays, as the [`Written`] ones they were
/// written from: positions, texture coordinates (zero without them), normals, blend indexes
/// (ubyte or ushort) and weights (zero without them).
pub(crate) struct ArrayVertices<'a> {
    count: usize,
    positions: &'a [u8],
    uvs: Option<&'a [u8]>,
    normals: Option<&'a [u8]>,
    /// The blend indexes and whether they are ushort.
    joints: Option<(&'a [u8], bool)>,
    weights: Option<&'a [u8]>,
}

impl<'a> ArrayVertices<'a> {
    /// The vertices of `arrays`, as the compile writes them.
    pub(crate) fn new(arrays: &'a [VertexArray]) -> Self {
        let data = |kind: ArrayKind| {
            arrays
                .iter()
                .find(|a| a.kind() == kind)
                .map(|a| (a.data.as_slice(), a.format()))
        };
        let positions = data(ArrayKind::Position).map_or(&[][..], |(d, _)| d);
        Self {
            count: positions.len() / 12,
            positions,
            uvs: data(ArrayKind::TexCoord).map(|(d, _)| d),
            normals: data(ArrayKind::Normal).map(|(d, _)| d),
            joints: data(ArrayKind::BlendIndexes).map(|(d, f)| (d, f == Some(Format::UShort))),
            weights: data(ArrayKind::BlendWeights).map(|(d, _)| d),
        }
    }
}

/// The little-endian float at byte `at` of `bytes`.
#[inline]
fn float(bytes: &[u8], at: usize) -> f32 {
    f32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// Vertex `i` of an array of 3 floats a vertex.
#[inline]
fn vec3(bytes: &[u8], i: usize) -> Vec3 {
    let b = &bytes[i * 12..][..12];
    Vec3::new(float(b, 0), float(b, 4), float(b, 8))
}

/// Vertex `i` of an array of 2 floats a vertex.
#[inline]
fn vec2(bytes: &[u8], i: usize) -> Vec2 {
    let b = &bytes[i * 8..][..8];
    Vec2::new(float(b, 0), float(b, 4))
}

/// The 4 bytes at vertex `i` of a 4-byte-per-vertex array.
#[inline]
fn four(bytes: &[u8], i: usize) -> [u8; 4] {
    let b = &bytes[i * 4..][..4];
    [b[0], b[1], b[2], b[3]]
}

impl Vertices for ArrayVertices<'_> {
    #[inline]
    fn count(&self) -> usize {
        self.count
    }

    #[inline]
    fn position(&self, i: usize) -> Vec3 {
        vec3(self.positions, i)
    }

    #[inline]
    fn uv(&self, i: usize) -> Vec2 {
        self.uvs.map_or(Vec2::ZERO, |d| vec2(d, i))
    }

    #[inline]
    fn normal(&self, i: usize) -> Vec3 {
        self.normals.map_or(Vec3::ZERO, |d| vec3(d, i))
    }

    #[inline]
    fn skin(&self, i: usize) -> ([u32; 4], [u8; 4]) {
        let joints = match self.joints {
            Some((bytes, false)) => four(bytes, i).map(u32::from),
            Some((bytes, true)) => {
                let b = &bytes[i * 8..][..8];
                let at = |k: usize| u32::from(u16::from_le_bytes([b[k], b[k + 1]]));
                [at(0), at(2), at(4), at(6)]
            }
            None => [0; 4],
        };
        (joints, self.weights.map_or([0; 4], |d| four(d, i)))
    }
}

/// Welds identical vertices: appends the distinct ones of `vertices` to `out` in first-use
/// order and returns, for each vertex, its index among them (counted from `out`'s length
/// before the call).
pub(crate) fn weld_into(
    vertices: impl ExactSizeIterator<Item = Written>,
    out: &mut Vec<Written>,
) -> Vec<u32> {
    let start = out.len();
    out.extend(vertices);
    let mesh = &out[start..];
    let mut local = first_equal(
        mesh.len(),
        |i| mesh[i].key(),
        |a, b| mesh[a].key() == mesh[b].key(),
    );
    // The distinct vertices moved down over the repeats (each to an index at most its
    // own), in first-use order.
    let mut kept = start;
    for i in 0..local.len() {
        if local[i] as usize == i {
            out[kept] = out[start + i];
            kept += 1;
        }
    }
    out.truncate(kept);
    number_first_seen(&mut local);
    local
}

/// Per-vertex tangents `x y z w` from texture coordinates (`w` = the bitangent's sign),
/// orthogonalized against the normal, as the bytes of the file's tangent array (4
/// little-endian floats a vertex); triangles index `vertices` in file order. The tangent
/// sums are kept in the array itself, so only the bitangent sums are extra memory.
pub(crate) fn tangent_bytes<V: Vertices + ?Sized>(vertices: &V, triangles: &[[u32; 3]]) -> Vec<u8> {
    const SIZE: usize = 16;
    let read = |bytes: &[u8]| vec3(bytes, 0);
    let write = |bytes: &mut [u8], values: [f32; 4]| {
        for (chunk, v) in bytes.chunks_exact_mut(4).zip(values) {
            chunk.copy_from_slice(&v.to_le_bytes());
        }
    };
    let mut out = vec![0u8; vertices.count() * SIZE];
    let mut bitangent = vec![Vec3::ZERO; vertices.count()];
    for t in triangles {
        let [i, j, k] = [t[0] as usize, t[1] as usize, t[2] as usize];
        let [a, b, c] = [
            vertices.position(i),
            vertices.position(j),
            vertices.position(k),
        ];
        let [ua, ub, uc] = [vertices.uv(i), vertices.uv(j), vertices.uv(k)];
        let (e1, e2) = (b - a, c - a);
        let (d1, d2) = (ub - ua, uc - ua);
        let det = d1.x * d2.y - d2.x * d1.y;
        if det == 0.0 || !det.is_finite() {
            continue;
        }
        let r = 1.0 / det;
        let s = (e1 * d2.y - e2 * d1.y) * r;
        let u = (e2 * d1.x - e1 * d2.x) * r;
        for &i in t {
            let at = &mut out[i as usize * SIZE..][..SIZE];
            let sum = read(at) + s;
            write(at, [sum.x, sum.y, sum.z, 0.0]);
            bitangent[i as usize] += u;
        }
    }
    for ((i, at), bitangent) in out.chunks_exact_mut(SIZE).enumerate().zip(bitangent) {
        let n = vertices.normal(i);
        let tangent = read(at);
        let t = (tangent - n * n.dot(tangent))
            .try_normalize()
            .unwrap_or(Vec3::ZERO);
        let w = if n.cross(t).dot(bitangent) < 0.0 {
            -1.0
        } else {
            1.0
        };
        write(at, [t.x, t.y, t.z, w]);
    }
    out
}

/// For each edge `k` (from corner `k` to corner `k + 1`) of each triangle, the one other
/// triangle sharing it, or `u32::MAX` when none or more than one does. Edges are compared
/// by position and blend, as the SDK does, so vertices split by normals or UVs still join.
pub(crate) fn adjacency<V: Vertices + ?Sized>(
    vertices: &V,
    triangles: &[[u32; 3]],
) -> Vec<[u32; 3]> {
    let key = |i: usize| {
        let p = vertices.position(i).to_array().map(f32::to_bits);
        let (j, w) = vertices.skin(i);
        [
            p[0],
            p[1],
            p[2],
            j[0],
            j[1],
            j[2],
            j[3],
            u32::from_le_bytes(w),
        ]
    };
    // Each vertex named by the first vertex with its key: equal keys, equal names.
    let id = first_equal(vertices.count(), key, |a, b| key(a) == key(b));
    const NONE: u32 = u32::MAX;
    let edge = |t: &[u32; 3], k: usize| {
        let (a, b) = (id[t[k] as usize], id[t[(k + 1) % 3] as usize]);
        (a.min(b), a.max(b))
    };
    // Every edge under its smaller end (a counting sort: linear, and no hash map of every
    // edge), as the corner it starts at.
    let mut first = vec![0u32; vertices.count() + 1];
    for t in triangles {
        for k in 0..3 {
            first[edge(t, k).0 as usize + 1] += 1;
        }
    }
    for i in 1..first.len() {
        first[i] += first[i - 1];
    }
    let mut next = first.clone();
    let mut corners = vec![0u32; triangles.len() * 3];
    for (i, t) in triangles.iter().enumerate() {
        for k in 0..3 {
            let slot = &mut next[edge(t, k).0 as usize];
            corners[*slot as usize] = (i * 3 + k) as u32;
            *slot += 1;
        }
    }
    drop(next);
    let larger_end = |c: u32| edge(&triangles[c as usize / 3], c as usize % 3).1;
    let mut out = vec![[NONE; 3]; triangles.len()];
    // One bucket's edges as (larger end, corner), sorted.
    let mut sorted: Vec<(u32, u32)> = Vec::new();
    for bucket in first.windows(2) {
        let corners = &corners[bucket[0] as usize..bucket[1] as usize];
        sorted.clear();
        sorted.extend(corners.iter().map(|&c| (larger_end(c), c)));
        sorted.sort_unstable();
        // An edge used by exactly two corners joins their triangles; by one, or by three
        // or more, none.
        for run in sorted.chunk_by(|a, b| a.0 == b.0) {
            if let [(_, c), (_, d)] = run {
                let (c, d) = (*c as usize, *d as usize);
                out[c / 3][c % 3] = (d / 3) as u32;
                out[d / 3][d % 3] = (c / 3) as u32;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: f32, y: f32) -> Written {
        Written {
            position: Vec3::new(x, y, 0.0),
            uv: Vec2::ZERO,
            normal: Vec3::Z,
            color: [0; 4],
            joints: [0; 4],
            weights: [0; 4],
        }
    }

    #[test]
    fn welding_appends_distinct_vertices_in_first_use_order() {
        let mut out = vec![at(9.0, 9.0)];
        let mut normal = at(1.0, 0.0);
        normal.normal = Vec3::X;
        let vertices = [
            at(1.0, 0.0),
            at(0.0, 1.0),
            at(1.0, 0.0),
            at(-0.0, 1.0), // -0 and +0 differ in their bits: kept apart
            normal,
            at(0.0, 1.0),
        ];
        let local = weld_into(vertices.into_iter(), &mut out);
        assert_eq!(local, [0, 1, 0, 2, 3, 1]);
        assert_eq!(
            out,
            [
                at(9.0, 9.0),
                at(1.0, 0.0),
                at(0.0, 1.0),
                at(-0.0, 1.0),
                normal
            ]
        );
    }

    /// The vertex arrays of `vertices` as the compile writes them: every attribute, or
    /// only positions, normals and ubyte blends.
    fn arrays_of(vertices: &[Written], every: bool) -> Vec<VertexArray> {
        let array = |kind: ArrayKind, format: Format, data: Vec<u8>| VertexArray {
            kind: kind.to_u32(),
            format: format.to_u32(),
            data,
            ..VertexArray::default()
        };
        let floats = |f: &dyn Fn(&Written) -> Vec<f32>| -> Vec<u8> {
            vertices
                .iter()
                .flat_map(f)
                .flat_map(f32::to_le_bytes)
                .collect()
        };
        let mut arrays = vec![
            array(
                ArrayKind::Position,
                Format::Float,
                floats(&|v| v.position.to_array().to_vec()),
            ),
            array(
                ArrayKind::Normal,
                Format::Float,
                floats(&|v| v.normal.to_array().to_vec()),
            ),
            array(
                ArrayKind::BlendWeights,
                Format::UByte,
                vertices.iter().flat_map(|v| v.weights).collect(),
            ),
        ];
        if every {
            arrays.push(array(
                ArrayKind::TexCoord,
                Format::Float,
                floats(&|v| v.uv.to_array().to_vec()),
            ));
            arrays.push(array(
                ArrayKind::Color,
                Format::UByte,
                vertices.iter().flat_map(|v| v.color).collect(),
            ));
            let joints = vertices
                .iter()
                .flat_map(|v| v.joints.map(|j| j as u16))
                .flat_map(u16::to_le_bytes);
            arrays.push(array(
                ArrayKind::BlendIndexes,
                Format::UShort,
                joints.collect(),
            ));
        } else {
            let joints = vertices.iter().flat_map(|v| v.joints.map(|j| j as u8));
            arrays.push(array(
                ArrayKind::BlendIndexes,
                Format::UByte,
                joints.collect(),
            ));
        }
        arrays
    }

    /// What the compile reads of a vertex: position, texture coordinates, normal, skin.
    type Read = (Vec3, Vec2, Vec3, ([u32; 4], [u8; 4]));

    /// What the compile reads of each vertex.
    fn read_back<V: Vertices + ?Sized>(list: &V) -> Vec<Read> {
        (0..list.count())
            .map(|i| (list.position(i), list.uv(i), list.normal(i), list.skin(i)))
            .collect()
    }

    #[test]
    fn the_arrays_give_back_the_vertices_written() {
        let vertex = |k: u32| Written {
            position: Vec3::new(k as f32, -0.5 * k as f32, 1e-3),
            uv: Vec2::new(0.25, k as f32),
            normal: Vec3::new(0.0, (k as f32).sin(), 1.0),
            color: [k as u8, 2, 3, 4],
            joints: [k, 300 + k, 0, 65_535],
            weights: [200, 55, 0, k as u8],
        };
        let vertices: Vec<Written> = (0..5).map(vertex).collect();
        let every = arrays_of(&vertices, true);
        let back = ArrayVertices::new(&every);
        assert_eq!(back.count(), 5);
        assert_eq!(read_back(&back), read_back(vertices.as_slice()));
        // Without texture coordinates (zero, as welded) and with ubyte blend indexes.
        let small: Vec<Written> = vertices
            .iter()
            .map(|v| Written {
                uv: Vec2::ZERO,
                joints: v.joints.map(|j| j % 256),
                ..*v
            })
            .collect();
        let some = arrays_of(&small, false);
        assert_eq!(
            read_back(&ArrayVertices::new(&some)),
            read_back(small.as_slice())
        );
        assert_eq!(ArrayVertices::new(&[]).count(), 0);
    }

    #[test]
    fn adjacency_joins_edges_used_exactly_twice() {
        // A fan of four triangles around vertex 0 whose last corner, vertex 5, repeats
        // vertex 1's position with another normal (joined by position); a fin on edges
        // 0–2 and 0–3 (used three times: they join nothing) that shares edge 2–3 with
        // triangle 1; a degenerate triangle whose edge 1–4 makes three uses too.
        let mut v: Vec<Written> = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)]
            .into_iter()
            .map(|(x, y)| at(x, y))
            .collect();
        let mut split = at(1.0, 0.0);
        split.normal = Vec3::X;
        v.push(split);
        let triangles = [
            [0, 1, 2],
            [0, 2, 3],
            [0, 3, 4],
            [0, 4, 5],
            [2, 0, 3],
            [1, 1, 4],
        ];
        let none = u32::MAX;
        assert_eq!(
            adjacency(&v[..], &triangles),
            vec![
                [3, none, none],
                [none, 4, none],
                [none, none, 3],
                [2, none, 0],
                [none, none, 1],
                [none, none, none],
            ]
        );
    }
}
