//! Every joint of a written `.ms3d` has keys, as in every real file with joints: assimp
//! (5.2, the importer most engines use) refuses a file where a joint has none
//! ("aiAnimation::mNumChannels is 0"). A channel the model does not animate gets one key
//! at the first frame holding the bind pose, so posing is unchanged and nothing is reported.

use rigport_anim::sample_model;
use rigport_model_core::glam::{Quat, Vec3};
use rigport_model_core::{Animation, Joint, JointId, Key, Model, Severity, Track};
use rigport_ms3d_bin::{ConvertOptions, File, from_model, to_model};

/// Two joints: a root at (0, 1, 0) and a child turned 0.5 rad about Z.
fn skeleton_model() -> Model {
    let mut model = Model::default();
    model.skeleton.joints.push(Joint {
        translation: Vec3::Y,
        ..Joint::new("root")
    });
    model.skeleton.joints.push(Joint {
        parent: Some(JointId(0)),
        translation: Vec3::X,
        rotation: Quat::from_rotation_z(0.5),
        ..Joint::new("child")
    });
    model
}

/// Written and read back: the faithful file and its model.
fn round_trip(model: &Model) -> (File, Model) {
    let (file, report) = from_model(model, &ConvertOptions::default()).unwrap();
    assert_eq!(report.count(Severity::Loss), 0, "{report}");
    let read = File::from_slice(&file.to_vec()).unwrap();
    let (back, _) = to_model(&read, &ConvertOptions::default()).unwrap();
    (read, back)
}

/// What an assimp-style reader needs: a rotation and a translation key for every joint.
fn assert_every_joint_has_a_channel(file: &File) {
    for joint in &file.joints {
        assert!(
            !joint.rotation_keys.is_empty() && !joint.translation_keys.is_empty(),
            "joint {:?} has no keys",
            String::from_utf8_lossy(&joint.name)
        );
    }
}

#[test]
fn a_model_without_animation_gets_one_bind_key_per_joint_channel() {
    let model = skeleton_model();
    let (file, back) = round_trip(&model);
    assert_every_joint_has_a_channel(&file);
    for joint in &file.joints {
        assert_eq!(joint.rotation_keys.len(), 1);
        assert_eq!(
            joint.translation_keys[0].value, [0.0; 3],
            "relative: the bind pose"
        );
        assert_eq!(
            joint.translation_keys[0].time,
            1.0 / file.keyframer.fps,
            "frame 1"
        );
    }
    // The pose at any time is the bind pose.
    let (pose, _) = sample_model(&back, 0, 0.5).unwrap();
    for (local, joint) in pose.local_transforms().iter().zip(&model.skeleton.joints) {
        assert!((local.translation - joint.translation).length() < 1e-6);
        assert!(local.rotation.dot(joint.rotation).abs() > 1.0 - 1e-6);
    }
}

#[test]
fn unanimated_joints_and_channels_of_an_animation_are_filled_at_its_first_key() {
    let mut model = skeleton_model();
    let mut animation = Animation::new("spin", 10.0);
    let mut track = Track::new(JointId(1));
    // Rotations only, from t = 0: the child's translation channel and the whole root are
    // filled, at 0.
    track.rotations = vec![
        Key::new(0.0, Quat::from_rotation_z(0.5)),
        Key::new(1.0, Quat::from_rotation_z(1.5)),
    ];
    animation.tracks.push(track);
    model.animations.push(animation);
    let (file, back) = round_trip(&model);
    assert_every_joint_has_a_channel(&file);
    assert_eq!(file.joints[0].rotation_keys[0].time, 0.0);
    assert_eq!(file.joints[1].translation_keys.len(), 1);
    assert_eq!(
        file.joints[1].rotation_keys.len(),
        2,
        "the animated channel is as it was"
    );
    // Posing agrees with the model's own animation half way.
    let (original, _) = sample_model(&model, 0, 0.5).unwrap();
    let (written, _) = sample_model(&back, 0, 0.5).unwrap();
    for (a, b) in original
        .world_matrices()
        .iter()
        .zip(written.world_matrices())
    {
        assert!(a.abs_diff_eq(*b, 1e-5), "{a} vs {b}");
    }
}

#[test]
fn every_fixture_with_joints_converted_back_keys_every_joint() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/ms3d");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let Ok(file) = File::from_slice(&std::fs::read(&path).unwrap()) else {
            continue; // the expected failures
        };
        let Ok((model, _)) = to_model(&file, &ConvertOptions::default()) else {
            continue;
        };
        if model.skeleton.is_empty() {
            continue;
        }
        let (written, _) = from_model(&model, &ConvertOptions::default()).unwrap();
        assert_every_joint_has_a_channel(&written);
        checked += 1;
    }
    assert!(checked > 0, "no fixture with joints in {}", dir.display());
}
