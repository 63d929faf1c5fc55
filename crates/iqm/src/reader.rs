//! Reading: the header, then every block at the offset the header gives, each checked
//! against the input's size and the memory [`Budget`] before anything is allocated; then
//! the bytes no block covers, kept as gaps.

use crate::error::{Detail, Error};
use crate::file::{Extension, File, Format, Gap, VertexArray};
use crate::records::{
    Anim, Bounds, ExtensionRecord, HEADER_SIZE, Header, Joint, JointV1, MAGIC, Mesh, Pose, PoseV1,
    Record, VertexArrayRecord,
};
use crate::upgrade;
use binrw::BinRead;
use rigport_model_core::{Budget, ReadOptions, Report};
use std::io::Cursor;
use std::mem::size_of;

/// Byte offsets of the header fields that place blocks, for error messages.
mod at {
    pub const OFS_TEXT: u64 = 32;
    pub const OFS_MESHES: u64 = 40;
    pub const OFS_VERTEXARRAYS: u64 = 52;
    pub const OFS_TRIANGLES: u64 = 60;
    pub const OFS_ADJACENCY: u64 = 64;
    pub const OFS_JOINTS: u64 = 72;
    pub const OFS_POSES: u64 = 80;
    pub const OFS_ANIMS: u64 = 88;
    pub const OFS_FRAMES: u64 = 100;
    pub const OFS_BOUNDS: u64 = 104;
    pub const OFS_COMMENT: u64 = 112;
    pub const OFS_EXTENSIONS: u64 = 120;
}

/// The input with its budget and the byte ranges the blocks read so far cover.
struct Reader<'a> {
    bytes: &'a [u8],
    budget: Budget,
    covered: Vec<(u64, u64)>,
}

/// Where a block is and what it holds, for [`Reader::block`].
struct Place<'f> {
    /// Name of the offset field (`ofs_meshes`).
    field: &'f dyn Fn() -> String,
    /// Where the count/offset field pair is stored.
    at: u64,
    offset: u32,
    count: u64,
    item_size: u64,
    what: &'static str,
}

impl<'a> Reader<'a> {
    fn len(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// The bytes of a block of `count` items of `item_size` bytes at `offset`, after
    /// checking they lie inside the input and drawing `count` items of `T` from the budget.
    fn block<T>(&mut self, place: Place<'_>) -> Result<&'a [u8], Error> {
        if place.count == 0 {
            return Ok(&[]);
        }
        let start = u64::from(place.offset);
        let end = place
            .count
            .checked_mul(place.item_size)
            .and_then(|n| n.checked_add(start))
            .unwrap_or(u64::MAX);
        if end > self.len() {
            let detail = Detail::BlockPastEnd {
                field: (place.field)(),
                offset: place.at,
                value: start,
                what: place.what,
                count: place.count,
                item_size: place.item_size,
                end,
                file_len: self.len(),
            };
            return Err(Error::at(place.at, detail));
        }
        self.budget
            .reserve(place.what, place.count, size_of::<T>() as u64)
            .map_err(|source| Error::limit(place.at, source))?;
        self.covered.push((start, end));
        // `end <= len` was checked, so both bounds fit in usize.
        Ok(&self.bytes[start as usize..end as usize])
    }

    /// A block of fixed-size records, each read with binrw.
    fn records<T: Record>(
        &mut self,
        field: &dyn Fn() -> String,
        at: u64,
        offset: u32,
        count: u32,
        what: &'static str,
    ) -> Result<Vec<T>, Error> {
        let slice = self.block::<T>(Place {
            field,
            at,
            offset,
            count: count.into(),
            item_size: T::SIZE,
            what,
        })?;
        let mut cursor = Cursor::new(slice);
        (0..count)
            .map(|i| {
                T::read_le(&mut cursor).map_err(|_| Error::Truncated {
                    offset: u64::from(offset) + u64::from(i) * T::SIZE,
                    what,
                    needed: T::SIZE,
                    available: 0,
                })
            })
            .collect()
    }
}

fn name(s: &'static str) -> impl Fn() -> String {
    move || s.to_owned()
}

/// Three little-endian `u32`s per 12 bytes. On little-endian machines the bytes are
/// copied as they are (bytemuck: one `memcpy`, several times faster than decoding each
/// word), elsewhere decoded word by word.
fn u32_triples(slice: &[u8]) -> Vec<[u32; 3]> {
    if cfg!(target_endian = "little") {
        return bytemuck::pod_collect_to_vec(&slice[..slice.len() / 12 * 12]);
    }
    slice
        .chunks_exact(12)
        .map(|c| {
            let word = |i: usize| u32::from_le_bytes([c[i], c[i + 1], c[i + 2], c[i + 3]]);
            [word(0), word(4), word(8)]
        })
        .collect()
}

/// Little-endian `u16`s, copied as [`u32_triples`] does.
fn u16s(slice: &[u8]) -> Vec<u16> {
    if cfg!(target_endian = "little") {
        return bytemuck::pod_collect_to_vec(&slice[..slice.len() / 2 * 2]);
    }
    slice
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect()
}

/// Reads a whole file.
pub(crate) fn parse(bytes: &[u8], options: &ReadOptions) -> Result<(File, Report), Error> {
    let header = read_header(bytes)?;
    let mut report = Report::default();
    if u64::from(header.filesize) != bytes.len() as u64 {
        if options.strict {
            let detail = Detail::FileSize {
                stored: header.filesize.into(),
                actual: bytes.len() as u64,
            };
            return Err(Error::at(20u64, detail));
        }
        report.warn(
            rigport_model_core::codes::FILESIZE,
            format!(
                "header filesize at byte 20 is {}, but the file has {} bytes",
                header.filesize,
                bytes.len()
            ),
        );
    }
    let mut r = Reader {
        bytes,
        budget: options.limits.budget(),
        covered: vec![(0, HEADER_SIZE)],
    };
    let h = header;
    let text = r
        .block::<u8>(Place {
            field: &name("ofs_text"),
            at: at::OFS_TEXT,
            offset: h.ofs_text,
            count: h.num_text.into(),
            item_size: 1,
            what: "text bytes",
        })?
        .to_vec();
    let meshes = r.records::<Mesh>(
        &name("ofs_meshes"),
        at::OFS_MESHES,
        h.ofs_meshes,
        h.num_meshes,
        "meshes",
    )?;
    let descriptors = r.records::<VertexArrayRecord>(
        &name("ofs_vertexarrays"),
        at::OFS_VERTEXARRAYS,
        h.ofs_vertexarrays,
        h.num_vertexarrays,
        "vertex arrays",
    )?;
    let vertex_arrays = read_vertex_arrays(&mut r, &h, &descriptors, options, &mut report)?;
    let triangles = u32_triples(r.block::<[u32; 3]>(Place {
        field: &name("ofs_triangles"),
        at: at::OFS_TRIANGLES,
        offset: h.ofs_triangles,
        count: h.num_triangles.into(),
        item_size: 12,
        what: "triangles",
    })?);
    let adjacency = if h.ofs_adjacency != 0 && h.num_triangles > 0 {
        Some(u32_triples(r.block::<[u32; 3]>(Place {
            field: &name("ofs_adjacency"),
            at: at::OFS_ADJACENCY,
            offset: h.ofs_adjacency,
            count: h.num_triangles.into(),
            item_size: 12,
            what: "adjacency records",
        })?))
    } else {
        None
    };
    let v1 = h.version == 1;
    let (joints, poses) = if v1 {
        let joints = r.records::<JointV1>(
            &name("ofs_joints"),
            at::OFS_JOINTS,
            h.ofs_joints,
            h.num_joints,
            "joints",
        )?;
        let poses = r.records::<PoseV1>(
            &name("ofs_poses"),
            at::OFS_POSES,
            h.ofs_poses,
            h.num_poses,
            "poses",
        )?;
        upgrade::joints_and_poses(&joints, &poses)
    } else {
        let joints = r.records::<Joint>(
            &name("ofs_joints"),
            at::OFS_JOINTS,
            h.ofs_joints,
            h.num_joints,
            "joints",
        )?;
        let poses = r.records::<Pose>(
            &name("ofs_poses"),
            at::OFS_POSES,
            h.ofs_poses,
            h.num_poses,
            "poses",
        )?;
        (joints, poses)
    };
    let anims = r.records::<Anim>(
        &name("ofs_anims"),
        at::OFS_ANIMS,
        h.ofs_anims,
        h.num_anims,
        "animations",
    )?;
    let frame_values = u64::from(h.num_frames) * u64::from(h.num_framechannels);
    let frames = u16s(r.block::<u16>(Place {
        field: &name("ofs_frames"),
        at: at::OFS_FRAMES,
        offset: h.ofs_frames,
        count: frame_values,
        item_size: 2,
        what: "frame values",
    })?);
    let bounds = if h.ofs_bounds != 0 && h.num_frames > 0 {
        Some(r.records::<Bounds>(
            &name("ofs_bounds"),
            at::OFS_BOUNDS,
            h.ofs_bounds,
            h.num_frames,
            "bounds",
        )?)
    } else {
        None
    };
    let comment = r
        .block::<u8>(Place {
            field: &name("ofs_comment"),
            at: at::OFS_COMMENT,
            offset: h.ofs_comment,
            count: h.num_comment.into(),
            item_size: 1,
            what: "comment bytes",
        })?
        .to_vec();
    let extensions = read_extensions(&mut r, &h, options, &mut report)?;
    let gaps = gaps(bytes, &mut r.covered);
    let mut file = File {
        header,
        text,
        meshes,
        vertex_arrays,
        triangles,
        adjacency,
        joints,
        poses,
        anims,
        frames,
        bounds,
        comment,
        extensions,
        gaps,
    };
    if v1 {
        upgrade::frames(&mut file, &mut report);
    }
    Ok((file, report))
}

fn read_header(bytes: &[u8]) -> Result<Header, Error> {
    let head = &bytes[..bytes.len().min(MAGIC.len())];
    if head != &MAGIC[..head.len()] {
        return Err(Error::BadMagic {
            format: "an IQM",
            expected: "INTERQUAKEMODEL\\0",
            found: String::from_utf8_lossy(head).into_owned(),
        });
    }
    if (bytes.len() as u64) < HEADER_SIZE {
        return Err(Error::Truncated {
            offset: 0,
            what: "header",
            needed: HEADER_SIZE,
            available: bytes.len() as u64,
        });
    }
    let header = Header::read_le(&mut Cursor::new(bytes)).map_err(|_| Error::Truncated {
        offset: 0,
        what: "header",
        needed: HEADER_SIZE,
        available: bytes.len() as u64,
    })?;
    if !matches!(header.version, 1 | 2) {
        let detail = Detail::UnsupportedVersion {
            version: header.version,
        };
        return Err(Error::at(16u64, detail));
    }
    Ok(header)
}

fn read_vertex_arrays(
    r: &mut Reader<'_>,
    h: &Header,
    descriptors: &[VertexArrayRecord],
    options: &ReadOptions,
    report: &mut Report,
) -> Result<Vec<VertexArray>, Error> {
    let mut arrays = Vec::with_capacity(descriptors.len());
    for (i, d) in descriptors.iter().enumerate() {
        let at = u64::from(h.ofs_vertexarrays) + i as u64 * VertexArrayRecord::SIZE;
        let data = match Format::from_u32(d.format) {
            Some(format) => r
                .block::<u8>(Place {
                    field: &|| format!("vertex array {i} offset"),
                    at: at + 16,
                    offset: d.offset,
                    count: u64::from(h.num_vertexes) * u64::from(d.size),
                    item_size: format.size() as u64,
                    what: "vertex array components",
                })?
                .to_vec(),
            None => {
                if options.strict {
                    return Err(Error::Invalid {
                        offset: at + 8,
                        what: format!("vertex array {i} format").into(),
                        value: d.format.into(),
                    });
                }
                report.warn(
                    rigport_model_core::codes::UNKNOWN_FORMAT,
                    format!(
                        "vertex array {i} (byte {at}) has unknown format {}; its data kept raw",
                        d.format
                    ),
                );
                Vec::new()
            }
        };
        arrays.push(VertexArray {
            kind: d.kind,
            flags: d.flags,
            format: d.format,
            size: d.size,
            offset: d.offset,
            data,
        });
    }
    Ok(arrays)
}

fn read_extensions(
    r: &mut Reader<'_>,
    h: &Header,
    options: &ReadOptions,
    report: &mut Report,
) -> Result<Vec<Extension>, Error> {
    let count = u64::from(h.num_extensions);
    if count == 0 {
        return Ok(Vec::new());
    }
    // The records alone need 16 bytes each: refuse a count the file cannot hold before
    // following any pointer.
    if count * ExtensionRecord::SIZE > r.len() {
        let offset = at::OFS_EXTENSIONS - 4;
        return Err(Error::at(
            offset,
            Detail::BlockPastEnd {
                field: "num_extensions".to_owned(),
                offset,
                value: h.ofs_extensions.into(),
                what: "extensions",
                count,
                item_size: ExtensionRecord::SIZE,
                end: count * ExtensionRecord::SIZE,
                file_len: r.len(),
            },
        ));
    }
    let mut extensions = Vec::new();
    let mut next = h.ofs_extensions;
    let mut field_at = at::OFS_EXTENSIONS;
    for i in 0..count {
        if next == 0 {
            let what = format!("extension list: {i} of {count} extensions, then pointer");
            if options.strict {
                return Err(Error::Invalid {
                    offset: field_at,
                    what: what.into(),
                    value: 0,
                });
            }
            report.warn(
                rigport_model_core::codes::EXTENSIONS_SHORT,
                format!(
                    "the extension list at byte {field_at} ends after {i} of {count} extensions"
                ),
            );
            break;
        }
        let field = |i: u64| {
            move || {
                if i == 0 {
                    "ofs_extensions".to_owned()
                } else {
                    format!("extension {} ofs_extensions", i - 1)
                }
            }
        };
        let record = r.records::<ExtensionRecord>(&field(i), field_at, next, 1, "extensions")?[0];
        let data = r
            .block::<u8>(Place {
                field: &|| format!("extension {i} ofs_data"),
                at: u64::from(next) + 8,
                offset: record.ofs_data,
                count: record.num_data.into(),
                item_size: 1,
                what: "extension data bytes",
            })?
            .to_vec();
        extensions.push(Extension {
            offset: next,
            name: record.name,
            num_data: record.num_data,
            ofs_data: record.ofs_data,
            ofs_next: record.ofs_extensions,
            data,
        });
        field_at = u64::from(next) + 12;
        next = record.ofs_extensions;
    }
    Ok(extensions)
}

/// The byte ranges of `bytes` that no block covers.
fn gaps(bytes: &[u8], covered: &mut [(u64, u64)]) -> Vec<Gap> {
    covered.sort_unstable();
    let mut gaps = Vec::new();
    let mut at = 0u64;
    for &(start, end) in covered.iter() {
        if start > at {
            gaps.push(Gap {
                offset: at,
                bytes: bytes[at as usize..start as usize].to_vec(),
            });
        }
        at = at.max(end);
    }
    if (bytes.len() as u64) > at {
        gaps.push(Gap {
            offset: at,
            bytes: bytes[at as usize..].to_vec(),
        });
    }
    gaps
}
