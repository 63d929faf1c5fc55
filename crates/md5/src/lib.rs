//! Read and write id Tech 4 MD5 files (`.md5mesh` and `.md5anim`) without losing content,
//! and convert them to and from the rigport neutral model.
//!
//! Two layers, as in every rigport format crate:
//!
//! * [`File`] is the file as written: every top-level line and block in order, each record
//!   with the comment ending its line, blank lines, comment lines and lines the reader does
//!   not know (kept raw with a warning). One type holds both kinds ([`Kind`]): which one a
//!   file is follows from its lines. [`File::to_vec`] writes it back in a canonical layout
//!   with the file's own line ending.
//! * [`to_model`], [`to_model_with_animations`], [`from_model`] and [`anim_from_model`]
//!   convert to and from [`rigport_model_core::Model`] (Z up, as MD5), with a [`Report`]
//!   naming what the target cannot hold. [`Md5Mesh`] and [`Md5Anim`] are the two
//!   [`Codec`](rigport_model_core::codec::Codec)s.
//!
//! Errors carry a byte span; [`Error::render`] shows it as `line:column` with the line.
//!
//! ```
//! use rigport_md5::{ConvertOptions, File, Kind, to_model};
//!
//! let src = b"MD5Version 10\ncommandline \"\"\n\nnumJoints 1\nnumMeshes 1\n\n\
//! joints {\n\t\"root\"\t-1 ( 0 0 0 ) ( 0 0 0 )\t\t// the only joint\n}\n\n\
//! mesh {\n\t// meshes: tri\n\tshader \"models/test/skin\"\n\tnumverts 3\n\
//! \tvert 0 ( 0 0 ) 0 1\n\tvert 1 ( 1 0 ) 1 1\n\tvert 2 ( 0 1 ) 2 1\n\
//! \tnumtris 1\n\ttri 0 0 2 1\n\tnumweights 3\n\
//! \tweight 0 0 1 ( 0 0 0 )\n\tweight 1 0 1 ( 1 0 0 )\n\tweight 2 0 1 ( 0 1 0 )\n}\n";
//! let file = File::from_slice(src)?;
//! assert_eq!(file.kind, Kind::Mesh);
//! assert_eq!(file.meshes()[0].verts.len(), 3);
//!
//! // Writing keeps the content, comments included, and reads back to the same file.
//! let written = file.to_vec();
//! assert_eq!(File::from_slice(&written)?, file);
//!
//! // The model: w restored as −1 (the identity), triangle wound counter-clockwise.
//! let (model, _report) = to_model(&file, &ConvertOptions::default())?;
//! assert_eq!(model.meshes[0].name, "tri");
//! assert_eq!(model.meshes[0].triangles, vec![[0, 1, 2]]);
//! assert_eq!(model.meshes[0].vertices[1].position.x, 1.0);
//! assert_eq!(model.meshes[0].vertices[0].normal.z, 1.0);
//!
//! // Errors point at the line.
//! let bad = b"MD5Version 10\nnumMeshes x\n";
//! let error = File::from_slice(bad).unwrap_err();
//! assert!(error.render(bad).contains("--> 2:11"));
//! # Ok::<(), rigport_md5::Error>(())
//! ```
//!
//! # What "the same content" means
//!
//! `to_vec(read(x))` holds every line of `x` in order — headers, records, blank lines,
//! comment lines, comments ending lines, unknown lines and blocks — with the same tokens,
//! where numbers are equal as `f64` (`0.000000` is written `0`, `-0.000000` `-0`). Not kept:
//! blanks between tokens and the indentation (one tab inside blocks), a comment's distance
//! from its record, and mixed line endings (the first line's ending is used throughout).
//! Reading the written bytes gives an equal [`File`], and writing that again the same bytes.
//!
//! # Reading
//!
//! Lenient by default: unknown lines and blocks, count lines that disagree with their
//! records (`count-mismatch`), records numbered out of order, frames with too few numbers
//! and a missing `MD5Version` are warnings; [`ReadOptions::strict`] makes each an error.
//! Always errors: an index past what it indexes (a triangle's vertex, a vertex's weights,
//! a weight's joint, a parent, a record number past its list), a malformed record, a block
//! the input ends inside, a baseframe whose line count is not the joint count, and
//! `.md5camera` files. Memory grows with the lines read, never with a count in the file,
//! and is drawn from [`rigport_model_core::Budget`].
#![forbid(unsafe_code)]

mod beside;
mod codec;
mod convert;
mod error;
mod file;
mod lex;
pub mod math;
#[cfg(feature = "parallel")]
mod parallel;
mod read;
mod summary;
mod write;

pub use codec::{ANIM_CODEC, MESH_CODEC, Md5Anim, Md5Mesh};
pub use convert::{
    ConvertOptions, DEFAULT_FPS, anim_from_model, from_model, smooth_normals, to_model,
    to_model_with_animations,
};
pub use error::{Detail, Error};
pub use file::{
    BaseFrameEntry, Block, Bounds, Comment, File, Frame, Header, HierarchyEntry, Item, Joint, Kind,
    Line, LineEnding, MeshLine, MeshView, Tri, Vert, Weight,
};
pub use rigport_model_core::{FileSummary, ReadOptions, Report};

/// Whether the bytes look like an MD5 file of either kind (see [`sniff_kind`]).
pub fn sniff(bytes: &[u8]) -> bool {
    sniff_kind(bytes).is_some()
}

/// Which MD5 file the bytes start like: after a byte-order mark, blank and comment lines,
/// `MD5Version`, then
/// (within the first 4 KiB) `numMeshes`, `joints {` or `mesh {` for an `.md5mesh`, and
/// `numFrames`, `numAnimatedComponents` or `hierarchy {` for an `.md5anim`. An
/// `.md5camera` (`numCuts`) is neither.
pub fn sniff_kind(bytes: &[u8]) -> Option<Kind> {
    let head = &bytes[..bytes.len().min(4096)];
    let start = if head.starts_with(lex::BOM) {
        lex::BOM.len()
    } else {
        0
    };
    let mut tokens = Vec::new();
    let mut seen_version = false;
    let mut frames = false;
    let mut answer = None;
    let _ = lex::for_each_line_from(head, start, |range, _| {
        lex::tokenize(head, range, &mut tokens);
        let Some(first) = tokens.first() else {
            return Ok(());
        };
        let word = &head[first.text.clone()];
        if !seen_version {
            if word == b"MD5Version" {
                seen_version = true;
                return Ok(());
            }
            return Err(());
        }
        match word {
            b"numMeshes" | b"joints" | b"mesh" => {
                answer = Some(Kind::Mesh);
                Err(())
            }
            b"numAnimatedComponents" | b"hierarchy" | b"baseframe" => {
                answer = Some(Kind::Anim);
                Err(())
            }
            b"numCuts" | b"cuts" | b"camera" => Err(()),
            b"numFrames" => {
                frames = true;
                Ok(())
            }
            b"numJoints" if frames => {
                answer = Some(Kind::Anim);
                Err(())
            }
            _ => Ok(()),
        }
    });
    answer
}

rigport_model_core::faithful_readers!(text);

impl File {
    /// Reads a file with options; returns the warnings with it (`line N: …`, one notice
    /// per kind of warning with the count of further ones). With
    /// [`ReadOptions::strict`] the first warning is an error.
    pub fn from_slice_with(bytes: &[u8], options: &ReadOptions) -> Result<(File, Report), Error> {
        read::parse(bytes, options)
    }

    /// Writes the file in the canonical layout (see the crate docs).
    pub fn write<W: std::io::Write>(&self, writer: W) -> std::io::Result<()> {
        write::write(self, writer)
    }

    /// The file's own counts for `rigport info`: joints, mesh blocks, `vert` and `tri`
    /// records, frames; the caller appends the read's warnings.
    pub fn summary(&self) -> FileSummary {
        summary::summary(self)
    }
}
