//! The key channels of an animation (translation, rotation, scale per joint, in track
//! order), visited once to find the last key time and once to clean and write each curve.

use super::*;
use crate::export::buffer::Builder;
use crate::export::skeleton::unit_rotation;
use glam::Quat;
use gltf_json as json;
use json::animation::Property;
use rigport_model_core::{Animation, Interpolation};

/// What is done with each key channel of an animation.
pub(super) trait ChannelVisitor {
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
pub(super) struct KeyChannel<K, T> {
    pub(super) keys: K,
    pub(super) times: T,
}

/// The latest valid key time over every channel (`None` when no key is valid): the last
/// key time of the cleaned curves, found without building them.
pub(super) struct LastKey(pub(super) Option<f32>);

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
pub(super) struct CurveWriter<'a, 'b> {
    pub(super) animation: &'a Animation,
    /// The period of a looping animation: every curve ends with its first value there.
    pub(super) wrap: Option<f32>,
    pub(super) hold: Option<f32>,
    pub(super) first: bool,
    pub(super) gltf: AnimationWriter,
    pub(super) builder: &'b mut Builder,
    pub(super) inputs: &'b mut Inputs,
    pub(super) stats: KeyStats,
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
pub(super) fn for_each_channel(
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
