//! The lines of an IQE file as commands: where the header is, and which line is the `n`th
//! command. Both the parser and the warnings (which find a command's line only when one is
//! shown) walk the file through here, so they count commands the same way.

use crate::lexer::{Lexeme, Token, for_each_line, token_text};
use rigport_model_core::diagnostic::Span;
use std::ops::Range;

/// The header every IQE file starts with.
pub(crate) const HEADER: &[u8] = b"# Inter-Quake Export";
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Where the header starts: after an optional byte-order mark and spaces or tabs (iqm.cpp
/// accepts anything before the `#`; real files have leading spaces).
pub(crate) fn header_start(bytes: &[u8]) -> usize {
    let after_bom = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    let rest = bytes.get(after_bom..).unwrap_or_default();
    after_bom
        + rest
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count()
}

/// Where the first line (the header) ends, and where the commands start.
pub(crate) fn header_line(src: &[u8]) -> (usize, usize) {
    let start = header_start(src);
    let line_end = src[start..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(src.len(), |p| start + p);
    (line_end, (line_end + 1).min(src.len()))
}

/// One line split the way the parser sees it.
pub(crate) struct Line<'l> {
    /// The command part (empty for a blank or comment-only line).
    pub code: &'l [Lexeme],
    /// A `#` comment ending the line: a command of its own.
    pub comment: Option<&'l Lexeme>,
    /// Offset just past the line's newline.
    pub next_line: usize,
}

impl<'l> Line<'l> {
    /// The line of these lexemes (not empty), whose newline ends at `next_line`.
    pub fn new(lexemes: &'l [Lexeme], next_line: usize) -> Self {
        let (code, comment) = split_trailing_comment(lexemes);
        Line {
            code,
            comment,
            next_line,
        }
    }

    /// Whether this is the `comment` command: the rest of the file is its verbatim text.
    pub fn starts_comment_section(&self, src: &[u8]) -> bool {
        self.code
            .first()
            .is_some_and(|first| first.token == Token::Word && token_text(src, first) == b"comment")
    }

    /// The span of the command part.
    pub fn code_span(&self) -> Option<Span> {
        Some(self.code.first()?.span.start..self.code.last()?.span.end)
    }
}

/// Calls `each` with every line of commands after the header, up to the `comment` section.
/// The parser and [`command_spans`] walk lines through this one function, so the `n`th
/// command they count is the same.
pub(crate) fn for_each_command_line<E>(
    src: &[u8],
    each: impl FnMut(&Line<'_>) -> Result<bool, E>,
) -> Result<(), E> {
    let (_, body) = header_line(src);
    for_each_command_line_in(src, body..src.len(), each)
}

/// [`for_each_command_line`] over the lines of `range` only: `range` must start a line
/// (the body's start or just after a newline) and end at a newline or the end of the file,
/// so each line is seen whole, with the spans a walk of the whole file gives it.
pub(crate) fn for_each_command_line_in<E>(
    src: &[u8],
    range: Range<usize>,
    mut each: impl FnMut(&Line<'_>) -> Result<bool, E>,
) -> Result<(), E> {
    for_each_line(src, range, |lexemes, next_line| {
        each(&Line::new(lexemes, next_line))
    })
}

/// The spans of the commands numbered in `wanted` (sorted), found by walking the lines
/// again: commands keep no span (a span per line would cost more memory than the line's
/// numbers), so a place is worked out only for the few commands a message is about.
pub(crate) fn command_spans(src: &[u8], wanted: &[usize]) -> Vec<Option<Span>> {
    let mut spans = vec![None; wanted.len()];
    let (mut command, mut next) = (0usize, 0usize);
    let mut record = |span: Span, spans: &mut Vec<Option<Span>>| {
        while next < wanted.len() && wanted[next] == command {
            spans[next] = Some(span.clone());
            next += 1;
        }
        command += 1;
        next < wanted.len()
    };
    let _ = for_each_command_line::<()>(src, |line| {
        if line.starts_comment_section(src) {
            return Ok(false);
        }
        let mut more = true;
        if let Some(span) = line.code_span() {
            more = record(span, &mut spans);
        }
        if let Some(comment) = line.comment {
            more = record(comment.span.clone(), &mut spans);
        }
        Ok(more)
    });
    spans
}

/// Splits a line into its code and a `#` comment that ends it.
fn split_trailing_comment(lexemes: &[Lexeme]) -> (&[Lexeme], Option<&Lexeme>) {
    match lexemes.iter().position(|l| l.token == Token::Comment) {
        Some(at) => (&lexemes[..at], lexemes.get(at)),
        None => (lexemes, None),
    }
}
