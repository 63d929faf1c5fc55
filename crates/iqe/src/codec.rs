//! Inter-Quake Export through the shared [`Codec`](rigport_model_core::codec::Codec) trait, for
//! callers that handle every format alike (the `rigport` facade, the Python package, the
//! web page).
//!
//! ```
//! use rigport_model_core::codec::Codec;
//!
//! let codec = &rigport_iqe::CODEC;
//! assert_eq!(codec.info().key, "iqe");
//! assert_eq!(codec.info().up, rigport_model_core::UpAxis::Z);
//! ```

use crate::{ConvertOptions, Error, File, from_model, to_model};
use rigport_model_core::codec::{Faithful, FaithfulCodec, FormatInfo, Location};
use rigport_model_core::{FileSummary, Model, ReadOptions, Report, UpAxis};

/// The faithful layer of this crate, as [`Faithful`] describes it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Iqe;

/// This format's codec.
pub const CODEC: FaithfulCodec<Iqe> = FaithfulCodec::new();

static INFO: FormatInfo = FormatInfo {
    key: "iqe",
    description: "Inter-Quake Export (`.iqe`)",
    extensions: &["iqe"],
    up: UpAxis::Z,
    writes: true,
};

impl Faithful for Iqe {
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

    // The scene the read checks the commands with is kept and becomes the model: the
    // commands are not interpreted twice.
    fn read_model(bytes: &[u8], options: &ReadOptions) -> Result<(Model, Report), Error> {
        let (read, mut report) = crate::interpreted::Interpreted::from_slice_with(bytes, options)?;
        let (model, more) = read.into_model(&ConvertOptions::default());
        report.extend(more);
        Ok((model, report))
    }
}
