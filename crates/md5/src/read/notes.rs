//! Warnings of one read, gathered per code, and what a strict read makes of them.

use crate::error::Error;
use rigport_model_core::diagnostic::{Span, line_col};
use rigport_model_core::{Report, codes};

/// Report code: a count line (`numverts`, `numJoints`…) disagrees with the records.
pub(crate) const COUNT_MISMATCH: rigport_model_core::Code = codes::COUNT_MISMATCH;

/// Warnings of one read, one entry per code: the first place and message, and how many more.
pub(crate) struct Notes {
    strict: bool,
    entries: Vec<(rigport_model_core::Code, Span, String, usize)>,
}

impl Notes {
    pub(crate) fn new(strict: bool) -> Self {
        Self {
            strict,
            entries: Vec::new(),
        }
    }

    /// A warning at `span`; in a strict read, the error it becomes.
    pub(crate) fn warn(
        &mut self,
        code: rigport_model_core::Code,
        span: Span,
        message: impl FnOnce() -> String,
    ) -> Result<(), Error> {
        if self.strict {
            return Err(Error::strict(span, message()));
        }
        match self.entries.iter_mut().find(|e| e.0 == code) {
            Some(entry) => entry.3 += 1,
            None => self.entries.push((code, span, message(), 0)),
        }
        Ok(())
    }

    /// Adds the warnings of the lines read after these, as if one reader had met them.
    #[cfg(feature = "parallel")]
    pub(crate) fn append(&mut self, later: Notes) {
        for (code, span, message, more) in later.entries {
            match self.entries.iter_mut().find(|e| e.0 == code) {
                Some(entry) => entry.3 += more + 1,
                None => self.entries.push((code, span, message, more)),
            }
        }
    }

    pub(crate) fn into_report(self, src: &[u8]) -> Report {
        let mut report = Report::default();
        for (code, span, message, more) in self.entries {
            let (line, _) = line_col(src, span.start);
            let tail = match more {
                0 => String::new(),
                1 => " (and 1 more like it)".to_owned(),
                n => format!(" (and {n} more like it)"),
            };
            report.warn(code, format!("line {line}: {message}{tail}"));
        }
        report
    }
}
