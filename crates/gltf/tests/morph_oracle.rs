//! Morph targets posed by the glTF specification's own math, computed here from the JSON
//! and buffers without the importer: accessors read by hand (sparse ones included),
//! weights sampled per channel (`LINEAR`, `STEP`, `CUBICSPLINE`), `base + Σ wᵢ·Δᵢ`, then
//! the skin (glTF 2.0 §3.7.2.2, §3.7.3).
//!
//! * Every corpus glTF with morph targets is compared with the same file converted to
//!   `.glb` by rigport, and with rigport's own posing of it, at rest and at several times
//!   of each animation.
//! * A skinned model with dense and sparse targets and cubic-spline weights is exported,
//!   and the `.glb` posed by this oracle equals rigport's posing of the model.

use glam::{Mat4, Quat, Vec3, Vec4};
use rigport_gltf::export::{ExportOptions, to_glb};
use rigport_gltf::import::{GltfFile, ImportOptions, to_model};
use rigport_model_core::{
    Animation, Interpolation, Joint, JointId, Key, Mesh, MeshId, Model, MorphTarget, MorphTrack,
    ReadOptions, Skeleton, Tangents, Track, Vertex,
};
use serde_json::Value;
use std::path::Path;

/// A document and its buffers (a GLB's BIN chunk, or files beside a `.gltf`).
struct Doc {
    json: Value,
    buffers: Vec<Vec<u8>>,
}

impl Doc {
    fn load(bytes: &[u8], dir: &Path) -> Doc {
        if bytes.starts_with(b"glTF") {
            let n = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
            let json: Value = serde_json::from_slice(&bytes[20..20 + n]).unwrap();
            let at = 20 + n;
            let len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
            let buffers = vec![bytes[at + 8..at + 8 + len].to_vec()];
            return Doc { json, buffers };
        }
        let json: Value = serde_json::from_slice(bytes).unwrap();
        let buffers = json["buffers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| std::fs::read(dir.join(b["uri"].as_str().unwrap())).unwrap())
            .collect();
        Doc { json, buffers }
    }

    /// Accessor `index` as rows of floats (normalized integers scaled), sparse values
    /// substituted.
    fn accessor(&self, index: usize) -> Vec<Vec<f32>> {
        let a = &self.json["accessors"][index];
        let width = match a["type"].as_str().unwrap() {
            "SCALAR" => 1,
            "VEC2" => 2,
            "VEC3" => 3,
            "VEC4" => 4,
            "MAT4" => 16,
            other => panic!("{other}"),
        };
        let kind = a["componentType"].as_u64().unwrap();
        let normalized = a["normalized"].as_bool().unwrap_or(false);
        let count = a["count"].as_u64().unwrap() as usize;
        let mut rows = vec![vec![0.0; width]; count];
        if let Some(view) = a["bufferView"].as_u64() {
            let at = a["byteOffset"].as_u64().unwrap_or(0) as usize;
            let (bytes, stride) = self.view(view as usize, at);
            let stride = stride.unwrap_or(width * size(kind));
            for (i, row) in rows.iter_mut().enumerate() {
                for (c, value) in row.iter_mut().enumerate() {
                    *value = number(&bytes[i * stride + c * size(kind)..], kind, normalized);
                }
            }
        }
        if let Some(sparse) = a.get("sparse") {
            let n = sparse["count"].as_u64().unwrap() as usize;
            let ix = &sparse["indices"];
            let (ib, _) = self.view(
                ix["bufferView"].as_u64().unwrap() as usize,
                ix["byteOffset"].as_u64().unwrap_or(0) as usize,
            );
            let ik = ix["componentType"].as_u64().unwrap();
            let vx = &sparse["values"];
            let (vb, _) = self.view(
                vx["bufferView"].as_u64().unwrap() as usize,
                vx["byteOffset"].as_u64().unwrap_or(0) as usize,
            );
            for k in 0..n {
                let i = number(&ib[k * size(ik)..], ik, false) as usize;
                for c in 0..width {
                    rows[i][c] = number(&vb[(k * width + c) * size(kind)..], kind, normalized);
                }
            }
        }
        rows
    }

    /// The bytes of a buffer view from `offset` on, and its stride.
    fn view(&self, index: usize, offset: usize) -> (&[u8], Option<usize>) {
        let v = &self.json["bufferViews"][index];
        let buffer = &self.buffers[v["buffer"].as_u64().unwrap() as usize];
        let start = v["byteOffset"].as_u64().unwrap_or(0) as usize + offset;
        let end = v["byteOffset"].as_u64().unwrap_or(0) as usize
            + v["byteLength"].as_u64().unwrap() as usize;
        (
            &buffer[start..end],
            v["byteStride"].as_u64().map(|s| s as usize),
        )
    }

    fn scalars(&self, index: usize) -> Vec<f32> {
        self.accessor(index).into_iter().map(|r| r[0]).collect()
    }

    fn index(value: &Value) -> usize {
        value.as_u64().unwrap() as usize
    }

    /// The weights of the mesh of `node` at `time` of animation `anim` (`None`: rest).
    fn weights(&self, node: usize, anim: Option<usize>, time: f32) -> Vec<f32> {
        let n = &self.json["nodes"][node];
        let mesh = &self.json["meshes"][Self::index(&n["mesh"])];
        let targets = mesh["primitives"][0]["targets"]
            .as_array()
            .map_or(0, Vec::len);
        let defaults = n["weights"].as_array().or(mesh["weights"].as_array());
        let mut weights: Vec<f32> = (0..targets)
            .map(|t| defaults.map_or(0.0, |d| d[t].as_f64().unwrap() as f32))
            .collect();
        let Some(anim) = anim else { return weights };
        let animation = &self.json["animations"][anim];
        for channel in animation["channels"].as_array().unwrap() {
            if channel["target"]["path"] != "weights"
                || Self::index(&channel["target"]["node"]) != node
            {
                continue;
            }
            let sampler = &animation["samplers"][Self::index(&channel["sampler"])];
            let times = self.scalars(Self::index(&sampler["input"]));
            let values = self.scalars(Self::index(&sampler["output"]));
            let mode = sampler["interpolation"].as_str().unwrap_or("LINEAR");
            weights = sample_weights(&times, &values, targets, mode, time);
        }
        weights
    }

    /// Every corner of every primitive of the mesh of `node`, morphed at `weights` and
    /// skinned with the node's skin at `time` of `anim` (no skin: placed by the node's
    /// world matrix at rest).
    fn corners(&self, node: usize, weights: &[f32], anim: Option<usize>, time: f32) -> Vec<Vec3> {
        let n = &self.json["nodes"][node];
        let mesh = &self.json["meshes"][Self::index(&n["mesh"])];
        let world = self.worlds(anim, time);
        let mut out = Vec::new();
        for primitive in mesh["primitives"].as_array().unwrap() {
            let attr = |key: &str| {
                primitive["attributes"]
                    .get(key)
                    .map(|a| self.accessor(Self::index(a)))
            };
            let mut positions: Vec<Vec3> = attr("POSITION")
                .unwrap()
                .iter()
                .map(|p| Vec3::from_slice(p))
                .collect();
            for (t, target) in primitive["targets"]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
            {
                if let Some(a) = target.get("POSITION") {
                    for (p, d) in positions.iter_mut().zip(self.accessor(Self::index(a))) {
                        *p += Vec3::from_slice(&d) * weights[t];
                    }
                }
            }
            let posed: Vec<Vec3> = match n.get("skin") {
                Some(skin) => {
                    let skin = &self.json["skins"][Self::index(skin)];
                    let ibms = self.accessor(Self::index(&skin["inverseBindMatrices"]));
                    let joints: Vec<usize> = skin["joints"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(Self::index)
                        .collect();
                    let (js, ws) = (attr("JOINTS_0").unwrap(), attr("WEIGHTS_0").unwrap());
                    positions
                        .iter()
                        .enumerate()
                        .map(|(v, p)| {
                            let mut sum = Vec4::ZERO;
                            for k in 0..4 {
                                let j = js[v][k] as usize;
                                let m = world[joints[j]] * Mat4::from_cols_slice(&ibms[j]);
                                sum += ws[v][k] * (m * p.extend(1.0));
                            }
                            sum.truncate()
                        })
                        .collect()
                }
                None => positions
                    .iter()
                    .map(|p| world[node].transform_point3(*p))
                    .collect(),
            };
            match primitive.get("indices") {
                Some(i) => out.extend(
                    self.scalars(Self::index(i))
                        .iter()
                        .map(|&i| posed[i as usize]),
                ),
                None => out.extend(posed),
            }
        }
        out
    }

    /// Every node's world matrix at `time` of `anim` (linear / slerp channels), or at rest.
    fn worlds(&self, anim: Option<usize>, time: f32) -> Vec<Mat4> {
        let nodes = self.json["nodes"].as_array().unwrap();
        let value = |n: &Value, key: &str, default: &[f32]| -> Vec<f32> {
            n[key].as_array().map_or(default.to_vec(), |a| {
                a.iter().map(|x| x.as_f64().unwrap() as f32).collect()
            })
        };
        let mut trs: Vec<[Vec<f32>; 3]> = nodes
            .iter()
            .map(|n| {
                [
                    value(n, "translation", &[0.0; 3]),
                    value(n, "rotation", &[0.0, 0.0, 0.0, 1.0]),
                    value(n, "scale", &[1.0; 3]),
                ]
            })
            .collect();
        if let Some(anim) = anim {
            let animation = &self.json["animations"][anim];
            for channel in animation["channels"].as_array().unwrap() {
                let slot = match channel["target"]["path"].as_str().unwrap() {
                    "translation" => 0,
                    "rotation" => 1,
                    "scale" => 2,
                    _ => continue,
                };
                let sampler = &animation["samplers"][Self::index(&channel["sampler"])];
                let times = self.scalars(Self::index(&sampler["input"]));
                let values = self.accessor(Self::index(&sampler["output"]));
                let next = times.iter().position(|&k| k > time).unwrap_or(times.len());
                let v = if next == 0 {
                    values[0].clone()
                } else if next == times.len() {
                    values[next - 1].clone()
                } else {
                    let s = (time - times[next - 1]) / (times[next] - times[next - 1]);
                    let (a, b) = (&values[next - 1], &values[next]);
                    if slot == 1 {
                        let qa = Quat::from_slice(a);
                        qa.slerp(Quat::from_slice(b), s).to_array().to_vec()
                    } else {
                        a.iter().zip(b).map(|(x, y)| x + (y - x) * s).collect()
                    }
                };
                trs[Self::index(&channel["target"]["node"])][slot] = v;
            }
        }
        let mut parent = vec![None; nodes.len()];
        for (p, n) in nodes.iter().enumerate() {
            for c in n["children"].as_array().into_iter().flatten() {
                parent[Self::index(c)] = Some(p);
            }
        }
        (0..nodes.len())
            .map(|mut i| {
                let mut m = Mat4::IDENTITY;
                loop {
                    let [t, r, s] = &trs[i];
                    m = Mat4::from_scale_rotation_translation(
                        Vec3::from_slice(s),
                        Quat::from_slice(r).normalize(),
                        Vec3::from_slice(t),
                    ) * m;
                    match parent[i] {
                        Some(p) => i = p,
                        None => return m,
                    }
                }
            })
            .collect()
    }

    /// Nodes that show a mesh with morph targets.
    fn morph_nodes(&self) -> Vec<usize> {
        let nodes = self.json["nodes"].as_array().unwrap();
        (0..nodes.len())
            .filter(|&n| {
                nodes[n].get("mesh").is_some_and(|m| {
                    self.json["meshes"][Self::index(m)]["primitives"][0]["targets"].is_array()
                })
            })
            .collect()
    }

    /// The last key time of animation `anim`.
    fn end(&self, anim: usize) -> f32 {
        let animation = &self.json["animations"][anim];
        animation["samplers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                self.scalars(Self::index(&s["input"]))
                    .into_iter()
                    .fold(0.0, f32::max)
            })
            .fold(0.0, f32::max)
    }
}

fn size(kind: u64) -> usize {
    match kind {
        5120 | 5121 => 1,
        5122 | 5123 => 2,
        _ => 4,
    }
}

fn number(b: &[u8], kind: u64, normalized: bool) -> f32 {
    match (kind, normalized) {
        (5121, false) => f32::from(b[0]),
        (5121, true) => f32::from(b[0]) / 255.0,
        (5120, true) => (f32::from(b[0] as i8) / 127.0).max(-1.0),
        (5123, false) => f32::from(u16::from_le_bytes([b[0], b[1]])),
        (5123, true) => f32::from(u16::from_le_bytes([b[0], b[1]])) / 65535.0,
        (5122, true) => (f32::from(i16::from_le_bytes([b[0], b[1]])) / 32767.0).max(-1.0),
        (5125, _) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32,
        _ => f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
    }
}

/// glTF 2.0 Appendix C: a `weights` sampler at `time`, end keys held.
fn sample_weights(times: &[f32], values: &[f32], n: usize, mode: &str, time: f32) -> Vec<f32> {
    let spline = mode == "CUBICSPLINE";
    let value = |k: usize, t: usize| {
        if spline {
            values[(3 * k + 1) * n + t]
        } else {
            values[k * n + t]
        }
    };
    let next = times.iter().position(|&k| k > time).unwrap_or(times.len());
    if next == 0 || next == times.len() {
        let k = next.saturating_sub(1);
        return (0..n).map(|t| value(k, t)).collect();
    }
    let (a, b) = (next - 1, next);
    let td = times[b] - times[a];
    let s = (time - times[a]) / td;
    (0..n)
        .map(|t| match mode {
            "STEP" => value(a, t),
            "CUBICSPLINE" => {
                let out_a = values[(3 * a + 2) * n + t];
                let in_b = values[(3 * b) * n + t];
                let (s2, s3) = (s * s, s * s * s);
                (2.0 * s3 - 3.0 * s2 + 1.0) * value(a, t)
                    + td * (s3 - 2.0 * s2 + s) * out_a
                    + (-2.0 * s3 + 3.0 * s2) * value(b, t)
                    + td * (s3 - s2) * in_b
            }
            _ => value(a, t) + (value(b, t) - value(a, t)) * s,
        })
        .collect()
}

/// The bind extent of every corner.
fn extent(corners: &[Vec3]) -> f32 {
    let (lo, hi) = corners.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), p| {
        (lo.min(*p), hi.max(*p))
    });
    (hi - lo).max_element()
}

fn worst(a: &[Vec3], b: &[Vec3]) -> f32 {
    assert_eq!(a.len(), b.len(), "corner counts");
    a.iter()
        .zip(b)
        .map(|(p, q)| (*p - *q).length())
        .fold(0.0, f32::max)
}

/// rigport's posing of every corner of the model meshes, in mesh order.
fn rigport_corners(model: &Model, anim: Option<usize>, time: f32) -> Vec<Vec3> {
    let meshes = match anim {
        Some(a) => rigport_anim::posed_meshes(model, a, time).unwrap().0,
        None => model
            .meshes
            .iter()
            .map(|m| {
                let w = m.default_weights();
                rigport_anim::morph::morph_mesh(m, &w).unwrap_or_else(|| m.clone())
            })
            .collect(),
    };
    meshes
        .iter()
        .flat_map(|m| {
            m.triangles
                .iter()
                .flatten()
                .map(|&i| m.vertices[i as usize].position)
        })
        .collect()
}

/// The times to check: rest, and 7 spread over each animation and past its end.
fn moments(doc: &Doc) -> Vec<(Option<usize>, f32)> {
    let mut out = vec![(None, 0.0)];
    for a in 0..doc.json["animations"].as_array().map_or(0, Vec::len) {
        let end = doc.end(a);
        out.extend([0.0, 0.13, 0.31, 0.5, 0.77, 0.94, 1.2].map(|f| (Some(a), end * f)));
    }
    out
}

#[test]
fn corpus_morph_targets_pose_as_gltf_says_before_and_after_a_glb_round_trip() {
    let Some(dir) = rigport_test_support::corpus::corpus_dir("gltf-morph") else {
        return;
    };
    let mut checked = 0;
    for name in [
        "AnimatedMorphCube.gltf",
        "SimpleMorph.gltf",
        "MorphPrimitivesTest.gltf",
    ] {
        let path = dir.join(name);
        let bytes = std::fs::read(&path).unwrap();
        let source = Doc::load(&bytes, &dir);
        let (file, _) =
            GltfFile::from_slice_with(&bytes, &ReadOptions::default(), Some(&dir)).unwrap();
        let (imported, report) = to_model(&file, &ImportOptions::default()).unwrap();
        assert_eq!(
            report
                .with_code(rigport_model_core::codes::MORPH_TARGETS)
                .count(),
            0,
            "{name}: {report:?}"
        );
        let model = imported.model;
        let (glb, _) = to_glb(&model, &ExportOptions::default()).unwrap();
        let exported = Doc::load(&glb, &dir);
        let (file, _) = GltfFile::from_slice_with(&glb, &ReadOptions::default(), None).unwrap();
        let again = to_model(&file, &ImportOptions::default()).unwrap().0.model;
        assert_eq!(
            again.morph_target_count(),
            model.morph_target_count(),
            "{name}"
        );
        assert_eq!(
            again.morph_track_count(),
            model.morph_track_count(),
            "{name}"
        );
        let source_nodes = source.morph_nodes();
        let exported_nodes = exported.morph_nodes();
        for (anim, time) in moments(&source) {
            let mut expected = Vec::new();
            for &node in &source_nodes {
                let weights = source.weights(node, anim, time);
                expected.extend(source.corners(node, &weights, anim, time));
            }
            let mut written = Vec::new();
            for &node in &exported_nodes {
                let weights = exported.weights(node, anim, time);
                written.extend(exported.corners(node, &weights, anim, time));
            }
            let tolerance = 1e-5
                * extent(&source.corners(
                    source_nodes[0],
                    &source.weights(source_nodes[0], None, 0.0),
                    None,
                    0.0,
                ))
                .max(1e-3);
            let what = format!("{name} animation {anim:?} at {time}");
            assert!(
                worst(&expected, &written) <= tolerance,
                "{what}: the glb is off by {}",
                worst(&expected, &written)
            );
            let ours = rigport_corners(&model, anim, time);
            assert!(
                worst(&expected, &ours) <= tolerance,
                "{what}: rigport's posing is off by {}",
                worst(&expected, &ours)
            );
            checked += 1;
        }
    }
    assert_eq!(
        checked,
        1 + 7 + 1 + 7 + 1,
        "rest and 7 times of each animation"
    );
}

/// A two-joint arm with a dense and a sparse target, weighted by a cubic-spline track.
fn skinned_morph_model() -> Model {
    let mut model = Model::default();
    let mut upper = Joint::new("upper");
    upper.translation = Vec3::ZERO;
    let mut lower = Joint::new("lower");
    lower.parent = Some(JointId(0));
    lower.translation = Vec3::new(0.0, 1.0, 0.0);
    model.skeleton = Skeleton {
        joints: vec![upper, lower],
    };
    let mut mesh = Mesh::new("arm");
    for y in 0..4 {
        for x in 0..2 {
            let joint = u32::from(y >= 2);
            mesh.vertices.push(Vertex {
                position: Vec3::new(x as f32 * 0.2, y as f32 * 0.6, 0.0),
                normal: Vec3::Z,
                joints: [JointId(joint), JointId(1 - joint), JointId(0), JointId(0)],
                weights: [0.75, 0.25, 0.0, 0.0],
                ..Vertex::default()
            });
        }
    }
    for y in 0..3u32 {
        let a = y * 2;
        mesh.triangles.push([a, a + 1, a + 3]);
        mesh.triangles.push([a, a + 3, a + 2]);
    }
    let mut bulge = MorphTarget::dense(
        "bulge",
        (0..8)
            .map(|i| Vec3::new(0.0, 0.0, i as f32 * 0.05))
            .collect(),
    );
    bulge.normals = vec![Vec3::new(0.1, 0.0, 0.0); 8];
    bulge.default_weight = 0.25;
    let tip = MorphTarget {
        name: "tip".into(),
        indices: Some(vec![6, 7]),
        positions: vec![Vec3::new(0.3, 0.2, 0.0), Vec3::new(0.3, 0.2, 0.0)],
        ..MorphTarget::default()
    };
    mesh.morph_targets = vec![bulge, tip];
    model.meshes.push(mesh);
    let mut animation = Animation::new("flex", 24.0);
    animation.interpolation = Interpolation::Linear;
    let mut track = Track::new(JointId(1));
    track.rotations = vec![
        Key::new(0.0, Quat::IDENTITY),
        Key::new(2.0, Quat::from_rotation_z(1.2)),
    ];
    animation.tracks.push(track);
    animation.morph_tracks.push(MorphTrack {
        mesh: MeshId(0),
        interpolation: Interpolation::CubicSpline,
        times: vec![0.0, 1.0, 2.0],
        weights: vec![0.0, 0.0, 1.0, 0.5, 0.2, 1.0],
        tangents: [0.0, 0.0, 0.5, -1.0, 0.0, 0.0]
            .into_iter()
            .map(|t| Tangents {
                in_tangent: t,
                out_tangent: t * 0.5,
            })
            .collect(),
    });
    model.animations.push(animation);
    model
}

#[test]
fn an_exported_skinned_morph_equals_rigports_posing_by_the_specifications_math() {
    let model = skinned_morph_model();
    let (glb, report) = to_glb(&model, &ExportOptions::default()).unwrap();
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::MORPH_TARGETS)
            .count(),
        0,
        "{report:?}"
    );
    let doc = Doc::load(&glb, Path::new("."));
    let json = &doc.json;
    assert_eq!(
        json["meshes"][0]["extras"]["targetNames"],
        serde_json::json!(["bulge", "tip"])
    );
    assert_eq!(json["meshes"][0]["weights"], serde_json::json!([0.25, 0.0]));
    let tip = Doc::index(&json["meshes"][0]["primitives"][0]["targets"][1]["POSITION"]);
    assert!(
        json["accessors"][tip]["sparse"].is_object(),
        "the two-vertex target is sparse"
    );
    let node = doc.morph_nodes()[0];
    let size = extent(&rigport_corners(&model, None, 0.0));
    let mut checked = 0;
    for (anim, time) in [
        (None, 0.0),
        (Some(0), 0.0),
        (Some(0), 0.4),
        (Some(0), 1.0),
        (Some(0), 1.7),
        (Some(0), 2.5),
    ] {
        let expected = doc.corners(node, &doc.weights(node, anim, time), anim, time);
        let ours = rigport_corners(&model, anim, time);
        let off = worst(&expected, &ours);
        assert!(off <= 1e-5 * size, "at {anim:?} {time}: off by {off}");
        checked += 1;
    }
    assert_eq!(checked, 6);
    // And the file reads back with the same targets and track.
    let (file, _) = GltfFile::from_slice_with(&glb, &ReadOptions::default(), None).unwrap();
    let back = to_model(&file, &ImportOptions::default()).unwrap().0.model;
    let targets = &back.meshes[0].morph_targets;
    assert_eq!(
        targets.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
        ["bulge", "tip"]
    );
    assert_eq!(targets[1].indices.as_deref(), Some(&[6, 7][..]));
    assert_eq!(
        back.animations[0].morph_tracks,
        model.animations[0].morph_tracks
    );
}
