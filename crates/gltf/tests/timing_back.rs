//! An animation written as glTF comes back with its frame rate and loop flag (kept in the
//! animation's `extras`), and a looping one without the wrap keys the writer adds for glTF
//! players: the same keys and the same length as before.

use glam::{Quat, Vec3};
use rigport_gltf::export::{ExportOptions, to_glb};
use rigport_gltf::import::{GltfFile, ImportOptions, to_model};
use rigport_model_core::{Animation, Joint, JointId, Key, Model, ReadOptions, Skeleton, Track};

/// One joint turning over `frames` frames at `fps`, looping or not.
fn model(fps: f32, frames: u32, looping: bool) -> Model {
    let mut track = Track::new(JointId(0));
    for k in 0..frames {
        let time = k as f32 / fps;
        track
            .rotations
            .push(Key::new(time, Quat::from_rotation_y(0.3 * k as f32)));
        track
            .translations
            .push(Key::new(time, Vec3::new(0.1 * k as f32, 0.0, 0.0)));
    }
    let animation = Animation {
        tracks: vec![track],
        looping,
        duration: frames as f32 / fps,
        ..Animation::new("turn", fps)
    };
    Model {
        skeleton: Skeleton {
            joints: vec![Joint::new("root")],
        },
        animations: vec![animation],
        ..Model::default()
    }
}

fn back(model: &Model) -> Model {
    let (glb, _) = to_glb(model, &ExportOptions::default()).unwrap();
    let (file, _) = GltfFile::from_slice_with(&glb, &ReadOptions::default(), None).unwrap();
    to_model(&file, &ImportOptions::default()).unwrap().0.model
}

#[test]
fn a_looping_animation_comes_back_looping_with_its_own_keys_and_rate() {
    let source = model(29.97, 4, true);
    let read = back(&source);
    let (before, after) = (&source.animations[0], &read.animations[0]);
    assert!(after.looping);
    assert_eq!(after.fps, 29.97);
    assert!(
        (after.duration - before.duration).abs() < 1e-6,
        "{}",
        after.duration
    );
    let (t0, t1) = (&before.tracks[0], &after.tracks[0]);
    assert_eq!(t1.rotations.len(), t0.rotations.len());
    assert_eq!(t1.translations.len(), t0.translations.len());
    for (a, b) in t0.rotations.iter().zip(&t1.rotations) {
        assert!((a.time - b.time).abs() < 1e-6 && a.value.dot(b.value).abs() > 1.0 - 1e-6);
    }
}

#[test]
fn an_animation_that_does_not_loop_keeps_every_key() {
    let source = model(24.0, 5, false);
    let read = back(&source);
    let after = &read.animations[0];
    assert!(!after.looping);
    assert_eq!(after.fps, 24.0);
    assert_eq!(after.tracks[0].rotations.len(), 5);
}

#[test]
fn keys_between_frames_keep_the_rate_the_file_declares() {
    // MilkShape ASCII keys at fractional frames (4.41 of a 24 fps timeline): the rate kept
    // in `extras.fps` comes back, though no key time but 0 is on one of its frames.
    let mut source = model(24.0, 3, false);
    for key in &mut source.animations[0].tracks[0].rotations {
        key.time *= 25.0 / 34.0;
    }
    for key in &mut source.animations[0].tracks[0].translations {
        key.time *= 25.0 / 34.0;
    }
    let read = back(&source);
    assert_eq!(read.animations[0].fps, 24.0);
    let times: Vec<f32> = read.animations[0].tracks[0]
        .rotations
        .iter()
        .map(|k| k.time)
        .collect();
    let frames: Vec<f32> = times.iter().map(|t| t * 24.0).collect();
    assert!((frames[1] - 25.0 / 34.0).abs() < 1e-4, "{frames:?}");
}
