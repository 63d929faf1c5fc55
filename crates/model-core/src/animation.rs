//! Animations: per-joint tracks of absolute local transforms keyed in seconds.

use crate::{JointId, MorphTrack};
use glam::{Quat, Vec3, Vec4};

/// How values between two keys are found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Interpolation {
    /// Linear for vectors, shortest-path normalized slerp for rotations.
    #[default]
    Linear,
    /// Hold the previous key's value until the next key.
    Step,
    /// Cubic (Catmull-Rom tangents from neighbouring keys).
    Cubic,
    /// glTF's `CUBICSPLINE`: a cubic Hermite spline with an in- and an out-tangent stored
    /// per key ([`Track::translation_tangents`] and its siblings). A channel whose tangents
    /// do not line up with its keys is sampled like [`Interpolation::Cubic`].
    CubicSpline,
}

impl Interpolation {
    /// Whether values between keys follow a cubic curve ([`Interpolation::Cubic`] or
    /// [`Interpolation::CubicSpline`]): writers that store only linear keys sample it.
    pub const fn is_cubic(self) -> bool {
        matches!(self, Self::Cubic | Self::CubicSpline)
    }
}

/// The in- and out-tangent of one key of an [`Interpolation::CubicSpline`] channel, in value
/// units per second (as glTF stores them): the curve leaves the key with slope
/// `out_tangent` and arrives at it with slope `in_tangent`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tangents<T> {
    /// Slope arriving at the key.
    pub in_tangent: T,
    /// Slope leaving the key.
    pub out_tangent: T,
}

impl<T: Copy> Tangents<T> {
    /// Both tangents equal (a curve smooth through the key).
    pub const fn both(tangent: T) -> Self {
        Self {
            in_tangent: tangent,
            out_tangent: tangent,
        }
    }
}

/// One key: a time in seconds and the value from then on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Key<T> {
    /// Time in seconds from the start of the animation.
    pub time: f32,
    /// Value at that time.
    pub value: T,
}

impl<T> Key<T> {
    /// A key at `time` seconds.
    pub const fn new(time: f32, value: T) -> Self {
        Self { time, value }
    }
}

/// The keys of one joint. Values are absolute transforms local to the parent (not deltas from
/// the bind pose); an empty channel means "the bind value".
///
/// The `*_tangents` vectors are used by [`Interpolation::CubicSpline`] only: either empty or
/// parallel to their channel's keys (tangent `i` belongs to key `i`). Every other mode
/// ignores them, so code that builds tracks with [`Track::new`] never has to fill them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Track {
    /// Animated joint.
    pub joint: JointId,
    /// Translation keys.
    pub translations: Vec<Key<Vec3>>,
    /// Rotation keys (unit quaternions).
    pub rotations: Vec<Key<Quat>>,
    /// Scale keys.
    pub scales: Vec<Key<Vec3>>,
    /// Cubic-spline tangents of the translation keys (empty, or one per key).
    pub translation_tangents: Vec<Tangents<Vec3>>,
    /// Cubic-spline tangents of the rotation keys as quaternion components `x, y, z, w`
    /// (empty, or one per key). They are not rotations, so not [`Quat`]s.
    pub rotation_tangents: Vec<Tangents<Vec4>>,
    /// Cubic-spline tangents of the scale keys (empty, or one per key).
    pub scale_tangents: Vec<Tangents<Vec3>>,
}

impl Track {
    /// An empty track for a joint.
    pub fn new(joint: JointId) -> Self {
        Self {
            joint,
            ..Self::default()
        }
    }

    /// Whether the track has no keys in any channel.
    pub fn is_empty(&self) -> bool {
        self.translations.is_empty() && self.rotations.is_empty() && self.scales.is_empty()
    }

    /// Whether some channel carries cubic-spline tangents.
    pub fn has_tangents(&self) -> bool {
        !(self.translation_tangents.is_empty()
            && self.rotation_tangents.is_empty()
            && self.scale_tangents.is_empty())
    }

    /// Drops every cubic-spline tangent (after the keys were resampled, say).
    pub fn clear_tangents(&mut self) {
        self.translation_tangents.clear();
        self.rotation_tangents.clear();
        self.scale_tangents.clear();
    }

    /// Number of keys over all channels.
    pub fn key_count(&self) -> usize {
        self.translations.len() + self.rotations.len() + self.scales.len()
    }

    /// Time of the last key in any channel, or 0 when there is none.
    pub fn end_time(&self) -> f32 {
        let last = |times: &mut dyn Iterator<Item = f32>| times.fold(0.0_f32, f32::max);
        last(&mut self.translations.iter().map(|k| k.time))
            .max(last(&mut self.rotations.iter().map(|k| k.time)))
            .max(last(&mut self.scales.iter().map(|k| k.time)))
    }
}

/// A named animation.
#[derive(Clone, Debug, PartialEq)]
pub struct Animation {
    /// Name as shown to a person.
    pub name: String,
    /// Frames per second the source used (for frame-based formats and display).
    pub fps: f32,
    /// Whether the animation repeats.
    pub looping: bool,
    /// How to sample between keys.
    pub interpolation: Interpolation,
    /// Length in seconds as the source declares it; may exceed the last key time.
    pub duration: f32,
    /// One track per animated joint, at most one per joint.
    pub tracks: Vec<Track>,
    /// Animated morph-target weights, at most one track per mesh (empty for most models).
    pub morph_tracks: Vec<MorphTrack>,
}

impl Default for Animation {
    fn default() -> Self {
        Self {
            name: String::new(),
            fps: 24.0,
            looping: false,
            interpolation: Interpolation::Linear,
            duration: 0.0,
            tracks: Vec::new(),
            morph_tracks: Vec::new(),
        }
    }
}

impl Animation {
    /// An empty animation with a name and frame rate.
    pub fn new(name: impl Into<String>, fps: f32) -> Self {
        Self {
            name: name.into(),
            fps,
            ..Self::default()
        }
    }

    /// The track of a joint, if it has one.
    pub fn track(&self, joint: JointId) -> Option<&Track> {
        self.tracks.iter().find(|t| t.joint == joint)
    }

    /// Number of frames the animation spans at its own frame rate: its [`Animation::end_time`]
    /// in frames, rounded, plus the first (what `info` counts).
    pub fn frame_count(&self) -> u64 {
        (self.end_time() * self.fps).round().max(0.0) as u64 + 1
    }

    /// The later of the declared duration and the last key time (joint or morph weight).
    pub fn end_time(&self) -> f32 {
        self.tracks
            .iter()
            .map(Track::end_time)
            .chain(self.morph_tracks.iter().map(MorphTrack::end_time))
            .fold(self.duration, f32::max)
    }

    /// The weight track of a mesh, if it has one.
    pub fn morph_track(&self, mesh: crate::MeshId) -> Option<&MorphTrack> {
        self.morph_tracks.iter().find(|t| t.mesh == mesh)
    }
}
