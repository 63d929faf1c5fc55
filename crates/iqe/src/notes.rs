//! Warnings gathered while reading, with the byte span each one is about. Line numbers are
//! added once at the end in a single pass, so thousands of warnings stay cheap.

use crate::error::Error;
use rigport_model_core::diagnostic::Span;
use rigport_model_core::{ReadOptions, Report};

/// One pending warning.
struct Note {
    code: &'static str,
    span: Option<Span>,
    message: String,
}

/// Warnings of one read, in the order they arose.
#[derive(Default)]
pub(crate) struct Notes {
    notes: Vec<Note>,
}

impl Notes {
    /// Records a warning about `span`.
    pub fn warn(&mut self, code: &'static str, span: Option<Span>, message: impl Into<String>) {
        self.notes.push(Note {
            code,
            span,
            message: message.into(),
        });
    }

    /// In strict mode the first warning becomes an error.
    pub fn flush_strict(&mut self, options: &ReadOptions) -> Result<(), Error> {
        match self.notes.first() {
            Some(note) if options.strict => Err(Error::Strict {
                span: note.span.clone(),
                message: note.message.clone(),
            }),
            _ => Ok(()),
        }
    }

    /// The warnings as a report, each prefixed with `line N:` when it has a place.
    pub fn into_report(self, src: &[u8]) -> Report {
        let mut order: Vec<usize> = (0..self.notes.len()).collect();
        order.sort_by_key(|&i| self.notes[i].span.as_ref().map_or(0, |s| s.start));
        let mut lines = vec![0usize; self.notes.len()];
        let (mut offset, mut line) = (0usize, 1usize);
        for &i in &order {
            if let Some(span) = &self.notes[i].span {
                let target = span.start.min(src.len());
                line += src[offset..target].iter().filter(|&&b| b == b'\n').count();
                offset = target;
                lines[i] = line;
            }
        }
        let mut report = Report::default();
        for (note, line) in self.notes.into_iter().zip(lines) {
            match note.span {
                Some(_) => report.warn(note.code, format!("line {line}: {}", note.message)),
                None => report.warn(note.code, note.message),
            }
        }
        report
    }
}
