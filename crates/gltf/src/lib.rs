//! glTF 2.0 for rigport: [`import`] reads `.glb` and `.gltf` into a
//! [`rigport_model_core::Model`] (see its docs for an example); [`export`] writes a [`rigport_model_core::Model`] as one `.glb`
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

pub mod codec;
mod error;
pub mod export;
pub mod import;

pub use error::Error;

/// Key of the model comment in the glTF's `asset.extras`, where the writer keeps it and the
/// reader finds it.
pub const COMMENT_EXTRA: &str = "comment";

/// Name of the node the writer adds to gather several root joints under one ancestor.
pub const ARMATURE_NAME: &str = "rigport_armature";

/// Name of the joint the writer adds for the vertices of a skinned mesh bound to no joint.
/// The reader reads such a joint (a leaf at the top of the skeleton, at rest where its
/// parent is) as no joint: the vertices on it alone come back unbound.
pub const UNBOUND_JOINT_NAME: &str = "rigport_unbound";

/// Whether `bytes` look like glTF: a `.glb` container (magic `glTF`, version 2) or JSON text
/// whose top object has an `"asset"` member (checked cheaply: the text starts with `{`
/// after white space or a byte order mark and holds the key `"asset"` followed by `:`).
///
/// ```
/// assert!(rigport_gltf::sniff(b"glTF\x02\0\0\0\x0c\0\0\0"));
/// assert!(rigport_gltf::sniff(br#" {"asset": {"version": "2.0"}}"#));
/// assert!(!rigport_gltf::sniff(b"# Inter-Quake Export"));
/// ```
pub fn sniff(bytes: &[u8]) -> bool {
    if bytes.len() >= 8 && &bytes[..4] == b"glTF" {
        return bytes[4..8] == 2u32.to_le_bytes();
    }
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let Some(start) = text.iter().position(|b| !b.is_ascii_whitespace()) else {
        return false;
    };
    if text[start] != b'{' {
        return false;
    }
    let key = b"\"asset\"";
    text.windows(key.len()).enumerate().any(|(i, w)| {
        w == key
            && text[i + key.len()..]
                .iter()
                .find(|b| !b.is_ascii_whitespace())
                .is_some_and(|&b| b == b':')
    })
}
