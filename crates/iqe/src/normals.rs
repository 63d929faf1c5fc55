//! Normals for files without `vn`, by the smoothing rules of the specification.
//!
//! Triangle corners that share a position (across meshes) are welded into one normal when
//! every applicable test passes: same `smoothgroup` key; the angle between the two face
//! normals at most the smaller `smoothangle`; equal texture coordinates when either triangle
//! has `smoothuv`; equal `vs` indices when the file has them; and, when the file has `fs`
//! flags, a shared edge that either triangle marks as smooth. Welding is transitive. Each
//! welded normal is the sum of its triangles' face normals weighted by their area,
//! normalized. Front faces wind clockwise in IQE, so a face normal is `(p2−p0)×(p1−p0)`.

use crate::command::Attribute;
use crate::scene::{Scene, Triangle};
use hashbrown::hash_table::{Entry, HashTable};
use rigport_model_core::glam::{DVec3, Vec3};
use std::hash::BuildHasher;

/// One normal per triangle corner, shared through indices.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CornerNormals {
    /// The distinct normals (unit length, or zero for degenerate surroundings).
    pub normals: Vec<Vec3>,
    /// For generated normals, the normal index of each corner of each triangle of
    /// [`Scene::triangles`]; empty for stored ones, where a corner's normal is its vertex's
    /// (see [`CornerNormals::corner_indices`]).
    pub corners: Vec<[u32; 3]>,
    /// Whether the normals were generated (the file had no `vn`).
    pub generated: bool,
    /// Corners left unwelded because a position was shared by too many corners to compare
    /// them all (a hostile file); 0 for real files.
    pub skipped_corners: usize,
}

impl CornerNormals {
    /// The normal index of each corner of triangle `t`.
    pub fn corner_indices(&self, scene: &Scene<'_>, t: usize) -> Option<[u32; 3]> {
        if self.generated {
            self.corners.get(t).copied()
        } else {
            scene.triangles.get(t).map(|triangle| triangle.vertices)
        }
    }
}

/// Most pairwise corner comparisons for one file; beyond it corners stay faceted so that no
/// input can make normal generation quadratic in its size.
const PAIR_BUDGET: u64 = 50_000_000;

/// The file's `vn` normals when it has them, else generated ones.
pub fn corner_normals(scene: &Scene<'_>) -> CornerNormals {
    let stored = scene.array_len(Attribute::Normal);
    if stored > 0 {
        return CornerNormals {
            normals: (0..stored)
                .map(|v| DVec3::from_array(scene.normal(v).unwrap_or_default()).as_vec3())
                .collect(),
            corners: Vec::new(),
            generated: false,
            skipped_corners: 0,
        };
    }
    generate(scene)
}

fn position(scene: &Scene<'_>, vertex: u32) -> DVec3 {
    scene
        .position(vertex as usize)
        .map_or(DVec3::ZERO, |p| DVec3::new(p[0], p[1], p[2]))
}

/// Exact position key; `+ 0.0` folds −0 into 0 so they compare equal as in iqm.cpp.
fn position_key(scene: &Scene<'_>, vertex: u32) -> [u64; 4] {
    let p = scene
        .position(vertex as usize)
        .unwrap_or([0.0, 0.0, 0.0, 1.0]);
    p.map(|c| (c + 0.0).to_bits())
}

/// The distinct positions of a scene: each vertex's, numbered by first appearance among
/// the triangles' corners, and the corners at each (rising, grouped by position).
struct Places {
    /// The position number of each vertex a triangle names (others: `u32::MAX`).
    of_vertex: Vec<u32>,
    /// The position number of vertex indices past the arrays (the default position).
    outside: u32,
    /// Where each position's corners start in `corners` (one more entry than positions).
    starts: Vec<u32>,
    /// Every corner (`triangle * 3 + k`), by position, rising within each.
    corners: Vec<usize>,
}

impl Places {
    fn of(scene: &Scene<'_>) -> Self {
        let triangles = &scene.triangles;
        // The table holds one vertex per position with its number: 8 bytes a slot, so it
        // stays in cache where a map of keys did not. A key is read again from the
        // commands only to compare it with one of the same hash (a shared position).
        let key_of = |v: u32| position_key(scene, v);
        let hasher = foldhash::fast::FixedState::default();
        let hash = |key: &[u64; 4]| hasher.hash_one(key);
        let mut table: HashTable<(u32, u32)> = HashTable::with_capacity(scene.vertex_count);
        let mut of_vertex = vec![u32::MAX; scene.vertex_count];
        let mut outside = u32::MAX;
        let mut counts: Vec<u32> = Vec::new();
        let mut corner_places = Vec::with_capacity(triangles.len() * 3);
        for v in triangles.iter().flat_map(|t| t.vertices) {
            let slot = match of_vertex.get_mut(v as usize) {
                Some(slot) => slot,
                None => &mut outside,
            };
            if *slot == u32::MAX {
                let key = key_of(v);
                let entry = table.entry(
                    hash(&key),
                    |&(w, _)| key_of(w) == key,
                    |&(w, _)| hash(&key_of(w)),
                );
                *slot = match entry {
                    Entry::Occupied(found) => found.get().1,
                    Entry::Vacant(empty) => {
                        let place = counts.len() as u32;
                        empty.insert((v, place));
                        counts.push(0);
                        place
                    }
                };
            }
            counts[*slot as usize] += 1;
            corner_places.push(*slot);
        }
        drop(table);
        let mut starts = Vec::with_capacity(counts.len() + 1);
        let mut total = 0u32;
        for count in &counts {
            starts.push(total);
            total += count;
        }
        starts.push(total);
        let mut next = starts.clone();
        let mut corners = vec![0usize; corner_places.len()];
        for (corner, &place) in corner_places.iter().enumerate() {
            let at = &mut next[place as usize];
            corners[*at as usize] = corner;
            *at += 1;
        }
        drop((next, corner_places));
        Places {
            of_vertex,
            outside,
            starts,
            corners,
        }
    }

    /// The position number of vertex `v`, named by a triangle.
    fn of_corner(&self, v: u32) -> u32 {
        self.of_vertex
            .get(v as usize)
            .copied()
            .unwrap_or(self.outside)
    }

    /// The corners at each position, in order of each position's first corner.
    fn groups(&self) -> impl Iterator<Item = &[usize]> {
        self.starts
            .windows(2)
            .map(|w| &self.corners[w[0] as usize..w[1] as usize])
    }
}

fn generate(scene: &Scene<'_>) -> CornerNormals {
    let triangles = &scene.triangles;
    // First, while nothing else is held: numbering the positions takes a table.
    let places = Places::of(scene);
    let area_normals: Vec<DVec3> = triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.vertices.map(|v| position(scene, v));
            (c - a).cross(b - a)
        })
        .collect();
    let unit: Vec<DVec3> = area_normals.iter().map(|n| n.normalize_or_zero()).collect();
    let limits = Limits::of(scene);
    let mut welds = UnionFind::new(triangles.len() * 3);
    let mut budget = PAIR_BUDGET;
    let mut skipped_corners = 0;
    for group in places.groups() {
        let pairs = (group.len() as u64).saturating_mul(group.len() as u64 - 1) / 2;
        if pairs > budget {
            skipped_corners += group.len();
            continue;
        }
        budget -= pairs;
        for (i, &w) in group.iter().enumerate() {
            for &v in &group[i + 1..] {
                if smooths(scene, &places, &limits, &unit, w, v) {
                    welds.unite(w, v);
                }
            }
        }
    }
    drop((unit, places));
    // A weld's root is its first corner (`unite` keeps the smaller root), so corners meet
    // each weld first at its root: its normal is numbered there, and later corners read
    // the root's number back from what is already made.
    let mut sums: Vec<DVec3> = Vec::new();
    let mut corners: Vec<[u32; 3]> = Vec::with_capacity(triangles.len());
    for (t, area_normal) in area_normals.iter().enumerate() {
        let mut ids = [0u32; 3];
        for k in 0..3 {
            let corner = t * 3 + k;
            let root = welds.find(corner);
            let id = if root == corner {
                sums.push(DVec3::ZERO);
                (sums.len() - 1) as u32
            } else if root / 3 == t {
                // An earlier corner of this triangle.
                ids[root % 3]
            } else {
                corners.get(root / 3).map_or(0, |c| c[root % 3])
            };
            sums[id as usize] += *area_normal;
            ids[k] = id;
        }
        corners.push(ids);
    }
    CornerNormals {
        normals: sums
            .iter()
            .map(|s| s.normalize_or_zero().as_vec3())
            .collect(),
        corners,
        generated: true,
        skipped_corners,
    }
}

/// Whether corners `w` and `v` (as `triangle * 3 + corner`) at the same position weld.
/// The cosine of each smoothing state's `smoothangle`, the limit two faces of one state
/// weld within.
struct Limits(Vec<f64>);

impl Limits {
    fn of(scene: &Scene<'_>) -> Self {
        Limits(
            scene
                .smoothing
                .iter()
                .map(|s| angle_limit(s.angle))
                .collect(),
        )
    }

    /// The limit for faces of states `a` and `b` (the smaller angle's).
    fn between(&self, scene: &Scene<'_>, a: u32, b: u32) -> f64 {
        match self.0.get(a as usize) {
            Some(&limit) if a == b => limit,
            _ => {
                let angle = |s: u32| {
                    let state = scene.smoothing.get(s as usize).copied();
                    state.unwrap_or_default().angle
                };
                angle_limit(angle(a).min(angle(b)))
            }
        }
    }
}

/// The cosine of `degrees`; libm, for the same limit on every target (see
/// `rigport_anim::euler`).
fn angle_limit(degrees: f64) -> f64 {
    libm::cos(degrees.to_radians())
}

fn smooths(
    scene: &Scene<'_>,
    places: &Places,
    limits: &Limits,
    unit: &[DVec3],
    w: usize,
    v: usize,
) -> bool {
    let (wt, vt) = (&scene.triangles[w / 3], &scene.triangles[v / 3]);
    let (w_state, v_state) = (scene.smoothing_of(w / 3), scene.smoothing_of(v / 3));
    let default = Default::default();
    let ws = scene.smoothing.get(w_state as usize).unwrap_or(&default);
    let vs = scene.smoothing.get(v_state as usize).unwrap_or(&default);
    if ws.group != vs.group {
        return false;
    }
    let limit = limits.between(scene, w_state, v_state);
    if unit[w / 3].dot(unit[v / 3]) < limit - 1e-9 {
        return false;
    }
    let (wv, vv) = (wt.vertices[w % 3] as usize, vt.vertices[v % 3] as usize);
    if (ws.uv || vs.uv)
        && scene.array_len(Attribute::TexCoord) > 0
        && scene.texcoord(wv) != scene.texcoord(vv)
    {
        return false;
    }
    if scene.smooth_index_count() > 0 && scene.smooth_index(wv) != scene.smooth_index(vv) {
        return false;
    }
    !scene.has_edge_flags
        || shares_smooth_edge(
            places,
            (wt, scene.edges(w / 3)),
            w % 3,
            (vt, scene.edges(v / 3)),
            v % 3,
        )
}

/// Whether the two triangles share an edge through these corners that either marks smooth.
/// Edge `k` runs from corner `k` to corner `k+1`; the corners at the shared position are `a`
/// (in `wt`) and `b` (in `vt`), so each triangle has two edges through it.
fn shares_smooth_edge(
    places: &Places,
    (wt, w_edges): (&Triangle, u8),
    a: usize,
    (vt, v_edges): (&Triangle, u8),
    b: usize,
) -> bool {
    // (edge index, the corner at its other end) for both edges through a corner.
    let edges = |k: usize| [(k, (k + 1) % 3), ((k + 2) % 3, (k + 2) % 3)];
    let place = |t: &Triangle, corner: usize| places.of_corner(t.vertices[corner]);
    edges(a).iter().any(|&(we, wo)| {
        edges(b).iter().any(|&(ve, vo)| {
            place(wt, wo) == place(vt, vo) && ((w_edges >> we) & 1 == 1 || (v_edges >> ve) & 1 == 1)
        })
    })
}

/// Union–find over corners with path halving.
struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    fn new(n: usize) -> Self {
        Self {
            parent: (0..n).collect(),
        }
    }

    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    fn unite(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            // Keep the smaller root so results do not depend on comparison order.
            let (lo, hi) = (ra.min(rb), ra.max(rb));
            self.parent[hi] = lo;
        }
    }
}

#[cfg(test)]
mod tests;
