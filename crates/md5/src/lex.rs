//! Lines and tokens: an MD5 line is tokens separated by blanks, `//` starts a comment
//! outside quotes, strings are in double quotes without escapes, and `(`, `)`, `{`, `}` are
//! tokens of their own even when glued to a number (`(1.0`).

use std::ops::Range;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokenKind {
    /// A run of bytes that are no blank, quote, parenthesis or brace.
    Word,
    /// A quoted string; the token's range is between the quotes.
    Str,
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// `{`.
    OpenBrace,
    /// `}`.
    CloseBrace,
    /// A quote without its closing quote on the same line.
    Unterminated,
}

/// One token: its kind and where its text is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: TokenKind,
    /// The text (for a string: between the quotes).
    pub text: Range<usize>,
    /// The whole token in the input (for a string: with its quotes).
    pub span: Range<usize>,
}

/// Whether a byte separates tokens (`\r` included, so CRLF lines need no special case).
pub(crate) fn is_blank(b: u8) -> bool {
    CLASS[usize::from(b)] == BLANK
}

/// A byte that continues a word.
const WORD: u8 = 0;
/// A byte that separates tokens.
const BLANK: u8 = 1;
/// A byte that ends a word: a quote, a parenthesis or brace, or `/` (which ends it only
/// when another `/` follows).
const STOP: u8 = 2;

/// The class of every byte, looked up once per byte while scanning a line.
const CLASS: [u8; 256] = {
    let mut class = [WORD; 256];
    let blanks = [b' ', b'\t', b'\r', 0x0b, 0x0c];
    let mut i = 0;
    while i < blanks.len() {
        class[blanks[i] as usize] = BLANK;
        i += 1;
    }
    let stops = [b'"', b'(', b')', b'{', b'}', b'/'];
    let mut i = 0;
    while i < stops.len() {
        class[stops[i] as usize] = STOP;
        i += 1;
    }
    class
};

/// `bytes` without leading and trailing blanks.
pub(crate) fn trim(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|&b| !is_blank(b))
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|&b| !is_blank(b))
        .map_or(start, |p| p + 1);
    &bytes[start..end]
}

/// Splits `src[range]` into tokens and a comment.
pub(crate) fn tokenize(
    src: &[u8],
    range: Range<usize>,
    tokens: &mut Vec<Token>,
) -> Option<Range<usize>> {
    tokens.clear();
    let end = range.end;
    let mut at = range.start;
    while at < end {
        let b = src[at];
        if is_blank(b) {
            at += 1;
            continue;
        }
        let start = at;
        let single = |kind| Token {
            kind,
            text: start..start + 1,
            span: start..start + 1,
        };
        match b {
            b'/' if src.get(at + 1) == Some(&b'/') && at + 1 < end => {
                return Some(at + 2..end);
            }
            b'"' => match src[at + 1..end].iter().position(|&c| c == b'"') {
                Some(len) => {
                    tokens.push(Token {
                        kind: TokenKind::Str,
                        text: at + 1..at + 1 + len,
                        span: at..at + len + 2,
                    });
                    at += len + 2;
                }
                None => {
                    tokens.push(Token {
                        kind: TokenKind::Unterminated,
                        text: at + 1..end,
                        span: at..end,
                    });
                    at = end;
                }
            },
            b'(' => {
                tokens.push(single(TokenKind::Open));
                at += 1;
            }
            b')' => {
                tokens.push(single(TokenKind::Close));
                at += 1;
            }
            b'{' => {
                tokens.push(single(TokenKind::OpenBrace));
                at += 1;
            }
            b'}' => {
                tokens.push(single(TokenKind::CloseBrace));
                at += 1;
            }
            _ => {
                loop {
                    while at < end && CLASS[usize::from(src[at])] == WORD {
                        at += 1;
                    }
                    // A single `/` belongs to the word; `//` starts a comment.
                    if at < end && src[at] == b'/' && !(at + 1 < end && src[at + 1] == b'/') {
                        at += 1;
                        continue;
                    }
                    break;
                }
                tokens.push(Token {
                    kind: TokenKind::Word,
                    text: start..at,
                    span: start..at,
                });
            }
        }
    }
    None
}

/// The UTF-8 byte-order mark some editors put first.
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Calls `each` with every line of `src` from byte `start` on (after a byte-order mark): its
/// range without the line ending (a `\r` before the `\n` is left out) and whether a `\n`
/// ended it.
pub(crate) fn for_each_line_from<E>(
    src: &[u8],
    mut start: usize,
    mut each: impl FnMut(Range<usize>, bool) -> Result<(), E>,
) -> Result<(), E> {
    while start < src.len() {
        let (end, next, newline) = match memchr::memchr(b'\n', &src[start..]) {
            Some(p) => (start + p, start + p + 1, true),
            None => (src.len(), src.len(), false),
        };
        let content_end = if end > start && src[end - 1] == b'\r' {
            end - 1
        } else {
            end
        };
        each(start..content_end, newline)?;
        start = next;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds_and_texts(line: &[u8]) -> (Vec<(TokenKind, String)>, Option<String>) {
        let mut tokens = Vec::new();
        let comment = tokenize(line, 0..line.len(), &mut tokens);
        (
            tokens
                .iter()
                .map(|t| {
                    (
                        t.kind,
                        String::from_utf8_lossy(&line[t.text.clone()]).into_owned(),
                    )
                })
                .collect(),
            comment.map(|c| String::from_utf8_lossy(&line[c]).into_owned()),
        )
    }

    #[test]
    fn tokens_split_at_parentheses_quotes_and_comments() {
        let (tokens, comment) = kinds_and_texts(b"\t\"upper arm.L\"\t3 (1.5 -2 )//x // y");
        use TokenKind::*;
        let expected = [
            (Str, "upper arm.L"),
            (Word, "3"),
            (Open, "("),
            (Word, "1.5"),
            (Word, "-2"),
            (Close, ")"),
        ];
        assert_eq!(tokens.len(), expected.len());
        for ((kind, text), (ek, et)) in tokens.iter().zip(expected) {
            assert_eq!((*kind, text.as_str()), (ek, et));
        }
        assert_eq!(comment.as_deref(), Some("x // y"));
    }

    #[test]
    fn slashes_inside_quotes_are_text_and_unterminated_strings_are_marked() {
        let (tokens, comment) = kinds_and_texts(b"shader \"models/a//b\" // c");
        assert_eq!(tokens[1].1, "models/a//b");
        assert_eq!(comment.as_deref(), Some(" c"));
        let (tokens, _) = kinds_and_texts(b"shader \"open");
        assert_eq!(tokens[1].0, TokenKind::Unterminated);
    }

    #[test]
    fn lines_lose_crlf_and_report_the_missing_last_newline() {
        let mut lines = Vec::new();
        for_each_line_from::<()>(b"a\r\nb\n\nc", 0, |r, nl| {
            lines.push((r, nl));
            Ok(())
        })
        .unwrap();
        assert_eq!(
            lines,
            [(0..1, true), (3..4, true), (5..5, true), (6..7, false)]
        );
    }
}
