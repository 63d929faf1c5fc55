//! glTF import on small files built here with serde_json: every expected value is worked
//! out by hand in the test, not by the importer.

use glam::{Vec3, Vec4};
use rigport_gltf::import::{GltfFile, ImportError, ImportOptions, to_model};
use rigport_model_core::{Interpolation, Model, ReadOptions, Report, Severity};
use serde_json::{Value, json};

/// A `.glb` of `json` with `bin` as its BIN chunk (buffer 0 gets the right length).
fn glb(mut json: Value, bin: &[u8]) -> Vec<u8> {
    if !bin.is_empty() {
        json["buffers"] = json!([{ "byteLength": bin.len() }]);
    }
    let mut text = serde_json::to_vec(&json).unwrap();
    while text.len() % 4 != 0 {
        text.push(b' ');
    }
    let mut bin = bin.to_vec();
    while bin.len() % 4 != 0 {
        bin.push(0);
    }
    let total = 12 + 8 + text.len() + if bin.is_empty() { 0 } else { 8 + bin.len() };
    let mut out = Vec::new();
    out.extend(b"glTF");
    out.extend(2u32.to_le_bytes());
    out.extend((total as u32).to_le_bytes());
    out.extend((text.len() as u32).to_le_bytes());
    out.extend(b"JSON");
    out.extend(text);
    if !bin.is_empty() {
        out.extend((bin.len() as u32).to_le_bytes());
        out.extend(b"BIN\0");
        out.extend(bin);
    }
    out
}

fn f32s(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn import(bytes: &[u8]) -> Result<(Model, Report), ImportError> {
    let (file, mut report) = GltfFile::from_slice_with(bytes, &ReadOptions::default(), None)?;
    let (imported, more) = to_model(&file, &ImportOptions::default())?;
    report.extend(more);
    Ok((imported.model, report))
}

/// Five positions on the X axis at x = 0..4 (60 bytes), then `indices` as u16.
fn line_of_points(mode: u32) -> Vec<u8> {
    let positions: Vec<f32> = (0..5)
        .flat_map(|i| [i as f32, (i % 2) as f32, 0.0])
        .collect();
    glb(
        json!({
            "asset": {"version": "2.0"},
            "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "mode": mode}]}],
            "nodes": [{"mesh": 0}],
            "scenes": [{"nodes": [0]}],
            "accessors": [{"bufferView": 0, "componentType": 5126, "count": 5, "type": "VEC3"}],
            "bufferViews": [{"buffer": 0, "byteLength": 60}],
        }),
        &f32s(&positions),
    )
}

#[test]
fn strips_and_fans_become_lists_with_gltf_winding() {
    // glTF 2.0 §3.7.2.1: strip triangle i = (i, i+1+i%2, i+2−i%2); fan i = (i+1, i+2, 0).
    // Without normals the corners are unwelded; point i is at x = i, so the corners' x
    // values are the original indices.
    let corners = |model: &Model| -> Vec<[u32; 3]> {
        let mesh = &model.meshes[0];
        let x = |i: u32| mesh.vertices[i as usize].position.x as u32;
        mesh.triangles.iter().map(|t| t.map(x)).collect()
    };
    let (strip, _) = import(&line_of_points(5)).unwrap();
    assert_eq!(corners(&strip), [[0, 1, 2], [1, 3, 2], [2, 3, 4]]);
    let (fan, _) = import(&line_of_points(6)).unwrap();
    assert_eq!(corners(&fan), [[1, 2, 0], [2, 3, 0], [3, 4, 0]]);
    let (list, report) = import(&line_of_points(4)).unwrap();
    assert_eq!(corners(&list), [[0, 1, 2]]);
    // Five corners make one triangle and two left over: reported.
    assert!(
        report
            .with_code(rigport_model_core::codes::INVALID_TRIANGLES)
            .next()
            .is_some()
    );
    // Points: nothing to carry, a named loss.
    let (points, report) = import(&line_of_points(0)).unwrap();
    assert!(points.meshes.is_empty());
    let loss = report
        .with_code(rigport_model_core::codes::NON_TRIANGLE_PRIMITIVES)
        .next()
        .unwrap();
    assert_eq!(loss.severity, Severity::Loss);
}

#[test]
fn missing_normals_are_flat_and_unwelded() {
    // Strip over (0,0) (1,1) (2,0) (3,1) (4,0) in the z = 0 plane: triangle 0 (0,1,2) turns
    // clockwise seen from +Z ((1,1)−(0,0)) × ((2,0)−(0,0)) = (0,0,−2) → normal −Z; the strip's
    // odd triangle (1,3,2) is also clockwise from +Z → −Z.
    let (model, report) = import(&line_of_points(5)).unwrap();
    let mesh = &model.meshes[0];
    assert_eq!(mesh.vertices.len(), 9, "three corners per triangle");
    for v in &mesh.vertices {
        assert_eq!(v.normal, Vec3::NEG_Z);
    }
    assert!(
        report
            .with_code(rigport_model_core::codes::NORMALS_GENERATED)
            .next()
            .is_some()
    );
}

/// One joint (node 1) under a skinned mesh node; one vertex per influence test.
fn skinned(joints0: [u8; 4], weights0: [f32; 4], second: Option<([u8; 4], [f32; 4])>) -> Vec<u8> {
    let mut bin = f32s(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]); // 3 positions: 36 bytes
    // Joints: every vertex the same (4 bytes each), then weights (16 bytes each).
    for _ in 0..3 {
        bin.extend(joints0);
    }
    for _ in 0..3 {
        bin.extend(f32s(&weights0));
    }
    let mut attributes = json!({"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2});
    let mut accessors = vec![
        json!({"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}),
        json!({"bufferView": 1, "componentType": 5121, "count": 3, "type": "VEC4"}),
        json!({"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4"}),
    ];
    let mut views = vec![
        json!({"buffer": 0, "byteLength": 36}),
        json!({"buffer": 0, "byteOffset": 36, "byteLength": 12}),
        json!({"buffer": 0, "byteOffset": 48, "byteLength": 48}),
    ];
    if let Some((j, w)) = second {
        for _ in 0..3 {
            bin.extend(j);
        }
        for _ in 0..3 {
            bin.extend(f32s(&w));
        }
        attributes["JOINTS_1"] = json!(3);
        attributes["WEIGHTS_1"] = json!(4);
        accessors.push(json!({"bufferView": 3, "componentType": 5121, "count": 3, "type": "VEC4"}));
        accessors.push(json!({"bufferView": 4, "componentType": 5126, "count": 3, "type": "VEC4"}));
        views.push(json!({"buffer": 0, "byteOffset": 96, "byteLength": 12}));
        views.push(json!({"buffer": 0, "byteOffset": 108, "byteLength": 48}));
    }
    glb(
        json!({
            "asset": {"version": "2.0"},
            "meshes": [{"primitives": [{"attributes": attributes}]}],
            "nodes": [
                {"mesh": 0, "skin": 0},
                {"name": "a", "children": [2]},
                {"name": "b", "translation": [0.0, 1.0, 0.0], "children": [3]},
                {"name": "c", "children": [4]},
                {"name": "d", "children": [5]},
                {"name": "e"},
            ],
            "skins": [{"joints": [1, 2, 3, 4, 5]}],
            "scenes": [{"nodes": [0, 1]}],
            "accessors": accessors,
            "bufferViews": views,
        }),
        &bin,
    )
}

#[test]
fn more_than_four_influences_keep_the_four_largest_renormalized() {
    // Six influences on joints 0..5 (joint 0 listed twice, 0.05 + 0.1 = 0.15 merged):
    // 0.3 (j1), 0.25 (j4), 0.2 (j2), 0.15 (j0), 0.1 (j3) → keep 0.3, 0.25, 0.2, 0.15;
    // sum 0.9 → 1/3, 0.2777…, 0.2222…, 0.1666….
    let bytes = skinned(
        [1, 2, 3, 0],
        [0.3, 0.2, 0.1, 0.05],
        Some(([4, 0, 0, 0], [0.25, 0.1, 0.0, 0.0])),
    );
    let (model, report) = import(&bytes).unwrap();
    let v = model.meshes[0].vertices[0];
    let got: Vec<(u32, f32)> = v
        .joints
        .iter()
        .zip(v.weights)
        .map(|(j, w)| (j.0, w))
        .collect();
    let expected = [
        (1, 0.3 / 0.9),
        (4, 0.25 / 0.9),
        (2, 0.2 / 0.9),
        (0, 0.15 / 0.9),
    ];
    for ((gj, gw), (ej, ew)) in got.iter().zip(expected) {
        assert_eq!(*gj, ej);
        assert!((gw - ew).abs() < 1e-6, "{got:?}");
    }
    let loss = report
        .with_code(rigport_model_core::codes::WEIGHTS_TRUNCATED)
        .next()
        .unwrap();
    assert_eq!(loss.severity, Severity::Loss);
    assert!(loss.message.starts_with("3 "), "{}", loss.message);
    // Four influences summing to 1: kept as they are, nothing reported.
    let (model, report) = import(&skinned([0, 1, 2, 3], [0.4, 0.3, 0.2, 0.1], None)).unwrap();
    assert_eq!(model.meshes[0].vertices[2].weights, [0.4, 0.3, 0.2, 0.1]);
    assert!(
        report
            .with_code(rigport_model_core::codes::WEIGHTS_TRUNCATED)
            .next()
            .is_none()
    );
    // The skeleton: five joints, b's bind (no inverse bind matrices: identity → bind world
    // = identity, so b's local bind is the identity too).
    assert_eq!(model.skeleton.len(), 5);
    assert_eq!(model.skeleton.joints[1].parent.map(|p| p.0), Some(0));
}

/// One joint animated by a CUBICSPLINE translation channel: keys at 0 s and 2 s.
fn cubic_file() -> Vec<u8> {
    // Output: in0 v0 out0 in1 v1 out1 (vec3 each).
    let output = [
        [9.0, 9.0, 9.0],
        [0.0, 0.0, 0.0],
        [1.0, 0.0, -2.0],
        [0.5, 4.0, 0.0],
        [4.0, 2.0, 0.0],
        [7.0, 7.0, 7.0],
    ];
    let mut bin = f32s(&[0.0, 2.0]);
    bin.extend(f32s(&output.concat()));
    glb(
        json!({
            "asset": {"version": "2.0"},
            "nodes": [{"name": "j"}],
            "skins": [{"joints": [0]}],
            "scenes": [{"nodes": [0]}],
            "animations": [{
                "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],
                "samplers": [{"input": 0, "output": 1, "interpolation": "CUBICSPLINE"}],
            }],
            "accessors": [
                {"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.0], "max": [2.0]},
                {"bufferView": 1, "componentType": 5126, "count": 6, "type": "VEC3"},
            ],
            "bufferViews": [{"buffer": 0, "byteLength": 8}, {"buffer": 0, "byteOffset": 8, "byteLength": 72}],
        }),
        &bin,
    )
}

#[test]
fn cubic_spline_keeps_tangents_and_samples_the_gltf_hermite() {
    let (model, _) = import(&cubic_file()).unwrap();
    let animation = &model.animations[0];
    assert_eq!(animation.interpolation, Interpolation::CubicSpline);
    let track = &animation.tracks[0];
    assert_eq!(track.translations.len(), 2);
    assert_eq!(
        track.translation_tangents[0].out_tangent,
        Vec3::new(1.0, 0.0, -2.0)
    );
    assert_eq!(
        track.translation_tangents[1].in_tangent,
        Vec3::new(0.5, 4.0, 0.0)
    );
    // t = 0.5: s = 0.25, td = 2. h00 = 2s³−3s²+1 = 0.84375, h10 = s³−2s²+s = 0.140625,
    // h01 = −2s³+3s² = 0.15625, h11 = s³−s² = −0.046875.
    // p = h00·v0 + td·h10·out0 + h01·v1 + td·h11·in1
    //   x: 0 + 2·0.140625·1 + 0.15625·4 + 2·(−0.046875)·0.5 = 0.28125 + 0.625 − 0.046875 = 0.859375
    //   y: 0 + 0 + 0.15625·2 + 2·(−0.046875)·4 = 0.3125 − 0.375 = −0.0625
    //   z: 2·0.140625·(−2) + 0 + 0 = −0.5625
    let bind = rigport_anim::Transform::IDENTITY;
    let at = rigport_anim::sample::sample_track(track, 0.5, animation.interpolation, &bind);
    let expected = Vec3::new(0.859375, -0.0625, -0.5625);
    assert!(
        (at.translation - expected).length() < 1e-6,
        "{}",
        at.translation
    );
    // Baked to linear keys at 4 fps: the same value at 0.5 s (a grid point).
    let baked = rigport_anim::resample::bake(animation, 4.0);
    let key = baked.tracks[0]
        .translations
        .iter()
        .find(|k| k.time == 0.5)
        .unwrap();
    assert!((key.value - expected).length() < 1e-6);
}

#[test]
fn errors_are_typed_with_offsets() {
    let good = line_of_points(4);
    // Truncated inside the BIN chunk: the declared total length is past the end.
    let cut = &good[..good.len() - 10];
    let err = GltfFile::from_slice_with(cut, &ReadOptions::default(), None).unwrap_err();
    assert!(matches!(err, ImportError::Glb { .. }), "{err}");
    assert_eq!(err.offset(), Some(cut.len() as u64));
    assert!(err.to_string().contains("truncated"), "{err}");
    // Broken JSON: line:column in the message and in the rendering.
    let text = b"{\n  \"asset\": {\"version\": \"2.0\"},\n  \"nodes\": [ {] \n}";
    let err = GltfFile::from_slice_with(text, &ReadOptions::default(), None).unwrap_err();
    assert!(err.to_string().contains("3:"), "{err}");
    let shown = err.render(text);
    assert!(shown.contains("--> 3:"), "{shown}");
    assert!(shown.contains("\"nodes\": [ {]"), "{shown}");
    // Compressed geometry.
    let draco = json!({"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_draco_mesh_compression"], "extensionsRequired": ["KHR_draco_mesh_compression"]});
    let err = GltfFile::from_slice_with(
        &serde_json::to_vec(&draco).unwrap(),
        &ReadOptions::default(),
        None,
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("compressed glTF (KHR_draco_mesh_compression)"),
        "{err}"
    );
}

#[test]
fn accessors_and_indices_out_of_range_are_errors() {
    // POSITION says 6 vertices; the view holds 5.
    let mut json: Value = json!({
        "asset": {"version": "2.0"},
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": [{"mesh": 0}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 6, "type": "VEC3"}],
        "bufferViews": [{"buffer": 0, "byteLength": 60}],
    });
    let bin = f32s(&[0.0; 15]);
    let err = import(&glb(json.clone(), &bin)).unwrap_err();
    assert!(matches!(err, ImportError::OutOfRange { .. }), "{err}");
    // A buffer view past its buffer.
    json["accessors"][0]["count"] = json!(5);
    json["bufferViews"][0]["byteLength"] = json!(64);
    let err = import(&glb(json.clone(), &bin)).unwrap_err();
    assert!(err.to_string().contains("buffer view 0"), "{err}");
    // An index naming vertex 7 of 5.
    json["bufferViews"][0]["byteLength"] = json!(60);
    json["bufferViews"]
        .as_array_mut()
        .unwrap()
        .push(json!({"buffer": 0, "byteOffset": 60, "byteLength": 6}));
    json["accessors"]
        .as_array_mut()
        .unwrap()
        .push(json!({"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}));
    json["meshes"][0]["primitives"][0]["indices"] = json!(1);
    let mut with_indices = bin.clone();
    for i in [0u16, 7, 2] {
        with_indices.extend(i.to_le_bytes());
    }
    let err = import(&glb(json.clone(), &with_indices)).unwrap_err();
    match err {
        ImportError::BadIndex { index, len, .. } => assert_eq!((index, len), (7, 5)),
        other => panic!("{other}"),
    }
}

#[test]
fn external_files_resolve_beside_the_source_or_name_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let bin = f32s(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    std::fs::write(dir.path().join("tri angle.bin"), &bin).unwrap();
    let json = json!({
        "asset": {"version": "2.0"},
        "buffers": [{"uri": "tri%20angle.bin", "byteLength": 36}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": [{"mesh": 0, "translation": [0.0, 0.0, 5.0]}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}],
    });
    let text = serde_json::to_vec(&json).unwrap();
    let (file, _) =
        GltfFile::from_slice_with(&text, &ReadOptions::default(), Some(dir.path())).unwrap();
    let (imported, _) = to_model(&file, &ImportOptions::default()).unwrap();
    // Unskinned: baked into world space by the node's translation.
    assert_eq!(
        imported.model.meshes[0].vertices[1].position,
        Vec3::new(1.0, 0.0, 5.0)
    );
    // Missing: the error names the URI and the path tried.
    std::fs::remove_file(dir.path().join("tri angle.bin")).unwrap();
    let err =
        GltfFile::from_slice_with(&text, &ReadOptions::default(), Some(dir.path())).unwrap_err();
    let message = err.to_string();
    assert!(
        message.contains("tri%20angle.bin") && message.contains("tri angle.bin"),
        "{message}"
    );
    // From memory: no folder to look in.
    let err = GltfFile::from_slice_with(&text, &ReadOptions::default(), None).unwrap_err();
    assert!(matches!(err, ImportError::ExternalWithoutBase { .. }));
}

#[test]
fn sparse_and_quantized_attributes() {
    // Positions as normalized u16 (KHR_mesh_quantization), 3 vertices; a sparse
    // substitution sets vertex 2 to (0, 65535, 0) → (0, 1, 0).
    let mut bin = Vec::new();
    for v in [[0u16, 0, 0, 0], [65535, 0, 0, 0], [0, 0, 0, 0]] {
        for c in v {
            bin.extend(c.to_le_bytes());
        }
    }
    bin.extend(2u16.to_le_bytes()); // sparse index (offset 24)
    bin.extend([0, 0]); // padding
    for c in [0u16, 65535, 0] {
        bin.extend(c.to_le_bytes()); // sparse value (offset 28)
    }
    let json = json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_mesh_quantization"],
        "extensionsRequired": ["KHR_mesh_quantization"],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "COLOR_0": 1}}]}],
        "nodes": [{"mesh": 0}],
        "accessors": [
            {"bufferView": 0, "componentType": 5123, "normalized": true, "count": 3, "type": "VEC3",
             "sparse": {"count": 1, "indices": {"bufferView": 1, "componentType": 5123}, "values": {"bufferView": 2}}},
            {"bufferView": 3, "componentType": 5121, "normalized": true, "count": 3, "type": "VEC3"},
        ],
        "bufferViews": [
            {"buffer": 0, "byteLength": 24, "byteStride": 8},
            {"buffer": 0, "byteOffset": 24, "byteLength": 2},
            {"buffer": 0, "byteOffset": 28, "byteLength": 6},
            {"buffer": 0, "byteOffset": 36, "byteLength": 9},
        ],
    });
    bin.extend([0, 0]); // to 36
    bin.extend([255, 0, 0, 0, 255, 0, 0, 0, 51]);
    let (model, _) = import(&glb(json, &bin)).unwrap();
    let mesh = &model.meshes[0];
    let positions: Vec<Vec3> = mesh.triangles[0]
        .iter()
        .map(|&i| mesh.vertices[i as usize].position)
        .collect();
    assert_eq!(positions, [Vec3::ZERO, Vec3::X, Vec3::Y]);
    assert!(mesh.has_colors);
    // 51 / 255 = 0.2; vec3 colours get alpha 1.
    let blue = mesh
        .vertices
        .iter()
        .find(|v| v.color.z > 0.0)
        .unwrap()
        .color;
    assert!(
        (blue - Vec4::new(0.0, 0.0, 0.2, 1.0)).length() < 1e-6,
        "{blue}"
    );
}

#[test]
fn cubic_spline_tangents_survive_our_export() {
    let (model, _) = import(&cubic_file()).unwrap();
    let (glb, _) =
        rigport_gltf::export::to_glb(&model, &rigport_gltf::export::ExportOptions::default())
            .unwrap();
    let (again, _) = import(&glb).unwrap();
    let (a, b) = (&model.animations[0], &again.animations[0]);
    assert_eq!(b.interpolation, Interpolation::CubicSpline);
    assert_eq!(a.tracks[0].translations, b.tracks[0].translations);
    assert_eq!(
        a.tracks[0].translation_tangents,
        b.tracks[0].translation_tangents
    );
}

#[test]
fn cubic_spline_rotation_and_scale_tangents_survive_our_export() {
    use rigport_model_core::{Key, Tangents};
    let (mut model, _) = import(&cubic_file()).unwrap();
    let track = &mut model.animations[0].tracks[0];
    let turned = glam::Quat::from_rotation_y(0.5);
    track.rotations = vec![Key::new(0.0, glam::Quat::IDENTITY), Key::new(2.0, turned)];
    track.rotation_tangents = vec![
        Tangents::both(Vec4::new(0.0, 0.1, 0.0, 0.0)),
        Tangents {
            in_tangent: Vec4::new(0.0, 0.2, 0.0, -0.01),
            out_tangent: Vec4::new(0.0, 0.05, 0.0, 0.0),
        },
    ];
    track.scales = vec![Key::new(0.0, Vec3::ONE), Key::new(2.0, Vec3::splat(2.0))];
    track.scale_tangents = vec![
        Tangents::both(Vec3::new(0.5, 0.25, 0.0)),
        Tangents {
            in_tangent: Vec3::new(0.5, 0.0, 1.0),
            out_tangent: Vec3::ZERO,
        },
    ];
    let (glb, _) =
        rigport_gltf::export::to_glb(&model, &rigport_gltf::export::ExportOptions::default())
            .unwrap();
    let (again, _) = import(&glb).unwrap();
    let (a, b) = (
        &model.animations[0].tracks[0],
        &again.animations[0].tracks[0],
    );
    assert_eq!(
        again.animations[0].interpolation,
        Interpolation::CubicSpline
    );
    assert_eq!(a.rotations, b.rotations);
    assert_eq!(a.rotation_tangents, b.rotation_tangents);
    assert_eq!(a.scales, b.scales);
    assert_eq!(a.scale_tangents, b.scale_tangents);
}

#[test]
fn a_linear_channel_beside_a_cubic_one_keeps_its_straight_segments() {
    // cubic_file's animation plus a LINEAR scale channel 1 → 3 over the same 0..2 s.
    let bytes = cubic_file();
    let json_length = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let mut json: Value = serde_json::from_slice(&bytes[20..20 + json_length]).unwrap();
    let bin_at = 20 + json_length;
    let mut bin = bytes[bin_at + 8..].to_vec();
    let at = bin.len();
    bin.extend(f32s(&[1.0, 1.0, 1.0, 3.0, 3.0, 3.0]));
    json["bufferViews"]
        .as_array_mut()
        .unwrap()
        .push(json!({"buffer": 0, "byteOffset": at, "byteLength": 24}));
    json["accessors"]
        .as_array_mut()
        .unwrap()
        .push(json!({"bufferView": 2, "componentType": 5126, "count": 2, "type": "VEC3"}));
    json["animations"][0]["samplers"]
        .as_array_mut()
        .unwrap()
        .push(json!({"input": 0, "output": 2}));
    json["animations"][0]["channels"]
        .as_array_mut()
        .unwrap()
        .push(json!({"sampler": 1, "target": {"node": 0, "path": "scale"}}));
    let (model, report) = import(&glb(json, &bin)).unwrap();
    let animation = &model.animations[0];
    assert_eq!(animation.interpolation, Interpolation::CubicSpline);
    assert!(
        report
            .with_code(rigport_model_core::codes::INTERPOLATION_MIXED)
            .next()
            .is_some()
    );
    let bind = rigport_anim::Transform::IDENTITY;
    for (t, expected) in [(0.5_f32, 1.5_f32), (1.0, 2.0), (1.5, 2.5)] {
        let at = rigport_anim::sample::sample_track(
            &animation.tracks[0],
            t,
            animation.interpolation,
            &bind,
        );
        assert!(
            (at.scale - Vec3::splat(expected)).length() < 1e-6,
            "t={t}: {}",
            at.scale
        );
    }
}

/// Blender 3.4 exports an empty scene as `{"name":"Scene"}`: `nodes` is optional in the
/// glTF schema, though gltf-json requires it. Such a file is an empty model, not an error;
/// a real content error still names its place.
#[test]
fn a_scene_without_nodes_is_an_empty_model() {
    let empty = json!({
        "asset": { "generator": "Khronos glTF Blender I/O v3.4.50", "version": "2.0" },
        "scene": 0,
        "scenes": [{ "name": "Scene" }]
    });
    let (model, _) = import(&serde_json::to_vec(&empty).unwrap()).unwrap();
    assert_eq!((model.triangle_count(), model.skeleton.len()), (0, 0));

    let mut broken = empty.clone();
    broken["scenes"][0]["nodes"] = json!("not a list");
    let message = import(&serde_json::to_vec(&broken).unwrap())
        .unwrap_err()
        .to_string();
    assert!(message.contains("1:"), "{message}");
}

/// One joint: a LINEAR scale channel 1 → 2 → 4 at 0, 0.5, 1.5 s beside a STEP translation
/// channel (0,0,0) then (1,0,0) at `jump` s.
fn step_beside_linear(jump: f32) -> Vec<u8> {
    let mut bin = f32s(&[0.0, 0.5, 1.5]); // view 0: linear times
    bin.extend(f32s(&[1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 4.0, 4.0, 4.0])); // view 1: scales
    bin.extend(f32s(&[0.0, jump])); // view 2: step times
    bin.extend(f32s(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0])); // view 3: translations
    let view = |offset: usize, length: usize| json!({"buffer": 0, "byteOffset": offset, "byteLength": length});
    glb(
        json!({
            "asset": {"version": "2.0"},
            "nodes": [{"name": "j"}],
            "skins": [{"joints": [0]}],
            "scenes": [{"nodes": [0]}],
            "animations": [{
                "channels": [
                    {"sampler": 0, "target": {"node": 0, "path": "scale"}},
                    {"sampler": 1, "target": {"node": 0, "path": "translation"}},
                ],
                "samplers": [
                    {"input": 0, "output": 1},
                    {"input": 2, "output": 3, "interpolation": "STEP"},
                ],
            }],
            "accessors": [
                {"bufferView": 0, "componentType": 5126, "count": 3, "type": "SCALAR", "min": [0.0], "max": [1.5]},
                {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3"},
                {"bufferView": 2, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.0], "max": [jump]},
                {"bufferView": 3, "componentType": 5126, "count": 2, "type": "VEC3"},
            ],
            "bufferViews": [view(0, 12), view(12, 36), view(48, 8), view(56, 24)],
        }),
        &bin,
    )
}

/// The joint's translation x in `model`'s first animation at `time`.
fn translation_x(model: &Model, time: f32) -> f32 {
    let animation = &model.animations[0];
    let bind = rigport_anim::Transform::IDENTITY;
    rigport_anim::sample::sample_track(&animation.tracks[0], time, animation.interpolation, &bind)
        .translation
        .x
}

#[test]
fn a_step_channel_beside_a_linear_one_keeps_its_jump_through_our_export() {
    let (model, report) = import(&step_beside_linear(0.7)).unwrap();
    assert!(
        report
            .with_code(rigport_model_core::codes::INTERPOLATION_MIXED)
            .next()
            .is_some()
    );
    let animation = &model.animations[0];
    assert_eq!(animation.interpolation, Interpolation::Linear);
    // Key times 0.5, 1.5 and 0.7 s are whole frames first at 10 fps (5, 15, 7); at 1..9
    // fps 0.5 or 0.7 falls between frames.
    assert_eq!(animation.fps, 10.0);
    // No two keys share a time (glTF export would keep only the last: a ramp).
    let times: Vec<f32> = animation.tracks[0]
        .translations
        .iter()
        .map(|k| k.time)
        .collect();
    assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
    let (glb, _) =
        rigport_gltf::export::to_glb(&model, &rigport_gltf::export::ExportOptions::default())
            .unwrap();
    let (again, _) = import(&glb).unwrap();
    for (label, model) in [("import", &model), ("export, import", &again)] {
        // STEP: the first value up to the jump, the second from it on.
        for (time, expected) in [
            (0.0, 0.0),
            (0.35, 0.0),
            (0.6999, 0.0),
            (0.7, 1.0),
            (1.2, 1.0),
        ] {
            let x = translation_x(model, time);
            assert!((x - expected).abs() < 1e-6, "{label}: t={time}: {x}");
        }
    }
}

#[test]
fn key_times_on_no_whole_frame_rate_up_to_240_take_the_default_fps() {
    // 0.0123·fps is within 10⁻³ of a whole number for no fps in 1..=240 (closest: 81 fps →
    // 0.9963, 163 fps → 2.0049).
    let (model, _) = import(&step_beside_linear(0.0123)).unwrap();
    assert_eq!(model.animations[0].fps, ImportOptions::default().fps);
    // 0.0004 s is within 10⁻³ frames of frame 0 at 1 and 2 fps, but the key at 0 s is
    // there already; at 3..=240 fps it is off every frame (0.0012 .. 0.096).
    let (model, _) = import(&step_beside_linear(0.0004)).unwrap();
    assert_eq!(model.animations[0].fps, ImportOptions::default().fps);
}
