//! Posing and skinning checked against positions worked out by hand (in the comments).

use glam::{Quat, Vec3};
use rigport_anim::euler::euler_to_quat;
use rigport_anim::milkshape::{absolute_rotation, absolute_translation};
use rigport_anim::skin::skin_vertex;
use rigport_anim::{Pose, PoseError, pose_model, posed_meshes};
use rigport_model_core::{
    Animation, Interpolation, Joint, JointId, Key, Mesh, Model, Skeleton, Track, Vertex,
};
use std::f32::consts::FRAC_PI_2;

fn joint(name: &str, parent: Option<u32>, translation: Vec3, rotation: Quat) -> Joint {
    Joint {
        parent: parent.map(JointId),
        translation,
        rotation,
        ..Joint::new(name)
    }
}

/// A vertex at `position` with normal `normal`, fully on `joint`.
fn rigid(position: Vec3, normal: Vec3, joint: u32) -> Vertex {
    Vertex {
        position,
        normal,
        joints: [JointId(joint), JointId(0), JointId(0), JointId(0)],
        weights: [1.0, 0.0, 0.0, 0.0],
        ..Vertex::default()
    }
}

/// A track holding one rotation (and optionally one translation) from t = 0.
fn held(joint: u32, rotation: Quat, translation: Option<Vec3>) -> Track {
    let mut track = Track::new(JointId(joint));
    track.rotations.push(Key::new(0.0, rotation));
    track
        .translations
        .extend(translation.map(|t| Key::new(0.0, t)));
    track
}

fn animation(tracks: Vec<Track>) -> Animation {
    Animation {
        tracks,
        ..Animation::new("test", 30.0)
    }
}

fn assert_near(actual: Vec3, expected: Vec3, what: &str) {
    assert!(
        (actual - expected).length() < 1e-5,
        "{what}: got {actual}, expected {expected}"
    );
}

#[test]
fn one_joint_rotated_90_degrees_about_each_axis() {
    // Joint bound at (0,1,0); vertex at (1,1,1), i.e. (1,0,1) from the joint, normal +Z.
    // Rx(90°): (x,y,z) → (x,−z,y): offset → (1,−1,0), world (1,0,0); +Z → −Y.
    // Ry(90°): (x,y,z) → (z,y,−x): offset → (1,0,−1), world (1,1,−1); +Z → +X.
    // Rz(90°): (x,y,z) → (−y,x,z): offset → (0,1,1), world (0,2,1); +Z → +Z.
    let skeleton = Skeleton {
        joints: vec![joint("j", None, Vec3::Y, Quat::IDENTITY)],
    };
    let vertex = rigid(Vec3::ONE, Vec3::Z, 0);
    let cases = [
        (
            Vec3::new(FRAC_PI_2, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            -Vec3::Y,
        ),
        (
            Vec3::new(0.0, FRAC_PI_2, 0.0),
            Vec3::new(1.0, 1.0, -1.0),
            Vec3::X,
        ),
        (
            Vec3::new(0.0, 0.0, FRAC_PI_2),
            Vec3::new(0.0, 2.0, 1.0),
            Vec3::Z,
        ),
    ];
    let mut pose = Pose::new(&skeleton).unwrap();
    for (euler, position, normal) in cases {
        pose.sample(&animation(vec![held(0, euler_to_quat(euler), None)]), 0.5);
        let (p, n) = skin_vertex(pose.skinning_matrices(), &vertex);
        assert_near(p, position, &format!("position for {euler}"));
        assert_near(n, normal, &format!("normal for {euler}"));
    }
}

/// Root at the origin, child 2 along the root's X; both turned 90° about Z by the animation.
/// A vertex on the root at (1,0,0) goes to Rz(90°)·(1,0,0) = (0,1,0). A vertex on the child
/// at (3,0,0) is (1,0,0) from the child; posed it is
/// Rz·(T(2,0,0)·Rz·(1,0,0)) = Rz·((2,0,0) + (0,1,0)) = Rz·(2,1,0) = (−1,2,0).
fn check_two_joint_chain(root: u32, child: u32, joints: Vec<Joint>) {
    let skeleton = Skeleton { joints };
    let turn = Quat::from_rotation_z(FRAC_PI_2);
    let anim = animation(vec![held(root, turn, None), held(child, turn, None)]);
    let mut pose = Pose::new(&skeleton).unwrap();
    pose.sample(&anim, 0.0);
    let skin = pose.skinning_matrices();
    let on_root = rigid(Vec3::X, Vec3::X, root);
    let on_child = rigid(Vec3::new(3.0, 0.0, 0.0), Vec3::X, child);
    assert_near(skin_vertex(skin, &on_root).0, Vec3::Y, "root vertex");
    assert_near(
        skin_vertex(skin, &on_child).0,
        Vec3::new(-1.0, 2.0, 0.0),
        "child vertex",
    );
    // The child's normal turned twice: +X → +Y → −X.
    assert_near(skin_vertex(skin, &on_child).1, -Vec3::X, "child normal");
    // World origin of the child: Rz·(2,0,0) = (0,2,0).
    let origin = pose.world_matrices()[child as usize].transform_point3(Vec3::ZERO);
    assert_near(origin, Vec3::new(0.0, 2.0, 0.0), "child origin");
}

#[test]
fn two_joint_chain() {
    check_two_joint_chain(
        0,
        1,
        vec![
            joint("root", None, Vec3::ZERO, Quat::IDENTITY),
            joint("child", Some(0), Vec3::new(2.0, 0.0, 0.0), Quat::IDENTITY),
        ],
    );
}

#[test]
fn child_listed_before_its_parent() {
    check_two_joint_chain(
        1,
        0,
        vec![
            joint("child", Some(1), Vec3::new(2.0, 0.0, 0.0), Quat::IDENTITY),
            joint("root", None, Vec3::ZERO, Quat::IDENTITY),
        ],
    );
}

#[test]
fn vertex_split_half_and_half_between_two_joints() {
    // Two roots at the origin: A moves by (2,0,0), B turns 90° about Z. The vertex at
    // (1,0,0) goes to (3,0,0) with A and to (0,1,0) with B; half of each is (1.5,0.5,0).
    // The blended 3×3 is ½(I + Rz(90°)) = (1/√2)·Rz(45°), whose inverse-transpose turns the
    // normal +X by 45° as well: (√½, √½, 0).
    let skeleton = Skeleton {
        joints: vec![
            joint("a", None, Vec3::ZERO, Quat::IDENTITY),
            joint("b", None, Vec3::ZERO, Quat::IDENTITY),
        ],
    };
    let anim = animation(vec![
        held(0, Quat::IDENTITY, Some(Vec3::new(2.0, 0.0, 0.0))),
        held(1, Quat::from_rotation_z(FRAC_PI_2), None),
    ]);
    let mut pose = Pose::new(&skeleton).unwrap();
    pose.sample(&anim, 0.0);
    let vertex = Vertex {
        position: Vec3::X,
        normal: Vec3::X,
        joints: [JointId(0), JointId(1), JointId(0), JointId(0)],
        weights: [0.5, 0.5, 0.0, 0.0],
        ..Vertex::default()
    };
    let (p, n) = skin_vertex(pose.skinning_matrices(), &vertex);
    assert_near(p, Vec3::new(1.5, 0.5, 0.0), "position");
    let h = 0.5_f32.sqrt();
    assert_near(n, Vec3::new(h, h, 0.0), "normal");
}

#[test]
fn milkshape_relative_keys_with_a_turned_bind_and_a_translation_key() {
    // MilkShape joint: bind position (1,0,0), bind rotation 90° about Z. The keys are
    // relative to the bind: translation key (1,0,0), rotation key 90° about X.
    //
    // Absolute local translation = pos + Rz(90°)·k = (1,0,0) + (0,1,0) = (1,1,0).
    // Absolute local rotation    = Rz(90°)·Rx(90°).
    //
    // A vertex (2,1,0) from the joint in its bind frame sits at
    // (1,0,0) + Rz(90°)·(2,1,0) = (1,0,0) + (−1,2,0) = (0,2,0) in the bind pose.
    // Posed: Rx(90°)·(2,1,0) = (2,0,1); Rz(90°)·(2,0,1) = (0,2,1); + (1,1,0) = (1,3,1).
    // assimp and Irrlicht add the key unrotated, giving translation (2,0,0) and the vertex
    // at (2,2,1).
    let bind_pos = Vec3::X;
    let bind_rot = Vec3::new(0.0, 0.0, FRAC_PI_2);
    let key_pos = Vec3::X;
    let key_rot = Vec3::new(FRAC_PI_2, 0.0, 0.0);
    let skeleton = Skeleton {
        joints: vec![joint("bone", None, bind_pos, euler_to_quat(bind_rot))],
    };
    let mut track = Track::new(JointId(0));
    for time in [1.0 / 30.0, 2.0 / 30.0] {
        track.translations.push(Key::new(
            time,
            absolute_translation(bind_pos, bind_rot, key_pos),
        ));
        track
            .rotations
            .push(Key::new(time, absolute_rotation(bind_rot, key_rot)));
    }
    let anim = animation(vec![track]);
    let vertex = rigid(Vec3::new(0.0, 2.0, 0.0), Vec3::Y, 0);
    let mut pose = Pose::new(&skeleton).unwrap();
    assert_near(
        skin_vertex(pose.skinning_matrices(), &vertex).0,
        Vec3::new(0.0, 2.0, 0.0),
        "bind pose",
    );
    pose.sample(&anim, 1.5 / 30.0);
    let (p, n) = skin_vertex(pose.skinning_matrices(), &vertex);
    assert_near(p, Vec3::new(1.0, 3.0, 1.0), "posed");
    assert!((p - Vec3::new(2.0, 2.0, 1.0)).length() > 0.5);
    // Normal: bind +Y is Rz(−90°)·(0,1,0) = +X in the joint frame; Rx(90°) leaves +X and
    // Rz(90°) takes it back to +Y.
    assert_near(n, Vec3::Y, "normal");
}

#[test]
fn looping_animation_wraps_and_non_looping_holds() {
    // Translation 0 → 4 along X over 2 s; at 2.5 s a loop is at 0.5 s (x = 1), a one-shot
    // holds the last key (x = 4).
    let skeleton = Skeleton {
        joints: vec![Joint::new("j")],
    };
    let mut track = Track::new(JointId(0));
    track.translations = vec![
        Key::new(0.0, Vec3::ZERO),
        Key::new(2.0, Vec3::new(4.0, 0.0, 0.0)),
    ];
    let mut anim = animation(vec![track]);
    let mut pose = Pose::new(&skeleton).unwrap();
    let origin = |pose: &Pose| pose.world_matrices()[0].transform_point3(Vec3::ZERO);
    pose.sample(&anim, 2.5);
    assert_near(origin(&pose), Vec3::new(4.0, 0.0, 0.0), "held");
    anim.looping = true;
    pose.sample(&anim, 2.5);
    assert_near(origin(&pose), Vec3::new(1.0, 0.0, 0.0), "wrapped");
    anim.interpolation = Interpolation::Step;
    pose.sample(&anim, 2.5);
    assert_near(origin(&pose), Vec3::ZERO, "stepped");
    pose.set_bind();
    assert_near(origin(&pose), Vec3::ZERO, "bind");
}

fn one_triangle_model() -> Model {
    let mut mesh = Mesh::new("tri");
    for p in [Vec3::ZERO, Vec3::X, Vec3::Y] {
        mesh.vertices.push(rigid(p, Vec3::Z, 1));
    }
    // One vertex bound to no joint stays put whatever the pose.
    mesh.vertices.push(Vertex::default());
    mesh.triangles.push([0, 1, 2]);
    let mut model = Model::default();
    model.meshes.push(mesh);
    model.skeleton.joints = vec![
        joint("root", None, Vec3::ZERO, Quat::IDENTITY),
        joint("arm", Some(0), Vec3::ZERO, Quat::IDENTITY),
    ];
    // The arm moves 5 up Z at t = 0 and turns 90° about Z while moving to 7 at t = 1.
    let mut track = held(1, Quat::IDENTITY, Some(Vec3::new(0.0, 0.0, 5.0)));
    track
        .translations
        .push(Key::new(1.0, Vec3::new(0.0, 0.0, 7.0)));
    track
        .rotations
        .push(Key::new(1.0, Quat::from_rotation_z(FRAC_PI_2)));
    model.animations.push(animation(vec![track]));
    model
}

#[test]
fn pose_model_moves_meshes_and_rebinds_the_skeleton() {
    let model = one_triangle_model();
    let (posed, report) = pose_model(&model, 0, 0.0).unwrap();
    assert!(report.is_empty(), "{report}");
    let positions: Vec<Vec3> = posed.meshes[0]
        .vertices
        .iter()
        .map(|v| v.position)
        .collect();
    assert_eq!(
        positions,
        [
            Vec3::new(0.0, 0.0, 5.0),
            Vec3::new(1.0, 0.0, 5.0),
            Vec3::new(0.0, 1.0, 5.0),
            Vec3::ZERO
        ]
    );
    assert_eq!(
        posed.skeleton.joints[1].translation,
        Vec3::new(0.0, 0.0, 5.0)
    );
    // Re-bound: posing the copy at t = 1 matches posing the original at t = 1, where the
    // arm's (0,0,7)·Rz(90°) takes (1,0,0) to (0,1,7) and (0,1,0) to (−1,0,7).
    let (from_copy, _) = pose_model(&posed, 0, 1.0).unwrap();
    let (from_original, _) = pose_model(&model, 0, 1.0).unwrap();
    let expected = [
        Vec3::new(0.0, 0.0, 7.0),
        Vec3::new(0.0, 1.0, 7.0),
        Vec3::new(-1.0, 0.0, 7.0),
        Vec3::ZERO,
    ];
    for ((a, b), e) in from_copy.meshes[0]
        .vertices
        .iter()
        .zip(&from_original.meshes[0].vertices)
        .zip(expected)
    {
        assert_near(a.position, e, "posed copy re-posed");
        assert_near(b.position, e, "original posed");
    }
    let (meshes, _) = posed_meshes(&model, 0, 0.0).unwrap();
    assert_eq!(meshes, posed.meshes);
}

#[test]
fn pose_model_reports_what_it_cannot_use() {
    let mut model = one_triangle_model();
    assert_eq!(
        pose_model(&model, 3, 0.0).unwrap_err(),
        PoseError::NoSuchAnimation { index: 3, count: 1 }
    );
    model.meshes[0].vertices[0].joints[0] = JointId(40);
    model.animations[0].tracks.push(Track::new(JointId(99)));
    let (posed, report) = pose_model(&model, 0, 0.0).unwrap();
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::SKIN_JOINT_MISSING)
            .count(),
        1
    );
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::TRACK_JOINT_MISSING)
            .count(),
        1
    );
    assert_eq!(posed.meshes[0].vertices[0].position, Vec3::ZERO);
    model.skeleton.joints[0].parent = Some(JointId(1));
    model.skeleton.joints[1].parent = Some(JointId(0));
    let err = pose_model(&model, 0, 0.0).unwrap_err();
    assert!(matches!(err, PoseError::Hierarchy(_)), "{err}");
}
