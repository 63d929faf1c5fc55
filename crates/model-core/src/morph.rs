//! Morph targets: named per-vertex offsets a mesh blends in by weight, and the animated
//! weights that drive them (glTF 2.0 §3.7.2.2: `p = base + Σ wᵢ·Δᵢ`, before skinning).
//!
//! A target is dense (one offset per vertex) or sparse (offsets for the listed vertices
//! only), as its source stored it, so a face rig with many small targets never holds a copy
//! of the whole mesh per target. A mesh without targets holds two empty `Vec`s.

use crate::{Interpolation, MeshId, Model, Report, Tangents, codes};
use glam::Vec3;

/// One morph target of a [`Mesh`](crate::Mesh).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MorphTarget {
    /// Name as shown to a person (glTF `extras.targetNames`, an FBX blend-shape channel,
    /// a PSKX morph); may be empty.
    pub name: String,
    /// The vertices the offsets belong to, strictly ascending, or `None` when there is one
    /// offset per vertex of the mesh, in vertex order.
    pub indices: Option<Vec<u32>>,
    /// Position offsets, in the mesh's bind space.
    pub positions: Vec<Vec3>,
    /// Normal offsets, parallel to [`MorphTarget::positions`], or empty when the source has
    /// none.
    pub normals: Vec<Vec3>,
    /// The weight the mesh shows when no animation drives it.
    pub default_weight: f32,
}

impl MorphTarget {
    /// A dense target: one position offset per vertex.
    pub fn dense(name: impl Into<String>, positions: Vec<Vec3>) -> Self {
        Self {
            name: name.into(),
            positions,
            ..Self::default()
        }
    }

    /// The vertex index of offset `k`.
    #[inline]
    pub fn vertex_of(&self, k: usize) -> usize {
        match &self.indices {
            Some(indices) => indices[k] as usize,
            None => k,
        }
    }

    /// `(vertex, position offset, normal offset)` of every stored offset; the normal offset
    /// is zero when the target has none. Offsets naming a vertex past `vertex_count` are
    /// skipped.
    pub fn offsets(&self, vertex_count: usize) -> impl Iterator<Item = (usize, Vec3, Vec3)> + '_ {
        self.positions
            .iter()
            .enumerate()
            .map(|(k, &p)| {
                let vertex = match &self.indices {
                    Some(indices) => indices.get(k).map_or(usize::MAX, |&i| i as usize),
                    None => k,
                };
                (
                    vertex,
                    p,
                    self.normals.get(k).copied().unwrap_or(Vec3::ZERO),
                )
            })
            .filter(move |(v, ..)| *v < vertex_count)
    }

    /// Number of offsets stored.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether the target stores no offset.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }
}

/// The animated weights of one mesh's morph targets, keyed in seconds.
///
/// Key `k` holds one weight per target of the mesh at
/// `weights[k * targets .. (k + 1) * targets]`, in target order (glTF's layout).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MorphTrack {
    /// The mesh whose targets the weights drive.
    pub mesh: MeshId,
    /// How to sample between keys: [`Interpolation::Linear`], [`Interpolation::Step`] or
    /// [`Interpolation::CubicSpline`] (with [`MorphTrack::tangents`]); `Cubic` is sampled
    /// as linear.
    pub interpolation: Interpolation,
    /// Key times in seconds, ascending.
    pub times: Vec<f32>,
    /// Weights, key by key: `times.len() × targets`.
    pub weights: Vec<f32>,
    /// Cubic-spline tangents, parallel to [`MorphTrack::weights`], or empty.
    pub tangents: Vec<Tangents<f32>>,
}

impl MorphTrack {
    /// Number of targets the track drives (weights per key); 0 for a track without keys.
    pub fn targets(&self) -> usize {
        self.weights
            .len()
            .checked_div(self.times.len())
            .unwrap_or(0)
    }

    /// Time of the last key, or 0 when there is none.
    pub fn end_time(&self) -> f32 {
        self.times.iter().copied().fold(0.0, f32::max)
    }
}

/// Adds `Σ weights[t]·Δ[t]` of `targets` to `positions` and `normals` (parallel to the
/// mesh's vertices; `normals` may be empty). Targets with a zero weight cost nothing.
/// Returns whether anything moved. Normals are left unnormalized.
pub fn add_offsets(
    targets: &[MorphTarget],
    weights: &[f32],
    positions: &mut [Vec3],
    normals: &mut [Vec3],
) -> bool {
    let mut moved = false;
    for (target, &w) in targets.iter().zip(weights) {
        if w == 0.0 || !w.is_finite() {
            continue;
        }
        moved = true;
        for (v, dp, dn) in target.offsets(positions.len()) {
            positions[v] += dp * w;
            if let Some(n) = normals.get_mut(v) {
                *n += dn * w;
            }
        }
    }
    moved
}

/// For a target that holds no morph targets: bakes every mesh at its default weights
/// ([`Mesh::bake_default_weights`](crate::Mesh::bake_default_weights)), drops the weight
/// tracks, and reports one `morph-targets` loss that counts and names what was dropped.
/// `format` names the target in the message. Costs nothing for a model without targets.
pub fn drop_morphs(model: &mut Model, format: &str, report: &mut Report) {
    let tracks: usize = model.animations.iter().map(|a| a.morph_tracks.len()).sum();
    let targets = model.morph_target_count();
    if targets == 0 && tracks == 0 {
        return;
    }
    let meshes = model
        .meshes
        .iter()
        .filter(|m| !m.morph_targets.is_empty())
        .count();
    let mut names: Vec<String> = Vec::new();
    for target in model.meshes.iter().flat_map(|m| &m.morph_targets) {
        if !target.name.is_empty() && !names.contains(&target.name) {
            names.push(target.name.clone());
        }
    }
    let shown = names.len().min(8);
    let mut listed = names[..shown]
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > shown {
        listed.push_str(&format!(" and {} more", names.len() - shown));
    }
    let listed = if listed.is_empty() {
        String::new()
    } else {
        format!(" ({listed})")
    };
    let mut baked = 0;
    for mesh in &mut model.meshes {
        baked += usize::from(mesh.bake_default_weights());
    }
    for animation in &mut model.animations {
        animation.morph_tracks.clear();
    }
    let rest = if baked > 0 {
        format!("; {baked} mesh(es) are written at their default weights")
    } else {
        String::new()
    };
    report.loss(
        codes::MORPH_TARGETS,
        format!(
            "{targets} morph target(s) on {meshes} mesh(es){listed} and {tracks} weight track(s) are not carried: {format} holds no morph targets{rest}"
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sparse_and_dense_offsets_add_by_weight_and_zero_weights_move_nothing() {
        let dense = MorphTarget::dense("up", vec![Vec3::Y, Vec3::Y]);
        let sparse = MorphTarget {
            name: "one".into(),
            indices: Some(vec![1]),
            positions: vec![Vec3::X],
            normals: vec![Vec3::Z],
            default_weight: 0.0,
        };
        let targets = [dense, sparse];
        let mut positions = [Vec3::ZERO; 2];
        let mut normals = [Vec3::ZERO; 2];
        assert!(!add_offsets(
            &targets,
            &[0.0, 0.0],
            &mut positions,
            &mut normals
        ));
        assert_eq!(positions, [Vec3::ZERO; 2]);
        assert!(add_offsets(
            &targets,
            &[0.5, 2.0],
            &mut positions,
            &mut normals
        ));
        assert_eq!(
            positions,
            [Vec3::new(0.0, 0.5, 0.0), Vec3::new(2.0, 0.5, 0.0)]
        );
        assert_eq!(normals, [Vec3::ZERO, Vec3::new(0.0, 0.0, 2.0)]);
    }

    #[test]
    fn offsets_past_the_mesh_are_skipped() {
        let target = MorphTarget {
            indices: Some(vec![0, 7]),
            positions: vec![Vec3::X, Vec3::X],
            ..MorphTarget::default()
        };
        assert_eq!(target.offsets(2).count(), 1);
        let track = MorphTrack {
            times: vec![0.0, 1.0],
            weights: vec![0.0; 6],
            ..MorphTrack::default()
        };
        assert_eq!(track.targets(), 3);
        assert_eq!(track.end_time(), 1.0);
    }

    #[test]
    fn dropping_morphs_bakes_default_weights_and_names_what_went() {
        use crate::{Animation, Mesh, Vertex};
        let mut model = Model::default();
        let mut mesh = Mesh::new("face");
        mesh.vertices = vec![Vertex::default(); 2];
        let mut smile = MorphTarget::dense("smile", vec![Vec3::X, Vec3::ZERO]);
        smile.default_weight = 0.25;
        mesh.morph_targets = vec![smile, MorphTarget::dense("blink", vec![Vec3::Y; 2])];
        model.meshes.push(mesh);
        let mut animation = Animation::new("talk", 30.0);
        animation.morph_tracks.push(MorphTrack::default());
        model.animations.push(animation);
        let mut report = Report::default();
        drop_morphs(&mut model, "IQM", &mut report);
        assert!(model.meshes[0].morph_targets.is_empty());
        assert!(model.animations[0].morph_tracks.is_empty());
        assert_eq!(
            model.meshes[0].vertices[0].position,
            Vec3::new(0.25, 0.0, 0.0)
        );
        let notice = report.with_code(codes::MORPH_TARGETS).next().unwrap();
        assert!(
            notice.message.contains(
                "2 morph target(s) on 1 mesh(es) (`smile`, `blink`) and 1 weight track(s)"
            ),
            "{}",
            notice.message
        );
        let mut again = Report::default();
        drop_morphs(&mut model, "IQM", &mut again);
        assert!(again.is_empty());
    }
}
