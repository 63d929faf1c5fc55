//! MilkShape 3D ASCII through the shared [`Codec`](rigport_model_core::codec::Codec) trait, for
//! callers that handle every format alike (the `rigport` facade, the Python package, the
//! web page).
//!
//! ```
//! use rigport_model_core::codec::Codec;
//!
//! let codec = &rigport_ms3d_ascii::CODEC;
//! assert_eq!(codec.info().key, "ms3d-ascii");
//! assert_eq!(codec.info().up, rigport_model_core::UpAxis::Y);
//! ```

use crate::{ConvertOptions, Error, File, from_model, to_model};
use rigport_model_core::codec::{Faithful, FaithfulCodec, FormatInfo, Location};
use rigport_model_core::{FileSummary, Model, ReadOptions, Report, UpAxis};

/// The faithful layer of this crate, as [`Faithful`] describes it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ms3dAscii;

/// This format's codec.
pub const CODEC: FaithfulCodec<Ms3dAscii> = FaithfulCodec::new();

static INFO: FormatInfo = FormatInfo {
    key: "ms3d-ascii",
    description: "MilkShape 3D ASCII (`.txt`)",
    extensions: &["txt"],
    up: UpAxis::Y,
    writes: true,
};

impl Faithful for Ms3dAscii {
    type File = File;
    type Error = Error;

    fn info() -> &'static FormatInfo {
        &INFO
    }

    fn sniff(bytes: &[u8]) -> bool {
        crate::sniff(bytes)
    }

    fn read(bytes: &[u8], options: &ReadOptions) -> Result<(File, Report), Error> {
        File::from_slice_with(bytes, options)
    }

    fn to_vec(file: &File) -> Vec<u8> {
        file.to_vec()
    }

    fn summary(file: &File) -> FileSummary {
        file.summary()
    }

    fn to_model(file: &File) -> Result<(Model, Report), Error> {
        to_model(file, &ConvertOptions::default())
    }

    fn from_model(model: &Model) -> Result<(File, Report), Error> {
        from_model(model, &ConvertOptions::default())
    }

    fn location(error: &Error, bytes: &[u8]) -> Location {
        Location::at_text(bytes, error.span().map(|span| span.start))
    }
}
