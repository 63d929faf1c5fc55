//! Blend shapes as morph targets: every shape of every channel of a mesh's blend deformers
//! (in-between shapes included) is one target of each model mesh cut from it.
//!
//! * A channel's weight (`DeformPercent` / 100) is split over its shapes piecewise, as
//!   ufbx evaluates it: between the two shapes whose target weights enclose it (counting
//!   "no shape" at 0), linearly; past the last one, extrapolated; on the side where the
//!   channel has no shape, the nearest one scaled by `weight / target`. A channel with one
//!   full shape gives it the channel's weight.
//! * Offsets are per FBX vertex; each unified vertex takes its FBX vertex's offset through the
//!   3×3 of the matrix that placed the vertex (the blend of its clusters' for a skinned one),
//!   and Blender's per-vertex `FullWeights` scale them as ufbx reads them.
//! * Default weights are the channels' saved ones; an animation stack's baked
//!   `DeformPercent` keys become the mesh's weight track.

use crate::math::dvec3;
use glam::{DMat3, DVec3};
use rigport_model_core::{Interpolation, Key, MeshId, MorphTarget, MorphTrack};
use std::collections::HashMap;

/// One blend channel of a mesh: its element, and the target weight of each of its shapes
/// (ascending, as ufbx sorts them).
pub(crate) struct Channel {
    /// The channel's name.
    pub name: String,
    /// The channel's `element_id` (what baked animation names).
    pub element: u32,
    /// The channel's saved weight.
    pub weight: f64,
    /// Target weight of each shape, in target order.
    pub targets: Vec<f64>,
}

/// The blend channels of one FBX mesh instance and the model meshes cut from it.
pub(crate) struct Source {
    pub channels: Vec<Channel>,
    pub meshes: Vec<MeshId>,
}

impl Source {
    /// The blend channels of `mesh`, or `None` when it has no shape.
    pub fn of(mesh: &ufbx::Mesh) -> Option<Source> {
        let channels: Vec<Channel> = blend_channels(mesh)
            .map(|channel| Channel {
                name: channel.element.name.to_string(),
                element: channel.element.element_id,
                weight: channel.weight,
                targets: channel.keyframes.iter().map(|k| k.target_weight).collect(),
            })
            .collect();
        (channels.iter().map(|c| c.targets.len()).sum::<usize>() > 0).then_some(Source {
            channels,
            meshes: Vec::new(),
        })
    }

    /// Every shape's weight for the channels' weights `weights` (one per channel), in
    /// target order, appended to `out`.
    fn shape_weights(&self, weights: impl Iterator<Item = f64>, out: &mut Vec<f32>) {
        for (channel, weight) in self.channels.iter().zip(weights) {
            let at = out.len();
            out.resize(at + channel.targets.len(), 0.0);
            split(&channel.targets, weight, &mut out[at..]);
        }
    }
}

/// Every channel of every blend deformer of `mesh`, in order.
fn blend_channels(mesh: &ufbx::Mesh) -> impl Iterator<Item = &ufbx::BlendChannel> {
    mesh.blend_deformers
        .iter()
        .flat_map(|deformer| deformer.channels.iter().map(|c| &**c))
}

/// A channel's `weight` split over shapes of target weights `targets` (see the module
/// docs); `out` has one slot per shape.
pub(crate) fn split(targets: &[f64], weight: f64, out: &mut [f32]) {
    out.fill(0.0);
    if !weight.is_finite() || weight == 0.0 || targets.is_empty() {
        return;
    }
    // The shapes on the weight's side of zero, nearest first, after "no shape" at 0.
    let side: Vec<usize> = if weight > 0.0 {
        (0..targets.len()).filter(|&i| targets[i] >= 0.0).collect()
    } else {
        (0..targets.len())
            .rev()
            .filter(|&i| targets[i] < 0.0)
            .collect()
    };
    if side.is_empty() {
        // No shape on this side: the nearest shape on the other, scaled back through 0.
        let nearest = if weight > 0.0 { targets.len() - 1 } else { 0 };
        let t = targets[nearest];
        if t != 0.0 {
            out[nearest] = (weight / t) as f32;
        }
        return;
    }
    let beyond = |t: f64| if weight > 0.0 { t > weight } else { t < weight };
    let mut previous: Option<usize> = None;
    let mut next = side[0];
    for (k, &i) in side.iter().enumerate() {
        previous = k.checked_sub(1).map(|k| side[k]);
        next = i;
        if beyond(targets[i]) {
            break;
        }
    }
    let from = previous.map_or(0.0, |p| targets[p]);
    let delta = targets[next] - from;
    if delta == 0.0 {
        return;
    }
    let t = (weight - from) / delta;
    if let Some(p) = previous {
        out[p] = (1.0 - t) as f32;
    }
    out[next] = t as f32;
}

/// The morph targets of one model mesh cut from `mesh`: `vertices` gives each unified
/// vertex's FBX vertex and the 3×3 maps of its positions and normals. Every target is
/// sparse over the vertices it moves (possibly none, so that every mesh cut from one FBX
/// mesh has the same targets).
pub(crate) fn targets(mesh: &ufbx::Mesh, vertices: &[(u32, DMat3, DMat3)]) -> Vec<MorphTarget> {
    let mut out = Vec::new();
    let mut dense: Vec<(DVec3, DVec3)> = vec![(DVec3::ZERO, DVec3::ZERO); mesh.num_vertices];
    let mut moved: Vec<bool> = vec![false; mesh.num_vertices];
    for channel in blend_channels(mesh) {
        let single = channel.keyframes.len() == 1;
        for (k, keyframe) in channel.keyframes.iter().enumerate() {
            let shape = &keyframe.shape;
            dense.fill((DVec3::ZERO, DVec3::ZERO));
            moved.fill(false);
            for (i, &vertex) in shape.offset_vertices.iter().enumerate() {
                let Some(slot) = dense.get_mut(vertex as usize) else {
                    continue;
                };
                let scale = shape.offset_weights.get(i).copied().unwrap_or(1.0);
                let p = shape
                    .position_offsets
                    .get(i)
                    .map_or(DVec3::ZERO, |v| dvec3(*v));
                let n = shape
                    .normal_offsets
                    .get(i)
                    .map_or(DVec3::ZERO, |v| dvec3(*v));
                *slot = (p * scale, n * scale);
                moved[vertex as usize] = true;
            }
            let has_normals = !shape.normal_offsets.is_empty();
            let mut target = MorphTarget {
                name: name(channel, &keyframe.shape, single, k),
                indices: Some(Vec::new()),
                default_weight: keyframe.effective_weight as f32,
                ..MorphTarget::default()
            };
            for (v, &(fbx, linear, normal)) in vertices.iter().enumerate() {
                if !moved.get(fbx as usize).copied().unwrap_or(false) {
                    continue;
                }
                let (p, n) = dense[fbx as usize];
                if let Some(indices) = target.indices.as_mut() {
                    indices.push(v as u32);
                }
                target.positions.push((linear * p).as_vec3());
                if has_normals {
                    target.normals.push((normal * n).as_vec3());
                }
            }
            if !target.default_weight.is_finite() {
                target.default_weight = 0.0;
            }
            out.push(target);
        }
    }
    out
}

/// A target's name: the channel's for its only shape; the shape's own (or the channel's
/// with the shape's number) for in-between shapes.
fn name(channel: &ufbx::BlendChannel, shape: &ufbx::BlendShape, single: bool, k: usize) -> String {
    let channel_name = channel.element.name.to_string();
    if single && !channel_name.is_empty() {
        return channel_name;
    }
    let own = shape.element.name.to_string();
    if !own.is_empty() && own != channel_name {
        return own;
    }
    format!("{channel_name}.{k}")
}

/// The weight tracks of one stack: each source's channels sampled at the union of their
/// baked key times (a channel without keys holds its saved weight), split into shape
/// weights, one track per model mesh. `keys` maps a channel's element to its keys (times
/// already from the stack's start, values as weights).
pub(crate) fn tracks(sources: &[Source], keys: &HashMap<u32, Vec<Key<f32>>>) -> Vec<MorphTrack> {
    let mut out = Vec::new();
    for source in sources {
        let mut times: Vec<f32> = source
            .channels
            .iter()
            .filter_map(|c| keys.get(&c.element))
            .flat_map(|k| k.iter().map(|k| k.time))
            .collect();
        if times.is_empty() {
            continue;
        }
        times.sort_by(f32::total_cmp);
        times.dedup();
        let mut weights = Vec::with_capacity(times.len() * source.channels.len());
        for &time in &times {
            let at = source.channels.iter().map(|c| match keys.get(&c.element) {
                Some(k) => f64::from(linear(k, time)),
                None => c.weight,
            });
            source.shape_weights(at, &mut weights);
        }
        for &mesh in &source.meshes {
            out.push(MorphTrack {
                mesh,
                interpolation: Interpolation::Linear,
                times: times.clone(),
                weights: weights.clone(),
                tangents: Vec::new(),
            });
        }
    }
    out
}

/// Keys sorted by time at `time`: linear between them, the ends held.
fn linear(keys: &[Key<f32>], time: f32) -> f32 {
    let after = keys.partition_point(|k| k.time <= time);
    match (after.checked_sub(1).map(|i| &keys[i]), keys.get(after)) {
        (Some(a), Some(b)) if b.time > a.time => {
            a.value + (b.value - a.value) * (time - a.time) / (b.time - a.time)
        }
        (Some(a), _) => a.value,
        (None, Some(b)) => b.value,
        (None, None) => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::split;

    fn weights(targets: &[f64], weight: f64) -> Vec<f32> {
        let mut out = vec![9.0; targets.len()];
        split(targets, weight, &mut out);
        out
    }

    #[test]
    fn a_channel_weight_splits_over_its_shapes_piecewise() {
        assert_eq!(weights(&[1.0], 0.25), [0.25]);
        assert_eq!(weights(&[1.0], 2.0), [2.0]);
        assert_eq!(weights(&[1.0], -1.0), [-1.0]);
        // In-between at 0.5: half way to it, then from it to the full shape.
        assert_eq!(weights(&[0.5, 1.0], 0.25), [0.5, 0.0]);
        assert_eq!(weights(&[0.5, 1.0], 0.75), [0.5, 0.5]);
        assert_eq!(weights(&[0.5, 1.0], 1.5), [-1.0, 2.0]);
        // Negative in-betweens (Maya's MoveToSide): the negative side walks down.
        assert_eq!(weights(&[-0.5, -0.25, 1.0], -0.375), [0.5, 0.5, 0.0]);
        assert_eq!(weights(&[-0.5, -0.25, 1.0], 0.5), [0.0, 0.0, 0.5]);
        assert_eq!(weights(&[0.5, 1.0], 0.0), [0.0, 0.0]);
    }
}
