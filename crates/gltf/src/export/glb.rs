//! The GLB container: a 12-byte header, the JSON chunk padded with spaces and the BIN chunk
//! padded with zeros, each to a multiple of 4 bytes.

use super::buffer::pad_to_4;
use crate::Error;

/// `glTF` in ASCII.
const MAGIC: u32 = 0x4654_6C67;
/// Container version.
const VERSION: u32 = 2;
/// Chunk type `JSON`.
const CHUNK_JSON: u32 = 0x4E4F_534A;
/// Chunk type `BIN\0`.
const CHUNK_BIN: u32 = 0x004E_4942;

/// Packs the JSON text and the buffer into one GLB file. The BIN chunk is left out when the
/// buffer is empty (the JSON then declares no buffer).
///
/// The file is built inside the buffer's own allocation: the header and JSON chunk are
/// inserted before the binary data, so a large export is never held twice.
pub(super) fn assemble(json: &str, mut bin: Vec<u8>) -> Result<Vec<u8>, Error> {
    pad_to_4(&mut bin, 0);
    let json_len = json.len().next_multiple_of(4);
    let bin_header = if bin.is_empty() { 0 } else { 8 };
    let prefix_len = 12 + 8 + json_len + bin_header;
    let total = prefix_len + bin.len();
    let too_large = |_| Error::TooLarge {
        bytes: total as u64,
    };
    let total32 = u32::try_from(total).map_err(too_large)?;
    let json_len32 = u32::try_from(json_len).map_err(too_large)?;
    let bin_len32 = u32::try_from(bin.len()).map_err(too_large)?;

    let mut prefix = Vec::with_capacity(prefix_len);
    for word in [MAGIC, VERSION, total32, json_len32, CHUNK_JSON] {
        prefix.extend_from_slice(&word.to_le_bytes());
    }
    prefix.extend_from_slice(json.as_bytes());
    pad_to_4(&mut prefix, b' ');
    if !bin.is_empty() {
        prefix.extend_from_slice(&bin_len32.to_le_bytes());
        prefix.extend_from_slice(&CHUNK_BIN.to_le_bytes());
    }
    insert_front(&mut bin, &prefix);
    Ok(bin)
}

/// Inserts `prefix` before the bytes of `buffer`, moving them within the allocation.
fn insert_front(buffer: &mut Vec<u8>, prefix: &[u8]) {
    let old = buffer.len();
    buffer.resize(old + prefix.len(), 0);
    buffer.copy_within(..old, prefix.len());
    buffer[..prefix.len()].copy_from_slice(prefix);
}
