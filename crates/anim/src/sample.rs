//! Sampling keyed channels at a time: linear (slerp for rotations), step and cubic.
//!
//! Keys must be sorted by time — [`crate::normalize_animation`] sorts them once; sampling
//! itself never allocates and finds the segment by binary search. On unsorted keys the
//! result is meaningless but deterministic, and never a panic.
//!
//! * Before the first key and after the last, the end key is held.
//! * An empty channel gives the fallback (the joint's bind value).
//! * Equal key times (a "cut"): the segment before approaches the first of them, and from
//!   that time on the last of them holds — the value jumps there.
//! * [`Interpolation::Cubic`] is a cubic Hermite spline whose tangents are the
//!   Catmull-Rom finite differences `(p[k+1] − p[k−1]) / (t[k+1] − t[k−1])` (one-sided at
//!   the first and last key and beside a cut, zero between two cuts), so it passes through every key. Rotations
//!   are interpolated component-wise on sign-aligned quaternions and normalized, as glTF's
//!   cubic spline does.

use glam::{Mat4, Quat, Vec3, Vec4};
use rigport_model_core::{Animation, Interpolation, Joint, Key, Track};

/// A value a channel can hold and interpolate.
pub trait Interpolate: Copy {
    /// The value `s` (in `0..=1`) of the way from `a` to `b`: `lerp` for vectors, the
    /// shortest-path slerp, normalized, for rotations.
    fn linear(a: Self, b: Self, s: f32) -> Self;
    /// The value as four numbers (vectors get `w = 0`), for cubic interpolation.
    fn to_vec4(self) -> Vec4;
    /// The value back from four numbers (rotations are normalized; a zero one becomes the
    /// identity).
    fn from_vec4(v: Vec4) -> Self;
    /// `v` moved to the same side as `reference` when the value has two representations
    /// (`q` and `−q` are the same rotation); unchanged for vectors.
    fn align(v: Vec4, _reference: Vec4) -> Vec4 {
        v
    }
}

impl Interpolate for Vec3 {
    fn linear(a: Self, b: Self, s: f32) -> Self {
        a.lerp(b, s)
    }
    fn to_vec4(self) -> Vec4 {
        self.extend(0.0)
    }
    fn from_vec4(v: Vec4) -> Self {
        v.truncate()
    }
}

impl Interpolate for Quat {
    fn linear(a: Self, b: Self, s: f32) -> Self {
        // glam's slerp flips `b` when `a·b < 0`, i.e. takes the shortest path.
        Self::from_vec4(Vec4::from(a.slerp(b, s)))
    }
    fn to_vec4(self) -> Vec4 {
        Vec4::from(self)
    }
    fn from_vec4(v: Vec4) -> Self {
        v.try_normalize().map_or(Quat::IDENTITY, Quat::from_vec4)
    }
    fn align(v: Vec4, reference: Vec4) -> Vec4 {
        if v.dot(reference) < 0.0 { -v } else { v }
    }
}

/// The value of a channel at `time` seconds; `fallback` when it has no keys.
pub fn sample<T: Interpolate>(keys: &[Key<T>], time: f32, mode: Interpolation, fallback: T) -> T {
    let (Some(first), Some(last)) = (keys.first(), keys.last()) else {
        return fallback;
    };
    // First key strictly after `time` (a NaN time finds 0 and holds the first key).
    let next = keys.partition_point(|k| k.time <= time);
    if next == 0 {
        return first.value;
    }
    if next >= keys.len() {
        return last.value;
    }
    let (a, b) = (keys[next - 1], keys[next]);
    let s = fraction(a.time, b.time, time);
    match mode {
        Interpolation::Step => a.value,
        Interpolation::Linear => T::linear(a.value, b.value, s),
        Interpolation::Cubic => cubic(keys, next - 1, s),
    }
}

/// How far `time` is from `start` to `end`, clamped to `0..=1` (0 for an empty segment).
fn fraction(start: f32, end: f32, time: f32) -> f32 {
    let s = (time - start) / (end - start);
    if s.is_finite() {
        s.clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// Cubic Hermite between keys `a` and `a + 1` (both exist) at fraction `s`.
fn cubic<T: Interpolate>(keys: &[Key<T>], a: usize, s: f32) -> T {
    let dt = keys[a + 1].time - keys[a].time;
    let pa = keys[a].value.to_vec4();
    let pb = T::align(keys[a + 1].value.to_vec4(), pa);
    let ma = tangent(keys, a, pa);
    let mb = tangent(keys, a + 1, pb);
    let (s2, s3) = (s * s, s * s * s);
    let h00 = 2.0 * s3 - 3.0 * s2 + 1.0;
    let h10 = s3 - 2.0 * s2 + s;
    let h01 = 3.0 * s2 - 2.0 * s3;
    let h11 = s3 - s2;
    T::from_vec4(pa * h00 + ma * (h10 * dt) + pb * h01 + mb * (h11 * dt))
}

/// Catmull-Rom slope at key `k` (value `pk`, already aligned), per second. A neighbour at the
/// same time as key `k` lies across a cut (the value jumps there), so the slope is taken on
/// the other side only; with cuts on both sides it is zero.
fn tangent<T: Interpolate>(keys: &[Key<T>], k: usize, pk: Vec4) -> Vec4 {
    let time = keys[k].time;
    let mut prev = k.saturating_sub(1);
    let mut next = (k + 1).min(keys.len() - 1);
    if keys[prev].time == time {
        prev = k;
    }
    if keys[next].time == time {
        next = k;
    }
    let dt = keys[next].time - keys[prev].time;
    let p0 = T::align(keys[prev].value.to_vec4(), pk);
    let p1 = T::align(keys[next].value.to_vec4(), pk);
    let slope = (p1 - p0) / dt;
    if dt > 0.0 && slope.is_finite() {
        slope
    } else {
        Vec4::ZERO
    }
}

/// A joint's local transform, `T(translation)·R(rotation)·S(scale)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    /// Translation relative to the parent.
    pub translation: Vec3,
    /// Rotation relative to the parent (unit quaternion).
    pub rotation: Quat,
    /// Scale.
    pub scale: Vec3,
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Transform {
    /// No translation, rotation or scale.
    pub const IDENTITY: Self = Self {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
    };

    /// The bind transform of a joint.
    pub fn of_joint(joint: &Joint) -> Self {
        Self {
            translation: joint.translation,
            rotation: joint.rotation,
            scale: joint.scale,
        }
    }

    /// The matrix `T·R·S`.
    pub fn to_mat4(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }
}

/// A track's local transform at `time` seconds; channels without keys take `bind`'s value.
pub fn sample_track(track: &Track, time: f32, mode: Interpolation, bind: &Transform) -> Transform {
    Transform {
        translation: sample(&track.translations, time, mode, bind.translation),
        rotation: sample(&track.rotations, time, mode, bind.rotation),
        scale: sample(&track.scales, time, mode, bind.scale),
    }
}

/// Length of one cycle of an animation: the later of its declared duration and its last
/// key time. Reads only the last key of each channel, so the keys must be sorted.
pub fn period(animation: &Animation) -> f32 {
    animation.end_time()
}

/// The time at which to sample an animation asked for at `time` seconds: a looping
/// animation wraps into `[0, period)`; a non-looping one is unchanged (sampling holds its
/// end keys). A time that is not finite means 0.
pub fn animation_time(animation: &Animation, time: f32) -> f32 {
    if !time.is_finite() {
        return 0.0;
    }
    let period = period(animation);
    if animation.looping && period > 0.0 && period.is_finite() {
        time.rem_euclid(period)
    } else {
        time
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::FRAC_PI_2;

    fn keys(values: &[(f32, f32)]) -> Vec<Key<Vec3>> {
        values
            .iter()
            .map(|&(t, x)| Key::new(t, Vec3::new(x, 0.0, 0.0)))
            .collect()
    }

    fn x_at(keys: &[Key<Vec3>], t: f32, mode: Interpolation) -> f32 {
        sample(keys, t, mode, Vec3::splat(-99.0)).x
    }

    #[test]
    fn empty_channel_gives_the_fallback() {
        assert_eq!(
            sample::<Vec3>(&[], 1.0, Interpolation::Linear, Vec3::ONE),
            Vec3::ONE
        );
    }

    #[test]
    fn holds_the_end_keys_outside_the_key_range() {
        let k = keys(&[(1.0, 10.0), (2.0, 20.0)]);
        for mode in [
            Interpolation::Linear,
            Interpolation::Step,
            Interpolation::Cubic,
        ] {
            assert_eq!(x_at(&k, -5.0, mode), 10.0);
            assert_eq!(x_at(&k, 0.999, mode), 10.0);
            assert_eq!(x_at(&k, 2.0, mode), 20.0);
            assert_eq!(x_at(&k, 100.0, mode), 20.0);
            assert_eq!(x_at(&k, f32::NAN, mode), 10.0);
        }
    }

    #[test]
    fn linear_and_step_between_keys() {
        let k = keys(&[(0.0, 0.0), (1.0, 10.0), (3.0, 30.0)]);
        assert!((x_at(&k, 0.25, Interpolation::Linear) - 2.5).abs() < 1e-6);
        // 2.0 is half way from t=1 (10) to t=3 (30).
        assert!((x_at(&k, 2.0, Interpolation::Linear) - 20.0).abs() < 1e-6);
        assert_eq!(x_at(&k, 0.99, Interpolation::Step), 0.0);
        assert_eq!(x_at(&k, 1.0, Interpolation::Step), 10.0);
        assert_eq!(x_at(&k, 2.99, Interpolation::Step), 10.0);
    }

    #[test]
    fn cubic_passes_through_every_key_and_follows_a_line() {
        let k = keys(&[(0.0, 1.0), (0.5, -3.0), (2.0, 7.0), (2.5, 2.0)]);
        for key in &k {
            assert!((x_at(&k, key.time, Interpolation::Cubic) - key.value.x).abs() < 1e-6);
        }
        // Keys on a straight line x = 4t (uneven spacing): Catmull-Rom tangents equal the
        // slope 4 everywhere, so the curve is the line itself.
        let line = keys(&[(0.0, 0.0), (1.0, 4.0), (3.0, 12.0), (3.5, 14.0)]);
        for t in [0.3_f32, 1.7, 2.2, 3.25] {
            assert!((x_at(&line, t, Interpolation::Cubic) - 4.0 * t).abs() < 1e-5);
        }
    }

    #[test]
    fn cubic_mid_segment_by_hand() {
        // Keys (0,0) (1,1) (2,0): tangent at t=0 is one-sided (1−0)/1 = 1, at t=1 it is
        // (0−0)/2 = 0. At s = ½: h00=½, h10=⅛, h01=½, h11=−⅛ → 0·½ + 1·⅛ + 1·½ + 0 = 0.625.
        let k = keys(&[(0.0, 0.0), (1.0, 1.0), (2.0, 0.0)]);
        assert!((x_at(&k, 0.5, Interpolation::Cubic) - 0.625).abs() < 1e-6);
    }

    #[test]
    fn equal_times_jump_at_that_time() {
        let k = keys(&[(0.0, 0.0), (1.0, 10.0), (1.0, 50.0), (2.0, 60.0)]);
        // Approaches the first of the pair from before…
        assert!((x_at(&k, 0.5, Interpolation::Linear) - 5.0).abs() < 1e-6);
        // …and the last of the pair holds from that time on.
        assert_eq!(x_at(&k, 1.0, Interpolation::Linear), 50.0);
        assert!((x_at(&k, 1.5, Interpolation::Linear) - 55.0).abs() < 1e-6);
        // Cubic takes its tangents on this side of the cut: at t=0 one-sided (10−0)/1 = 10,
        // at t=1 (10−0)/1 = 10, so the segment is the line x = 10t and t=0.5 gives 5 (taking
        // the neighbour 50 across the jump would give a tangent of 50 and x(0.5) = 0).
        assert!((x_at(&k, 0.5, Interpolation::Cubic) - 5.0).abs() < 1e-5);
        assert!(x_at(&k, 0.9, Interpolation::Cubic).is_finite());
    }

    #[test]
    fn rotations_take_the_shortest_path() {
        // 0° and 270° about Z, the second stored as −q: half way is 315° (= −45°), not 135°.
        let a = Quat::IDENTITY;
        let b = -Quat::from_rotation_z(3.0 * FRAC_PI_2);
        let k = [Key::new(0.0, a), Key::new(1.0, b)];
        for mode in [Interpolation::Linear, Interpolation::Cubic] {
            let q = sample(&k, 0.5, mode, Quat::IDENTITY);
            assert!((q.length() - 1.0).abs() < 1e-6);
            let x = q * Vec3::X;
            // −45° about Z takes +X to (cos −45°, sin −45°, 0).
            let expected = Vec3::new(0.5_f32.sqrt(), -(0.5_f32.sqrt()), 0.0);
            assert!((x - expected).length() < 1e-5, "{mode:?}: {x}");
        }
    }

    #[test]
    fn looping_wraps_with_the_period() {
        let mut anim = Animation::new("a", 30.0);
        let mut track = Track::new(rigport_model_core::JointId(0));
        track.translations = keys(&[(0.0, 0.0), (2.0, 20.0)]);
        anim.tracks.push(track);
        assert_eq!(animation_time(&anim, 5.0), 5.0);
        anim.looping = true;
        assert!((animation_time(&anim, 5.0) - 1.0).abs() < 1e-6);
        assert!((animation_time(&anim, -0.5) - 1.5).abs() < 1e-6);
        // A declared duration beyond the last key lengthens the period.
        anim.duration = 4.0;
        assert!((animation_time(&anim, 5.0) - 1.0).abs() < 1e-6);
        assert!((animation_time(&anim, 3.0) - 3.0).abs() < 1e-6);
        assert_eq!(animation_time(&anim, f32::INFINITY), 0.0);
    }
}
