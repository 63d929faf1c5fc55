//! Rotations at Y = ±90° ± ε (`synth::gimbal`), where MilkShape's `Rz·Ry·Rx` Euler angles
//! lose a degree of freedom, written by this crate and read back: every arm's bind rotation
//! and every key's rotation must come back within 1e-6 radians, with the arms' bind pose
//! near the pole (the joint's own angles) and with the bind pose at rest and the keys near
//! the pole (the keys' angles, relative to the bind pose).

use rigport_model_core::Model;
use rigport_model_core::glam::{DQuat, Quat};
use rigport_ms3d_ascii::{ConvertOptions, File, from_model, to_model};
use rigport_test_support::synth::gimbal::{ARMS, EPSILONS, arm_rotation, gimbal_model};

/// The angle between two rotations, in radians.
fn angle(a: Quat, b: Quat) -> f64 {
    let d = a.as_dquat().normalize().conjugate() * b.as_dquat().normalize();
    2.0 * d.xyz().length().atan2(d.w.abs())
}

/// The worst rotation error of the arms' bind rotations and of their keys, written and
/// read back.
fn worst_after_round_trip(model: &Model) -> f64 {
    let (file, _) = from_model(model, &ConvertOptions::default()).unwrap();
    let read = File::from_slice(&file.to_vec()).unwrap();
    let (back, _) = to_model(&read, &ConvertOptions::default()).unwrap();
    let mut worst = 0.0f64;
    for arm in 0..ARMS {
        let joint = 2 * arm + 1;
        worst = worst.max(angle(
            back.skeleton.joints[joint].rotation,
            model.skeleton.joints[joint].rotation,
        ));
        let track = |m: &Model| {
            let track = m.animations[0]
                .tracks
                .iter()
                .find(|t| t.joint.index() == joint);
            track.unwrap().rotations.clone()
        };
        let (written, read) = (track(model), track(&back));
        assert_eq!(read.len(), written.len(), "arm {arm}: rotation keys");
        for (a, b) in written.iter().zip(&read) {
            worst = worst.max(angle(a.value, b.value));
        }
    }
    worst
}

#[test]
fn bind_rotations_near_the_euler_pole_come_back() {
    let mut worst = 0.0f64;
    for epsilon in EPSILONS {
        let mut model = gimbal_model();
        for arm in 0..ARMS {
            model.skeleton.joints[2 * arm + 1].rotation = arm_rotation(arm, epsilon);
        }
        worst = worst.max(worst_after_round_trip(&model));
    }
    println!("bind pose near the pole: worst {worst:.2e} rad");
    assert!(worst < 1e-6, "{worst}");
}

#[test]
fn keys_near_the_euler_pole_come_back() {
    let mut model = gimbal_model();
    for arm in 0..ARMS {
        model.skeleton.joints[2 * arm + 1].rotation = DQuat::IDENTITY.as_quat();
    }
    let worst = worst_after_round_trip(&model);
    println!("keys near the pole: worst {worst:.2e} rad");
    assert!(worst < 1e-6, "{worst}");
}
