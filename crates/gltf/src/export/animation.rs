//! Animations: one glTF animation per model animation, one sampler and channel per animated
//! joint property.
//!
//! glTF demands key times that are non-negative and strictly increasing, unit rotations, and
//! at least one channel. Keys are therefore cleaned first (non-finite keys and keys before 0
//! dropped, keys sorted, keys at the same time collapsed to the last one) and every change
//! is reported. Interpolation maps directly: Linear → `LINEAR`, Step → `STEP`,
//! Cubic → `CUBICSPLINE` with Catmull-Rom tangents computed here (so the curve is the one the
//! model describes, not a resampling), CubicSpline → `CUBICSPLINE` with the tangents the
//! model stores (Catmull-Rom when a channel's keys had to be changed, see
//! [`stored_tangents`]).

use super::buffer::{Builder, Usage};
use super::report_counts;
use super::skeleton::unit_rotation;
use glam::Quat;
use gltf_json as json;
use json::accessor::Type;
use json::animation::{Channel, Interpolation as GltfInterpolation, Property, Sampler, Target};
use json::validation::Checked;
use rigport_model_core::{Animation, Interpolation, Key, Model, Report, Severity};
use std::borrow::Cow;
use std::collections::HashMap;

/// One property of one joint: key times and flat values (`width` floats per key).
struct Curve {
    joint: u32,
    property: Property,
    width: usize,
    times: Vec<f32>,
    values: Vec<f32>,
}

/// Counts over all animations, reported once at the end.
#[derive(Default)]
struct KeyStats {
    invalid: usize,
    negative: usize,
    reordered_channels: usize,
    collapsed: usize,
    missing_joint_tracks: usize,
    duplicate_tracks: usize,
}

impl KeyStats {
    /// Adds another set of counts.
    fn add(&mut self, other: &KeyStats) {
        self.invalid += other.invalid;
        self.negative += other.negative;
        self.reordered_channels += other.reordered_channels;
        self.collapsed += other.collapsed;
        self.missing_joint_tracks += other.missing_joint_tracks;
        self.duplicate_tracks += other.duplicate_tracks;
    }
}

/// Writes every animation that has at least one valid key. Joint `i` is node `i`.
///
/// Each curve is written as soon as it is cleaned, so only one channel's keys are held at
/// a time; a first pass (cleaning without keeping) finds whether an animation has keys at all
/// and when its last key is, which the first curve needs to keep a declared length.
pub(super) fn write_animations(model: &Model, builder: &mut Builder, report: &mut Report) {
    let mut inputs = Inputs::default();
    let mut stats = KeyStats::default();
    let mut written = 0usize;
    let joint_count = model.skeleton.joints.len();
    for animation in &model.animations {
        let mut last = LastKey(None);
        for_each_channel(animation, joint_count, &mut KeyStats::default(), &mut last);
        let Some(last) = last.0 else {
            report.loss(
                "gltf-animation-empty",
                format!("animation `{}` has no valid keys; left out (glTF forbids animations without channels)", animation.name),
            );
            continue;
        };
        let wrap = loop_wrap(animation, last, report);
        let hold = if wrap.is_some() {
            None
        } else {
            declared_length_hold(animation, last, report)
        };
        let mut writer = CurveWriter {
            animation,
            wrap,
            hold,
            first: true,
            gltf: AnimationWriter::default(),
            builder: &mut *builder,
            inputs: &mut inputs,
            stats: KeyStats::default(),
        };
        for_each_channel(animation, joint_count, &mut stats, &mut writer);
        let (gltf, key_stats) = (writer.gltf.finish(animation), writer.stats);
        stats.add(&key_stats);
        builder.root.push(gltf);
        written += 1;
    }
    report_key_stats(&stats, report);
    if written > 0 {
        report.loss(
            "gltf-animation-fps-loop",
            format!("frame rate and loop flag of {written} animations have no place in glTF; not carried"),
        );
    }
}

/// Whether an export writes `model`'s animations apart, on another thread of rayon's pool
/// (with the `parallel` feature and a pool of more than one thread; else never): when they
/// hold 64 Ki keys or more (below, the hand-over costs more than it saves) and the rest of
/// the buffer is at most a quarter of theirs. The rest is copied into their allocation at
/// the end, so for that moment it is held twice: a model whose meshes outweigh its
/// animations (a 111 MB animated IQE: peak 182 → 229 MB) is written in turn.
pub(super) fn writes_apart(model: &Model) -> bool {
    #[cfg(feature = "parallel")]
    if rayon::current_num_threads() > 1 && key_count(model) >= 1 << 16 {
        let animations = super::buffer::animation_bound(model);
        let rest = super::buffer::size_bound(model) - animations;
        return rest <= animations / 4;
    }
    let _ = model;
    false
}

/// The keys of every track of every animation.
#[cfg(feature = "parallel")]
fn key_count(model: &Model) -> usize {
    model
        .animations
        .iter()
        .flat_map(|a| &a.tracks)
        .map(|t| t.key_count())
        .sum()
}

/// Runs `rest` on the calling thread and, when `apart`, writes the animations into a
/// builder of their own ([`write_apart`]) at the same time on a thread of rayon's pool
/// (with the `parallel` feature; else one after the other). A thread of the pool, started
/// once and then waiting, is woken on an idle core at once; a thread started for the call
/// can wait on the caller's core for a scheduler tick before it runs.
pub(super) fn alongside<R>(
    apart: bool,
    model: &Model,
    rest: impl FnOnce() -> R,
) -> (Option<(Builder, Report)>, R) {
    if !apart {
        return (None, rest());
    }
    #[cfg(feature = "parallel")]
    {
        let mut animations = None;
        let rest = rayon::in_place_scope(|scope| {
            scope.spawn(|_| animations = Some(write_apart(model)));
            rest()
        });
        // The scope ends when its job has run.
        (animations, rest)
    }
    #[cfg(not(feature = "parallel"))]
    (Some(write_apart(model)), rest())
}

/// The animations written into a builder of their own, with room for the whole file: the
/// rest is put in front of their bytes (see [`Builder::follow_with`]).
fn write_apart(model: &Model) -> (Builder, Report) {
    let mut builder = Builder::with_capacity(super::buffer::size_bound(model));
    let mut report = Report::default();
    write_animations(model, &mut builder, &mut report);
    (builder, report)
}

/// What is done with each key channel of an animation.
trait ChannelVisitor {
    /// One channel: its joint, property and ways to iterate its keys and their times alone
    /// (as often as needed).
    fn channel<const W: usize, I, T>(
        &mut self,
        joint: u32,
        property: Property,
        channel: KeyChannel<impl Fn() -> I, impl Fn() -> T>,
    ) where
        I: DoubleEndedIterator<Item = (f32, [f32; W])>,
        T: Iterator<Item = f32>;
}

/// A channel's keys as `(time, value)`, and its key times alone (cheaper: no value is
/// made).
struct KeyChannel<K, T> {
    keys: K,
    times: T,
}

/// The latest valid key time over every channel (`None` when no key is valid): the last
/// key time of the cleaned curves, found without building them.
struct LastKey(Option<f32>);

impl ChannelVisitor for LastKey {
    fn channel<const W: usize, I, T>(
        &mut self,
        _: u32,
        _: Property,
        channel: KeyChannel<impl Fn() -> I, impl Fn() -> T>,
    ) where
        I: DoubleEndedIterator<Item = (f32, [f32; W])>,
        T: Iterator<Item = f32>,
    {
        let mut keep = |time| self.0 = Some(self.0.unwrap_or(0.0).max(time));
        let kept = |(time, value): &(f32, [f32; W])| is_valid(*time, value) && *time >= 0.0;
        // Times in order (what real files hold; a NaN is out of order): the last valid key
        // is the latest, found from the end without making every value (a rotation's is
        // normalized).
        if (channel.times)().is_sorted() {
            if let Some((time, _)) = (channel.keys)().rev().find(kept) {
                keep(time);
            }
            return;
        }
        (channel.keys)()
            .filter(kept)
            .for_each(|(time, _)| keep(time));
    }
}

/// Cleans each channel into a curve and writes it at once, so only one channel's keys are
/// held at a time. The first curve gets the key that keeps a declared length, if needed.
struct CurveWriter<'a, 'b> {
    animation: &'a Animation,
    /// The period of a looping animation: every curve ends with its first value there.
    wrap: Option<f32>,
    hold: Option<f32>,
    first: bool,
    gltf: AnimationWriter,
    builder: &'b mut Builder,
    inputs: &'b mut Inputs,
    stats: KeyStats,
}

impl ChannelVisitor for CurveWriter<'_, '_> {
    fn channel<const W: usize, I, T>(
        &mut self,
        joint: u32,
        property: Property,
        channel: KeyChannel<impl Fn() -> I, impl Fn() -> T>,
    ) where
        I: DoubleEndedIterator<Item = (f32, [f32; W])>,
        T: Iterator<Item = f32>,
    {
        // Linear and step curves without an added key go from the keys to the buffer when
        // they need no cleaning (what real files hold).
        let added_key = self.wrap.is_some() || (self.first && self.hold.is_some());
        let plain = matches!(
            self.animation.interpolation,
            Interpolation::Linear | Interpolation::Step
        );
        if plain && !added_key {
            let (builder, inputs) = (&mut *self.builder, &mut *self.inputs);
            match self.gltf.write_clean(
                self.animation,
                joint,
                property,
                &channel.keys,
                builder,
                inputs,
            ) {
                Clean::Written => {
                    self.first = false;
                    return;
                }
                Clean::Empty => return,
                Clean::Unclean => {}
            }
        }
        let Some(mut curve) = curve(joint, property, channel.keys, &mut self.stats) else {
            return;
        };
        let hold_from = match (self.wrap, self.hold) {
            (Some(period), _) => wrap_curve(&mut curve, period),
            (None, Some(time)) if self.first => Some(hold_curve(&mut curve, time)),
            _ => None,
        };
        self.first = false;
        let (animation, builder, inputs) = (self.animation, &mut *self.builder, &mut *self.inputs);
        self.gltf
            .write(animation, &curve, hold_from, builder, inputs);
    }
}

/// Visits the key channels of an animation in track order: translation, rotation, scale.
/// Tracks of missing joints and repeated tracks are skipped (and counted).
fn for_each_channel(
    animation: &Animation,
    joint_count: usize,
    stats: &mut KeyStats,
    visitor: &mut impl ChannelVisitor,
) {
    // Of several tracks for one joint the first wins, as in `Animation::track`, posing and
    // every format writer (so OBJ poses, glTF and MilkShape/IQE outputs of one file agree).
    let mut first_track = vec![None; joint_count];
    for (index, track) in animation.tracks.iter().enumerate() {
        if let Some(slot @ None) = first_track.get_mut(track.joint.index()) {
            *slot = Some(index);
        }
    }
    for (index, track) in animation.tracks.iter().enumerate() {
        let Some(first) = first_track.get(track.joint.index()) else {
            stats.missing_joint_tracks += 1;
            continue;
        };
        if *first != Some(index) {
            stats.duplicate_tracks += 1;
            continue;
        }
        let joint = track.joint.0;
        let rotations = || {
            track.rotations.iter().map(|k| {
                // A zero or broken quaternion becomes NaN, which `curve` drops as invalid.
                (
                    k.time,
                    unit_rotation(k.value).unwrap_or(Quat::NAN).to_array(),
                )
            })
        };
        let translations = KeyChannel {
            keys: || vector(&track.translations),
            times: || times(&track.translations),
        };
        visitor.channel(joint, Property::Translation, translations);
        let rotations = KeyChannel {
            keys: rotations,
            times: || times(&track.rotations),
        };
        visitor.channel(joint, Property::Rotation, rotations);
        let scales = KeyChannel {
            keys: || vector(&track.scales),
            times: || times(&track.scales),
        };
        visitor.channel(joint, Property::Scale, scales);
    }
}

/// Whether a key can be kept: a finite time and finite values.
fn is_valid<const W: usize>(time: f32, value: &[f32; W]) -> bool {
    time.is_finite() && value.iter().all(|c| c.is_finite())
}

/// The times of keys.
fn times<T>(keys: &[Key<T>]) -> impl Iterator<Item = f32> + '_ {
    keys.iter().map(|k| k.time)
}

/// Vector keys as `(time, components)`.
fn vector(keys: &[Key<glam::Vec3>]) -> impl DoubleEndedIterator<Item = (f32, [f32; 3])> + '_ {
    keys.iter().map(|k| (k.time, k.value.to_array()))
}

/// Drops non-finite keys, sorts by time (stable) and keeps the last of keys sharing a time.
/// Keys are `(time, value)` with fixed-size values, so a channel costs one allocation, not
/// one per key.
fn curve<const W: usize, I: Iterator<Item = (f32, [f32; W])>>(
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
fn clean_keys<const W: usize>(
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
fn cleaned_keys<const W: usize>(
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
fn same_hemisphere(values: &mut [f32]) {
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
fn declared_length_hold(animation: &Animation, last: f32, report: &mut Report) -> Option<f32> {
    let declared = animation.duration;
    if !(declared.is_finite() && declared > last) {
        return None;
    }
    report.info(
        "gltf-animation-length-held",
        format!("animation `{}` lasts {declared} s but its last key is at {last} s; a holding key keeps the length", animation.name),
    );
    Some(declared)
}

/// The period of a looping animation whose last key comes before it (`None` otherwise). A
/// looping animation of N frames at F fps lasts N/F: after its last frame it blends back to
/// the first, so glTF players that loop get a key at N/F equal to the first.
fn loop_wrap(animation: &Animation, last: f32, report: &mut Report) -> Option<f32> {
    let period = rigport_anim::sample::period(animation);
    if !(animation.looping && period.is_finite() && period > last) {
        return None;
    }
    report.info(
        "gltf-animation-loop-wrap",
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
fn wrap_curve(curve: &mut Curve, period: f32) -> Option<usize> {
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
fn hold_curve(curve: &mut Curve, time: f32) -> usize {
    let hold_from = curve.times.len() - 1;
    let held = curve.values[curve.values.len() - curve.width..].to_vec();
    curve.times.push(time);
    curve.values.extend(held);
    hold_from
}

/// The key-time accessors written so far, by the bits of their times: curves with the same
/// times share one. Most curves have the times of the one before, which is checked first
/// (no key is built, nothing hashed).
#[derive(Default)]
struct Inputs {
    written: HashMap<Vec<u32>, json::Index<json::Accessor>>,
    last: Option<(Vec<u32>, json::Index<json::Accessor>)>,
}

impl Inputs {
    /// The accessor of `times`, written now if no curve had them before.
    fn get_or_write(
        &mut self,
        times: &[f32],
        builder: &mut Builder,
    ) -> json::Index<json::Accessor> {
        let bits = |times: &[f32]| times.iter().map(|t| t.to_bits()).collect::<Vec<u32>>();
        if let Some((last, input)) = &self.last {
            if last.len() == times.len() && last.iter().zip(times).all(|(b, t)| *b == t.to_bits()) {
                return *input;
            }
        }
        let key = bits(times);
        let input = *self
            .written
            .entry(key.clone())
            .or_insert_with(|| builder.accessor(times, Type::Scalar, Usage::KeyTimes));
        self.last = Some((key, input));
        input
    }
}

/// What [`AnimationWriter::write_clean`] did with a channel.
enum Clean {
    /// Written.
    Written,
    /// Nothing to write: the channel has no key.
    Empty,
    /// Nothing written: the keys need cleaning.
    Unclean,
}

/// The accessor type of values of `width` floats: rotations are `VEC4`, the rest `VEC3`.
fn value_type(width: usize) -> Type {
    if width == 4 { Type::Vec4 } else { Type::Vec3 }
}

/// The glTF animation being written: one sampler and one channel per curve.
#[derive(Default)]
struct AnimationWriter {
    samplers: Vec<Sampler>,
    channels: Vec<Channel>,
}

impl AnimationWriter {
    /// Writes a curve's key times (shared with earlier curves that have the same times) and
    /// values, and adds its sampler and channel.
    fn write(
        &mut self,
        animation: &Animation,
        curve: &Curve,
        hold_from: Option<usize>,
        builder: &mut Builder,
        inputs: &mut Inputs,
    ) {
        let cubic = animation.interpolation.is_cubic() && curve.times.len() >= 2;
        // Linear and step outputs are the curve's values as they are: no copy.
        let stored = match animation.interpolation {
            Interpolation::CubicSpline => stored_tangents(animation, curve),
            _ => None,
        };
        let (interpolation, output) = match (stored, animation.interpolation) {
            (Some(stored), _) => (GltfInterpolation::CubicSpline, Cow::Owned(stored)),
            _ if cubic => {
                let tangents = cubic_output(curve, hold_from);
                (GltfInterpolation::CubicSpline, Cow::Owned(tangents))
            }
            (None, Interpolation::Step) => (GltfInterpolation::Step, Cow::Borrowed(&curve.values)),
            (None, Interpolation::Linear | Interpolation::Cubic | Interpolation::CubicSpline) => {
                (GltfInterpolation::Linear, Cow::Borrowed(&curve.values))
            }
        };
        let input = inputs.get_or_write(&curve.times, builder);
        let output = builder.accessor(&output, value_type(curve.width), Usage::Plain);
        self.push(input, output, interpolation, curve.joint, curve.property);
    }

    /// Writes a channel of keys that need no cleaning (all valid, times non-negative and
    /// strictly increasing) as a linear or step curve, straight from the keys: the same
    /// accessors, sampler and channel as [`curve`] then [`AnimationWriter::write`], without
    /// the curve in between. Writes nothing unless the keys are clean.
    fn write_clean<const W: usize, I: Iterator<Item = (f32, [f32; W])>>(
        &mut self,
        animation: &Animation,
        joint: u32,
        property: Property,
        keys: &impl Fn() -> I,
        builder: &mut Builder,
        inputs: &mut Inputs,
    ) -> Clean {
        // First the keys are checked, and their times held to the previous curve's.
        let last = inputs.last.as_ref();
        let mut same_times = last.is_some();
        let mut previous = f32::NEG_INFINITY;
        let mut count = 0usize;
        for (time, value) in keys() {
            if !(is_valid(time, &value) && time >= 0.0 && time > previous) {
                return Clean::Unclean;
            }
            same_times = same_times
                && last.and_then(|(bits, _)| bits.get(count)) == Some(&(time + 0.0).to_bits());
            previous = time;
            count += 1;
        }
        if count == 0 {
            return Clean::Empty;
        }
        let input = match last {
            Some((bits, input)) if same_times && bits.len() == count => *input,
            _ => {
                let times: Vec<f32> = keys().map(|(time, _)| time + 0.0).collect(); // −0 → +0
                inputs.get_or_write(&times, builder)
            }
        };
        // Then the values go to the buffer, rotations each within 90° of the one before.
        let mut before: Option<[f32; W]> = None;
        let values = keys().map(|(_, mut value)| {
            if property == Property::Rotation {
                let dot = |p: [f32; W]| p.iter().zip(&value).map(|(a, b)| a * b).sum::<f32>();
                if before.is_some_and(|p| dot(p) < 0.0) {
                    value.iter_mut().for_each(|c| *c = -*c);
                }
                before = Some(value);
            }
            value
        });
        let output = builder.accessor_from(values, value_type(W), Usage::Plain);
        let interpolation = match animation.interpolation {
            Interpolation::Step => GltfInterpolation::Step,
            _ => GltfInterpolation::Linear,
        };
        self.push(input, output, interpolation, joint, property);
        Clean::Written
    }

    /// Adds the sampler and the channel of a curve whose accessors are written.
    fn push(
        &mut self,
        input: json::Index<json::Accessor>,
        output: json::Index<json::Accessor>,
        interpolation: GltfInterpolation,
        joint: u32,
        property: Property,
    ) {
        let sampler = json::Index::push(
            &mut self.samplers,
            Sampler {
                extensions: None,
                extras: Default::default(),
                input,
                interpolation: Checked::Valid(interpolation),
                output,
            },
        );
        self.channels.push(Channel {
            sampler,
            target: Target {
                extensions: None,
                extras: Default::default(),
                node: json::Index::new(joint),
                path: Checked::Valid(property),
            },
            extensions: None,
            extras: Default::default(),
        });
    }

    fn finish(self, animation: &Animation) -> json::Animation {
        json::Animation {
            extensions: None,
            extras: Default::default(),
            channels: self.channels,
            name: Some(animation.name.clone()),
            samplers: self.samplers,
        }
    }
}

/// `CUBICSPLINE` output from the tangents the model stores ([`Interpolation::CubicSpline`],
/// e.g. read from a glTF file): `None` unless the curve holds exactly the track's keys —
/// same times, same values (cleaning, a holding or looping key, or a quaternion flipped to
/// the other hemisphere would pair the tangents with other values) — and one tangent per
/// key. The caller then falls back to Catmull-Rom tangents.
fn stored_tangents(animation: &Animation, curve: &Curve) -> Option<Vec<f32>> {
    let track = animation.track(rigport_model_core::JointId(curve.joint))?;
    let (times, values, tangents) = match curve.property {
        Property::Translation => flat_keys(&track.translations, &track.translation_tangents, 3),
        Property::Rotation => flat_keys(&track.rotations, &track.rotation_tangents, 4),
        Property::Scale => flat_keys(&track.scales, &track.scale_tangents, 3),
        Property::MorphTargetWeights => return None,
    };
    let w = curve.width;
    let same = times.len() == curve.times.len()
        && tangents.len() == times.len()
        && times
            .iter()
            .zip(&curve.times)
            .all(|(a, b)| a.to_bits() == (b + 0.0).to_bits() || a == b)
        && values
            .iter()
            .zip(&curve.values)
            .all(|(a, b)| (a - b).abs() <= 1e-5);
    if !same {
        return None;
    }
    let mut out: Vec<f32> = Vec::with_capacity(times.len() * 3 * w);
    for (k, [in_tangent, out_tangent]) in tangents.iter().enumerate() {
        out.extend(&in_tangent[..w]);
        out.extend(&curve.values[k * w..(k + 1) * w]);
        out.extend(&out_tangent[..w]);
    }
    out.iter().all(|v| v.is_finite()).then_some(out)
}

/// A track's keys as times, values (`width` numbers each) and tangent pairs (padded to four
/// numbers).
fn flat_keys<T: Padded, U: Padded>(
    keys: &[rigport_model_core::Key<T>],
    tangents: &[rigport_model_core::Tangents<U>],
    width: usize,
) -> (Vec<f32>, Vec<f32>, Vec<[[f32; 4]; 2]>) {
    (
        keys.iter().map(|k| k.time).collect(),
        keys.iter()
            .flat_map(|k| k.value.padded().into_iter().take(width))
            .collect(),
        tangents
            .iter()
            .map(|t| [t.in_tangent.padded(), t.out_tangent.padded()])
            .collect(),
    )
}

/// A key's value or tangent as four numbers, zeros after its own.
trait Padded: Copy {
    fn padded(self) -> [f32; 4];
}

impl Padded for glam::Vec3 {
    fn padded(self) -> [f32; 4] {
        self.extend(0.0).to_array()
    }
}

impl Padded for glam::Quat {
    fn padded(self) -> [f32; 4] {
        self.to_array()
    }
}

impl Padded for glam::Vec4 {
    fn padded(self) -> [f32; 4] {
        self.to_array()
    }
}

/// `CUBICSPLINE` output: for each key its in-tangent, value and out-tangent, with
/// Catmull-Rom tangents `(v[k+1] − v[k−1]) / (t[k+1] − t[k−1])` (per second, as glTF wants)
/// and one-sided differences at the ends. Both tangents of a key are equal, so the curve is
/// C¹. `hold` names the key before an added holding key: its out-tangent and the holding
/// key's tangents are zero, so the hold stays flat.
fn cubic_output(curve: &Curve, hold: Option<usize>) -> Vec<f32> {
    let n = curve.times.len();
    let w = curve.width;
    let end = if hold.is_some() { n - 1 } else { n };
    let value = |k: usize| &curve.values[k * w..(k + 1) * w];
    let mut out = Vec::with_capacity(n * 3 * w);
    for k in 0..n {
        let tangent: Vec<f32> = if k >= end || end < 2 {
            vec![0.0; w]
        } else {
            let (a, b) = (k.saturating_sub(1), (k + 1).min(end - 1));
            let dt = curve.times[b] - curve.times[a];
            value(b)
                .iter()
                .zip(value(a))
                .map(|(vb, va)| (vb - va) / dt)
                .collect()
        };
        let out_tangent = if Some(k) == hold {
            vec![0.0; w]
        } else {
            tangent.clone()
        };
        out.extend(&tangent);
        out.extend(value(k));
        out.extend(out_tangent);
    }
    out
}

/// Turns the key counts into report notices.
fn report_key_stats(stats: &KeyStats, report: &mut Report) {
    use Severity::{Loss, Warning};
    report_counts(
        report,
        &[
            (
                stats.missing_joint_tracks,
                Loss,
                "gltf-track-joint-missing",
                "animation tracks name a joint that does not exist; left out",
            ),
            (
                stats.duplicate_tracks,
                Loss,
                "gltf-track-duplicate",
                "animation tracks repeat a joint already animated; only the first is kept",
            ),
            (
                stats.invalid,
                Loss,
                "gltf-key-invalid",
                "keys had a non-finite time or value (or a zero rotation); left out",
            ),
            (
                stats.negative,
                Loss,
                "gltf-key-time-negative",
                "keys had a negative time (glTF times start at 0); left out",
            ),
            (
                stats.reordered_channels,
                Warning,
                "gltf-keys-reordered",
                "key channels were not in time order; sorted",
            ),
            (
                stats.collapsed,
                Loss,
                "gltf-key-duplicate-time",
                "keys shared a time with a later key of the same channel; the later one is kept",
            ),
        ],
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The latest valid key time of `keys`, found by looking at every key.
    fn latest(keys: &[(f32, [f32; 4])]) -> Option<f32> {
        let valid = keys.iter().filter(|(t, v)| is_valid(*t, v) && *t >= 0.0);
        valid.map(|(t, _)| *t).reduce(f32::max)
    }

    #[test]
    fn the_last_key_is_the_latest_valid_one_in_any_order() {
        let (nan, inf) = (f32::NAN, f32::INFINITY);
        let unit = [0.0, 0.0, 0.0, 1.0];
        let channels: Vec<Vec<(f32, [f32; 4])>> = vec![
            vec![],
            vec![(0.0, unit), (1.0, unit), (2.0, unit)],
            // Sorted, the last keys invalid: found from the end past them.
            vec![(0.0, unit), (1.0, unit), (2.0, [nan; 4]), (inf, unit)],
            vec![(-2.0, unit), (-1.0, unit)],
            // Out of order, or with a NaN time: every key is looked at.
            vec![(3.0, unit), (1.0, unit), (2.0, unit)],
            vec![(1.0, unit), (nan, unit), (0.5, unit)],
            vec![(0.0, unit), (4.0, [nan; 4]), (1.0, unit), (0.5, unit)],
            vec![(-0.0, unit), (0.0, [0.0; 4])],
        ];
        for keys in &channels {
            let mut last = LastKey(None);
            last.channel(
                0,
                Property::Rotation,
                KeyChannel {
                    keys: || keys.iter().copied(),
                    times: || keys.iter().map(|(t, _)| *t),
                },
            );
            assert_eq!(last.0, latest(keys), "{keys:?}");
        }
    }
}
