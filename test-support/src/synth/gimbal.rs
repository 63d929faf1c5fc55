//! A model whose joints turn at Y = ±90° ± ε, where `Rz·Ry·Rx` Euler angles (MilkShape, SMD)
//! lose one degree of freedom: writers that go through such angles must still give back
//! the rotation.
//!
//! A root with [`ARMS`] arms; arm `a` turns by the Euler angles `(x, s·π/2 + d·ε, z)` for its
//! sign `s`, side `d` and `(x, z)` pair ([`arm_angles`]), with `ε` taken from [`EPSILONS`]:
//! `EPSILONS[0]` (exactly at the pole) in the bind pose, `EPSILONS[f]` at frame `f` of the
//! one animation (30 frames per second). Each arm has a foot one unit along its Z, with a
//! triangle weighted to the foot, so a wrong arm angle moves the foot's vertices.
//!
//! The quaternions are computed in `f64` from the angles and rounded once to `f32`:
//! [`arm_rotation`] gives them back for a by-hand comparison.

use rigport_model_core::glam::{DQuat, EulerRot, Quat, Vec3};
use rigport_model_core::{Animation, Joint, JointId, Key, Mesh, Model, Track, UpAxis, Vertex};

/// The distances from the pole, one per frame (the first also in the bind pose).
pub const EPSILONS: [f64; 7] = [0.0, 1e-7, 1e-6, 1e-5, 1e-4, 3e-4, 1e-3];

/// `(x, z)` pairs of the arms.
const XZ: [(f64, f64); 6] = [
    (0.0, 0.0),
    (0.3, -1.2),
    (2.5, 2.5),
    (-3.0, 1.0),
    (1.0, -1.0),
    (1.3, 0.7),
];

/// Number of arms: both poles, both sides of each, every `(x, z)` pair.
pub const ARMS: usize = 4 * XZ.len();

/// The Euler angles `(x, y, z)` of arm `arm` at distance `epsilon` from its pole.
pub fn arm_angles(arm: usize, epsilon: f64) -> [f64; 3] {
    let (x, z) = XZ[arm % XZ.len()];
    let pole = if (arm / XZ.len()) % 2 == 0 { 1.0 } else { -1.0 };
    let side = if arm / (2 * XZ.len()) == 0 { 1.0 } else { -1.0 };
    [x, pole * std::f64::consts::FRAC_PI_2 + side * epsilon, z]
}

/// `Rz·Ry·Rx` of arm `arm` at `epsilon`, in `f64` and rounded to `f32`.
pub fn arm_rotation(arm: usize, epsilon: f64) -> Quat {
    let [x, y, z] = arm_angles(arm, epsilon);
    DQuat::from_euler(EulerRot::ZYX, z, y, x)
        .normalize()
        .as_quat()
}

/// The model: joint 0 the root, then per arm the arm (`2a + 1`) and its foot (`2a + 2`).
pub fn gimbal_model() -> Model {
    let mut model = Model {
        up: UpAxis::Z,
        ..Model::default()
    };
    model.skeleton.joints.push(Joint::new("root"));
    let mut mesh = Mesh::new("feet");
    let mut animation = Animation::new("turn", 30.0);
    animation.duration = (EPSILONS.len() - 1) as f32 / 30.0;
    for arm in 0..ARMS {
        let mut joint = Joint::new(format!("arm{arm}"));
        joint.parent = Some(JointId(0));
        joint.translation = Vec3::new(0.5 * (arm % 6) as f32, 0.5 * (arm / 6) as f32, 0.0);
        joint.rotation = arm_rotation(arm, EPSILONS[0]);
        model.skeleton.joints.push(joint);
        let mut foot = Joint::new(format!("foot{arm}"));
        foot.parent = Some(JointId(2 * arm as u32 + 1));
        foot.translation = Vec3::Z;
        model.skeleton.joints.push(foot);
        let mut track = Track::new(JointId(2 * arm as u32 + 1));
        for (frame, epsilon) in EPSILONS.iter().enumerate() {
            track
                .rotations
                .push(Key::new(frame as f32 / 30.0, arm_rotation(arm, *epsilon)));
        }
        animation.tracks.push(track);
    }
    // Each foot's triangle, placed in the bind pose's model space.
    let mut pose_world = Vec::new();
    for arm in 0..ARMS {
        let joint = &model.skeleton.joints[2 * arm + 1];
        let foot = joint.translation + joint.rotation * Vec3::Z;
        pose_world.push((foot, joint.rotation));
    }
    for (arm, (foot, rotation)) in pose_world.into_iter().enumerate() {
        let first = mesh.vertices.len() as u32;
        for offset in [
            Vec3::ZERO,
            Vec3::new(0.1, 0.0, 0.0),
            Vec3::new(0.0, 0.1, 0.0),
        ] {
            let mut vertex = Vertex {
                position: foot + rotation * offset,
                normal: rotation * Vec3::Z,
                ..Vertex::default()
            };
            vertex.joints[0] = JointId(2 * arm as u32 + 2);
            vertex.weights[0] = 1.0;
            mesh.vertices.push(vertex);
        }
        mesh.triangles.push([first, first + 1, first + 2]);
    }
    model.meshes.push(mesh);
    model.animations.push(animation);
    model
}

/// The angle between two rotations, in radians (in `f64`, either sign of either quaternion).
pub fn angle(a: Quat, b: Quat) -> f64 {
    let d = a.as_dquat().normalize().conjugate() * b.as_dquat().normalize();
    2.0 * d.xyz().length().atan2(d.w.abs())
}

/// The two ways a writer meets the pole: every [`EPSILONS`] model with the arms' bind
/// rotations near it (their own angles), then one with the arms at rest and the keys near
/// it (angles relative to the bind pose).
pub fn near_pole_models() -> Vec<(&'static str, Model)> {
    let mut models = Vec::new();
    for epsilon in EPSILONS {
        let mut model = gimbal_model();
        for arm in 0..ARMS {
            model.skeleton.joints[2 * arm + 1].rotation = arm_rotation(arm, epsilon);
        }
        models.push(("bind pose near the pole", model));
    }
    let mut model = gimbal_model();
    for arm in 0..ARMS {
        model.skeleton.joints[2 * arm + 1].rotation = DQuat::IDENTITY.as_quat();
    }
    models.push(("keys near the pole", model));
    models
}

/// The worst rotation error between `model` and `back` (the model written and read back):
/// the arms' bind rotations and every rotation key of their tracks, which `back` must keep
/// in number.
pub fn worst_rotation_error(model: &Model, back: &Model) -> f64 {
    let mut worst = 0.0f64;
    for arm in 0..ARMS {
        let joint = 2 * arm + 1;
        worst = worst.max(angle(
            back.skeleton.joints[joint].rotation,
            model.skeleton.joints[joint].rotation,
        ));
        let keys = |m: &Model| {
            let track = m.animations[0]
                .tracks
                .iter()
                .find(|t| t.joint.index() == joint);
            track.map(|t| t.rotations.clone()).unwrap_or_default()
        };
        let (written, read) = (keys(model), keys(back));
        assert_eq!(read.len(), written.len(), "arm {arm}: rotation keys");
        for (a, b) in written.iter().zip(&read) {
            worst = worst.max(angle(a.value, b.value));
        }
    }
    worst
}
