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
//!
//! * [`channels`]: the key channels of an animation, visited in track order;
//! * [`clean`]: key cleaning and its report;
//! * [`morph`]: morph-target weight tracks as `weights` channels;
//! * here: accessors, samplers and channels written into the buffer.

mod channels;
mod clean;
mod morph;

pub(super) use morph::aim_weight_channels;

use super::buffer::{Builder, Usage};
use channels::*;
use clean::*;
use gltf_json as json;
use json::accessor::Type;
use json::animation::{Channel, Interpolation as GltfInterpolation, Property, Sampler, Target};
use json::validation::Checked;
use rigport_model_core::{Animation, Interpolation, Model, Report};
use std::borrow::Cow;
use std::collections::HashMap;

/// Writes every animation that has at least one valid key. Joint `i` is node `i`.
///
/// Each curve is written as soon as it is cleaned, so only one channel's keys are held at
/// a time; a first pass (cleaning without keeping) finds whether an animation has keys at all
/// and when its last key is, which the first curve needs to keep a declared length.
pub(super) fn write_animations(model: &Model, builder: &mut Builder, report: &mut Report) {
    let mut inputs = Inputs::default();
    let mut stats = KeyStats::default();
    let mut written = 0usize;
    let mut cleaned_weights = 0usize;
    let joint_count = model.skeleton.joints.len();
    for animation in &model.animations {
        let mut last = LastKey(None);
        for_each_channel(animation, joint_count, &mut KeyStats::default(), &mut last);
        let last = match (last.0, morph::last_weight_key(animation)) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        let Some(last) = last else {
            report.loss(
                rigport_model_core::codes::GLTF_ANIMATION_EMPTY,
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
        cleaned_weights += morph::write_weight_tracks(
            animation,
            model.meshes.len(),
            &mut writer.gltf,
            writer.builder,
            writer.inputs,
        );
        let (gltf, key_stats) = (writer.gltf.finish(animation), writer.stats);
        stats.add(&key_stats);
        builder.root.push(gltf);
        written += 1;
    }
    report_key_stats(&stats, report);
    morph::report_cleaned(cleaned_weights, report);
    if written > 0 {
        report.info(
            rigport_model_core::codes::GLTF_ANIMATION_FPS_LOOP,
            format!("frame rate and loop flag of {written} animations kept in their `extras` (`fps`, `looping`), which rigport reads back and glTF players ignore"),
        );
    }
}

/// `extras` of an animation: its frame rate (when finite and positive) and, when it loops,
/// `looping` — what glTF has no field for, so that rigport reads them back
/// ([`crate::import`]) and a looping animation's wrap keys are known as such.
fn timing_extras(animation: &Animation) -> json::extras::Extras {
    let mut extras = serde_json::Map::new();
    if animation.fps.is_finite() && animation.fps > 0.0 {
        extras.insert("fps".into(), serde_json::json!(animation.fps));
    }
    if animation.looping {
        extras.insert("looping".into(), serde_json::Value::Bool(true));
    }
    if extras.is_empty() {
        return None;
    }
    json::extras::RawValue::from_string(serde_json::Value::Object(extras).to_string()).ok()
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
            extras: timing_extras(animation),
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
