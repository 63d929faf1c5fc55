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

/// A report code: kebab-case and stable, for tools to match on. Codes are named constants
/// ([`crate::codes`], and a format crate's own few), never spelt where a notice is written:
/// a typo is a compile error, not a silently unmatched notice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Code(&'static str);

impl Code {
    /// The code spelt `key` (kebab-case), for a list of named constants.
    pub const fn new(key: &'static str) -> Self {
        Code(key)
    }

    /// How the code is spelt (`"weights-truncated"`).
    pub const fn key(self) -> &'static str {
        self.0
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// A code equals its spelling, so tools and tests can compare with text they read.
impl PartialEq<str> for Code {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

/// One entry of a [`Report`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// How serious it is.
    pub severity: Severity,
    /// A stable, kebab-case code for tools (`weights-truncated`).
    pub code: Code,
    /// A sentence for a person, with counts and locations.
    pub message: String,
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} [{}]", self.severity, self.message, self.code)
    }
}

/// Longest [`Notice::message`] a [`Report`] keeps, in bytes (plus the `…` that marks a cut).
pub const MAX_NOTICE_BYTES: usize = 512;

/// The warnings and losses of one read or conversion, in the order they arose.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// All notices.
    pub notices: Vec<Notice>,
}

impl Report {
    /// Adds a notice. A message longer than [`MAX_NOTICE_BYTES`] is cut there (with `…`):
    /// messages quote names from the input, and a hostile file's names can be megabytes.
    pub fn push(&mut self, severity: Severity, code: Code, message: impl Into<String>) {
        let mut message = message.into();
        if message.len() > MAX_NOTICE_BYTES {
            let mut end = MAX_NOTICE_BYTES;
            while !message.is_char_boundary(end) {
                end -= 1;
            }
            message.truncate(end);
            message.push('…');
        }
        self.notices.push(Notice {
            severity,
            code,
            message,
        });
    }

    /// Adds an [`Severity::Info`] notice.
    pub fn info(&mut self, code: Code, message: impl Into<String>) {
        self.push(Severity::Info, code, message);
    }

    /// Adds a [`Severity::Warning`] notice.
    pub fn warn(&mut self, code: Code, message: impl Into<String>) {
        self.push(Severity::Warning, code, message);
    }

    /// Adds a [`Severity::Loss`] notice.
    pub fn loss(&mut self, code: Code, message: impl Into<String>) {
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
    /// (`code`: a [`Code`], or its spelling, as a tool reads it).
    pub fn with_code<C>(&self, code: C) -> impl Iterator<Item = &Notice>
    where
        Code: PartialEq<C>,
    {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_messages_are_cut_at_a_char_boundary() {
        let mut report = Report::default();
        // 'é' is two bytes: 300 of them put byte 512 right after a whole character, and one
        // leading 'x' puts it in the middle of one.
        report.warn(crate::codes::COUNT_MISMATCH, "é".repeat(300));
        report.warn(crate::codes::RESAMPLED, format!("x{}", "é".repeat(300)));
        report.warn(crate::codes::SMOOTHING, "short");
        assert_eq!(report.notices[0].message, format!("{}…", "é".repeat(256)));
        assert_eq!(report.notices[1].message, format!("x{}…", "é".repeat(255)));
        assert_eq!(report.notices[2].message, "short");
    }
}
