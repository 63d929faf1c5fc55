//! Read and write MilkShape 3D binary (`.ms3d`) files byte for byte, and convert them to and
//! from the rigport neutral [`Model`](rigport_model_core::Model).
//!
//! Two layers:
//!
//! * **Faithful** — [`File`] mirrors the file exactly: versions 3 and 4, vertices,
//!   triangles, groups, materials, keyframer data, joints with their keys, and each optional
//!   trailing block (comments, vertex extra subVersion 1/2/3, joint extra, model extra)
//!   present or absent as in the file. Names stay raw 32/128-byte arrays (bytes after the
//!   NUL included), unknown flag bits are kept, and a damaged tail is kept as raw bytes
//!   (with a warning; an error when [`ReadOptions::strict`] is set). For every file that
//!   reads, [`File::to_vec`] returns the input bytes.
//! * **Neutral** — [`to_model`] and [`from_model`] weld per-corner normals and texture
//!   coordinates into unified vertices and back, decode the 0–100 weights, turn Euler angles
//!   into quaternions and keys relative to the bind pose into absolute local tracks. The
//!   returned [`Report`] lists everything the target cannot hold.
//!
//! Reading never panics and never allocates more than the input can justify: every count is
//! checked against the bytes left and against [`Limits`](rigport_model_core::Limits) first;
//! errors name the byte offset and what was being read.
//!
//! ```
//! use rigport_ms3d_bin::{from_model, sniff, to_model, ConvertOptions, File};
//! use rigport_model_core::glam::{Vec2, Vec3};
//! use rigport_model_core::{Mesh, Model, Vertex};
//!
//! // A one-triangle model, written as MilkShape and read back.
//! let mut mesh = Mesh::new("tri");
//! for (position, uv) in [(Vec3::ZERO, Vec2::ZERO), (Vec3::X, Vec2::X), (Vec3::Y, Vec2::Y)] {
//!     mesh.vertices.push(Vertex { position, normal: Vec3::Z, uv, ..Vertex::default() });
//! }
//! mesh.triangles.push([0, 1, 2]);
//! let mut model = Model::default();
//! model.meshes.push(mesh);
//!
//! let (file, _losses) = from_model(&model, &ConvertOptions::default())?;
//! let bytes = file.to_vec();
//! assert!(sniff(&bytes));
//!
//! let read = File::from_slice(&bytes)?;
//! assert_eq!(read.to_vec(), bytes); // byte for byte
//! let summary = read.summary();
//! assert_eq!((summary.meshes, summary.vertices, summary.triangles), (1, 3, 1));
//!
//! let (back, _report) = to_model(&read, &ConvertOptions::default())?;
//! assert_eq!(back.meshes[0].triangles, vec![[0, 1, 2]]);
//! # Ok::<(), rigport_ms3d_bin::Error>(())
//! ```
#![forbid(unsafe_code)]

mod codec;
mod convert;
mod decode;
mod error;
mod file;
pub mod limits;
mod read;
mod records;
mod summary;
mod write;

pub use codec::{CODEC, Ms3dBinary};
pub use convert::{ConvertOptions, from_model, to_model};
pub use error::{Detail, Error};
pub use file::{Comment, Comments, File, Group, Joint, JointExtra, MAGIC, VertexExtra};
pub use records::{
    JointColor, Keyframe, Keyframer, Material, ModelExtra, Triangle, Vertex, VertexExtraRecord,
};
pub use rigport_model_core::{FileSummary, ReadOptions, Report};

/// Whether the bytes start like a MilkShape 3D binary file (`MS3D000000`).
pub fn sniff(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

rigport_model_core::faithful_readers!();

impl File {
    /// Reads a file with options; the report holds the warnings of a lenient read (a
    /// damaged tail is kept as raw bytes).
    pub fn from_slice_with(bytes: &[u8], options: &ReadOptions) -> Result<(File, Report), Error> {
        read::parse(bytes, options)
    }

    /// Writes the file. Fails only on an I/O error or when a list is longer than its
    /// count field can hold (e.g. more than 65535 vertices).
    pub fn write<W: std::io::Write>(&self, mut writer: W) -> std::io::Result<()> {
        let bytes = write::to_bytes(self).map_err(|(_, error)| error)?;
        writer.write_all(&bytes)
    }

    /// The file's bytes. A list longer than its count field cannot be written; for such a
    /// file (only possible when built by hand) this returns the bytes before that list, and
    /// [`File::write`] reports the error.
    pub fn to_vec(&self) -> Vec<u8> {
        write::to_bytes(self).unwrap_or_else(|(partial, _)| partial)
    }

    /// Counts and details for `rigport info`.
    pub fn summary(&self) -> FileSummary {
        summary::summarize(self)
    }
}
