//! Conversion checked by hand on the `rig` fixtures (see `xtask/src/fixtures/ms3d.rs` for
//! the model: 5 vertex records, groups `body` and `flap`, joints root/hand/arm/tip).

mod common;

use rigport_anim::euler::euler_to_quat;
use rigport_model_core::glam::{Quat, Vec2, Vec3};
use rigport_model_core::{JointId, Mesh, Model, Report, Severity, TooMany, Vertex};
use rigport_ms3d_bin::{ConvertOptions, Error, File, from_model, to_model};

const EPS: f32 = 1e-5;

fn convert(name: &str) -> (File, Model, Report) {
    let file = File::from_slice(&common::fixture(name)).unwrap();
    let (model, report) = to_model(&file, &ConvertOptions::default()).unwrap();
    (file, model, report)
}

fn close(a: Vec3, b: Vec3) -> bool {
    (a - b).length() < EPS
}

fn same_rotation(a: Quat, b: Quat) -> bool {
    a.dot(b).abs() > 1.0 - EPS
}

/// Influences as sorted (joint, weight) pairs, for comparing skins whose slot order differs.
fn influences(v: &Vertex) -> Vec<(u32, f32)> {
    let mut out: Vec<(u32, f32)> = v.influences().map(|(j, w)| (j.0, w)).collect();
    out.sort_by_key(|p| p.0);
    out
}

#[test]
fn corners_are_welded_per_group() {
    let (_, model, _) = convert("rig_full.ms3d");
    let body = &model.meshes[0];
    let flap = &model.meshes[1];
    assert_eq!((body.name.as_str(), flap.name.as_str()), ("body", "flap"));
    // body: triangle 0 = records 0,1,2 (+Z); triangle 1 = record 1 with another normal,
    // record 3, record 2 (same normal and uv as in triangle 0, so shared).
    assert_eq!(body.vertices.len(), 5);
    assert_eq!(body.triangles, vec![[0, 1, 2], [3, 4, 2]]);
    assert_eq!(body.vertices[3].position, Vec3::X);
    assert_eq!(body.vertices[3].normal, Vec3::new(0.0, 0.6, 0.8));
    assert_eq!(body.vertices[3].uv, Vec2::new(1.0, 0.0));
    assert_eq!(flap.vertices.len(), 3);
    assert_eq!(flap.triangles, vec![[0, 1, 2]]);
    assert_eq!(body.material, Some(rigport_model_core::MaterialId(0)));
    assert_eq!(flap.material, None);
    assert_eq!(model.materials[0].texture.as_deref(), Some("skin.bmp"));
    assert_eq!(model.materials[0].alpha_map, None);
    // Front faces agree with the stored normals.
    for mesh in &model.meshes {
        for t in &mesh.triangles {
            let [a, b, c] = t.map(|i| mesh.vertices[i as usize]);
            let face = (b.position - a.position).cross(c.position - a.position);
            assert!(face.dot(a.normal + b.normal + c.normal) > 0.0);
        }
    }
}

#[test]
fn weights_follow_the_milkshape_encoding() {
    let (_, model, _) = convert("rig_full.ms3d");
    let body = &model.meshes[0].vertices;
    let flap = &model.meshes[1].vertices;
    // Joint ids: root 0, hand 1, arm 2, tip 3.
    assert_eq!(influences(&body[0]), vec![(0, 1.0)]);
    let v1 = influences(&body[1]);
    assert_eq!(v1.len(), 2);
    assert!((v1[0].1 - 0.6).abs() < EPS && (v1[1].1 - 0.4).abs() < EPS);
    assert_eq!(v1[1].0, 1);
    // Stored weights all 0: everything on the vertex's own bone (hand).
    assert_eq!(influences(&body[2]), vec![(1, 1.0)]);
    let v3: Vec<f32> = influences(&body[4]).iter().map(|p| p.1).collect();
    assert!((v3[0] - 0.2).abs() < EPS && (v3[1] - 0.3).abs() < EPS && (v3[2] - 0.5).abs() < EPS);
    // Four influences, the fourth implied: 100 - 40 - 30 - 20 = 10.
    let v4 = influences(&flap[1]);
    let expected = [(0, 0.4), (1, 0.3), (2, 0.2), (3, 0.1)];
    for ((j, w), (ej, ew)) in v4.iter().zip(expected) {
        assert_eq!(*j, ej);
        assert!((w - ew).abs() < EPS, "{v4:?}");
    }
}

#[test]
fn sub_version_one_weights_above_100_use_the_0_255_scale() {
    let (_, model, _) = convert("rig_vertex_extra_sv1_weights_0_255.ms3d");
    let v4 = influences(&model.meshes[1].vertices[1]);
    let expected = [200.0 / 255.0, 30.0 / 255.0, 20.0 / 255.0, 5.0 / 255.0];
    for ((_, w), e) in v4.iter().zip(expected) {
        assert!((w - e).abs() < EPS, "{v4:?}");
    }
}

#[test]
fn parents_are_found_by_name_even_when_listed_later() {
    let (_, model, report) = convert("rig_full.ms3d");
    let parents: Vec<Option<JointId>> = model.skeleton.joints.iter().map(|j| j.parent).collect();
    assert_eq!(
        parents,
        vec![None, Some(JointId(2)), Some(JointId(0)), Some(JointId(1))]
    );
    assert_eq!(report.count(Severity::Warning), 0, "{report}");
    let arm = &model.skeleton.joints[2];
    assert!(close(arm.rotation * Vec3::X, Vec3::Y), "90° about Z");
    assert_eq!(arm.translation, Vec3::Y);
    let tip = &model.skeleton.joints[3];
    assert!(same_rotation(
        tip.rotation,
        euler_to_quat(Vec3::new(0.1, 0.2, 0.3))
    ));
}

#[test]
fn a_missing_parent_makes_a_root_with_a_warning() {
    let mut file = File::from_slice(&common::fixture("rig_full.ms3d")).unwrap();
    file.joints[3].parent_name = [0; 32];
    file.joints[3].parent_name[..6].copy_from_slice(b"nobody");
    let (model, report) = to_model(&file, &ConvertOptions::default()).unwrap();
    assert_eq!(model.skeleton.joints[3].parent, None);
    let warning = report
        .with_code(rigport_model_core::codes::MISSING_PARENT)
        .next()
        .expect("a warning");
    assert!(warning.message.contains("nobody"), "{warning}");
}

#[test]
fn keys_relative_to_the_bind_pose_become_absolute_tracks() {
    let (_, model, _) = convert("rig_full.ms3d");
    assert_eq!(model.animations.len(), 1);
    let animation = &model.animations[0];
    assert_eq!(animation.fps, 10.0);
    assert!(
        (animation.duration - 2.0).abs() < EPS,
        "20 frames at 10 fps"
    );
    assert_eq!(animation.tracks.len(), 2, "hand and arm have keys");
    // arm: bind at (0,1,0) rotated 90° about Z. The key (1,0,0) moves it along its own X,
    // i.e. the parent's +Y: pos + R(rot)·key = (0,1,0) + (0,1,0).
    let arm = animation.track(JointId(2)).unwrap();
    assert_eq!(arm.translations[0].time, 0.5);
    assert!(close(arm.translations[0].value, Vec3::new(0.0, 2.0, 0.0)));
    // Rotation key 90° about X after the bind's 90° about Z: +Y → +Z (by X, Z keeps it),
    // +X → +X (by X) → +Y (by Z).
    let q = arm.rotations[0].value;
    assert!(close(q * Vec3::Y, Vec3::Z) && close(q * Vec3::X, Vec3::Y));
    // hand: bind at (1,0,0), no rotation; keys at 0.1 s (identity) and 1.0 s (90° about Z).
    let hand = animation.track(JointId(1)).unwrap();
    assert!(close(hand.translations[0].value, Vec3::X));
    let times: Vec<f32> = hand.rotations.iter().map(|k| k.time).collect();
    assert_eq!(times, vec![0.1, 1.0]);
    assert!(same_rotation(hand.rotations[0].value, Quat::IDENTITY));
    assert!(close(hand.rotations[1].value * Vec3::X, Vec3::Y));
    assert_eq!(model.comment.as_deref(), Some("made by xtask."));
}

#[test]
fn static_files_have_no_animation() {
    let (_, model, _) = convert("version3_triangle.ms3d");
    assert!(model.animations.is_empty());
    assert_eq!(model.meshes[0].triangles.len(), 1);
}

#[test]
fn losses_name_what_the_model_cannot_carry() {
    let (_, _, report) = convert("rig_full.ms3d");
    let codes: Vec<&str> = report
        .notices
        .iter()
        .filter(|n| n.severity == Severity::Loss)
        .map(|n| n.code.key())
        .collect();
    for code in [
        "smoothing-groups",
        "comments",
        "joint-colours",
        "vertex-extra-words",
        "model-extra",
        "current-time",
    ] {
        assert!(codes.contains(&code), "{code} missing from {report}");
    }
    assert!(!codes.contains(&"flags") && !codes.contains(&"name-bytes"));
    let smoothing = report
        .with_code(rigport_model_core::codes::SMOOTHING_GROUPS)
        .next()
        .unwrap();
    assert!(
        smoothing.message.contains("3 triangles (2 distinct)"),
        "{smoothing}"
    );
    let (_, _, odd) = convert("rig_odd_names_and_flags.ms3d");
    for code in ["flags", "material-mode", "name-bytes"] {
        assert!(
            odd.with_code(code).next().is_some(),
            "{code} missing from {odd}"
        );
    }
}

#[test]
fn latin1_names_decode_and_junk_after_the_nul_is_ignored() {
    let (_, model, _) = convert("rig_odd_names_and_flags.ms3d");
    assert_eq!(model.materials[0].name, "café skin");
    assert_eq!(model.meshes[0].name, "body");
    assert_eq!(model.skeleton.joints[1].name, "hand");
    assert_eq!(model.skeleton.joints[3].parent, Some(JointId(1)));
}

#[test]
fn milkshape_model_milkshape_model_keeps_the_model() {
    let options = ConvertOptions::default();
    let (_, first, _) = convert("rig_full.ms3d");
    let (file, report) = from_model(&first, &options).unwrap();
    assert_eq!(report.count(Severity::Warning), 0, "{report}");
    // Records are shared within a group only: body 4 (record 1 twice), flap 3.
    assert_eq!(file.vertices.len(), 7);
    assert_eq!(file.triangles.len(), 3);
    let bytes = file.to_vec();
    let reread = File::from_slice(&bytes).unwrap();
    assert_eq!(reread.blocks_present().len(), 4);
    let (second, _) = to_model(&reread, &options).unwrap();
    assert_eq!(second.meshes.len(), first.meshes.len());
    for (a, b) in first.meshes.iter().zip(&second.meshes) {
        assert_eq!(a.name, b.name);
        assert_eq!(a.triangles, b.triangles);
        assert_eq!(a.material, b.material);
        assert_eq!(a.vertices.len(), b.vertices.len());
        for (va, vb) in a.vertices.iter().zip(&b.vertices) {
            assert_eq!(
                (va.position, va.normal, va.uv),
                (vb.position, vb.normal, vb.uv)
            );
            let (ia, ib) = (influences(va), influences(vb));
            assert_eq!(ia.len(), ib.len());
            for ((ja, wa), (jb, wb)) in ia.iter().zip(&ib) {
                assert_eq!(ja, jb);
                assert!((wa - wb).abs() < 0.006, "weights are stored in percent");
            }
        }
    }
    for (a, b) in first.skeleton.joints.iter().zip(&second.skeleton.joints) {
        assert_eq!((&a.name, a.parent), (&b.name, b.parent));
        assert!(close(a.translation, b.translation));
        assert!(same_rotation(a.rotation, b.rotation));
    }
    let (a, b) = (&first.animations[0], &second.animations[0]);
    assert_eq!((a.fps, a.duration), (b.fps, b.duration));
    // from_model gives every joint keys: the unanimated ones hold their bind pose.
    assert_eq!(b.tracks.len(), second.skeleton.len());
    for tb in &b.tracks {
        if a.track(tb.joint).is_none() {
            let bind = &second.skeleton.joints[tb.joint.index()];
            assert!(
                tb.translations
                    .iter()
                    .all(|k| close(k.value, bind.translation))
            );
            assert!(
                tb.rotations
                    .iter()
                    .all(|k| same_rotation(k.value, bind.rotation))
            );
        }
    }
    for ta in &a.tracks {
        let tb = b
            .track(ta.joint)
            .expect("an animated joint keeps its track");
        for (ka, kb) in ta.translations.iter().zip(&tb.translations) {
            assert!(ka.time == kb.time && close(ka.value, kb.value));
        }
        for (ka, kb) in ta.rotations.iter().zip(&tb.rotations) {
            assert!(ka.time == kb.time && same_rotation(ka.value, kb.value));
        }
    }
    assert_eq!(first.comment, second.comment);
}

fn triangle_mesh(name: &str) -> Mesh {
    let mut mesh = Mesh::new(name);
    for p in [Vec3::ZERO, Vec3::X, Vec3::Y] {
        mesh.vertices.push(Vertex {
            position: p,
            normal: Vec3::Z,
            ..Vertex::default()
        });
    }
    mesh.triangles.push([0, 1, 2]);
    mesh
}

#[test]
fn from_model_refuses_what_milkshape_cannot_hold() {
    let options = ConvertOptions::default();
    let mut model = Model::default();
    model.skeleton.joints = vec![rigport_model_core::Joint::new("j"); 129];
    assert!(matches!(
        from_model(&model, &options),
        Err(Error::TooMany(TooMany {
            what: "joints",
            count: 129,
            max: 128,
            ..
        }))
    ));
    let model = Model {
        meshes: vec![triangle_mesh("m"); 256],
        ..Model::default()
    };
    assert!(matches!(
        from_model(&model, &options),
        Err(Error::TooMany(TooMany {
            what: "groups",
            count: 256,
            max: 255,
            ..
        }))
    ));
    let model = Model {
        materials: vec![rigport_model_core::Material::named("m"); 129],
        ..Model::default()
    };
    assert!(matches!(
        from_model(&model, &options),
        Err(Error::TooMany(TooMany {
            what: "materials",
            ..
        }))
    ));
    // 65535 distinct positions cannot share records: one more than MAX_VERTICES.
    let mut mesh = Mesh::new("big");
    mesh.vertices = (0..65535)
        .map(|i| Vertex {
            position: Vec3::new(i as f32, 0.0, 0.0),
            ..Vertex::default()
        })
        .collect();
    let model = Model {
        meshes: vec![mesh],
        ..Model::default()
    };
    assert!(matches!(
        from_model(&model, &options),
        Err(Error::TooMany(TooMany {
            what: "vertices",
            count: 65535,
            max: 65534,
            ..
        }))
    ));
    let mut model = Model::default();
    let mut bad = triangle_mesh("bad");
    bad.triangles.push([0, 1, 7]);
    model.meshes.push(bad);
    assert!(matches!(
        from_model(&model, &options),
        Err(Error::InvalidModel(_))
    ));
    let bad_option = ConvertOptions {
        vertex_extra_sub_version: 4,
        ..ConvertOptions::default()
    };
    assert!(matches!(
        from_model(&Model::default(), &bad_option),
        Err(Error::InvalidOption(_))
    ));
}

#[test]
fn from_model_reports_what_it_drops() {
    let mut model = Model::default();
    let mut mesh = triangle_mesh("coloured");
    mesh.has_colors = true;
    model.meshes.push(mesh);
    let mut joint = rigport_model_core::Joint::new("a very long joint name that does not fit");
    joint.scale = Vec3::splat(2.0);
    model.skeleton.joints.push(joint);
    let mut animation = rigport_model_core::Animation::new("walk", 30.0);
    let mut track = rigport_model_core::Track::new(JointId(0));
    track
        .scales
        .push(rigport_model_core::Key::new(0.0, Vec3::ONE));
    animation.tracks.push(track);
    model.animations.push(animation.clone());
    model
        .animations
        .push(rigport_model_core::Animation::new("run", 30.0));
    let (file, report) = from_model(&model, &ConvertOptions::default()).unwrap();
    for code in [
        "vertex-colors",
        "joint-scale",
        "name-truncated",
        "scale-keys",
        "animations-dropped",
    ] {
        assert!(
            report.with_code(code).next().is_some(),
            "{code} missing from {report}"
        );
    }
    assert_eq!(
        &file.joints[0].name[..31],
        &b"a very long joint name that doe"[..]
    );
    assert_eq!(file.joints[0].name[31], 0);
}

#[test]
fn keys_outside_the_timeline_from_damaged_data_are_dropped_and_reported() {
    // Three bytes shifted inside the keys make garbage times; MilkShape cannot place a key
    // before 0 or after its last frame, so such keys are dropped with a warning.
    let (file, model, report) = convert("tail_misaligned_after_joint_keys.ms3d");
    let notice = report
        .with_code(rigport_model_core::codes::KEYS_OUTSIDE_TIMELINE)
        .next()
        .expect("warned");
    assert!(notice.message.starts_with("2 keys"), "{}", notice.message);
    let stored: usize = file
        .joints
        .iter()
        .map(|j| j.rotation_keys.len() + j.translation_keys.len())
        .sum();
    let animation = &model.animations[0];
    let kept: usize = animation.tracks.iter().map(|t| t.key_count()).sum();
    assert_eq!(kept + 2, stored);
    let end = animation.duration + 1.0 / animation.fps;
    for track in &animation.tracks {
        let times = track.translations.iter().map(|k| k.time);
        for time in times.chain(track.rotations.iter().map(|k| k.time)) {
            assert!((0.0..=end).contains(&time), "{time}");
        }
    }
    // An intact file keeps every key.
    let (_, _, clean) = convert("rig_full.ms3d");
    assert_eq!(
        clean
            .with_code(rigport_model_core::codes::KEYS_OUTSIDE_TIMELINE)
            .count(),
        0
    );
}
