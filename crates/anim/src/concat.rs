//! Several animations laid end to end on one timeline, for formats that hold one (MilkShape).
//!
//! The timeline runs at the first animation's frame rate (24 when it has none). Its frames
//! are numbered from 1 as MilkShape numbers them: frame `f` is at `f / fps` seconds. Each
//! animation starts on the whole frame after the previous one ends, with its first key on
//! that frame, so its frames form a range such as "walk: frames 1-30".
//!
//! Posing the result at a time inside an animation's range gives exactly the pose of that
//! animation at the corresponding time (its first key's time plus the time since the range
//! started), because:
//!
//! * every channel that any animation keys gets keys at both ends of every range, sampled
//!   from the original (the bind value where that animation leaves the channel alone), so
//!   nothing bleeds from one range into the next;
//! * a range ends on the whole frame at or after the animation's end: its declared duration
//!   or last key when it does not loop; one frame before the loop closes when it does (a
//!   looping animation of N frames gets N frames, and an engine looping the range blends
//!   the last back to the first as the original did). The loop flag itself cannot be kept
//!   on a single timeline and is reported lost;
//! * keys keep their times in seconds: an animation at another frame rate is not resampled,
//!   its keys simply fall between the timeline's frames;
//! * step animations on a linear timeline (when the modes differ) become linear keys that
//!   hold each value until the next key and jump there; a cubic one on a linear timeline is
//!   sampled linearly, reported as a loss. On an all-cubic timeline every range starts and
//!   ends with a doubled key, which makes the Catmull-Rom tangents there one-sided, as they
//!   are at the ends of the original.

use crate::normalize::normalize_animation;
use crate::sample::{Interpolate, Transform, period, sample_animation_track_in};
use rigport_model_core::{Animation, Interpolation, JointId, Key, Report, Skeleton, Track, codes};

/// Where one animation lies on the timeline, in 1-based frames, both ends included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameRange {
    /// The animation's name.
    pub name: String,
    /// Its first frame.
    pub first: u64,
    /// Its last frame.
    pub last: u64,
}

impl FrameRange {
    /// Seconds on the timeline at which the range starts, at `fps`.
    pub fn start_time(&self, fps: f32) -> f32 {
        (self.first as f64 / f64::from(fps)) as f32
    }
}

/// The result of [`concat_animations`].
#[derive(Clone, Debug, PartialEq)]
pub struct Concatenated {
    /// One animation holding every input animation in turn.
    pub animation: Animation,
    /// Each input animation's frames, in input order.
    pub ranges: Vec<FrameRange>,
    /// The frame range of each animation (info, `animation-range`), what could not be kept
    /// (loop flags, cubic curves on a linear timeline) and the key fixes made on the way.
    pub report: Report,
}

/// Frames per second of the timeline when no animation gives a usable rate.
const FALLBACK_FPS: f32 = 24.0;

/// Two times closer than this (seconds) are one key's time.
const SAME_TIME: f64 = 1e-5;

/// Lays `animations` (of a model with `skeleton`) end to end on one timeline named `name`;
/// `None` when there is no animation. See the module docs for the rules.
pub fn concat_animations(
    skeleton: &Skeleton,
    animations: &[Animation],
    name: &str,
) -> Option<Concatenated> {
    let first = animations.first()?;
    let fps = [first.fps]
        .into_iter()
        .find(|f| f.is_finite() && *f > 0.0)
        .unwrap_or(FALLBACK_FPS);
    let mut report = Report::default();
    let clean: Vec<Animation> = animations
        .iter()
        .map(|a| {
            let mut a = a.clone();
            report.extend(normalize_animation(&mut a, skeleton.len()));
            a
        })
        .collect();
    let mode = if clean.iter().all(|a| a.interpolation == first.interpolation) {
        first.interpolation
    } else {
        Interpolation::Linear
    };
    let spans = place(&clean, fps);
    let timeline = Timeline {
        animations: &clean,
        spans: &spans,
        mode,
        fps,
    };
    let mut tracks = Vec::new();
    for (index, joint) in skeleton.joints.iter().enumerate() {
        let Some(id) = JointId::from_index(index) else {
            break;
        };
        let bind = Transform::of_joint(joint);
        let keyed =
            |channel: fn(&Track) -> bool| clean.iter().any(|a| a.track(id).is_some_and(channel));
        let mut track = Track::new(id);
        if keyed(|t| !t.translations.is_empty()) {
            track.translations =
                timeline.channel(id, &bind, |t| &t.translations, |x| x.translation);
        }
        if keyed(|t| !t.rotations.is_empty()) {
            track.rotations = timeline.channel(id, &bind, |t| &t.rotations, |x| x.rotation);
        }
        if keyed(|t| !t.scales.is_empty()) {
            track.scales = timeline.channel(id, &bind, |t| &t.scales, |x| x.scale);
        }
        if !track.is_empty() {
            tracks.push(track);
        }
    }
    let ranges: Vec<FrameRange> = clean
        .iter()
        .zip(&spans)
        .map(|(a, s)| FrameRange {
            name: a.name.clone(),
            first: s.first,
            last: s.last,
        })
        .collect();
    describe(&clean, &ranges, fps, mode, &mut report);
    let last_frame = ranges.last().map_or(0, |r| r.last);
    let animation = Animation {
        name: name.to_owned(),
        fps,
        looping: false,
        interpolation: mode,
        duration: (last_frame as f64 / f64::from(fps)) as f32,
        tracks,
        morph_tracks: Vec::new(),
    };
    Some(Concatenated {
        animation,
        ranges,
        report,
    })
}

/// Where one animation goes: its frames on the timeline and the local times they cover.
#[derive(Clone, Copy, Debug)]
struct Span {
    /// First and last timeline frame.
    first: u64,
    last: u64,
    /// Local time of the first frame (the animation's first key, or 0).
    start: f64,
    /// The animation's period, for sampling.
    period: f32,
}

impl Span {
    /// Timeline seconds of a local time.
    fn timeline(&self, local: f64, fps: f32) -> f64 {
        self.first as f64 / f64::from(fps) + (local - self.start)
    }

    /// Local time of the range's last frame.
    fn end(&self, fps: f32) -> f64 {
        self.start + (self.last - self.first) as f64 / f64::from(fps)
    }
}

/// Ranges one after the other, the first starting on frame 1.
fn place(animations: &[Animation], fps: f32) -> Vec<Span> {
    let mut next = 1u64;
    animations
        .iter()
        .map(|a| {
            let period = period(a);
            let keys = a.tracks.iter().flat_map(|t| {
                let first = |times: [Option<f32>; 3]| times.into_iter().flatten();
                first([
                    t.translations.first().map(|k| k.time),
                    t.rotations.first().map(|k| k.time),
                    t.scales.first().map(|k| k.time),
                ])
            });
            let start = f64::from(keys.fold(f32::INFINITY, f32::min));
            let start = if start.is_finite() { start } else { 0.0 };
            let last_key = f64::from(
                a.tracks
                    .iter()
                    .map(Track::end_time)
                    .fold(f32::NEG_INFINITY, f32::max),
            );
            let own_frame = if a.fps.is_finite() && a.fps > 0.0 {
                1.0 / f64::from(a.fps)
            } else {
                1.0 / f64::from(fps)
            };
            // A loop closes on its first key one period later; its range stops a frame short.
            let end = if a.looping {
                last_key.max(start + f64::from(period) - own_frame)
            } else {
                f64::from(period)
            };
            let frames = whole_frames((end - start).max(0.0) * f64::from(fps));
            let first = next;
            let last = first.saturating_add(frames);
            next = last.saturating_add(1);
            Span {
                first,
                last,
                start,
                period,
            }
        })
        .collect()
}

/// Frames covering `frames`: rounded when float error put it a hair off a whole frame,
/// else rounded up.
fn whole_frames(frames: f64) -> u64 {
    if !frames.is_finite() {
        return 0;
    }
    let rounded = frames.round();
    let whole = if (frames - rounded).abs() < 1e-3 {
        rounded
    } else {
        frames.ceil()
    };
    // Saturating cast: a hostile duration gives a huge, not a wrapped, frame number.
    whole.max(0.0) as u64
}

/// The animations and where they go.
struct Timeline<'a> {
    animations: &'a [Animation],
    spans: &'a [Span],
    mode: Interpolation,
    fps: f32,
}

impl Timeline<'_> {
    /// One channel of one joint over every animation: `keys_of` picks the channel of a track,
    /// `value_of` the same channel of a sampled transform.
    fn channel<T: Interpolate + PartialEq>(
        &self,
        joint: JointId,
        bind: &Transform,
        keys_of: fn(&Track) -> &Vec<Key<T>>,
        value_of: fn(&Transform) -> T,
    ) -> Vec<Key<T>> {
        let (mode, fps) = (self.mode, self.fps);
        let bind_value = value_of(bind);
        let mut out: Vec<Key<T>> = Vec::new();
        // Consecutive ranges where the channel holds its bind value share two keys.
        let mut holding = false;
        for (animation, span) in self.animations.iter().zip(self.spans) {
            let track = animation.track(joint);
            let keys = track.map(keys_of).filter(|k| !k.is_empty());
            let (Some(track), Some(keys)) = (track, keys) else {
                let end = key_at(span.last, fps, bind_value);
                if holding {
                    if let Some(last) = out.last_mut() {
                        *last = end;
                    }
                } else {
                    let start = key_at(span.first, fps, bind_value);
                    push_segment(&mut out, vec![start, end], mode);
                    holding = true;
                }
                continue;
            };
            holding = false;
            let value_at = |local: f64| {
                let t =
                    sample_animation_track_in(animation, span.period, track, local as f32, bind);
                value_of(&t)
            };
            let mut segment = Vec::with_capacity(keys.len() + 2);
            let start = span.start;
            let end = span.end(fps);
            if keys
                .first()
                .is_none_or(|k| f64::from(k.time) - start > SAME_TIME)
            {
                segment.push(key_at(span.first, fps, value_at(start)));
            }
            segment.extend(keys.iter().map(|k| Key {
                time: span.timeline(f64::from(k.time), fps) as f32,
                value: k.value,
            }));
            if keys
                .last()
                .is_none_or(|k| end - f64::from(k.time) > SAME_TIME)
            {
                segment.push(key_at(span.last, fps, value_at(end)));
            }
            let segment = if mode == Interpolation::Linear
                && animation.interpolation == Interpolation::Step
            {
                step_as_linear(segment)
            } else {
                segment
            };
            push_segment(&mut out, segment, mode);
        }
        out
    }
}

/// A key on a whole timeline frame.
fn key_at<T>(frame: u64, fps: f32, value: T) -> Key<T> {
    Key::new((frame as f64 / f64::from(fps)) as f32, value)
}

/// Appends one range's keys; on a cubic timeline its first and last key are doubled so the
/// tangents there look only inside the range.
fn push_segment<T: Copy>(out: &mut Vec<Key<T>>, segment: Vec<Key<T>>, mode: Interpolation) {
    let cubic = mode == Interpolation::Cubic;
    if let (true, Some(&first)) = (cubic, segment.first()) {
        out.push(first);
    }
    let last = segment.last().copied();
    out.extend(segment);
    if let (true, Some(last)) = (cubic, last) {
        out.push(last);
    }
}

/// Step keys as linear ones: each value held until the next key's time, then the jump.
fn step_as_linear<T: Copy + PartialEq>(keys: Vec<Key<T>>) -> Vec<Key<T>> {
    let mut out = Vec::with_capacity(keys.len() * 2);
    for key in keys {
        if let Some(&previous) = out.last() {
            let previous: Key<T> = previous;
            if previous.value != key.value && previous.time != key.time {
                out.push(Key::new(key.time, previous.value));
            }
        }
        out.push(key);
    }
    out
}

/// The range notes and what the timeline could not keep.
fn describe(
    animations: &[Animation],
    ranges: &[FrameRange],
    fps: f32,
    mode: Interpolation,
    report: &mut Report,
) {
    for (animation, range) in animations.iter().zip(ranges) {
        let rate = if animation.fps == fps {
            String::new()
        } else {
            format!(
                " (its keys, at {} fps, keep their times on the {fps} fps timeline)",
                animation.fps
            )
        };
        report.info(
            codes::ANIMATION_RANGE,
            format!(
                "{}: frames {}-{}{rate}",
                range.name, range.first, range.last
            ),
        );
    }
    let looping: Vec<&str> = animations
        .iter()
        .filter(|a| a.looping)
        .map(|a| a.name.as_str())
        .collect();
    if !looping.is_empty() {
        report.loss(
            codes::LOOPING,
            format!(
                "one timeline cannot mark animations as looping: {} play once over their frame range (loop the range to play them as before)",
                looping.join(", ")
            ),
        );
    }
    let cubic: Vec<&str> = animations
        .iter()
        .filter(|a| a.interpolation == Interpolation::Cubic && mode != Interpolation::Cubic)
        .map(|a| a.name.as_str())
        .collect();
    if !cubic.is_empty() {
        report.loss(
            codes::CUBIC_INTERPOLATION,
            format!(
                "the animations differ in interpolation, so the timeline is linear: cubic {} are sampled linearly between their keys",
                cubic.join(", ")
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Pose;
    use glam::{Quat, Vec3};
    use rigport_model_core::Joint;

    fn skeleton() -> Skeleton {
        let mut child = Joint::new("child");
        child.parent = Some(JointId(0));
        child.translation = Vec3::Y;
        Skeleton {
            joints: vec![Joint::new("root"), child],
        }
    }

    /// `frames` keys at `fps` moving the root along X by `speed` per second, from `start`.
    fn walk(name: &str, fps: f32, frames: u32, speed: f32, start: f32) -> Animation {
        let mut a = Animation::new(name, fps);
        let mut track = Track::new(JointId(0));
        for f in 0..frames {
            let t = start + f as f32 / fps;
            track.translations.push(Key::new(t, Vec3::X * speed * t));
        }
        a.duration = start + (frames - 1) as f32 / fps;
        a.tracks.push(track);
        a
    }

    fn turn(name: &str, fps: f32, frames: u32, looping: bool) -> Animation {
        let mut a = Animation::new(name, fps);
        a.looping = looping;
        let mut track = Track::new(JointId(1));
        for f in 0..frames {
            let t = f as f32 / fps;
            track
                .rotations
                .push(Key::new(t, Quat::from_rotation_z(0.3 * f as f32)));
        }
        a.duration = if looping { frames } else { frames - 1 } as f32 / fps;
        a.tracks.push(track);
        a
    }

    fn assert_same_pose(
        skeleton: &Skeleton,
        original: &Animation,
        local: f32,
        joined: &Animation,
        time: f32,
    ) {
        let mut a = Pose::new(skeleton).unwrap();
        let mut b = Pose::new(skeleton).unwrap();
        let (mut x, mut y) = (original.clone(), joined.clone());
        normalize_animation(&mut x, skeleton.len());
        normalize_animation(&mut y, skeleton.len());
        a.sample(&x, local);
        b.sample(&y, time);
        for (m, n) in a.world_matrices().iter().zip(b.world_matrices()) {
            assert!(
                m.abs_diff_eq(*n, 1e-4),
                "{} at {local} vs timeline {time}: {m} != {n}",
                original.name
            );
        }
    }

    #[test]
    fn ranges_follow_each_other_on_whole_frames_from_frame_1() {
        let skeleton = skeleton();
        // 30 frames one-shot, 10 frames looping, 5 frames one-shot starting at 1/24.
        let anims = [
            walk("walk", 24.0, 30, 1.0, 0.0),
            turn("spin", 24.0, 10, true),
            walk("late", 24.0, 5, 2.0, 1.0 / 24.0),
        ];
        let joined = concat_animations(&skeleton, &anims, "all").unwrap();
        let ranges: Vec<(u64, u64)> = joined.ranges.iter().map(|r| (r.first, r.last)).collect();
        // walk: 30 keys → frames 1-30; spin loops 10 frames → 31-40; late: 5 keys → 41-45.
        assert_eq!(ranges, [(1, 30), (31, 40), (41, 45)]);
        let notes: Vec<&str> = joined
            .report
            .with_code(codes::ANIMATION_RANGE)
            .map(|n| n.message.as_str())
            .collect();
        assert_eq!(
            notes,
            [
                "walk: frames 1-30",
                "spin: frames 31-40",
                "late: frames 41-45"
            ]
        );
        assert_eq!(joined.report.with_code(codes::LOOPING).count(), 1);
        assert_eq!(joined.animation.fps, 24.0);
        assert!(!joined.animation.looping);
        assert!((joined.animation.duration - 45.0 / 24.0).abs() < 1e-6);
    }

    #[test]
    fn posing_inside_a_range_equals_posing_the_original() {
        let skeleton = skeleton();
        let mut step = turn("step", 30.0, 6, false);
        step.interpolation = Interpolation::Step;
        let anims = [
            walk("walk", 24.0, 30, 1.0, 0.0),
            turn("spin", 24.0, 10, true),
            // Another frame rate, keys starting late and a declared tail beyond the keys.
            Animation {
                duration: 3.0,
                ..walk("slow", 10.0, 7, -1.0, 0.5)
            },
            step,
        ];
        let joined = concat_animations(&skeleton, &anims, "all").unwrap();
        assert_eq!(joined.animation.interpolation, Interpolation::Linear);
        let fps = joined.animation.fps;
        for ((original, range), span) in anims.iter().zip(&joined.ranges).zip(place(&anims, fps)) {
            let frames = (range.last - range.first) as f32;
            for step in 0..=40 {
                let into = frames * step as f32 / 40.0 / fps;
                let local = span.start as f32 + into;
                assert_same_pose(
                    &skeleton,
                    original,
                    local,
                    &joined.animation,
                    range.start_time(fps) + into,
                );
            }
        }
    }

    #[test]
    fn cubic_ranges_keep_one_sided_tangents_at_their_ends() {
        let skeleton = skeleton();
        let mut a = walk("a", 24.0, 4, 1.0, 0.0);
        let mut b = turn("b", 24.0, 5, false);
        for anim in [&mut a, &mut b] {
            anim.interpolation = Interpolation::Cubic;
        }
        // Make `a` curve: a cubic through bent keys differs from a line between them.
        a.tracks[0].translations[1].value.y = 1.0;
        let anims = [a, b];
        let joined = concat_animations(&skeleton, &anims, "all").unwrap();
        assert_eq!(joined.animation.interpolation, Interpolation::Cubic);
        let fps = 24.0;
        for (original, range) in anims.iter().zip(&joined.ranges) {
            let frames = (range.last - range.first) as f32;
            for step in 0..=12 {
                let into = frames * step as f32 / 12.0 / fps;
                assert_same_pose(
                    &skeleton,
                    original,
                    into,
                    &joined.animation,
                    range.start_time(fps) + into,
                );
            }
        }
    }

    #[test]
    fn channels_an_animation_leaves_alone_hold_the_bind_value_in_its_range() {
        let skeleton = skeleton();
        // Only `spin` turns the child; `walk` and `idle` leave it at its bind rotation.
        let mut idle = Animation::new("idle", 24.0);
        idle.duration = 0.5;
        let anims = [
            walk("walk", 24.0, 3, 1.0, 0.0),
            turn("spin", 24.0, 4, false),
            idle,
        ];
        let joined = concat_animations(&skeleton, &anims, "all").unwrap();
        let child = joined.animation.track(JointId(1)).unwrap();
        // walk: bind keys at frames 1 and 3; spin: its 4 keys; idle: bind keys at 8 and 20.
        assert_eq!(child.rotations.len(), 2 + 4 + 2);
        assert_eq!(child.rotations[0].value, Quat::IDENTITY);
        assert_eq!(joined.ranges[2].first, 8);
        assert_eq!(joined.ranges[2].last, 20);
        assert!(child.translations.is_empty() && child.scales.is_empty());
    }

    #[test]
    fn no_animation_gives_none_and_hostile_durations_saturate() {
        assert!(concat_animations(&skeleton(), &[], "x").is_none());
        let mut huge = Animation::new("huge", 24.0);
        huge.duration = f32::MAX;
        let joined = concat_animations(&skeleton(), &[huge.clone(), huge], "x").unwrap();
        assert_eq!(joined.ranges[0].first, 1);
        assert!(joined.ranges[1].last >= joined.ranges[1].first);
    }
}
