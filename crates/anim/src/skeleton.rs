//! Bind-pose matrices of a skeleton: local `T·R·S` per joint and world `parent·local`.
//!
//! Parents may be listed after their children, so world matrices are resolved in an order
//! computed first; a parent id that does not exist or a cycle is an error naming the joint,
//! never a stack overflow.

use glam::Mat4;
use rigport_model_core::{Joint, JointId, Report, Skeleton, codes};

/// Why a skeleton's hierarchy cannot be resolved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HierarchyError {
    /// A joint names a parent id past the end of the joint list.
    #[error("joint {joint} `{name}` has parent {parent}, but there are only {count} joints")]
    MissingParent {
        /// The joint.
        joint: JointId,
        /// Its name.
        name: String,
        /// The parent id it names.
        parent: JointId,
        /// Number of joints.
        count: usize,
    },
    /// Following parents from this joint comes back to it.
    #[error("joint {joint} `{name}` is its own ancestor (the hierarchy has a cycle)")]
    Cycle {
        /// A joint on the cycle.
        joint: JointId,
        /// Its name.
        name: String,
    },
}

/// The bind transform of a joint relative to its parent, `T(translation)·R(rotation)·S(scale)`.
pub fn local_bind_matrix(joint: &Joint) -> Mat4 {
    Mat4::from_scale_rotation_translation(joint.scale, joint.rotation, joint.translation)
}

/// Joint ids ordered so that every parent comes before its children.
pub fn parent_first_order(skeleton: &Skeleton) -> Result<Vec<JointId>, HierarchyError> {
    let count = skeleton.joints.len();
    // 0 = not visited, 1 = on the current path, 2 = placed.
    let mut state = vec![0u8; count];
    let mut order = Vec::with_capacity(count);
    let mut path = Vec::new();
    for start in 0..count {
        let mut current = start;
        // Walk up until a placed joint or a root, remembering the path.
        loop {
            match state[current] {
                2 => break,
                1 => {
                    return Err(HierarchyError::Cycle {
                        joint: JointId(current as u32),
                        name: skeleton.joints[current].name.clone(),
                    });
                }
                _ => {}
            }
            state[current] = 1;
            path.push(current);
            match skeleton.joints[current].parent {
                None => break,
                Some(parent) if parent.index() < count => current = parent.index(),
                Some(parent) => {
                    return Err(HierarchyError::MissingParent {
                        joint: JointId(current as u32),
                        name: skeleton.joints[current].name.clone(),
                        parent,
                        count,
                    });
                }
            }
        }
        // The path was walked child→parent; place it parent-first.
        for &joint in path.iter().rev() {
            state[joint] = 2;
            order.push(JointId(joint as u32));
        }
        path.clear();
    }
    Ok(order)
}

/// Makes the skeleton a forest: a joint whose parent does not exist becomes a root
/// (`missing-parent` warning), and of each parent cycle the joint where the walk from the
/// lowest-numbered joint comes back to its own path becomes a root (`joint-cycle`
/// warning). Afterwards [`parent_first_order`] succeeds. Returns the joints made roots.
///
/// One walk over the hierarchy, linear in the number of joints: a skeleton of thousands
/// of two-joint cycles costs no more than a sound one.
pub fn break_cycles(skeleton: &mut Skeleton, report: &mut Report) -> Vec<JointId> {
    const LISTED: usize = 8;
    let count = skeleton.joints.len();
    // 0 = not visited, 1 = on the current path, 2 = placed.
    let mut state = vec![0u8; count];
    let mut path = Vec::new();
    let (mut cut, mut missing) = (Vec::new(), Vec::new());
    for start in 0..count {
        let mut current = start;
        while state[current] == 0 {
            state[current] = 1;
            path.push(current);
            match skeleton.joints[current].parent {
                None => break,
                Some(parent) if parent.index() >= count => {
                    skeleton.joints[current].parent = None;
                    missing.push(current);
                    break;
                }
                Some(parent) if state[parent.index()] == 1 => {
                    // The parent link closes a loop through the current path: cut it.
                    skeleton.joints[parent.index()].parent = None;
                    cut.push(parent.index());
                    break;
                }
                Some(parent) => current = parent.index(),
            }
        }
        for &joint in &path {
            state[joint] = 2;
        }
        path.clear();
    }
    let names = |joints: &[usize]| {
        let mut listed: Vec<String> = joints
            .iter()
            .take(LISTED)
            .map(|&j| format!("{j} `{}`", skeleton.joints[j].name))
            .collect();
        if joints.len() > LISTED {
            listed.push("…".to_owned());
        }
        listed.join(", ")
    };
    if !missing.is_empty() {
        report.warn(
            codes::MISSING_PARENT,
            format!(
                "{} joints name a parent past the last of {count} joints and became roots: {}",
                missing.len(),
                names(&missing)
            ),
        );
    }
    if !cut.is_empty() {
        report.warn(
            codes::JOINT_CYCLE,
            format!(
                "{} joints were their own ancestors (a parent cycle) and became roots: {}",
                cut.len(),
                names(&cut)
            ),
        );
    }
    missing.extend(&cut);
    missing.sort_unstable();
    missing
        .into_iter()
        .filter_map(JointId::from_index)
        .collect()
}

/// World matrices from per-joint local matrices (`world = world(parent)·local`), for any
/// local pose: the bind pose or a sampled animation pose.
pub fn world_matrices(skeleton: &Skeleton, order: &[JointId], locals: &[Mat4]) -> Vec<Mat4> {
    let mut world = vec![Mat4::IDENTITY; locals.len()];
    let parents: Vec<Option<JointId>> = skeleton.joints.iter().map(|j| j.parent).collect();
    world_matrices_into(&parents, order, locals, &mut world);
    world
}

/// [`world_matrices`] without allocating: `parents[i]` is joint `i`'s parent, `order` comes
/// from [`parent_first_order`], and `world` receives one matrix per joint.
///
/// Ids past the end of `locals` or `world` are skipped and a parent past the end of `world`
/// counts as the identity, so mismatched slices give wrong matrices, never a panic.
pub fn world_matrices_into(
    parents: &[Option<JointId>],
    order: &[JointId],
    locals: &[Mat4],
    world: &mut [Mat4],
) {
    for &id in order {
        let i = id.index();
        let Some(&local) = locals.get(i) else {
            continue;
        };
        let parent_world = parents
            .get(i)
            .copied()
            .flatten()
            .and_then(|p| world.get(p.index()).copied());
        if let Some(slot) = world.get_mut(i) {
            *slot = match parent_world {
                Some(parent) => parent * local,
                None => local,
            };
        }
    }
}

/// The world bind matrix of every joint, indexed by [`JointId`].
pub fn world_bind_matrices(skeleton: &Skeleton) -> Result<Vec<Mat4>, HierarchyError> {
    let order = parent_first_order(skeleton)?;
    let locals: Vec<Mat4> = skeleton.joints.iter().map(local_bind_matrix).collect();
    Ok(world_matrices(skeleton, &order, &locals))
}

/// The inverse world bind matrix of every joint (glTF's inverse bind matrices), with the
/// last row forced to exactly `0 0 0 1` so the result is affine to the bit.
pub fn inverse_bind_matrices(skeleton: &Skeleton) -> Result<Vec<Mat4>, HierarchyError> {
    Ok(world_bind_matrices(skeleton)?
        .into_iter()
        .map(|m| {
            let mut inv = m.inverse();
            inv.x_axis.w = 0.0;
            inv.y_axis.w = 0.0;
            inv.z_axis.w = 0.0;
            inv.w_axis.w = 1.0;
            inv
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};
    use std::f32::consts::FRAC_PI_2;

    fn joint(name: &str, parent: Option<u32>, t: Vec3, r: Quat) -> Joint {
        Joint {
            parent: parent.map(JointId),
            translation: t,
            rotation: r,
            ..Joint::new(name)
        }
    }

    #[test]
    fn two_joint_chain_by_hand() {
        // Root at (1,0,0) turned 90° about Z; child 2 along the root's local X.
        // The child's world origin is (1,0,0) + Rz(90°)·(2,0,0) = (1,2,0).
        let skeleton = Skeleton {
            joints: vec![
                joint("root", None, Vec3::X, Quat::from_rotation_z(FRAC_PI_2)),
                joint("child", Some(0), Vec3::new(2.0, 0.0, 0.0), Quat::IDENTITY),
            ],
        };
        let world = world_bind_matrices(&skeleton).unwrap();
        let origin = world[1].transform_point3(Vec3::ZERO);
        assert!(
            (origin - Vec3::new(1.0, 2.0, 0.0)).length() < 1e-6,
            "{origin}"
        );
    }

    #[test]
    fn child_listed_before_parent() {
        let skeleton = Skeleton {
            joints: vec![
                joint("child", Some(1), Vec3::Y, Quat::IDENTITY),
                joint("root", None, Vec3::X, Quat::IDENTITY),
            ],
        };
        let order = parent_first_order(&skeleton).unwrap();
        assert_eq!(order, vec![JointId(1), JointId(0)]);
        let world = world_bind_matrices(&skeleton).unwrap();
        assert!((world[0].transform_point3(Vec3::ZERO) - Vec3::new(1.0, 1.0, 0.0)).length() < 1e-6);
    }

    #[test]
    fn cycles_and_missing_parents_are_errors_naming_the_joint() {
        let cycle = Skeleton {
            joints: vec![
                joint("a", Some(1), Vec3::ZERO, Quat::IDENTITY),
                joint("b", Some(0), Vec3::ZERO, Quat::IDENTITY),
            ],
        };
        assert!(matches!(
            parent_first_order(&cycle),
            Err(HierarchyError::Cycle { .. })
        ));
        let selfish = Skeleton {
            joints: vec![joint("me", Some(0), Vec3::ZERO, Quat::IDENTITY)],
        };
        assert!(
            matches!(parent_first_order(&selfish), Err(HierarchyError::Cycle { name, .. }) if name == "me")
        );
        let missing = Skeleton {
            joints: vec![joint("orphan", Some(7), Vec3::ZERO, Quat::IDENTITY)],
        };
        let err = parent_first_order(&missing).unwrap_err();
        assert!(err.to_string().contains("orphan"), "{err}");
    }

    #[test]
    fn break_cycles_cuts_one_link_per_cycle_and_drops_missing_parents() {
        // 0 → 1 → 2 → 0 is a cycle, 3 → 3 is one too, 4 names joint 9, 5 hangs off the cycle.
        let parents = [Some(1), Some(2), Some(0), Some(3), Some(9), Some(1)];
        let mut skeleton = Skeleton {
            joints: parents
                .iter()
                .enumerate()
                .map(|(i, &p)| joint(&format!("j{i}"), p, Vec3::ZERO, Quat::IDENTITY))
                .collect(),
        };
        let mut report = Report::default();
        let roots = break_cycles(&mut skeleton, &mut report);
        // Walking from 0: 0, 1, 2, then 2's parent 0 is on the path, so 0 becomes a root.
        assert_eq!(roots, [JointId(0), JointId(3), JointId(4)]);
        let now: Vec<Option<u32>> = skeleton
            .joints
            .iter()
            .map(|j| j.parent.map(|p| p.0))
            .collect();
        assert_eq!(now, [None, Some(2), Some(0), None, None, Some(1)]);
        assert!(parent_first_order(&skeleton).is_ok());
        assert_eq!(report.with_code(codes::JOINT_CYCLE).count(), 1);
        assert!(
            report
                .with_code(codes::JOINT_CYCLE)
                .next()
                .unwrap()
                .message
                .starts_with("2 joints")
        );
        assert_eq!(report.with_code(codes::MISSING_PARENT).count(), 1);
        // A sound skeleton is left alone, silently.
        let mut again = Report::default();
        assert!(break_cycles(&mut skeleton, &mut again).is_empty());
        assert!(again.is_empty());
    }

    #[test]
    fn break_cycles_is_linear_on_many_small_cycles() {
        // 20 000 two-joint cycles: the old retry loop did a whole-skeleton pass per cycle.
        let n = 40_000u32;
        let mut skeleton = Skeleton {
            joints: (0..n)
                .map(|i| joint("x", Some(i ^ 1), Vec3::ZERO, Quat::IDENTITY))
                .collect(),
        };
        let roots = break_cycles(&mut skeleton, &mut Report::default());
        assert_eq!(roots.len(), 20_000);
        assert!(parent_first_order(&skeleton).is_ok());
    }

    #[test]
    fn inverse_bind_matrices_are_exactly_affine() {
        let skeleton = Skeleton {
            joints: vec![joint(
                "r",
                None,
                Vec3::new(0.1, 0.7, -3.0),
                Quat::from_rotation_y(0.3).normalize(),
            )],
        };
        let inv = inverse_bind_matrices(&skeleton).unwrap();
        assert_eq!(inv[0].row(3).to_array(), [0.0, 0.0, 0.0, 1.0]);
        let back = inv[0] * world_bind_matrices(&skeleton).unwrap()[0];
        assert!(back.abs_diff_eq(Mat4::IDENTITY, 1e-5));
    }
}
