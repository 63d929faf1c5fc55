//! Whole-model helpers: posed copies of every mesh at (animation, time).

use crate::normalize::normalize_animation;
use crate::pose::Pose;
use crate::skeleton::HierarchyError;
use rigport_model_core::{Animation, Mesh, MeshId, Model, Report};

/// Why a model cannot be posed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PoseError {
    /// The animation index is past the end of [`Model::animations`].
    #[error("animation {index} does not exist: the model has {count} animation(s)")]
    NoSuchAnimation {
        /// The index asked for.
        index: usize,
        /// Number of animations.
        count: usize,
    },
    /// The skeleton's hierarchy is broken.
    #[error(transparent)]
    Hierarchy(#[from] HierarchyError),
}

/// The pose of `model`'s skeleton in animation `animation` at `time` seconds, with what
/// had to be fixed in the animation's keys (see [`normalize_animation`]).
pub fn sample_model(
    model: &Model,
    animation: usize,
    time: f32,
) -> Result<(Pose, Report), PoseError> {
    let source = model
        .animations
        .get(animation)
        .ok_or(PoseError::NoSuchAnimation {
            index: animation,
            count: model.animations.len(),
        })?;
    let mut pose = Pose::new(&model.skeleton)?;
    let mut clean = source.clone();
    let report = normalize_animation(&mut clean, pose.joint_count());
    pose.sample(&clean, time);
    Ok((pose, report))
}

/// Every mesh of `model` moved by its morph targets' weights, then skinned, in animation
/// `animation` at `time` seconds (wrapped if it loops), in mesh order. The report lists the animation fixes and vertices weighted to
/// joints that do not exist (those influences are ignored).
pub fn posed_meshes(
    model: &Model,
    animation: usize,
    time: f32,
) -> Result<(Vec<Mesh>, Report), PoseError> {
    let (pose, report) = sample_for_skinning(model, animation, time)?;
    let source = model.animations.get(animation);
    let meshes = model
        .meshes
        .iter()
        .enumerate()
        .map(|(i, mesh)| match morphed(source, i, mesh, time) {
            Some(mut moved) => {
                crate::skin::skin_vertices(pose.skinning_matrices(), &mut moved.vertices);
                moved
            }
            None => pose.skin_mesh(mesh),
        })
        .collect();
    Ok((meshes, report))
}

/// A copy of `model` posed at animation `animation`, `time` seconds: meshes morphed by the
/// weights at that time (the copy keeps no morph targets or weight tracks) and skinned to the
/// pose, and the skeleton re-bound so its bind transforms are the sampled pose (skinning
/// the copy at its own bind pose leaves the posed meshes where they are).
///
/// The animations are kept and still mean the same: they are absolute local transforms,
/// and a channel without keys falls back to the new bind value, which equals the old one
/// (nothing sampled it). Posing the copy again at another time matches posing the original
/// for vertices on one joint; vertices blended between joints drift slightly, because
/// linear blend skinning does not compose.
pub fn pose_model(
    model: &Model,
    animation: usize,
    time: f32,
) -> Result<(Model, Report), PoseError> {
    let (pose, report) = sample_for_skinning(model, animation, time)?;
    let mut posed = model.clone();
    let source = model.animations.get(animation);
    for (i, mesh) in posed.meshes.iter_mut().enumerate() {
        if let Some(moved) = morphed(source, i, mesh, time) {
            *mesh = moved;
        }
        // The weights are in the vertices now: the copy keeps no targets to apply again.
        mesh.morph_targets.clear();
        crate::skin::skin_vertices(pose.skinning_matrices(), &mut mesh.vertices);
    }
    for animation in &mut posed.animations {
        animation.morph_tracks.clear();
    }
    for (joint, local) in posed
        .skeleton
        .joints
        .iter_mut()
        .zip(pose.local_transforms())
    {
        joint.translation = local.translation;
        joint.rotation = local.rotation;
        joint.scale = local.scale;
    }
    Ok((posed, report))
}

/// Mesh `index` moved by its morph targets' weights in `animation` at `time`, or `None`
/// when none moves it.
fn morphed(animation: Option<&Animation>, index: usize, mesh: &Mesh, time: f32) -> Option<Mesh> {
    if mesh.morph_targets.is_empty() {
        return None;
    }
    let weights = crate::morph::mesh_weights(animation, MeshId(index as u32), mesh, time);
    crate::morph::morph_mesh(mesh, &weights)
}

/// [`sample_model`], plus a warning about weighted slots naming joints past the end of the
/// skeleton (skinning ignores them).
fn sample_for_skinning(
    model: &Model,
    animation: usize,
    time: f32,
) -> Result<(Pose, Report), PoseError> {
    let (pose, mut report) = sample_model(model, animation, time)?;
    let joint_count = pose.joint_count();
    let bad = model
        .meshes
        .iter()
        .flat_map(|m| &m.vertices)
        .filter(|v| v.influences().any(|(j, _)| j.index() >= joint_count))
        .count();
    if bad > 0 {
        report.warn(
            rigport_model_core::codes::SKIN_JOINT_MISSING,
            format!(
                "{bad} vertex(es) are weighted to joints past the last of {joint_count}; those weights were ignored"
            ),
        );
    }
    Ok((pose, report))
}
