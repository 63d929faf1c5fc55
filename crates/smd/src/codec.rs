//! SMD as a [`Codec`]: the neutral door the facade and other front ends use.

use crate::convert::{ConvertOptions, animation_from_model, reference, to_model};
use crate::file::File;
use rigport_model_core::codec::{
    Codec, FormatError, FormatInfo, Input, Keep, Kept, Location, Opening, Output, Reader, Writer,
    Written, WrittenFiles,
};
use rigport_model_core::{FileSummary, Model, Report, UpAxis};
use std::borrow::Cow;

use crate::KEY;

static INFO: FormatInfo = FormatInfo {
    key: KEY,
    family: "SMD",
    description: "Valve SMD (`.smd`), animations as `.smd` sequences beside it",
    extensions: &["smd"],
    up: UpAxis::Z,
    writes: true,
    reads: true,
    ..FormatInfo::DEFAULT
};

/// Valve SMD's reader and writer: reads a reference or animation SMD with the default
/// [`ConvertOptions`], and writes a model as `X.smd` (the reference) plus `X_<name>.smd`
/// per animation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Smd;

/// The SMD codec, as a registry lists it.
pub static CODEC: Codec = Codec::new(&INFO, Some(&Smd), Some(&Smd));

impl Keep for File {
    type Beside = ();

    fn summary(&self) -> FileSummary {
        File::summary(self)
    }

    fn to_vec(&self) -> Vec<u8> {
        File::to_vec(self)
    }

    fn to_model(&self, _: &[()]) -> Result<(Model, Report), FormatError> {
        to_model(self, &ConvertOptions::default())
            .map_err(|e| FormatError::wrap(KEY, Location::Unknown, e))
    }
}

impl Reader for Smd {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        crate::sniff(bytes)
    }

    /// Reads an SMD faithfully and keeps it.
    fn open(&self, input: &Input<'_>) -> Result<(Opening, Report), FormatError> {
        let (file, report) = File::from_slice_with(input.bytes, input.options)
            .map_err(|e| e.into_format_error(KEY, Some(input.bytes)))?;
        Kept::opening(&INFO, file, report)
    }
}

impl Writer for Smd {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn write(&self, model: Cow<'_, Model>, output: &Output<'_>) -> Result<Written, FormatError> {
        let (model, main) = (model.as_ref(), output.main);
        let options = ConvertOptions::default();
        let wrap = |e| FormatError::wrap(KEY, Location::Unknown, e);
        if let [animation] = &model.animations[..] {
            if model.meshes.iter().all(|m| m.triangles.is_empty()) {
                // No mesh and one animation: an animation file, as it is read.
                let (file, mut report) = animation_from_model(model, 0, &options).map_err(wrap)?;
                let what = format!(
                    "animation `{}`, {} frames; no mesh, so no reference",
                    animation.name,
                    file.frames().len()
                );
                let files = WrittenFiles::new(main, file.to_vec(), &what).finish(&mut report);
                return Ok(Written { files, report });
            }
        }
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
