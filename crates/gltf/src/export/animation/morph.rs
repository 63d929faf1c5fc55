//! Morph-target weight tracks as `weights` channels.
//!
//! A channel's target node is not known while the animations are written (they may be
//! written apart, before the mesh nodes exist): it holds the model mesh's index, and
//! [`aim_weight_channels`] points it at the mesh's node once the document is whole.
//! Keys are cleaned as joint keys are (times finite, non-negative and strictly increasing;
//! non-finite weights become 0). Cubic-spline tracks keep their stored tangents; a cubic
//! track without them is written as linear.

use super::super::buffer::{Builder, Usage};
use super::{AnimationWriter, Inputs};
use gltf_json as json;
use json::accessor::Type;
use json::animation::{Interpolation as GltfInterpolation, Property};
use rigport_model_core::{Animation, Interpolation, MorphTrack, Report};

/// The latest valid key time of the animation's weight tracks, if any.
pub(super) fn last_weight_key(animation: &Animation) -> Option<f32> {
    animation
        .morph_tracks
        .iter()
        .filter(|t| t.targets() > 0)
        .flat_map(|t| t.times.iter().copied())
        .filter(|t| t.is_finite() && *t >= 0.0)
        .reduce(f32::max)
}

/// Writes every weight track of `animation` with keys (channels aimed at the mesh index);
/// returns how many had keys cleaned.
pub(super) fn write_weight_tracks(
    animation: &Animation,
    mesh_count: usize,
    writer: &mut AnimationWriter,
    builder: &mut Builder,
    inputs: &mut Inputs,
) -> usize {
    let mut cleaned = 0;
    for track in &animation.morph_tracks {
        let n = track.targets();
        if n == 0 || track.mesh.index() >= mesh_count {
            continue;
        }
        let (keys, changed) = clean_keys(track);
        cleaned += usize::from(changed);
        if keys.is_empty() {
            continue;
        }
        let times: Vec<f32> = keys.iter().map(|&k| track.times[k] + 0.0).collect();
        let value = |k: usize, t: usize| {
            let w = track.weights[k * n + t];
            if w.is_finite() { w } else { 0.0 }
        };
        let spline = track.interpolation == Interpolation::CubicSpline
            && track.tangents.len() == track.weights.len()
            && !changed;
        let (interpolation, output): (_, Vec<f32>) = if spline {
            let finite = |v: f32| if v.is_finite() { v } else { 0.0 };
            let mut out = Vec::with_capacity(keys.len() * 3 * n);
            for &k in &keys {
                out.extend((0..n).map(|t| finite(track.tangents[k * n + t].in_tangent)));
                out.extend((0..n).map(|t| value(k, t)));
                out.extend((0..n).map(|t| finite(track.tangents[k * n + t].out_tangent)));
            }
            (GltfInterpolation::CubicSpline, out)
        } else {
            let mode = match track.interpolation {
                Interpolation::Step => GltfInterpolation::Step,
                _ => GltfInterpolation::Linear,
            };
            let out = keys
                .iter()
                .flat_map(|&k| (0..n).map(move |t| value(k, t)))
                .collect();
            (mode, out)
        };
        let input = inputs.get_or_write(&times, builder);
        let output = builder.accessor(&output, Type::Scalar, Usage::Plain);
        writer.push(
            input,
            output,
            interpolation,
            track.mesh.0,
            Property::MorphTargetWeights,
        );
    }
    cleaned
}

/// The keys of `track` glTF accepts (finite, non-negative, strictly increasing times; of
/// keys sharing a time the last), and whether any was left out.
fn clean_keys(track: &MorphTrack) -> (Vec<usize>, bool) {
    let mut keys: Vec<usize> = Vec::with_capacity(track.times.len());
    for (k, &time) in track.times.iter().enumerate() {
        if !(time.is_finite() && time >= 0.0) {
            continue;
        }
        match keys.last() {
            Some(&last) if track.times[last] == time => *keys.last_mut().unwrap() = k,
            Some(&last) if track.times[last] > time => continue,
            _ => keys.push(k),
        }
    }
    let changed = keys.len() != track.times.len();
    (keys, changed)
}

/// Points every `weights` channel (which holds a model mesh index) at the node of that
/// mesh; channels of meshes that were not written are removed with their samplers.
pub(crate) fn aim_weight_channels(
    root: &mut json::Root,
    mesh_nodes: &[Option<json::Index<json::Node>>],
) {
    for animation in &mut root.animations {
        animation.channels.retain_mut(|channel| {
            if channel.target.path != json::validation::Checked::Valid(Property::MorphTargetWeights)
            {
                return true;
            }
            match mesh_nodes
                .get(channel.target.node.value())
                .copied()
                .flatten()
            {
                Some(node) => {
                    channel.target.node = node;
                    true
                }
                None => false,
            }
        });
    }
}

/// Reports weight tracks whose keys were cleaned.
pub(super) fn report_cleaned(cleaned: usize, report: &mut Report) {
    if cleaned > 0 {
        report.warn(
            rigport_model_core::codes::GLTF_WEIGHT_KEYS_CLEANED,
            format!("{cleaned} morph weight tracks had key times glTF does not accept (not finite, negative or out of order); those keys were left out"),
        );
    }
}
