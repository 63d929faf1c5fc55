//! The library behind the `rigport` command: a format registry that detects inputs by
//! content, the conversion pipeline between MilkShape 3D (binary and ASCII), Inter-Quake
//! Export, glTF 2.0 and OBJ, and the subcommands themselves.
//!
//! ```
//! use rigport::formats::Format;
//! use rigport::pipeline::{convert, Settings};
//! use std::path::Path;
//!
//! let iqe = b"# Inter-Quake Export\nmesh tri\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\n";
//! let out = convert(iqe, Path::new("tri.glb"), Format::Glb, &Settings::default()).unwrap();
//! assert_eq!(&out.files[0].1[..4], b"glTF");
//! ```
#![forbid(unsafe_code)]

pub mod args;
pub mod attach;
pub mod batch;
pub mod checks;
pub mod commands;
pub mod document;
pub mod export;
pub mod formats;
pub mod output;
pub mod pipeline;
