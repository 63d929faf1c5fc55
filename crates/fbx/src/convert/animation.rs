//! Animation stacks, each baked by ufbx into one animation: layers blended, pivots and pre-
//! and post-rotations applied, Euler curves turned into quaternions, keys kept where they
//! are the file's own and sampled at the file's frame rate where they are not (cubic
//! curves, rotation orders), which the report says (`fbx-resampled`).
//!
//! Every stack is kept, also one that moves nothing (Maya's "Take 001"): it holds the pose
//! the file was saved in. A joint the stack does not move keeps its saved (rest) transform
//! for the whole animation, which is not always its bind transform.

use super::skeleton::Rig;
use crate::codec::INFO;
use crate::math::{decompose, mat, quat, vec3};
use rigport_model_core::codec::{FormatError, Location};
use rigport_model_core::{Animation, Key, Report, Track, codes};
use std::collections::{HashMap, HashSet};

/// The keys of one node in one stack.
#[derive(Default)]
struct NodeKeys {
    translations: Vec<Key<glam::Vec3>>,
    rotations: Vec<Key<glam::Quat>>,
    scales: Vec<Key<glam::Vec3>>,
}

/// One stack baked.
struct Stack {
    name: String,
    fps: f32,
    duration: f32,
    nodes: HashMap<u32, NodeKeys>,
    /// Blend channels' weights (`DeformPercent` / 100), by channel element.
    weights: HashMap<u32, Vec<Key<f32>>>,
}

/// Every stack baked, and the nodes (`typed_id`) any of them moves.
pub(crate) struct Baked {
    stacks: Vec<Stack>,
    /// Nodes some stack animates.
    pub animated: HashSet<u32>,
}

/// The scene's frame rate, or 30 when the file gives none that can be used.
fn frame_rate(scene: &ufbx::Scene) -> f64 {
    let fps = scene.settings.frames_per_second;
    if fps.is_finite() && (1.0..=1000.0).contains(&fps) {
        fps
    } else {
        30.0
    }
}

/// Bakes every stack of `scene`.
/// `memory`: what ufbx may allocate for each stack.
pub(crate) fn bake(
    scene: &ufbx::Scene,
    memory: usize,
    report: &mut Report,
) -> Result<Baked, FormatError> {
    let fps = frame_rate(scene);
    let mut baked = Baked {
        stacks: Vec::new(),
        animated: HashSet::new(),
    };
    let mut resampled: Vec<String> = Vec::new();
    for (index, stack) in scene.anim_stacks.iter().enumerate() {
        let opts = ufbx::BakeOpts {
            temp_allocator: crate::load::allocator(memory),
            result_allocator: crate::load::allocator(memory),
            resample_rate: fps,
            ..Default::default()
        };
        let bake = ufbx::bake_anim(scene, &stack.anim, opts).map_err(|e| {
            FormatError::new(
                INFO.key,
                Location::Unknown,
                format!(
                    "animation stack {:?} could not be baked: {}",
                    stack.element.name.to_string(),
                    e.description
                ),
            )
        })?;
        let name = if stack.element.name.is_empty() {
            format!("Take {index}")
        } else {
            stack.element.name.to_string()
        };
        // The stack's playback range: its keys are shifted to start at 0 and clipped to it
        // (a curve may hold other clips' keys before and after, as Maya's combined files do).
        let (begin, end) = range(stack, &bake);
        let mut nodes = HashMap::new();
        let mut sampled = false;
        for node in bake.nodes.iter() {
            sampled |= sampled_channel(node.constant_translation, &node.translation_keys)
                || sampled_channel(node.constant_rotation, &node.rotation_keys)
                || sampled_channel(node.constant_scale, &node.scale_keys);
            let keys = NodeKeys {
                translations: clip(&node.translation_keys, begin, end),
                rotations: clip(&node.rotation_keys, begin, end),
                scales: clip(&node.scale_keys, begin, end),
            };
            if moves(scene, node) {
                baked.animated.insert(node.typed_id);
            }
            nodes.insert(node.typed_id, keys);
        }
        if sampled {
            resampled.push(name.clone());
        }
        let mut weights = HashMap::new();
        for element in bake.elements.iter() {
            for prop in element
                .props
                .iter()
                .filter(|p| p.name.as_ref() == "DeformPercent")
            {
                let keys = clip(&prop.keys, begin, end)
                    .into_iter()
                    .map(|k| Key::new(k.time, k.value.x / 100.0))
                    .collect();
                weights.insert(element.element_id, keys);
            }
        }
        baked.stacks.push(Stack {
            name,
            fps: fps as f32,
            duration: (end - begin) as f32,
            nodes,
            weights,
        });
    }
    if !resampled.is_empty() {
        report.info(
            codes::FBX_RESAMPLED,
            format!(
                "{} sampled at {fps} fps where the file's curves are not linear keys a track can hold: {}",
                if resampled.len() == 1 { "animation" } else { "animations" },
                resampled.join(", ")
            ),
        );
    }
    Ok(baked)
}

/// The stack's playback range in seconds, or its keys' range when the stack names none that
/// can be used.
fn range(stack: &ufbx::AnimStack, bake: &ufbx::BakedAnim) -> (f64, f64) {
    let (begin, end) = (stack.time_begin, stack.time_end);
    if begin.is_finite() && end.is_finite() && end > begin {
        (begin, end)
    } else if bake.key_time_min.is_finite() && bake.key_time_max >= bake.key_time_min {
        (bake.key_time_min, bake.key_time_max)
    } else {
        (0.0, 0.0)
    }
}

/// Whether a baked node moves away from its saved transform: a channel that changes, or a
/// constant one that holds another value (a stack that only animates a blend shape's
/// weight bakes its mesh's node unmoved, which needs no joint).
fn moves(scene: &ufbx::Scene, node: &ufbx::BakedNode) -> bool {
    if !(node.constant_translation && node.constant_rotation && node.constant_scale) {
        return true;
    }
    let Some(source) = scene.nodes.get(node.typed_id as usize) else {
        return true;
    };
    let rest = &source.local_transform;
    let near = |a: ufbx::Vec3, b: ufbx::Vec3| {
        (a.x - b.x).abs() + (a.y - b.y).abs() + (a.z - b.z).abs()
            <= 1e-6 * (1.0 + b.x.abs() + b.y.abs() + b.z.abs())
    };
    let same_t = node
        .translation_keys
        .first()
        .is_none_or(|k| near(k.value, rest.translation));
    let same_s = node
        .scale_keys
        .first()
        .is_none_or(|k| near(k.value, rest.scale));
    let same_r = node.rotation_keys.first().is_none_or(|k| {
        let q = k.value;
        let r = rest.rotation;
        (q.x * r.x + q.y * r.y + q.z * r.z + q.w * r.w).abs() >= 1.0 - 1e-9
    });
    !(same_t && same_s && same_r)
}

/// A key of a curve ufbx baked (translation and scale, or rotation).
trait BakedKey: Sized {
    type Value;
    fn time(&self) -> f64;
    fn flags(&self) -> ufbx::BakedKeyFlags;
    fn value(&self) -> Self::Value;
    /// The curve of `keys` at `time`, as ufbx evaluates it.
    fn at(keys: &[Self], time: f64) -> Self::Value;
}

impl BakedKey for ufbx::BakedVec3 {
    type Value = glam::Vec3;
    fn time(&self) -> f64 {
        self.time
    }
    fn flags(&self) -> ufbx::BakedKeyFlags {
        self.flags
    }
    fn value(&self) -> glam::Vec3 {
        vec3(self.value)
    }
    fn at(keys: &[Self], time: f64) -> glam::Vec3 {
        vec3(ufbx::evaluate_baked_vec3(keys, time))
    }
}

impl BakedKey for ufbx::BakedQuat {
    type Value = glam::Quat;
    fn time(&self) -> f64 {
        self.time
    }
    fn flags(&self) -> ufbx::BakedKeyFlags {
        self.flags
    }
    fn value(&self) -> glam::Quat {
        quat(self.value)
    }
    fn at(keys: &[Self], time: f64) -> glam::Quat {
        quat(ufbx::evaluate_baked_quat(keys, time))
    }
}

/// Whether a channel that changes holds keys ufbx sampled between the file's own.
fn sampled_channel<K: BakedKey>(constant: bool, keys: &[K]) -> bool {
    !constant
        && !keys
            .iter()
            .all(|k| k.flags().has_any(ufbx::BakedKeyFlags::KEYFRAME))
}

/// The keys from `begin` to `end`, shifted to start at 0: a key of the curve's own value at
/// each end of the range where no key falls on it, and the keys strictly between.
fn clip<K: BakedKey>(keys: &[K], begin: f64, end: f64) -> Vec<Key<K::Value>> {
    const EPSILON: f64 = 1e-9;
    match keys {
        [] => return Vec::new(),
        [only] => return vec![Key::new(0.0, only.value())],
        _ => {}
    }
    let mut out = vec![Key::new(0.0, K::at(keys, begin))];
    let inside = keys
        .iter()
        .filter(|k| k.time() > begin + EPSILON && k.time() < end - EPSILON);
    out.extend(inside.map(|k| Key::new((k.time() - begin) as f32, k.value())));
    if end > begin + EPSILON {
        out.push(Key::new((end - begin) as f32, K::at(keys, end)));
    }
    out
}

/// The animations of the baked stacks, on the rig's joints, with the weight tracks of the
/// meshes' blend channels.
pub(crate) fn tracks(
    scene: &ufbx::Scene,
    rig: &Rig,
    baked: Baked,
    blend: &[super::blend::Source],
) -> Vec<Animation> {
    let nodes: HashMap<u32, &ufbx::Node> = scene
        .nodes
        .iter()
        .map(|n| (n.element.typed_id, &**n))
        .collect();
    let mut animations = Vec::with_capacity(baked.stacks.len());
    for mut stack in baked.stacks {
        let mut animation = Animation::new(stack.name, stack.fps);
        animation.duration = stack.duration;
        animation.morph_tracks = super::blend::tracks(blend, &stack.weights);
        for (index, &node_id) in rig.node_of_joint.iter().enumerate() {
            let Some(joint) = rigport_model_core::JointId::from_index(index) else {
                break;
            };
            let mut track = Track::new(joint);
            if let Some(keys) = stack.nodes.remove(&node_id) {
                track.translations = keys.translations;
                track.rotations = keys.rotations;
                track.scales = keys.scales;
            } else if let Some(node) = nodes.get(&node_id) {
                // Not moved by this stack: held at the transform the file was saved in,
                // when that is not the bind transform.
                let bind = &rig.skeleton.joints[index];
                let (t, r, s) = decompose(&mat(&node.node_to_parent));
                let same = t.abs_diff_eq(bind.translation, 1e-6)
                    && r.dot(bind.rotation).abs() > 1.0 - 1e-7
                    && s.abs_diff_eq(bind.scale, 1e-6);
                if same {
                    continue;
                }
                track.translations.push(Key::new(0.0, t));
                track.rotations.push(Key::new(0.0, r));
                track.scales.push(Key::new(0.0, s));
            }
            if !track.is_empty() {
                animation.tracks.push(track);
            }
        }
        animations.push(animation);
    }
    animations
}
