//! Key cleaning, the layer glTF adds over `rigport_anim::normalize`: non-finite keys and
//! keys before 0 dropped, keys sorted, keys at one time collapsed to the last, rotations
//! kept in one hemisphere, and the key that holds a declared length or closes a loop; each
//! change counted and reported once.

use crate::export::report_counts;
use gltf_json as json;
use json::animation::Property;
use rigport_model_core::{Animation, Key, Report, Severity};

/// One property of one joint: key times and flat values (`width` floats per key).
pub(super) struct Curve {
    pub(super) joint: u32,
    pub(super) property: Property,
    pub(super) width: usize,
    pub(super) times: Vec<f32>,
    pub(super) values: Vec<f32>,
}

/// Counts over all animations, reported once at the end.
#[derive(Default)]
pub(super) struct KeyStats {
    pub(super) invalid: usize,
    pub(super) negative: usize,
    pub(super) reordered_channels: usize,
    pub(super) collapsed: usize,
    pub(super) missing_joint_tracks: usize,
    pub(super) duplicate_tracks: usize,
}

impl KeyStats {
    /// Adds another set of counts.
    pub(super) fn add(&mut self, other: &KeyStats) {
        self.invalid += other.invalid;
        self.negative += other.negative;
        self.reordered_channels += other.reordered_channels;
        self.collapsed += other.collapsed;
        self.missing_joint_tracks += other.missing_joint_tracks;
        self.duplicate_tracks += other.duplicate_tracks;
    }
}

/// Whether a key can be kept: a finite time and finite values.
pub(super) fn is_valid<const W: usize>(time: f32, value: &[f32; W]) -> bool {
    time.is_finite() && value.iter().all(|c| c.is_finite())
}

/// The times of keys.
pub(super) fn times<T>(keys: &[Key<T>]) -> impl Iterator<Item = f32> + '_ {
    keys.iter().map(|k| k.time)
}

/// Vector keys as `(time, components)`.
pub(super) fn vector(
    keys: &[Key<glam::Vec3>],
) -> impl DoubleEndedIterator<Item = (f32, [f32; 3])> + '_ {
    keys.iter().map(|k| (k.time, k.value.to_array()))
}

/// Drops non-finite keys, sorts by time (stable) and keeps the last of keys sharing a time.
/// Keys are `(time, value)` with fixed-size values, so a channel costs one allocation, not
/// one per key.
pub(super) fn curve<const W: usize, I: Iterator<Item = (f32, [f32; W])>>(
    joint: u32,
    property: Property,
    keys: impl Fn() -> I,
    stats: &mut KeyStats,
) -> Option<Curve> {
    let (times, mut values) = match clean_keys(keys()) {
        Some(clean) => clean,
        None => cleaned_keys(keys(), stats),
    };
    if property == Property::Rotation {
        same_hemisphere(&mut values);
    }
    (!times.is_empty()).then_some(Curve {
        joint,
        property,
        width: W,
        times,
        values,
    })
}

/// Times and flat values of keys that need no cleaning (all valid, times non-negative and
/// strictly increasing: what real files hold), built in one pass; `None` as soon as a key
/// needs cleaning.
pub(super) fn clean_keys<const W: usize>(
    keys: impl Iterator<Item = (f32, [f32; W])>,
) -> Option<(Vec<f32>, Vec<f32>)> {
    let expected = keys.size_hint().0;
    let mut times = Vec::with_capacity(expected);
    let mut values = Vec::with_capacity(expected * W);
    let mut previous = f32::NEG_INFINITY;
    for (time, value) in keys {
        if !(is_valid(time, &value) && time >= 0.0 && time > previous) {
            return None;
        }
        times.push(time + 0.0); // −0 → +0
        values.extend(value);
        previous = time;
    }
    Some((times, values))
}

/// Times and flat values of keys after cleaning, each change counted in `stats`.
pub(super) fn cleaned_keys<const W: usize>(
    keys: impl Iterator<Item = (f32, [f32; W])>,
    stats: &mut KeyStats,
) -> (Vec<f32>, Vec<f32>) {
    let mut keys: Vec<(f32, [f32; W])> = keys.collect();
    let before = keys.len();
    keys.retain(|(t, v)| is_valid(*t, v));
    stats.invalid += before - keys.len();
    // glTF times start at 0. Dropping earlier keys (rather than moving the animation) keeps
    // garbage times such as −3·10³⁸ in damaged files from wrecking the timing of the rest.
    let finite = keys.len();
    keys.retain(|(t, _)| *t >= 0.0);
    stats.negative += finite - keys.len();
    if keys.windows(2).any(|w| w[1].0 < w[0].0) {
        stats.reordered_channels += 1;
        keys.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let mut times: Vec<f32> = Vec::with_capacity(keys.len());
    let mut values: Vec<f32> = Vec::with_capacity(keys.len() * W);
    for (time, value) in keys {
        let time = time + 0.0; // −0 → +0
        if times.last() == Some(&time) {
            stats.collapsed += 1;
            values.truncate(values.len() - W);
            times.pop();
        }
        times.push(time);
        values.extend(value);
    }
    (times, values)
}

/// Flips quaternions (q and −q are the same rotation) so each is within 90° of the one
/// before: cubic interpolation works on components and would otherwise swing the long way.
pub(super) fn same_hemisphere(values: &mut [f32]) {
    let mut previous: Option<[f32; 4]> = None;
    for q in values.chunks_exact_mut(4) {
        let dot = |p: [f32; 4]| p.iter().zip(q.iter()).map(|(a, b)| a * b).sum::<f32>();
        if previous.is_some_and(|p| dot(p) < 0.0) {
            q.iter_mut().for_each(|c| *c = -*c);
        }
        previous = q.try_into().ok();
    }
}

/// A declared length past the last key would be lost (glTF's length is the last key time):
/// the first curve then gets a key at the declared time holding its last value (see
/// [`hold_curve`]). Returns that time, if needed.
pub(super) fn declared_length_hold(
    animation: &Animation,
    last: f32,
    report: &mut Report,
) -> Option<f32> {
    let declared = animation.duration;
    if !(declared.is_finite() && declared > last) {
        return None;
    }
    report.info(
        rigport_model_core::codes::GLTF_ANIMATION_LENGTH_HELD,
        format!("animation `{}` lasts {declared} s but its last key is at {last} s; a holding key keeps the length", animation.name),
    );
    Some(declared)
}

/// The period of a looping animation whose last key comes before it (`None` otherwise). A
/// looping animation of N frames at F fps lasts N/F: after its last frame it blends back to
/// the first, so glTF players that loop get a key at N/F equal to the first.
pub(super) fn loop_wrap(animation: &Animation, last: f32, report: &mut Report) -> Option<f32> {
    let period = rigport_anim::sample::period(animation);
    if !(animation.looping && period.is_finite() && period > last) {
        return None;
    }
    report.info(
        rigport_model_core::codes::GLTF_ANIMATION_LOOP_WRAP,
        format!(
            "looping animation `{}` lasts {period} s; each channel gets a key there equal to its first, so it blends back as it loops",
            animation.name
        ),
    );
    Some(period)
}

/// Appends a key at `period` equal to the curve's first value (a rotation on the last key's
/// hemisphere, so the blend takes the short way). Returns the index of the new key's
/// predecessor, like [`hold_curve`], or `None` when the curve already reaches the period.
pub(super) fn wrap_curve(curve: &mut Curve, period: f32) -> Option<usize> {
    let last_time = *curve.times.last()?;
    if last_time >= period {
        return None;
    }
    let width = curve.width;
    let mut first = curve.values[..width].to_vec();
    let last = &curve.values[curve.values.len() - width..];
    if curve.property == Property::Rotation {
        let dot: f32 = first.iter().zip(last).map(|(a, b)| a * b).sum();
        if dot < 0.0 {
            first.iter_mut().for_each(|v| *v = -*v);
        }
    }
    let from = curve.times.len() - 1;
    curve.times.push(period);
    curve.values.extend(first);
    Some(from)
}

/// Appends a key at `time` holding the curve's last value. Returns the index of the held
/// key's predecessor, so a cubic curve can keep the hold flat.
pub(super) fn hold_curve(curve: &mut Curve, time: f32) -> usize {
    let hold_from = curve.times.len() - 1;
    let held = curve.values[curve.values.len() - curve.width..].to_vec();
    curve.times.push(time);
    curve.values.extend(held);
    hold_from
}

/// Turns the key counts into report notices.
pub(super) fn report_key_stats(stats: &KeyStats, report: &mut Report) {
    use Severity::{Loss, Warning};
    report_counts(
        report,
        &[
            (
                stats.missing_joint_tracks,
                Loss,
                rigport_model_core::codes::GLTF_TRACK_JOINT_MISSING,
                "animation tracks name a joint that does not exist; left out",
            ),
            (
                stats.duplicate_tracks,
                Loss,
                rigport_model_core::codes::GLTF_TRACK_DUPLICATE,
                "animation tracks repeat a joint already animated; only the first is kept",
            ),
            (
                stats.invalid,
                Loss,
                rigport_model_core::codes::GLTF_KEY_INVALID,
                "keys had a non-finite time or value (or a zero rotation); left out",
            ),
            (
                stats.negative,
                Loss,
                rigport_model_core::codes::GLTF_KEY_TIME_NEGATIVE,
                "keys had a negative time (glTF times start at 0); left out",
            ),
            (
                stats.reordered_channels,
                Warning,
                rigport_model_core::codes::GLTF_KEYS_REORDERED,
                "key channels were not in time order; sorted",
            ),
            (
                stats.collapsed,
                Loss,
                rigport_model_core::codes::GLTF_KEY_DUPLICATE_TIME,
                "keys shared a time with a later key of the same channel; the later one is kept",
            ),
        ],
    );
}
