//! Properties that hold for any skeleton, animation and mesh (proptest).

use glam::{Mat3, Quat, Vec3};
use proptest::prelude::*;
use rigport_anim::euler::euler_to_quat;
use rigport_anim::skin::skin_vertices;
use rigport_anim::{Pose, normalize_animation};
use rigport_model_core::{Animation, Interpolation, Joint, JointId, Key, Skeleton, Track, Vertex};

fn vec3(range: f32) -> impl Strategy<Value = Vec3> {
    (-range..range, -range..range, -range..range).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn rotation() -> impl Strategy<Value = Quat> {
    vec3(std::f32::consts::PI).prop_map(euler_to_quat)
}

fn interpolation() -> impl Strategy<Value = Interpolation> {
    prop_oneof![
        Just(Interpolation::Linear),
        Just(Interpolation::Step),
        Just(Interpolation::Cubic)
    ]
}

/// 1–8 joints with any parent order: each joint's parent is another joint in a random
/// acyclic arrangement (parents may come after children), with rotations, translations and
/// optionally a non-unit scale.
fn skeleton(with_scale: bool) -> impl Strategy<Value = Skeleton> {
    (1usize..8).prop_flat_map(move |count| {
        (
            Just(count).prop_shuffle_indices(),
            proptest::collection::vec((vec3(3.0), rotation(), 0.5f32..2.0, any::<bool>()), count),
        )
            .prop_map(move |(rank, joints)| {
                // `rank[i]` is joint i's place in a topological order; a joint's parent is
                // the joint ranked just before it, or none at every other place.
                let by_rank: Vec<usize> = {
                    let mut v: Vec<usize> = (0..rank.len()).collect();
                    v.sort_by_key(|&i| rank[i]);
                    v
                };
                let joints = joints
                    .into_iter()
                    .enumerate()
                    .map(|(i, (t, r, s, root))| Joint {
                        parent: (rank[i] > 0 && !root)
                            .then(|| JointId(by_rank[rank[i] - 1] as u32)),
                        translation: t,
                        rotation: r,
                        scale: if with_scale {
                            Vec3::splat(s)
                        } else {
                            Vec3::ONE
                        },
                        ..Joint::new(format!("j{i}"))
                    })
                    .collect();
                Skeleton { joints }
            })
    })
}

trait ShuffleIndices {
    fn prop_shuffle_indices(self) -> BoxedStrategy<Vec<usize>>;
}

impl ShuffleIndices for Just<usize> {
    fn prop_shuffle_indices(self) -> BoxedStrategy<Vec<usize>> {
        Just((0..self.0).collect::<Vec<usize>>())
            .prop_shuffle()
            .boxed()
    }
}

/// Vertices with 1–4 influences on joints `< joints`, weights summing to 1.
fn vertices(joints: usize) -> impl Strategy<Value = Vec<Vertex>> {
    let vertex = (
        vec3(5.0),
        vec3(1.0),
        proptest::collection::vec((0..joints as u32, 0.05f32..1.0), 1..=4),
    )
        .prop_map(|(position, normal, influences)| {
            let mut v = Vertex {
                position,
                normal: normal.try_normalize().unwrap_or(Vec3::Z),
                ..Vertex::default()
            };
            let total: f32 = influences.iter().map(|i| i.1).sum();
            for (slot, (joint, weight)) in influences.into_iter().enumerate() {
                v.joints[slot] = JointId(joint);
                v.weights[slot] = weight / total;
            }
            v
        });
    proptest::collection::vec(vertex, 1..24)
}

proptest! {
    #[test]
    fn euler_to_quat_is_unit_and_equals_rz_ry_rx(angles in vec3(7.0)) {
        let q = euler_to_quat(angles);
        prop_assert!((q.length() - 1.0).abs() < 1e-5);
        let m = Mat3::from_rotation_z(angles.z)
            * Mat3::from_rotation_y(angles.y)
            * Mat3::from_rotation_x(angles.x);
        prop_assert!(Mat3::from_quat(q).abs_diff_eq(m, 1e-5), "{q} vs {m}");
    }

    #[test]
    fn keys_equal_to_the_bind_pose_leave_every_vertex_in_place(
        (skeleton, bind) in skeleton(true).prop_flat_map(|s| {
            let n = s.joints.len();
            (Just(s), vertices(n))
        }),
        mode in interpolation(),
        looping in any::<bool>(),
        time in -1.0f32..3.0,
    ) {
        // Every joint gets a track whose keys (at 0, 0.5 and 1 s) equal its bind values,
        // with rotations stored as q or −q at random-looking places.
        let mut anim = Animation { interpolation: mode, looping, ..Animation::new("bind", 30.0) };
        for (i, joint) in skeleton.joints.iter().enumerate() {
            let mut track = Track::new(JointId(i as u32));
            for (k, t) in [0.0f32, 0.5, 1.0].into_iter().enumerate() {
                let sign = if (i + k) % 2 == 0 { 1.0 } else { -1.0 };
                track.translations.push(Key::new(t, joint.translation));
                track.rotations.push(Key::new(t, joint.rotation * sign));
                track.scales.push(Key::new(t, joint.scale));
            }
            anim.tracks.push(track);
        }
        prop_assert!(normalize_animation(&mut anim, skeleton.joints.len()).is_empty());
        let mut pose = Pose::new(&skeleton).unwrap();
        pose.sample(&anim, time);
        let mut posed = bind.clone();
        skin_vertices(pose.skinning_matrices(), &mut posed);
        for (a, b) in bind.iter().zip(&posed) {
            prop_assert!((a.position - b.position).length() < 1e-3, "{} -> {}", a.position, b.position);
            prop_assert!((a.normal - b.normal).length() < 1e-3, "{} -> {}", a.normal, b.normal);
        }
    }

    #[test]
    fn all_weight_on_one_joint_is_rigid(
        skeleton in skeleton(false),
        triangle in (vec3(5.0), vec3(5.0), vec3(5.0)),
        joint_pick in any::<prop::sample::Index>(),
        keys in proptest::collection::vec((0.0f32..2.0, vec3(3.0), rotation()), 1..5),
        mode in interpolation(),
        time in -0.5f32..2.5,
    ) {
        // Scale stays 1, so every skinning matrix is a rotation plus a translation and each
        // rigidly bound triangle keeps its edge lengths.
        let joint = JointId(joint_pick.index(skeleton.joints.len()) as u32);
        let mut anim = Animation { interpolation: mode, ..Animation::new("move", 30.0) };
        for i in 0..skeleton.joints.len() {
            let mut track = Track::new(JointId(i as u32));
            for &(t, translation, rotation) in &keys {
                track.translations.push(Key::new(t, translation));
                track.rotations.push(Key::new(t, rotation));
            }
            anim.tracks.push(track);
        }
        normalize_animation(&mut anim, skeleton.joints.len());
        let mut pose = Pose::new(&skeleton).unwrap();
        pose.sample(&anim, time);
        let (a, b, c) = triangle;
        let mut corners: Vec<Vertex> = [a, b, c]
            .into_iter()
            .map(|position| Vertex {
                position,
                joints: [joint; 4],
                weights: [1.0, 0.0, 0.0, 0.0],
                ..Vertex::default()
            })
            .collect();
        skin_vertices(pose.skinning_matrices(), &mut corners);
        let edges = |p: [Vec3; 3]| [p[0].distance(p[1]), p[1].distance(p[2]), p[2].distance(p[0])];
        let before = edges([a, b, c]);
        let after = edges([corners[0].position, corners[1].position, corners[2].position]);
        for (x, y) in before.iter().zip(after) {
            prop_assert!((x - y).abs() < 1e-3, "{before:?} -> {after:?}");
        }
    }
}
