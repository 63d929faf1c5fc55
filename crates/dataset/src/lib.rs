//! Datasets of skeletal models: what `rigport render` writes, for any door that writes it.
//!
//! - [`picture`]: any readable file to a PNG of the posed model or a contact sheet
//!   ([`picture::render_png`]); a file read once ([`picture::Prepared`]) drawn as orbit
//!   views with depth, normal and mask passes, their cameras (nerfstudio
//!   `transforms.json`), the joints seen from each view (`keypoints.json`), an animated
//!   PNG and the file's metadata; COCO keypoints of many models
//!   ([`picture::coco_keypoints`]).
//! - [`library`]: the asset-library layout of `rigport render INPUTS... -o DIR` (a folder
//!   per model, `manifest.jsonl`, the `--resume` rule, `annotations.json`).
//! - [`model`]: the job run for each model of a library, shared by the command and the
//!   Python package so that both write the same files, byte for byte.
//!
//! Reading, converting and posing are the `rigport` facade's; drawing is
//! `rigport-render`'s. Failures are one [`Error`]: the facade's, or the drawing's.
//!
//! ```
//! use rigport_dataset::picture::{PictureRequest, RenderOptions, render_png};
//! use std::path::Path;
//!
//! let iqe = b"# Inter-Quake Export\nmesh tri\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\n";
//! let request = PictureRequest {
//!     options: RenderOptions { width: 32, height: 16, ..RenderOptions::default() },
//!     ..PictureRequest::default()
//! };
//! let (png, _report) = render_png(iqe, Path::new("."), &request).unwrap();
//! assert!(png.starts_with(b"\x89PNG"));
//! ```
#![forbid(unsafe_code)]

mod error;
pub mod library;
pub mod model;
pub mod picture;

pub use error::Error;
