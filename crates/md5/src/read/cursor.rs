//! The tokens of one line, read left to right, and how a token reads in a message.

use crate::error::{Detail, Error};
use crate::lex::{Token, TokenKind};
use rigport_model_core::diagnostic::{Span, excerpt};
use rigport_model_core::number::{parse_f64, parse_i64};

/// How a token reads in a message.
pub(super) fn describe(src: &[u8], token: &Token) -> String {
    match token.kind {
        TokenKind::Word => format!("`{}`", excerpt(&src[token.text.clone()], 40)),
        TokenKind::Str => format!("string \"{}\"", excerpt(&src[token.text.clone()], 40)),
        TokenKind::Unterminated => "a string without its closing quote".to_owned(),
        TokenKind::Open => "`(`".to_owned(),
        TokenKind::Close => "`)`".to_owned(),
        TokenKind::OpenBrace => "`{`".to_owned(),
        TokenKind::CloseBrace => "`}`".to_owned(),
    }
}

/// The tokens of one line, read left to right.
pub(super) struct Cursor<'a> {
    pub(super) src: &'a [u8],
    pub(super) tokens: &'a [Token],
    pub(super) at: usize,
    pub(super) line_end: usize,
}

impl<'a> Cursor<'a> {
    pub(super) fn next(&mut self, expected: &'static str) -> Result<&'a Token, Error> {
        match self.tokens.get(self.at) {
            Some(token) => {
                self.at += 1;
                Ok(token)
            }
            None => Err(Error::at(
                self.line_end..self.line_end,
                Detail::Unexpected {
                    expected,
                    found: "the end of the line".to_owned(),
                },
            )),
        }
    }

    pub(super) fn unexpected(&self, token: &Token, expected: &'static str) -> Error {
        Error::at(
            token.span.clone(),
            Detail::Unexpected {
                expected,
                found: describe(self.src, token),
            },
        )
    }

    pub(super) fn word(&mut self, expected: &'static str) -> Result<(&'a [u8], Span), Error> {
        let token = self.next(expected)?;
        if token.kind != TokenKind::Word {
            return Err(self.unexpected(token, expected));
        }
        Ok((&self.src[token.text.clone()], token.span.clone()))
    }

    pub(super) fn int_at(&mut self, expected: &'static str) -> Result<(i64, Span), Error> {
        let (text, span) = self.word(expected)?;
        match parse_i64(text) {
            Some(value) => Ok((value, span)),
            None => Err(Error::at(
                span,
                Detail::BadNumber {
                    expected,
                    found: excerpt(text, 40),
                },
            )),
        }
    }

    pub(super) fn int(&mut self, expected: &'static str) -> Result<i64, Error> {
        self.int_at(expected).map(|(v, _)| v)
    }

    pub(super) fn float(&mut self, expected: &'static str) -> Result<f64, Error> {
        let (text, span) = self.word(expected)?;
        match parse_f64(text) {
            Some(value) if value.is_finite() => Ok(value),
            _ => Err(Error::at(
                span,
                Detail::BadNumber {
                    expected,
                    found: excerpt(text, 40),
                },
            )),
        }
    }

    /// A quoted string (an unquoted word is taken too).
    pub(super) fn string(&mut self, expected: &'static str) -> Result<Vec<u8>, Error> {
        let token = self.next(expected)?;
        match token.kind {
            TokenKind::Str | TokenKind::Word => Ok(self.src[token.text.clone()].to_vec()),
            TokenKind::Unterminated => Err(Error::at(
                token.span.clone(),
                Detail::Unexpected {
                    expected: "a closing quote `\"` on the same line",
                    found: describe(self.src, token),
                },
            )),
            _ => Err(self.unexpected(token, expected)),
        }
    }

    pub(super) fn punct(&mut self, kind: TokenKind, expected: &'static str) -> Result<(), Error> {
        let token = self.next(expected)?;
        if token.kind != kind {
            return Err(self.unexpected(token, expected));
        }
        Ok(())
    }

    pub(super) fn vec3(&mut self) -> Result<[f64; 3], Error> {
        self.punct(TokenKind::Open, "`(`")?;
        let v = [
            self.float("a number")?,
            self.float("a number")?,
            self.float("a number")?,
        ];
        self.punct(TokenKind::Close, "`)`")?;
        Ok(v)
    }

    pub(super) fn end(&self) -> Result<(), Error> {
        match self.tokens.get(self.at) {
            None => Ok(()),
            Some(token) => Err(self.unexpected(token, "the end of the line")),
        }
    }
}
