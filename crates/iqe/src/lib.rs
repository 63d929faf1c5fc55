//! Read and write Inter-Quake Export (`.iqe`) files, generate their normals by the format's
//! smoothing rules, and convert them to and from the rigport neutral model.
//!
//! Two layers, as in every rigport format crate:
//!
//! * [`File`] is the file as stored: the header, every command in file order (unknown
//!   ones included, with a warning), `vertexarray` declarations and the `comment` section
//!   verbatim. [`File::commands`] views them as [`CommandRef`]s; [`File::push`] appends an
//!   owned [`Command`]. Numbers are held as compactly as the text held them (see the
//!   README), so a file in memory takes less than its text. Names are raw bytes (UTF-8,
//!   Latin-1, anything). [`File::write`] prints the commands in a canonical layout; reading
//!   that back gives the same commands, and writing again gives the same bytes.
//!   [`File::scene`] interprets the commands into a [`Scene`] (borrowing the file): vertex
//!   arrays with the specification's defaults, meshes with polygons fanned into
//!   triangles (`fa` from the file's first vertex, `fm` from the mesh's, negative indices
//!   back from the last vertex defined; with no face command anywhere, every 3 vertices of a
//!   mesh are a triangle), the skeleton with its base pose and the animations' frames.
//! * [`to_model`] and [`from_model`] convert to and from
//!   [`rigport_model_core::Model`], with a [`Report`] naming
//!   everything the target cannot hold. Files without `vn` get normals from
//!   [`corner_normals`] (area-weighted; `smoothgroup`, `smoothangle`, `smoothuv`, `fs`, `vs`).
//!
//! Errors carry a byte span; [`Error::render`](rigport_model_core::Error::render) shows it
//! as `line:column` with the line.
//!
//! With the `parallel` feature (on by default) a file of a megabyte or more is read on
//! every core of rayon's thread pool, cut at line boundaries (into chunks of at most 8 MiB
//! when it is larger, even in a pool of one thread); the file, the report and any error are
//! the same as when it is read on one thread. Without the feature every file is read on the
//! calling thread.
//!
//! ```
//! use rigport_iqe::{ConvertOptions, File, to_model};
//!
//! let src = b"# Inter-Quake Export\nmesh \"quad\"\nvp 0 0 0\nvp 0 1 0\nvp 1 1 0\nvp 1 0 0\nfm 0 1 2 3\n";
//! let file = File::from_slice(src).unwrap();
//! let summary = file.summary();
//! assert_eq!((summary.vertices, summary.triangles), (4, 2)); // the quad is fanned
//!
//! // No vn: normals come from the smoothing rules. IQE fronts wind clockwise, so this
//! // quad faces +Z, and the model (glTF convention) winds it counter-clockwise.
//! let (model, _report) = to_model(&file, &ConvertOptions::default()).unwrap();
//! assert!(model.meshes[0].vertices.iter().all(|v| v.normal.z == 1.0));
//!
//! // Writing is canonical and idempotent.
//! let text = file.to_vec();
//! assert_eq!(File::from_slice(&text).unwrap(), file);
//!
//! // Errors point at the line.
//! let bad = b"# Inter-Quake Export\nvp 0 zero 0\n";
//! let error = File::from_slice(bad).unwrap_err();
//! assert!(error.render(bad).contains("--> 2:6"));
//! ```
#![forbid(unsafe_code)]
mod codec;
mod command;
mod convert;
mod error;
mod fast;
mod file;
mod interpreted;
mod lexer;
mod lines;
mod normals;
mod notes;
mod packed;
#[cfg(feature = "parallel")]
mod parallel;
mod pose;
mod read;
mod scene;
mod store;
mod summary;
#[cfg(test)]
mod test_lines;
mod write;

pub use codec::{CODEC, Iqe};
pub use command::{Attribute, Command, FaceBase, PoseKind, VertexArrayDecl};
pub use convert::{ConvertOptions, DEFAULT_FPS, from_model, to_model};
pub use error::{Detail, Error};
pub use file::{File, sniff};
pub use normals::{CornerNormals, corner_normals};
pub use pose::{PoseFacts, Transform, pose_transform};
pub use rigport_model_core::{FileSummary, ReadOptions, Report};
pub use scene::{Scene, SceneAnimation, SceneJoint, SceneMesh, SmoothingState, Tangent, Triangle};
pub use store::CommandRef;
