//! Every real `.psk`, `.pskx` and `.psa` of the corpus: a strict read, counts equal to a
//! plain reading of the section headers, byte-identical writing, and a model with those
//! counts.

mod common;

use rigport_psk::{ConvertOptions, File, Kind, ReadOptions, to_model};

#[test]
fn corpus_files_read_count_and_write_back() {
    let files = common::corpus("psk");
    if files.is_empty() {
        return;
    }
    assert_eq!(files.len(), 8, "the corpus holds 8 PSK/PSA files");
    for (name, bytes) in &files {
        let (file, report) = File::from_slice_with(bytes, &ReadOptions::strict())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(file.to_vec(), *bytes, "{name}: write(read(x)) != x");
        let headers = common::headers(bytes);
        assert_eq!(file.sections.len(), headers.len(), "{name} sections");
        let summary = file.summary();
        let (model, _) =
            to_model(&file, &ConvertOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        if name.ends_with(".psa") {
            assert_eq!(file.kind, Kind::Anim, "{name}");
            let bones = common::count(&headers, &["BONENAMES"]);
            let info = headers.iter().find(|h| h.name == "ANIMINFO").unwrap();
            // NumRawFrames is the last int of each 168-byte record.
            let frames: Vec<usize> = (0..info.count)
                .map(|i| common::int(bytes, info.body + i * 168 + 164) as usize)
                .collect();
            assert_eq!(summary.joints as usize, bones, "{name} bones");
            assert_eq!(summary.animations as usize, info.count, "{name} sequences");
            assert_eq!(
                summary.frames as usize,
                frames.iter().sum::<usize>(),
                "{name} frames"
            );
            assert_eq!(model.skeleton.len(), bones, "{name} model bones");
            assert_eq!(model.animations.len(), info.count, "{name} model sequences");
            for (animation, &n) in model.animations.iter().zip(&frames) {
                assert_eq!(animation.frame_count() as usize, n, "{name} frames");
                for track in &animation.tracks {
                    assert_eq!(track.rotations.len(), n, "{name}: every bone every frame");
                }
                assert_eq!(animation.tracks.len(), bones, "{name} tracks");
            }
            eprintln!(
                "{name}: {bones} bones, {} sequences, frames {frames:?}",
                info.count
            );
        } else {
            assert_eq!(file.kind, Kind::Mesh, "{name}");
            let faces = common::count(&headers, &["FACE0000", "FACE3200"]);
            let bones = common::count(&headers, &["REFSKELT", "REFSKEL0"]);
            let wedges = common::count(&headers, &["VTXW0000"]);
            assert_eq!(summary.triangles as usize, faces, "{name} faces");
            assert_eq!(summary.joints as usize, bones, "{name} bones");
            assert_eq!(summary.vertices as usize, wedges, "{name} wedges");
            assert_eq!(model.triangle_count(), faces, "{name} model faces");
            assert_eq!(model.skeleton.len(), bones, "{name} model bones");
            assert!(model.animations.is_empty());
            eprintln!("{name}: {faces} faces, {bones} bones, {wedges} wedges; {report}");
        }
    }
}

/// Every skinned vertex's weights sum to 1, and four at most are kept.
#[test]
fn corpus_weights_are_normalised() {
    for (name, bytes) in common::corpus("psk") {
        let file = File::from_slice(&bytes).unwrap();
        if file.kind != Kind::Mesh {
            continue;
        }
        let (model, _) = to_model(&file, &ConvertOptions::default()).unwrap();
        for v in model.meshes.iter().flat_map(|m| &m.vertices) {
            let sum: f32 = v.weights.iter().sum();
            assert!((sum - 1.0).abs() < 1e-4, "{name}: weights sum to {sum}");
        }
    }
}

/// With `VTXNORMS`, the model's winding faces the stored normals (the file's own order
/// faces away from them: the front is clockwise).
#[test]
fn corpus_triangles_face_their_normals() {
    for (name, bytes) in common::corpus("psk") {
        let file = File::from_slice(&bytes).unwrap();
        if file.normals().is_empty() {
            continue;
        }
        let (model, _) = to_model(&file, &ConvertOptions::default()).unwrap();
        let (mut agree, mut total) = (0, 0);
        for mesh in &model.meshes {
            for t in &mesh.triangles {
                let [a, b, c] = t.map(|i| mesh.vertices[i as usize]);
                let face = (b.position - a.position).cross(c.position - a.position);
                let normal = a.normal + b.normal + c.normal;
                total += 1;
                if face.dot(normal) > 0.0 {
                    agree += 1;
                }
            }
        }
        eprintln!("{name}: {agree}/{total} triangles face their normals");
        assert!(agree * 100 >= total * 99, "{name}: {agree}/{total}");
    }
}
