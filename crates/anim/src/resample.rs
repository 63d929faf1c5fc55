//! Turning an animation into linear keys, for targets that store nothing else.
//!
//! [`bake`] keeps every original key (so the baked curve passes through each of them) and,
//! where the source curve is not a straight line between keys — cubic, cubic-spline — adds
//! keys on the grid of multiples of `1/fps` inside each segment, sampled from the source
//! curve. Step channels become linear ones with a cut (two keys at one time, the value
//! jumps there, see [`crate::sample`]), which is exact. Linear channels are copied.
//!
//! The number of added keys per channel is capped ([`MAX_BAKED_KEYS`]) so that a damaged
//! file with a key at 10³⁸ s cannot make baking allocate without bound; past the cap only
//! the original keys remain.

use crate::sample::{Interpolate, sample_spline};
use rigport_model_core::{Animation, Interpolation, Key, Model, Tangents};

/// Whether any key of `animation` lies between the frames of a `fps` grid (more than a
/// thousandth of a frame away from the nearest one): a format that stores one pose per frame
/// then samples the animation instead of copying its keys, and says so.
///
/// ```
/// use rigport_anim::resample::keys_between_frames;
/// use rigport_model_core::{Animation, JointId, Key, Track};
/// use glam::Vec3;
///
/// let mut animation = Animation::new("step", 10.0);
/// let mut track = Track::new(JointId(0));
/// track.translations = vec![Key::new(0.0, Vec3::ZERO), Key::new(0.5, Vec3::X)];
/// animation.tracks.push(track);
/// assert!(!keys_between_frames(&animation, 10.0));
/// assert!(keys_between_frames(&animation, 3.0));
/// ```
pub fn keys_between_frames(animation: &Animation, fps: f32) -> bool {
    let on_frame = |time: f32| ((time * fps).round() - time * fps).abs() < 1e-3;
    animation.tracks.iter().any(|t| {
        !(t.translations.iter().all(|k| on_frame(k.time))
            && t.rotations.iter().all(|k| on_frame(k.time))
            && t.scales.iter().all(|k| on_frame(k.time)))
    })
}

/// Most keys [`bake`] adds to one channel beyond its own.
pub const MAX_BAKED_KEYS: usize = 1 << 20;

/// Poses (frames × joints) a writer that samples every frame may write for any model: twice
/// the largest real animation seen.
pub const FREE_POSES: u64 = 1 << 17;

/// The poses a writer may sample for `model`: [`FREE_POSES`], or as many as the model has keys
/// when it has more. A writer that samples `frames × joints` poses checks them against this
/// first, so that a damaged file with a key at 10⁹ s is refused instead of written as
/// gigabytes of frames (the formats that store every joint at every frame: SMD, PSA).
pub fn poses_allowed(model: &Model) -> u64 {
    FREE_POSES.max(model.key_count() as u64)
}

/// The animation with linear keys only: sampled at `fps` where the source curve is not
/// linear (see the module docs). Name, loop flag and duration are kept; the result's `fps`
/// is `fps` when the source was cubic and the source's otherwise; tangents are dropped.
/// Keys must be sorted ([`crate::normalize_animation`]); a non-positive or non-finite `fps`
/// means 30.
///
/// ```
/// use rigport_anim::resample::bake;
/// use rigport_model_core::{Animation, Interpolation, JointId, Key, Tangents, Track};
/// use glam::Vec3;
///
/// let mut animation = Animation::new("ease", 24.0);
/// animation.interpolation = Interpolation::CubicSpline;
/// let mut track = Track::new(JointId(0));
/// track.translations = vec![Key::new(0.0, Vec3::ZERO), Key::new(1.0, Vec3::ONE)];
/// track.translation_tangents = vec![Tangents::both(Vec3::ZERO); 2];
/// animation.tracks.push(track);
///
/// let baked = bake(&animation, 4.0);
/// assert_eq!(baked.interpolation, Interpolation::Linear);
/// let times: Vec<f32> = baked.tracks[0].translations.iter().map(|k| k.time).collect();
/// assert_eq!(times, [0.0, 0.25, 0.5, 0.75, 1.0]);
/// // The eased curve at ¼ s: 3s² − 2s³ = 0.15625.
/// assert!((baked.tracks[0].translations[1].value.x - 0.15625).abs() < 1e-6);
/// assert!(!baked.tracks[0].has_tangents());
/// ```
pub fn bake(animation: &Animation, fps: f32) -> Animation {
    let fps = if fps.is_finite() && fps > 0.0 {
        fps
    } else {
        30.0
    };
    let mode = animation.interpolation;
    let mut baked = animation.clone();
    baked.interpolation = Interpolation::Linear;
    if mode.is_cubic() {
        baked.fps = fps;
    }
    for (out, track) in baked.tracks.iter_mut().zip(&animation.tracks) {
        out.clear_tangents();
        out.translations =
            bake_channel(&track.translations, &track.translation_tangents, mode, fps);
        out.rotations = bake_channel(&track.rotations, &track.rotation_tangents, mode, fps);
        out.scales = bake_channel(&track.scales, &track.scale_tangents, mode, fps);
    }
    baked
}

/// One channel as linear keys.
fn bake_channel<T: Interpolate>(
    keys: &[Key<T>],
    tangents: &[Tangents<T::Tangent>],
    mode: Interpolation,
    fps: f32,
) -> Vec<Key<T>> {
    match mode {
        Interpolation::Linear => keys.to_vec(),
        Interpolation::Step => {
            let mut out = Vec::with_capacity(keys.len() * 2);
            for pair in keys.windows(2) {
                out.push(pair[0]);
                if pair[1].time > pair[0].time {
                    // Hold the value up to the next key, where it jumps.
                    out.push(Key::new(pair[1].time, pair[0].value));
                }
            }
            out.extend(keys.last().copied());
            out
        }
        Interpolation::Cubic | Interpolation::CubicSpline => {
            let mut out = Vec::with_capacity(keys.len());
            let mut added = 0usize;
            for (k, key) in keys.iter().enumerate() {
                out.push(*key);
                let Some(next) = keys.get(k + 1) else { break };
                // Grid points strictly inside (key.time, next.time).
                let mut g = (f64::from(key.time) * f64::from(fps)).floor() + 1.0;
                while added < MAX_BAKED_KEYS {
                    let time = (g / f64::from(fps)) as f32;
                    if !(time.is_finite() && time < next.time) || time <= key.time {
                        break;
                    }
                    out.push(Key::new(
                        time,
                        sample_spline(keys, tangents, time, mode, key.value),
                    ));
                    added += 1;
                    g += 1.0;
                }
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};
    use rigport_model_core::{JointId, Track};

    fn animation(mode: Interpolation, keys: &[(f32, f32)]) -> Animation {
        let mut animation = Animation::new("a", 10.0);
        animation.interpolation = mode;
        let mut track = Track::new(JointId(0));
        track.scales = keys
            .iter()
            .map(|&(t, x)| Key::new(t, Vec3::splat(x)))
            .collect();
        animation.tracks.push(track);
        animation
    }

    #[test]
    fn step_becomes_linear_with_cuts() {
        let baked = bake(
            &animation(Interpolation::Step, &[(0.0, 1.0), (1.0, 2.0), (3.0, 5.0)]),
            30.0,
        );
        let keys: Vec<(f32, f32)> = baked.tracks[0]
            .scales
            .iter()
            .map(|k| (k.time, k.value.x))
            .collect();
        assert_eq!(
            keys,
            [(0.0, 1.0), (1.0, 1.0), (1.0, 2.0), (3.0, 2.0), (3.0, 5.0)]
        );
        // Sampled linearly, the baked channel equals the step one everywhere.
        for t in [0.5_f32, 0.99, 1.0, 2.5, 3.0, 4.0] {
            let s = |a: &Animation| {
                crate::sample::sample(&a.tracks[0].scales, t, a.interpolation, Vec3::ZERO).x
            };
            assert_eq!(
                s(&baked),
                s(&animation(
                    Interpolation::Step,
                    &[(0.0, 1.0), (1.0, 2.0), (3.0, 5.0)]
                )),
                "t={t}"
            );
        }
    }

    #[test]
    fn linear_is_copied_and_cubic_gets_grid_keys() {
        let linear = animation(Interpolation::Linear, &[(0.0, 1.0), (1.0, 2.0)]);
        assert_eq!(bake(&linear, 30.0).tracks, linear.tracks);
        let cubic = animation(Interpolation::Cubic, &[(0.0, 0.0), (0.5, 1.0), (1.0, 0.0)]);
        let baked = bake(&cubic, 4.0);
        let times: Vec<f32> = baked.tracks[0].scales.iter().map(|k| k.time).collect();
        assert_eq!(times, [0.0, 0.25, 0.5, 0.75, 1.0]);
        assert_eq!(baked.fps, 4.0);
    }

    #[test]
    fn a_huge_key_time_does_not_bake_without_bound() {
        let mut cubic = animation(Interpolation::Cubic, &[(0.0, 0.0), (1e30, 1.0)]);
        cubic.tracks[0].rotations = vec![Key::new(0.0, Quat::IDENTITY)];
        let baked = bake(&cubic, 30.0);
        assert!(baked.tracks[0].scales.len() <= MAX_BAKED_KEYS + 2);
        assert_eq!(baked.tracks[0].rotations.len(), 1);
    }
}
