//! Every animation sampled at its frame rate into per-pose channels, as the SDK's compiler
//! stores them before quantization. Needs the skeleton but not the geometry, so
//! [`from_model`](super::from_model) runs it beside the welding.

use super::ConvertOptions;
use super::quantize::Channels;
use crate::error::Error;
use crate::records::LOOP;
use rigport_anim::normalize_animation;
use rigport_anim::sample::{TrackCursor, Transform, sample_track_from};
use rigport_model_core::glam::{Quat, Vec4};
use rigport_model_core::{Animation, Interpolation, JointId, Report, Skeleton, Track};

/// Poses (frames × joints) [`sample`] always allows; beyond it, one pose per key of the
/// model, so a few keys at an absurd time cannot turn a kilobyte into gigabytes.
const FREE_POSES: u64 = 1 << 17;

/// The sampled animations of a model.
#[derive(Default)]
pub(crate) struct Sampled<'m> {
    /// Channels of every pose, frame-major (`values[f × joints + j]`), all animations'
    /// frames one after the other. Empty when nothing is animated.
    pub values: Vec<Channels>,
    /// One entry per animation, in the model's order.
    pub anims: Vec<SampledAnim<'m>>,
    /// What sampling changed or dropped.
    pub report: Report,
}

/// Where one animation's frames are in [`Sampled::values`], and what its record says.
pub(crate) struct SampledAnim<'m> {
    /// The animation's name (the caller adds it to the text table).
    pub name: &'m str,
    pub first_frame: u32,
    pub num_frames: u32,
    pub framerate: f32,
    /// The record's flags ([`LOOP`]).
    pub flags: u32,
}

/// Samples every animation of a model (its `animations`) over `skeleton` (the model's
/// joints, reordered parents first: joint `j` of the model is `new_index[j]`).
pub(crate) fn sample<'m>(
    animations: &'m [Animation],
    skeleton: &Skeleton,
    new_index: &[u32],
    options: &ConvertOptions,
) -> Result<Sampled<'m>, Error> {
    let mut sampled = Sampled::default();
    if animations.is_empty() || skeleton.joints.is_empty() {
        if !animations.is_empty() {
            sampled.report.loss(
                rigport_model_core::codes::ANIMATIONS_WITHOUT_JOINTS,
                format!(
                    "{} animations dropped: the model has no joints",
                    animations.len()
                ),
            );
        }
        return Ok(sampled);
    }
    let joints = skeleton.joints.len();
    let keys: usize = animations
        .iter()
        .flat_map(|a| &a.tracks)
        .map(Track::key_count)
        .sum();
    let mut poses_left = FREE_POSES.max(keys as u64);
    let binds: Vec<Transform> = skeleton.joints.iter().map(Transform::of_joint).collect();
    let values = &mut sampled.values;
    let mut defaulted = 0;
    let mut stepped = 0;
    for animation in animations {
        let fps = if animation.fps > 0.0 && animation.fps.is_finite() {
            animation.fps
        } else {
            defaulted += 1;
            options.default_fps
        };
        let frames = frame_count(animation, fps);
        let poses = frames.saturating_mul(joints as u64);
        if !animation.end_time().is_finite() || poses > poses_left {
            return Err(crate::unwritable(format!(
                "animation `{}` would need {frames} frames of {joints} joints at {fps} fps, more poses than the model's keys justify",
                animation.name
            )));
        }
        poses_left -= poses;
        if animation.interpolation != Interpolation::Linear {
            stepped += 1;
        }
        // The first track of each joint (as `normalize_animation` keeps it), under the
        // joint's new index.
        let mut by_joint: Vec<Option<&Track>> = vec![None; joints];
        for track in &animation.tracks {
            let slot = &mut by_joint[new_index[track.joint.index()] as usize];
            if slot.is_none() {
                *slot = Some(track);
            }
        }
        let first_frame = (values.len() / joints) as u32;
        let start = values.len();
        values.resize(start + poses as usize, [0.0; 10]);
        let frames_of = &mut values[start..];
        // Joint by joint: one track is copied and normalized at a time (not the whole
        // animation), and its channels are walked forward as the frame times grow.
        for (j, bind) in binds.iter().enumerate() {
            let normalized = by_joint[j].map(|track| {
                let mut single = Animation::new(animation.name.clone(), animation.fps);
                single.interpolation = animation.interpolation;
                single.tracks.push(Track {
                    joint: JointId(j as u32),
                    ..track.clone()
                });
                let _ = normalize_animation(&mut single, joints);
                single.tracks.pop()
            });
            let mut cursor = TrackCursor::default();
            for f in 0..frames as usize {
                let time = f as f32 / fps;
                let t = match normalized.as_ref() {
                    Some(Some(track)) => {
                        sample_track_from(track, time, animation.interpolation, bind, &mut cursor)
                    }
                    _ => *bind,
                };
                let q = flip(t.rotation);
                frames_of[f * joints + j] = [
                    t.translation.x,
                    t.translation.y,
                    t.translation.z,
                    q.x,
                    q.y,
                    q.z,
                    q.w,
                    t.scale.x,
                    t.scale.y,
                    t.scale.z,
                ];
            }
        }
        sampled.anims.push(SampledAnim {
            name: &animation.name,
            first_frame,
            num_frames: frames as u32,
            framerate: fps,
            flags: if animation.looping { LOOP } else { 0 },
        });
    }
    if defaulted > 0 {
        sampled.report.warn(
            rigport_model_core::codes::DEFAULT_FRAMERATE,
            format!(
                "{defaulted} animations have no frame rate; sampled at {} fps",
                options.default_fps
            ),
        );
    }
    if stepped > 0 {
        sampled.report.loss(
            rigport_model_core::codes::INTERPOLATION,
            format!(
                "{stepped} animations are step or cubic; IQM stores frames that engines blend linearly (sampled at every frame)"
            ),
        );
    }
    Ok(sampled)
}

/// Frames of an animation sampled at `fps`: `N` for a looping one lasting `N / fps`
/// (frame `N` would repeat frame 0), else one per frame up to and including the end.
fn frame_count(animation: &Animation, fps: f32) -> u64 {
    let end = animation.end_time();
    let last_key = animation
        .tracks
        .iter()
        .map(Track::end_time)
        .fold(0.0, f32::max);
    let frames = |t: f32| (f64::from(t) * f64::from(fps)).round() as u64;
    if animation.looping && animation.duration * fps > last_key * fps + 0.5 {
        frames(animation.duration).max(1)
    } else {
        frames(end).saturating_add(1)
    }
}

/// `q` or `−q`, whichever has `w ≤ 0` (the SDK's convention), normalized.
pub(crate) fn flip(q: Quat) -> Quat {
    let q = Vec4::from(q)
        .try_normalize()
        .map_or(Quat::IDENTITY, Quat::from_vec4);
    if q.w > 0.0 { -q } else { q }
}
