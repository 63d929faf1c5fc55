//! Rotations at Y = ±90° ± ε (`synth::gimbal`), where `Rz·Ry·Rx` Euler angles lose a degree
//! of freedom, written by this crate and rebuilt by hand from the written numbers the way
//! the IQM SDK reads them (`Quat::fromangles`, in doubles, from the decimal text): every
//! arm's rotation in the reference and at every frame of the animation must come back
//! within 1e-6 radians, which keeps every foot far within 2e-3 of the model's size.
//! (`tests/sdk_posing.rs` compiles the same files with the SDK when it is at hand.)

use rigport_model_core::codec::WriteOptions;
use rigport_model_core::glam::{DQuat, Quat};
use rigport_smd::CODEC;
use rigport_test_support::synth::gimbal::{ARMS, EPSILONS, arm_rotation, gimbal_model};
use std::collections::HashMap;

/// `Quat::fromangles` of the SDK's `util.h`, in doubles.
fn from_angles(x: f64, y: f64, z: f64) -> DQuat {
    let (sx, cx) = (x / 2.0).sin_cos();
    let (sy, cy) = (y / 2.0).sin_cos();
    let (sz, cz) = (z / 2.0).sin_cos();
    DQuat::from_xyzw(
        sx * cy * cz - cx * sy * sz,
        cx * sy * cz + sx * cy * sz,
        cx * cy * sz - sx * sy * cz,
        cx * cy * cz + sx * sy * sz,
    )
}

/// The angle between two rotations, in radians.
fn angle(a: DQuat, b: DQuat) -> f64 {
    let d = a.normalize().conjugate() * b.normalize();
    2.0 * d.xyz().length().atan2(d.w.abs())
}

/// Per `time` block of a written SMD, the bone lines as `(bone name, [rx, ry, rz])`, parsed
/// from the text.
fn frames(text: &str) -> Vec<HashMap<String, [f64; 3]>> {
    let mut names = HashMap::new();
    let mut frames = Vec::new();
    let mut block = "";
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["nodes"] | ["skeleton"] | ["triangles"] => block = words[0],
            ["end"] => block = "",
            ["time", _] => frames.push(HashMap::new()),
            [id, name, _] if block == "nodes" => {
                names.insert(id.to_string(), name.trim_matches('"').to_owned());
            }
            [id, _, _, _, rx, ry, rz] if block == "skeleton" => {
                let value = |s: &str| s.parse::<f64>().unwrap();
                frames
                    .last_mut()
                    .unwrap()
                    .insert(names[*id].clone(), [value(rx), value(ry), value(rz)]);
            }
            _ => {}
        }
    }
    frames
}

#[test]
fn euler_angles_near_the_pole_give_the_rotation_back() {
    let model = gimbal_model();
    let written = CODEC
        .write(&model, "gimbal.smd", &WriteOptions::default())
        .unwrap();
    assert_eq!(written.files.len(), 2);
    let text = |i: usize| String::from_utf8(written.files[i].bytes.clone()).unwrap();
    let reference = frames(&text(0));
    let animation = frames(&text(1));
    assert_eq!((reference.len(), animation.len()), (1, EPSILONS.len()));
    let mut worst = (0.0f64, 0, 0);
    let mut check =
        |pose: &HashMap<String, [f64; 3]>, frame: usize, expected: &dyn Fn(usize) -> Quat| {
            for arm in 0..ARMS {
                let [x, y, z] = pose[&format!("arm{arm}")];
                let gap = angle(from_angles(x, y, z), expected(arm).as_dquat());
                if gap > worst.0 {
                    worst = (gap, frame, arm);
                }
            }
        };
    check(&reference[0], 0, &|arm| {
        model.skeleton.joints[2 * arm + 1].rotation
    });
    for (frame, pose) in animation.iter().enumerate() {
        check(pose, frame, &|arm| arm_rotation(arm, EPSILONS[frame]));
    }
    println!(
        "worst {:.2e} rad (frame {}, arm {})",
        worst.0, worst.1, worst.2
    );
    assert!(worst.0 < 1e-6, "{worst:?}");
}
