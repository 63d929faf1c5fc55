//! Every corpus glTF (`$RIGPORT_CORPUS/gltf`) imports with the counts an independent scan
//! of its JSON (serde_json here, not the importer) gives, and survives model → our .glb →
//! import with its triangles, joints, animations and posed vertices (1e-3 of the model
//! size, at the middle of each animation).

use glam::Vec3;
use rigport_gltf::export::{ExportOptions, to_glb};
use rigport_gltf::import::{GltfFile, ImportOptions, Imported, to_model};
use rigport_model_core::{Model, ReadOptions};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn corpus() -> Option<Vec<PathBuf>> {
    let dir = rigport_test_support::corpus::corpus_dir("gltf")?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "glb" || e == "gltf"))
        .collect();
    files.sort();
    Some(files)
}

/// The JSON of a .glb (read by hand from its chunk header) or a .gltf.
fn json_of(bytes: &[u8]) -> Value {
    let text = if bytes.starts_with(b"glTF") {
        let length = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        &bytes[20..20 + length]
    } else {
        bytes
    };
    serde_json::from_slice(text).unwrap()
}

/// Expected counts: triangles of the default scene's mesh instances (triangle lists),
/// distinct skin joints, animations.
fn scan(json: &Value) -> (usize, usize, usize) {
    let empty = Vec::new();
    let arr = |v: &Value| v.as_array().unwrap_or(&empty).clone();
    let nodes = arr(&json["nodes"]);
    let scene = json["scene"].as_u64().unwrap_or(0) as usize;
    let mut stack: Vec<usize> = arr(&json["scenes"][scene]["nodes"])
        .iter()
        .map(|n| n.as_u64().unwrap() as usize)
        .collect();
    let mut triangles = 0;
    while let Some(n) = stack.pop() {
        let node = &nodes[n];
        stack.extend(
            arr(&node["children"])
                .iter()
                .map(|c| c.as_u64().unwrap() as usize),
        );
        let Some(mesh) = node["mesh"].as_u64() else {
            continue;
        };
        for primitive in arr(&json["meshes"][mesh as usize]["primitives"]) {
            assert_eq!(
                primitive["mode"].as_u64().unwrap_or(4),
                4,
                "the corpus has triangle lists only"
            );
            let accessor = primitive["indices"]
                .as_u64()
                .unwrap_or_else(|| primitive["attributes"]["POSITION"].as_u64().unwrap());
            triangles += json["accessors"][accessor as usize]["count"]
                .as_u64()
                .unwrap() as usize
                / 3;
        }
    }
    let joints: BTreeSet<u64> = arr(&json["skins"])
        .iter()
        .flat_map(|s| arr(&s["joints"]).into_iter().map(|j| j.as_u64().unwrap()))
        .collect();
    (triangles, joints.len(), arr(&json["animations"]).len())
}

fn import(bytes: &[u8], dir: Option<&Path>) -> Imported {
    let (file, _) = GltfFile::from_slice_with(bytes, &ReadOptions::default(), dir).unwrap();
    let (imported, _) = to_model(&file, &ImportOptions::default()).unwrap();
    imported
}

/// Largest extent of the bind-pose bounding box.
fn size(model: &Model) -> f32 {
    let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
    for v in model.meshes.iter().flat_map(|m| &m.vertices) {
        lo = lo.min(v.position);
        hi = hi.max(v.position);
    }
    (hi - lo).max_element().max(1e-6)
}

#[test]
fn corpus_counts_match_an_independent_scan() {
    let Some(files) = corpus() else { return };
    assert_eq!(files.len(), 4, "{files:?}");
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let (triangles, joints, animations) = scan(&json_of(&bytes));
        let imported = import(&bytes, path.parent());
        let model = &imported.model;
        let name = path.display();
        assert_eq!(model.triangle_count(), triangles, "{name}");
        assert_eq!(model.skeleton.len(), joints, "{name}");
        assert_eq!(model.animations.len(), animations, "{name}");
        assert!(model.check_references().is_empty(), "{name}");
        // Every texture names an image that was returned, as PNG.
        for material in &model.materials {
            if let Some(texture) = &material.texture {
                let image = imported
                    .images
                    .iter()
                    .find(|i| &i.file_name == texture)
                    .unwrap();
                assert!(image.png.starts_with(b"\x89PNG"), "{name}");
            }
        }
        // Every vertex weighted to 1 or unskinned; every normal unit length.
        for v in model.meshes.iter().flat_map(|m| &m.vertices) {
            let sum: f32 = v.weights.iter().sum();
            assert!(sum == 0.0 || (sum - 1.0).abs() < 1e-3, "{name}: {sum}");
            assert!(
                (v.normal.length() - 1.0).abs() < 1e-3,
                "{name}: {}",
                v.normal
            );
        }
    }
}

#[test]
fn corpus_round_trips_through_our_glb() {
    let Some(files) = corpus() else { return };
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let first = import(&bytes, path.parent()).model;
        let (glb, _) = to_glb(&first, &ExportOptions::default()).unwrap();
        let second = import(&glb, None).model;
        let name = path.display();
        assert_eq!(second.triangle_count(), first.triangle_count(), "{name}");
        assert_eq!(second.skeleton.len(), first.skeleton.len(), "{name}");
        assert_eq!(second.animations.len(), first.animations.len(), "{name}");
        let tolerance = 1e-3 * size(&first);
        let mut moved = 0.0f32;
        // Two times inside each animation (one may be where a swinging joint passes its rest).
        let times = |a: usize| [0.3, 0.5].map(|f| f * first.animations[a].end_time());
        for (a, time) in (0..first.animations.len()).flat_map(|a| times(a).map(|t| (a, t))) {
            let (p1, _) = rigport_anim::posed_meshes(&first, a, time).unwrap();
            let (p2, _) = rigport_anim::posed_meshes(&second, a, time).unwrap();
            let mut worst = 0.0f32;
            for (m1, m2) in p1.iter().zip(&p2) {
                assert_eq!(m1.vertices.len(), m2.vertices.len(), "{name}");
                for (v1, v2) in m1.vertices.iter().zip(&m2.vertices) {
                    worst = worst.max((v1.position - v2.position).length());
                }
            }
            assert!(
                worst <= tolerance,
                "{name} animation {a} at {time}: {worst} > {tolerance}"
            );
            for (posed, bind) in p1.iter().zip(&first.meshes) {
                for (v, b) in posed.vertices.iter().zip(&bind.vertices) {
                    moved = moved.max((v.position - b.position).length());
                }
            }
        }
        if !first.animations.is_empty() {
            // The animations move vertices, so the comparison above is not vacuous.
            assert!(moved > 10.0 * tolerance, "{name}: nothing moved ({moved})");
        }
    }
}
