//! Every real IQE file in `$RIGPORT_CORPUS/iqe` loads, has the triangle, animation and frame
//! counts the IQM SDK's compiler (iqm.cpp) makes of it, converts, and round-trips.
//!
//! The expected counts were taken by building iqm.cpp (lsalzman/iqm) locally, compiling each
//! file to .iqm and reading the IQM header's num_triangles, num_anims and num_frames (and
//! agree with counting `fm` lines, `animation` lines and `frame` lines by hand: every face in
//! the corpus is a triangle and every frame has one pose per joint). iqm.cpp creates no
//! mesh for a `mesh` command without faces, so `nameless.iqe` has 0 IQM meshes but 1 here.

use rigport_iqe::{ConvertOptions, File, to_model};
use rigport_model_core::{ReadOptions, Severity};
use std::path::PathBuf;

/// (vertices, triangles, meshes, joints, animations, frames, materials). Vertices count
/// `vp` lines; materials are the distinct names of `material` commands (tank: "Camo" and
/// "Black"; drill and mgturret repeat one name; iqe-rs cube's `material ""` names none).
type Counts = (u64, u64, u64, u64, u64, u64, u64);

const EXPECTED: &[(&str, Counts)] = &[
    ("afe__cube.iqe", (24, 12, 1, 0, 0, 0, 1)),
    ("afe__wiggler.iqe", (56, 28, 1, 3, 0, 0, 1)),
    ("iqe-rs__tests__data__cube.iqe", (24, 12, 1, 0, 0, 0, 0)),
    ("iqe-rs__tests__data__nameless.iqe", (0, 0, 1, 0, 0, 0, 0)),
    ("love-und-panzer__tank.iqe", (5554, 8660, 7, 0, 0, 0, 2)),
    ("love-und-panzer__test_cube.iqe", (24, 12, 1, 1, 9, 540, 1)),
    ("love-und-panzer__uv_grid.iqe", (4, 2, 1, 0, 0, 0, 1)),
    (
        "res-buildables__buildables__drill__drill.iqe",
        (4200, 5044, 2, 2, 5, 495, 1),
    ),
    (
        "res-buildables__buildables__mgturret__mgturret.iqe",
        (2606, 2787, 5, 5, 8, 403, 1),
    ),
    (
        "res-weapons__missiles__rocket__rocket.iqe",
        (135, 156, 1, 2, 0, 0, 1),
    ),
];

use rigport_test_support::corpus;

fn corpus_dir() -> Option<PathBuf> {
    corpus::corpus_dir("iqe")
}

#[test]
fn every_corpus_file_loads_counts_and_round_trips() {
    let Some(dir) = corpus_dir() else { return };
    let mut seen = 0;
    for &(name, expected) in EXPECTED {
        let bytes = std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (file, report) = File::from_slice_with(&bytes, &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{}", e.render(&bytes)));
        assert!(report.is_empty(), "{name}: {report}");
        let summary = file.summary();
        let got = (
            summary.vertices,
            summary.triangles,
            summary.meshes,
            summary.joints,
            summary.animations,
            summary.frames,
            summary.materials,
        );
        assert_eq!(got, expected, "{name}");

        // Content-identical after one write, byte-identical after the second.
        let once = file.to_vec();
        let again = File::from_slice(&once).unwrap_or_else(|e| panic!("{}", e.render(&once)));
        assert_eq!(again, file, "{name}: content changed by writing");
        assert_eq!(again.to_vec(), once, "{name}: second write differs");

        let (model, report) = to_model(&file, &ConvertOptions::default()).expect(name);
        assert_eq!(model.triangle_count() as u64, expected.1, "{name}");
        assert_eq!(report.count(Severity::Warning), 0, "{name}: {report}");
        seen += 1;
    }
    assert_eq!(seen, 10);
}

/// Stored normals must agree with the glTF front face the conversion produces: for almost
/// every triangle the counter-clockwise face normal points the way its vertex normals do.
#[test]
fn converted_winding_agrees_with_stored_normals() {
    let Some(dir) = corpus_dir() else { return };
    for &(name, ..) in EXPECTED {
        let file = File::from_slice(&std::fs::read(dir.join(name)).expect(name)).expect(name);
        let (model, _) = to_model(&file, &ConvertOptions::default()).expect(name);
        let (mut agree, mut total) = (0usize, 0usize);
        for mesh in &model.meshes {
            for t in &mesh.triangles {
                let [a, b, c] = t.map(|i| mesh.vertices[i as usize]);
                let face = (b.position - a.position).cross(c.position - a.position);
                let stored = a.normal + b.normal + c.normal;
                if face.length() > 1e-6 && stored.length() > 1e-6 {
                    total += 1;
                    agree += usize::from(face.dot(stored) > 0.0);
                }
            }
        }
        assert!(
            agree * 100 >= total * 95,
            "{name}: only {agree} of {total} triangles agree"
        );
    }
}
