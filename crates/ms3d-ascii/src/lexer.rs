//! The tokens of a MilkShape ASCII file, lexed from bytes.
//!
//! The format is line based, so a newline is a token; carriage returns and other blanks are
//! skipped, which makes CRLF and LF files lex alike. `//` starts a comment to the end of the
//! line. Quoted strings may hold any byte but `"` and newline (names are 8-bit, often
//! Latin-1), so the lexer works on `[u8]`, never on `str`.

use logos::Logos;

/// One token. Values are taken from the source slice by the parser, not stored here.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(utf8 = false)]
#[logos(skip r"[ \t\r\x0b\x0c]+")]
// Classes are byte classes (`(?-u:…)`) so 8-bit names and comments lex.
// A comment runs to the end of its line by definition, so the greedy match is the point.
#[logos(skip(r"//(?-u:[^\n])*", allow_greedy = true))]
pub(crate) enum Token {
    /// End of a line.
    #[token("\n")]
    Newline,
    /// A quoted string; the quotes are part of the slice.
    #[regex(r#""(?-u:[^"\n])*""#)]
    Str,
    /// A decimal number with optional sign, fraction and exponent (`-1`, `.5`, `4e-05`).
    #[regex(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")]
    Number,
    /// A block header word with its colon (`Meshes:`); block data never starts upper case.
    #[regex(r"[A-Z][A-Za-z0-9_]*:")]
    Header,
}

/// Whether a raw line (without its line ending) starts a block: optional blanks, an upper
/// case letter, word characters and a colon — the same rule as [`Token::Header`].
pub(crate) fn is_header_line(line: &[u8]) -> bool {
    let line = trim_start(line);
    match line.split_first() {
        Some((first, rest)) if first.is_ascii_uppercase() => {
            let word = rest
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                .count();
            rest.get(word) == Some(&b':')
        }
        _ => false,
    }
}

/// The line without leading blanks.
pub(crate) fn trim_start(line: &[u8]) -> &[u8] {
    let start = line
        .iter()
        .position(|b| !is_blank(*b))
        .unwrap_or(line.len());
    &line[start..]
}

/// The line without trailing blanks (including the `\r` of a CRLF ending).
pub(crate) fn trim_end(line: &[u8]) -> &[u8] {
    let end = line
        .iter()
        .rposition(|b| !is_blank(*b))
        .map_or(0, |p| p + 1);
    &line[..end]
}

/// The bytes the lexer skips between tokens.
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(src: &[u8]) -> Vec<(Result<Token, ()>, &[u8])> {
        let mut lexer = Token::lexer(src);
        let mut out = Vec::new();
        while let Some(token) = lexer.next() {
            out.push((token, lexer.slice()));
        }
        out
    }

    #[test]
    fn crlf_comments_and_latin1_strings() {
        let src = b"// MilkShape 3D ASCII\r\nMeshes: 1\r\n\"caf\xe9*\" 0 -1 // note\r\n";
        let got = tokens(src);
        let want: Vec<(Result<Token, ()>, &[u8])> = vec![
            (Ok(Token::Newline), b"\n"),
            (Ok(Token::Header), b"Meshes:"),
            (Ok(Token::Number), b"1"),
            (Ok(Token::Newline), b"\n"),
            (Ok(Token::Str), b"\"caf\xe9*\""),
            (Ok(Token::Number), b"0"),
            (Ok(Token::Number), b"-1"),
            (Ok(Token::Newline), b"\n"),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn number_shapes() {
        for n in ["4e-05", "-1.005", ".5", "+3", "1.", "7E+2"] {
            assert_eq!(
                tokens(n.as_bytes()),
                vec![(Ok(Token::Number), n.as_bytes())]
            );
        }
        // A lone sign or NaN spelling is not a number.
        assert!(tokens(b"-").iter().any(|t| t.0.is_err()));
        assert!(tokens(b"1.#QNAN").iter().any(|t| t.0.is_err()));
    }

    #[test]
    fn header_lines() {
        assert!(is_header_line(b"GroupComments: 0"));
        assert!(is_header_line(b"  Bones:3"));
        assert!(!is_header_line(b"\"Bones\""));
        assert!(!is_header_line(b"bones: 3"));
        assert!(!is_header_line(b"Bones 3"));
        assert_eq!(trim_end(b"ab \r"), b"ab");
        assert_eq!(trim_start(b" \tab"), b"ab");
    }
}
