//! A file a reader keeps from [`Reader::open`](super::Reader::open) when its crate has no
//! [`Faithful`](super::Faithful) layer (a format with companion animation files, or one
//! whose reader is its own): the crate says what its file counts, writes and converts to
//! ([`Keep`]), and [`Kept`] is the [`Opened`] the facade holds.

use super::{FormatError, FormatInfo, ModelOptions, Modelled, Opened, Opening};

use crate::{FileSummary, Model, Report};
use std::any::Any;
use std::fmt;

/// What a format crate's kept file gives: its counts, its bytes as read and its model, made
/// with the files kept beside it.
pub trait Keep: Send + Sync + fmt::Debug + Sized + 'static {
    /// What is kept beside the file (a mesh's animation files); `()` for none.
    type Beside: Send + Sync + fmt::Debug + 'static;
    /// The file's own counts and facts.
    fn summary(&self) -> FileSummary;
    /// The file written back as it was read.
    fn to_vec(&self) -> Vec<u8>;
    /// The neutral model, with the animations of the files `beside` it.
    fn to_model(&self, beside: &[Self::Beside]) -> Result<(Model, Report), FormatError>;
}

/// A [`Keep`] file, with what was kept beside it, as an [`Opened`]. Its same-format copy is
/// the file as read once its model can be made: a file a lenient read let through but whose
/// conversion fails is refused rather than copied.
#[derive(Debug)]
pub struct Kept<K: Keep> {
    info: &'static FormatInfo,
    file: K,
    beside: Vec<K::Beside>,
}

impl<K: Keep> Kept<K> {
    /// The [`Opening`] of `file`, read as `info`'s format with `report`.
    pub fn opening(
        info: &'static FormatInfo,
        file: K,
        report: Report,
    ) -> Result<(Opening, Report), FormatError> {
        Self::opening_with(info, file, Vec::new(), report)
    }

    /// The [`Opening`] of `file` with the files read `beside` it.
    pub fn opening_with(
        info: &'static FormatInfo,
        file: K,
        beside: Vec<K::Beside>,
        report: Report,
    ) -> Result<(Opening, Report), FormatError> {
        Ok((Opening::file(Kept { info, file, beside }), report))
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
        self.file.to_model(&self.beside)?;
        Ok((Some(self.file.to_vec()), Report::default()))
    }

    fn to_model(&self, _: &ModelOptions) -> Result<Modelled, FormatError> {
        let (model, report) = self.file.to_model(&self.beside)?;
        Ok(Modelled::of(model, report))
    }

    fn as_any(&self) -> &dyn Any {
        &self.file
    }
}
