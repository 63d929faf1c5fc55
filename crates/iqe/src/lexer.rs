//! The logos lexer: IQE is line oriented, so a newline is a token; everything else on a line
//! is a bare word, a quoted name or a `#` comment running to the end of the line.
//!
//! The lexer works on bytes (`utf8 = false`) so names in any encoding survive untouched.

use logos::Logos;
use std::ops::Range;

/// One token of an IQE line.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(utf8 = false)]
#[logos(skip r"[ \t\r\x0b\x0c]+")]
pub(crate) enum Token {
    /// End of a line.
    #[token("\n")]
    Newline,
    /// `"..."`; the name is everything up to the next quote (IQE has no escapes).
    #[regex(r#"(?-u)"[^"\n]*""#)]
    Quoted,
    /// A quote never closed on its line: the name runs to the end of the line.
    #[regex(r#"(?-u)"[^"\n]*"#)]
    OpenQuote,
    /// `#` to the end of the line.
    #[regex(r"(?-u)#[^\n]*", allow_greedy = true)]
    Comment,
    /// A run of bytes without white space (may contain quotes or `#` after its first byte).
    #[regex(r##"(?-u)[^ \t\r\x0b\x0c\n"#][^ \t\r\x0b\x0c\n]*"##)]
    Word,
}

/// A token with its byte range in the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Lexeme {
    pub token: Token,
    pub span: Range<usize>,
}

/// The bytes a token stands for: the inside of a quoted name, a comment without its `#`
/// and trailing carriage return, or the word itself.
pub(crate) fn token_text<'a>(src: &'a [u8], lexeme: &Lexeme) -> &'a [u8] {
    let raw = src.get(lexeme.span.clone()).unwrap_or_default();
    match lexeme.token {
        Token::Quoted => raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default(),
        Token::OpenQuote => trim_end(raw.get(1..).unwrap_or_default()),
        Token::Comment => trim_end(raw.get(1..).unwrap_or_default()),
        Token::Word | Token::Newline => raw,
    }
}

/// `bytes` without trailing white space (a CR before the LF, spaces).
pub(crate) fn trim_end(bytes: &[u8]) -> &[u8] {
    let end = bytes
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |p| p + 1);
    &bytes[..end]
}

/// Splits `src[range]` into lines of lexemes. Calls `line` with the lexemes of each
/// non-empty line and the offset just past its newline; stops early when `line` returns
/// `false` (the `comment` command takes the rest of the file verbatim). Spans are offsets
/// in the whole of `src`, so a range that starts a line (a chunk read on another thread)
/// gives the same spans as a walk from the start.
pub(crate) fn for_each_line<E>(
    src: &[u8],
    range: Range<usize>,
    mut line: impl FnMut(&[Lexeme], usize) -> Result<bool, E>,
) -> Result<(), E> {
    let end = range.end.min(src.len());
    let mut lexer = LineLexer::default();
    let mut at = range.start;
    while at < end {
        let (lexemes, next) = lexer.line(src, at, end);
        if !lexemes.is_empty() && !line(lexemes, next)? {
            return Ok(());
        }
        at = next;
    }
    Ok(())
}

/// Lexes one line at a time, reusing its buffer of lexemes from line to line.
#[derive(Default)]
pub(crate) struct LineLexer {
    current: Vec<Lexeme>,
}

impl LineLexer {
    /// The lexemes of the line starting at `start` (none for a blank line) and the offset
    /// just past its newline (`end` for a last line without one). Spans are offsets in the
    /// whole of `src`.
    pub fn line(&mut self, src: &[u8], start: usize, end: usize) -> (&[Lexeme], usize) {
        self.current.clear();
        let rest = src.get(start..end).unwrap_or_default();
        let mut lexer = Token::lexer(rest);
        while let Some(result) = lexer.next() {
            let span = lexer.span().start + start..lexer.span().end + start;
            // Every byte matches some pattern, so an error cannot happen; treat one as a word.
            let token = result.unwrap_or(Token::Word);
            if token == Token::Newline {
                return (&self.current, span.end);
            }
            self.current.push(Lexeme { token, span });
        }
        (&self.current, end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lex(src: &[u8]) -> Vec<Vec<(Token, Vec<u8>)>> {
        let mut lines = Vec::new();
        for_each_line::<()>(src, 0..src.len(), |lexemes, _| {
            lines.push(
                lexemes
                    .iter()
                    .map(|l| (l.token, token_text(src, l).to_vec()))
                    .collect(),
            );
            Ok(true)
        })
        .unwrap();
        lines
    }

    #[test]
    fn words_quotes_comments_and_crlf() {
        let lines = lex(b"mesh \"a b\"\r\n\tvp 1 -2.5e3\r\n\n# note\r\njoint b\"c 0 #tail");
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0][1], (Token::Quoted, b"a b".to_vec()));
        assert_eq!(lines[1][2], (Token::Word, b"-2.5e3".to_vec()));
        assert_eq!(lines[2][0], (Token::Comment, b" note".to_vec()));
        assert_eq!(lines[3][1], (Token::Word, b"b\"c".to_vec()));
        assert_eq!(lines[3][3], (Token::Comment, b"tail".to_vec()));
    }

    #[test]
    fn non_utf8_bytes_are_words() {
        let lines = lex(b"joint caf\xe9 \"\xff\xfe\"\n");
        assert_eq!(lines[0][1], (Token::Word, b"caf\xe9".to_vec()));
        assert_eq!(lines[0][2], (Token::Quoted, b"\xff\xfe".to_vec()));
    }

    #[test]
    fn unterminated_quote_runs_to_line_end() {
        let lines = lex(b"mesh \"open name\r\nvp 1\n");
        assert_eq!(lines[0][1], (Token::OpenQuote, b"open name".to_vec()));
        assert_eq!(lines[1].len(), 2);
    }
}
