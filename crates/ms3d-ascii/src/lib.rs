//! Read and write MilkShape 3D ASCII (`.txt`) files without losing content, and convert
//! them to and from the rigport neutral model.
//!
//! The reader is a [logos](https://docs.rs/logos) lexer over bytes (names are 8-bit, often
//! Latin-1) and a small parser. It takes CRLF and LF, blank and `//` comment lines
//! anywhere, blocks in any order, exponents such as `4e-05`, and keeps blocks it does not
//! know (`GroupComments:`, `ModelComment:` …) as raw lines. Errors carry a byte span;
//! [`Error::render`](rigport_model_core::Error::render) shows the offending line with
//! `line:column`.
//!
//! ```
//! use rigport_ms3d_ascii::{File, ConvertOptions, to_model};
//!
//! let text = b"// MilkShape 3D ASCII\r\n\r\nFrames: 30\r\nFrame: 1\r\n\r\n\
//! Meshes: 1\r\n\"tri\" 0 -1\r\n3\r\n\
//! 0 0 0 0 0 0 -1\r\n0 1 0 0 1 0 -1\r\n0 0 1 0 0 1 -1\r\n\
//! 1\r\n1 0 0\r\n1\r\n0 0 1 2 0 0 0 1\r\n";
//! let file = File::from_slice(text)?;
//! assert_eq!(file.meshes()[0].vertices.len(), 3);
//! assert_eq!(file.summary().triangles, 1);
//!
//! // Writing gives the same content: CRLF, shortest numbers, blocks in place.
//! assert_eq!(File::from_slice(&file.to_vec())?, file);
//!
//! let (model, _report) = to_model(&file, &ConvertOptions::default())?;
//! assert_eq!(model.meshes[0].triangles, vec![[0, 1, 2]]);
//! # Ok::<(), rigport_ms3d_ascii::Error>(())
//! ```
//!
//! # What "the same content" means
//!
//! `write(read(x))` has the same *content* as `x`: take each file's lines without their
//! line endings and leading/trailing blanks, drop blank lines and lines starting with
//! `//`, and cut each remaining line at `//` outside quotes and into tokens at blanks
//! (a quoted string is one token). The two token sequences are equal, where two tokens that
//! both read as numbers are equal when they are the same `f32` (`0.800000` = `0.8`,
//! `4e-05` = `0.00004`), and any other tokens when their bytes are equal. Line endings,
//! comments, blank lines and number spelling are therefore not kept; everything else is,
//! including unknown blocks (their lines are written back byte for byte) and block order.
//! Writing is idempotent: `write(read(write(read(x))))` is byte-for-byte `write(read(x))`.
//!
//! # Real files versus the specification
//!
//! The vertex line is `flags x y z u v bone` (not `x z y`); key times are frame numbers,
//! possibly fractional, not seconds; triangles wind counter-clockwise seen from their
//! normals; bones may have different key counts and times. See the crate README.
#![forbid(unsafe_code)]

mod codec;
mod convert;
mod error;
mod file;
mod lexer;
mod number;
mod read;
mod summary;
mod write;

pub use codec::{CODEC, Ms3dAscii};
pub use convert::{ConvertOptions, DEFAULT_FPS, from_model, to_model};
pub use error::{Detail, Error};
pub use file::{Block, Bone, File, Key, Material, Mesh, Triangle, UnknownBlock, Vertex};
pub use rigport_model_core::{FileSummary, ReadOptions, Report};

/// Whether the bytes look like a MilkShape ASCII file: after an optional byte-order mark
/// and blank lines, they start with `// MilkShape 3D ASCII`.
pub fn sniff(bytes: &[u8]) -> bool {
    read::has_magic(bytes)
}

rigport_model_core::faithful_readers!(text);

impl File {
    /// Reads a file with options; returns the warnings with it.
    ///
    /// Lenient reading (the default) warns about a missing header comment and out-of-range
    /// indices, and keeps a last block that the input ends inside as raw bytes
    /// ([`File::damaged_tail`]). Strict reading makes each of these an error.
    pub fn from_slice_with(bytes: &[u8], options: &ReadOptions) -> Result<(File, Report), Error> {
        read::parse(bytes, options)
    }

    /// Writes the file: CRLF line endings, the shortest numbers that read back the same.
    pub fn write<W: std::io::Write>(&self, writer: W) -> std::io::Result<()> {
        write::write(self, writer)
    }

    /// Counts and facts for `rigport info`; the caller appends the read's warnings.
    pub fn summary(&self) -> FileSummary {
        summary::summary(self)
    }
}
