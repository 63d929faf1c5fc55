//! Warnings gathered while reading, with the place each one is about. Line numbers are
//! added once at the end in a single pass, so thousands of warnings stay cheap.

use crate::error::Error;
use crate::lines::command_spans;
use rigport_model_core::diagnostic::Span;
use rigport_model_core::{At, ReadOptions, Report};

/// What a warning is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// The file as a whole.
    Nowhere,
    /// A byte range of the input.
    Span(Span),
    /// The command with this number; its span is found in [`Notes::locate_commands`].
    Command(usize),
}

/// One pending warning.
struct Note {
    code: rigport_model_core::Code,
    place: Place,
    message: String,
}

impl Note {
    fn span(&self) -> Option<Span> {
        match &self.place {
            Place::Span(span) => Some(span.clone()),
            Place::Nowhere | Place::Command(_) => None,
        }
    }
}

/// Warnings of one read, in the order they arose.
#[derive(Default)]
pub(crate) struct Notes {
    notes: Vec<Note>,
}

impl Notes {
    /// Records a warning about `span`.
    pub fn warn(
        &mut self,
        code: rigport_model_core::Code,
        span: Option<Span>,
        message: impl Into<String>,
    ) {
        let place = span.map_or(Place::Nowhere, Place::Span);
        self.warn_at(code, place, message);
    }

    /// Records a warning about `place`.
    pub fn warn_at(
        &mut self,
        code: rigport_model_core::Code,
        place: Place,
        message: impl Into<String>,
    ) {
        self.notes.push(Note {
            code,
            place,
            message: message.into(),
        });
    }

    /// Appends the warnings of `later`, which arose after these (the next chunk of a file
    /// read on several threads).
    #[cfg_attr(not(feature = "parallel"), allow(dead_code))]
    pub fn append(&mut self, later: Notes) {
        self.notes.extend(later.notes);
    }

    /// Turns every command place into the span of that command's line in `src`, in one
    /// walk over the file (commands keep no spans of their own).
    pub fn locate_commands(&mut self, src: &[u8]) {
        let mut wanted: Vec<usize> = self
            .notes
            .iter()
            .filter_map(|n| match n.place {
                Place::Command(i) => Some(i),
                _ => None,
            })
            .collect();
        if wanted.is_empty() {
            return;
        }
        wanted.sort_unstable();
        wanted.dedup();
        let spans = command_spans(src, &wanted);
        for note in &mut self.notes {
            if let Place::Command(i) = note.place {
                let span = wanted
                    .binary_search(&i)
                    .ok()
                    .and_then(|at| spans[at].clone());
                note.place = span.map_or(Place::Nowhere, Place::Span);
            }
        }
    }

    /// In strict mode the first warning becomes an error.
    pub fn flush_strict(&mut self, options: &ReadOptions) -> Result<(), Error> {
        match self.notes.first() {
            Some(note) if options.strict => Err(Error::Strict {
                at: note.span().map(At::Span),
                message: note.message.clone(),
            }),
            _ => Ok(()),
        }
    }

    /// The warnings as a report, each prefixed with `line N:` when it has a place.
    pub fn into_report(self, src: &[u8]) -> Report {
        let spans: Vec<Option<Span>> = self.notes.iter().map(Note::span).collect();
        let mut order: Vec<usize> = (0..self.notes.len()).collect();
        order.sort_by_key(|&i| spans[i].as_ref().map_or(0, |s| s.start));
        let mut lines = vec![0usize; self.notes.len()];
        let (mut offset, mut line) = (0usize, 1usize);
        for &i in &order {
            if let Some(span) = &spans[i] {
                let target = span.start.min(src.len());
                line += src[offset..target].iter().filter(|&&b| b == b'\n').count();
                offset = target;
                lines[i] = line;
            }
        }
        let mut report = Report::default();
        for ((note, line), span) in self.notes.into_iter().zip(lines).zip(spans) {
            match span {
                Some(_) => report.warn(note.code, format!("line {line}: {}", note.message)),
                None => report.warn(note.code, note.message),
            }
        }
        report
    }
}
