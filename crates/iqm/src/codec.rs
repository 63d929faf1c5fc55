//! Inter-Quake Model through the shared [`Codec`](rigport_model_core::codec::Codec) trait, for
//! callers that handle every format alike (the `rigport` facade, the Python package, the
//! web page).
//!
//! ```
//! use rigport_model_core::codec::Codec;
//!
//! let codec = &rigport_iqm::CODEC;
//! assert_eq!(codec.info().key, "iqm");
//! assert_eq!(codec.info().up, rigport_model_core::UpAxis::Z);
//! ```

use crate::{ConvertOptions, Error, File, from_model, to_model};
use rigport_model_core::codec::{Faithful, FaithfulCodec, FormatInfo, Location};
use rigport_model_core::{FileSummary, Model, ReadOptions, Report, UpAxis};

/// The faithful layer of this crate, as [`Faithful`] describes it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Iqm;

/// This format's codec.
pub const CODEC: FaithfulCodec<Iqm> = FaithfulCodec::new();

static INFO: FormatInfo = FormatInfo {
    key: "iqm",
    description: "Inter-Quake Model, version 2 (`.iqm`)",
    extensions: &["iqm"],
    up: UpAxis::Z,
    writes: true,
};

impl Faithful for Iqm {
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

    fn location(error: &Error, _: &[u8]) -> Location {
        Location::at_offset(error.offset())
    }
}
