//! A codec's own reads against its faithful layer: a codec may read a file for a
//! conversion another way than `File::from_slice_with` then `to_model` (IQE keeps the
//! scene it checks the commands with; MilkShape decodes keys straight into tracks), and
//! must give the same result.

use rigport_model_core::codec::{Codec, Location, ModelOptions, NoCompanions};
use rigport_model_core::{Model, ReadOptions, Report};

/// What the faithful layer gives for a file: the model and the read's and conversion's
/// reports in order, or the error's message and place.
pub type Faithful = Result<(Model, Report), (String, Location)>;

/// Checks that `codec.read` and `codec.read_pending` of `bytes` give `faithful`: the same
/// model (compared printed when not equal, so that the NaNs of a damaged file compare
/// equal), the same reports in the same order, the same error at the same place. Returns
/// whether the read succeeded.
pub fn assert_codec_reads_as_faithful(
    name: &str,
    codec: &dyn Codec,
    bytes: &[u8],
    options: &ReadOptions,
    faithful: Faithful,
) -> bool {
    let read = codec.read(bytes, options);
    let pending = codec.read_pending(bytes, options, &NoCompanions, &ModelOptions::default());
    match (faithful, read) {
        (Ok((model, report)), Ok((got, got_report))) => {
            same_model(&got, &model, &format!("{name}: the model"));
            assert_eq!(got_report, report, "{name}: the reports");
            let (pending, mut pending_report) =
                pending.unwrap_or_else(|e| panic!("{name}: pending read: {e}"));
            let modelled = pending().unwrap_or_else(|e| panic!("{name}: pending model: {e}"));
            pending_report.extend(modelled.report);
            same_model(
                &modelled.model,
                &model,
                &format!("{name}: the pending model"),
            );
            assert_eq!(pending_report, report, "{name}: the pending reports");
            true
        }
        (Err((message, location)), Err(got)) => {
            let Err(pending) = pending else {
                panic!("{name}: the pending read succeeded");
            };
            assert_eq!(pending.message, got.message, "{name}: the pending error");
            assert_eq!(got.message, message, "{name}: the error");
            assert_eq!(got.location, location, "{name}: the error's place");
            false
        }
        (faithful, read) => panic!(
            "{name}: the faithful read {}, the codec read {}",
            faithful.is_ok(),
            read.is_ok()
        ),
    }
}

/// Models compared by their printed form when they are not equal.
fn same_model(got: &Model, expected: &Model, what: &str) {
    if got != expected {
        assert_eq!(format!("{got:?}"), format!("{expected:?}"), "{what}");
    }
}
