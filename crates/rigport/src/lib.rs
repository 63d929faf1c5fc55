//! rigport as a library: one entry point over every rigport format crate. It knows the
//! formats ([`Format`]: keys, extensions, what this build reads and writes), detects an
//! input's format from its content ([`sniff`]), reads any readable file faithfully
//! ([`Document`]), converts in memory ([`pipeline::convert`]) with every loss in a
//! [`Report`], and runs the checks behind `rigport validate` ([`checks`]). Failures are one
//! typed [`Error`] whose read and conversion variants carry the format crate's own error.
//!
//! The `rigport-cli` package builds the `rigport` command on top of this crate; the format
//! crates can also be used alone. Each format is a cargo feature, all on by default, and one
//! line of the registry ([`Format`]: [`Format::feature`] names the feature, [`Format::info`]
//! gives what the format's crate says of it, [`formats`] re-exports the crates):
//!
//! ```
//! for format in rigport::Format::ALL.into_iter().filter(|f| f.is_enabled()) {
//!     let info = format.info().unwrap();
//!     assert_eq!(info.key, format.key());
//!     println!("{:<11} {:<11} reads: {:<5} writes: {}", format.key(), format.feature(), info.reads, info.writes);
//! }
//! ```
//!
//! Pictures and datasets of posed models are the `rigport-dataset` crate's, above this one.
//! Feature `parallel` (on by default) reads large IQE files and writes IQM files on every core
//! (rayon); without it (the WebAssembly build) they run on the calling thread, with the same
//! result. Feature `files` (on by default) adds [`output`]: output files written the way
//! every door writes them (atomically, never over an input, synced only when replacing).
//!
//! ```
//! use rigport::pipeline::{Settings, convert};
//! use rigport::{Format, sniff};
//! use std::path::Path;
//!
//! let iqe = b"# Inter-Quake Export\nmesh tri\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\n";
//! assert_eq!(sniff(iqe), Some(Format::Iqe));
//! let out = convert(iqe, Path::new("tri.glb"), Format::Glb, &Settings::default()).unwrap();
//! assert_eq!(&out.files[0].1[..4], b"glTF");
//!
//! // Errors are typed; a text format's read error names line:column.
//! let err = convert(b"# Inter-Quake Export\nvp 0 x 0\n", Path::new("x.glb"), Format::Glb,
//!     &Settings::default()).unwrap_err();
//! assert!(matches!(err, rigport::Error::Read { format: Format::Iqe, .. }));
//! ```
#![forbid(unsafe_code)]

pub mod attach;
pub mod batch;
pub mod checks;
pub mod document;
mod error;
mod images;
pub use images::TextureList;
pub mod info;
#[cfg(feature = "files")]
pub mod output;
pub mod pipeline;
mod registry;

pub use document::{Document, Image, ModelOptions, sniff};
pub use error::{Error, FormatError};
pub use registry::Format;
pub use rigport_model_core::{FileSummary, Model, ReadOptions, Report, Severity, UpAxis};

pub use registry::formats;
