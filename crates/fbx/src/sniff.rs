//! Whether bytes are an FBX file, by content: the binary magic, or an ASCII file's header.

/// The 21 bytes every binary FBX file starts with (then `0x1a 0x00` and the version).
pub const BINARY_MAGIC: &[u8] = b"Kaydara FBX Binary  \0";

/// Whether `bytes` start like a binary FBX file.
///
/// ```
/// assert!(rigport_fbx::is_binary(b"Kaydara FBX Binary  \0\x1a\0\xe8\x1c\0\0"));
/// assert!(!rigport_fbx::is_binary(b"; FBX 7.4.0 project file"));
/// ```
pub fn is_binary(bytes: &[u8]) -> bool {
    bytes.starts_with(BINARY_MAGIC)
}

/// Whether `bytes` (the file's first 4 KiB or more) start like an ASCII FBX file: its
/// `; FBX 7.4.0 project file` comment, or, after comments and blank lines, its
/// `FBXHeaderExtension:` record.
///
/// ```
/// assert!(rigport_fbx::is_ascii(b"; FBX 6.1.0 project file\n; ----\n\nFBXHeaderExtension:  {\n"));
/// assert!(rigport_fbx::is_ascii(b"\xef\xbb\xbfFBXHeaderExtension:  {\n"));
/// assert!(!rigport_fbx::is_ascii(b"# Inter-Quake Export\n"));
/// ```
pub fn is_ascii(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    for line in head.split(|&b| b == b'\n') {
        let line = line.trim_ascii();
        if line.is_empty() {
            continue;
        }
        if let Some(comment) = line.strip_prefix(b";") {
            if comment.trim_ascii_start().starts_with(b"FBX ") {
                return true;
            }
            continue;
        }
        return line.starts_with(b"FBXHeaderExtension:");
    }
    false
}
