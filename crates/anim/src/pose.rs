//! A skeleton posed at a time: local, world and skinning matrices, reused between samples.

use crate::sample::{Transform, period, sample_animation_track_in};
use crate::skeleton::{
    HierarchyError, inverse_bind_matrices, parent_first_order, world_matrices_into,
};
use crate::skin::skin_vertices;
use glam::Mat4;
use rigport_model_core::{Animation, JointId, Mesh, Skeleton};

/// The pose of one skeleton. Built once (the hierarchy order and inverse bind matrices are
/// computed then); each [`Pose::sample`] only overwrites its buffers, so posing many times
/// allocates nothing.
///
/// After [`Pose::new`] and [`Pose::set_bind`] the pose is the bind pose and every skinning
/// matrix is (to rounding) the identity.
#[derive(Clone, Debug)]
pub struct Pose {
    parents: Vec<Option<JointId>>,
    order: Vec<JointId>,
    bind: Vec<Transform>,
    inverse_bind: Vec<Mat4>,
    local: Vec<Transform>,
    local_matrices: Vec<Mat4>,
    world: Vec<Mat4>,
    skinning: Vec<Mat4>,
}

impl Pose {
    /// The bind pose of `skeleton`; fails on a cycle or a missing parent.
    pub fn new(skeleton: &Skeleton) -> Result<Self, HierarchyError> {
        let count = skeleton.joints.len();
        let mut pose = Self {
            parents: skeleton.joints.iter().map(|j| j.parent).collect(),
            order: parent_first_order(skeleton)?,
            bind: skeleton.joints.iter().map(Transform::of_joint).collect(),
            inverse_bind: inverse_bind_matrices(skeleton)?,
            local: Vec::with_capacity(count),
            local_matrices: vec![Mat4::IDENTITY; count],
            world: vec![Mat4::IDENTITY; count],
            skinning: vec![Mat4::IDENTITY; count],
        };
        pose.set_bind();
        Ok(pose)
    }

    /// Number of joints.
    pub fn joint_count(&self) -> usize {
        self.bind.len()
    }

    /// Back to the bind pose.
    pub fn set_bind(&mut self) {
        self.local.clear();
        self.local.extend_from_slice(&self.bind);
        self.update();
    }

    /// The pose of `animation` at `time` seconds (wrapped if the animation loops).
    ///
    /// Joints without a track, and channels without keys, keep their bind value. Tracks
    /// for joints that do not exist are ignored; when a joint has several tracks the first
    /// wins, as in [`Animation::track`]. A looping animation blends from its last keys back
    /// to its first by the end of its period (see
    /// [`sample_animation_track`](crate::sample::sample_animation_track)). Keys must be
    /// sorted — run [`crate::normalize_animation`] once beforehand.
    pub fn sample(&mut self, animation: &Animation, time: f32) {
        self.local.clear();
        self.local.extend_from_slice(&self.bind);
        let period = period(animation);
        // Backwards, so that of several tracks of one joint the first is written last.
        for track in animation.tracks.iter().rev() {
            let joint = track.joint.index();
            if let (Some(local), Some(bind)) = (self.local.get_mut(joint), self.bind.get(joint)) {
                *local = sample_animation_track_in(animation, period, track, time, bind);
            }
        }
        self.update();
    }

    /// Sets the local transforms directly (e.g. from another source) and updates the
    /// matrices; extra transforms are ignored, missing ones stay at the bind pose.
    pub fn set_local(&mut self, transforms: &[Transform]) {
        self.local.clear();
        self.local.extend_from_slice(&self.bind);
        for (local, given) in self.local.iter_mut().zip(transforms) {
            *local = *given;
        }
        self.update();
    }

    /// Recomputes local, world and skinning matrices from the local transforms.
    fn update(&mut self) {
        for (matrix, local) in self.local_matrices.iter_mut().zip(&self.local) {
            *matrix = local.to_mat4();
        }
        world_matrices_into(
            &self.parents,
            &self.order,
            &self.local_matrices,
            &mut self.world,
        );
        for ((skin, world), inverse_bind) in self
            .skinning
            .iter_mut()
            .zip(&self.world)
            .zip(&self.inverse_bind)
        {
            *skin = *world * *inverse_bind;
        }
    }

    /// Local transforms (relative to the parent), indexed by [`JointId`].
    pub fn local_transforms(&self) -> &[Transform] {
        &self.local
    }

    /// Local matrices `T·R·S`, indexed by [`JointId`].
    pub fn local_matrices(&self) -> &[Mat4] {
        &self.local_matrices
    }

    /// World matrices `G(t)`, indexed by [`JointId`].
    pub fn world_matrices(&self) -> &[Mat4] {
        &self.world
    }

    /// Inverse world bind matrices `Gb⁻¹`, indexed by [`JointId`].
    pub fn inverse_bind_matrices(&self) -> &[Mat4] {
        &self.inverse_bind
    }

    /// Skinning matrices `G(t)·Gb⁻¹`, indexed by [`JointId`]: they take a bind-space vertex
    /// to its posed place.
    pub fn skinning_matrices(&self) -> &[Mat4] {
        &self.skinning
    }

    /// A copy of `mesh` with positions and normals skinned to this pose.
    pub fn skin_mesh(&self, mesh: &Mesh) -> Mesh {
        let mut posed = mesh.clone();
        skin_vertices(&self.skinning, &mut posed.vertices);
        posed
    }
}
