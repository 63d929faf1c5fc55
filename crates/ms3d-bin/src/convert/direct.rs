//! Bytes straight to the neutral model, for conversions: the read leaves the joints' keys
//! in the input and they are decoded once, into the model's tracks, while the rest of the
//! model is made from the (keyless) faithful file on this thread.
//!
//! On a file whose size is mostly keys this skips a faithful array as large as the keys
//! (8 MB of a 11 MB file of 128 joints × 2 000 frames), and the page faults of filling it.
//! The model is made while the input is still there: it replaces the faithful keys, not the
//! input, so the peak is the input and the model, as other formats' conversions hold the
//! faithful file and the model.

use super::ConvertOptions;
use super::keys::KeySource;
use super::to_model::{Parts, Tracks, model_of, with_tracks};
use crate::error::Error;
use crate::read::{parse_leaving_keys, skim_joints};
use rigport_model_core::{Model, ReadOptions, Report};

/// The model, handed over when called.
pub(crate) type PendingModel = Box<dyn FnOnce() -> Result<(Model, Report), Error> + Send>;

/// Reads `bytes` for a conversion: the read's report, and the model, already made, handed
/// over when the returned closure runs. The same model and reports as
/// [`crate::File::from_slice_with`] then [`super::to_model`].
///
/// The joints are read first ([`skim_joints`], passing over the meshes before them), so
/// that the tracks are made on the other cores while this thread reads the rest of the file
/// and welds its meshes.
pub(crate) fn read_pending(
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<(PendingModel, Report), Error> {
    let convert = ConvertOptions::default();
    // The skim reads the joints with the whole read's checks and budget, and passes over
    // what comes before them with the same checks: where it fails, the whole read fails
    // the same way.
    let (joints, spans) = skim_joints(bytes, options)?;
    let keys = KeySource::Input {
        bytes,
        spans: &spans,
    };
    let mut animation_report = Report::default();
    // The joints read alone are those of the whole read: the same bytes read the same way.
    let planned = Tracks::plan(&joints, &convert, keys, &mut animation_report);
    let (read, made) = with_tracks(planned.as_ref(), || {
        let (file, _, report) = parse_leaving_keys(bytes, options)?;
        let parts = Parts::of(&file);
        Ok::<_, Error>((file, parts, report))
    });
    let (file, parts, report) = read?;
    let modelled = model_of(&file, parts, planned, made, animation_report);
    Ok((Box::new(move || Ok(modelled)), report))
}
