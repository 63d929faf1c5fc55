//! One rule for a joint with several tracks in one animation: the first wins. A model whose
//! joint has two tracks, written as `.ms3d`, MilkShape ASCII and `.iqe` and read back,
//! animates with the first track in every format, and each writer reports the second as a
//! loss (`track-joint-duplicate`). Posing the model itself agrees.

//!
//! It lives with the facade, not in `rigport-anim`, because it needs the format crates: the
//! semantics crate must not depend on them, not even for tests.

use rigport_anim::{Pose, normalize_animation, sample_model};
use rigport_model_core::glam::{Quat, Vec3};
use rigport_model_core::{Animation, Joint, JointId, Key, Model, Report, Track, codes};

/// One root joint at (0, 1, 0); an animation at 10 fps whose first track moves it along X
/// and turns it about Z, and whose second track (the loser) moves it along Y.
fn model_with_two_tracks() -> Model {
    let mut model = Model::default();
    model.skeleton.joints.push(Joint {
        translation: Vec3::Y,
        ..Joint::new("root")
    });
    let mut animation = Animation::new("move", 10.0);
    let mut first = Track::new(JointId(0));
    first.translations = vec![
        Key::new(0.1, Vec3::new(1.0, 1.0, 0.0)),
        Key::new(0.3, Vec3::new(3.0, 1.0, 0.0)),
    ];
    first.rotations = vec![
        Key::new(0.1, Quat::IDENTITY),
        Key::new(0.3, Quat::from_rotation_z(0.5)),
    ];
    let mut second = Track::new(JointId(0));
    second.translations = vec![
        Key::new(0.1, Vec3::new(0.0, 10.0, 0.0)),
        Key::new(0.3, Vec3::new(0.0, 30.0, 0.0)),
    ];
    second.rotations = vec![Key::new(0.1, Quat::from_rotation_x(1.0))];
    animation.tracks = vec![first, second];
    animation.duration = 0.3;
    model.animations.push(animation);
    model
}

/// The first track's value at 0.2 s (half way): x = 2, turned 0.25 rad about Z.
fn assert_first_track(model: &Model, what: &str) {
    let (pose, _) = sample_model(model, 0, 0.2).expect(what);
    let local = pose.local_transforms()[0];
    assert!(
        (local.translation - Vec3::new(2.0, 1.0, 0.0)).length() < 1e-4,
        "{what}: {local:?}"
    );
    let expected = Quat::from_rotation_z(0.25);
    assert!(
        local.rotation.dot(expected).abs() > 1.0 - 1e-6,
        "{what}: {local:?}"
    );
}

fn reports_duplicate(report: &Report, what: &str) {
    let notice = report
        .with_code(codes::TRACK_JOINT_DUPLICATE)
        .next()
        .unwrap_or_else(|| panic!("{what}: no duplicate-track loss in\n{report}"));
    assert_eq!(
        notice.severity,
        rigport_model_core::Severity::Loss,
        "{what}"
    );
}

#[test]
fn posing_and_normalizing_keep_the_first_track() {
    let model = model_with_two_tracks();
    assert_first_track(&model, "the model");
    let mut animation = model.animations[0].clone();
    let report = normalize_animation(&mut animation, 1);
    assert_eq!(animation.tracks.len(), 1);
    assert_eq!(animation.tracks[0], model.animations[0].tracks[0]);
    assert_eq!(report.with_code(codes::TRACK_JOINT_DUPLICATE).count(), 1);
    // Pose::sample on the animation as it is (not normalized) agrees.
    let mut pose = Pose::new(&model.skeleton).unwrap();
    pose.sample(&model.animations[0], 0.3);
    assert_eq!(pose.local_transforms()[0].translation.x, 3.0);
}

#[test]
fn ms3d_binary_animates_with_the_first_track() {
    use rigport_ms3d_bin::{ConvertOptions, File, from_model, to_model};
    let (file, report) = from_model(&model_with_two_tracks(), &ConvertOptions::default()).unwrap();
    reports_duplicate(&report, ".ms3d");
    let read = File::from_slice(&file.to_vec()).unwrap();
    let (back, _) = to_model(&read, &ConvertOptions::default()).unwrap();
    assert_first_track(&back, ".ms3d");
}

#[test]
fn ms3d_ascii_animates_with_the_first_track() {
    use rigport_ms3d_ascii::{ConvertOptions, File, from_model, to_model};
    let (file, report) = from_model(&model_with_two_tracks(), &ConvertOptions::default()).unwrap();
    reports_duplicate(&report, ".txt");
    let read = File::from_slice(&file.to_vec()).unwrap();
    let (back, _) = to_model(&read, &ConvertOptions::with_fps(10.0)).unwrap();
    assert_first_track(&back, ".txt");
}

#[test]
fn iqe_animates_with_the_first_track() {
    use rigport_iqe::{ConvertOptions, File, from_model, to_model};
    let (file, report) = from_model(&model_with_two_tracks(), &ConvertOptions::default()).unwrap();
    reports_duplicate(&report, ".iqe");
    let read = File::from_slice(&file.to_vec()).unwrap();
    let (back, _) = to_model(&read, &ConvertOptions::default()).unwrap();
    assert_first_track(&back, ".iqe");
}
