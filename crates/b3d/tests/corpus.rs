//! Every corpus file: counts equal a plain reading, the rewrite is byte-identical, the
//! model conversion succeeds, and the damaged files fail with the offset of the damage.

mod common;

use common::{corpus, plain_counts};
use rigport_b3d::{ConvertOptions, File, ReadOptions, to_model};

#[test]
fn counts_equal_a_plain_reading_and_rewrites_are_byte_identical() {
    let Some(files) = corpus("b3d") else { return };
    assert!(!files.is_empty());
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let plain = plain_counts(&bytes).unwrap_or_else(|at| panic!("{name}: damaged at {at}"));
        let (file, report) = File::from_slice_with(&bytes, &ReadOptions::strict())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(report.is_empty(), "{name}: {report}");
        let summary = file.summary();
        assert_eq!(summary.meshes, plain.meshes, "{name}: meshes");
        assert_eq!(summary.vertices, plain.vertices, "{name}: vertices");
        assert_eq!(summary.triangles, plain.triangles, "{name}: triangles");
        assert_eq!(summary.joints, plain.bones, "{name}: BONE nodes");
        assert_eq!(summary.materials, plain.brushes, "{name}: brushes");
        assert!(file.to_vec() == bytes, "{name}: the rewrite differs");

        let (model, _) =
            to_model(&file, &ConvertOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            model.triangle_count() as u64,
            plain.triangles,
            "{name}: model triangles"
        );
        let tris: usize = model.meshes.len();
        assert_eq!(
            tris as u64, plain.tris_chunks,
            "{name}: one model mesh per TRIS"
        );
    }
}

#[test]
fn damaged_files_fail_with_the_offset_of_the_damage() {
    let Some(files) = corpus("b3d-damaged") else {
        return;
    };
    assert!(!files.is_empty());
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let damaged_at = plain_counts(&bytes).expect_err(&name);
        for options in [ReadOptions::default(), ReadOptions::strict()] {
            let error =
                File::from_slice_with(&bytes, &options).expect_err(&format!("{name} reads"));
            assert_eq!(error.offset(), Some(damaged_at as u64), "{name}: {error}");
            assert!(
                error.to_string().contains(&format!("byte {damaged_at}")),
                "{name}: {error}"
            );
        }
    }
}
