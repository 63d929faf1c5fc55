//! Writing: every block at the offset its header field gives, and the gaps between them;
//! and [`pack`], which lays a file out afresh the way the SDK does.

use crate::file::File;
use crate::records::{
    Anim, Bounds, ExtensionRecord, HEADER_SIZE, Header, Joint, Mesh, Pose, Record,
    VertexArrayRecord,
};
use std::borrow::Cow;
use std::io::Cursor;

/// The bytes of a list of records.
fn record_bytes<T: Record>(records: &[T]) -> Vec<u8> {
    let mut out = Cursor::new(Vec::with_capacity(records.len() * T::SIZE as usize));
    for record in records {
        // Writing to a Vec cannot fail.
        let _ = record.write_le(&mut out);
    }
    out.into_inner()
}

/// The little-endian bytes of `u32` triples: on little-endian machines the values' own
/// bytes, borrowed (bytemuck), elsewhere encoded word by word.
fn triples(values: &[[u32; 3]]) -> Cow<'_, [u8]> {
    if cfg!(target_endian = "little") {
        return Cow::Borrowed(bytemuck::cast_slice(values));
    }
    Cow::Owned(
        values
            .iter()
            .flatten()
            .flat_map(|v| v.to_le_bytes())
            .collect(),
    )
}

/// The little-endian bytes of `u16`s, as [`triples`] gives them.
fn u16_bytes(values: &[u16]) -> Cow<'_, [u8]> {
    if cfg!(target_endian = "little") {
        return Cow::Borrowed(bytemuck::cast_slice(values));
    }
    Cow::Owned(values.iter().flat_map(|v| v.to_le_bytes()).collect())
}

fn descriptors(file: &File) -> Vec<VertexArrayRecord> {
    file.vertex_arrays
        .iter()
        .map(|a| VertexArrayRecord {
            kind: a.kind,
            flags: a.flags,
            format: a.format,
            size: a.size,
            offset: a.offset,
        })
        .collect()
}

/// Every piece of the file as (offset, bytes), borrowed where the file holds the bytes.
fn pieces(file: &File) -> Vec<(u64, Cow<'_, [u8]>)> {
    use Cow::{Borrowed, Owned};
    let h = &file.header;
    let mut out: Vec<(u64, Cow<'_, [u8]>)> = Vec::new();
    fn push<'a>(out: &mut Vec<(u64, Cow<'a, [u8]>)>, offset: u32, bytes: Cow<'a, [u8]>) {
        if !bytes.is_empty() {
            out.push((u64::from(offset), bytes));
        }
    }
    macro_rules! put {
        ($offset:expr, $bytes:expr $(,)?) => {
            push(&mut out, $offset, $bytes)
        };
    }
    put!(0, Owned(record_bytes::<Header>(&[*h])));
    put!(h.ofs_text, Borrowed(&file.text));
    put!(h.ofs_meshes, Owned(record_bytes::<Mesh>(&file.meshes)));
    put!(h.ofs_vertexarrays, Owned(record_bytes(&descriptors(file))),);
    for array in &file.vertex_arrays {
        put!(array.offset, Borrowed(&array.data));
    }
    put!(h.ofs_triangles, triples(&file.triangles));
    if let Some(adjacency) = &file.adjacency {
        put!(h.ofs_adjacency, triples(adjacency));
    }
    put!(h.ofs_joints, Owned(record_bytes::<Joint>(&file.joints)));
    put!(h.ofs_poses, Owned(record_bytes::<Pose>(&file.poses)));
    put!(h.ofs_anims, Owned(record_bytes::<Anim>(&file.anims)));
    put!(h.ofs_frames, u16_bytes(&file.frames));
    if let Some(bounds) = &file.bounds {
        put!(h.ofs_bounds, Owned(record_bytes::<Bounds>(bounds)));
    }
    put!(h.ofs_comment, Borrowed(&file.comment));
    for e in &file.extensions {
        let record = ExtensionRecord {
            name: e.name,
            num_data: e.num_data,
            ofs_data: e.ofs_data,
            ofs_extensions: e.ofs_next,
        };
        put!(e.offset, Owned(record_bytes(&[record])));
        put!(e.ofs_data, Borrowed(&e.data));
    }
    for gap in &file.gaps {
        out.push((gap.offset, Borrowed(&gap.bytes)));
    }
    out
}

/// Files from which [`to_bytes`] fills the two halves of the output on two threads (the
/// copies and the first touch of each new page of a large output take milliseconds).
#[cfg(feature = "parallel")]
const PARALLEL_BYTES: usize = 1 << 20;

/// Serializes a file: each piece at its offset; bytes nothing covers are zero.
pub(crate) fn to_bytes(file: &File) -> Vec<u8> {
    let pieces = pieces(file);
    let end = pieces
        .iter()
        .map(|(at, bytes)| at + bytes.len() as u64)
        .max()
        .unwrap_or(HEADER_SIZE);
    let mut out = vec![0u8; end as usize];
    #[cfg(feature = "parallel")]
    if out.len() >= PARALLEL_BYTES {
        let middle = out.len() / 2;
        let (low, high) = out.split_at_mut(middle);
        rayon::join(|| fill(low, 0, &pieces), || fill(high, middle, &pieces));
        return out;
    }
    fill(&mut out, 0, &pieces);
    out
}

/// A large block taken out of a file to be copied and freed ([`into_bytes`]).
enum Taken {
    Bytes(Vec<u8>),
    Triples(Vec<[u32; 3]>),
    Shorts(Vec<u16>),
}

impl Taken {
    fn bytes(&self) -> Cow<'_, [u8]> {
        match self {
            Taken::Bytes(bytes) => Cow::Borrowed(bytes),
            Taken::Triples(values) => triples(values),
            Taken::Shorts(values) => u16_bytes(values),
        }
    }
}

/// The blocks that hold nearly all of a large file's bytes — vertex arrays, triangles,
/// adjacency, frames — taken out of `file` with their offsets (as [`pieces`] places them),
/// sorted by offset; `file` keeps the rest.
fn take_large(file: &mut File) -> Vec<(u64, Taken)> {
    let h = file.header;
    let mut out: Vec<(u64, Taken)> = file
        .vertex_arrays
        .iter_mut()
        .map(|a| {
            (
                u64::from(a.offset),
                Taken::Bytes(std::mem::take(&mut a.data)),
            )
        })
        .collect();
    out.push((
        u64::from(h.ofs_triangles),
        Taken::Triples(std::mem::take(&mut file.triangles)),
    ));
    if let Some(adjacency) = file.adjacency.take() {
        out.push((u64::from(h.ofs_adjacency), Taken::Triples(adjacency)));
    }
    out.push((
        u64::from(h.ofs_frames),
        Taken::Shorts(std::mem::take(&mut file.frames)),
    ));
    out.retain(|(_, block)| !block.bytes().is_empty());
    out.sort_by_key(|&(at, _)| at);
    out
}

/// [`to_bytes`] of a file given away: the large blocks are freed one by one as they are
/// copied, so a large file is not held whole beside its bytes. The bytes are the same
/// wherever no two blocks overlap, as in every file [`pack`] lays out (which is what this
/// is used for).
pub(crate) fn into_bytes(mut file: File) -> Vec<u8> {
    let large = take_large(&mut file);
    let rest = pieces(&file);
    let end = rest
        .iter()
        .map(|(at, bytes)| at + bytes.len() as u64)
        .chain(
            large
                .iter()
                .map(|(at, block)| at + block.bytes().len() as u64),
        )
        .max()
        .unwrap_or(HEADER_SIZE);
    let mut out = vec![0u8; end as usize];
    fill(&mut out, 0, &rest);
    drop(rest);
    drop(file);
    copy_freeing(&mut out, 0, large);
    out
}

/// Copies each block into `out` (the file's bytes from offset `start`), freeing it once
/// copied; on two threads, each with half of the blocks, when they are large.
fn copy_freeing(out: &mut [u8], start: u64, mut blocks: Vec<(u64, Taken)>) {
    #[cfg(feature = "parallel")]
    {
        let total: usize = blocks.iter().map(|(_, b)| b.bytes().len()).sum();
        if total >= PARALLEL_BYTES && blocks.len() > 1 {
            // The first block of the second half; the halves meet at its offset, which no
            // block of the first half passes when the blocks do not overlap.
            let mut sum = 0;
            let split = blocks
                .iter()
                .position(|(_, b)| {
                    sum += b.bytes().len();
                    sum * 2 >= total
                })
                .map_or(blocks.len() - 1, |k| k + 1)
                .clamp(1, blocks.len() - 1);
            let middle = blocks[split].0;
            let disjoint = blocks[..split]
                .iter()
                .all(|(at, b)| at + b.bytes().len() as u64 <= middle);
            if disjoint && middle >= start {
                let high_blocks = blocks.split_off(split);
                let (low, high) = out.split_at_mut((middle - start) as usize);
                rayon::join(
                    || copy_freeing(low, start, blocks),
                    || copy_freeing(high, middle, high_blocks),
                );
                return;
            }
        }
    }
    for (at, block) in blocks {
        fill(out, start as usize, &[(at, block.bytes())]);
    }
}

/// Copies into `out`, which holds the file's bytes from offset `start`, the part of each
/// piece that falls in it, in the pieces' order (so a later piece overwrites an earlier one
/// it overlaps, as when the whole file is filled at once).
fn fill(out: &mut [u8], start: usize, pieces: &[(u64, Cow<'_, [u8]>)]) {
    let end = start + out.len();
    for (at, bytes) in pieces {
        let at = *at as usize;
        let (from, to) = (at.max(start), (at + bytes.len()).min(end));
        if from < to {
            out[from - start..to - start].copy_from_slice(&bytes[from - at..to - at]);
        }
    }
}

/// Offsets advance in 4-byte steps, as the specification asks (and vertex arrays of
/// doubles in 8-byte steps).
fn align(at: u64, to: u64) -> u64 {
    at.div_ceil(to) * to
}

/// Lays the file out afresh in the SDK's block order — header, text, meshes, vertex array
/// descriptors and data, triangles, adjacency, joints, poses, animations, frames, bounds,
/// comment, extensions — every block 4-byte aligned, the size padded to 4 bytes. Sets every
/// count the blocks determine, every offset (0 for an empty block) and `filesize`; drops
/// the gaps. `num_vertexes`, `num_frames` and `num_framechannels` are left as set.
/// Fails when the file would exceed 4 GiB.
pub(crate) fn pack(file: &mut File) -> Result<(), String> {
    let too_big = || "the file would exceed 4 GiB, the largest offset IQM can store".to_owned();
    let mut at = HEADER_SIZE;
    let mut place = |len: u64, alignment: u64| -> Result<u32, String> {
        if len == 0 {
            return Ok(0);
        }
        let start = align(at, alignment);
        at = start + len;
        u32::try_from(start).map_err(|_| too_big())
    };
    let count = |n: usize| u32::try_from(n).map_err(|_| too_big());
    let h = &mut file.header;
    h.magic = *crate::MAGIC;
    h.version = 2;
    h.num_text = count(file.text.len())?;
    h.ofs_text = place(file.text.len() as u64, 4)?;
    h.num_meshes = count(file.meshes.len())?;
    h.ofs_meshes = place(file.meshes.len() as u64 * Mesh::SIZE, 4)?;
    h.num_vertexarrays = count(file.vertex_arrays.len())?;
    h.ofs_vertexarrays = place(file.vertex_arrays.len() as u64 * VertexArrayRecord::SIZE, 4)?;
    for array in &mut file.vertex_arrays {
        let alignment = array.format().map_or(4, |f| f.size().max(4) as u64);
        array.offset = place(array.data.len() as u64, alignment)?;
    }
    h.num_triangles = count(file.triangles.len())?;
    h.ofs_triangles = place(file.triangles.len() as u64 * 12, 4)?;
    let adjacency = file.adjacency.as_ref().map_or(0, Vec::len) as u64;
    h.ofs_adjacency = place(adjacency * 12, 4)?;
    h.num_joints = count(file.joints.len())?;
    h.ofs_joints = place(file.joints.len() as u64 * Joint::SIZE, 4)?;
    h.num_poses = count(file.poses.len())?;
    h.ofs_poses = place(file.poses.len() as u64 * Pose::SIZE, 4)?;
    h.num_anims = count(file.anims.len())?;
    h.ofs_anims = place(file.anims.len() as u64 * Anim::SIZE, 4)?;
    h.ofs_frames = place(file.frames.len() as u64 * 2, 4)?;
    let bounds = file.bounds.as_ref().map_or(0, Vec::len) as u64;
    h.ofs_bounds = place(bounds * Bounds::SIZE, 4)?;
    h.num_comment = count(file.comment.len())?;
    h.ofs_comment = place(file.comment.len() as u64, 4)?;
    h.num_extensions = count(file.extensions.len())?;
    let mut previous: Option<usize> = None;
    for i in 0..file.extensions.len() {
        let offset = place(ExtensionRecord::SIZE, 4)?;
        let e = &mut file.extensions[i];
        e.offset = offset;
        e.num_data = count(e.data.len())?;
        e.ofs_data = place(e.data.len() as u64, 4)?;
        e.ofs_next = 0;
        match previous {
            None => file.header.ofs_extensions = offset,
            Some(p) => file.extensions[p].ofs_next = offset,
        }
        previous = Some(i);
    }
    if file.extensions.is_empty() {
        file.header.ofs_extensions = 0;
    }
    let end = align(at, 4);
    file.header.filesize = u32::try_from(end).map_err(|_| too_big())?;
    file.gaps.clear();
    // The padding at the end (after the last block) is a gap of zeros, so `to_vec` writes
    // exactly `filesize` bytes.
    if end > at {
        file.gaps.push(crate::file::Gap {
            offset: at,
            bytes: vec![0; (end - at) as usize],
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::file::Gap;

    #[test]
    fn a_large_file_is_filled_as_piece_after_piece() {
        // Gaps larger than a megabyte that overlap each other and the middle of the
        // output: a later piece overwrites an earlier one in both halves.
        let pattern = |n: usize, seed: u8| -> Vec<u8> {
            (0..n).map(|i| (i as u8).wrapping_mul(31) ^ seed).collect()
        };
        let gaps = vec![
            Gap {
                offset: 200,
                bytes: pattern(1_500_000, 1),
            },
            Gap {
                offset: 700_000,
                bytes: pattern(300_000, 2),
            },
            Gap {
                offset: 1_600_000,
                bytes: pattern(900_000, 3),
            },
        ];
        let file = File {
            gaps,
            ..File::default()
        };
        let pieces = pieces(&file);
        let mut expected = vec![0u8; 2_500_000];
        for (at, bytes) in &pieces {
            let at = *at as usize;
            expected[at..at + bytes.len()].copy_from_slice(bytes);
        }
        let out = to_bytes(&file);
        assert_eq!(out.len(), expected.len());
        assert!(out == expected);
        assert_eq!(out[750_000], pattern(300_000, 2)[50_000]);
    }
}
