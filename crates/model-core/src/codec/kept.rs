//! A file a reader keeps from [`Reader::open`](super::Reader::open) when its crate has no
//! [`Faithful`](super::Faithful) layer (a format with companion animation files, or one
//! whose reader is its own): the crate says what its file counts, writes and converts to
//! ([`Keep`]), and [`Kept`] is the [`Opened`] the facade holds.

use super::{FormatError, FormatInfo, ModelOptions, Modelled, Opened, Opening};

use crate::{FileSummary, Model, Report};
use std::any::Any;
use std::fmt;

/// What a format crate's kept file gives: its counts, its bytes as read and its model.
pub trait Keep: Send + Sync + fmt::Debug + 'static {
    /// The file's own counts and facts.
    fn summary(&self) -> FileSummary;
    /// The file written back as it was read.
    fn to_vec(&self) -> Vec<u8>;
    /// The neutral model (with the animations kept beside it, if any).
    fn to_model(&self) -> Result<(Model, Report), FormatError>;
    /// The crate's own file, for callers that downcast it to its type (by default the
    /// kept value itself).
    fn as_any(&self) -> &dyn Any;
}

/// A [`Keep`] file as an [`Opened`]. Its same-format copy is the file as read once its
/// model can be made: a file a lenient read let through but whose conversion fails is
/// refused rather than copied.
#[derive(Debug)]
pub struct Kept<K> {
    info: &'static FormatInfo,
    file: K,
}

impl<K: Keep> Kept<K> {
    /// The [`Opening`] of `file`, read as `info`'s format with `report`.
    pub fn opening(
        info: &'static FormatInfo,
        file: K,
        report: Report,
    ) -> Result<(Opening, Report), FormatError> {
        Ok((Opening::file(Kept { info, file }), report))
    }
}

impl<K: Keep> Opened for Kept<K> {
    fn info(&self) -> &'static FormatInfo {
        self.info
    }

    fn summary(&self) -> FileSummary {
        self.file.summary()
    }

    fn to_vec(&self) -> Vec<u8> {
        self.file.to_vec()
    }

    fn copy(&self) -> Result<(Option<Vec<u8>>, Report), FormatError> {
        self.file.to_model()?;
        Ok((Some(self.file.to_vec()), Report::default()))
    }

    fn to_model(&self, _: &ModelOptions) -> Result<Modelled, FormatError> {
        let (model, report) = self.file.to_model()?;
        Ok(Modelled::of(model, report))
    }

    fn as_any(&self) -> &dyn Any {
        self.file.as_any()
    }
}
