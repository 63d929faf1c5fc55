//! Morph targets of a primitive and the animated weights that drive them.
//!
//! * Every target's `POSITION` and `NORMAL` offsets are read (dense, sparse, or sparse
//!   without a buffer view, glTF 2.0 §3.6.2.3). A target stores only the vertices it moves
//!   when that is smaller than one offset per vertex, so a face rig's small targets do not
//!   each hold a copy of the mesh. `TANGENT` offsets are a loss (the model holds no
//!   tangents).
//! * Names come from `mesh.extras.targetNames` (the convention Blender and three.js
//!   share), default weights from the node's `weights`, else the mesh's.
//! * A `weights` channel drives every model mesh its node shows; each gets a
//!   [`MorphTrack`] with the sampler's own interpolation.

use super::accessor::{info, read_f32, visit_f32};
use super::{GltfFile, ImportError};
use glam::{Mat3, Vec3};
use gltf_json as json;
use json::animation::Interpolation as GltfInterpolation;
use rigport_model_core::{
    Budget, Interpolation, MeshId, MorphTarget, MorphTrack, Report, Tangents, codes,
};

/// Per node, the model meshes with morph targets it shows and their target counts.
pub(crate) type MorphNodes = Vec<Vec<(MeshId, usize)>>;

/// Counts over every primitive and channel, reported once.
#[derive(Default)]
pub(crate) struct MorphStats {
    /// Targets whose `TANGENT` offsets were left out.
    pub tangents: usize,
    /// Weight channels on nodes that show no mesh with targets.
    pub orphan_channels: usize,
    /// Weight channels whose key times are not ascending and finite.
    pub bad_times: usize,
}

/// The names in `mesh.extras.targetNames`, if it is an array of strings.
pub(crate) fn target_names(mesh: &json::Mesh) -> Vec<String> {
    let Some(raw) = mesh.extras.as_ref() else {
        return Vec::new();
    };
    let Ok(serde_json::Value::Object(extras)) = serde_json::from_str(raw.get()) else {
        return Vec::new();
    };
    match extras.get("targetNames") {
        Some(serde_json::Value::Array(names)) => names
            .iter()
            .map(|n| n.as_str().unwrap_or_default().to_owned())
            .collect(),
        _ => Vec::new(),
    }
}

/// The morph targets of a primitive of `n` vertices; `(names, weights)` are the mesh's
/// (weights: or the node's) and may be shorter than the targets.
pub(crate) fn read_targets(
    file: &GltfFile,
    primitive: &json::mesh::Primitive,
    (names, weights): (&[String], &[f32]),
    n: usize,
    what: &str,
    budget: &mut Budget,
    stats: &mut MorphStats,
) -> Result<Vec<MorphTarget>, ImportError> {
    let Some(targets) = primitive.targets.as_ref() else {
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(targets.len());
    for (t, target) in targets.iter().enumerate() {
        let label = format!("{what} target {t}");
        // One dense scratch column per attribute, kept only where it is smaller than the
        // sparse form.
        budget.reserve("morph target offsets", n as u64 * 2, 12)?;
        let mut positions = vec![Vec3::ZERO; n];
        if let Some(a) = target.positions {
            read_column(
                file,
                a.value(),
                n,
                &format!("{label} POSITION"),
                &mut positions,
            )?;
        }
        let mut normals = Vec::new();
        if let Some(a) = target.normals {
            normals = vec![Vec3::ZERO; n];
            read_column(file, a.value(), n, &format!("{label} NORMAL"), &mut normals)?;
        }
        stats.tangents += usize::from(target.tangents.is_some());
        let mut morph = sparsify(positions, normals);
        morph.name = names.get(t).cloned().unwrap_or_default();
        morph.default_weight = weights
            .get(t)
            .copied()
            .filter(|w| w.is_finite())
            .unwrap_or(0.0);
        out.push(morph);
    }
    Ok(out)
}

/// Reads a VEC3 accessor of `n` elements into `column`.
fn read_column(
    file: &GltfFile,
    index: usize,
    n: usize,
    what: &str,
    column: &mut [Vec3],
) -> Result<(), ImportError> {
    let count = info(file, index, what)?.count;
    if count != n {
        return Err(ImportError::invalid(
            format!("{what} (accessor {index})"),
            format!("has {count} elements but POSITION has {n}"),
        ));
    }
    visit_f32::<3>(file, index, what, |i, v| column[i] = Vec3::from(v))?;
    Ok(())
}

/// A target from dense columns: sparse (the moved vertices only) when that is smaller.
fn sparsify(positions: Vec<Vec3>, normals: Vec<Vec3>) -> MorphTarget {
    let moved =
        |i: usize| positions[i] != Vec3::ZERO || normals.get(i).is_some_and(|n| *n != Vec3::ZERO);
    let kept: Vec<u32> = (0..positions.len())
        .filter(|&i| moved(i))
        .map(|i| i as u32)
        .collect();
    // Dense costs 12 (or 24) bytes a vertex; sparse that plus an index, per moved vertex.
    let per = if normals.is_empty() { 12 } else { 24 };
    if kept.len() * (per + 4) >= positions.len() * per {
        return MorphTarget {
            positions,
            normals,
            ..MorphTarget::default()
        };
    }
    let pick = |column: &[Vec3]| kept.iter().map(|&i| column[i as usize]).collect::<Vec<_>>();
    MorphTarget {
        positions: pick(&positions),
        normals: if normals.is_empty() {
            Vec::new()
        } else {
            pick(&normals)
        },
        indices: Some(kept),
        ..MorphTarget::default()
    }
}

/// Moves offsets through `matrix`'s 3×3 (positions) and its inverse-transpose (normals),
/// as the mesh's vertices were.
pub(crate) fn transform_targets(targets: &mut [MorphTarget], linear: Mat3, normal: Mat3) {
    for target in targets {
        target.positions.iter_mut().for_each(|p| *p = linear * *p);
        target.normals.iter_mut().for_each(|n| *n = normal * *n);
    }
}

/// The targets of a mesh whose vertices were unwelded into `corners` (the old vertex of
/// each new one): dense over the new vertices; normal offsets dropped (the flat normals
/// were generated).
pub(crate) fn unweld_targets(targets: &mut [MorphTarget], corners: &[u32]) {
    for target in targets {
        let mut dense =
            vec![Vec3::ZERO; corners.iter().map(|&c| c as usize + 1).max().unwrap_or(0)];
        for (k, &p) in target.positions.iter().enumerate() {
            if let Some(slot) = dense.get_mut(target.vertex_of(k)) {
                *slot = p;
            }
        }
        target.positions = corners.iter().map(|&c| dense[c as usize]).collect();
        target.indices = None;
        target.normals.clear();
    }
}

/// A `weights` channel on a node showing `meshes` (model mesh, target count): a track for
/// each mesh with the first one's target count, appended to `tracks`. `stats` counts
/// channels on nodes without targets and (second) channels repeating a node's.
pub(crate) fn weight_channel<'a>(
    file: &GltfFile,
    meshes: &[(MeshId, usize)],
    sampler: impl FnOnce() -> Result<(&'a json::animation::Sampler, GltfInterpolation), ImportError>,
    what: &str,
    budget: &mut Budget,
    (stats, duplicates): (&mut MorphStats, &mut usize),
    tracks: &mut Vec<MorphTrack>,
) -> Result<(), ImportError> {
    let Some(&(first, targets)) = meshes.first() else {
        stats.orphan_channels += 1;
        return Ok(());
    };
    if tracks.iter().any(|t| t.mesh == first) {
        *duplicates += 1;
        return Ok(());
    }
    let (sampler, mode) = sampler()?;
    let Some(track) = weight_track(file, sampler, mode, targets, what, budget, stats)? else {
        return Ok(());
    };
    for &(mesh, _) in meshes.iter().filter(|(_, count)| *count == targets) {
        tracks.push(MorphTrack {
            mesh,
            ..track.clone()
        });
    }
    Ok(())
}

/// One `weights` channel's sampler read as a track for `targets` targets (mesh id filled by
/// the caller), or `None` when its key times are not ascending and finite.
pub(crate) fn weight_track(
    file: &GltfFile,
    sampler: &json::animation::Sampler,
    mode: GltfInterpolation,
    targets: usize,
    what: &str,
    budget: &mut Budget,
    stats: &mut MorphStats,
) -> Result<Option<MorphTrack>, ImportError> {
    let times = super::animation::key_times(file, sampler, what, budget)?;
    if times.iter().any(|t| !t.is_finite()) || times.windows(2).any(|w| w[1] < w[0]) {
        stats.bad_times += 1;
        return Ok(None);
    }
    let label = format!("{what} output");
    let values: Vec<f32> = read_f32::<1>(file, sampler.output.value(), &label, budget)?
        .into_iter()
        .map(|[v]| if v.is_finite() { v } else { 0.0 })
        .collect();
    let per_key = if mode == GltfInterpolation::CubicSpline {
        3
    } else {
        1
    };
    if values.len() != times.len() * targets * per_key {
        return Err(ImportError::invalid(
            label,
            format!(
                "has {} values for {} key times of {targets} morph targets ({per_key} per target per key expected with {mode:?})",
                values.len(),
                times.len()
            ),
        ));
    }
    let mut track = MorphTrack {
        mesh: MeshId(0),
        interpolation: match mode {
            GltfInterpolation::Linear => Interpolation::Linear,
            GltfInterpolation::Step => Interpolation::Step,
            GltfInterpolation::CubicSpline => Interpolation::CubicSpline,
        },
        times,
        weights: values,
        tangents: Vec::new(),
    };
    if per_key == 3 {
        // Per key: every target's in-tangent, then every value, then every out-tangent.
        let keys = track.times.len();
        let mut weights = Vec::with_capacity(keys * targets);
        let mut tangents = Vec::with_capacity(keys * targets);
        for chunk in track.weights.chunks_exact(3 * targets.max(1)).take(keys) {
            let (ins, rest) = chunk.split_at(targets);
            let (values, outs) = rest.split_at(targets);
            weights.extend_from_slice(values);
            tangents.extend(ins.iter().zip(outs).map(|(&i, &o)| Tangents {
                in_tangent: i,
                out_tangent: o,
            }));
        }
        track.weights = weights;
        track.tangents = tangents;
    }
    Ok(Some(track))
}

/// Turns the counts into report notices.
pub(crate) fn report_stats(stats: &MorphStats, report: &mut Report) {
    if stats.tangents > 0 {
        report.loss(
            codes::TANGENTS,
            format!(
                "{} morph targets have TANGENT offsets, which are not carried (the model holds no tangents)",
                stats.tangents
            ),
        );
    }
    if stats.orphan_channels > 0 {
        report.loss(
            codes::MORPH_TARGETS,
            format!(
                "{} weights channels drive nodes that show no mesh with morph targets; not carried",
                stats.orphan_channels
            ),
        );
    }
    if stats.bad_times > 0 {
        report.loss(
            codes::MORPH_TARGETS,
            format!(
                "{} weights channels have key times that are not ascending and finite; not carried",
                stats.bad_times
            ),
        );
    }
}
