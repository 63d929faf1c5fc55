//! Texture paths as stored by old modelling tools → glTF image URIs.
//!
//! MilkShape stores whatever the artist's machine had: back-slashes, drive letters, absolute
//! paths. glTF wants a relative URI reference with forward slashes and percent-encoding.

use rigport_model_core::texture::{is_absolute, strip_drive};

/// A texture path turned into an image URI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ImageUri {
    /// The URI to write (percent-encoded, forward slashes, relative).
    pub uri: String,
    /// Whether the stored path was absolute and only its file name was kept.
    pub was_absolute: bool,
}

/// The image URI for a stored texture path, or `None` when the path names no file (empty,
/// or an absolute path ending in a separator).
pub(super) fn image_uri(stored: &str) -> Option<ImageUri> {
    let path = stored.trim().replace('\\', "/");
    let was_absolute = is_absolute(&path);
    let kept = if was_absolute {
        let name = path.rsplit('/').next().unwrap_or_default();
        // A drive-relative `C:file` has no slash to split at.
        strip_drive(name)
    } else {
        path.as_str()
    };
    if kept.is_empty() || kept.ends_with('/') {
        return None;
    }
    Some(ImageUri {
        uri: percent_encode(kept),
        was_absolute,
    })
}

/// Percent-encodes everything but RFC 3986 unreserved characters and `/`, byte by byte of
/// the UTF-8 text, so spaces, `%`, `#`, `?`, `:` and non-ASCII names survive as data.
pub(super) fn percent_encode(text: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(text.len());
    for &byte in text.as_bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(byte));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0xF)]));
        }
    }
    out
}

/// Whether a URI names a file of a type core glTF viewers can load (PNG or JPEG).
pub(super) fn is_core_image(uri: &str) -> bool {
    let lower = uri.to_ascii_lowercase();
    [".png", ".jpg", ".jpeg"]
        .iter()
        .any(|ext| lower.ends_with(ext))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_keep_their_folders_with_forward_slashes() {
        let uri = image_uri(r"textures\skin 1.bmp").unwrap();
        assert_eq!(uri.uri, "textures/skin%201.bmp");
        assert!(!uri.was_absolute);
        assert_eq!(image_uri("../a.png").unwrap().uri, "../a.png");
    }

    #[test]
    fn absolute_paths_become_their_file_name() {
        for stored in [
            r"C:\Program Files\MilkShape\tex.bmp",
            "/home/me/tex.bmp",
            r"\\server\share\tex.bmp",
            "d:tex.bmp",
        ] {
            let uri = image_uri(stored).unwrap();
            assert_eq!(uri.uri, "tex.bmp", "{stored}");
            assert!(uri.was_absolute, "{stored}");
        }
    }

    #[test]
    fn nothing_to_name_gives_none() {
        assert_eq!(image_uri(""), None);
        assert_eq!(image_uri("   "), None);
        assert_eq!(image_uri(r"C:\textures\"), None);
    }

    #[test]
    fn reserved_and_non_ascii_bytes_are_percent_encoded() {
        // 'é' is C3 A9 in UTF-8; ':' would otherwise read as a URI scheme.
        assert_eq!(percent_encode("a:b#c%d?é"), "a%3Ab%23c%25d%3F%C3%A9");
        assert!(is_core_image("A.JPG") && is_core_image("b.png") && !is_core_image("c.bmp"));
    }
}
