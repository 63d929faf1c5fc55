//! Every real file of the corpus: loads without warnings, counts match an independent line
//! scan, writes back with the same content, and a second write is byte-identical.

mod common;

use common::{content, corpus_dir, count_lines, txt_files};
use rigport_ms3d_ascii::{ConvertOptions, File, ReadOptions, to_model};

#[test]
fn corpus_files_read_count_and_write_back() {
    let Some(dir) = corpus_dir() else { return };
    let files = txt_files(&dir);
    assert_eq!(files.len(), 15, "the corpus holds 15 MilkShape ASCII files");
    println!(
        "{:<60} {:>6} {:>6} {:>6} {:>6} {:>4} {:>4} {:>5} {:>4} {:>5}",
        "file", "meshes", "verts", "norms", "tris", "mats", "bones", "keys", "anim", "frames"
    );
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let (file, report) = File::from_slice_with(&bytes, &ReadOptions::strict())
            .unwrap_or_else(|e| panic!("{name}:\n{}", e.render(&bytes)));
        assert!(report.is_empty(), "{name}: {report}");

        let expected = count_lines(&bytes);
        let summary = file.summary();
        let normals: usize = file.meshes().iter().map(|m| m.normals.len()).sum();
        let keys: usize = file
            .bones()
            .iter()
            .map(|b| b.position_keys.len() + b.rotation_keys.len())
            .sum();
        let blocks: Vec<String> = file
            .blocks
            .iter()
            .map(|b| String::from_utf8_lossy(b.name()).into_owned())
            .collect();
        assert_eq!(summary.format, "ms3d-ascii");
        assert_eq!(summary.meshes, expected.meshes, "{name}");
        assert_eq!(summary.vertices, expected.vertices, "{name}");
        assert_eq!(normals as u64, expected.normals, "{name}");
        assert_eq!(summary.triangles, expected.triangles, "{name}");
        assert_eq!(summary.materials, expected.materials, "{name}");
        assert_eq!(summary.joints, expected.bones, "{name}");
        assert_eq!(keys as u64, expected.keys, "{name}");
        assert_eq!(summary.animations, u64::from(expected.keys > 0), "{name}");
        assert_eq!(summary.frames, expected.frames, "{name}");
        assert_eq!(blocks, expected.blocks, "{name}");
        println!(
            "{name:<60} {:>6} {:>6} {:>6} {:>6} {:>4} {:>4} {:>5} {:>4} {:>5}",
            summary.meshes,
            summary.vertices,
            normals,
            summary.triangles,
            summary.materials,
            summary.joints,
            keys,
            summary.animations,
            summary.frames
        );

        let written = file.to_vec();
        assert!(
            content(&written) == content(&bytes),
            "{name}: content differs"
        );
        let again = File::from_slice(&written).unwrap();
        assert_eq!(
            again, file,
            "{name}: the written file reads back differently"
        );
        assert_eq!(
            again.to_vec(),
            written,
            "{name}: second write is not byte-identical"
        );

        let (model, _) = to_model(&file, &ConvertOptions::default()).unwrap();
        assert_eq!(model.meshes.len() as u64, summary.meshes, "{name}");
        assert_eq!(model.triangle_count() as u64, summary.triangles, "{name}");
    }
}
