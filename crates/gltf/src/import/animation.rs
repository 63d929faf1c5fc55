//! Animations: every glTF animation's translation/rotation/scale channels on joints.
//!
//! * Interpolation is per sampler in glTF but per animation in the model. One mode kept
//!   as it is; mixed modes are converted losslessly for vectors: with `CUBICSPLINE` present
//!   the animation is a cubic spline, its `LINEAR` channels get the chord slopes as tangents
//!   (the same straight segments) and `STEP` channels a cut (a key repeated at the next
//!   key's time, zero tangents); otherwise `STEP` channels become linear with cuts. A cut's
//!   repeated key sits one representable time before the next key rather than on it, so
//!   every consumer keeps it (two keys at one time are merged by glTF export).
//! * Channels on nodes that are not joints are losses; `weights` channels become the
//!   animation's morph tracks, one per model mesh of the node ([`super::morph`]).
//! * Two channels for one joint and path: the first wins (the project's rule).
//! * A root joint with non-joint ancestors gets their rest transform folded into its keys.
//! * A joint channel the animation does not drive whose node rest value differs from the
//!   skeleton's bind value (bind comes from the inverse bind matrices) gets one key with
//!   the rest value, so posing equals glTF's at every time.
//! * The frame rate is the one rigport's writer keeps in the animation's `extras.fps`, even
//!   where keys fall between its frames (MilkShape ASCII keys at frame 4.41); without one,
//!   the smallest whole rate up to 240 fps at which every key time of the file falls on a
//!   whole frame; otherwise [`ImportOptions::fps`](super::ImportOptions::fps).

use super::accessor::{info, read_f32};
use super::morph::{self, MorphNodes, MorphStats};
use super::skin::Rig;
use super::{GltfFile, ImportError, ImportOptions};
use glam::{Mat4, Quat, Vec3, Vec4};
use gltf_json as json;
use json::animation::{Interpolation as GltfInterpolation, Property};
use json::validation::Checked;
use rigport_anim::Transform;
use rigport_model_core::{Animation, Budget, Interpolation, Key, Report, Tangents, Track, codes};

/// One channel as read: key times, values and (cubic) tangents, 4 numbers per value.
struct Channel {
    joint: usize,
    property: Property,
    mode: GltfInterpolation,
    times: Vec<f32>,
    values: Vec<Vec4>,
    /// In/out tangents per key (`CUBICSPLINE` only).
    tangents: Vec<(Vec4, Vec4)>,
}

/// Counts over every animation, reported once.
#[derive(Default)]
struct Stats {
    node_channels: usize,
    morph: MorphStats,
    duplicates: usize,
    mixed: usize,
}

/// Every animation of the file.
pub(crate) fn animations(
    file: &GltfFile,
    rig: &Rig,
    morph_nodes: &MorphNodes,
    options: &ImportOptions,
    budget: &mut Budget,
    report: &mut Report,
) -> Result<Vec<Animation>, ImportError> {
    let root = file.root();
    let mut stats = Stats::default();
    let mut out = Vec::with_capacity(root.animations.len());
    for (a, gltf) in root.animations.iter().enumerate() {
        let mut channels: Vec<Channel> = Vec::new();
        let mut morph_tracks = Vec::new();
        for (c, channel) in gltf.channels.iter().enumerate() {
            let what = format!("animation {a} channel {c}");
            let node = channel.target.node.value();
            if node >= root.nodes.len() {
                return Err(ImportError::index(
                    format!("{what} node"),
                    node,
                    root.nodes.len(),
                ));
            }
            let Checked::Valid(property) = channel.target.path else {
                return Err(ImportError::invalid(what, "has an invalid target path"));
            };
            if property == Property::MorphTargetWeights {
                let meshes = &morph_nodes[node];
                let sampler = || sampler_of(gltf, channel, &what);
                let stats = (&mut stats.morph, &mut stats.duplicates);
                morph::weight_channel(
                    file,
                    meshes,
                    sampler,
                    &what,
                    budget,
                    stats,
                    &mut morph_tracks,
                )?;
                continue;
            }
            if Some(node) == rig.unbound {
                // The writer's unbound joint, read as no joint: nothing of its own to carry.
                continue;
            }
            let Some(joint) = rig.joint_of_node[node] else {
                stats.node_channels += 1;
                continue;
            };
            if channels
                .iter()
                .any(|k| k.joint == joint.index() && k.property == property)
            {
                stats.duplicates += 1;
                continue;
            }
            let (sampler, mode) = sampler_of(gltf, channel, &what)?;
            channels.push(read_channel(
                file,
                sampler,
                joint.index(),
                property,
                mode,
                &what,
                budget,
            )?);
        }
        // From the file's own key times, before `unify` adds the keys that hold a step.
        let timing = Timing::of(gltf);
        let fps = frame_rate(&channels, options.fps, timing.fps);
        let mode = unify(&mut channels, &mut stats);
        let name = gltf.name.clone().unwrap_or_else(|| format!("animation{a}"));
        let mut animation = build(name, channels, mode, fps, rig);
        animation.morph_tracks = morph_tracks;
        if timing.looping {
            animation.looping = true;
            drop_wrap_keys(&mut animation);
        }
        out.push(animation);
    }
    let mut say = |count: usize, code: rigport_model_core::Code, loss: bool, text: &str| {
        if count > 0 {
            let message = format!("{count} {text}");
            match loss {
                true => report.loss(code, message),
                false => report.warn(code, message),
            }
        }
    };
    say(
        stats.node_channels,
        codes::NODE_ANIMATION,
        true,
        "animation channels drive nodes that are not joints; not carried",
    );
    say(
        stats.duplicates,
        codes::TRACK_JOINT_DUPLICATE,
        false,
        "animation channels repeat a joint and path already animated; the first is kept",
    );
    morph::report_stats(&stats.morph, report);
    if stats.mixed > 0 {
        report.info(
            codes::INTERPOLATION_MIXED,
            format!(
                "{} animations mix interpolations; converted to one that reproduces each channel",
                stats.mixed
            ),
        );
    }
    Ok(out)
}

/// The sampler of a channel and its interpolation.
fn sampler_of<'a>(
    gltf: &'a json::Animation,
    channel: &json::animation::Channel,
    what: &str,
) -> Result<(&'a json::animation::Sampler, GltfInterpolation), ImportError> {
    let s = channel.sampler.value();
    let sampler = gltf
        .samplers
        .get(s)
        .ok_or_else(|| ImportError::index(format!("{what} sampler"), s, gltf.samplers.len()))?;
    let Checked::Valid(mode) = sampler.interpolation else {
        return Err(ImportError::invalid(what, "has an invalid interpolation"));
    };
    Ok((sampler, mode))
}

/// A sampler's key times.
pub(super) fn key_times(
    file: &GltfFile,
    sampler: &json::animation::Sampler,
    what: &str,
    budget: &mut Budget,
) -> Result<Vec<f32>, ImportError> {
    let input = read_f32::<1>(
        file,
        sampler.input.value(),
        &format!("{what} input"),
        budget,
    )?;
    Ok(input.into_iter().map(|[t]| t).collect())
}

/// Reads a sampler's input and output for one channel.
fn read_channel(
    file: &GltfFile,
    sampler: &json::animation::Sampler,
    joint: usize,
    property: Property,
    mode: GltfInterpolation,
    what: &str,
    budget: &mut Budget,
) -> Result<Channel, ImportError> {
    let times = key_times(file, sampler, what, budget)?;
    let output = sampler.output.value();
    let label = format!("{what} output");
    let values: Vec<Vec4> = if property == Property::Rotation {
        read_f32::<4>(file, output, &label, budget)?
            .into_iter()
            .map(Vec4::from)
            .collect()
    } else {
        read_f32::<3>(file, output, &label, budget)?
            .into_iter()
            .map(|v| Vec3::from(v).extend(0.0))
            .collect()
    };
    let per_key = if mode == GltfInterpolation::CubicSpline {
        3
    } else {
        1
    };
    if values.len() != times.len() * per_key {
        let count = info(file, output, &label)?.count;
        return Err(ImportError::invalid(
            label,
            format!(
                "has {count} values for {} key times ({per_key} per key expected with {mode:?})",
                times.len()
            ),
        ));
    }
    let (values, tangents) = if per_key == 3 {
        let mut keys = Vec::with_capacity(times.len());
        let mut tangents = Vec::with_capacity(times.len());
        for chunk in values.chunks_exact(3) {
            tangents.push((chunk[0], chunk[2]));
            keys.push(chunk[1]);
        }
        (keys, tangents)
    } else {
        (values, Vec::new())
    };
    Ok(Channel {
        joint,
        property,
        mode,
        times,
        values,
        tangents,
    })
}

/// One interpolation for the whole animation; channels converted to it (module docs).
fn unify(channels: &mut [Channel], stats: &mut Stats) -> Interpolation {
    let has = |m: GltfInterpolation| channels.iter().any(|c| c.mode == m);
    let (linear, step, cubic) = (
        has(GltfInterpolation::Linear),
        has(GltfInterpolation::Step),
        has(GltfInterpolation::CubicSpline),
    );
    if u8::from(linear) + u8::from(step) + u8::from(cubic) > 1 {
        stats.mixed += 1;
    }
    let target = if cubic {
        Interpolation::CubicSpline
    } else if linear {
        Interpolation::Linear
    } else if step {
        Interpolation::Step
    } else {
        Interpolation::Linear
    };
    for channel in channels.iter_mut() {
        match (channel.mode, target) {
            (GltfInterpolation::Step, Interpolation::Linear | Interpolation::CubicSpline) => {
                let mut times = Vec::with_capacity(channel.times.len() * 2);
                let mut values = Vec::with_capacity(channel.values.len() * 2);
                for k in 0..channel.times.len() {
                    times.push(channel.times[k]);
                    values.push(channel.values[k]);
                    // The value holds until just before the next key: one representable
                    // time earlier, not at the same time, because glTF export keeps only
                    // the last of keys sharing a time (a ramp then), and frame sampling
                    // then sees the old value on every frame before the jump.
                    if let Some(&next) = channel.times.get(k + 1) {
                        let hold = just_before(next);
                        if hold > channel.times[k] {
                            times.push(hold);
                            values.push(channel.values[k]);
                        }
                    }
                }
                channel.tangents = vec![(Vec4::ZERO, Vec4::ZERO); times.len()];
                channel.times = times;
                channel.values = values;
            }
            (GltfInterpolation::Linear, Interpolation::CubicSpline) => {
                let n = channel.times.len();
                let slope = |a: usize, b: usize| {
                    let dt = channel.times[b] - channel.times[a];
                    let s = (channel.values[b] - channel.values[a]) / dt;
                    if dt > 0.0 && s.is_finite() {
                        s
                    } else {
                        Vec4::ZERO
                    }
                };
                channel.tangents = (0..n)
                    .map(|k| {
                        let incoming = if k > 0 { slope(k - 1, k) } else { Vec4::ZERO };
                        let outgoing = if k + 1 < n {
                            slope(k, k + 1)
                        } else {
                            Vec4::ZERO
                        };
                        (incoming, outgoing)
                    })
                    .collect();
            }
            _ => {}
        }
        if target != Interpolation::CubicSpline {
            channel.tangents.clear();
        }
    }
    target
}

/// The largest `f32` below `time` (`time` itself when not finite or no such number exists).
fn just_before(time: f32) -> f32 {
    if !time.is_finite() || time == f32::MIN {
        return time;
    }
    // `f32::next_down` by hand: it needs Rust 1.86, the workspace's MSRV is 1.85. Adjacent
    // floats of one sign have adjacent bit patterns.
    let bits = time.to_bits();
    if time == 0.0 {
        -f32::from_bits(1)
    } else if time > 0.0 {
        f32::from_bits(bits - 1)
    } else {
        f32::from_bits(bits + 1)
    }
}

/// How far (in frames) a key time may be from a whole frame and still count as on it: the
/// IQE writer's own test for keys between frames.
const ON_FRAME: f64 = 1e-3;

/// The frame rate of an animation whose channels hold the file's key times: the rate the
/// file declares (rigport's `extras.fps`: the animation's own, which a frame-numbered
/// format such as MilkShape ASCII needs to number its keys as its source did, even keys
/// between frames); else the smallest whole rate up to 240 fps at which every key time
/// falls on a whole frame, so frame-based formats (IQE, IQM) sample every key exactly;
/// `fallback` when no rate fits, or no key is after another.
fn frame_rate(channels: &[Channel], fallback: f32, declared: Option<f32>) -> f32 {
    if let Some(fps) = declared {
        return fps;
    }
    let mut times: Vec<f64> = channels
        .iter()
        .flat_map(|c| c.times.iter())
        .filter(|t| t.is_finite())
        .map(|&t| f64::from(t))
        .collect();
    times.sort_by(f64::total_cmp);
    times.dedup();
    if times.len() < 2 {
        return fallback;
    }
    (1..=240u32)
        .map(f64::from)
        .find(|&fps| fits(&times, fps))
        .map_or(fallback, |fps| fps as f32)
}

/// Whether every one of the sorted, distinct `times` is on a whole frame at `fps`, each on
/// its own frame (two keys 0.4 ms apart are not both on frame 0).
fn fits(times: &[f64], fps: f64) -> bool {
    let mut previous = None;
    for &time in times {
        let frame = time * fps;
        let whole = frame.round();
        if (frame - whole).abs() > ON_FRAME || previous == Some(whole) {
            return false;
        }
        previous = Some(whole);
    }
    true
}

/// What rigport's writer keeps in an animation's `extras`: its frame rate and loop flag.
#[derive(Default)]
struct Timing {
    /// `extras.fps`, when finite and positive.
    fps: Option<f32>,
    /// `extras.looping`.
    looping: bool,
}

impl Timing {
    /// The animation's `extras`, where they are an object (anything else counts as none).
    fn of(animation: &gltf_json::Animation) -> Timing {
        let Some(raw) = animation.extras.as_ref() else {
            return Timing::default();
        };
        let Ok(serde_json::Value::Object(extras)) = serde_json::from_str(raw.get()) else {
            return Timing::default();
        };
        Timing {
            fps: extras
                .get("fps")
                .and_then(serde_json::Value::as_f64)
                .map(|fps| fps as f32)
                .filter(|fps| fps.is_finite() && *fps > 0.0),
            looping: extras.get("looping") == Some(&serde_json::Value::Bool(true)),
        }
    }
}

/// Removes the wrap keys of a looping animation: a last key at the end of the period equal
/// to the channel's first, which rigport's writer adds so that glTF players blend back as
/// they loop (`export::animation::clean::loop_wrap`). A looping model animation blends back
/// by itself, so the model is what it was before it was written.
fn drop_wrap_keys(animation: &mut Animation) {
    let period = animation.duration;
    let at_end = |time: f32| (time - period).abs() <= 1e-5 * period.max(1.0);
    let close =
        |a: Vec3, b: Vec3| (a - b).abs().max_element() <= 1e-5 * a.abs().max_element().max(1.0);
    for track in &mut animation.tracks {
        let wrap = |keys: &[Key<Vec3>]| matches!((keys.first(), keys.last()), (Some(first), Some(last)) if keys.len() > 1 && at_end(last.time) && close(first.value, last.value));
        if wrap(&track.translations) {
            track.translations.pop();
            track
                .translation_tangents
                .truncate(track.translations.len());
        }
        if wrap(&track.scales) {
            track.scales.pop();
            track.scale_tangents.truncate(track.scales.len());
        }
        let rotations = &track.rotations;
        if let (Some(first), Some(last)) = (rotations.first(), rotations.last())
            && rotations.len() > 1
            && at_end(last.time)
            && same_rotation(first.value, last.value)
        {
            track.rotations.pop();
            track.rotation_tangents.truncate(track.rotations.len());
        }
    }
}

/// The model animation from its converted channels.
fn build(
    name: String,
    channels: Vec<Channel>,
    mode: Interpolation,
    fps: f32,
    rig: &Rig,
) -> Animation {
    let mut duration = 0.0f32;
    for channel in &channels {
        if let Some(&last) = channel.times.last() {
            if last.is_finite() {
                duration = duration.max(last);
            }
        }
    }
    let mut animation = Animation::new(name, fps);
    animation.interpolation = mode;
    animation.duration = duration;
    let cubic = mode == Interpolation::CubicSpline;
    let mut tracks: Vec<Option<Track>> = vec![None; rig.skeleton.len()];
    for channel in channels {
        let track = tracks[channel.joint]
            .get_or_insert_with(|| Track::new(rigport_model_core::JointId(channel.joint as u32)));
        let fold = rig.fold[channel.joint];
        store(track, channel, fold, cubic);
    }
    // Channels not driven: the node's rest value where it differs from the bind value
    // (only in an animation that drives something: an empty one stays empty).
    let drives_something = tracks.iter().any(Option::is_some);
    for (j, slot) in tracks.iter_mut().enumerate() {
        let bind = Transform::of_joint(&rig.skeleton.joints[j]);
        let rest = rig.rest[j];
        let needs =
            |track: &Option<Track>, empty: fn(&Track) -> bool| track.as_ref().is_none_or(empty);
        let t_missing = needs(slot, |t| t.translations.is_empty())
            && !rest.translation.abs_diff_eq(bind.translation, 1e-5);
        let r_missing =
            needs(slot, |t| t.rotations.is_empty()) && !same_rotation(rest.rotation, bind.rotation);
        let s_missing =
            needs(slot, |t| t.scales.is_empty()) && !rest.scale.abs_diff_eq(bind.scale, 1e-5);
        if !(t_missing || r_missing || s_missing) || !drives_something {
            continue;
        }
        let track = slot.get_or_insert_with(|| Track::new(rigport_model_core::JointId(j as u32)));
        let zero = Tangents::default();
        if t_missing {
            track.translations.push(Key::new(0.0, rest.translation));
            if cubic {
                track.translation_tangents.push(zero);
            }
        }
        if r_missing {
            track.rotations.push(Key::new(0.0, rest.rotation));
            if cubic {
                track.rotation_tangents.push(Tangents::default());
            }
        }
        if s_missing {
            track.scales.push(Key::new(0.0, rest.scale));
            if cubic {
                track.scale_tangents.push(zero);
            }
        }
    }
    animation.tracks = tracks.into_iter().flatten().collect();
    animation
}

/// Whether two unit quaternions are the same rotation.
fn same_rotation(a: Quat, b: Quat) -> bool {
    a.dot(b).abs() > 1.0 - 1e-6
}

/// Moves a channel's keys into a track, folding a root joint's non-joint ancestors in.
fn store(track: &mut Track, channel: Channel, fold: Option<Mat4>, cubic: bool) {
    // A fold with uniform scale maps T·R·S keys channel by channel; see `fold_parts`.
    let (fold_rotation, fold_scale, fold_translation) =
        fold.map_or((Quat::IDENTITY, 1.0, Vec3::ZERO), fold_parts);
    let times = channel.times;
    let tangents = channel.tangents;
    match channel.property {
        Property::Translation => {
            let map = |v: Vec4| fold_translation + fold_rotation * (fold_scale * v.truncate());
            let linear = |v: Vec4| fold_rotation * (fold_scale * v.truncate());
            track.translations = times
                .iter()
                .zip(&channel.values)
                .map(|(&t, &v)| Key::new(t, map(v)))
                .collect();
            if cubic {
                track.translation_tangents = tangents
                    .iter()
                    .map(|&(i, o)| Tangents {
                        in_tangent: linear(i),
                        out_tangent: linear(o),
                    })
                    .collect();
            }
        }
        Property::Rotation => {
            let map = |v: Vec4| fold_rotation * Quat::from_vec4(v);
            track.rotations = times
                .iter()
                .zip(&channel.values)
                .map(|(&t, &v)| {
                    let q = map(v);
                    // Stored as given (a cubic spline's tangents belong to these signs);
                    // only normalized when far from unit length.
                    Key::new(
                        t,
                        if (q.length() - 1.0).abs() > 1e-3 {
                            super::scene::unit(q)
                        } else {
                            q
                        },
                    )
                })
                .collect();
            if cubic {
                track.rotation_tangents = tangents
                    .iter()
                    .map(|&(i, o)| Tangents {
                        in_tangent: Vec4::from(fold_rotation * Quat::from_vec4(i)),
                        out_tangent: Vec4::from(fold_rotation * Quat::from_vec4(o)),
                    })
                    .collect();
            }
        }
        Property::Scale => {
            track.scales = times
                .iter()
                .zip(&channel.values)
                .map(|(&t, &v)| Key::new(t, fold_scale * v.truncate()))
                .collect();
            if cubic {
                track.scale_tangents = tangents
                    .iter()
                    .map(|&(i, o)| Tangents {
                        in_tangent: fold_scale * i.truncate(),
                        out_tangent: fold_scale * o.truncate(),
                    })
                    .collect();
            }
        }
        Property::MorphTargetWeights => {}
    }
}

/// A fold matrix as rotation, uniform scale (the mean of its axes' lengths) and
/// translation: `F·T(t)·R(r)·S(s) = T(f_t + f_r·f_s·t)·R(f_r·r)·S(f_s·s)` holds exactly when
/// the fold's scale is uniform, which it is for the armature/root nodes real exporters
/// write (a Z-up to Y-up rotation, a unit conversion).
fn fold_parts(fold: Mat4) -> (Quat, f32, Vec3) {
    let (scale, rotation, translation) = fold.to_scale_rotation_translation();
    let uniform = (scale.x + scale.y + scale.z) / 3.0;
    (super::scene::unit(rotation), uniform, translation)
}

#[cfg(test)]
mod tests {
    use super::just_before;

    #[test]
    fn just_before_is_the_next_float_down() {
        // 0.7f32 is 0x3F33_3333; the float below it has the bit pattern one less.
        assert_eq!(just_before(0.7).to_bits(), 0x3F33_3332);
        assert!(just_before(0.7) < 0.7);
        // Below zero: the smallest negative subnormal; below −1: away from zero.
        assert_eq!(just_before(0.0), -f32::from_bits(1));
        assert_eq!(just_before(-1.0).to_bits(), (-1.0f32).to_bits() + 1);
        assert!(just_before(-1.0) < -1.0);
        assert_eq!(just_before(f32::INFINITY), f32::INFINITY);
        assert!(just_before(f32::NAN).is_nan());
    }
}
