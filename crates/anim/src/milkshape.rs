//! MilkShape semantics shared by the binary and the ASCII crate (which must not depend on
//! each other): bind transforms from Euler angles, keys relative to the bind pose, and the
//! vertex-weight encoding.
//!
//! MilkShape keys are relative to the joint's bind transform:
//! `L(t) = Lb · T(k_pos(t)) · R(k_rot(t))` with `Lb = T(pos)·R(rot)`. So the absolute local
//! translation is `pos + R(rot)·k_pos` and the rotation `R(rot)·R(k_rot)`. (assimp and
//! Irrlicht add `k_pos` unrotated, which is wrong whenever the bind rotation is not zero.)

use crate::euler::{EulerToQuat, euler_to_quat, quat_to_euler_near_pole_precise};
use glam::{Quat, Vec3};
use rigport_model_core::{Animation, JointId, Key, Report, Track, codes};
use std::collections::HashMap;
use std::collections::hash_map::Entry;

/// Frames per second of a new MilkShape document, used when a file or model gives none
/// (ASCII files store no rate at all).
pub const DEFAULT_FPS: f32 = 24.0;

/// Length of a new MilkShape document's timeline in frames, written when a model has no
/// animation.
pub const DEFAULT_FRAMES: i32 = 30;

/// Name of the one animation a MilkShape file holds (the format stores none).
pub const ANIMATION_NAME: &str = "default";

/// How many names a report message lists before it says "…".
const LISTED_NAMES: usize = 8;

/// MilkShape 3D's limits, the same for the binary and the ASCII writer: the binary file
/// cannot count further (`MAX_*` in the 1.8.x headers, 16-bit indices, 32-byte name
/// fields) and MilkShape itself reads an ASCII file into the same structures. Each one a
/// writer meets is an error, or a loss whose message says "limit" and the number.
pub mod limits {
    /// Most vertex records a model may hold (`MAX_VERTICES`).
    pub const MAX_VERTICES: usize = 65534;
    /// Most triangles a model may hold (`MAX_TRIANGLES`).
    pub const MAX_TRIANGLES: usize = 65534;
    /// Most groups (meshes) a model may hold (`MAX_GROUPS`).
    pub const MAX_GROUPS: usize = 255;
    /// Most materials a model may hold (`MAX_MATERIALS`).
    pub const MAX_MATERIALS: usize = 128;
    /// Most joints a model may hold (`MAX_JOINTS`).
    pub const MAX_JOINTS: usize = 128;
    /// Longest name in bytes (a 32-byte field ending in NUL).
    pub const MAX_NAME_BYTES: usize = 31;
    /// Longest texture or alpha map path in bytes (a 128-byte field ending in NUL).
    pub const MAX_PATH_BYTES: usize = 127;
    /// Most keys one joint channel may hold (a 16-bit count).
    pub const MAX_KEYS_PER_CHANNEL: usize = 65535;
    /// Animations a model holds: one timeline.
    pub const MAX_ANIMATIONS: usize = 1;
}

/// The animation a MilkShape file keeps, out of `animations`: the first. Every other one
/// is reported lost, one `animations-dropped` notice naming each, so both MilkShape writers
/// say the same thing. [`crate::concat::concat_animations`] keeps them all instead.
pub fn timeline_animation<'a>(
    animations: &'a [Animation],
    report: &mut Report,
) -> Option<&'a Animation> {
    let (first, rest) = animations.split_first()?;
    for (index, dropped) in rest.iter().enumerate() {
        report.loss(
            codes::ANIMATIONS_DROPPED,
            format!(
                "animation `{}` ({} of {}) is not written: MilkShape's limit is {} animation \
                 (one timeline), which keeps the first, `{}`; concatenating the animations \
                 (rigport convert --concat-animations) keeps them all",
                dropped.name,
                index + 2,
                animations.len(),
                limits::MAX_ANIMATIONS,
                first.name
            ),
        );
    }
    Some(first)
}

/// Cuts `bytes` to at most `limit` bytes (never inside a UTF-8 character when the bytes
/// are UTF-8); returns whether it had to.
pub fn cut_name(bytes: &mut Vec<u8>, limit: usize) -> bool {
    if bytes.len() <= limit {
        return false;
    }
    let mut end = limit;
    if let Ok(text) = std::str::from_utf8(bytes) {
        while !text.is_char_boundary(end) {
            end -= 1;
        }
    }
    bytes.truncate(end);
    true
}

/// The `name-truncated` loss for `count` names or paths cut by [`cut_name`] (nothing when
/// 0); `first` is the first one, as it was.
pub fn report_cut_names(count: usize, first: Option<&str>, report: &mut Report) {
    if count == 0 {
        return;
    }
    report.loss(
        codes::NAME_TRUNCATED,
        format!(
            "{count} names or paths exceed MilkShape's limit of {} bytes for a name ({} for a \
             texture path) and were cut (first: `{}`)",
            limits::MAX_NAME_BYTES,
            limits::MAX_PATH_BYTES,
            first.unwrap_or_default()
        ),
    );
}

/// Parents of MilkShape joints, found by name: `joints[i]` is joint `i`'s `(name,
/// parent name)`; an empty parent name means a root. A parent may come after its child.
///
/// With several joints of one name, children attach to the first (MilkShape's own lookup);
/// that is a `duplicate-joint-names` warning. A parent name that matches no joint, or only
/// the joint itself, makes the joint a root with one `missing-parent` warning counting them
/// (the message shows the first few, decoded with `display`). Cycles through several joints
/// are left for [`crate::skeleton::break_cycles`].
///
/// One hash lookup per joint: linear in the number of joints, whatever the names.
pub fn resolve_parents_by_name(
    joints: &[(&[u8], &[u8])],
    display: impl Fn(&[u8]) -> String,
    report: &mut Report,
) -> Vec<Option<JointId>> {
    let mut by_name: HashMap<&[u8], usize> = HashMap::with_capacity(joints.len());
    let mut duplicates = 0usize;
    for (index, &(name, _)) in joints.iter().enumerate() {
        match by_name.entry(name) {
            Entry::Occupied(_) => duplicates += 1,
            Entry::Vacant(slot) => {
                slot.insert(index);
            }
        }
    }
    if duplicates > 0 {
        report.warn(
            codes::DUPLICATE_JOINT_NAMES,
            format!(
                "{duplicates} joints repeat an earlier joint's name; parents resolve to the first"
            ),
        );
    }
    let mut missing = 0usize;
    let mut listed = Vec::new();
    let parents = joints
        .iter()
        .enumerate()
        .map(|(index, &(name, parent))| {
            if parent.is_empty() {
                return None;
            }
            match by_name.get(parent) {
                Some(&p) if p != index => JointId::from_index(p),
                _ => {
                    missing += 1;
                    if listed.len() < LISTED_NAMES {
                        listed.push(format!(
                            "{index} `{}` (parent `{}`)",
                            display(name),
                            display(parent)
                        ));
                    }
                    None
                }
            }
        })
        .collect();
    if missing > 0 {
        let more = if missing > listed.len() { ", …" } else { "" };
        report.warn(
            codes::MISSING_PARENT,
            format!(
                "{missing} joints name a parent that does not exist (or themselves) and became roots: {}{more}",
                listed.join(", ")
            ),
        );
    }
    parents
}

/// The times at which MilkShape can hold a key: from 0 to the end of the file's timeline
/// (total frames / fps) plus one frame of slack for rounding. Keys elsewhere, such as the
/// ±3e38 times a file with deleted bytes yields, are damaged data: they would stretch any
/// frame-based output (IQE, ASCII) to billions of frames.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeyTimeline {
    /// The latest time a key may have, in seconds.
    pub end: f32,
}

impl KeyTimeline {
    /// The timeline of an animation lasting `duration` seconds at `fps`. Keys are only
    /// bounded by the timeline when the file declares one; without it (zero frames or an
    /// invalid rate) any finite, non-negative time is accepted.
    pub fn new(duration: f32, fps: f32) -> Self {
        let end = if duration > 0.0 && duration.is_finite() && fps > 0.0 {
            duration + 1.0 / fps
        } else {
            f32::MAX
        };
        Self { end }
    }

    /// Whether a key at `time` seconds can be on this timeline.
    #[inline]
    pub fn holds(&self, time: f32) -> bool {
        time.is_finite() && (0.0..=self.end).contains(&time)
    }
}

/// The one animation of a MilkShape file, empty, named [`ANIMATION_NAME`] (or `name`):
/// `total_frames / fps` seconds long. A frame rate that is not positive becomes the
/// model's default with an `invalid-fps` warning, and the duration is then left at 0 (the
/// last key decides).
pub fn animation(name: &str, fps: f32, total_frames: i32, report: &mut Report) -> Animation {
    let mut animation = Animation::new(name, fps);
    if fps.is_finite() && fps > 0.0 {
        animation.duration = total_frames.max(0) as f32 / fps;
    } else {
        animation.fps = Animation::default().fps;
        report.warn(
            codes::INVALID_FPS,
            format!(
                "frame rate {fps} is not positive; using {} and the last key time as duration",
                animation.fps
            ),
        );
    }
    animation
}

/// Keys of one joint as stored (relative to the bind pose, times in seconds) made into an
/// absolute track: the path both MilkShape crates take. Keys off `timeline` are dropped;
/// the second value counts them (report them once per file with
/// [`report_keys_outside`]).
pub fn absolute_track(
    joint: JointId,
    bind: &BindPose,
    translations: impl ExactSizeIterator<Item = (f32, Vec3)>,
    rotations: impl ExactSizeIterator<Item = (f32, Vec3)>,
    timeline: &KeyTimeline,
) -> (Track, usize) {
    let mut track = Track::new(joint);
    let before = translations.len() + rotations.len();
    // Sized for every key up front: the filter hides the count from `collect`, which
    // would grow each channel step by step.
    track.translations = Vec::with_capacity(translations.len());
    track.translations.extend(
        translations
            .filter(|(time, _)| timeline.holds(*time))
            .map(|(time, key)| Key::new(time, bind.absolute_translation(key))),
    );
    track.rotations = Vec::with_capacity(rotations.len());
    let mut to_quat = EulerToQuat::default();
    track.rotations.extend(
        rotations
            .filter(|(time, _)| timeline.holds(*time))
            .map(|(time, key)| Key::new(time, bind.absolute_rotation_with(key, &mut to_quat))),
    );
    let dropped = before - track.key_count();
    (track, dropped)
}

/// The `keys-outside-timeline` warning for `dropped` keys (nothing when 0).
pub fn report_keys_outside(dropped: usize, timeline: &KeyTimeline, report: &mut Report) {
    if dropped > 0 {
        report.warn(
            codes::KEYS_OUTSIDE_TIMELINE,
            format!(
                "{dropped} keys have times outside the file's timeline (0 to {} s) and were dropped; \
                 MilkShape cannot place keys there, so they come from damaged data",
                timeline.end
            ),
        );
    }
}

/// Absolute local translation of a translation key.
pub fn absolute_translation(bind_pos: Vec3, bind_rot: Vec3, key: Vec3) -> Vec3 {
    BindPose::new(bind_pos, bind_rot).absolute_translation(key)
}

/// Absolute local rotation of a rotation key (Euler angles in, quaternion out).
pub fn absolute_rotation(bind_rot: Vec3, key: Vec3) -> Quat {
    BindPose::new(Vec3::ZERO, bind_rot).absolute_rotation(key)
}

/// A joint's bind transform with its rotation turned into a quaternion once, for making
/// many keys absolute: per key only the key's own angles are converted (a third of the
/// sines and cosines of [`absolute_translation`] plus [`absolute_rotation`] per key), with
/// exactly their results.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BindPose {
    /// Bind position.
    pub position: Vec3,
    /// Bind rotation, `euler_to_quat` of the stored angles.
    pub rotation: Quat,
}

impl BindPose {
    /// The bind pose of a joint stored as position and Euler angles (radians).
    #[inline]
    pub fn new(position: Vec3, angles: Vec3) -> Self {
        Self {
            position,
            rotation: euler_to_quat(angles),
        }
    }

    /// Absolute local translation of a translation key: `pos + R(rot)·key`.
    #[inline]
    pub fn absolute_translation(&self, key: Vec3) -> Vec3 {
        self.position + self.rotation * key
    }

    /// Absolute local rotation of a rotation key (Euler angles): `R(rot)·R(key)`.
    #[inline]
    pub fn absolute_rotation(&self, key: Vec3) -> Quat {
        (self.rotation * euler_to_quat(key)).normalize()
    }

    /// [`BindPose::absolute_rotation`] with the key's quaternion from `to_quat` (the same
    /// bits, fewer sines and cosines over many keys).
    #[inline]
    pub fn absolute_rotation_with(&self, key: Vec3, to_quat: &mut EulerToQuat) -> Quat {
        (self.rotation * to_quat.quat(key)).normalize()
    }
}

/// The relative translation key that [`absolute_translation`] maps to `absolute`.
pub fn relative_translation(bind_pos: Vec3, bind_rot: Vec3, absolute: Vec3) -> Vec3 {
    euler_to_quat(bind_rot).inverse() * (absolute - bind_pos)
}

/// The relative rotation key (Euler angles) that [`absolute_rotation`] maps to `absolute`.
pub fn relative_rotation(bind_rot: Vec3, absolute: Quat) -> Vec3 {
    quat_to_euler_near_pole_precise(euler_to_quat(bind_rot).inverse() * absolute)
}

/// The skin of one MilkShape vertex as stored: the vertex's own `boneId` and, when the file
/// has a vertex-extra block, three more bone ids and three weights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StoredSkin {
    /// `ms3d_vertex_t::boneId` (−1 = none).
    pub bone_id: i8,
    /// `ms3d_vertex_ex_t::boneIds` (−1 = none).
    pub extra_bone_ids: [i8; 3],
    /// `ms3d_vertex_ex_t::weights`.
    pub weights: [u8; 3],
    /// Whether the vertex-extra fields are present at all.
    pub has_extra: bool,
    /// The vertex-extra block's subVersion (0 when unknown). Only subVersion 1 may use the
    /// 0–255 weight scale.
    pub sub_version: i32,
}

/// Decodes a stored skin into at most four `(joint, weight)` pairs, weights summing to 1.
///
/// Indices are `[boneId, boneIds[0..3]]`, weights `[w0, w1, w2, 100 − Σ] / 100`. Real
/// MilkShape writes 0–100 for every subVersion; only a weight above 100 in subVersion 1
/// (whose 1.8.2 spec says 0–255) switches the vertex to the 0–255 scale. In later
/// subVersions such a weight is damaged data, read on the 0–100 scale (the implied fourth
/// weight is then 0) and renormalized. All three
/// stored weights 0 means 100 % on `boneId`. Decoding stops at the first zero weight or
/// −1 index. Returns all-zero weights for a vertex bound to no joint.
pub fn decode_skin(skin: StoredSkin) -> ([JointId; 4], [f32; 4]) {
    let mut joints = [JointId(0); 4];
    let mut weights = [0.0_f32; 4];
    if skin.bone_id < 0 {
        return (joints, weights);
    }
    if !skin.has_extra || skin.weights == [0, 0, 0] {
        joints[0] = JointId(skin.bone_id as u32);
        weights[0] = 1.0;
        return (joints, weights);
    }
    let scale: f32 = if skin.sub_version == 1 && skin.weights.iter().any(|&w| w > 100) {
        255.0
    } else {
        100.0
    };
    let stored_sum: f32 = skin.weights.iter().map(|&w| f32::from(w)).sum();
    let ids = [
        skin.bone_id,
        skin.extra_bone_ids[0],
        skin.extra_bone_ids[1],
        skin.extra_bone_ids[2],
    ];
    let raw = [
        f32::from(skin.weights[0]),
        f32::from(skin.weights[1]),
        f32::from(skin.weights[2]),
        (scale - stored_sum).max(0.0),
    ];
    for (slot, (&id, &w)) in ids.iter().zip(&raw).enumerate() {
        if id < 0 || w <= 0.0 {
            break;
        }
        joints[slot] = JointId(id as u32);
        weights[slot] = w;
    }
    let total: f32 = weights.iter().sum();
    if total > 0.0 {
        weights.iter_mut().for_each(|w| *w /= total);
    } else {
        // boneId valid but w0 == 0 while others are not: the vertex still belongs to boneId.
        joints = [
            JointId(skin.bone_id as u32),
            JointId(0),
            JointId(0),
            JointId(0),
        ];
        weights = [1.0, 0.0, 0.0, 0.0];
    }
    (joints, weights)
}

/// How far a stored skin's weights are from the given ones: the largest difference, per
/// joint, between the influences normalized to sum 1 and what [`decode_skin`] gives back.
/// Whole percents come back exactly (0); other weights are rounded by up to half a percent.
pub fn skin_rounding(joints: [JointId; 4], weights: [f32; 4], stored: StoredSkin) -> f32 {
    let total: f32 = weights.iter().filter(|w| **w > 0.0).sum();
    let (back_joints, back_weights) = decode_skin(StoredSkin {
        sub_version: 3,
        ..stored
    });
    let share = |list: &[JointId; 4], w: &[f32; 4], joint: JointId, scale: f32| -> f32 {
        list.iter()
            .zip(w)
            .filter(|(j, w)| **j == joint && **w > 0.0)
            .map(|(_, w)| w / scale)
            .sum()
    };
    joints
        .iter()
        .chain(&back_joints)
        .map(|&joint| {
            let before = if total > 0.0 {
                share(&joints, &weights, joint, total)
            } else {
                0.0
            };
            (before - share(&back_joints, &back_weights, joint, 1.0)).abs()
        })
        .fold(0.0, f32::max)
}

/// Encodes up to four influences into MilkShape's stored form (0–100 scale), the inverse of
/// [`decode_skin`] for every skin it produces. Influences are ordered by weight, largest
/// first, and rounded so the three stored weights never exceed 100. Joint ids above 127
/// cannot be stored and are dropped (the caller checks the 128-joint limit first).
pub fn encode_skin(joints: [JointId; 4], weights: [f32; 4]) -> StoredSkin {
    let mut pairs: Vec<(i8, f32)> = joints
        .iter()
        .zip(weights)
        .filter(|(j, w)| *w > 0.0 && j.0 <= 127)
        .map(|(j, w)| (j.0 as i8, w))
        .collect();
    // Stable sort: equal weights keep slot order, so the encoding is deterministic.
    pairs.sort_by(|a, b| b.1.total_cmp(&a.1));
    let total: f32 = pairs.iter().map(|p| p.1).sum();
    let mut skin = StoredSkin {
        bone_id: -1,
        extra_bone_ids: [-1; 3],
        weights: [0; 3],
        has_extra: true,
        sub_version: 0,
    };
    let Some(&(first, _)) = pairs.first() else {
        return skin;
    };
    skin.bone_id = first;
    if pairs.len() == 1 {
        return skin;
    }
    let mut stored = 0u32;
    for (slot, &(id, w)) in pairs.iter().enumerate() {
        if slot > 0 {
            skin.extra_bone_ids[slot - 1] = id;
        }
        if slot < 3 {
            let percent = ((w / total) * 100.0).round().clamp(1.0, 100.0) as u32;
            let percent = percent.min(100 - stored.min(100));
            skin.weights[slot] = percent as u8;
            stored += percent;
        }
    }
    skin
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::FRAC_PI_2;

    fn skin(bone_id: i8, ids: [i8; 3], weights: [u8; 3]) -> StoredSkin {
        StoredSkin {
            bone_id,
            extra_bone_ids: ids,
            weights,
            has_extra: true,
            sub_version: 1,
        }
    }

    #[test]
    fn translation_key_is_rotated_by_the_bind_rotation() {
        // Bind: at (1,0,0), rotated 90° about Z. A key moving 1 along local +X moves the
        // joint along parent +Y: (1,1,0), not (2,0,0) as the unrotated add would give.
        let p = absolute_translation(Vec3::X, Vec3::new(0.0, 0.0, FRAC_PI_2), Vec3::X);
        assert!((p - Vec3::new(1.0, 1.0, 0.0)).length() < 1e-6, "{p}");
        let back = relative_translation(Vec3::X, Vec3::new(0.0, 0.0, FRAC_PI_2), p);
        assert!((back - Vec3::X).length() < 1e-6);
    }

    #[test]
    fn rotation_key_composes_after_the_bind_rotation() {
        let bind = Vec3::new(0.0, 0.0, FRAC_PI_2);
        let key = Vec3::new(FRAC_PI_2, 0.0, 0.0);
        let q = absolute_rotation(bind, key);
        // Key first (X: +Y -> +Z), then bind (Z leaves +Z).
        assert!((q * Vec3::Y - Vec3::Z).length() < 1e-6);
        let back = relative_rotation(bind, q);
        assert!((euler_to_quat(back) * Vec3::Y - Vec3::Z).length() < 1e-5);
    }

    #[test]
    fn weights_follow_the_design_rules() {
        // No extra block: the vertex's own bone, fully.
        let plain = StoredSkin {
            bone_id: 3,
            ..StoredSkin::default()
        };
        assert_eq!(
            decode_skin(plain),
            (
                [JointId(3), JointId(0), JointId(0), JointId(0)],
                [1.0, 0.0, 0.0, 0.0]
            )
        );
        // All stored weights zero: 100 % on boneId even though other ids are set.
        let (_, w) = decode_skin(skin(2, [5, 6, 7], [0, 0, 0]));
        assert_eq!(w, [1.0, 0.0, 0.0, 0.0]);
        // 40/30/20 and the implied 10.
        let (j, w) = decode_skin(skin(1, [2, 3, 4], [40, 30, 20]));
        assert_eq!(j, [JointId(1), JointId(2), JointId(3), JointId(4)]);
        assert!((w[3] - 0.1).abs() < 1e-6 && (w[0] - 0.4).abs() < 1e-6);
        // Stops at index -1 and renormalizes.
        let (_, w) = decode_skin(skin(1, [-1, 3, 4], [60, 30, 10]));
        assert_eq!(w, [1.0, 0.0, 0.0, 0.0]);
        // 0-255 scale when a weight exceeds 100.
        let (_, w) = decode_skin(skin(1, [2, -1, -1], [200, 55, 0]));
        assert!((w[0] - 200.0 / 255.0).abs() < 1e-6);
        // …but only in subVersion 1: in sv3 the same bytes are damaged 0–100 weights,
        // renormalized (200 : 55, no implied fourth).
        let (_, w) = decode_skin(StoredSkin {
            sub_version: 3,
            ..skin(1, [2, -1, -1], [200, 55, 0])
        });
        assert!((w[0] - 200.0 / 255.0).abs() < 1e-6 && (w[1] - 55.0 / 255.0).abs() < 1e-6);
        let (j, w) = decode_skin(StoredSkin {
            sub_version: 3,
            ..skin(1, [2, 3, -1], [101, 50, 50])
        });
        assert_eq!(j[..3], [JointId(1), JointId(2), JointId(3)]);
        assert!((w[0] - 101.0 / 201.0).abs() < 1e-6 && w[3] == 0.0, "{w:?}");
        // No bone.
        assert_eq!(decode_skin(skin(-1, [2, 3, 4], [1, 2, 3])).1, [0.0; 4]);
    }

    #[test]
    fn encode_then_decode_keeps_influences() {
        let joints = [JointId(4), JointId(7), JointId(0), JointId(0)];
        let weights = [0.25, 0.75, 0.0, 0.0];
        let stored = encode_skin(joints, weights);
        assert_eq!(stored.bone_id, 7);
        assert_eq!(stored.weights, [75, 25, 0]);
        let (j, w) = decode_skin(stored);
        assert_eq!((j[0], j[1]), (JointId(7), JointId(4)));
        assert!((w[0] - 0.75).abs() < 1e-6 && (w[1] - 0.25).abs() < 1e-6);
    }
}
