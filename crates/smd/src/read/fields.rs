//! Lines and their fields: where a line starts and ends, blanks and comments, and the
//! numbers and names a line holds, with the warnings a field can raise.

use crate::error::{Detail, Error};
use rigport_model_core::diagnostic::excerpt;
use rigport_model_core::number::{parse_f32 as parse_float, parse_i32 as parse_int};
use std::ops::Range;

/// Whether a byte separates fields (`\r` too: a CR before the LF is a blank).
#[inline]
pub(super) fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c')
}

/// Whether a field or line starts a comment: `//`, `#` or `;`.
#[inline]
pub(super) fn starts_comment(text: &[u8]) -> bool {
    text.starts_with(b"//") || text.starts_with(b"#") || text.starts_with(b";")
}

pub(crate) fn trim(text: &[u8]) -> &[u8] {
    let start = text
        .iter()
        .position(|&b| !is_blank(b))
        .unwrap_or(text.len());
    let end = text
        .iter()
        .rposition(|&b| !is_blank(b))
        .map_or(start, |p| p + 1);
    &text[start..end.max(start)]
}

/// One line of the input.
#[derive(Clone, Copy)]
pub(super) struct Line<'a> {
    /// Line number, from 1.
    pub(super) number: usize,
    /// Offset of the line's first byte in the input.
    pub(super) start: usize,
    /// The line without its `\n`.
    pub(super) text: &'a [u8],
}

impl<'a> Line<'a> {
    /// The span of the trimmed text (the line start for a blank line).
    pub(super) fn trimmed_span(&self) -> Range<usize> {
        let start = self
            .text
            .iter()
            .position(|&b| !is_blank(b))
            .unwrap_or(self.text.len());
        let len = trim(self.text).len();
        self.start + start..self.start + start + len
    }

    pub(super) fn fields(&self) -> Fields<'a> {
        Fields {
            text: self.text,
            base: self.start,
            pos: 0,
        }
    }
}

/// The fields of one line, left to right.
#[derive(Clone)]
pub(super) struct Fields<'a> {
    pub(super) text: &'a [u8],
    pub(super) base: usize,
    pub(super) pos: usize,
}

impl<'a> Fields<'a> {
    pub(super) fn skip_blanks(&mut self) {
        while self.pos < self.text.len() && is_blank(self.text[self.pos]) {
            self.pos += 1;
        }
    }

    /// The next field and its span, or `None` at the end of the line or a comment.
    pub(super) fn token(&mut self) -> Option<(&'a [u8], Range<usize>)> {
        self.skip_blanks();
        let rest = &self.text[self.pos..];
        if rest.is_empty() || starts_comment(rest) {
            return None;
        }
        let start = self.pos;
        while self.pos < self.text.len() && !is_blank(self.text[self.pos]) {
            self.pos += 1;
        }
        Some((
            &self.text[start..self.pos],
            self.base + start..self.base + self.pos,
        ))
    }

    pub(super) fn end_span(&self) -> Range<usize> {
        let end = self.base + trim_end_len(self.text);
        end..end
    }

    pub(super) fn require(
        &mut self,
        expected: &'static str,
    ) -> Result<(&'a [u8], Range<usize>), Error> {
        self.token()
            .ok_or_else(|| Error::at(self.end_span(), Detail::ShortLine { expected }))
    }

    pub(super) fn int(&mut self, expected: &'static str) -> Result<i32, Error> {
        let (token, span) = self.require(expected)?;
        parse_int(token).ok_or_else(|| {
            Error::at(
                span,
                Detail::BadNumber {
                    expected,
                    found: excerpt(token, 40),
                },
            )
        })
    }

    pub(super) fn float(&mut self, expected: &'static str) -> Result<f32, Error> {
        let (token, span) = self.require(expected)?;
        parse_float(token).ok_or_else(|| {
            Error::at(
                span,
                Detail::BadNumber {
                    expected,
                    found: excerpt(token, 40),
                },
            )
        })
    }

    pub(super) fn floats<const N: usize>(
        &mut self,
        expected: &'static str,
    ) -> Result<[f32; N], Error> {
        let mut out = [0.0; N];
        for value in &mut out {
            *value = self.float(expected)?;
        }
        Ok(out)
    }

    /// A quoted name (the bytes between the quotes) or a bare word.
    pub(super) fn name(&mut self) -> Result<(Vec<u8>, bool), Error> {
        self.skip_blanks();
        if self.text.get(self.pos) == Some(&b'"') {
            let open = self.pos;
            let close = self.text[open + 1..]
                .iter()
                .position(|&b| b == b'"')
                .ok_or(Error::at(
                    self.base + open..self.base + trim_end_len(self.text),
                    Detail::UnterminatedQuote,
                ))?;
            self.pos = open + 1 + close + 1;
            return Ok((self.text[open + 1..open + 1 + close].to_vec(), true));
        }
        let (token, _) = self.require("a bone name")?;
        Ok((token.to_vec(), false))
    }

    /// Whether fields are left (not counting a comment).
    pub(super) fn more(&mut self) -> bool {
        self.skip_blanks();
        let rest = &self.text[self.pos..];
        !rest.is_empty() && !starts_comment(rest)
    }

    /// The end of the line: nothing, or a comment (returned without surrounding blanks).
    pub(super) fn finish(mut self) -> Result<Option<Vec<u8>>, Error> {
        self.skip_blanks();
        let rest = trim(&self.text[self.pos..]);
        if rest.is_empty() {
            return Ok(None);
        }
        if starts_comment(rest) {
            return Ok(Some(rest.to_vec()));
        }
        let (token, span) = self.token().unwrap_or((rest, self.end_span()));
        Err(Error::at(
            span,
            Detail::Unexpected {
                expected: "the end of the line",
                found: excerpt(token, 40),
            },
        ))
    }
}

pub(super) fn trim_end_len(text: &[u8]) -> usize {
    text.iter()
        .rposition(|&b| !is_blank(b))
        .map_or(0, |p| p + 1)
}

/// The lines of the input.
pub(super) struct Lines<'a> {
    pub(super) src: &'a [u8],
    pub(super) pos: usize,
    pub(super) number: usize,
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        if self.pos >= self.src.len() {
            return None;
        }
        let start = self.pos;
        let end = self.src[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(self.src.len(), |p| start + p);
        self.pos = end + 1;
        self.number += 1;
        Some(Line {
            number: self.number,
            start,
            text: &self.src[start..end],
        })
    }
}
