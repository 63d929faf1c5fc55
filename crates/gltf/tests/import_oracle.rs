//! Posing the imported corpus models equals glTF's own skinning, computed here from the
//! JSON and buffers without the importer: node TRS sampled per channel (linear / slerp),
//! world matrices down the node tree, `world(joint) × inverseBindMatrix`, weighted per
//! vertex. Within 1e-3 of the model size, at a time inside each animation.

use glam::{Mat4, Quat, Vec3, Vec4};
use rigport_gltf::import::{GltfFile, ImportOptions, to_model};
use rigport_model_core::ReadOptions;
use serde_json::Value;
use std::path::Path;

/// The document and its buffers (GLB BIN chunk or base64 data URIs), read by hand.
fn load(bytes: &[u8]) -> (Value, Vec<Vec<u8>>) {
    if bytes.starts_with(b"glTF") {
        let json_length = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        let json: Value = serde_json::from_slice(&bytes[20..20 + json_length]).unwrap();
        let bin_at = 20 + json_length;
        let bin_length = u32::from_le_bytes(bytes[bin_at..bin_at + 4].try_into().unwrap()) as usize;
        (
            json,
            vec![bytes[bin_at + 8..bin_at + 8 + bin_length].to_vec()],
        )
    } else {
        let json: Value = serde_json::from_slice(bytes).unwrap();
        let buffers = json["buffers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                let uri = b["uri"].as_str().unwrap();
                base64(uri.split_once(',').unwrap().1)
            })
            .collect();
        (json, buffers)
    }
}

fn base64(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in text.bytes().filter(|&c| c != b'=') {
        acc = (acc << 6) | ALPHABET.iter().position(|&a| a == c).unwrap() as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

/// Accessor `index` as rows of f64-free f32 numbers (integers as their value).
fn accessor(json: &Value, buffers: &[Vec<u8>], index: usize) -> Vec<Vec<f32>> {
    let a = &json["accessors"][index];
    let view = &json["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
    let buffer = &buffers[view["buffer"].as_u64().unwrap_or(0) as usize];
    let components = match a["type"].as_str().unwrap() {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "VEC4" => 4,
        "MAT4" => 16,
        other => panic!("{other}"),
    };
    let size = match a["componentType"].as_u64().unwrap() {
        5121 => 1,
        5123 => 2,
        5125 | 5126 => 4,
        other => panic!("{other}"),
    };
    let stride = view["byteStride"]
        .as_u64()
        .map_or(components * size, |s| s as usize);
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize
        + a["byteOffset"].as_u64().unwrap_or(0) as usize;
    (0..a["count"].as_u64().unwrap() as usize)
        .map(|i| {
            (0..components)
                .map(|c| {
                    let at = start + i * stride + c * size;
                    let b = &buffer[at..at + size];
                    match a["componentType"].as_u64().unwrap() {
                        5121 => f32::from(b[0]),
                        5123 => f32::from(u16::from_le_bytes([b[0], b[1]])),
                        5125 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32,
                        _ => f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                    }
                })
                .collect()
        })
        .collect()
}

/// Linear (slerp for rotations) sampling of one channel at `t`, ends held.
fn sample(times: &[f32], values: &[Vec<f32>], t: f32, rotation: bool, step: bool) -> Vec<f32> {
    let next = times.iter().position(|&k| k > t).unwrap_or(times.len());
    if next == 0 {
        return values[0].clone();
    }
    if next == times.len() {
        return values[times.len() - 1].clone();
    }
    let s = (t - times[next - 1]) / (times[next] - times[next - 1]);
    let (a, b) = (&values[next - 1], &values[next]);
    if step {
        return a.clone();
    }
    if rotation {
        let qa = Quat::from_xyzw(a[0], a[1], a[2], a[3]);
        let qb = Quat::from_xyzw(b[0], b[1], b[2], b[3]);
        qa.slerp(qb, s).to_array().to_vec()
    } else {
        a.iter().zip(b).map(|(x, y)| x + (y - x) * s).collect()
    }
}

/// Every node's world matrix at time `t` of animation `anim`.
fn worlds(json: &Value, buffers: &[Vec<u8>], anim: usize, t: f32) -> Vec<Mat4> {
    let nodes = json["nodes"].as_array().unwrap();
    let mut trs: Vec<(Vec3, Quat, Vec3)> = nodes
        .iter()
        .map(|n| {
            let v = |key: &str, default: Vec<f32>| -> Vec<f32> {
                n[key].as_array().map_or(default, |a| {
                    a.iter().map(|x| x.as_f64().unwrap() as f32).collect()
                })
            };
            let tr = v("translation", vec![0.0; 3]);
            let r = v("rotation", vec![0.0, 0.0, 0.0, 1.0]);
            let s = v("scale", vec![1.0; 3]);
            (
                Vec3::from_slice(&tr),
                Quat::from_xyzw(r[0], r[1], r[2], r[3]),
                Vec3::from_slice(&s),
            )
        })
        .collect();
    let animation = &json["animations"][anim];
    for channel in animation["channels"].as_array().unwrap() {
        let sampler = &animation["samplers"][channel["sampler"].as_u64().unwrap() as usize];
        let times: Vec<f32> = accessor(json, buffers, sampler["input"].as_u64().unwrap() as usize)
            .into_iter()
            .map(|r| r[0])
            .collect();
        let values = accessor(json, buffers, sampler["output"].as_u64().unwrap() as usize);
        let node = channel["target"]["node"].as_u64().unwrap() as usize;
        let path = channel["target"]["path"].as_str().unwrap();
        let step = sampler["interpolation"].as_str() == Some("STEP");
        let v = sample(&times, &values, t, path == "rotation", step);
        match path {
            "translation" => trs[node].0 = Vec3::from_slice(&v),
            "rotation" => trs[node].1 = Quat::from_xyzw(v[0], v[1], v[2], v[3]).normalize(),
            "scale" => trs[node].2 = Vec3::from_slice(&v),
            _ => {}
        }
    }
    let mut parent = vec![None; nodes.len()];
    for (p, n) in nodes.iter().enumerate() {
        for c in n["children"].as_array().into_iter().flatten() {
            parent[c.as_u64().unwrap() as usize] = Some(p);
        }
    }
    (0..nodes.len())
        .map(|mut i| {
            let mut m = Mat4::IDENTITY;
            loop {
                let (t, r, s) = trs[i];
                m = Mat4::from_scale_rotation_translation(s, r, t) * m;
                match parent[i] {
                    Some(p) => i = p,
                    None => return m,
                }
            }
        })
        .collect()
}

#[test]
fn posed_corpus_models_equal_gltf_skinning() {
    let Some(root) = rigport_test_support::corpus::corpus_root() else {
        return;
    };
    let mut checked = 0;
    for name in ["khronos_SimpleSkin.gltf", "raylib_greenman.glb"] {
        let path = Path::new(&root).join("gltf").join(name);
        let bytes = std::fs::read(&path).unwrap();
        let (json, buffers) = load(&bytes);
        let (file, _) =
            GltfFile::from_slice_with(&bytes, &ReadOptions::default(), path.parent()).unwrap();
        let (imported, _) = to_model(&file, &ImportOptions::default()).unwrap();
        let model = &imported.model;
        // The one skinned mesh node.
        let node = json["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .position(|n| n["skin"].is_u64())
            .unwrap();
        for anim in 0..json["animations"].as_array().unwrap().len() {
            let time = model.animations[anim].end_time() * 0.4;
            let worst = worst_error(&json, &buffers, model, node, 0, anim, time);
            assert!(
                worst <= 1e-3 * size(&json, &buffers, node),
                "{name} animation {anim} at {time}: off by {worst}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 5, "SimpleSkin's animation and greenman's four");
}

/// The bind-pose extent of the mesh of `node`.
fn size(json: &Value, buffers: &[Vec<u8>], node: usize) -> f32 {
    let primitive =
        &json["meshes"][json["nodes"][node]["mesh"].as_u64().unwrap() as usize]["primitives"][0];
    let positions = accessor(
        json,
        buffers,
        primitive["attributes"]["POSITION"].as_u64().unwrap() as usize,
    );
    let (lo, hi) = positions
        .iter()
        .fold((Vec3::MAX, Vec3::MIN), |(lo, hi), p| {
            (lo.min(Vec3::from_slice(p)), hi.max(Vec3::from_slice(p)))
        });
    (hi - lo).max_element()
}

/// The largest distance between model mesh `mesh` posed by rigport at `time` of animation
/// `anim` and glTF's skinning of the (skinned) mesh of `node`, corner by corner.
fn worst_error(
    json: &Value,
    buffers: &[Vec<u8>],
    model: &rigport_model_core::Model,
    node: usize,
    mesh: usize,
    anim: usize,
    time: f32,
) -> f32 {
    let skin = &json["skins"][json["nodes"][node]["skin"].as_u64().unwrap() as usize];
    let primitive =
        &json["meshes"][json["nodes"][node]["mesh"].as_u64().unwrap() as usize]["primitives"][0];
    let attr = |key: &str| {
        accessor(
            json,
            buffers,
            primitive["attributes"][key].as_u64().unwrap() as usize,
        )
    };
    let (positions, joints, weights) = (attr("POSITION"), attr("JOINTS_0"), attr("WEIGHTS_0"));
    let indices = accessor(
        json,
        buffers,
        primitive["indices"].as_u64().unwrap() as usize,
    );
    let ibms = accessor(
        json,
        buffers,
        skin["inverseBindMatrices"].as_u64().unwrap() as usize,
    );
    let skin_joints: Vec<usize> = skin["joints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j.as_u64().unwrap() as usize)
        .collect();
    let world = worlds(json, buffers, anim, time);
    let (posed, _) = rigport_anim::posed_meshes(model, anim, time).unwrap();
    let mesh = &posed[mesh];
    assert_eq!(mesh.triangles.len() * 3, indices.len());
    let mut worst = 0.0f32;
    for (corner, index) in mesh.triangles.iter().flatten().zip(&indices) {
        let v = index[0] as usize;
        let p = Vec3::from_slice(&positions[v]).extend(1.0);
        let mut expected = Vec4::ZERO;
        for k in 0..4 {
            let j = joints[v][k] as usize;
            let m = world[skin_joints[j]] * Mat4::from_cols_slice(&ibms[j]);
            expected += weights[v][k] * (m * p);
        }
        worst =
            worst.max((mesh.vertices[*corner as usize].position - expected.truncate()).length());
    }
    worst
}

/// A .glb of `json` with `bin` as buffer 0.
fn glb(mut json: Value, bin: &[u8]) -> Vec<u8> {
    json["buffers"] = serde_json::json!([{ "byteLength": bin.len() }]);
    let mut text = serde_json::to_vec(&json).unwrap();
    while text.len() % 4 != 0 {
        text.push(b' ');
    }
    let total = 12 + 8 + text.len() + 8 + bin.len();
    let mut out = Vec::new();
    out.extend(b"glTF");
    out.extend(2u32.to_le_bytes());
    out.extend((total as u32).to_le_bytes());
    out.extend((text.len() as u32).to_le_bytes());
    out.extend(b"JSON");
    out.extend(text);
    out.extend((bin.len() as u32).to_le_bytes());
    out.extend(b"BIN\0");
    out.extend(bin);
    out
}

#[test]
fn two_skins_a_folded_armature_and_a_bind_pose_off_rest_pose_equal_gltf_skinning() {
    use serde_json::json;
    // Armature (non-joint, rotated, scaled 2, moved) → hip → spine → head; skin 0 = hip,
    // spine; skin 1 = spine, head. The inverse bind matrices describe a bind pose that is
    // not the nodes' rest pose (each joint's bind world is its rest world nudged).
    let armature = Mat4::from_scale_rotation_translation(
        Vec3::splat(2.0),
        Quat::from_rotation_y(1.0),
        Vec3::new(1.0, 2.0, 3.0),
    );
    let local = [
        Mat4::from_translation(Vec3::Y),
        Mat4::from_rotation_translation(Quat::from_rotation_x(0.3), Vec3::Y),
        Mat4::from_translation(Vec3::Y),
    ];
    let rest_world = [
        armature * local[0],
        armature * local[0] * local[1],
        armature * local[0] * local[1] * local[2],
    ];
    let nudge =
        Mat4::from_rotation_translation(Quat::from_rotation_z(0.2), Vec3::new(0.1, -0.1, 0.0));
    let ibm: Vec<Mat4> = rest_world.iter().map(|w| (*w * nudge).inverse()).collect();
    let mut bin: Vec<u8> = Vec::new();
    let mut views = Vec::new();
    let mut push = |bin: &mut Vec<u8>, data: Vec<u8>| {
        views.push(json!({"buffer": 0, "byteOffset": bin.len(), "byteLength": data.len()}));
        bin.extend(data);
    };
    let f = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    // Mesh: 4 vertices around the middle joint, weighted to the skin's two joints.
    let positions = [0.0, 1.5, 0.5, 0.5, 2.0, 0.0, -0.5, 2.5, 0.0, 0.0, 3.0, -0.5];
    push(&mut bin, f(&positions)); // view 0
    push(
        &mut bin,
        vec![0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0],
    ); // view 1 joints
    push(
        &mut bin,
        f(&[
            0.7, 0.3, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.2, 0.8, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0,
        ]),
    ); // view 2
    push(
        &mut bin,
        [0u16, 1, 2, 0, 2, 3]
            .iter()
            .flat_map(|i| i.to_le_bytes())
            .collect(),
    ); // view 3
    push(
        &mut bin,
        f(&[ibm[0], ibm[1]]
            .iter()
            .flat_map(|m| m.to_cols_array())
            .collect::<Vec<f32>>()),
    ); // view 4
    push(
        &mut bin,
        f(&[ibm[1], ibm[2]]
            .iter()
            .flat_map(|m| m.to_cols_array())
            .collect::<Vec<f32>>()),
    ); // view 5
    push(&mut bin, f(&[0.0, 1.0])); // view 6 times
    let q0 = Quat::from_rotation_x(0.3);
    let q1 = Quat::from_rotation_x(0.3) * Quat::from_rotation_z(0.9);
    push(&mut bin, f(&[q0.to_array(), q1.to_array()].concat())); // view 7 spine rotations
    push(&mut bin, f(&[0.0, 1.0, 0.0, 0.5, 1.2, 0.0])); // view 8 hip translations (STEP)
    push(&mut bin, f(&[0.0, 0.0, 0.0, 0.0, 5.0, 0.0])); // view 9 armature translations (lost)
    let accessor = |view: usize, ty: &str, component: u32, count: usize| json!({"bufferView": view, "type": ty, "componentType": component, "count": count});
    let document = json!({
        "asset": {"version": "2.0"},
        "nodes": [
            {"name": "Armature", "children": [1], "translation": [1.0, 2.0, 3.0],
             "rotation": Quat::from_rotation_y(1.0).to_array(), "scale": [2.0, 2.0, 2.0]},
            {"name": "hip", "children": [2], "translation": [0.0, 1.0, 0.0]},
            {"name": "spine", "children": [3], "translation": [0.0, 1.0, 0.0], "rotation": q0.to_array()},
            {"name": "head", "translation": [0.0, 1.0, 0.0], "children": [6]},
            {"name": "a", "mesh": 0, "skin": 0},
            {"name": "b", "mesh": 0, "skin": 1},
            {"name": "prop", "mesh": 1, "translation": [0.5, 0.25, 0.0], "scale": [1.0, 3.0, 1.0]},
        ],
        "scenes": [{"nodes": [0, 4, 5]}],
        "skins": [{"joints": [1, 2], "inverseBindMatrices": 4}, {"joints": [2, 3], "inverseBindMatrices": 5}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}, "indices": 3}]}, {"primitives": [{"attributes": {"POSITION": 0}, "indices": 3}]}],
        "animations": [{
            "channels": [
                {"sampler": 0, "target": {"node": 2, "path": "rotation"}},
                {"sampler": 1, "target": {"node": 1, "path": "translation"}},
                {"sampler": 2, "target": {"node": 0, "path": "translation"}},
            ],
            "samplers": [
                {"input": 6, "output": 7},
                {"input": 6, "output": 8, "interpolation": "STEP"},
                {"input": 6, "output": 9},
            ],
        }],
        "accessors": [
            accessor(0, "VEC3", 5126, 4), accessor(1, "VEC4", 5121, 4), accessor(2, "VEC4", 5126, 4),
            accessor(3, "SCALAR", 5123, 6), accessor(4, "MAT4", 5126, 2), accessor(5, "MAT4", 5126, 2),
            json!({"bufferView": 6, "type": "SCALAR", "componentType": 5126, "count": 2, "min": [0.0], "max": [1.0]}),
            accessor(7, "VEC4", 5126, 2), accessor(8, "VEC3", 5126, 2), accessor(9, "VEC3", 5126, 2),
        ],
        "bufferViews": views,
    });
    let bytes = glb(document, &bin);
    let (json, buffers) = load(&bytes);
    let (file, _) = GltfFile::from_slice_with(&bytes, &ReadOptions::default(), None).unwrap();
    let (imported, report) = to_model(&file, &ImportOptions::default()).unwrap();
    let model = &imported.model;
    assert_eq!(
        model.skeleton.len(),
        3,
        "hip, spine, head; the armature folded"
    );
    // The unskinned prop under the head joint moves rigidly with it: glTF places it at
    // world(prop, t) · v.
    let prop_positions = crate::accessor(&json, &buffers, 0);
    let prop_indices = crate::accessor(&json, &buffers, 3);
    assert!(
        report
            .with_code(rigport_model_core::codes::NODE_ANIMATION)
            .next()
            .is_some(),
        "{report}"
    );
    assert!(
        report
            .with_code(rigport_model_core::codes::SKINS_MERGED)
            .next()
            .is_some(),
        "{report}"
    );
    // glTF leaves the armature's own animation out of our comparison: it is a loss, so the
    // oracle must not apply it either — drop that channel from the oracle's document.
    let mut oracle = json.clone();
    oracle["animations"][0]["channels"]
        .as_array_mut()
        .unwrap()
        .pop();
    for time in [0.0, 0.3, 0.75, 1.0, 2.0] {
        for (node, mesh) in [(4, 1), (5, 2)] {
            let worst = worst_error(&oracle, &buffers, model, node, mesh, 0, time);
            assert!(worst < 1e-4, "mesh {mesh} at {time}: off by {worst}");
        }
        let world = worlds(&oracle, &buffers, 0, time);
        let (posed, _) = rigport_anim::posed_meshes(model, 0, time).unwrap();
        let prop = &posed[0]; // node 6 comes before nodes 4 and 5 in the scene walk
        for (corner, index) in prop.triangles.iter().flatten().zip(&prop_indices) {
            let expected =
                world[6].transform_point3(Vec3::from_slice(&prop_positions[index[0] as usize]));
            let got = prop.vertices[*corner as usize].position;
            assert!(
                (got - expected).length() < 1e-4,
                "prop at {time}: {got} vs {expected}"
            );
        }
    }
}
