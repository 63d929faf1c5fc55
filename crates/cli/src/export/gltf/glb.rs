//! The GLB container: a 12-byte header, the JSON chunk padded with spaces and the BIN chunk
//! padded with zeros, each to a multiple of 4 bytes.

use super::GltfError;
use super::buffer::pad_to_4;

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
pub(super) fn assemble(json: &str, bin: &[u8]) -> Result<Vec<u8>, GltfError> {
    let mut json_chunk = json.as_bytes().to_vec();
    pad_to_4(&mut json_chunk, b' ');
    let mut bin_chunk = bin.to_vec();
    pad_to_4(&mut bin_chunk, 0);
    let bin_total = if bin_chunk.is_empty() {
        0
    } else {
        8 + bin_chunk.len()
    };
    let total = 12 + 8 + json_chunk.len() + bin_total;
    let too_large = |_| GltfError::TooLarge {
        bytes: total as u64,
    };
    let total32 = u32::try_from(total).map_err(too_large)?;
    let json_len = u32::try_from(json_chunk.len()).map_err(too_large)?;
    let bin_len = u32::try_from(bin_chunk.len()).map_err(too_large)?;

    let mut out = Vec::with_capacity(total);
    for word in [MAGIC, VERSION, total32, json_len, CHUNK_JSON] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(&json_chunk);
    if !bin_chunk.is_empty() {
        out.extend_from_slice(&bin_len.to_le_bytes());
        out.extend_from_slice(&CHUNK_BIN.to_le_bytes());
        out.extend_from_slice(&bin_chunk);
    }
    Ok(out)
}
