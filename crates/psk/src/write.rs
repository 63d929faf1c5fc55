//! Writing the section list: each header as stored, then its records.

use crate::file::*;

fn f32s(out: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

fn body(out: &mut Vec<u8>, body: &Body) {
    match body {
        Body::Points(v) | Body::Normals(v) => v.iter().for_each(|p| f32s(out, p)),
        Body::Wedges(v) => {
            for w in v {
                out.extend_from_slice(&w.point.to_le_bytes());
                f32s(out, &[w.u, w.v]);
                out.extend_from_slice(&[w.material, w.reserved]);
                out.extend_from_slice(&w.pad.to_le_bytes());
            }
        }
        Body::Faces(v) => {
            for f in v {
                for w in f.wedges {
                    // FACE0000 holds 16-bit indices; a larger one cannot be in this body.
                    out.extend_from_slice(&(w as u16).to_le_bytes());
                }
                out.extend_from_slice(&[f.material, f.aux_material]);
                out.extend_from_slice(&f.smoothing.to_le_bytes());
            }
        }
        Body::Faces32(v) => {
            for f in v {
                for w in f.wedges {
                    out.extend_from_slice(&w.to_le_bytes());
                }
                out.extend_from_slice(&[f.material, f.aux_material]);
                out.extend_from_slice(&f.smoothing.to_le_bytes());
            }
        }
        Body::Materials(v) => {
            for m in v {
                out.extend_from_slice(&m.name);
                for x in [m.texture_index as u32, m.poly_flags, m.aux_material as u32] {
                    out.extend_from_slice(&x.to_le_bytes());
                }
                for x in [m.aux_flags, m.lod_bias as u32, m.lod_style as u32] {
                    out.extend_from_slice(&x.to_le_bytes());
                }
            }
        }
        Body::Bones(v) => {
            for b in v {
                out.extend_from_slice(&b.name);
                out.extend_from_slice(&b.flags.to_le_bytes());
                out.extend_from_slice(&b.num_children.to_le_bytes());
                out.extend_from_slice(&b.parent.to_le_bytes());
                f32s(out, &b.orientation);
                f32s(out, &b.position);
                f32s(out, &[b.length]);
                f32s(out, &b.size);
            }
        }
        Body::Weights(v) => {
            for w in v {
                f32s(out, &[w.weight]);
                out.extend_from_slice(&w.point.to_le_bytes());
                out.extend_from_slice(&w.bone.to_le_bytes());
            }
        }
        Body::Colors(v) => v.iter().for_each(|c| out.extend_from_slice(c)),
        Body::Uvs(v) => v.iter().for_each(|uv| f32s(out, uv)),
        Body::MorphInfo(v) => {
            for m in v {
                out.extend_from_slice(&m.name);
                out.extend_from_slice(&m.vertex_count.to_le_bytes());
            }
        }
        Body::MorphData(v) => {
            for d in v {
                f32s(out, &d.position);
                f32s(out, &d.normal);
                out.extend_from_slice(&d.point.to_le_bytes());
            }
        }
        Body::AnimInfo(v) => {
            for a in v {
                out.extend_from_slice(&a.name);
                out.extend_from_slice(&a.group);
                for x in [
                    a.total_bones,
                    a.root_include,
                    a.key_compression_style,
                    a.key_quotum,
                ] {
                    out.extend_from_slice(&x.to_le_bytes());
                }
                f32s(out, &[a.key_reduction, a.track_time, a.anim_rate]);
                for x in [a.start_bone, a.first_raw_frame, a.num_raw_frames] {
                    out.extend_from_slice(&x.to_le_bytes());
                }
            }
        }
        Body::Keys(v) => {
            for k in v {
                f32s(out, &k.position);
                f32s(out, &k.orientation);
                f32s(out, &[k.time]);
            }
        }
        Body::ScaleKeys(v) => {
            for k in v {
                f32s(out, &k.scale);
                f32s(out, &[k.time]);
            }
        }
        Body::Raw(raw) => out.extend_from_slice(raw),
    }
}

/// The file's bytes.
pub(crate) fn to_bytes(file: &File) -> Vec<u8> {
    let len: u64 = file
        .sections
        .iter()
        .map(|s| HEADER_SIZE as u64 + s.body_len())
        .sum::<u64>()
        + file.trailing.len() as u64;
    let mut out = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    for section in &file.sections {
        out.extend_from_slice(&section.id);
        out.extend_from_slice(&section.type_flag.to_le_bytes());
        out.extend_from_slice(&section.data_size.to_le_bytes());
        out.extend_from_slice(&section.data_count.to_le_bytes());
        body(&mut out, &section.body);
    }
    out.extend_from_slice(&file.trailing);
    out
}
