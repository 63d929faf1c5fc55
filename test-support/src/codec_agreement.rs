//! A codec's own reads against its faithful layer: a codec may read a file for a
//! conversion another way than `File::from_slice_with` then `to_model` (IQE keeps the
//! scene it checks the commands with; MilkShape decodes keys straight into tracks), and
//! must give the same result.

use rigport_model_core::codec::{Codec, Location, ModelOptions};
use rigport_model_core::{Model, ReadOptions, Report};

/// What the faithful layer gives for a file: the model and the read's and conversion's
/// reports in order, or the error's message and place.
pub type Faithful = Result<(Model, Report), (String, Location)>;

/// Checks that `codec.read` (the read for the model alone) and the file `codec.open_file`
/// keeps, turned into its model, give `faithful` for `bytes`: the same
/// model (compared printed when not equal, so that the NaNs of a damaged file compare
/// equal), the same reports in the same order, the same error at the same place. Returns
/// whether the read succeeded.
pub fn assert_codec_reads_as_faithful(
    name: &str,
    codec: &Codec,
    bytes: &[u8],
    options: &ReadOptions,
    faithful: Faithful,
) -> bool {
    let read = codec.read(bytes, options);
    let kept = codec.open_file(bytes, options);
    match (faithful, read) {
        (Ok((model, report)), Ok((got, got_report))) => {
            same_model(&got, &model, &format!("{name}: the model"));
            assert_eq!(got_report, report, "{name}: the reports");
            let (file, mut kept_report) =
                kept.unwrap_or_else(|e| panic!("{name}: the kept read: {e}"));
            let modelled = file
                .to_model(&ModelOptions::default())
                .unwrap_or_else(|e| panic!("{name}: the kept file's model: {e}"));
            kept_report.extend(modelled.report);
            same_model(&modelled.model, &model, &format!("{name}: the kept model"));
            assert_eq!(kept_report, report, "{name}: the kept reports");
            true
        }
        (Err((message, location)), Err(got)) => {
            let Err(kept) = kept else {
                panic!("{name}: the kept read succeeded");
            };
            assert_eq!(kept.message, got.message, "{name}: the kept read's error");
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
