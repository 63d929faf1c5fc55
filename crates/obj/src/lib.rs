//! Wavefront OBJ (+ MTL) export of a rigport model's meshes — in the bind pose with
//! [`write_obj`], or posed first (animation and time, via [`rigport_anim::pose_model`]) with
//! [`write_posed`]. OBJ has no skeleton, weights, animations or vertex colours: each is
//! reported as a loss in [`ObjExport::report`].
//!
//! Layout of the `.obj`: a `#` header (and the model comment as `#` lines), `mtllib` when
//! materials are written; per mesh `o name`, its `v`, then `vt` (only with UVs) and `vn` (only
//! if a normal is non-zero), `usemtl`, then `f` with global 1-based indices. Triangles keep
//! model-core's counter-clockwise front face, which is OBJ's too; `vt` is `u (1 − v)`
//! because OBJ's UV origin is the bottom-left. Names are made whitespace-free and unique;
//! numbers use Rust's shortest round-trip form; a NaN or infinite value is written as 0 and
//! reported. The emissive colour is kept as `Ke`, the alpha map as `map_d`.
//!
//! ```
//! use rigport_model_core::{Mesh, Model, Vertex, glam::Vec3};
//! use rigport_obj::{PoseRequest, write_posed};
//!
//! let mut mesh = Mesh::new("tri");
//! for position in [Vec3::ZERO, Vec3::X, Vec3::Y] {
//!     mesh.vertices.push(Vertex { position, normal: Vec3::Z, ..Vertex::default() });
//! }
//! mesh.triangles.push([0, 1, 2]);
//! let mut model = Model::default();
//! model.meshes.push(mesh);
//!
//! let export = write_posed(&model, &PoseRequest::default(), Some("tri.mtl")).unwrap();
//! assert!(export.obj.contains("\nf 1//1 2//2 3//3\n"));
//! assert!(export.mtl.is_empty()); // no materials, so no .mtl file to write
//!
//! // Asking for a pose the model does not have is an error, not a silent bind pose.
//! let walk = PoseRequest { anim: Some("walk".into()), ..PoseRequest::default() };
//! assert!(write_posed(&model, &walk, None).is_err());
//! ```
#![forbid(unsafe_code)]

pub mod codec;
mod error;
mod pose;
mod write;

pub use codec::CODEC;
pub use error::Error;
pub use pose::write_posed;
pub use rigport_anim::request::{PoseRequest, resolve};
pub use write::{ObjExport, write_obj};
