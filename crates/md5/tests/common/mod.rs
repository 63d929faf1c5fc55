//! Helpers shared by the integration tests. Nothing here uses the crate's reader, so the
//! tests compare it against an independent reading of the same bytes.
#![allow(dead_code)]

use std::path::PathBuf;

/// Every file of `fixtures/md5`, sorted.
pub fn fixtures() -> Vec<PathBuf> {
    rigport_test_support::fixtures::fixtures("md5")
        .into_iter()
        .map(|p| rigport_test_support::workspace_root().join(p))
        .collect()
}

/// The content tokens of an MD5 text, per the crate docs: comments kept as one token,
/// blank lines as an empty line, numbers compared as `f64`.
pub fn content(bytes: &[u8]) -> Vec<Vec<String>> {
    let text = String::from_utf8_lossy(bytes);
    text.lines()
        .map(|line| {
            let line = line.trim_end_matches('\r');
            let (code, comment) = split_comment(line);
            let mut tokens = Vec::new();
            let mut rest = code;
            while let Some(start) = rest.find(|c: char| !c.is_whitespace()) {
                rest = &rest[start..];
                if let Some(stripped) = rest.strip_prefix('"') {
                    let end = stripped.find('"').unwrap_or(stripped.len());
                    tokens.push(format!("\"{}\"", &stripped[..end]));
                    rest = &stripped[(end + 1).min(stripped.len())..];
                    continue;
                }
                if let Some(c) = rest.chars().next().filter(|c| "(){}".contains(*c)) {
                    tokens.push(c.to_string());
                    rest = &rest[1..];
                    continue;
                }
                let end = rest
                    .find(|c: char| c.is_whitespace() || "(){}\"".contains(c))
                    .unwrap_or(rest.len());
                let word = &rest[..end];
                tokens.push(match word.parse::<f64>() {
                    Ok(v) => format!("{:?}", v + 0.0),
                    Err(_) => word.to_owned(),
                });
                rest = &rest[end..];
            }
            if let Some(comment) = comment {
                tokens.push(format!("//{comment}"));
            }
            tokens
        })
        .collect()
}

fn split_comment(line: &str) -> (&str, Option<&str>) {
    let mut quoted = false;
    let bytes = line.as_bytes();
    for i in 0..bytes.len() {
        match bytes[i] {
            b'"' => quoted = !quoted,
            b'/' if !quoted && bytes.get(i + 1) == Some(&b'/') => {
                return (&line[..i], Some(&line[i + 2..]));
            }
            _ => {}
        }
    }
    (line, None)
}
