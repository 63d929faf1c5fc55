//! glTF 2.0 for rigport: [`export`] writes a [`rigport_model_core::Model`] as one `.glb`
//! file or as `.gltf` JSON plus its `.bin` buffer, with meshes, materials, the skeleton as a
//! node tree with one skin, and every animation. What glTF cannot hold, and every value
//! repaired so the file passes the Khronos validator, is listed in the returned
//! [`Report`](rigport_model_core::Report); a model that cannot be written at all is an
//! [`Error`].
//!
//! ```
//! use rigport_gltf::export::{ExportOptions, to_glb, to_gltf};
//! use rigport_model_core::{Mesh, Model, Vertex, glam::Vec3};
//!
//! let mut mesh = Mesh::new("tri");
//! for position in [Vec3::ZERO, Vec3::X, Vec3::Y] {
//!     mesh.vertices.push(Vertex { position, normal: Vec3::Z, ..Vertex::default() });
//! }
//! mesh.triangles.push([0, 1, 2]);
//! let mut model = Model::default();
//! model.meshes.push(mesh);
//!
//! let (glb, report) = to_glb(&model, &ExportOptions::default()).unwrap();
//! assert_eq!(&glb[..4], b"glTF");
//! assert!(report.is_empty(), "{report}");
//!
//! let pretty = ExportOptions::default().with_pretty(true);
//! let (files, _) = to_gltf(&model, "tri.bin", &pretty).unwrap();
//! assert!(files.json.contains("\"uri\": \"tri.bin\""));
//! assert_eq!(files.bin.len() % 4, 0);
//! ```
#![forbid(unsafe_code)]

mod error;
pub mod export;

pub use error::Error;
