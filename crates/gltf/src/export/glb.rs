//! The GLB container: a 12-byte header, the JSON chunk padded with spaces and the BIN chunk
//! padded with zeros, each to a multiple of 4 bytes.

use super::buffer::{Buffer, pad_to_4};
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
/// The file is built inside the buffer's allocation ([`Buffer::behind`]): the header and
/// the JSON chunk are inserted before its bytes, so a large export is never held twice.
pub(super) fn assemble(json: &str, buffer: Buffer) -> Result<Vec<u8>, Error> {
    let Buffer { mut head, mut tail } = buffer;
    pad_to_4(&mut head, 0);
    pad_to_4(&mut tail, 0);
    let bin_len = head.len() + tail.len();
    let json_len = json.len().next_multiple_of(4);
    let bin_header = if bin_len == 0 { 0 } else { 8 };
    let total = 12 + 8 + json_len + bin_header + bin_len;
    let too_large = |_| Error::TooLarge {
        bytes: total as u64,
    };
    let total32 = u32::try_from(total).map_err(too_large)?;
    let json_len32 = u32::try_from(json_len).map_err(too_large)?;
    let bin_len32 = u32::try_from(bin_len).map_err(too_large)?;

    let mut prefix = Vec::with_capacity(12 + 8 + json_len + bin_header);
    for word in [MAGIC, VERSION, total32, json_len32, CHUNK_JSON] {
        prefix.extend_from_slice(&word.to_le_bytes());
    }
    prefix.extend_from_slice(json.as_bytes());
    pad_to_4(&mut prefix, b' ');
    if bin_len > 0 {
        prefix.extend_from_slice(&bin_len32.to_le_bytes());
        prefix.extend_from_slice(&CHUNK_BIN.to_le_bytes());
    }
    Ok(Buffer { head, tail }.behind(&prefix))
}
