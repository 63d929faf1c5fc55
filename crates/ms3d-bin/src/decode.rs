//! Bulk decoding of the arrays that make up most of a file: vertices, triangles, keys,
//! group triangle indices and vertex extra records.
//!
//! binrw reads a record field by field through `Read` on a cursor, checking each field's
//! length; for arrays of tens of thousands of records that is most of the read time. Here
//! the reader checks once that the whole array fits, takes it as one slice, and each
//! record is decoded from its own fixed-size chunk with `from_le_bytes` — the same values
//! binrw would give (the binrw definitions in `records` stay the specification and the
//! writer; a test checks both agree).

use crate::records::{Keyframe, Triangle, Vertex, VertexExtraRecord, extra_words};

/// Little-endian fields taken in order from one record's bytes.
struct Fields<'a>(&'a [u8]);

impl Fields<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, rest) = self.0.split_first_chunk::<N>()?;
        self.0 = rest;
        Some(*head)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take::<1>().map(|[b]| b)
    }
    fn i8(&mut self) -> Option<i8> {
        self.take::<1>().map(i8::from_le_bytes)
    }
    fn u16(&mut self) -> Option<u16> {
        self.take().map(u16::from_le_bytes)
    }
    fn u32(&mut self) -> Option<u32> {
        self.take().map(u32::from_le_bytes)
    }
    fn f32(&mut self) -> Option<f32> {
        self.take().map(f32::from_le_bytes)
    }
    fn array<T: Copy + Default, const N: usize>(
        &mut self,
        read: impl Fn(&mut Self) -> Option<T>,
    ) -> Option<[T; N]> {
        let mut out = [T::default(); N];
        for slot in &mut out {
            *slot = read(self)?;
        }
        Some(out)
    }
    fn f32s<const N: usize>(&mut self) -> Option<[f32; N]> {
        self.array(Self::f32)
    }
}

/// A record decoded from exactly its on-disk bytes (`None` only if the chunk is short,
/// which the callers rule out by slicing with `chunks_exact`).
pub(crate) trait Decode: Sized {
    fn decode(chunk: &[u8]) -> Option<Self>;
}

impl Decode for Vertex {
    fn decode(chunk: &[u8]) -> Option<Self> {
        let mut f = Fields(chunk);
        Some(Vertex {
            flags: f.u8()?,
            position: f.f32s()?,
            bone_id: f.i8()?,
            reference_count: f.u8()?,
        })
    }
}

impl Decode for Triangle {
    fn decode(chunk: &[u8]) -> Option<Self> {
        let mut f = Fields(chunk);
        Some(Triangle {
            flags: f.u16()?,
            vertex_indices: f.array(Fields::u16)?,
            normals: f.array(Fields::f32s)?,
            s: f.f32s()?,
            t: f.f32s()?,
            smoothing_group: f.u8()?,
            group_index: f.u8()?,
        })
    }
}

impl Decode for Keyframe {
    fn decode(chunk: &[u8]) -> Option<Self> {
        let mut f = Fields(chunk);
        Some(Keyframe {
            time: f.f32()?,
            value: f.f32s()?,
        })
    }
}

impl Decode for u16 {
    fn decode(chunk: &[u8]) -> Option<Self> {
        Fields(chunk).u16()
    }
}

/// A vertex extra record of `sub_version` (1, 2 or 3: 0, 1 or 2 extra words).
pub(crate) fn vertex_extra(chunk: &[u8], sub_version: i32) -> Option<VertexExtraRecord> {
    let mut f = Fields(chunk);
    let bone_ids = f.array(Fields::i8)?;
    let weights = f.array(Fields::u8)?;
    let mut extra = [0; 2];
    for word in extra.iter_mut().take(extra_words(sub_version)) {
        *word = f.u32()?;
    }
    Some(VertexExtraRecord {
        bone_ids,
        weights,
        extra,
    })
}

/// Decodes every `size`-byte chunk of `bytes`; `None` if a chunk does not decode.
pub(crate) fn all<T>(
    bytes: &[u8],
    size: usize,
    decode: impl Fn(&[u8]) -> Option<T>,
) -> Option<Vec<T>> {
    // Sized up front: collecting `Option`s hides the count from `collect`, which then
    // grows the vector step by step, copying it each time (a tenth of a 32767-triangle
    // .ms3d → glb conversion, in reallocations of the key arrays).
    let chunks = bytes.chunks_exact(size);
    let mut out = Vec::with_capacity(chunks.len());
    for chunk in chunks {
        out.push(decode(chunk)?);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::Record;
    use binrw::BinRead;
    use std::io::Cursor;

    /// Bytes that are different in every position, so a field read from the wrong
    /// offset shows.
    fn pattern(len: u64) -> Vec<u8> {
        (0..len).map(|i| (i * 37 + 11) as u8).collect()
    }

    fn agrees_with_binrw<T: Record + Decode + PartialEq + std::fmt::Debug>() {
        let bytes = pattern(T::SIZE);
        let by_binrw = T::read_le(&mut Cursor::new(&bytes)).unwrap();
        let decoded = T::decode(&bytes).unwrap();
        // Compare bit patterns: the pattern may spell NaNs, which are not equal to themselves.
        assert_eq!(format!("{decoded:?}"), format!("{by_binrw:?}"));
        assert!(T::decode(&bytes[..bytes.len() - 1]).is_none());
    }

    #[test]
    fn direct_decoding_gives_what_binrw_reads() {
        agrees_with_binrw::<Vertex>();
        agrees_with_binrw::<Triangle>();
        agrees_with_binrw::<Keyframe>();
        agrees_with_binrw::<u16>();
        for (sub_version, size) in [(1, 6), (2, 10), (3, 14)] {
            let bytes = pattern(size);
            let by_binrw =
                VertexExtraRecord::read_le_args(&mut Cursor::new(&bytes), (sub_version,)).unwrap();
            assert_eq!(vertex_extra(&bytes, sub_version), Some(by_binrw));
        }
    }
}
