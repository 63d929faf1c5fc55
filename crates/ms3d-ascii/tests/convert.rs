//! Conversions to and from the neutral model, with expectations worked out by hand.

mod common;

use rigport_model_core::glam::{Quat, Vec3};
use rigport_model_core::{JointId, MaterialId, Mesh, Model, Severity, Vertex};
use rigport_ms3d_ascii::{ConvertOptions, Error, File, from_model, to_model};

fn read(name: &str) -> File {
    let bytes = std::fs::read(common::fixture_dir().join(name)).unwrap();
    File::from_slice(&bytes).unwrap()
}

fn close(a: Vec3, b: Vec3) -> bool {
    (a - b).length() < 1e-5
}

#[test]
fn keys_become_seconds_and_absolute_local_transforms() {
    let (model, report) =
        to_model(&read("lf_skinned_quad.txt"), &ConvertOptions::default()).unwrap();
    assert_eq!(report.count(Severity::Warning), 0, "{report}");
    let animation = &model.animations[0];
    assert_eq!(animation.fps, 24.0);
    // Frames: 24 at 24 fps is one second.
    assert_eq!(animation.duration, 1.0);

    // "tip": bind at (0,1,0) turned 90° about Z; key at frame 12 moves 1 along its own +X,
    // which the bind rotation turns into parent +Y: (0,1,0) + (0,1,0) = (0,2,0) at 0.5 s.
    let tip = animation.track(JointId(1)).unwrap();
    assert_eq!(tip.translations.len(), 1);
    assert_eq!(tip.translations[0].time, 0.5);
    assert!(
        close(tip.translations[0].value, Vec3::new(0.0, 2.0, 0.0)),
        "{:?}",
        tip.translations[0]
    );
    assert!(tip.rotations.is_empty());

    // "root": frame 1 is 1/24 s; frame 24 rotates 90° about Z, taking +X to +Y.
    let root = animation.track(JointId(0)).unwrap();
    assert_eq!(root.rotations[0].time, 1.0 / 24.0);
    assert!(close(root.rotations[1].value * Vec3::X, Vec3::Y));
    assert!(close(root.translations[1].value, Vec3::new(0.0, 2.0, 0.0)));

    // Skeleton: tip's parent is root; its bind rotation is the Euler angles as a quaternion.
    let tip_joint = &model.skeleton.joints[1];
    assert_eq!(tip_joint.parent, Some(JointId(0)));
    assert!(close(tip_joint.rotation * Vec3::X, Vec3::Y));

    // One bone per vertex, weight 1; material 0; UVs as stored.
    let mesh = &model.meshes[0];
    assert_eq!(mesh.material, Some(MaterialId(0)));
    let bones: Vec<(JointId, f32)> = mesh
        .vertices
        .iter()
        .map(|v| (v.joints[0], v.weights[0]))
        .collect();
    assert_eq!(
        bones,
        [
            (JointId(0), 1.0),
            (JointId(0), 1.0),
            (JointId(1), 1.0),
            (JointId(1), 1.0)
        ]
    );
    assert_eq!(mesh.vertices[0].uv.to_array(), [0.0, 1.0]);
    assert_eq!(mesh.triangles, [[0, 1, 2], [0, 2, 3]]);
}

#[test]
fn a_forced_frame_rate_scales_times() {
    let options = ConvertOptions::with_fps(30.0);
    let (model, _) = to_model(&read("lf_skinned_quad.txt"), &options).unwrap();
    assert_eq!(
        model.animations[0].track(JointId(1)).unwrap().translations[0].time,
        12.0 / 30.0
    );
    let error = to_model(&read("lf_skinned_quad.txt"), &ConvertOptions::with_fps(0.0))
        .map(|_| ())
        .unwrap_err();
    assert!(
        matches!(&error, Error::InvalidOption(message) if message.starts_with("frame rate 0")),
        "{error}"
    );
}

#[test]
fn vertex_normal_pairs_weld_in_vertex_order() {
    let (model, report) =
        to_model(&read("crlf_normals_differ.txt"), &ConvertOptions::default()).unwrap();
    let mesh = &model.meshes[0];
    // Triangle 0 uses (v0,n0) (v1,n1) (v2,n2); triangle 1 uses (v0,n3) (v2,n3) (v1,n3).
    // Unified vertices by file vertex, then first use: v0n0 v0n3 v1n1 v1n3 v2n2 v2n3.
    assert_eq!(mesh.vertices.len(), 6);
    assert_eq!(mesh.triangles, [[0, 2, 4], [1, 5, 3]]);
    assert_eq!(mesh.vertices[1].normal, Vec3::X);
    assert_eq!(mesh.vertices[2].position, Vec3::new(2.0, 0.0, 0.0));
    assert_eq!(mesh.material, None);
    // Flags and smoothing groups cannot be carried.
    let flags = report
        .with_code(rigport_model_core::codes::FLAGS)
        .next()
        .unwrap();
    assert!(
        flags
            .message
            .contains("1 meshes, 3 vertices, 2 triangles and 0 bones"),
        "{flags}"
    );
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::SMOOTHING_GROUPS)
            .count(),
        1
    );

    // Back: equal vertex records merge again (3), equal normals merge (4 → 2).
    let (file, _) = from_model(&model, &ConvertOptions::default()).unwrap();
    let back = &file.meshes()[0];
    assert_eq!(back.vertices.len(), 3);
    assert_eq!(back.normals, [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]);
    let corners: Vec<([i32; 3], [i32; 3])> = back
        .triangles
        .iter()
        .map(|t| (t.vertices, t.normals))
        .collect();
    assert_eq!(corners, [([0, 1, 2], [0, 0, 0]), ([0, 2, 1], [1, 1, 1])]);
}

#[test]
fn parents_listed_later_are_found_and_keyless_bones_have_no_track() {
    let (model, report) = to_model(
        &read("parent_later_fractional_keys.txt"),
        &ConvertOptions::default(),
    )
    .unwrap();
    assert!(report.is_empty(), "{report}");
    let parents: Vec<Option<JointId>> = model.skeleton.joints.iter().map(|j| j.parent).collect();
    assert_eq!(parents, [Some(JointId(1)), Some(JointId(2)), None]);
    let animation = &model.animations[0];
    assert_eq!(animation.tracks.len(), 1);
    let keys = &animation.tracks[0].translations;
    assert_eq!(keys[0].time, 0.735294 / 24.0);
    assert_eq!(keys[1].time, 12.25 / 24.0);
}

#[test]
fn latin1_names_decode_and_encode_back() {
    let file = read("latin1_names.txt");
    let (model, report) = to_model(&file, &ConvertOptions::default()).unwrap();
    assert_eq!(model.meshes[0].name, "café*");
    assert_eq!(model.skeleton.joints[0].name, "épaule*");
    // Two mesh names, the material name, its texture path and the bone name.
    let info = report
        .with_code(rigport_model_core::codes::LATIN1_NAMES)
        .next()
        .unwrap();
    assert!(info.message.starts_with("5 names"), "{info}");
    let (back, _) = from_model(&model, &ConvertOptions::default()).unwrap();
    assert_eq!(back.meshes()[0].name, b"caf\xe9*");
    assert_eq!(back.materials()[0].texture, file.materials()[0].texture);
}

#[test]
fn unknown_blocks_with_content_are_reported_lost() {
    let (_, report) = to_model(&read("unknown_blocks.txt"), &ConvertOptions::default()).unwrap();
    let loss = report
        .with_code(rigport_model_core::codes::UNKNOWN_BLOCKS)
        .next()
        .unwrap();
    assert!(loss.message.starts_with("3 blocks"), "{loss}");
    // Empty comment blocks carry nothing and are not reported.
    let (_, report) = to_model(&read("lf_skinned_quad.txt"), &ConvertOptions::default()).unwrap();
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::UNKNOWN_BLOCKS)
            .count(),
        0
    );
}

#[test]
fn missing_parents_and_cycles_become_roots() {
    let text = b"// MilkShape 3D ASCII\nBones: 3\n\"a\"\n\"b\"\n0 0 0 0 0 0 0\n0\n0\n\
\"b\"\n\"a\"\n0 0 0 0 0 0 0\n0\n0\n\"c\"\n\"nobody\"\n0 0 0 0 0 0 0\n0\n0\n";
    let file = File::from_slice(text).unwrap();
    let (model, report) = to_model(&file, &ConvertOptions::default()).unwrap();
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::MISSING_PARENT)
            .count(),
        1
    );
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::JOINT_CYCLE)
            .count(),
        1
    );
    assert!(model.skeleton.joints[2].parent.is_none());
    assert!(rigport_anim::skeleton::parent_first_order(&model.skeleton).is_ok());
}

#[test]
fn several_weights_keep_the_largest_and_report_it() {
    let mut model = Model::default();
    model
        .skeleton
        .joints
        .push(rigport_model_core::Joint::new("a"));
    model
        .skeleton
        .joints
        .push(rigport_model_core::Joint::new("b"));
    let mut mesh = Mesh::new("m");
    let vertex = Vertex {
        joints: [JointId(0), JointId(1), JointId(0), JointId(0)],
        weights: [0.3, 0.7, 0.0, 0.0],
        ..Vertex::default()
    };
    mesh.vertices = vec![vertex; 3];
    mesh.vertices[1].position = Vec3::X;
    mesh.vertices[2].position = Vec3::Y;
    mesh.triangles.push([0, 1, 2]);
    model.meshes.push(mesh);
    let (file, report) = from_model(&model, &ConvertOptions::default()).unwrap();
    assert!(file.meshes()[0].vertices.iter().all(|v| v.bone == 1));
    let loss = report
        .with_code(rigport_model_core::codes::WEIGHTS_DROPPED)
        .next()
        .unwrap();
    assert!(loss.message.starts_with("3 vertices"), "{loss}");
    assert_eq!(loss.severity, Severity::Loss);
}

#[test]
fn model_round_trip_keeps_bones_and_keys() {
    let file = read("lf_skinned_quad.txt");
    let (model, _) = to_model(&file, &ConvertOptions::default()).unwrap();
    let (back, report) = from_model(&model, &ConvertOptions::default()).unwrap();
    assert!(report.is_empty(), "{report}");
    assert_eq!(back.frames(), Some(24));
    for (a, b) in file.bones().iter().zip(back.bones()) {
        assert_eq!(a.name, b.name);
        assert_eq!(a.parent, b.parent);
        assert_eq!(a.position, b.position);
        let (qa, qb) = (euler(a.rotation), euler(b.rotation));
        assert!(qa.dot(qb).abs() > 1.0 - 1e-6);
        for (ka, kb) in a.position_keys.iter().zip(&b.position_keys) {
            assert!((ka.frame - kb.frame).abs() < 1e-4);
            assert!(close(ka.value.into(), kb.value.into()));
        }
        for (ka, kb) in a.rotation_keys.iter().zip(&b.rotation_keys) {
            assert!(euler(ka.value).dot(euler(kb.value)).abs() > 1.0 - 1e-6);
        }
    }
    // The mesh comes back identical: no vertex was used with two normals.
    assert_eq!(
        back.meshes()[0].vertices,
        file.meshes()[0]
            .vertices
            .iter()
            .map(|v| { rigport_ms3d_ascii::Vertex { flags: 0, ..*v } })
            .collect::<Vec<_>>()
    );
}

fn euler(angles: [f32; 3]) -> Quat {
    rigport_anim::euler::euler_to_quat(Vec3::from(angles))
}

#[test]
fn a_frame_rate_other_than_24_is_reported_as_not_stored() {
    use rigport_model_core::{Animation, Joint, codes};
    let mut model = Model::default();
    model.skeleton.joints.push(Joint::new("root"));
    model.animations.push(Animation::new("run", 30.0));
    let (_, report) = from_model(&model, &ConvertOptions::default()).unwrap();
    let lost: Vec<String> = report
        .with_code(codes::FRAMERATE)
        .map(|d| d.message.clone())
        .collect();
    assert_eq!(lost.len(), 1, "{report}");
    assert!(lost[0].contains("30 fps"), "{}", lost[0]);
    model.animations[0].fps = 24.0;
    let (_, report) = from_model(&model, &ConvertOptions::default()).unwrap();
    assert_eq!(report.with_code(codes::FRAMERATE).count(), 0, "{report}");
}

#[test]
fn from_model_reports_the_loop_flag_and_refuses_dangling_parents() {
    use rigport_model_core::{Animation, Joint, ReferenceProblem};
    let mut model = Model::default();
    model.skeleton.joints.push(Joint::new("root"));
    let mut animation = Animation::new("loop", 24.0);
    animation.looping = true;
    model.animations.push(animation);
    let (_, report) = from_model(&model, &ConvertOptions::default()).unwrap();
    assert_eq!(
        report.with_code(rigport_model_core::codes::LOOPING).count(),
        1,
        "{report}"
    );
    // One rule for all writers: a model pointing at what it does not have is refused.
    model.skeleton.joints[0].parent = Some(JointId(9));
    let error = from_model(&model, &ConvertOptions::default()).unwrap_err();
    let problem = model.check_references().into_iter().next().unwrap();
    assert!(
        matches!(problem, ReferenceProblem::JointParent { .. }),
        "{problem}"
    );
    assert!(
        matches!(&error, Error::InvalidModel(message) if *message == problem.to_string()),
        "{error}"
    );
}
