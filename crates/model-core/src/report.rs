//! What a read or conversion warned about or could not carry.

use std::fmt;

/// How serious a [`Notice`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Something was adjusted but nothing was lost (e.g. a quaternion was normalized).
    Info,
    /// The input is suspicious or damaged; it was read as well as possible.
    Warning,
    /// Information that the target cannot hold was dropped or changed.
    Loss,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Loss => "loss",
        })
    }
}

/// One entry of a [`Report`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// How serious it is.
    pub severity: Severity,
    /// A stable, kebab-case code for tools (`"weights-truncated"`).
    pub code: &'static str,
    /// A sentence for a person, with counts and locations.
    pub message: String,
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} [{}]", self.severity, self.message, self.code)
    }
}

/// The warnings and losses of one read or conversion, in the order they arose.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// All notices.
    pub notices: Vec<Notice>,
}

impl Report {
    /// Adds a notice.
    pub fn push(&mut self, severity: Severity, code: &'static str, message: impl Into<String>) {
        self.notices.push(Notice {
            severity,
            code,
            message: message.into(),
        });
    }

    /// Adds an [`Severity::Info`] notice.
    pub fn info(&mut self, code: &'static str, message: impl Into<String>) {
        self.push(Severity::Info, code, message);
    }

    /// Adds a [`Severity::Warning`] notice.
    pub fn warn(&mut self, code: &'static str, message: impl Into<String>) {
        self.push(Severity::Warning, code, message);
    }

    /// Adds a [`Severity::Loss`] notice.
    pub fn loss(&mut self, code: &'static str, message: impl Into<String>) {
        self.push(Severity::Loss, code, message);
    }

    /// Appends every notice of another report.
    pub fn extend(&mut self, other: Report) {
        self.notices.extend(other.notices);
    }

    /// Number of notices of one severity.
    pub fn count(&self, severity: Severity) -> usize {
        self.notices
            .iter()
            .filter(|n| n.severity == severity)
            .count()
    }

    /// Whether there is nothing to report.
    pub fn is_empty(&self) -> bool {
        self.notices.is_empty()
    }

    /// Notices with a given code.
    pub fn with_code<'a>(&'a self, code: &'a str) -> impl Iterator<Item = &'a Notice> + 'a {
        self.notices.iter().filter(move |n| n.code == code)
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for notice in &self.notices {
            writeln!(f, "{notice}")?;
        }
        Ok(())
    }
}
