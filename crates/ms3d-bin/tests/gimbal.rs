//! Rotations at Y = ±90° ± ε (`synth::gimbal`), where MilkShape's `Rz·Ry·Rx` Euler angles
//! lose a degree of freedom, written by this crate and read back: every arm's bind rotation
//! and every key's rotation must come back within 1e-6 radians, with the arms' bind pose
//! near the pole (the joint's own angles) and with the bind pose at rest and the keys near
//! the pole (the keys' angles, relative to the bind pose).

use rigport_ms3d_bin::{ConvertOptions, File, from_model, to_model};
use rigport_test_support::synth::gimbal::{near_pole_models, worst_rotation_error};

#[test]
fn rotations_near_the_euler_pole_come_back() {
    for (case, model) in near_pole_models() {
        let (file, _) = from_model(&model, &ConvertOptions::default()).unwrap();
        let read = File::from_slice(&file.to_vec()).unwrap();
        let (back, _) = to_model(&read, &ConvertOptions::default()).unwrap();
        let worst = worst_rotation_error(&model, &back);
        println!("{case}: worst {worst:.2e} rad");
        assert!(worst < 1e-6, "{case}: {worst}");
    }
}
