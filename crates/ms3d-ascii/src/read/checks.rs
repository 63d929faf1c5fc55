//! Index checks: an out-of-range index is an error when reading strictly, otherwise one
//! warning per kind naming the first offending line and how many there are.
//!
//! Triangle indices are checked as they are read (the mesh's counts come first). Material
//! and bone indices may point into blocks that come later, so the reader only remembers the
//! largest and smallest value seen with their spans and judges them at the end.

use crate::{Detail, Error, File};
use rigport_model_core::Report;
use rigport_model_core::codes;
use rigport_model_core::diagnostic::line_col;
use std::ops::Range;

/// The first bad index of one kind and how many there were.
struct Finding {
    what: &'static str,
    index: i64,
    len: usize,
    span: Range<usize>,
    count: u64,
}

/// Extreme values of an index that is judged at the end.
#[derive(Default)]
struct Extremes {
    max: Option<(i32, Range<usize>)>,
    min: Option<(i32, Range<usize>)>,
}

impl Extremes {
    /// The extremes of values seen after these, as if seen one by one.
    #[cfg(feature = "parallel")]
    fn append(&mut self, later: Extremes) {
        for (value, span) in later.max.into_iter().chain(later.min) {
            self.see(value, span);
        }
    }

    fn see(&mut self, value: i32, span: Range<usize>) {
        if self.max.as_ref().is_none_or(|(v, _)| value > *v) {
            self.max = Some((value, span.clone()));
        }
        if self.min.as_ref().is_none_or(|(v, _)| value < *v) {
            self.min = Some((value, span));
        }
    }

    /// The worst value outside `-1..len`, if any.
    fn offender(&self, len: usize) -> Option<(i32, Range<usize>)> {
        let too_big = self
            .max
            .clone()
            .filter(|(v, _)| usize::try_from(*v).is_ok_and(|v| v >= len));
        too_big.or_else(|| self.min.clone().filter(|(v, _)| *v < -1))
    }
}

/// Collects index problems during one read.
pub(crate) struct Checks {
    strict: bool,
    findings: Vec<Finding>,
    materials: Extremes,
    bones: Extremes,
}

/// Whether `index` selects one of `len` elements, with −1 meaning "none" when allowed.
fn in_range(index: i32, len: usize, none_allowed: bool) -> bool {
    (none_allowed && index == -1) || usize::try_from(index).is_ok_and(|i| i < len)
}

impl Checks {
    pub(crate) fn new(strict: bool) -> Self {
        Self {
            strict,
            findings: Vec::new(),
            materials: Extremes::default(),
            bones: Extremes::default(),
        }
    }

    /// Whether a finding is an error.
    #[cfg(feature = "parallel")]
    pub(crate) fn strict(&self) -> bool {
        self.strict
    }

    /// Checks an index into something whose length is already known.
    pub(crate) fn local(
        &mut self,
        what: &'static str,
        index: i32,
        len: usize,
        span: Range<usize>,
    ) -> Result<(), Error> {
        if in_range(index, len, false) {
            return Ok(());
        }
        self.found(what, i64::from(index), len, span, 1)
    }

    fn found(
        &mut self,
        what: &'static str,
        index: i64,
        len: usize,
        span: Range<usize>,
        count: u64,
    ) -> Result<(), Error> {
        if self.strict {
            let detail = Detail::IndexOutOfRange { what, index, len };
            return Err(Error::at(span, detail));
        }
        match self.findings.iter_mut().find(|f| f.what == what) {
            Some(finding) => finding.count += count,
            None => self.findings.push(Finding {
                what,
                index,
                len,
                span,
                count,
            }),
        }
        Ok(())
    }

    /// Adds the findings of the records read after these, as if read one by one.
    #[cfg(feature = "parallel")]
    pub(crate) fn append(&mut self, later: Checks) {
        for finding in later.findings {
            match self.findings.iter_mut().find(|f| f.what == finding.what) {
                Some(first) => first.count += finding.count,
                None => self.findings.push(finding),
            }
        }
        self.materials.append(later.materials);
        self.bones.append(later.bones);
    }

    /// Remembers a mesh's material index.
    pub(crate) fn material(&mut self, index: i32, span: Range<usize>) {
        self.materials.see(index, span);
    }

    /// Remembers a vertex's bone index.
    pub(crate) fn bone(&mut self, index: i32, span: Range<usize>) {
        self.bones.see(index, span);
    }

    /// Judges the remembered indices against the file and turns findings into warnings.
    pub(crate) fn finish(
        mut self,
        file: &File,
        src: &[u8],
        report: &mut Report,
    ) -> Result<(), Error> {
        let materials = file.materials().len();
        if let Some((index, span)) = self.materials.offender(materials) {
            let count = file
                .meshes()
                .iter()
                .filter(|m| !in_range(m.material, materials, true))
                .count() as u64;
            if count > 0 {
                self.found("material index", i64::from(index), materials, span, count)?;
            }
        }
        let bones = file.bones().len();
        if let Some((index, span)) = self.bones.offender(bones) {
            let count = file
                .meshes()
                .iter()
                .flat_map(|m| &m.vertices)
                .filter(|v| !in_range(v.bone, bones, true))
                .count() as u64;
            if count > 0 {
                self.found("bone index", i64::from(index), bones, span, count)?;
            }
        }
        for f in &self.findings {
            let (line, col) = line_col(src, f.span.start);
            let more = if f.count > 1 {
                format!("; {} such indices in all", f.count)
            } else {
                String::new()
            };
            report.warn(
                codes::INDEX_OUT_OF_RANGE,
                format!(
                    "{line}:{col}: {} {} out of range ({} available){more}",
                    f.what, f.index, f.len
                ),
            );
        }
        Ok(())
    }
}
