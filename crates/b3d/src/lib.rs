//! Read and write Blitz3D B3D (`.b3d`) models chunk for chunk and byte for byte, and
//! convert them to and from the rigport neutral [`Model`](rigport_model_core::Model).
//!
//! Two layers, as in every rigport format crate:
//!
//! * **Faithful** — [`File`] mirrors the chunk tree: `TEXS`, `BRUS`, `NODE` with its
//!   `MESH` (`VRTS`, every `TRIS` in order), `BONE`, `KEYS`, `ANIM` and child nodes, in file
//!   order, with chunks it does not know (`SEQS`, `PIVO`, anything) kept whole as
//!   [`RawChunk`]s and the bytes after a chunk's last whole record kept too, so
//!   [`File::to_vec`] returns the input.
//! * **Neutral** — [`to_model`] and [`from_model`]. B3D is left-handed with Y up and stores
//!   the *conjugate* of each rotation as `w, x, y, z`; the model is right-handed with Y up
//!   (as glTF), so the conversion mirrors Z: position `(x, y, z)` → `(x, y, −z)`, stored
//!   rotation → quaternion `(x, y, −z, w)`, winding reversed, UVs unchanged (what assimp
//!   and Luanti's glTF loader do). See the crate README for the frame numbering, the
//!   skeletons of multi-mesh files and the `TRIS` chunks.
//!
//! Reading never panics and never allocates more than the input justifies: every chunk
//! length is checked against its parent's end and every record count against the bytes left
//! and the [`Limits`](rigport_model_core::Limits) budget first; an error names its byte
//! offset ([`Error::offset`]).
//!
//! ```
//! use rigport_b3d::{from_model, sniff, to_model, ConvertOptions, File};
//! use rigport_model_core::glam::{Vec2, Vec3};
//! use rigport_model_core::{Mesh, Model, Vertex};
//!
//! let mut mesh = Mesh::new("tri");
//! for (position, uv) in [(Vec3::ZERO, Vec2::ZERO), (Vec3::X, Vec2::X), (Vec3::Y, Vec2::Y)] {
//!     mesh.vertices.push(Vertex { position, normal: Vec3::Z, uv, ..Vertex::default() });
//! }
//! mesh.triangles.push([0, 1, 2]);
//! mesh.has_uvs = true;
//! let mut model = Model::default();
//! model.meshes.push(mesh);
//!
//! let (file, _report) = from_model(&model, &ConvertOptions::default())?;
//! let bytes = file.to_vec();
//! assert!(sniff(&bytes));
//!
//! let read = File::from_slice(&bytes)?;
//! assert_eq!(read.to_vec(), bytes); // byte for byte
//! assert_eq!(read.summary().triangles, 1);
//!
//! let (back, _report) = to_model(&read, &ConvertOptions::default())?;
//! assert_eq!(back.meshes[0].triangles, vec![[0, 1, 2]]);
//! assert_eq!(back.meshes[0].vertices[1].position, Vec3::X);
//! # Ok::<(), rigport_b3d::Error>(())
//! ```
#![forbid(unsafe_code)]

mod codec;
mod convert;
mod error;
mod file;
mod read;
mod summary;
mod write;

pub use codec::{B3d, CODEC, INFO};
pub use convert::{ConvertOptions, DEFAULT_FPS, from_model, to_model};
pub use error::{Detail, Error};
pub use file::{
    Anim, Bone, Brus, Brush, File, Key, Keys, Mesh, MeshChunk, Node, NodeChunk, RawChunk, Tag,
    Texs, Texture, TopChunk, Tris, Vrts,
};
pub use rigport_model_core::{FileSummary, ReadOptions, Report};

/// The first four bytes of every B3D file.
pub const MAGIC: &[u8; 4] = b"BB3D";

/// How deep chunks may nest (a `NODE` chain of this many levels is far beyond any real
/// skeleton); deeper input is refused rather than read with unbounded recursion.
pub const MAX_DEPTH: usize = 256;

/// Whether the bytes start like a binary B3D file (`BB3D`). OpenBVE's unrelated text
/// format shares the extension, so the content decides, never the name.
pub fn sniff(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

rigport_model_core::faithful_readers!(binary);

impl File {
    /// Reads a file with options; the report holds the warnings of a lenient read (bytes
    /// after the `BB3D` chunk or after a chunk's last whole record, which are kept). With
    /// [`ReadOptions::strict`] each warning is an [`Error::Strict`].
    pub fn from_slice_with(bytes: &[u8], options: &ReadOptions) -> Result<(File, Report), Error> {
        read::parse(bytes, options)
    }

    /// The file's bytes, every chunk length recomputed from its contents (equal to the
    /// stored lengths for every file read).
    pub fn to_vec(&self) -> Vec<u8> {
        write::to_bytes(self)
    }

    /// Counts and details for `rigport info`: meshes are `MESH` chunks, vertices and
    /// triangles are summed over every `VRTS` and `TRIS`, joints are nodes with a `BONE`
    /// chunk, materials are brushes.
    pub fn summary(&self) -> FileSummary {
        summary::summarize(self)
    }
}
