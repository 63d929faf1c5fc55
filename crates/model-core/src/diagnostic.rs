//! Locations in text input and naga-style rendering of errors.
//!
//! Text readers record a byte [`Span`]; line and column are computed only when an error is
//! shown, so the happy path never counts lines.

use std::fmt::Write as _;
use std::ops::Range;

/// A byte range in the input.
pub type Span = Range<usize>;

/// Longest excerpt of a line that is shown; hostile inputs have megabyte-long lines.
const MAX_SHOWN: usize = 120;

/// 1-based line and column (in bytes) of a byte offset. Offsets past the end are clamped.
pub fn line_col(src: &[u8], offset: usize) -> (usize, usize) {
    let offset = offset.min(src.len());
    let before = &src[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    (line, offset - line_start + 1)
}

/// The byte offset of 1-based `line` and `column` (in bytes) in `src`: the inverse of
/// [`line_col`], clamped to the line's end and the input's end.
pub fn offset_of(src: &[u8], line: usize, column: usize) -> usize {
    let start = if line <= 1 {
        0
    } else {
        src.iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .nth(line - 2)
            .map_or(src.len(), |(at, _)| at + 1)
    };
    let end = src[start..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(src.len(), |p| start + p);
    (start + column.saturating_sub(1)).min(end)
}

/// The text of the line holding `offset`, without its line ending.
fn line_at(src: &[u8], offset: usize) -> (usize, &[u8]) {
    let offset = offset.min(src.len());
    let start = src[..offset]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let end = src[offset..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(src.len(), |p| offset + p);
    let mut line = &src[start..end];
    if let [rest @ .., b'\r'] = line {
        line = rest;
    }
    (start, line)
}

/// Shortens a message or token for display, keeping it on one line.
pub fn excerpt(bytes: &[u8], max: usize) -> String {
    let mut out: String = String::from_utf8_lossy(&bytes[..bytes.len().min(max)])
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if bytes.len() > max {
        out.push('…');
    }
    out
}

/// Renders an error at `span` the way compilers do:
///
/// ```text
/// error: expected a number, found `abc`
///  --> 3:5
///   |
/// 3 | 12 abc 0
///   |    ^^^
/// ```
pub fn render(src: &[u8], span: Span, message: &str) -> String {
    // A span past the end (a reader's bug or a hostile count) must not pad the caret line
    // with millions of spaces.
    let span = span.start.min(src.len())..span.end.min(src.len()).max(span.start.min(src.len()));
    let (line_no, col) = line_col(src, span.start);
    let (line_start, line) = line_at(src, span.start);
    let gutter = line_no.to_string().len();
    let col0 = span.start.saturating_sub(line_start);
    // Show a window of the line around the error so long lines stay readable.
    let window_start = col0.saturating_sub(MAX_SHOWN / 2).min(line.len());
    let shown = &line[window_start..line.len().min(window_start + MAX_SHOWN)];
    let caret_at = col0 - window_start;
    let caret_len = span
        .end
        .saturating_sub(span.start)
        .clamp(1, shown.len().saturating_sub(caret_at).max(1));
    let mut out = String::new();
    let _ = writeln!(out, "error: {message}");
    let _ = writeln!(out, "{:gutter$}--> {line_no}:{col}", "");
    let _ = writeln!(out, "{:gutter$} |", "");
    let _ = writeln!(out, "{line_no} | {}", excerpt(shown, MAX_SHOWN));
    let _ = write!(
        out,
        "{:gutter$} | {:caret_at$}{}",
        "",
        "",
        "^".repeat(caret_len)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_are_one_based_and_count_crlf_lines() {
        let src = b"ab\r\ncd\nef";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 4), (2, 1));
        assert_eq!(line_col(src, 8), (3, 2));
        assert_eq!(line_col(src, 999), (3, 3));
    }

    #[test]
    fn offsets_come_back_from_line_and_column() {
        let src = b"ab\r\ncd\nef";
        for offset in [0, 1, 4, 5, 7, 8] {
            let (line, column) = line_col(src, offset);
            assert_eq!(offset_of(src, line, column), offset);
        }
        assert_eq!(offset_of(src, 2, 99), 6, "clamped to the line's end");
        assert_eq!(offset_of(src, 9, 1), src.len(), "past the last line");
    }

    #[test]
    fn render_points_at_the_span() {
        let src = b"first\r\n12 abc 0\r\n";
        let text = render(src, 10..13, "expected a number, found `abc`");
        assert_eq!(
            text,
            "error: expected a number, found `abc`\n --> 2:4\n  |\n2 | 12 abc 0\n  |    ^^^"
        );
    }

    #[test]
    fn render_survives_spans_past_the_end_and_huge_lines() {
        let long = vec![b'x'; 10_000];
        let text = render(&long, 9_000..20_000, "too long");
        assert!(text.lines().all(|l| l.chars().count() < 200), "{text}");
        let text = render(b"", 5..9, "empty");
        assert!(text.contains("1:1"));
    }
}
