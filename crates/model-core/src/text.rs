//! Turning stored name bytes into display strings.
//!
//! Files keep names as raw bytes (MilkShape's 32-byte arrays, IQE's quoted strings) and the
//! faithful layers keep those bytes untouched. Only the neutral model needs text: valid
//! UTF-8 is used as is, anything else is read as Latin-1 so that every byte maps to one
//! character and no name becomes an empty or replacement-character string.

/// The bytes before the first NUL (all of them if there is none).
pub fn until_nul(bytes: &[u8]) -> &[u8] {
    match bytes.iter().position(|&b| b == 0) {
        Some(end) => &bytes[..end],
        None => bytes,
    }
}

/// Decodes a name: UTF-8 when valid, else Latin-1.
pub fn decode_name(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// Encodes a display name for an 8-bit format such as MilkShape: Latin-1 when every
/// character fits (so a Latin-1 name decoded by [`decode_name`] round-trips), else UTF-8.
pub fn encode_name_8bit(name: &str) -> Vec<u8> {
    if name.chars().all(|c| (c as u32) < 0x100) && !name.is_ascii() {
        name.chars().map(|c| c as u32 as u8).collect()
    } else {
        name.as_bytes().to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_terminated_names_stop_at_the_nul() {
        assert_eq!(until_nul(b"bone\0junk"), b"bone");
        assert_eq!(until_nul(b"bone"), b"bone");
    }

    #[test]
    fn latin1_names_round_trip() {
        let raw = b"caf\xe9";
        let name = decode_name(raw);
        assert_eq!(name, "café");
        assert_eq!(encode_name_8bit(&name), raw);
        assert_eq!(encode_name_8bit("骨"), "骨".as_bytes());
        assert_eq!(decode_name("骨".as_bytes()), "骨");
    }
}
