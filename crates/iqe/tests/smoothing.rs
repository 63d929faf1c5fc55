//! Generated normals for the smoothing fixtures, checked against values worked out by hand
//! (the fixtures' comments show the geometry).
//!
//! Every fixture uses the same right-angle pair of faces: A = (0,0,0) (0,1,0) (1,0,0) and
//! B = (0,0,0) (0,0,2) (0,1,0). IQE fronts wind clockwise, so a face's area-weighted normal
//! is (p2−p0)×(p1−p0): A gives X×Y = +Z (length 1, area ½), B gives Y×2Z = +2X (length 2,
//! area 1). Corners of A and B that weld get normalize(Z + 2X) = (2, 0, 1)/√5: the larger
//! face pulls twice as hard (area weighting). Corners that do not weld keep their face's
//! direction: +Z on A, +X on B.

mod common;

use common::scene;
use rigport_iqe::corner_normals;
use rigport_model_core::glam::Vec3;

/// normalize(Z + 2X).
fn welded() -> Vec3 {
    Vec3::new(2.0, 0.0, 1.0) / 5f32.sqrt()
}

/// The normal of each corner of each triangle.
fn normals(name: &str) -> Vec<[Vec3; 3]> {
    let s = scene(name);
    let n = corner_normals(&s);
    assert!(
        n.generated,
        "{name} has no vn, so its normals are generated"
    );
    n.corners
        .iter()
        .map(|c| c.map(|i| n.normals[i as usize]))
        .collect()
}

fn assert_normals(name: &str, expected: &[[Vec3; 3]]) {
    let got = normals(name);
    assert_eq!(got.len(), expected.len(), "{name}");
    for (t, (g, e)) in got.iter().zip(expected).enumerate() {
        for k in 0..3 {
            assert!(
                (g[k] - e[k]).length() < 1e-6,
                "{name} triangle {t} corner {k}: {g:?} != {e:?}"
            );
        }
    }
}

#[test]
fn smoothgroup_welds_only_equal_keys() {
    let w = welded();
    assert_normals(
        "smooth_group.iqe",
        &[
            // Same group: A = v0 v1 v2 with v0, v1 shared; B = v0 v3 v1.
            [w, w, Vec3::Z],
            [w, Vec3::X, w],
            // Groups 1 and 2: faceted.
            [Vec3::Z; 3],
            [Vec3::X; 3],
        ],
    );
}

#[test]
fn smoothangle_welds_faces_within_the_angle() {
    let w = welded();
    // 90 degrees between the faces: 45 keeps them apart, 100 welds them (iqm.cpp would not:
    // it compares against |cos 100°|, i.e. 80 degrees).
    assert_normals(
        "smooth_angle.iqe",
        &[[Vec3::Z; 3], [Vec3::X; 3], [w, w, Vec3::Z], [w, Vec3::X, w]],
    );
}

#[test]
fn smoothuv_needs_equal_texture_coordinates() {
    let w = welded();
    assert_normals(
        "smooth_uv.iqe",
        &[
            // A = v0 v1 v2, B = v3 v5 v4: (0,0,0) has different uvs (v0, v3), (0,1,0) equal ones.
            [Vec3::Z, w, Vec3::Z],
            [Vec3::X, Vec3::X, w],
            // smoothuv 0: both shared corners weld.
            [w, w, Vec3::Z],
            [w, Vec3::X, w],
        ],
    );
}

#[test]
fn fs_welds_only_across_a_shared_edge_marked_smooth() {
    let w = welded();
    assert_normals(
        "smooth_fs.iqe",
        &[
            [Vec3::Z; 3],
            [Vec3::X; 3],
            [w, w, Vec3::Z],
            [w, Vec3::X, w],
            // C and D touch only at (20,0,0): no shared edge, no welding.
            [Vec3::Z; 3],
            [Vec3::NEG_X; 3],
        ],
    );
}

#[test]
fn vs_welds_only_equal_smoothing_indexes() {
    let w = welded();
    // (0,0,0): vs 0 and 7, apart. (0,1,0): vs 1 and 1, welded.
    assert_normals(
        "smooth_vs.iqe",
        &[[Vec3::Z, w, Vec3::Z], [Vec3::X, Vec3::X, w]],
    );
}

#[test]
fn stored_normals_are_used_untouched() {
    let s = scene("tangents.iqe");
    let n = corner_normals(&s);
    assert!(!n.generated);
    assert_eq!(n.normals, vec![Vec3::Z; 3]);
    // A corner's normal is its vertex's.
    assert!(n.corners.is_empty());
    assert_eq!(n.corner_indices(&s, 0), Some([0, 1, 2]));
}
