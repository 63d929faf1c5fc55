//! Sampling keyed channels at a time: linear (slerp for rotations), step and cubic.
//!
//! Keys must be sorted by time — [`crate::normalize_animation`] sorts them once; sampling
//! itself never allocates and finds the segment by binary search. On unsorted keys the
//! result is meaningless but deterministic, and never a panic.
//!
//! * Before the first key and after the last, the end key is held; at a key's time its
//!   value is returned exactly.
//! * An empty channel gives the fallback (the joint's bind value).
//! * Equal key times (a "cut"): the segment before approaches the first of them, and from
//!   that time on the last of them holds — the value jumps there.
//! * [`Interpolation::Cubic`] is a cubic Hermite spline whose tangents are the
//!   Catmull-Rom finite differences `(p[k+1] − p[k−1]) / (t[k+1] − t[k−1])` (one-sided at
//!   the first and last key and beside a cut, zero between two cuts), so it passes through every key. Rotations
//!   are interpolated component-wise on sign-aligned quaternions and normalized, as glTF's
//!   cubic spline does.
//! * [`Interpolation::CubicSpline`] (glTF `CUBICSPLINE`) uses the in- and out-tangents
//!   stored with the keys ([`sample_spline`], [`Track::translation_tangents`] and siblings):
//!   between keys `k` and `k+1`, with `td = t[k+1] − t[k]` and `s` the fraction of the way,
//!   `p = (2s³−3s²+1)·v[k] + td·(s³−2s²+s)·out[k] + (−2s³+3s²)·v[k+1] + td·(s³−s²)·in[k+1]`
//!   (glTF 2.0, Appendix C); rotations are computed on their four components as stored (no
//!   sign alignment: the tangents belong to the stored signs) and normalized. A channel
//!   whose tangents do not line up with its keys falls back to the Catmull-Rom cubic.

use glam::{Mat4, Quat, Vec3, Vec4};
use rigport_model_core::{Animation, Interpolation, Joint, Key, Tangents, Track};

/// A value a channel can hold and interpolate.
pub trait Interpolate: Copy {
    /// A cubic-spline tangent of such a value: `Vec3` for vectors, the four quaternion
    /// components (`Vec4`) for rotations.
    type Tangent: Copy;
    /// A tangent as four numbers (vectors get `w = 0`).
    fn tangent_to_vec4(tangent: Self::Tangent) -> Vec4;
    /// A tangent from four numbers.
    fn tangent_from_vec4(v: Vec4) -> Self::Tangent;
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
    type Tangent = Vec3;
    fn tangent_to_vec4(tangent: Vec3) -> Vec4 {
        tangent.extend(0.0)
    }
    fn tangent_from_vec4(v: Vec4) -> Vec3 {
        v.truncate()
    }
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
    type Tangent = Vec4;
    fn tangent_to_vec4(tangent: Vec4) -> Vec4 {
        tangent
    }
    fn tangent_from_vec4(v: Vec4) -> Vec4 {
        v
    }
    fn linear(a: Self, b: Self, s: f32) -> Self {
        Self::from_vec4(slerp(Vec4::from(a), Vec4::from(b), s))
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

/// Spherical linear interpolation from `a` to `b` the shorter way (`b` negated when
/// `a·b < 0`), not normalized. glam's `Quat::slerp` takes its sines from an SSE2
/// approximation on x86-64 and from `libm` elsewhere, so the CLI and the page rounded keys
/// differently; this one is lane-wise arithmetic (the same bits under SSE2, WebAssembly's
/// SIMD and scalar code) and `libm`'s `acosf`/`sinf` on every target.
pub fn slerp(a: Vec4, b: Vec4, s: f32) -> Vec4 {
    let (mut b, mut dot) = (b, a.dot(b));
    if dot < 0.0 {
        b = -b;
        dot = -dot;
    }
    if dot > 1.0 - f32::EPSILON {
        // Nearly the same rotation: a straight line (no division by a vanishing sine).
        return a * (1.0 - s) + b * s;
    }
    let theta = libm::acosf(dot);
    let (from_a, from_b) = (libm::sinf(theta * (1.0 - s)), libm::sinf(theta * s));
    (a * from_a + b * from_b) / libm::sinf(theta)
}

/// The value of a channel at `time` seconds; `fallback` when it has no keys. Without
/// tangents, [`Interpolation::CubicSpline`] is sampled like [`Interpolation::Cubic`]; see
/// [`sample_spline`].
pub fn sample<T: Interpolate>(keys: &[Key<T>], time: f32, mode: Interpolation, fallback: T) -> T {
    sample_spline(keys, &[], time, mode, fallback)
}

/// [`sample`] with the channel's cubic-spline tangents (empty, or one per key): used by
/// [`Interpolation::CubicSpline`] when there is one tangent per key, ignored otherwise.
///
/// ```
/// use rigport_anim::sample::sample_spline;
/// use rigport_model_core::{Interpolation, Key, Tangents};
/// use glam::Vec3;
///
/// // From 0 to 1 over 1 s, leaving with slope 0 and arriving with slope 0: half way the
/// // Hermite basis gives h00·0 + h01·1 = ½, as a straight line would, but at a quarter
/// // it is 3s² − 2s³ = 0.15625 rather than 0.25.
/// let keys = [Key::new(0.0, Vec3::ZERO), Key::new(1.0, Vec3::ONE)];
/// let flat = [Tangents::both(Vec3::ZERO); 2];
/// let at = |t| sample_spline(&keys, &flat, t, Interpolation::CubicSpline, Vec3::ZERO).x;
/// assert!((at(0.5) - 0.5).abs() < 1e-6);
/// assert!((at(0.25) - 0.15625).abs() < 1e-6);
/// ```
pub fn sample_spline<T: Interpolate>(
    keys: &[Key<T>],
    tangents: &[Tangents<T::Tangent>],
    time: f32,
    mode: Interpolation,
    fallback: T,
) -> T {
    // First key strictly after `time` (a NaN time finds 0 and holds the first key).
    let next = keys.partition_point(|k| k.time <= time);
    value_before(keys, tangents, next, time, mode, fallback)
}

/// The value at `time` of a channel whose first key after `time` is `keys[next]` (or none,
/// when `next` is the number of keys).
#[inline]
fn value_before<T: Interpolate>(
    keys: &[Key<T>],
    tangents: &[Tangents<T::Tangent>],
    next: usize,
    time: f32,
    mode: Interpolation,
    fallback: T,
) -> T {
    let (Some(first), Some(last)) = (keys.first(), keys.last()) else {
        return fallback;
    };
    if next == 0 {
        return first.value;
    }
    if next >= keys.len() {
        return last.value;
    }
    let (a, b) = (keys[next - 1], keys[next]);
    let s = fraction(a.time, b.time, time);
    if s == 0.0 {
        // At a key's time: that key's value exactly (a slerp at 0 is only close to it).
        return a.value;
    }
    match mode {
        Interpolation::Step => a.value,
        Interpolation::Linear => T::linear(a.value, b.value, s),
        Interpolation::CubicSpline if tangents.len() == keys.len() => {
            hermite(keys, tangents, next - 1, s)
        }
        Interpolation::Cubic | Interpolation::CubicSpline => cubic(keys, next - 1, s),
    }
}

/// glTF's cubic spline between keys `a` and `a + 1` (both exist, as do their tangents) at
/// fraction `s`: the stored out-tangent of `a` and in-tangent of `a + 1`, scaled by the
/// segment's length.
fn hermite<T: Interpolate>(
    keys: &[Key<T>],
    tangents: &[Tangents<T::Tangent>],
    a: usize,
    s: f32,
) -> T {
    let dt = keys[a + 1].time - keys[a].time;
    let pa = keys[a].value.to_vec4();
    let pb = keys[a + 1].value.to_vec4();
    let ma = T::tangent_to_vec4(tangents[a].out_tangent);
    let mb = T::tangent_to_vec4(tangents[a + 1].in_tangent);
    T::from_vec4(hermite_basis(pa, ma * dt, pb, mb * dt, s))
}

/// `h00·pa + h10·ma + h01·pb + h11·mb` at `s` (tangents already scaled by the segment).
pub(crate) fn hermite_basis(pa: Vec4, ma: Vec4, pb: Vec4, mb: Vec4, s: f32) -> Vec4 {
    let (s2, s3) = (s * s, s * s * s);
    let h00 = 2.0 * s3 - 3.0 * s2 + 1.0;
    let h10 = s3 - 2.0 * s2 + s;
    let h01 = 3.0 * s2 - 2.0 * s3;
    let h11 = s3 - s2;
    pa * h00 + ma * h10 + pb * h01 + mb * h11
}

/// How far `time` is from `start` to `end`, clamped to `0..=1` (0 for an empty segment).
pub(crate) fn fraction(start: f32, end: f32, time: f32) -> f32 {
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
    T::from_vec4(hermite_basis(pa, ma * dt, pb, mb * dt, s))
}

/// The Catmull-Rom tangent (slope per second) of key `k` of a sorted channel, as four
/// numbers (vectors have `w = 0`): `(p[k+1] − p[k−1]) / (t[k+1] − t[k−1])`, one-sided at
/// the first and last key. Neighbouring quaternions are first moved to key `k`'s side
/// (`q` and `−q` are one rotation). A neighbour at the same time as key `k` lies across a
/// cut (the value jumps there), so the slope is taken on the other side only; with cuts on
/// both sides, or for a single key, it is zero. Zero too for `k` past the end.
///
/// This is the tangent [`Interpolation::Cubic`] sampling uses, and the in- and out-tangent
/// a glTF `CUBICSPLINE` writer must store for the same curve.
///
/// ```
/// use rigport_anim::sample::catmull_rom_tangent;
/// use rigport_model_core::Key;
/// use glam::{Vec3, Vec4};
///
/// let keys = [Key::new(0.0, Vec3::ZERO), Key::new(1.0, Vec3::X), Key::new(3.0, Vec3::ZERO)];
/// // Middle key: (0 − 0) / (3 − 0) = 0; first key, one-sided: (1 − 0) / 1 = 1.
/// assert_eq!(catmull_rom_tangent(&keys, 1), Vec4::ZERO);
/// assert_eq!(catmull_rom_tangent(&keys, 0), Vec4::new(1.0, 0.0, 0.0, 0.0));
/// ```
pub fn catmull_rom_tangent<T: Interpolate>(keys: &[Key<T>], k: usize) -> Vec4 {
    match keys.get(k) {
        Some(key) => tangent(keys, k, key.value.to_vec4()),
        None => Vec4::ZERO,
    }
}

/// [`catmull_rom_tangent`] with key `k`'s value `pk` already aligned by the caller.
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
/// [`Interpolation::CubicSpline`] uses the track's stored tangents.
pub fn sample_track(track: &Track, time: f32, mode: Interpolation, bind: &Transform) -> Transform {
    Transform {
        translation: sample_spline(
            &track.translations,
            &track.translation_tangents,
            time,
            mode,
            bind.translation,
        ),
        rotation: sample_spline(
            &track.rotations,
            &track.rotation_tangents,
            time,
            mode,
            bind.rotation,
        ),
        scale: sample_spline(&track.scales, &track.scale_tangents, time, mode, bind.scale),
    }
}

/// Where a [`TrackCursor`] stands in each channel of a track: the first key after the last
/// time sampled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TrackCursor {
    translation: usize,
    rotation: usize,
    scale: usize,
}

/// [`sample_track`] for times that never decrease, on a track whose keys are finite and
/// sorted by time (as [`normalize_animation`](crate::normalize_animation) leaves them):
/// each channel's search goes on from where `cursor` stopped instead of starting over, so
/// sampling every frame of a long track costs one step per key instead of a binary search
/// per frame. The transform is [`sample_track`]'s exactly; a time earlier than the last
/// (or not finite) searches afresh.
pub fn sample_track_from(
    track: &Track,
    time: f32,
    mode: Interpolation,
    bind: &Transform,
    cursor: &mut TrackCursor,
) -> Transform {
    Transform {
        translation: sample_from(
            &track.translations,
            &track.translation_tangents,
            time,
            mode,
            bind.translation,
            &mut cursor.translation,
        ),
        rotation: sample_from(
            &track.rotations,
            &track.rotation_tangents,
            time,
            mode,
            bind.rotation,
            &mut cursor.rotation,
        ),
        scale: sample_from(
            &track.scales,
            &track.scale_tangents,
            time,
            mode,
            bind.scale,
            &mut cursor.scale,
        ),
    }
}

/// [`sample_spline`] with the search for the first key after `time` going on from `next`.
fn sample_from<T: Interpolate>(
    keys: &[Key<T>],
    tangents: &[Tangents<T::Tangent>],
    time: f32,
    mode: Interpolation,
    fallback: T,
    next: &mut usize,
) -> T {
    let mut at = (*next).min(keys.len());
    if !time.is_finite() || (at > 0 && keys[at - 1].time > time) {
        at = keys.partition_point(|k| k.time <= time);
    } else {
        while at < keys.len() && keys[at].time <= time {
            at += 1;
        }
    }
    *next = at;
    value_before(keys, tangents, at, time, mode, fallback)
}

/// Length of one cycle of an animation: the later of its declared duration and its last
/// key time. Reads only the last key of each channel, so the keys must be sorted.
///
/// A looping IQE animation of N frames at F fps declares N/F: its last frame is at
/// (N−1)/F and it blends back to frame 0 by N/F (engines play frame (k+1) mod N after k);
/// see [`sample_animation_track`].
pub fn period(animation: &Animation) -> f32 {
    let last = |times: [Option<f32>; 3]| times.into_iter().flatten().fold(0.0_f32, f32::max);
    animation
        .tracks
        .iter()
        .map(|t| {
            last([
                t.translations.last().map(|k| k.time),
                t.rotations.last().map(|k| k.time),
                t.scales.last().map(|k| k.time),
            ])
        })
        .chain(
            animation
                .morph_tracks
                .iter()
                .map(|t| t.times.last().copied().unwrap_or(0.0)),
        )
        .fold(animation.duration, f32::max)
}

/// A channel of a looping animation at `time` (already wrapped into `[0, period)`): as
/// [`sample`] between its first and last key, and across the loop seam — after the last key
/// and before the first — blended from the last key to the first, which comes round again
/// at `first + period`. Step holds the last key there; cubic blends linearly (the seam has
/// no neighbours to take tangents from).
pub fn sample_looping<T: Interpolate>(
    keys: &[Key<T>],
    time: f32,
    mode: Interpolation,
    fallback: T,
    period: f32,
) -> T {
    sample_looping_spline(keys, &[], time, mode, fallback, period)
}

/// [`sample_looping`] with the channel's cubic-spline tangents (see [`sample_spline`]); the
/// seam blends linearly in every cubic mode.
pub fn sample_looping_spline<T: Interpolate>(
    keys: &[Key<T>],
    tangents: &[Tangents<T::Tangent>],
    time: f32,
    mode: Interpolation,
    fallback: T,
    period: f32,
) -> T {
    let (Some(first), Some(last)) = (keys.first(), keys.last()) else {
        return fallback;
    };
    let seam = period - (last.time - first.time);
    let inside = first.time <= time && time <= last.time;
    if inside || !(seam > 0.0 && seam.is_finite()) {
        return sample_spline(keys, tangents, time, mode, fallback);
    }
    // How far past the last key, going round: after it, or before the first (wrapped).
    let since_last = if time > last.time {
        time - last.time
    } else {
        time + period - last.time
    };
    let s = fraction(0.0, seam, since_last);
    match mode {
        Interpolation::Step => last.value,
        Interpolation::Linear | Interpolation::Cubic | Interpolation::CubicSpline => {
            T::linear(last.value, first.value, s)
        }
    }
}

/// A track of `animation` at `time` seconds (wrapped, as [`animation_time`] does, when the
/// animation loops); channels without keys take `bind`'s value. A looping animation blends
/// from its last keys back to its first ones by the end of its period
/// ([`sample_looping`]); a non-looping one holds its end keys.
pub fn sample_animation_track(
    animation: &Animation,
    track: &Track,
    time: f32,
    bind: &Transform,
) -> Transform {
    sample_animation_track_in(animation, period(animation), track, time, bind)
}

/// [`sample_animation_track`] with the animation's [`period`] computed once by the caller:
/// sampling every track at every frame must not look at every track again for each sample.
pub fn sample_animation_track_in(
    animation: &Animation,
    period: f32,
    track: &Track,
    time: f32,
    bind: &Transform,
) -> Transform {
    let mode = animation.interpolation;
    let time = wrap_time(animation, period, time);
    if !(animation.looping && period > 0.0 && period.is_finite()) {
        return sample_track(track, time, mode, bind);
    }
    Transform {
        translation: sample_looping_spline(
            &track.translations,
            &track.translation_tangents,
            time,
            mode,
            bind.translation,
            period,
        ),
        rotation: sample_looping_spline(
            &track.rotations,
            &track.rotation_tangents,
            time,
            mode,
            bind.rotation,
            period,
        ),
        scale: sample_looping_spline(
            &track.scales,
            &track.scale_tangents,
            time,
            mode,
            bind.scale,
            period,
        ),
    }
}

/// The time at which to sample an animation asked for at `time` seconds: a looping
/// animation wraps into `[0, period)`; a non-looping one is unchanged (sampling holds its
/// end keys). A time that is not finite means 0.
pub fn animation_time(animation: &Animation, time: f32) -> f32 {
    wrap_time(animation, period(animation), time)
}

/// [`animation_time`] with the period already known.
pub(crate) fn wrap_time(animation: &Animation, period: f32, time: f32) -> f32 {
    if !time.is_finite() {
        return 0.0;
    }
    if animation.looping && period > 0.0 && period.is_finite() {
        time.rem_euclid(period)
    } else {
        time
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slerp_turns_at_a_constant_rate_the_shorter_way() {
        let about_z = |degrees: f32| Vec4::from(Quat::from_rotation_z(degrees.to_radians()));
        let (a, b) = (about_z(10.0), about_z(100.0));
        assert!(slerp(a, b, 0.0).abs_diff_eq(a, 1e-6));
        assert!(slerp(a, b, 1.0).abs_diff_eq(b, 1e-6));
        for (s, degrees) in [(0.25, 32.5), (0.5, 55.0), (0.9, 91.0)] {
            let got = slerp(a, b, s);
            assert!(got.abs_diff_eq(about_z(degrees), 1e-6), "{s}: {got}");
            assert!((got.length() - 1.0).abs() < 1e-6, "{s}: {got}");
        }
        // -b is the same rotation: the path does not go the long way round.
        assert!(slerp(a, -b, 0.5).abs_diff_eq(about_z(55.0), 1e-6));
        // Two keys one bit apart: a straight line, no division by a vanishing sine.
        let c = Vec4::from_array(a.to_array().map(|x| f32::from_bits(x.to_bits() + 1)));
        assert!(slerp(a, c, 0.5).is_finite());
    }
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
    fn sampling_from_a_cursor_gives_sample_track_exactly() {
        // Keys at uneven times, two at one time (a jump), a channel without keys; times
        // that go forward through and past the keys, then back, then NaN.
        let mut track = Track::new(rigport_model_core::JointId(0));
        let times = [0.0, 0.1, 0.1, 0.35, 0.5, 0.9, 1.4];
        for (i, &t) in times.iter().enumerate() {
            let x = i as f32;
            track
                .translations
                .push(Key::new(t, Vec3::new(x, -x, x * x)));
            let q = Quat::from_rotation_y(x * 0.4) * Quat::from_rotation_x(0.3 - x * 0.1);
            track.rotations.push(Key::new(t * 0.5, q));
        }
        let bind = Transform::IDENTITY;
        let mut frames: Vec<f32> = (0..40).map(|f| f as f32 / 24.0).collect();
        frames.extend([0.1, 0.1, 0.05, 0.6, 2.0, f32::NAN, 0.2]);
        for mode in [
            Interpolation::Linear,
            Interpolation::Step,
            Interpolation::Cubic,
        ] {
            let mut cursor = TrackCursor::default();
            for &time in &frames {
                let a = sample_track_from(&track, time, mode, &bind, &mut cursor);
                let b = sample_track(&track, time, mode, &bind);
                let bits = |t: Transform| {
                    [
                        t.translation.to_array().map(f32::to_bits),
                        t.scale.to_array().map(f32::to_bits),
                    ]
                };
                assert_eq!(bits(a), bits(b), "{mode:?} at {time}");
                assert_eq!(
                    a.rotation.to_array().map(f32::to_bits),
                    b.rotation.to_array().map(f32::to_bits),
                    "{mode:?} at {time}"
                );
            }
        }
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
    fn a_looping_animation_blends_back_to_its_first_key_by_the_period() {
        // IQE: 4 frames at 2 fps, looping: frames at 0, 0.5, 1, 1.5 s, period 2 s.
        let mut anim = Animation::new("a", 2.0);
        anim.looping = true;
        anim.duration = 2.0;
        let mut track = Track::new(rigport_model_core::JointId(0));
        track.translations = keys(&[(0.0, 0.0), (0.5, 10.0), (1.0, 20.0), (1.5, 30.0)]);
        anim.tracks.push(track);
        let bind = Transform::IDENTITY;
        let x = |anim: &Animation, t: f32| {
            sample_animation_track(anim, &anim.tracks[0], t, &bind)
                .translation
                .x
        };
        assert_eq!(x(&anim, 1.5), 30.0, "the last frame is reached at (N-1)/F");
        assert!(
            (x(&anim, 1.75) - 15.0).abs() < 1e-5,
            "half way back to frame 0"
        );
        assert_eq!(x(&anim, 2.0), 0.0, "N/F is frame 0 again");
        assert!((x(&anim, 2.25) - 5.0).abs() < 1e-5);
        // Not looping: the last key holds.
        anim.looping = false;
        assert_eq!(x(&anim, 1.75), 30.0);
        // Step holds the last key across the seam.
        anim.looping = true;
        anim.interpolation = Interpolation::Step;
        assert_eq!(x(&anim, 1.75), 30.0);
    }

    #[test]
    fn the_seam_also_covers_a_first_key_after_zero() {
        // Keys at 1 and 2 s in a 4 s loop: the seam runs from 2 s round to 5 s (= 1 s).
        let k = keys(&[(1.0, 10.0), (2.0, 20.0)]);
        let at = |t| sample_looping(&k, t, Interpolation::Linear, Vec3::ZERO, 4.0).x;
        assert!((at(3.5) - 15.0).abs() < 1e-5);
        assert!((at(0.5) - (20.0 - 10.0 * 2.5 / 3.0)).abs() < 1e-5);
        assert_eq!(at(1.5), 15.0);
        // One key: constant.
        let one = keys(&[(1.0, 7.0)]);
        assert_eq!(
            sample_looping(&one, 3.0, Interpolation::Linear, Vec3::ZERO, 4.0).x,
            7.0
        );
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
