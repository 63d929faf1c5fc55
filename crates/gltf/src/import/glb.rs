//! The GLB container (glTF 2.0 §4.4): its 12-byte header and its chunks, checked, and the
//! ranges of the JSON and BIN chunks it holds. The reading side of `export/glb.rs`.

use super::ImportError;
use std::ops::Range;

/// GLB magic, `glTF` as a little-endian u32.
pub(super) const GLB_MAGIC: &[u8; 4] = b"glTF";
/// Chunk type of the JSON chunk (`JSON`).
const CHUNK_JSON: u32 = 0x4E4F_534A;
/// Chunk type of the binary chunk (`BIN\0`).
const CHUNK_BIN: u32 = 0x004E_4942;

/// Reads a u32 at `at` (the caller checked the length).
fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The JSON chunk's range, the BIN chunk's range if any, and layout problems that are only
/// warnings (trailing bytes, padding).
#[allow(clippy::type_complexity)]
pub(super) fn parse_glb(
    bytes: &[u8],
) -> Result<(Range<usize>, Option<Range<usize>>, Vec<String>), ImportError> {
    let glb = |offset: usize, message: String| ImportError::Glb {
        offset: offset as u64,
        message,
    };
    let mut problems = Vec::new();
    if bytes.len() < 12 {
        return Err(glb(
            bytes.len(),
            format!(
                "truncated: the 12-byte header ends after {} bytes",
                bytes.len()
            ),
        ));
    }
    let version = u32_at(bytes, 4);
    if version != 2 {
        return Err(glb(
            4,
            format!("expected container version 2, found {version}"),
        ));
    }
    let length = u32_at(bytes, 8) as usize;
    if length > bytes.len() {
        return Err(glb(
            bytes.len(),
            format!(
                "truncated: the header declares {length} bytes but the input ends at byte {}",
                bytes.len()
            ),
        ));
    }
    if length < 12 {
        return Err(glb(
            8,
            format!("the header declares a total length of {length}, shorter than the header"),
        ));
    }
    if length < bytes.len() {
        problems.push(format!(
            "{} bytes after the declared length {length} are ignored",
            bytes.len() - length
        ));
    }
    let bytes = &bytes[..length];
    let mut at = 12;
    let mut json = None;
    let mut bin = None;
    while at < bytes.len() {
        if bytes.len() - at < 8 {
            return Err(glb(
                at,
                format!(
                    "truncated: a chunk header needs 8 bytes, {} are left",
                    bytes.len() - at
                ),
            ));
        }
        let chunk_length = u32_at(bytes, at) as usize;
        let chunk_type = u32_at(bytes, at + 4);
        let start = at + 8;
        if chunk_length > bytes.len() - start {
            return Err(glb(
                start,
                format!(
                    "truncated: the chunk declares {chunk_length} bytes but only {} are left",
                    bytes.len() - start
                ),
            ));
        }
        let range = start..start + chunk_length;
        match (chunk_type, json.is_none()) {
            (CHUNK_JSON, true) => json = Some(range),
            (_, true) => {
                return Err(glb(
                    at + 4,
                    format!("expected the JSON chunk first, found chunk type {chunk_type:#010x}"),
                ));
            }
            (CHUNK_BIN, false) if bin.is_none() => bin = Some(range),
            (CHUNK_BIN | CHUNK_JSON, false) => {
                return Err(glb(at + 4, "a second JSON or BIN chunk".to_string()));
            }
            // Unknown chunks are to be ignored (glTF 2.0 §4.4.3.3).
            _ => {}
        }
        if chunk_length % 4 != 0 {
            problems.push(format!(
                "the chunk at byte {at} is {chunk_length} bytes, not padded to 4"
            ));
        }
        at = start + chunk_length;
    }
    let json = json.ok_or_else(|| glb(12, "truncated: the GLB has no JSON chunk".to_string()))?;
    Ok((json, bin, problems))
}
