//! Morph-target weights at a time, and meshes moved by them before skinning (glTF 2.0
//! §3.7.2.2: `p = base + Σ wᵢ·Δᵢ`, then the skin).
//!
//! * A mesh without a weight track in the animation shows its targets' default weights.
//! * Keys are found by binary search, as joint channels are: the end keys are held, `STEP`
//!   holds the previous key, `LINEAR` interpolates, `CUBICSPLINE` uses the stored tangents
//!   (glTF 2.0 Appendix C; linear when they do not line up with the keys).
//! * A looping animation wraps its time and blends from the last key back to the first
//!   across the loop seam, as joint channels do ([`crate::sample::sample_looping`]).
//! * With every weight zero a mesh is returned untouched, bit for bit.

use crate::sample::{fraction, hermite_basis, period, wrap_time};
use glam::Vec4;
use rigport_model_core::{Animation, Interpolation, Mesh, MeshId, MorphTrack};

/// The weights of `mesh` (the mesh at index `id`) in `animation` at `time` seconds (wrapped
/// when the animation loops): sampled from its weight track, or its targets' default
/// weights; one per target.
pub fn mesh_weights(animation: Option<&Animation>, id: MeshId, mesh: &Mesh, time: f32) -> Vec<f32> {
    let mut weights = mesh.default_weights();
    if let Some(animation) = animation {
        if let Some(track) = animation.morph_track(id) {
            let period = period(animation);
            let time = wrap_time(animation, period, time);
            let looping = animation.looping && period > 0.0 && period.is_finite();
            sample_weights(track, time, looping.then_some(period), &mut weights);
        }
    }
    weights
}

/// Writes the weights of `track` at `time` into `out` (one per target; targets the track
/// does not drive keep their value). `period` is the loop length of a looping animation.
pub fn sample_weights(track: &MorphTrack, time: f32, period: Option<f32>, out: &mut [f32]) {
    let n = track.targets();
    let keys = track.times.len();
    if n == 0 || keys == 0 {
        return;
    }
    let width = n.min(out.len());
    let at = |k: usize| &track.weights[k * n..k * n + width];
    let (first, last) = (track.times[0], track.times[keys - 1]);
    if let Some(period) = period {
        let seam = period - (last - first);
        if !(first <= time && time <= last) && seam > 0.0 && seam.is_finite() {
            let since_last = if time > last {
                time - last
            } else {
                time + period - last
            };
            let s = fraction(0.0, seam, since_last);
            for ((w, &a), &b) in out.iter_mut().zip(at(keys - 1)).zip(at(0)) {
                *w = match track.interpolation {
                    Interpolation::Step => a,
                    _ => a + (b - a) * s,
                };
            }
            return;
        }
    }
    // The last key at or before `time` (the first key before it starts).
    let after = track.times.partition_point(|&t| t <= time);
    if after == 0 || after == keys {
        out[..width].copy_from_slice(at(if after == 0 { 0 } else { keys - 1 }));
        return;
    }
    let a = after - 1;
    let s = fraction(track.times[a], track.times[after], time);
    let spline = track.interpolation == Interpolation::CubicSpline
        && track.tangents.len() == track.weights.len();
    let dt = track.times[after] - track.times[a];
    for (t, w) in out[..width].iter_mut().enumerate() {
        let (va, vb) = (track.weights[a * n + t], track.weights[after * n + t]);
        *w = match track.interpolation {
            Interpolation::Step => va,
            _ if spline => {
                let ma = track.tangents[a * n + t].out_tangent * dt;
                let mb = track.tangents[after * n + t].in_tangent * dt;
                hermite_basis(
                    Vec4::splat(va),
                    Vec4::splat(ma),
                    Vec4::splat(vb),
                    Vec4::splat(mb),
                    s,
                )
                .x
            }
            _ => va + (vb - va) * s,
        };
    }
}

/// `mesh` moved by its targets at `weights` (normals renormalized), or `None` when no
/// weight moves anything.
pub fn morph_mesh(mesh: &Mesh, weights: &[f32]) -> Option<Mesh> {
    if mesh.morph_targets.is_empty() || weights.iter().all(|&w| w == 0.0 || !w.is_finite()) {
        return None;
    }
    let mut moved = mesh.clone();
    moved.apply_weights(weights);
    Some(moved)
}

/// The meshes as shown at rest: each moved by its targets' default weights, borrowed as
/// they are when no default weight moves anything (most models).
pub fn at_default_weights(meshes: &[Mesh]) -> std::borrow::Cow<'_, [Mesh]> {
    let moves = |m: &Mesh| m.morph_targets.iter().any(|t| t.default_weight != 0.0);
    if !meshes.iter().any(moves) {
        return std::borrow::Cow::Borrowed(meshes);
    }
    let rest = meshes
        .iter()
        .map(|m| morph_mesh(m, &m.default_weights()).unwrap_or_else(|| m.clone()))
        .collect();
    std::borrow::Cow::Owned(rest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;
    use rigport_model_core::{MorphTarget, Tangents, Vertex};

    fn track(interpolation: Interpolation) -> MorphTrack {
        MorphTrack {
            mesh: MeshId(0),
            interpolation,
            times: vec![1.0, 3.0],
            weights: vec![0.0, 1.0, 1.0, 0.0],
            tangents: Vec::new(),
        }
    }

    #[test]
    fn weights_hold_their_ends_and_interpolate_between_keys() {
        let mut out = [9.0; 2];
        sample_weights(&track(Interpolation::Linear), 0.0, None, &mut out);
        assert_eq!(out, [0.0, 1.0]);
        sample_weights(&track(Interpolation::Linear), 2.5, None, &mut out);
        assert_eq!(out, [0.75, 0.25]);
        sample_weights(&track(Interpolation::Step), 2.5, None, &mut out);
        assert_eq!(out, [0.0, 1.0]);
        sample_weights(&track(Interpolation::Linear), 5.0, None, &mut out);
        assert_eq!(out, [1.0, 0.0]);
    }

    #[test]
    fn cubic_spline_weights_follow_the_gltf_hermite() {
        let mut spline = track(Interpolation::CubicSpline);
        spline.tangents = vec![Tangents::both(0.0); 4];
        let mut out = [0.0; 2];
        sample_weights(&spline, 2.0, None, &mut out);
        // Zero tangents: the smoothstep 3s² − 2s³ at s = ½.
        assert!((out[0] - 0.5).abs() < 1e-6 && (out[1] - 0.5).abs() < 1e-6);
        sample_weights(&spline, 1.5, None, &mut out);
        let s: f32 = 0.25;
        assert!((out[0] - (3.0 * s * s - 2.0 * s * s * s)).abs() < 1e-6);
    }

    #[test]
    fn a_looping_animation_blends_back_across_the_seam() {
        let mut out = [0.0; 2];
        // Keys at 1 and 3, period 4: the seam runs from 3 to 5 (= 1 of the next cycle).
        sample_weights(&track(Interpolation::Linear), 0.0, Some(4.0), &mut out);
        assert_eq!(out, [0.5, 0.5]);
    }

    #[test]
    fn zero_weights_leave_the_mesh_alone_and_others_move_it_first() {
        let mut mesh = Mesh::new("m");
        mesh.vertices = vec![
            Vertex {
                normal: Vec3::Z,
                ..Vertex::default()
            };
            2
        ];
        mesh.morph_targets = vec![MorphTarget::dense("up", vec![Vec3::Y, Vec3::ZERO])];
        assert!(morph_mesh(&mesh, &[0.0]).is_none());
        let moved = morph_mesh(&mesh, &[0.5]).unwrap();
        assert_eq!(moved.vertices[0].position, Vec3::new(0.0, 0.5, 0.0));
        assert_eq!(moved.vertices[1], mesh.vertices[1]);
        assert_eq!(mesh_weights(None, MeshId(0), &mesh, 1.0), vec![0.0]);
        let meshes = [mesh];
        assert!(matches!(
            at_default_weights(&meshes),
            std::borrow::Cow::Borrowed(_)
        ));
        let mut moved = meshes[0].clone();
        moved.morph_targets[0].default_weight = 1.0;
        let rest = at_default_weights(std::slice::from_ref(&moved));
        assert_eq!(rest[0].vertices[0].position, Vec3::Y);
    }
}
