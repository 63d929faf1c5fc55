//! Read and write Valve SMD (Studiomdl Data) files — GoldSrc and Source, reference (mesh)
//! and animation files — without losing content, and convert them to and from the rigport
//! neutral model.
//!
//! The faithful layer ([`File`]) keeps every line that carries something, in order:
//! comment lines (Crowbar's `// Created by …` header before `version 1`, `//`, `#` and `;`
//! lines inside blocks, comments after a line's fields), the `nodes`, `skeleton`,
//! `triangles` and `vertexanimation` blocks, and blocks with other keywords as raw lines.
//! Vertex lines keep their form: 9 fields (GoldSrc, wholly on the parent bone), or a link
//! count and `(bone, weight)` pairs (Source). CRLF and LF, indentation, quoted names with
//! spaces and dots, and a missing final line break are all read. Errors carry a byte span;
//! [`Error::render`] shows the offending line with `line:column`.
//!
//! ```
//! use rigport_smd::{ConvertOptions, File, to_model};
//!
//! let text = b"// Created by hand\r\nversion 1\r\nnodes\r\n0 \"root\" -1\r\n1 \"upper arm\" 0\r\nend\r\n\
//! skeleton\r\ntime 0\r\n0 0 0 0 0 0 0\r\n1 0 0 10 0 1.570796 0\r\nend\r\n\
//! triangles\r\nskin.bmp\r\n\
//! 0 0 0 0 0 -1 0 0 0 1 0 1\r\n\
//! 1 4 0 0 0 -1 0 1 0 2 0 0.5 1 0.5\r\n\
//! 1 4 0 10 0 -1 0 1 1 1 1 1\r\nend\r\n";
//! let file = File::from_slice(text)?;
//! assert_eq!(file.nodes().count(), 2);
//! assert_eq!(file.summary().triangles, 1);
//!
//! // Writing gives the same content: comments, CRLF and every record in place.
//! assert_eq!(File::from_slice(&file.to_vec())?, file);
//!
//! let (model, _report) = to_model(&file, &ConvertOptions::default())?;
//! assert_eq!(model.skeleton.joints[1].name, "upper arm");
//! assert_eq!(model.materials[0].texture.as_deref(), Some("skin.bmp"));
//! assert_eq!(model.meshes[0].triangles.len(), 1);
//! assert_eq!(model.comment.as_deref(), Some("Created by hand"));
//! # Ok::<(), rigport_smd::Error>(())
//! ```
//!
//! # What "the same content" means
//!
//! `write(read(x))` has the same *content* as `x`: take each file's lines without their
//! line endings and surrounding blanks, drop blank lines, and split each remaining line
//! into fields at blanks (a quoted name is one field; a material line and a comment — from
//! its marker to the end of the line — are one field each). The two field sequences are
//! equal, where two fields that both read as numbers are equal when they are the same
//! `f32` (`0.000000` = `0`, `-0.000000` ≠ `0`), and any other fields when their bytes are
//! equal. Numbers are written as exporters print them (`%.6f`) whenever that gives back the
//! same `f32`, else with the shortest digits that do. A block that the input ends inside
//! is read (with a warning) and written back closed by `end`. Writing is idempotent.
//!
//! # The neutral model
//!
//! [`to_model`] builds the skeleton from `nodes` and the first `time` frame (Euler angles
//! in radians, `R = Rz·Ry·Rx`, X applied first: the IQM SDK, assimp, Blender Source Tools
//! and studiomdl agree), one mesh per material line with welded corners, `v` flipped to the
//! model's top-left origin, triangles counter-clockwise against their stored normals, and
//! at most four weights per vertex (the four largest, renormalized, reported). An animation
//! file becomes one animation; **SMD stores no frame rate**, so it plays at
//! [`ConvertOptions::fps`] (30 by default, studiomdl's default) and the report says so.
//! [`add_animation`] adds an animation file to a model read from its reference file,
//! matching bones by name. [`from_model`] writes a reference file and
//! [`animation_from_model`] one animation file per animation; [`Smd`] does both as a
//! [`Codec`](rigport_model_core::codec::Codec). Models are Z-up, as in the Source engine.
#![forbid(unsafe_code)]

mod codec;
mod convert;
mod error;
mod file;
mod read;
mod summary;
mod write;

pub use codec::{CODEC, Smd};

/// The format key (`--to`, `info`'s `format`), which the codec, its errors and the summary
/// share.
pub const KEY: &str = "smd";
pub use convert::{
    ConvertOptions, DEFAULT_ANIMATION_NAME, DEFAULT_FPS, add_animation, animation_from_model,
    from_model, to_model,
};
pub use error::{Detail, Error};
pub use file::{
    BonePose, File, Frame, Item, LineEnding, Link, Node, NodeLine, SkeletonLine, Triangle,
    TriangleLine, UnknownBlock, Version, Vertex, VertexAnimationLine,
};
pub use rigport_model_core::{FileSummary, ReadOptions, Report};

/// Whether the bytes look like SMD: blank and comment lines, then `version 1`, then
/// (after more blank or comment lines) `nodes`.
pub fn sniff(bytes: &[u8]) -> bool {
    read::sniff(bytes)
}

rigport_model_core::faithful_readers!();

impl File {
    /// Reads a file with options; returns the warnings with it.
    ///
    /// Lenient reading (the default) warns about a version other than 1, a missing
    /// `version` line, bone IDs that are negative, repeated or not listed in `nodes`, and a
    /// block the input ends inside; strict reading makes each of these an error. Lines that
    /// do not parse are errors either way.
    pub fn from_slice_with(bytes: &[u8], options: &ReadOptions) -> Result<(File, Report), Error> {
        read::parse(bytes, options)
    }

    /// Writes the file with its own line endings.
    pub fn write<W: std::io::Write>(&self, writer: W) -> std::io::Result<()> {
        write::write(self, writer)
    }

    /// The written file as bytes.
    pub fn to_vec(&self) -> Vec<u8> {
        write::to_vec(self)
    }

    /// Counts and facts for `rigport info`, counted on the file: bones (`joints`),
    /// triangles, `time` frames, material lines; the caller appends the read's warnings.
    pub fn summary(&self) -> FileSummary {
        summary::summary(self)
    }
}
