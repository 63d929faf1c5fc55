//! Read and write Inter-Quake Model (`.iqm`, version 2) files byte for byte, and convert
//! them to and from the rigport neutral [`Model`](rigport_model_core::Model).
//!
//! Two layers, as in every rigport format crate:
//!
//! * **Faithful** — [`File`] mirrors the file: the [`Header`] with every count and offset as
//!   stored, the text table, meshes, vertex arrays of every type (standard 0–6, reserved,
//!   custom with their names) and every format (byte … double, half) as raw data, triangles,
//!   adjacency, joints, poses (channel masks, offsets, scales), animations (loop flag),
//!   frames, bounds, the comment and the extension list. Blocks are placed by their
//!   offsets, and every byte no block covers (alignment padding, unknown data) is kept in
//!   [`File::gaps`], so [`File::to_vec`] returns the input for every version 2 file that
//!   reads. Version 1 files (rotations without `w`) are read into version 2 records and
//!   write back as version 2, with a note in the report.
//! * **Neutral** — [`to_model`] and [`from_model`] (the SDK compiler's semantics: welded
//!   vertices, ubyte weights summing to 255, per-pose quantization, bounds, adjacency,
//!   tangents, a deduplicated text table). Meshes that share a name and material are kept
//!   apart, not merged. The returned [`Report`] lists everything the target cannot hold.
//!
//! Reading never panics and never allocates more than the input can justify: every block
//! is checked against the file's size and the [`Limits`](rigport_model_core::Limits)
//! budget first; an error names the header field, its value and its byte offset. A
//! `filesize` that disagrees with the real size is a warning (an error with
//! [`ReadOptions::strict`]).
//!
//! ```
//! use rigport_iqm::{from_model, sniff, to_model, ConvertOptions, File};
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
//! # Ok::<(), rigport_iqm::Error>(())
//! ```
#![forbid(unsafe_code)]

mod codec;
mod convert;
mod error;
mod file;
mod reader;
mod records;
mod summary;
mod upgrade;
mod writer;

pub use codec::{CODEC, Iqm};
pub use convert::{ConvertOptions, DEFAULT_FPS, from_model, from_model_owned, to_model};
pub use error::{Detail, Error};
pub use file::{ArrayKind, Extension, File, Format, Gap, VertexArray, half_to_f32};
pub use records::{Anim, Bounds, HEADER_SIZE, Header, Joint, LOOP, MAGIC, Mesh, Pose};
pub use rigport_model_core::{FileSummary, ReadOptions, Report};

/// Whether the bytes start like an IQM file (`INTERQUAKEMODEL\0`).
pub fn sniff(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

rigport_model_core::faithful_readers!(binary);

/// A model or file IQM cannot hold.
pub(crate) fn unwritable(message: String) -> Error {
    Error::Unwritable {
        format: "IQM",
        message,
    }
}

impl File {
    /// Reads a file with options; the report holds the warnings of a lenient read.
    pub fn from_slice_with(bytes: &[u8], options: &ReadOptions) -> Result<(File, Report), Error> {
        reader::parse(bytes, options)
    }

    /// The file's bytes: each block at the offset its header field gives, the gaps between.
    pub fn to_vec(&self) -> Vec<u8> {
        writer::to_bytes(self)
    }

    /// [`File::to_vec`] of a file given away: its large blocks are freed one by one as they
    /// are copied out. The bytes are those of `to_vec` for every file whose blocks do not
    /// overlap, as in every file [`File::pack`] lays out.
    pub fn into_vec(self) -> Vec<u8> {
        writer::into_bytes(self)
    }

    /// Lays the file out afresh after editing its blocks: the SDK's block order, 4-byte
    /// alignment, every count, offset and `filesize` recomputed, gaps dropped.
    /// `num_vertexes`, `num_frames` and `num_framechannels` are left as set. Fails when
    /// the file would exceed 4 GiB.
    pub fn pack(&mut self) -> Result<(), Error> {
        writer::pack(self).map_err(unwritable)
    }

    /// Counts and details for `rigport info`.
    pub fn summary(&self) -> FileSummary {
        summary::summarize(self)
    }
}
