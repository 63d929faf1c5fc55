//! Making an animation safe and cheap to sample, once, before sampling it many times.
//!
//! [`normalize_animation`] fixes what a file can get wrong and reports each kind of fix
//! with counts:
//!
//! | problem | fix | code | severity |
//! |---|---|---|---|
//! | track for a joint that does not exist | track dropped | `track-joint-missing` | warning |
//! | two tracks for one joint | the first one kept: the one rule for duplicate tracks (`Animation::track`, posing, every writer) | `track-joint-duplicate` | warning |
//! | key time or value NaN/infinite | key dropped | `keys-not-finite` | warning |
//! | keys out of time order | stable sort by time | `keys-unsorted` | warning |
//! | rotation of (near) zero length | key dropped | `rotation-zero` | warning |
//! | rotation not of unit length | normalized | `rotation-normalized` | info |
//! | several keys at one time | kept, in file order: a deliberate jump (see [`crate::sample`]) | `keys-same-time` | info |
//! | cubic-spline tangents not one per key | tangents dropped (Catmull-Rom then) | `tangents-mismatch` | warning |
//!
//! Cubic-spline tangents travel with their keys: a dropped key drops its tangents, sorting
//! moves them along.

use crate::sample::Interpolate;
use rigport_model_core::{Animation, Key, Report, Tangents, codes};

/// What [`tidy_channel`] did to one channel.
#[derive(Default)]
struct Fixes {
    not_finite: usize,
    unsorted_channels: usize,
    same_time: usize,
    tangent_mismatch: usize,
}

impl Fixes {
    fn add(&mut self, other: Fixes) {
        self.not_finite += other.not_finite;
        self.unsorted_channels += other.unsorted_channels;
        self.same_time += other.same_time;
        self.tangent_mismatch += other.tangent_mismatch;
    }
}

/// [`tidy_channel`] for a channel with cubic-spline tangents (empty, or one per key; any
/// other count is dropped and counted): tangents stay with their keys.
fn tidy_spline_channel<T: Interpolate>(
    keys: &mut Vec<Key<T>>,
    tangents: &mut Vec<Tangents<T::Tangent>>,
) -> Fixes {
    if tangents.is_empty() {
        return tidy_channel(keys);
    }
    if tangents.len() != keys.len() {
        tangents.clear();
        let mut fixes = tidy_channel(keys);
        fixes.tangent_mismatch = 1;
        return fixes;
    }
    let before = keys.len();
    let finite = |k: &Key<T>, t: &Tangents<T::Tangent>| {
        k.time.is_finite()
            && k.value.to_vec4().is_finite()
            && T::tangent_to_vec4(t.in_tangent).is_finite()
            && T::tangent_to_vec4(t.out_tangent).is_finite()
    };
    let mut pairs: Vec<(Key<T>, Tangents<T::Tangent>)> = keys
        .iter()
        .copied()
        .zip(tangents.iter().copied())
        .filter(|(k, t)| finite(k, t))
        .collect();
    let mut fixes = Fixes {
        not_finite: before - pairs.len(),
        ..Fixes::default()
    };
    if pairs.windows(2).any(|w| w[0].0.time > w[1].0.time) {
        pairs.sort_by(|a, b| a.0.time.total_cmp(&b.0.time));
        fixes.unsorted_channels = 1;
    }
    fixes.same_time = pairs
        .windows(2)
        .filter(|w| w[0].0.time == w[1].0.time)
        .count();
    keys.clear();
    tangents.clear();
    for (key, tangent) in pairs {
        keys.push(key);
        tangents.push(tangent);
    }
    fixes
}

/// Drops non-finite keys, sorts (stable) and counts keys sharing a time.
fn tidy_channel<T: Interpolate>(keys: &mut Vec<Key<T>>) -> Fixes {
    let before = keys.len();
    keys.retain(|k| k.time.is_finite() && k.value.to_vec4().is_finite());
    let mut fixes = Fixes {
        not_finite: before - keys.len(),
        ..Fixes::default()
    };
    if keys.windows(2).any(|w| w[0].time > w[1].time) {
        keys.sort_by(|a, b| a.time.total_cmp(&b.time));
        fixes.unsorted_channels = 1;
    }
    fixes.same_time = keys.windows(2).filter(|w| w[0].time == w[1].time).count();
    fixes
}

/// Sorts and cleans every channel of `animation` for a skeleton of `joint_count` joints;
/// the report says what was changed (see the module docs for the list).
pub fn normalize_animation(animation: &mut Animation, joint_count: usize) -> Report {
    let mut report = Report::default();
    let name = animation.name.clone();

    let before = animation.tracks.len();
    animation.tracks.retain(|t| t.joint.index() < joint_count);
    let missing = before - animation.tracks.len();
    if missing > 0 {
        report.warn(
            codes::TRACK_JOINT_MISSING,
            format!(
                "animation `{name}`: dropped {missing} track(s) for joints past the last of {joint_count}"
            ),
        );
    }

    // Keep the first track of each joint, as `Animation::track` finds it.
    let mut seen = vec![false; joint_count];
    let before = animation.tracks.len();
    animation
        .tracks
        .retain(|track| !std::mem::replace(&mut seen[track.joint.index()], true));
    let duplicates = before - animation.tracks.len();
    if duplicates > 0 {
        report.warn(
            codes::TRACK_JOINT_DUPLICATE,
            format!(
                "animation `{name}`: {duplicates} track(s) repeat a joint that already has one; kept the first"
            ),
        );
    }

    let mut fixes = Fixes::default();
    let (mut zero, mut renormalized) = (0usize, 0usize);
    for track in &mut animation.tracks {
        fixes.add(tidy_spline_channel(
            &mut track.translations,
            &mut track.translation_tangents,
        ));
        fixes.add(tidy_spline_channel(
            &mut track.rotations,
            &mut track.rotation_tangents,
        ));
        fixes.add(tidy_spline_channel(
            &mut track.scales,
            &mut track.scale_tangents,
        ));
        if track.rotations.iter().any(|k| k.value.length() < 1e-6) {
            let with_tangents = track.rotation_tangents.len() == track.rotations.len();
            let mut index = 0;
            let tiny: Vec<bool> = track
                .rotations
                .iter()
                .map(|k| k.value.length() < 1e-6)
                .collect();
            zero += tiny.iter().filter(|t| **t).count();
            track.rotations.retain(|_| {
                index += 1;
                !tiny[index - 1]
            });
            if with_tangents {
                let mut index = 0;
                track.rotation_tangents.retain(|_| {
                    index += 1;
                    !tiny[index - 1]
                });
            }
        }
        for key in &mut track.rotations {
            if (key.value.length() - 1.0).abs() > 1e-4 {
                key.value = key.value.normalize();
                renormalized += 1;
            }
        }
    }
    if fixes.not_finite > 0 {
        report.warn(
            codes::KEYS_NOT_FINITE,
            format!(
                "animation `{name}`: dropped {} key(s) with a time or value that is not a finite number",
                fixes.not_finite
            ),
        );
    }
    if fixes.unsorted_channels > 0 {
        report.warn(
            codes::KEYS_UNSORTED,
            format!(
                "animation `{name}`: sorted the keys of {} channel(s) by time (stable)",
                fixes.unsorted_channels
            ),
        );
    }
    if fixes.tangent_mismatch > 0 {
        report.warn(
            codes::TANGENTS_MISMATCH,
            format!(
                "animation `{name}`: {} channel(s) have cubic-spline tangents that are not one per key; dropped (Catmull-Rom tangents used)",
                fixes.tangent_mismatch
            ),
        );
    }
    if zero > 0 {
        report.warn(
            codes::ROTATION_ZERO,
            format!("animation `{name}`: dropped {zero} rotation key(s) of zero length"),
        );
    }
    if renormalized > 0 {
        report.info(
            codes::ROTATION_NORMALIZED,
            format!("animation `{name}`: normalized {renormalized} rotation key(s)"),
        );
    }
    if fixes.same_time > 0 {
        report.info(
            codes::KEYS_SAME_TIME,
            format!(
                "animation `{name}`: {} key(s) share their time with the key before; the value jumps there",
                fixes.same_time
            ),
        );
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};
    use rigport_model_core::{Interpolation, JointId, Severity, Track};

    #[test]
    fn unsorted_keys_are_sorted_stably_and_reported() {
        let mut anim = Animation::new("walk", 30.0);
        let mut track = Track::new(JointId(0));
        track.translations = vec![
            Key::new(2.0, Vec3::splat(2.0)),
            Key::new(0.0, Vec3::splat(0.0)),
            Key::new(1.0, Vec3::splat(10.0)),
            Key::new(1.0, Vec3::splat(11.0)),
        ];
        anim.tracks.push(track);
        let report = normalize_animation(&mut anim, 1);
        let keys = &anim.tracks[0].translations;
        let times: Vec<f32> = keys.iter().map(|k| k.time).collect();
        assert_eq!(times, [0.0, 1.0, 1.0, 2.0]);
        // Stable: the two keys at t=1 keep their file order.
        assert_eq!((keys[1].value.x, keys[2].value.x), (10.0, 11.0));
        assert_eq!(
            report
                .with_code(rigport_model_core::codes::KEYS_UNSORTED)
                .count(),
            1
        );
        assert_eq!(
            report
                .with_code(rigport_model_core::codes::KEYS_SAME_TIME)
                .count(),
            1
        );
        // Sampling the sorted channel: half way from 0 (t=0) to 10 (first key at t=1).
        let x = crate::sample::sample(keys, 0.5, Interpolation::Linear, Vec3::ZERO).x;
        assert!((x - 5.0).abs() < 1e-6);
        // Already clean: nothing more to say.
        assert!(
            normalize_animation(&mut anim, 1)
                .with_code(rigport_model_core::codes::KEYS_UNSORTED)
                .next()
                .is_none()
        );
    }

    #[test]
    fn tangents_travel_with_their_keys_and_bad_counts_are_dropped() {
        use rigport_model_core::Tangents;
        let mut anim = Animation::new("spline", 30.0);
        anim.interpolation = Interpolation::CubicSpline;
        let mut track = Track::new(JointId(0));
        track.translations = vec![
            Key::new(1.0, Vec3::X),
            Key::new(f32::NAN, Vec3::ZERO),
            Key::new(0.0, Vec3::ZERO),
        ];
        track.translation_tangents = vec![
            Tangents::both(Vec3::splat(1.0)),
            Tangents::both(Vec3::splat(9.0)),
            Tangents::both(Vec3::splat(0.0)),
        ];
        // Two scale keys, one tangent: not parallel, dropped.
        track.scales = vec![Key::new(0.0, Vec3::ONE), Key::new(1.0, Vec3::ONE)];
        track.scale_tangents = vec![Tangents::default()];
        anim.tracks.push(track);
        let report = normalize_animation(&mut anim, 1);
        let track = &anim.tracks[0];
        let times: Vec<f32> = track.translations.iter().map(|k| k.time).collect();
        assert_eq!(times, [0.0, 1.0]);
        assert_eq!(
            track.translation_tangents,
            [Tangents::both(Vec3::ZERO), Tangents::both(Vec3::ONE)]
        );
        assert!(track.scale_tangents.is_empty());
        assert_eq!(report.with_code(codes::TANGENTS_MISMATCH).count(), 1);
        assert_eq!(report.with_code(codes::KEYS_NOT_FINITE).count(), 1);
    }

    #[test]
    fn bad_tracks_and_keys_are_dropped_with_counts() {
        let mut anim = Animation::new("a", 30.0);
        let mut first = Track::new(JointId(1));
        first.rotations = vec![
            Key::new(0.0, Quat::from_xyzw(0.0, 0.0, 0.0, 2.0)),
            Key::new(f32::NAN, Quat::IDENTITY),
            Key::new(1.0, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)),
        ];
        let mut last = Track::new(JointId(1));
        last.scales.push(Key::new(0.0, Vec3::ONE));
        anim.tracks = vec![first, Track::new(JointId(9)), last];
        let report = normalize_animation(&mut anim, 2);
        assert_eq!(anim.tracks.len(), 1);
        assert!(anim.tracks[0].scales.is_empty(), "the first track wins");
        assert_eq!(anim.tracks[0].rotations, [Key::new(0.0, Quat::IDENTITY)]);
        for code in [
            codes::TRACK_JOINT_MISSING,
            codes::TRACK_JOINT_DUPLICATE,
            codes::KEYS_NOT_FINITE,
            codes::ROTATION_ZERO,
        ] {
            let notice = report
                .with_code(code)
                .next()
                .unwrap_or_else(|| panic!("{code}"));
            assert_eq!(notice.severity, Severity::Warning);
        }
        assert_eq!(report.count(Severity::Info), 1);
    }
}
