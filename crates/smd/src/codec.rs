//! The [`Codec`] of SMD: the neutral door the facade and other front ends use.

use crate::convert::{ConvertOptions, animation_from_model, reference, to_model};
use crate::file::File;
use rigport_model_core::codec::{
    Codec, FormatError, FormatInfo, Location, OutputFile, WriteOptions, Written, file_safe, stem_of,
};
use rigport_model_core::{FileSummary, Model, ReadOptions, Report, UpAxis, codes};

/// The format key.
pub const KEY: &str = "smd";

static INFO: FormatInfo = FormatInfo {
    key: KEY,
    description: "Valve SMD, Studiomdl Data (`.smd`)",
    extensions: &["smd"],
    up: UpAxis::Z,
    writes: true,
};

/// Valve SMD as a [`Codec`]: reads a reference or animation SMD with the default
/// [`ConvertOptions`], and writes a model as `X.smd` (the reference) plus `X_<name>.smd`
/// per animation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Smd;

fn read_file(bytes: &[u8], options: &ReadOptions) -> Result<(File, Report), FormatError> {
    File::from_slice_with(bytes, options).map_err(|e| e.into_format_error(bytes))
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
        let (model, converted) = to_model(&file, &ConvertOptions::default())
            .map_err(|e| FormatError::wrap(KEY, Location::Unknown, e))?;
        report.extend(converted);
        Ok((model, report))
    }

    fn summary(&self, bytes: &[u8], options: &ReadOptions) -> Result<FileSummary, FormatError> {
        let (file, report) = read_file(bytes, options)?;
        Ok(file.summary().with_warnings_of(&report))
    }

    fn copy(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
    ) -> Option<Result<(Vec<u8>, Report), FormatError>> {
        Some(read_file(bytes, options).map(|(file, report)| (file.to_vec(), report)))
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
        let mut files = vec![OutputFile {
            name: main.to_owned(),
            bytes: file.to_vec(),
        }];
        let mut listed = vec![format!("{main} (reference)")];
        let stem = stem_of(main);
        for (index, animation) in model.animations.iter().enumerate() {
            let (file, converted) = animation_from_model(model, index, &options).map_err(wrap)?;
            report.extend(converted);
            let mut name = format!("{stem}_{}.smd", file_safe(&animation.name));
            // Two animations whose names become the same file name: number the later ones.
            let mut n = 2;
            while files.iter().any(|f| f.name == name) {
                name = format!("{stem}_{}_{n}.smd", file_safe(&animation.name));
                n += 1;
            }
            listed.push(format!(
                "{name} (animation `{}`, {} frames)",
                animation.name,
                file.frames().len()
            ));
            files.push(OutputFile {
                name,
                bytes: file.to_vec(),
            });
        }
        report.info(codes::FILES_WRITTEN, format!("wrote {}", listed.join(", ")));
        Ok(Written { files, report })
    }
}
