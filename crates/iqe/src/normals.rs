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
use rigport_model_core::glam::{DVec3, Vec3};
use std::collections::HashMap;

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

fn generate(scene: &Scene<'_>) -> CornerNormals {
    let triangles = &scene.triangles;
    let area_normals: Vec<DVec3> = triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.vertices.map(|v| position(scene, v));
            (c - a).cross(b - a)
        })
        .collect();
    let unit: Vec<DVec3> = area_normals.iter().map(|n| n.normalize_or_zero()).collect();

    let mut groups: HashMap<[u64; 4], Vec<usize>> = HashMap::new();
    for (t, triangle) in triangles.iter().enumerate() {
        for (k, &v) in triangle.vertices.iter().enumerate() {
            groups
                .entry(position_key(scene, v))
                .or_default()
                .push(t * 3 + k);
        }
    }
    let mut welds = UnionFind::new(triangles.len() * 3);
    let mut budget = PAIR_BUDGET;
    let mut skipped_corners = 0;
    let mut ordered: Vec<&Vec<usize>> = groups.values().collect();
    ordered.sort_by_key(|g| g[0]); // deterministic order, whatever the hash
    for group in ordered {
        let pairs = (group.len() as u64).saturating_mul(group.len() as u64 - 1) / 2;
        if pairs > budget {
            skipped_corners += group.len();
            continue;
        }
        budget -= pairs;
        for (i, &w) in group.iter().enumerate() {
            for &v in &group[i + 1..] {
                if smooths(scene, &unit, w, v) {
                    welds.unite(w, v);
                }
            }
        }
    }

    let mut sums: Vec<DVec3> = Vec::new();
    let mut id_of_root: HashMap<usize, u32> = HashMap::new();
    let mut corners = Vec::with_capacity(triangles.len());
    for (t, area_normal) in area_normals.iter().enumerate() {
        let mut ids = [0u32; 3];
        for (k, id) in ids.iter_mut().enumerate() {
            let root = welds.find(t * 3 + k);
            *id = *id_of_root.entry(root).or_insert_with(|| {
                sums.push(DVec3::ZERO);
                (sums.len() - 1) as u32
            });
            sums[*id as usize] += *area_normal;
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
fn smooths(scene: &Scene<'_>, unit: &[DVec3], w: usize, v: usize) -> bool {
    let (wt, vt) = (&scene.triangles[w / 3], &scene.triangles[v / 3]);
    let default = Default::default();
    let ws = scene
        .smoothing
        .get(wt.smoothing as usize)
        .unwrap_or(&default);
    let vs = scene
        .smoothing
        .get(vt.smoothing as usize)
        .unwrap_or(&default);
    if ws.group != vs.group {
        return false;
    }
    // libm: the same limit on every target (see `rigport_anim::euler`).
    let limit = libm::cos(ws.angle.min(vs.angle).to_radians());
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
    !scene.has_edge_flags || shares_smooth_edge(scene, wt, w % 3, vt, v % 3)
}

/// Whether the two triangles share an edge through these corners that either marks smooth.
/// Edge `k` runs from corner `k` to corner `k+1`; the corners at the shared position are `a`
/// (in `wt`) and `b` (in `vt`), so each triangle has two edges through it.
fn shares_smooth_edge(scene: &Scene<'_>, wt: &Triangle, a: usize, vt: &Triangle, b: usize) -> bool {
    // (edge index, the corner at its other end) for both edges through a corner.
    let edges = |k: usize| [(k, (k + 1) % 3), ((k + 2) % 3, (k + 2) % 3)];
    let key = |t: &Triangle, corner: usize| position_key(scene, t.vertices[corner]);
    edges(a).iter().any(|&(we, wo)| {
        edges(b).iter().any(|&(ve, vo)| {
            key(wt, wo) == key(vt, vo) && ((wt.edges >> we) & 1 == 1 || (vt.edges >> ve) & 1 == 1)
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
