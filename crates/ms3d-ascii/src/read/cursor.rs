//! A token cursor with one token of look-ahead and typed field readers.

use crate::lexer::Token;
use crate::{Detail, Error};
use logos::{Lexer, Logos};
use rigport_model_core::Budget;
use rigport_model_core::diagnostic::excerpt;
use rigport_model_core::number::{parse_f32, parse_i32};
use std::ops::Range;

/// Longest token text quoted in an error message.
const SHOWN: usize = 40;

type Lexed = (Result<Token, ()>, Range<usize>);

/// Walks the tokens of one input.
pub(crate) struct Cursor<'a> {
    src: &'a [u8],
    lexer: Lexer<'a, Token>,
    peeked: Option<Lexed>,
    /// What the read may still allocate.
    pub(crate) budget: Budget,
}

impl<'a> Cursor<'a> {
    /// A cursor at byte `start` of `src`.
    pub(crate) fn new(src: &'a [u8], start: usize, budget: Budget) -> Self {
        let mut lexer = Token::lexer(src);
        lexer.bump(start.min(src.len()));
        Self {
            src,
            lexer,
            peeked: None,
            budget,
        }
    }

    /// The whole input.
    pub(crate) fn src(&self) -> &'a [u8] {
        self.src
    }

    fn advance(&mut self) -> Option<Lexed> {
        if let Some(token) = self.peeked.take() {
            return Some(token);
        }
        let token = self.lexer.next()?;
        Some((token, self.lexer.span()))
    }

    fn peek(&mut self) -> Option<&Lexed> {
        if self.peeked.is_none() {
            self.peeked = self.advance();
        }
        self.peeked.as_ref()
    }

    /// Byte offset of the next unread token (or of the end of the last one read).
    pub(crate) fn pos(&self) -> usize {
        match &self.peeked {
            Some((_, span)) => span.start,
            None => self.lexer.span().end,
        }
    }

    /// Skips blank and comment-only lines. Returns whether any token is left.
    pub(crate) fn skip_newlines(&mut self) -> bool {
        while let Some((Ok(Token::Newline), _)) = self.peek() {
            self.peeked = None;
        }
        self.peek().is_some()
    }

    /// The next token, which must exist and be lexable.
    pub(crate) fn token(&mut self, expected: &'static str) -> Result<(Token, Range<usize>), Error> {
        match self.advance() {
            Some((Ok(token), span)) => Ok((token, span)),
            Some((Err(()), span)) => Err(self.lex_error(span)),
            None => Err(Error::at(
                self.src.len()..self.src.len(),
                Detail::UnexpectedEof { expected },
            )),
        }
    }

    fn lex_error(&self, span: Range<usize>) -> Error {
        // Show the whole word the bad byte starts (`oops`, not `o`).
        let rest = self.src.get(span.start..).unwrap_or_default();
        let word = rest
            .iter()
            .position(|b| b.is_ascii_whitespace())
            .unwrap_or(rest.len());
        let len = word.max(span.len()).min(rest.len());
        let text = crate::lexer::trim_end(&rest[..len]);
        let span = span.start..span.start + text.len().max(1).min(rest.len());
        let found = if text.first() == Some(&b'"') {
            format!(
                "`{}` (a string without its closing quote)",
                excerpt(text, SHOWN)
            )
        } else {
            format!("`{}`", excerpt(text, SHOWN))
        };
        Error::at(span, Detail::Lex { found })
    }

    /// A description of a token for "found …" messages.
    fn describe(&self, token: Token, span: &Range<usize>) -> String {
        match token {
            Token::Newline => "end of line".to_owned(),
            _ => format!(
                "`{}`",
                excerpt(self.src.get(span.clone()).unwrap_or_default(), SHOWN)
            ),
        }
    }

    /// The next token, which must be `want`.
    fn expect(&mut self, want: Token, expected: &'static str) -> Result<Range<usize>, Error> {
        let (token, span) = self.token(expected)?;
        if token == want {
            Ok(span)
        } else {
            let found = self.describe(token, &span);
            Err(Error::at(span, Detail::Unexpected { expected, found }))
        }
    }

    /// The end of the current line (or of the input).
    pub(crate) fn end_line(&mut self) -> Result<(), Error> {
        match self.advance() {
            None | Some((Ok(Token::Newline), _)) => Ok(()),
            Some((Ok(token), span)) => {
                let found = self.describe(token, &span);
                let expected = "end of line";
                Err(Error::at(span, Detail::Unexpected { expected, found }))
            }
            Some((Err(()), span)) => Err(self.lex_error(span)),
        }
    }

    /// The bytes of a Number token (parsed from the slice: no UTF-8 check, no `String`).
    fn number_text(&mut self, expected: &'static str) -> Result<(&'a [u8], Range<usize>), Error> {
        let span = self.expect(Token::Number, expected)?;
        let text = self.src.get(span.clone()).unwrap_or_default();
        Ok((text, span))
    }

    /// An integer field.
    pub(crate) fn int(&mut self, expected: &'static str) -> Result<(i32, Range<usize>), Error> {
        let (text, span) = self.number_text(expected)?;
        match parse_i32(text) {
            Some(value) => Ok((value, span)),
            None => {
                let found = excerpt(text, SHOWN);
                Err(Error::at(span, Detail::BadNumber { expected, found }))
            }
        }
    }

    /// A floating-point field; values that overflow `f32` are refused.
    pub(crate) fn float(&mut self, expected: &'static str) -> Result<f32, Error> {
        let (text, span) = self.number_text(expected)?;
        match parse_f32(text) {
            Some(value) if value.is_finite() => Ok(value),
            // The number pattern always parses; only the range can be wrong.
            _ => {
                let found = excerpt(text, SHOWN);
                let expected = "a number within the range of f32";
                Err(Error::at(span, Detail::BadNumber { expected, found }))
            }
        }
    }

    /// `N` floating-point fields.
    pub(crate) fn floats<const N: usize>(
        &mut self,
        expected: &'static str,
    ) -> Result<[f32; N], Error> {
        let mut out = [0.0; N];
        for value in &mut out {
            *value = self.float(expected)?;
        }
        Ok(out)
    }

    /// A quoted string's bytes, without the quotes.
    pub(crate) fn string(&mut self, expected: &'static str) -> Result<Vec<u8>, Error> {
        let span = self.expect(Token::Str, expected)?;
        let inner = (span.start + 1)..span.end.saturating_sub(1).max(span.start + 1);
        Ok(self.src.get(inner).unwrap_or_default().to_vec())
    }

    /// A quoted string alone on its line (after any blank lines).
    pub(crate) fn string_line(&mut self, expected: &'static str) -> Result<Vec<u8>, Error> {
        self.skip_newlines();
        let value = self.string(expected)?;
        self.end_line()?;
        Ok(value)
    }

    /// `N` floats alone on their line (after any blank lines).
    pub(crate) fn floats_line<const N: usize>(
        &mut self,
        expected: &'static str,
    ) -> Result<[f32; N], Error> {
        self.skip_newlines();
        let values = self.floats(expected)?;
        self.end_line()?;
        Ok(values)
    }

    /// A count alone on its line, checked before anything is allocated for it: the rest
    /// of the input must be able to hold `count` records of `tokens` tokens (each token at
    /// least one byte plus one separator), and the budget must allow `item_bytes` each.
    pub(crate) fn count(
        &mut self,
        what: &'static str,
        expected: &'static str,
        tokens: u64,
        item_bytes: usize,
    ) -> Result<usize, Error> {
        self.skip_newlines();
        let (value, span) = self.int(expected)?;
        self.end_line()?;
        self.check_count(value, span, what, tokens, item_bytes)
    }

    /// The checks of [`Cursor::count`] for a count already read (block headers).
    pub(crate) fn check_count(
        &mut self,
        value: i32,
        span: Range<usize>,
        what: &'static str,
        tokens: u64,
        item_bytes: usize,
    ) -> Result<usize, Error> {
        let Ok(count) = usize::try_from(value) else {
            let found = value.to_string();
            let expected = "a count of 0 or more";
            return Err(Error::at(span, Detail::BadNumber { expected, found }));
        };
        let count64 = count as u64;
        let needed = count64.saturating_mul(2 * tokens).saturating_sub(1);
        let available = self.src.len().saturating_sub(self.pos()) as u64;
        if needed > available {
            let detail = Detail::CountExceedsInput {
                what,
                count: count64,
                needed,
                available,
            };
            return Err(Error::at(span, detail));
        }
        self.budget
            .reserve(what, count64, item_bytes as u64)
            .map_err(|source| Error::limit(span, source))?;
        Ok(count)
    }

    /// The `len` bytes after the last token read, moving the cursor past them. Used for
    /// the raw lines of unknown blocks.
    pub(crate) fn take_raw(&mut self, len: usize) -> &'a [u8] {
        debug_assert!(self.peeked.is_none(), "raw reads happen without look-ahead");
        let start = self.lexer.span().end;
        let end = start.saturating_add(len).min(self.src.len());
        self.lexer.bump(end - start);
        self.src.get(start..end).unwrap_or_default()
    }

    /// The input after the last token read (no look-ahead may be pending).
    pub(crate) fn remainder(&self) -> &'a [u8] {
        self.lexer.remainder()
    }
}
