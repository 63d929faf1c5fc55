//! A looping IQE animation of N frames at F fps lasts N/F: at (N−1)/F the pose is frame N−1,
//! and from there it blends back to frame 0, reached again at N/F.

use rigport_anim::Pose;
use rigport_iqe::{ConvertOptions, File, from_model, to_model};
use rigport_model_core::Model;
use rigport_model_core::glam::Vec3;

/// Joint 0's local translation in animation `index` at `time` seconds.
fn translation(model: &Model, index: usize, time: f32) -> Vec3 {
    let (pose, _) = rigport_anim::sample_model(model, index, time).expect("poses");
    pose.local_transforms()[0].translation
}

fn model_of(bytes: &[u8]) -> Model {
    let file = File::from_slice(bytes).unwrap_or_else(|e| panic!("{}", e.render(bytes)));
    to_model(&file, &ConvertOptions::default()).unwrap().0
}

const WALK: &[u8] = b"# Inter-Quake Export
joint root -1
pq 0 0 0 0 0 0 1
animation walk
framerate 10
loop
frame 0
pq 0 0 0 0 0 0 1
frame 1
pq 1 0 0 0 0 0 1
frame 2
pq 2 0 0 0 0 0 1
frame 3
pq 3 0 0 0 0 0 1
animation once
framerate 10
frame 0
pq 0 0 0 0 0 0 1
frame 1
pq 1 0 0 0 0 0 1
";

#[test]
fn a_looping_animation_lasts_n_frames_and_blends_back_to_frame_0() {
    let model = model_of(WALK);
    let (walk, once) = (&model.animations[0], &model.animations[1]);
    assert!(walk.looping && !once.looping);
    assert_eq!(walk.duration, 0.4, "4 frames at 10 fps");
    assert_eq!(
        once.duration, 0.1,
        "2 frames at 10 fps, not looping: ends on the last"
    );
    let x = |anim, t| translation(&model, anim, t).x;
    assert_eq!(x(0, 0.3), 3.0, "frame 3 at 3/F");
    assert!(
        (x(0, 0.35) - 1.5).abs() < 1e-5,
        "half way from frame 3 back to frame 0"
    );
    assert_eq!(x(0, 0.4), 0.0, "N/F is frame 0");
    assert!((x(0, 0.45) - 0.5).abs() < 1e-5, "the second cycle");
    assert_eq!(
        x(1, 0.15),
        1.0,
        "a non-looping animation holds its last frame"
    );
}

#[test]
fn writing_a_looping_animation_keeps_its_n_frames() {
    let model = model_of(WALK);
    let (file, _) = from_model(&model, &ConvertOptions::default()).unwrap();
    let back = model_of(&file.to_vec());
    assert_eq!(back.animations[0].duration, 0.4);
    let frames = |a: &rigport_model_core::Animation| a.tracks[0].translations.len();
    assert_eq!(
        frames(&back.animations[0]),
        4,
        "no fifth frame repeating frame 0"
    );
    assert_eq!(frames(&back.animations[1]), 2);
    assert_eq!(back.animations, model.animations);
}

#[test]
fn corpus_test_cube_tx_is_at_frame_59_just_before_the_period() {
    let Some(dir) = rigport_test_support::corpus::corpus_dir("iqe") else {
        return;
    };
    let path = dir.join("love-und-panzer__test_cube.iqe");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let model = model_of(&bytes);
    let index = model
        .animations
        .iter()
        .position(|a| a.name == "tx")
        .expect("animation tx");
    let tx = &model.animations[index];
    assert!(tx.looping);
    assert_eq!((tx.fps, tx.duration), (30.0, 2.0), "60 frames at 30 fps");
    // The last frame, 59, at 59/30 s: x = 2.0 (it was frame 0, x = 0, with the period taken
    // as the last key time).
    let at_59 = translation(&model, index, 1.966_666_7);
    assert!((at_59.x - 2.0).abs() < 1e-4, "{at_59}");
    // Half way from frame 59 back to frame 0, then frame 0 again at 2 s.
    let seam = translation(&model, index, 59.5 / 30.0);
    assert!((seam.x - 1.0).abs() < 1e-3, "{seam}");
    assert_eq!(translation(&model, index, 2.0).x, 0.0);
    let mut pose = Pose::new(&model.skeleton).unwrap();
    pose.sample(tx, 1.966_666_7);
    assert!((pose.local_transforms()[0].translation.x - 2.0).abs() < 1e-4);
}
