//! Through the model and back: B3D files keep their `TRIS` chunks in order and number and
//! their poses; the crate's own output reads strictly and rewrites byte for byte; the
//! MilkShape fixture written as B3D keeps its triangles (and assimp reads it with them).

mod common;

use rigport_b3d::{ConvertOptions, File, ReadOptions, from_model, sniff, to_model};
use rigport_model_core::Model;
use rigport_test_support::gltf::oracle::{Triangle, compare, size};

fn triangles(model: &Model, pose: Option<f32>) -> Vec<Triangle> {
    let meshes = match pose {
        None => model.meshes.clone(),
        Some(t) => rigport_anim::posed_meshes(model, 0, t).unwrap().0,
    };
    meshes
        .iter()
        .flat_map(|m| {
            m.triangles
                .iter()
                .map(|t| t.map(|i| m.vertices[i as usize].position))
        })
        .collect()
}

fn tris_layout(file: &File) -> Vec<(i32, usize)> {
    file.nodes()
        .iter()
        .filter_map(|(_, n)| n.mesh())
        .flat_map(|m| m.tris().map(|t| (t.brush, t.triangles.len())))
        .collect()
}

#[test]
fn corpus_files_survive_the_model_with_their_tris_chunks_and_poses() {
    let Some(files) = common::corpus("b3d") else {
        return;
    };
    let options = ConvertOptions::default();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let file = File::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let (model, _) = to_model(&file, &options).unwrap();
        let (written, _) = from_model(&model, &options).unwrap();
        let bytes = written.to_vec();
        let (again, report) = File::from_slice_with(&bytes, &ReadOptions::strict())
            .unwrap_or_else(|e| panic!("{name}: own output: {e}"));
        assert!(report.is_empty(), "{name}: {report}");
        assert!(
            again.to_vec() == bytes,
            "{name}: own output rewrites differently"
        );
        // The number of triangles per TRIS chunk, in order: what Luanti's textures list
        // follows.
        let counts = |f: &File| {
            tris_layout(f)
                .into_iter()
                .map(|(_, n)| n)
                .collect::<Vec<_>>()
        };
        let before = counts(&file);
        let after = counts(&again);
        assert_eq!(before, after, "{name}: TRIS chunks");
        let (back, _) = to_model(&again, &options).unwrap();
        let expected = triangles(&model, None);
        let tolerance = 1e-4 * size(&expected).max(1e-6);
        compare(&expected, &triangles(&back, None), tolerance)
            .unwrap_or_else(|e| panic!("{name} at rest: {e}"));
        if let (Some(a), false) = (model.animations.first(), back.animations.is_empty()) {
            for t in [0.0, a.end_time() / 2.0, a.end_time()] {
                compare(
                    &triangles(&model, Some(t)),
                    &triangles(&back, Some(t)),
                    tolerance.max(1e-3 * size(&expected)),
                )
                .unwrap_or_else(|e| panic!("{name} at {t}s: {e}"));
            }
        }
    }
}

#[test]
fn own_output_is_recognized_and_every_cut_is_refused() {
    let model = rigport_test_support::contract::contract_model();
    let (file, _) = from_model(&model, &ConvertOptions::default()).unwrap();
    let bytes = file.to_vec();
    assert!(sniff(&bytes));
    let (back, report) = File::from_slice_with(&bytes, &ReadOptions::strict()).unwrap();
    assert!(report.is_empty(), "{report}");
    assert!(back.to_vec() == bytes);
    for cut in 0..bytes.len() {
        assert!(File::from_slice(&bytes[..cut]).is_err(), "cut {cut} reads");
    }
    let (again, _) = to_model(&back, &ConvertOptions::default()).unwrap();
    assert_eq!(again.triangle_count(), model.triangle_count());
    assert_eq!(again.skeleton.joints.len(), model.skeleton.joints.len());
}

#[test]
fn the_milkshape_fixture_written_as_b3d_keeps_its_triangles() {
    let path = rigport_test_support::fixtures::fixtures_dir().join("ms3d/rig_full.ms3d");
    let ms3d = rigport_ms3d_bin::File::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let (model, _) = rigport_ms3d_bin::to_model(&ms3d, &Default::default()).unwrap();
    let (file, report) = from_model(&model, &ConvertOptions::default()).unwrap();
    println!("{report}");
    let bytes = file.to_vec();
    let back = File::from_slice_with(&bytes, &ReadOptions::strict())
        .unwrap()
        .0;
    assert_eq!(back.summary().triangles as usize, model.triangle_count());
    let (again, _) = to_model(&back, &ConvertOptions::default()).unwrap();
    let expected = triangles(&model, None);
    compare(&expected, &triangles(&again, None), 1e-4 * size(&expected)).unwrap();
    if let Some(a) = model.animations.first() {
        let t = a.end_time() / 2.0;
        compare(
            &triangles(&model, Some(t)),
            &triangles(&again, Some(t)),
            2e-3 * size(&expected),
        )
        .unwrap();
    }

    // assimp reads it with the same triangle count.
    if std::process::Command::new("assimp")
        .arg("version")
        .output()
        .is_err()
    {
        println!("skipped the assimp check: assimp is not installed");
        return;
    }
    let dir = std::env::temp_dir().join(format!("rigport-b3d-ms3d-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (b3d, glb) = (dir.join("rig.b3d"), dir.join("rig.glb"));
    std::fs::write(&b3d, &bytes).unwrap();
    let run = std::process::Command::new("assimp")
        .arg("export")
        .arg(&b3d)
        .arg(&glb)
        .arg("-fglb2")
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "assimp: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let oracle =
        rigport_test_support::gltf::Oracle::read(&std::fs::read(&glb).unwrap(), None).unwrap();
    let theirs = oracle.triangles(None).unwrap();
    assert_eq!(theirs.len(), model.triangle_count());
    compare(&expected, &theirs, 2e-3 * size(&expected)).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
