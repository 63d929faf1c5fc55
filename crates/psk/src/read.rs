//! Reading the section list, with every count checked against the bytes left and the
//! memory budget before anything is allocated.

use crate::error::{Detail, Error};
use crate::file::*;
use rigport_model_core::{Budget, ReadOptions, Report, codes};

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn i32_at(b: &[u8], at: usize) -> i32 {
    u32_at(b, at) as i32
}

fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_bits(u32_at(b, at))
}

fn f32s<const N: usize>(b: &[u8], at: usize) -> [f32; N] {
    std::array::from_fn(|i| f32_at(b, at + 4 * i))
}

fn name64(b: &[u8], at: usize) -> [u8; 64] {
    let mut name = [0u8; 64];
    name.copy_from_slice(&b[at..at + 64]);
    name
}

/// What a known section's records are, by its name and record size.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Known {
    Points,
    Wedges,
    Faces,
    Faces32,
    Materials,
    Bones,
    Weights,
    Normals,
    Colors,
    Uvs,
    MorphInfo,
    MorphData,
    AnimInfo,
    Keys,
    ScaleKeys,
}

/// The known section a name stands for, with the record size it has.
fn known(name: &[u8]) -> Option<(Known, usize)> {
    Some(match name {
        b"PNTS0000" => (Known::Points, 12),
        b"VTXW0000" => (Known::Wedges, 16),
        b"FACE0000" => (Known::Faces, 12),
        b"FACE3200" => (Known::Faces32, 18),
        b"MATT0000" => (Known::Materials, 88),
        b"REFSKELT" | b"REFSKEL0" | b"BONENAMES" => (Known::Bones, 120),
        b"RAWWEIGHTS" | b"RAWWEIGHT0" => (Known::Weights, 12),
        b"VTXNORMS" => (Known::Normals, 12),
        b"VERTEXCOLOR" => (Known::Colors, 4),
        b"MRPHINFO" => (Known::MorphInfo, 68),
        b"MRPHDATA" => (Known::MorphData, 28),
        b"ANIMINFO" => (Known::AnimInfo, 168),
        b"ANIMKEYS" => (Known::Keys, 32),
        b"SCALEKEYS" => (Known::ScaleKeys, 16),
        n if n.starts_with(b"EXTRAUV") => (Known::Uvs, 8),
        _ => return None,
    })
}

/// Bytes a decoded record of each kind takes in memory (for the budget).
fn memory_size(kind: Known) -> u64 {
    (match kind {
        Known::Points | Known::Normals => size_of::<[f32; 3]>(),
        Known::Wedges => size_of::<Wedge>(),
        Known::Faces | Known::Faces32 => size_of::<Face>(),
        Known::Materials => size_of::<MaterialRecord>(),
        Known::Bones => size_of::<Bone>(),
        Known::Weights => size_of::<RawWeight>(),
        Known::Colors => size_of::<[u8; 4]>(),
        Known::Uvs => size_of::<[f32; 2]>(),
        Known::MorphInfo => size_of::<MorphInfo>(),
        Known::MorphData => size_of::<MorphDelta>(),
        Known::AnimInfo => size_of::<AnimInfo>(),
        Known::Keys => size_of::<AnimKey>(),
        Known::ScaleKeys => size_of::<ScaleKey>(),
    }) as u64
}

fn decode<T>(data: &[u8], size: usize, f: impl Fn(&[u8]) -> T) -> Vec<T> {
    data.chunks_exact(size).map(f).collect()
}

fn body(kind: Known, data: &[u8], size: usize) -> Body {
    match kind {
        Known::Points => Body::Points(decode(data, size, |r| f32s(r, 0))),
        Known::Normals => Body::Normals(decode(data, size, |r| f32s(r, 0))),
        Known::Wedges => Body::Wedges(decode(data, size, |r| Wedge {
            point: u32_at(r, 0),
            u: f32_at(r, 4),
            v: f32_at(r, 8),
            material: r[12],
            reserved: r[13],
            pad: u16::from_le_bytes([r[14], r[15]]),
        })),
        Known::Faces => Body::Faces(decode(data, size, |r| Face {
            wedges: std::array::from_fn(|i| {
                u32::from(u16::from_le_bytes([r[2 * i], r[2 * i + 1]]))
            }),
            material: r[6],
            aux_material: r[7],
            smoothing: u32_at(r, 8),
        })),
        Known::Faces32 => Body::Faces32(decode(data, size, |r| Face {
            wedges: std::array::from_fn(|i| u32_at(r, 4 * i)),
            material: r[12],
            aux_material: r[13],
            smoothing: u32_at(r, 14),
        })),
        Known::Materials => Body::Materials(decode(data, size, |r| MaterialRecord {
            name: name64(r, 0),
            texture_index: i32_at(r, 64),
            poly_flags: u32_at(r, 68),
            aux_material: i32_at(r, 72),
            aux_flags: u32_at(r, 76),
            lod_bias: i32_at(r, 80),
            lod_style: i32_at(r, 84),
        })),
        Known::Bones => Body::Bones(decode(data, size, |r| Bone {
            name: name64(r, 0),
            flags: u32_at(r, 64),
            num_children: i32_at(r, 68),
            parent: i32_at(r, 72),
            orientation: f32s(r, 76),
            position: f32s(r, 92),
            length: f32_at(r, 104),
            size: f32s(r, 108),
        })),
        Known::Weights => Body::Weights(decode(data, size, |r| RawWeight {
            weight: f32_at(r, 0),
            point: i32_at(r, 4),
            bone: i32_at(r, 8),
        })),
        Known::Colors => Body::Colors(decode(data, size, |r| [r[0], r[1], r[2], r[3]])),
        Known::Uvs => Body::Uvs(decode(data, size, |r| f32s(r, 0))),
        Known::MorphInfo => Body::MorphInfo(decode(data, size, |r| MorphInfo {
            name: name64(r, 0),
            vertex_count: i32_at(r, 64),
        })),
        Known::MorphData => Body::MorphData(decode(data, size, |r| MorphDelta {
            position: f32s(r, 0),
            normal: f32s(r, 12),
            point: i32_at(r, 24),
        })),
        Known::AnimInfo => Body::AnimInfo(decode(data, size, |r| AnimInfo {
            name: name64(r, 0),
            group: name64(r, 64),
            total_bones: i32_at(r, 128),
            root_include: i32_at(r, 132),
            key_compression_style: i32_at(r, 136),
            key_quotum: i32_at(r, 140),
            key_reduction: f32_at(r, 144),
            track_time: f32_at(r, 148),
            anim_rate: f32_at(r, 152),
            start_bone: i32_at(r, 156),
            first_raw_frame: i32_at(r, 160),
            num_raw_frames: i32_at(r, 164),
        })),
        Known::Keys => Body::Keys(decode(data, size, |r| AnimKey {
            position: f32s(r, 0),
            orientation: f32s(r, 12),
            time: f32_at(r, 28),
        })),
        Known::ScaleKeys => Body::ScaleKeys(decode(data, size, |r| ScaleKey {
            scale: f32s(r, 0),
            time: f32_at(r, 12),
        })),
    }
}

/// Warnings of a read: kept in the report, or the first one an error when strict.
struct Warnings<'a> {
    strict: bool,
    report: &'a mut Report,
}

impl Warnings<'_> {
    fn warn(
        &mut self,
        code: rigport_model_core::Code,
        offset: u64,
        message: String,
    ) -> Result<(), Error> {
        if self.strict {
            return Err(Error::strict(offset, message));
        }
        self.report.warn(code, format!("byte {offset}: {message}"));
        Ok(())
    }
}

fn display_id(id: &[u8]) -> String {
    String::from_utf8_lossy(rigport_model_core::text::until_nul(id)).into_owned()
}

/// Reads a whole file.
pub(crate) fn parse(bytes: &[u8], options: &ReadOptions) -> Result<(File, Report), Error> {
    let mut report = Report::default();
    let mut warnings = Warnings {
        strict: options.strict,
        report: &mut report,
    };
    let mut budget: Budget = options.limits.budget();
    let len = bytes.len() as u64;
    if bytes.len() < HEADER_SIZE {
        if bytes.len() >= 8 && sniff_id(bytes).is_none() {
            let found = display_id(&bytes[..bytes.len().min(20)]);
            return Err(Error::at(0u64, Detail::NotPsk { found }));
        }
        return Err(Error::Truncated {
            offset: 0,
            what: "the section header",
            needed: HEADER_SIZE as u64,
            available: len,
        });
    }
    let Some(kind) = sniff_id(bytes) else {
        let found = display_id(&bytes[..20]);
        return Err(Error::at(0u64, Detail::NotPsk { found }));
    };
    let mut sections = Vec::new();
    let mut trailing = Vec::new();
    let mut unknown: Vec<String> = Vec::new();
    let mut at = 0usize;
    while at < bytes.len() {
        let offset = at as u64;
        let left = bytes.len() - at;
        if left < HEADER_SIZE {
            if options.strict {
                let detail = Detail::TrailingBytes {
                    offset,
                    count: left as u64,
                };
                return Err(Error::at(offset, detail));
            }
            warnings.warn(
                codes::DAMAGED_TAIL,
                offset,
                format!("{left} bytes after the last section are not a section; kept as they are"),
            )?;
            trailing = bytes[at..].to_vec();
            break;
        }
        let head = &bytes[at..at + HEADER_SIZE];
        let mut id = [0u8; 20];
        id.copy_from_slice(&head[..20]);
        let type_flag = i32_at(head, 20);
        let data_size = i32_at(head, 24);
        let data_count = i32_at(head, 28);
        let name = rigport_model_core::text::until_nul(&id);
        for (field, value) in [("DataSize", data_size), ("DataCount", data_count)] {
            if value < 0 {
                let detail = Detail::Negative {
                    id: display_id(&id),
                    offset,
                    field,
                    value,
                };
                return Err(Error::at(offset, detail));
            }
        }
        let (size, count) = (data_size as u64, data_count as u64);
        let needed = size * count;
        let body_at = at + HEADER_SIZE;
        let available = (bytes.len() - body_at) as u64;
        if needed > available {
            let cut = available / size.max(1);
            let detail = Detail::SectionPastEnd {
                id: display_id(&id),
                offset,
                size,
                count,
                needed,
                body: body_at as u64,
                available,
                cut,
                cut_at: body_at as u64 + cut * size,
            };
            return Err(Error::at(offset, detail));
        }
        let data = &bytes[body_at..body_at + needed as usize];
        let decoded = match known(name) {
            Some((kind, record)) if record as u64 == size => {
                budget
                    .reserve("PSK records", count, memory_size(kind))
                    .map_err(|source| Error::limit(offset + 28, source))?;
                body(kind, data, record)
            }
            other => {
                if let Some((_, record)) = other {
                    if count > 0 {
                        warnings.warn(
                            codes::UNKNOWN_BLOCKS,
                            offset,
                            format!(
                                "section {} has records of {size} bytes, not {record}; kept raw",
                                display_id(&id)
                            ),
                        )?;
                    }
                } else if !matches!(name, b"ACTRHEAD" | b"ANIMHEAD") {
                    unknown.push(display_id(&id));
                }
                budget
                    .reserve("PSK raw section", needed, 1)
                    .map_err(|source| Error::limit(offset + 28, source))?;
                Body::Raw(data.to_vec())
            }
        };
        sections.push(Section {
            id,
            type_flag,
            data_size,
            data_count,
            body: decoded,
        });
        at = body_at + needed as usize;
    }
    if !unknown.is_empty() {
        warnings.report.info(
            codes::UNKNOWN_BLOCKS,
            format!(
                "{} sections this reader does not interpret were kept as they are: {}",
                unknown.len(),
                unknown.join(", ")
            ),
        );
    }
    let file = File {
        kind,
        sections,
        trailing,
    };
    check(&file, &mut warnings)?;
    Ok((file, report))
}

/// An index stored at `offset` that is `index`, past the `len` items of what it indexes.
fn out_of_range(offset: u64, what: &'static str, index: i64, len: u64) -> Error {
    let detail = Detail::IndexOutOfRange {
        offset,
        what,
        index,
        len,
    };
    Error::at(offset, detail)
}

/// Which file the first section's name says the bytes are.
pub(crate) fn sniff_id(bytes: &[u8]) -> Option<Kind> {
    let head = &bytes[..bytes.len().min(20)];
    match rigport_model_core::text::until_nul(head) {
        b"ACTRHEAD" => Some(Kind::Mesh),
        b"ANIMHEAD" => Some(Kind::Anim),
        _ => None,
    }
}

/// Every index checked against what it indexes: an index past the end is an error naming
/// where it is stored; counts that disagree between sections are warnings.
fn check(file: &File, warnings: &mut Warnings<'_>) -> Result<(), Error> {
    let points = file.points().len() as u64;
    let wedges = file.wedges();
    let bones = file.bones().len() as u64;
    let (wedge_at, wedge_size) = file.body_offset(|b| matches!(b, Body::Wedges(_)));
    for (i, wedge) in wedges.iter().enumerate() {
        let point = u64::from(file.point_of(wedge));
        if point >= points {
            return Err(out_of_range(
                wedge_at + i as u64 * wedge_size,
                "wedge point index",
                point as i64,
                points,
            ));
        }
    }
    let (face_at, face_size) = file.body_offset(|b| matches!(b, Body::Faces(_) | Body::Faces32(_)));
    let field = if face_size == 18 { 4 } else { 2 };
    for (i, face) in file.faces().iter().enumerate() {
        for (k, &wedge) in face.wedges.iter().enumerate() {
            if u64::from(wedge) >= wedges.len() as u64 {
                return Err(out_of_range(
                    face_at + i as u64 * face_size + k as u64 * field,
                    "face wedge index",
                    i64::from(wedge),
                    wedges.len() as u64,
                ));
            }
        }
    }
    let (weight_at, weight_size) = file.body_offset(|b| matches!(b, Body::Weights(_)));
    for (i, w) in file.weights().iter().enumerate() {
        let record = weight_at + i as u64 * weight_size;
        if w.point < 0 || w.point as u64 >= points {
            return Err(out_of_range(
                record + 4,
                "weight point index",
                i64::from(w.point),
                points,
            ));
        }
        if w.bone < 0 || w.bone as u64 >= bones {
            return Err(out_of_range(
                record + 8,
                "weight bone index",
                i64::from(w.bone),
                bones,
            ));
        }
    }
    let (bone_at, bone_size) = file.body_offset(|b| matches!(b, Body::Bones(_)));
    for (i, bone) in file.bones().iter().enumerate().skip(1) {
        if file.kind == Kind::Mesh && bone.parent >= 0 && bone.parent as u64 >= bones {
            return Err(out_of_range(
                bone_at + i as u64 * bone_size + 72,
                "bone parent index",
                i64::from(bone.parent),
                bones,
            ));
        }
    }
    let (morph_at, morph_size) = file.body_offset(|b| matches!(b, Body::MorphData(_)));
    for (i, delta) in file.morph_data().iter().enumerate() {
        if delta.point < 0 || delta.point as u64 >= points {
            return Err(out_of_range(
                morph_at + i as u64 * morph_size + 24,
                "morph delta point index",
                i64::from(delta.point),
                points,
            ));
        }
    }
    let offsets = file.section_offsets();
    for (section, &offset) in file.sections.iter().zip(&offsets) {
        let (what, expected) = match &section.body {
            Body::Normals(v) => ("points", (v.len() as u64, points)),
            Body::Colors(v) => ("wedges", (v.len() as u64, wedges.len() as u64)),
            Body::Uvs(v) => ("wedges", (v.len() as u64, wedges.len() as u64)),
            _ => continue,
        };
        if expected.0 != expected.1 {
            warnings.warn(
                codes::COUNT_MISMATCH,
                offset + 28,
                format!(
                    "section {} has {} records for {} {what}; it is not used",
                    display_id(&section.id),
                    expected.0,
                    expected.1
                ),
            )?;
        }
    }
    let morph_total: u64 = file
        .morph_info()
        .iter()
        .map(|m| u64::try_from(m.vertex_count).unwrap_or(u64::MAX))
        .fold(0u64, u64::saturating_add);
    if morph_total != file.morph_data().len() as u64 {
        let (info_at, _) = file.body_offset(|b| matches!(b, Body::MorphInfo(_)));
        warnings.warn(
            codes::COUNT_MISMATCH,
            info_at,
            format!(
                "MRPHINFO counts {morph_total} deltas, MRPHDATA holds {}; the morph targets are not used",
                file.morph_data().len()
            ),
        )?;
    }
    if file.kind == Kind::Anim {
        let frames: u64 = file
            .sequences()
            .iter()
            .map(|s| u64::try_from(s.num_raw_frames).unwrap_or(0))
            .sum();
        let keys = file.keys().len() as u64;
        if frames.saturating_mul(bones) != keys {
            let (keys_at, _) = file.body_offset(|b| matches!(b, Body::Keys(_)));
            warnings.warn(
                codes::COUNT_MISMATCH,
                keys_at.saturating_sub(4),
                format!(
                    "ANIMKEYS holds {keys} keys, but {frames} frames of {bones} bones need {}",
                    frames.saturating_mul(bones)
                ),
            )?;
        }
    }
    Ok(())
}
