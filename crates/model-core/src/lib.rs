//! The neutral model every rigport format crate converts to and from.
//!
//! A [`Model`] holds meshes of *unified* vertices (one index selects position, normal, uv,
//! colour and up to four joint weights together, as in glTF and IQE), materials, a skeleton
//! whose bind transforms are local to the parent, and animations whose key times are in
//! seconds. Ids are typed ([`JointId`], [`MaterialId`]) so a joint index can never be passed
//! where a material index is expected.
//!
//! Conversions never lose data silently: they return a [`Report`] that lists every warning
//! and every piece of information the target could not hold.
//!
//! ```
//! use rigport_model_core::{Model, Mesh, Vertex, Report, Severity};
//! use glam::Vec3;
//!
//! let mut model = Model::default();
//! let mut mesh = Mesh::new("triangle");
//! for p in [Vec3::ZERO, Vec3::X, Vec3::Y] {
//!     mesh.vertices.push(Vertex { position: p, normal: Vec3::Z, ..Vertex::default() });
//! }
//! mesh.triangles.push([0, 1, 2]);
//! model.meshes.push(mesh);
//! assert_eq!(model.triangle_count(), 1);
//!
//! let mut report = Report::default();
//! report.loss(rigport_model_core::codes::SMOOTHING, "3 smoothing groups cannot be carried");
//! assert_eq!(report.count(Severity::Loss), 1);
//! ```
#![forbid(unsafe_code)]

mod animation;
mod axes;
pub mod codec;
pub mod codes;
mod consumed;
pub mod diagnostic;
mod error;
mod ids;
mod limits;
mod material;
mod mesh;
mod model;
pub mod morph;
pub mod number;
pub mod pieces;
mod references;
mod report;
mod skeleton;
#[cfg(feature = "proptest")]
pub mod strategies;
mod summary;
pub mod text;
pub mod texture;
mod winding;

pub use animation::{Animation, Interpolation, Key, Tangents, Track};
pub use axes::UpAxis;
pub use consumed::Consumed;
pub use error::{At, Error};
pub use ids::{JointId, MaterialId, MeshId};
pub use limits::{Budget, LimitError, Limits, ReadOptions, TooMany};
pub use material::Material;
pub use mesh::{Mesh, Vertex};
pub use model::Model;
pub use morph::{MorphTarget, MorphTrack};
pub use references::ReferenceProblem;
pub use report::{Code, MAX_NOTICE_BYTES, Notice, Report, Severity};
pub use skeleton::{Joint, Skeleton};
pub use summary::FileSummary;
pub use winding::Winding;

/// Re-export of the math crate used in the public API, so dependants need not pin it.
pub use glam;
