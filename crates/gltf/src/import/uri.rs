//! URIs in glTF: `data:` URIs with base64 payloads, and relative, percent-encoded
//! references to files beside the `.gltf`.

/// What a URI names.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Target<'a> {
    /// A `data:` URI: its media type (may be empty) and base64 (or plain) payload.
    Data {
        /// `application/octet-stream`, `image/png`…
        media_type: &'a str,
        /// The text after the comma.
        payload: &'a str,
        /// Whether `;base64` was given.
        base64: bool,
    },
    /// A relative reference to a file (percent-decoded, forward slashes).
    File(String),
}

/// Classifies a URI. Errors are messages for [`ImportError::BadUri`](super::ImportError).
pub(crate) fn parse(uri: &str) -> Result<Target<'_>, String> {
    if let Some(rest) = uri.strip_prefix("data:") {
        let Some((header, payload)) = rest.split_once(',') else {
            return Err("a data: URI needs a comma before its payload".into());
        };
        let (media_type, base64) = match header.strip_suffix(";base64") {
            Some(media_type) => (media_type, true),
            None => (header, false),
        };
        return Ok(Target::Data {
            media_type,
            payload,
            base64,
        });
    }
    // A scheme (`http:`, `file:`) or an absolute path is outside "beside the file".
    let scheme_end = uri.find(':');
    let first_separator = uri.find(['/', '?', '#']);
    if let Some(colon) = scheme_end {
        if first_separator.is_none_or(|s| colon < s) {
            return Err("only relative file references and data: URIs are read".into());
        }
    }
    if uri.starts_with('/') || uri.starts_with('\\') {
        return Err("an absolute path is not a relative reference".into());
    }
    // `../textures/a.png` is common in real asset folders: allowed, as every viewer does.
    Ok(Target::File(percent_decode(uri)?))
}

/// Decodes `%XX` escapes; the result must be UTF-8.
fn percent_decode(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("bad percent escape at character {i}"))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| "percent escapes do not decode to UTF-8".to_string())
}

/// Decodes standard base64 (`+/`, `=` padding optional, whitespace ignored). URL-safe
/// `-_` are accepted too, since some writers use them in data URIs.
pub(crate) fn base64_decode(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 3);
    let mut acc = 0u32;
    let mut bits = 0u32;
    let mut padding = false;
    for (i, b) in text.bytes().enumerate() {
        let value = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => {
                padding = true;
                continue;
            }
            b' ' | b'\t' | b'\r' | b'\n' => continue,
            _ => return Err(format!("byte {i} of the base64 payload is not base64")),
        };
        if padding {
            return Err(format!("base64 continues after `=` padding at byte {i}"));
        }
        acc = (acc << 6) | u32::from(value);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_by_hand() {
        // "Man" → TWFu; "Ma" → TWE=; "M" → TQ==
        assert_eq!(base64_decode("TWFu").unwrap(), b"Man");
        assert_eq!(base64_decode("TWE=").unwrap(), b"Ma");
        assert_eq!(base64_decode("TQ==").unwrap(), b"M");
        assert_eq!(base64_decode("TQ").unwrap(), b"M");
        assert_eq!(base64_decode("AAAA//8=").unwrap(), [0, 0, 0, 255, 255]);
        assert!(base64_decode("TQ=x").is_err());
        assert!(base64_decode("T*Q").is_err());
    }

    #[test]
    fn uris() {
        assert_eq!(
            parse("data:application/octet-stream;base64,AAAA").unwrap(),
            Target::Data {
                media_type: "application/octet-stream",
                payload: "AAAA",
                base64: true
            }
        );
        assert_eq!(
            parse("my%20model.bin").unwrap(),
            Target::File("my model.bin".into())
        );
        assert_eq!(
            parse("tex/a.png").unwrap(),
            Target::File("tex/a.png".into())
        );
        assert!(parse("http://example.com/a.bin").is_err());
        assert!(parse("/etc/passwd").is_err());
        assert_eq!(parse("../t.png").unwrap(), Target::File("../t.png".into()));
        assert!(parse("a%2").is_err());
    }
}
