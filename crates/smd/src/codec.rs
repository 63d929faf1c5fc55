//! The [`Codec`] of SMD: the neutral door the facade and other front ends use.

use crate::convert::{ConvertOptions, animation_from_model, reference, to_model};
use crate::file::File;
use rigport_model_core::codec::{
    Codec, Companions, FormatError, FormatInfo, Keep, Kept, Location, Opening, WriteOptions,
    Written, WrittenFiles, model_of,
};
use rigport_model_core::{FileSummary, Model, ReadOptions, Report, UpAxis};
use std::any::Any;

use crate::KEY;

static INFO: FormatInfo = FormatInfo {
    key: KEY,
    family: "SMD",
    description: "Valve SMD (`.smd`), animations as `.smd` sequences beside it",
    extensions: &["smd"],
    up: UpAxis::Z,
    writes: true,
    reads: true,
    one_timeline: false,
    animation_only: false,
    morph_targets: false,
};

/// Valve SMD as a [`Codec`]: reads a reference or animation SMD with the default
/// [`ConvertOptions`], and writes a model as `X.smd` (the reference) plus `X_<name>.smd`
/// per animation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Smd;

/// Reads an SMD faithfully and keeps it.
fn open(bytes: &[u8], options: &ReadOptions) -> Opening {
    let (file, report) =
        File::from_slice_with(bytes, options).map_err(|e| e.into_format_error(bytes))?;
    Kept::opening(&INFO, file, report)
}

impl Keep for File {
    fn summary(&self) -> FileSummary {
        File::summary(self)
    }

    fn to_vec(&self) -> Vec<u8> {
        File::to_vec(self)
    }

    fn to_model(&self) -> Result<(Model, Report), FormatError> {
        to_model(self, &ConvertOptions::default())
            .map_err(|e| FormatError::wrap(KEY, Location::Unknown, e))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Codec for Smd {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        crate::sniff(bytes)
    }

    fn read(&self, bytes: &[u8], options: &ReadOptions) -> Result<(Model, Report), FormatError> {
        model_of(open(bytes, options))
    }

    fn open(&self, bytes: &[u8], options: &ReadOptions, _: &dyn Companions) -> Option<Opening> {
        Some(open(bytes, options))
    }

    fn write(
        &self,
        model: &Model,
        main: &str,
        _options: &WriteOptions,
    ) -> Result<Written, FormatError> {
        let options = ConvertOptions::default();
        let wrap = |e| FormatError::wrap(KEY, Location::Unknown, e);
        let (file, mut report) = reference(model, &options).map_err(wrap)?;
        let mut files = WrittenFiles::new(main, file.to_vec(), "reference");
        for (index, animation) in model.animations.iter().enumerate() {
            let (file, converted) = animation_from_model(model, index, &options).map_err(wrap)?;
            report.extend(converted);
            let what = format!(
                "animation `{}`, {} frames",
                animation.name,
                file.frames().len()
            );
            files.companion(&animation.name, "smd", file.to_vec(), &what);
        }
        let files = files.finish(&mut report);
        Ok(Written { files, report })
    }
}
