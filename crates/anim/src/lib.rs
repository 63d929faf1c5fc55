//! Skeleton math on the rigport neutral model, with glam: it turns a model-core skeleton and
//! animation into posed, skinned meshes.
//!
//! * [`euler`]: MilkShape/IQE Euler angles ↔ quaternions (`q = qz·qy·qx`).
//! * [`milkshape`]: the MilkShape semantics both MilkShape crates share — bind transforms,
//!   keys relative to the bind pose (one conversion path with the timeline filter), parents
//!   found by name, the defaults (`DEFAULT_FPS`, `DEFAULT_FRAMES`, the animation name) and
//!   the 0–100 vertex weight encoding.
//! * [`skeleton`]: local and world bind matrices; parents may come after their children; a
//!   cycle or a missing parent is an error naming the joint, or, with
//!   [`skeleton::break_cycles`], a root.
//! * [`sample`]: a channel at a time — linear (shortest-path slerp for rotations), step or
//!   cubic (Catmull-Rom, [`sample::catmull_rom_tangent`]); end keys held; looping animations
//!   wrap, blending from the last key back to the first by the end of the period.
//! * [`concat`](mod@concat): several animations laid end to end on one timeline (for MilkShape), each
//!   starting on the whole frame after the previous one, with its frame range.
//! * [`resample::bake`]: any animation as linear keys (cubic curves sampled at a frame rate).
//! * [`normalize_animation`]: sorts and cleans keys once, with a [`Report`](rigport_model_core::Report) of what changed.
//!
//! **Several tracks for one joint:** the first wins — in [`Animation::track`](rigport_model_core::Animation::track),
//! [`normalize_animation`], [`Pose::sample`] and every rigport writer (which report the
//! others as a loss, code `track-joint-duplicate`).
//! * [`Pose`]: local → world → skinning matrices `G(t)·Gb⁻¹`, reused between samples.
//! * [`skin`]: linear blend skinning of positions and normals, up to four weights.
//! * [`morph`]: morph-target weights at a time; meshes moved by them before skinning.
//! * [`pose_model`] / [`posed_meshes`]: the whole model at (animation, time), morphed then
//!   skinned.
//! * [`weights::keep_largest_four`]: more than four influences cut to the four largest,
//!   renormalized.
//!
//! Sampling a two-key animation half way and skinning a vertex with it:
//!
//! ```
//! use rigport_anim::{Pose, normalize_animation, skin::skin_vertex};
//! use rigport_model_core::{Animation, Joint, JointId, Key, Skeleton, Track, Vertex};
//! use glam::{Quat, Vec3};
//! use std::f32::consts::FRAC_PI_2;
//!
//! // One joint at the origin; an animation turning it 90° about Z over 2 seconds.
//! let skeleton = Skeleton { joints: vec![Joint::new("root")] };
//! let mut animation = Animation::new("turn", 30.0);
//! let mut track = Track::new(JointId(0));
//! track.rotations = vec![
//!     Key::new(2.0, Quat::from_rotation_z(FRAC_PI_2)), // out of order on purpose
//!     Key::new(0.0, Quat::IDENTITY),
//! ];
//! animation.tracks.push(track);
//! let report = normalize_animation(&mut animation, skeleton.joints.len());
//! assert_eq!(report.with_code("keys-unsorted").count(), 1);
//!
//! let mut pose = Pose::new(&skeleton).unwrap();
//! pose.sample(&animation, 1.0); // half way: 45° about Z
//! let vertex = Vertex {
//!     position: Vec3::X,
//!     normal: Vec3::X,
//!     weights: [1.0, 0.0, 0.0, 0.0],
//!     ..Vertex::default()
//! };
//! let (position, normal) = skin_vertex(pose.skinning_matrices(), &vertex);
//! let h = 0.5_f32.sqrt();
//! assert!((position - Vec3::new(h, h, 0.0)).length() < 1e-6);
//! assert!((normal - Vec3::new(h, h, 0.0)).length() < 1e-6);
//! ```
#![forbid(unsafe_code)]

pub mod concat;
pub mod euler;
pub mod milkshape;
pub mod morph;
mod normalize;
mod pose;
mod posed;
pub mod request;
pub mod resample;
pub mod sample;
pub mod skeleton;
pub mod skin;
pub mod weights;

pub use normalize::normalize_animation;
pub use pose::Pose;
pub use posed::{PoseError, pose_model, posed_meshes, sample_model};
pub use sample::Transform;

pub use glam;
