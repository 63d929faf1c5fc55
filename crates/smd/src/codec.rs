//! The [`Codec`] of SMD: the neutral door the facade and other front ends use.

use crate::convert::{ConvertOptions, animation_from_model, reference, to_model};
use crate::file::File;
use rigport_model_core::codec::{
    Codec, Companions, FormatError, FormatInfo, Location, ModelOptions, Modelled, Opened, Opening,
    WriteOptions, Written, WrittenFiles,
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
};

/// Valve SMD as a [`Codec`]: reads a reference or animation SMD with the default
/// [`ConvertOptions`], and writes a model as `X.smd` (the reference) plus `X_<name>.smd`
/// per animation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Smd;

fn read_file(bytes: &[u8], options: &ReadOptions) -> Result<(File, Report), FormatError> {
    File::from_slice_with(bytes, options).map_err(|e| e.into_format_error(bytes))
}

/// An SMD read faithfully ([`Codec::open`]).
#[derive(Debug)]
struct OpenedSmd(File);

impl Opened for OpenedSmd {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn summary(&self) -> FileSummary {
        self.0.summary()
    }

    fn to_vec(&self) -> Vec<u8> {
        self.0.to_vec()
    }

    /// The file as read, once it converts: a file whose model cannot be made is not copied
    /// either.
    fn copy(&self) -> Result<(Option<Vec<u8>>, Report), FormatError> {
        self.to_model(&ModelOptions::default())?;
        Ok((Some(self.to_vec()), Report::default()))
    }

    fn to_model(&self, _: &ModelOptions) -> Result<Modelled, FormatError> {
        let (model, report) = to_model(&self.0, &ConvertOptions::default())
            .map_err(|e| FormatError::wrap(KEY, Location::Unknown, e))?;
        Ok(Modelled {
            model,
            images: Vec::new(),
            report,
        })
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
        let (file, mut report) = read_file(bytes, options)?;
        let modelled = OpenedSmd(file).to_model(&ModelOptions::default())?;
        report.extend(modelled.report);
        Ok((modelled.model, report))
    }

    fn open(&self, bytes: &[u8], options: &ReadOptions, _: &dyn Companions) -> Option<Opening> {
        Some(
            read_file(bytes, options)
                .map(|(file, report)| (Box::new(OpenedSmd(file)) as Box<dyn Opened>, report)),
        )
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
