//! Generated normals are those of the plain rule: corners grouped by position in a map of
//! lists, every pair compared, welds numbered through a map of roots. The reference below
//! is that rule written plainly; the crate's faster form must give the same normals.

use super::*;
use crate::file::File;
use crate::test_lines::{file_of, line, test_files};
use proptest::prelude::*;
use rigport_model_core::ReadOptions;
use std::collections::HashMap;

fn reference(scene: &Scene<'_>) -> CornerNormals {
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
                if reference_smooths(scene, &unit, w, v) {
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

fn reference_smooths(scene: &Scene<'_>, unit: &[DVec3], w: usize, v: usize) -> bool {
    let (wt, vt) = (&scene.triangles[w / 3], &scene.triangles[v / 3]);
    let default = Default::default();
    let ws = scene
        .smoothing
        .get(scene.smoothing_of(w / 3) as usize)
        .unwrap_or(&default);
    let vs = scene
        .smoothing
        .get(scene.smoothing_of(v / 3) as usize)
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
    !scene.has_edge_flags || reference_shares(scene, (wt, w / 3), w % 3, (vt, v / 3), v % 3)
}

fn reference_shares(
    scene: &Scene<'_>,
    (wt, w_index): (&Triangle, usize),
    a: usize,
    (vt, v_index): (&Triangle, usize),
    b: usize,
) -> bool {
    let (w_edges, v_edges) = (scene.edges(w_index), scene.edges(v_index));
    // (edge index, the corner at its other end) for both edges through a corner.
    let edges = |k: usize| [(k, (k + 1) % 3), ((k + 2) % 3, (k + 2) % 3)];
    let key = |t: &Triangle, corner: usize| position_key(scene, t.vertices[corner]);
    edges(a).iter().any(|&(we, wo)| {
        edges(b).iter().any(|&(ve, vo)| {
            key(wt, wo) == key(vt, vo) && ((w_edges >> we) & 1 == 1 || (v_edges >> ve) & 1 == 1)
        })
    })
}

/// The scene of `src` when it reads and builds, and whether the generated normals of its
/// positions-only form (its `vn` lines dropped) equal the reference's.
fn assert_same_normals(src: &[u8]) {
    let text: Vec<u8> = src
        .split_inclusive(|&b| b == b'\n')
        .filter(|line| !line.trim_ascii_start().starts_with(b"vn"))
        .flatten()
        .copied()
        .collect();
    let Ok((file, _)) = File::from_slice_with(&text, &ReadOptions::default()) else {
        return;
    };
    let Ok(scene) = file.scene() else {
        return;
    };
    assert_eq!(
        corner_normals(&scene),
        reference(&scene),
        "{}",
        String::from_utf8_lossy(&text)
    );
}

#[test]
fn every_fixture_and_corpus_file_generates_the_reference_normals() {
    for src in test_files() {
        assert_same_normals(&src);
    }
}

/// One mesh of `vertices` on a small lattice (so that many share a position), with faces
/// naming them and smoothing commands between the faces.
fn lattice_file() -> impl Strategy<Value = Vec<u8>> {
    let vertex = (0u8..3, 0u8..3, 0u8..2, 0u8..2);
    let face = (
        [0usize..12, 0usize..12, 0usize..12],
        prop_oneof![
            6 => Just(String::new()),
            1 => (0i64..3).prop_map(|g| format!("smoothgroup {g}\n")),
            1 => prop_oneof![Just(20.0), Just(60.0), Just(180.0)]
                .prop_map(|a| format!("smoothangle {a}\n")),
            1 => Just("smoothuv 1\n".to_string()),
            1 => (0u8..8).prop_map(|flags| format!("fs {flags}\n")),
        ],
    );
    (
        proptest::collection::vec(vertex, 12),
        proptest::collection::vec(face, 1..40),
    )
        .prop_map(|(vertices, faces)| {
            let mut text = String::from("# Inter-Quake Export\nmesh m\n");
            for (x, y, z, u) in vertices {
                text.push_str(&format!("vp {x} {y} {z}\nvt {u} 0\n"));
            }
            for ([a, b, c], before) in faces {
                text.push_str(&before);
                text.push_str(&format!("fm {a} {b} {c}\n"));
            }
            text.into_bytes()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn lattice_meshes_generate_the_reference_normals(src in lattice_file()) {
        assert_same_normals(&src);
    }

    #[test]
    fn generated_files_generate_the_reference_normals(
        lines in proptest::collection::vec(line(), 0..80),
    ) {
        assert_same_normals(&file_of(&lines, false));
    }
}
