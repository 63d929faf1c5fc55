//! Bytes straight to the neutral model, for conversions: the read leaves the joints' keys
//! in the input and they are decoded once, into the model's tracks, while the input is
//! still there; the rest of the model is made from the (keyless) faithful file.
//!
//! On a file whose size is mostly keys this skips a faithful array as large as the keys
//! (8 MB of a 11 MB file of 128 joints × 2 000 frames), and the page faults of filling it.

use super::ConvertOptions;
use super::keys::KeySource;
use super::to_model::{animation, to_model_with};
use crate::error::Error;
use crate::read::parse_leaving_keys;
use rigport_model_core::{Model, ReadOptions, Report};

/// The model, made when called.
pub(crate) type PendingModel = Box<dyn FnOnce() -> Result<(Model, Report), Error> + Send>;

/// Reads `bytes` for a conversion: the read's report now, and the model when the returned
/// closure runs (which no longer needs `bytes`). The same model and reports as
/// [`crate::File::from_slice_with`] then [`super::to_model`].
pub(crate) fn read_pending(
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<(PendingModel, Report), Error> {
    let (file, spans, report) = parse_leaving_keys(bytes, options)?;
    let made = animation(
        &file,
        &ConvertOptions::default(),
        KeySource::Input {
            bytes,
            spans: &spans,
        },
    );
    Ok((Box::new(move || to_model_with(&file, made)), report))
}

/// [`read_pending`], the model made at once.
pub(crate) fn read_model(bytes: &[u8], options: &ReadOptions) -> Result<(Model, Report), Error> {
    let (pending, mut report) = read_pending(bytes, options)?;
    let (model, more) = pending()?;
    report.extend(more);
    Ok((model, report))
}
