//! Closed surfaces, whose faces turned away from the camera are never seen.
//!
//! A connected set of triangles in which every edge is run along by exactly two of them, in
//! opposite directions, is a closed, consistently wound surface. Seen from outside it (by an
//! orthographic camera, or by a perspective eye in front of every vertex: a surface around
//! the eye would have vertices behind it), the first point a ray meets on it lies on a face
//! turned towards the ray, so its faces turned away are hidden behind its own nearer ones
//! and need not be drawn. Most of the triangles of real character models are in such
//! surfaces (a body, its eyes, its buttons), and skipping them halves the triangles filled.
//!
//! Which winding faces outwards is the sign of the volume a surface encloses, taken from
//! the posed positions of each picture (a mirroring joint turns it). A surface that
//! encloses almost nothing (two faces back to back) is drawn whole. Vertices are joined
//! when their positions and skins have the same bits, so joined vertices stay together in
//! every pose. The picture is the same as with every face drawn, except where posing
//! turns part of a surface inside out, and in a few silhouette pixels by one sample (a face
//! turned away, drawn, can win the tie along the edge it shares with the face in front).

use foldhash::fast::FixedState;
use glam::DVec3;
use rigport_model_core::Mesh;
use std::collections::HashMap;

/// No closed surface: the triangle is drawn whatever its facing.
const OPEN: u32 = u32::MAX;

/// Smallest enclosed volume, relative to the surface's area to the power 1.5, whose sign
/// is trusted (a sphere has 0.094, a closed box 1 000 times longer than thick 0.0002).
const MIN_VOLUME_RATIO: f64 = 1e-5;

/// The closed surfaces of a model's meshes.
pub(crate) struct Surfaces {
    /// Per mesh, per triangle: its closed surface, or [`OPEN`].
    surface: Vec<Vec<u32>>,
    /// How many closed surfaces there are.
    count: usize,
}

/// Which winding of a closed surface faces outwards, in one pose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Outward {
    /// Counter-clockwise seen from outside (positive enclosed volume).
    CounterClockwise,
    /// Clockwise seen from outside.
    Clockwise,
    /// Unknown (next to no volume): every face is drawn.
    Unknown,
}

impl Surfaces {
    /// The closed surfaces of `meshes` (a model's, at rest). Triangles with an index out of
    /// range, or two corners joined into one, belong to none. Linear in the triangles
    /// (a hash of the vertex keys, edges bucketed by vertex): it costs less than filling
    /// the triangles once.
    pub fn of(meshes: &[Mesh]) -> Self {
        let (ids, joined) = joined_vertices(meshes);
        // Every triangle's edges as (lower end, higher end, triangle numbered across the
        // meshes · 2 + whether it runs from the higher end); a triangle that cannot be part
        // of a surface has none.
        let mut first = Vec::with_capacity(meshes.len());
        let mut edges: Vec<(u32, u32, u32)> = Vec::new();
        let mut broken: Vec<bool> = Vec::new();
        let mut triangle = 0u32;
        let edge = |from: u32, to: u32, t: u32| {
            (from.min(to), from.max(to), t << 1 | u32::from(from > to))
        };
        for (mesh, ids) in meshes.iter().zip(&ids) {
            first.push(triangle);
            for t in &mesh.triangles {
                let corners = t.map(|i| ids.get(i as usize).copied());
                match corners {
                    [Some(a), Some(b), Some(c)] if a != b && b != c && c != a => {
                        edges.extend([
                            edge(a, b, triangle),
                            edge(b, c, triangle),
                            edge(c, a, triangle),
                        ]);
                        broken.push(false);
                    }
                    _ => broken.push(true),
                }
                triangle += 1;
            }
        }
        // The edges bucketed by their lower end (a counting sort), then each bucket, a few
        // edges long, sorted by the higher end: linear, where one sort of every edge was
        // most of the cost.
        let mut start = vec![0u32; joined + 1];
        for &(low, _, _) in &edges {
            start[low as usize + 1] += 1;
        }
        for v in 0..joined {
            start[v + 1] += start[v];
        }
        let mut next = start.clone();
        let mut bucketed = vec![(0u32, 0u32); edges.len()];
        for &(low, high, t) in &edges {
            let slot = &mut next[low as usize];
            bucketed[*slot as usize] = (high, t);
            *slot += 1;
        }
        drop(edges);
        // The two triangles along an edge run one way each: they are joined. An edge with
        // one triangle, more than two, or two running the same way breaks them all.
        let mut sets = DisjointSets::new(broken.len());
        for bucket in start.windows(2) {
            let bucket = &mut bucketed[bucket[0] as usize..bucket[1] as usize];
            bucket.sort_unstable();
            for group in bucket.chunk_by(|x, y| x.0 == y.0) {
                match group {
                    [(_, x), (_, y)] if (x ^ y) & 1 == 1 => sets.join(x >> 1, y >> 1),
                    _ => {
                        for (_, t) in group {
                            broken[(t >> 1) as usize] = true;
                        }
                    }
                }
            }
        }
        // A surface with a broken triangle is open; the others are numbered in order.
        let mut open = vec![false; broken.len()];
        for (t, &b) in broken.iter().enumerate() {
            if b {
                open[sets.root(t as u32) as usize] = true;
            }
        }
        let mut number = vec![OPEN; broken.len()];
        let mut count = 0usize;
        let mut surface = Vec::with_capacity(meshes.len());
        for (mesh, &start) in meshes.iter().zip(&first) {
            let list = (0..mesh.triangles.len() as u32)
                .map(|k| {
                    let root = sets.root(start + k) as usize;
                    if open[root] {
                        return OPEN;
                    }
                    if number[root] == OPEN {
                        number[root] = count as u32;
                        count += 1;
                    }
                    number[root]
                })
                .collect();
            surface.push(list);
        }
        Self { surface, count }
    }

    /// Whether there is any closed surface.
    pub fn any(&self) -> bool {
        self.count > 0
    }

    /// The closed surface of triangle `k` of mesh `m`, if any.
    pub fn of_triangle(&self, m: usize, k: usize) -> Option<usize> {
        let s = *self.surface.get(m)?.get(k)?;
        (s != OPEN).then_some(s as usize)
    }

    /// Each closed surface's outward winding in the pose `meshes` (the same meshes and
    /// triangles as [`Surfaces::of`] was given, posed).
    pub fn outward(&self, meshes: &[Mesh]) -> Vec<Outward> {
        // Volume and area about each surface's first corner, which keeps the sums small.
        let mut origin: Vec<Option<DVec3>> = vec![None; self.count];
        let mut volume = vec![0.0f64; self.count];
        let mut area = vec![0.0f64; self.count];
        for (m, mesh) in meshes.iter().enumerate() {
            for (k, t) in mesh.triangles.iter().enumerate() {
                let Some(s) = self.of_triangle(m, k) else {
                    continue;
                };
                let Some([a, b, c]) = corners(mesh, t) else {
                    continue;
                };
                let o = *origin[s].get_or_insert(a);
                let (a, b, c) = (a - o, b - o, c - o);
                volume[s] += a.dot(b.cross(c));
                area[s] += (b - a).cross(c - a).length();
            }
        }
        // `volume` and `area` are 6 and 2 times the true ones.
        volume
            .iter()
            .zip(&area)
            .map(|(&v, &a)| {
                let (v, a) = (v / 6.0, a / 2.0);
                // NaN (a vertex far beyond f32) is Unknown too.
                let trusted = v.abs() > MIN_VOLUME_RATIO * a * a.sqrt();
                match (trusted, v > 0.0) {
                    (false, _) => Outward::Unknown,
                    (true, true) => Outward::CounterClockwise,
                    (true, false) => Outward::Clockwise,
                }
            })
            .collect()
    }
}

/// A triangle's corner positions in double precision, if its indices are in range.
fn corners(mesh: &Mesh, t: &[u32; 3]) -> Option<[DVec3; 3]> {
    let p = |i: u32| mesh.vertices.get(i as usize).map(|v| v.position.as_dvec3());
    Some([p(t[0])?, p(t[1])?, p(t[2])?])
}

/// Per mesh, per vertex: a number shared by every vertex of the model with the same
/// position and skin bits.
fn joined_vertices(meshes: &[Mesh]) -> (Vec<Vec<u32>>, usize) {
    let count: usize = meshes.iter().map(|m| m.vertices.len()).sum();
    let mut numbers: HashMap<[u32; 11], u32, FixedState> =
        HashMap::with_capacity_and_hasher(count, FixedState::default());
    let ids = meshes
        .iter()
        .map(|mesh| {
            mesh.vertices
                .iter()
                .map(|v| {
                    let p = v.position.to_array().map(f32::to_bits);
                    let w = v.weights.map(f32::to_bits);
                    let j = v.joints.map(|j| j.0);
                    let key = [
                        p[0], p[1], p[2], j[0], j[1], j[2], j[3], w[0], w[1], w[2], w[3],
                    ];
                    let next = numbers.len() as u32;
                    *numbers.entry(key).or_insert(next)
                })
                .collect()
        })
        .collect();
    (ids, numbers.len())
}

/// Union–find over triangles, by size, with path halving.
struct DisjointSets {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl DisjointSets {
    fn new(n: usize) -> Self {
        Self {
            parent: (0..n as u32).collect(),
            size: vec![1; n],
        }
    }

    fn root(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let up = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = up;
            x = up;
        }
        x
    }

    fn join(&mut self, a: u32, b: u32) {
        let (mut a, mut b) = (self.root(a), self.root(b));
        if a == b {
            return;
        }
        if self.size[a as usize] < self.size[b as usize] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b as usize] = a;
        self.size[a as usize] += self.size[b as usize];
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use glam::Vec3;
    use rigport_model_core::Vertex;

    /// A unit cube's 8 corners and 12 triangles wound counter-clockwise seen from outside.
    pub(crate) fn cube() -> Mesh {
        let mut mesh = Mesh::new("cube");
        for i in 0..8 {
            let p = Vec3::new((i & 1) as f32, (i >> 1 & 1) as f32, (i >> 2 & 1) as f32);
            mesh.vertices.push(Vertex {
                position: p,
                ..Vertex::default()
            });
        }
        mesh.triangles = vec![
            [0, 2, 3],
            [0, 3, 1], // z = 0, seen from -z
            [4, 5, 7],
            [4, 7, 6], // z = 1
            [0, 1, 5],
            [0, 5, 4], // y = 0
            [2, 6, 7],
            [2, 7, 3], // y = 1
            [0, 4, 6],
            [0, 6, 2], // x = 0
            [1, 3, 7],
            [1, 7, 5], // x = 1
        ];
        mesh
    }

    #[test]
    fn a_cube_is_one_closed_surface_wound_outwards() {
        let meshes = [cube()];
        let surfaces = Surfaces::of(&meshes);
        assert_eq!(surfaces.count, 1);
        assert!((0..12).all(|k| surfaces.of_triangle(0, k) == Some(0)));
        assert_eq!(surfaces.outward(&meshes), [Outward::CounterClockwise]);
        let mut inside_out = cube();
        for t in &mut inside_out.triangles {
            t.swap(1, 2);
        }
        assert_eq!(
            Surfaces::of(&[inside_out.clone()]).outward(&[inside_out]),
            [Outward::Clockwise]
        );
    }

    #[test]
    fn a_cube_split_over_two_meshes_with_its_own_vertices_is_still_closed() {
        let whole = cube();
        let mut halves = [whole.clone(), whole];
        halves[0].triangles.truncate(6);
        halves[1].triangles.drain(..6);
        let surfaces = Surfaces::of(&halves);
        assert_eq!(surfaces.count, 1);
        assert_eq!(surfaces.of_triangle(1, 5), Some(0));
    }

    #[test]
    fn open_inconsistent_and_broken_surfaces_are_open() {
        // A face missing.
        let mut open = cube();
        open.triangles.pop();
        assert!(!Surfaces::of(&[open]).any());
        // One triangle wound the other way.
        let mut flipped = cube();
        flipped.triangles[0].swap(1, 2);
        assert!(!Surfaces::of(&[flipped]).any());
        // A vertex with another skin is another vertex: the cube is cut open there.
        let mut skinned = cube();
        skinned.vertices.push(Vertex {
            weights: [1.0, 0.0, 0.0, 0.0],
            ..skinned.vertices[7]
        });
        skinned.triangles[2][2] = 8;
        assert!(!Surfaces::of(&[skinned]).any());
        // An index out of range.
        let mut bad = cube();
        bad.triangles[0] = [0, 2, 99];
        assert!(!Surfaces::of(&[bad]).any());
        // A triangle with two corners joined is in no surface, and shares no edge with the
        // cube, which stays closed.
        let mut degenerate = cube();
        degenerate.triangles.push([0, 0, 1]);
        let surfaces = Surfaces::of(&[degenerate]);
        assert_eq!(surfaces.of_triangle(0, 12), None);
        assert_eq!(surfaces.of_triangle(0, 11), Some(0));
        // The same triangle twice.
        let mut doubled = cube();
        doubled.triangles.push(doubled.triangles[0]);
        assert!(!Surfaces::of(&[doubled]).any());
    }

    #[test]
    fn two_faces_back_to_back_enclose_nothing() {
        let mut mesh = Mesh::new("card");
        for p in [Vec3::ZERO, Vec3::X, Vec3::Y] {
            mesh.vertices.push(Vertex {
                position: p,
                ..Vertex::default()
            });
        }
        mesh.triangles = vec![[0, 1, 2], [0, 2, 1]];
        let meshes = [mesh];
        let surfaces = Surfaces::of(&meshes);
        assert!(surfaces.any());
        assert_eq!(surfaces.outward(&meshes), [Outward::Unknown]);
    }
}
