//! The fixed-size records of the format, read and written with binrw.
//!
//! Each record mirrors one C struct of the MilkShape 1.8.5 specification field by field,
//! little-endian, with no padding. Variable-length parts (groups, joints, comments) are put
//! together from these records by the reader and writer, which check every count first.

use binrw::binrw;

/// A record with a fixed size on disk, so a count can be checked against the bytes left
/// before anything is allocated.
pub(crate) trait Record:
    for<'a> binrw::BinRead<Args<'a> = ()> + for<'a> binrw::BinWrite<Args<'a> = ()>
{
    /// Bytes on disk.
    const SIZE: u64;
}

/// `ms3d_vertex_t` (15 bytes).
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vertex {
    /// `SELECTED | SELECTED2 | HIDDEN`; unknown bits are kept.
    pub flags: u8,
    /// Position.
    pub position: [f32; 3],
    /// Joint index, −1 for none.
    pub bone_id: i8,
    /// Number of triangles using the vertex (MilkShape writes this; readers ignore it).
    pub reference_count: u8,
}

impl Record for Vertex {
    const SIZE: u64 = 15;
}

/// `ms3d_triangle_t` (70 bytes).
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Triangle {
    /// `SELECTED | SELECTED2 | HIDDEN`; unknown bits are kept.
    pub flags: u16,
    /// Indices into [`File::vertices`](crate::File::vertices), counter-clockwise seen from
    /// the side the stored normals point to (checked over the corpus).
    pub vertex_indices: [u16; 3],
    /// One normal per corner.
    pub normals: [[f32; 3]; 3],
    /// Texture `s` (u) per corner.
    pub s: [f32; 3],
    /// Texture `t` (v) per corner, origin at the top.
    pub t: [f32; 3],
    /// Smoothing group, 1–32 (0 in some files).
    pub smoothing_group: u8,
    /// Index of the group the triangle belongs to.
    pub group_index: u8,
}

impl Record for Triangle {
    const SIZE: u64 = 70;
}

/// `ms3d_material_t` (361 bytes).
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Material {
    /// Name, NUL-terminated, bytes after the NUL kept.
    pub name: [u8; 32],
    /// Ambient RGBA.
    pub ambient: [f32; 4],
    /// Diffuse RGBA.
    pub diffuse: [f32; 4],
    /// Specular RGBA.
    pub specular: [f32; 4],
    /// Emissive RGBA.
    pub emissive: [f32; 4],
    /// Phong exponent, 0–128.
    pub shininess: f32,
    /// Opacity, 0–1 (MilkShape calls it transparency).
    pub transparency: f32,
    /// Mode byte; the spec says unused, real files carry bits such as 0x60.
    pub mode: u8,
    /// Texture path, NUL-terminated.
    pub texture: [u8; 128],
    /// Alpha-map path, NUL-terminated.
    pub alphamap: [u8; 128],
}

impl Record for Material {
    const SIZE: u64 = 361;
}

/// The keyframer data after the materials (12 bytes).
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Keyframer {
    /// `fAnimationFPS`.
    pub fps: f32,
    /// `fCurrentTime`: the editor's time slider, in seconds.
    pub current_time: f32,
    /// `iTotalFrames`.
    pub total_frames: i32,
}

impl Record for Keyframer {
    const SIZE: u64 = 12;
}

/// `ms3d_keyframe_rot_t` or `ms3d_keyframe_pos_t` (16 bytes): a time and three values.
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Keyframe {
    /// Time in seconds.
    pub time: f32,
    /// Euler angles in radians (rotation keys) or a translation (position keys), both
    /// relative to the joint's bind pose.
    pub value: [f32; 3],
}

impl Record for Keyframe {
    const SIZE: u64 = 16;
}

/// The fixed part of `ms3d_joint_t` in front of its keys (93 bytes).
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct JointHead {
    pub flags: u8,
    pub name: [u8; 32],
    pub parent_name: [u8; 32],
    pub rotation: [f32; 3],
    pub position: [f32; 3],
    pub rotation_key_count: u16,
    pub translation_key_count: u16,
}

impl Record for JointHead {
    const SIZE: u64 = 93;
}

/// The fixed part of `ms3d_group_t` in front of its triangle indices (35 bytes).
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct GroupHead {
    pub flags: u8,
    pub name: [u8; 32],
    pub triangle_count: u16,
}

impl Record for GroupHead {
    const SIZE: u64 = 35;
}

/// `ms3d_vertex_ex_t` for every subVersion: 6 bytes in subVersion 1, 10 in 2, 14 in 3.
/// [`VertexExtraRecord::extra`] holds the `extra` words of subVersion 2 (`extra[0]`) and
/// 3 (both); the words a subVersion does not store are read as 0 and not written.
#[binrw]
#[brw(little, import(sub_version: i32))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VertexExtraRecord {
    /// Joints of weights 2–4 (−1 = none).
    pub bone_ids: [i8; 3],
    /// Weights of the vertex's `boneId` and of `bone_ids[0]`, `bone_ids[1]`; the weight of
    /// `bone_ids[2]` is what is left of 100.
    pub weights: [u8; 3],
    /// `extra` (subVersion 2) or `extra[2]` (subVersion 3): free for the user, e.g. colour.
    #[br(count = extra_words(sub_version), map = |v: Vec<u32>| words_array(&v))]
    #[bw(map = |e: &[u32; 2]| e[..extra_words(sub_version)].to_vec())]
    pub extra: [u32; 2],
}

/// Extra 32-bit words per vertex record of a vertex-extra subVersion (1 → 0, 2 → 1, 3 → 2).
pub(crate) fn extra_words(sub_version: i32) -> usize {
    sub_version.clamp(1, 3) as usize - 1
}

/// Bytes per vertex record of a known vertex-extra subVersion.
pub(crate) fn vertex_extra_size(sub_version: i32) -> Option<u64> {
    matches!(sub_version, 1..=3).then(|| 6 + 4 * extra_words(sub_version) as u64)
}

fn words_array(words: &[u32]) -> [u32; 2] {
    let mut out = [0; 2];
    for (slot, word) in out.iter_mut().zip(words) {
        *slot = *word;
    }
    out
}

/// `ms3d_joint_ex_t` subVersion 1 (12 bytes).
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointColor {
    /// RGB colour MilkShape draws the joint with.
    pub color: [f32; 3],
}

impl Record for JointColor {
    const SIZE: u64 = 12;
}

/// The model extra block: subVersion and `ms3d_model_ex_t` subVersion 1 (16 bytes).
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelExtra {
    /// Block subVersion (1).
    pub sub_version: i32,
    /// Size MilkShape draws joints with.
    pub joint_size: f32,
    /// 0 = simple, 1 = depth buffered with alpha ref, 2 = depth sorted triangles.
    pub transparency_mode: i32,
    /// Alpha reference for transparency mode 1.
    pub alpha_ref: f32,
}

impl Record for ModelExtra {
    const SIZE: u64 = 16;
}

impl Record for u16 {
    const SIZE: u64 = 2;
}

impl Record for i32 {
    const SIZE: u64 = 4;
}

impl Record for i8 {
    const SIZE: u64 = 1;
}

#[cfg(test)]
mod tests {
    use super::*;
    use binrw::BinWrite;
    use std::io::Cursor;

    fn written_len<T: Record>(value: &T) -> u64 {
        let mut out = Cursor::new(Vec::new());
        value.write_le(&mut out).unwrap();
        out.into_inner().len() as u64
    }

    #[test]
    fn record_sizes_match_the_specification() {
        let vertex = Vertex {
            flags: 0,
            position: [0.0; 3],
            bone_id: -1,
            reference_count: 0,
        };
        assert_eq!(written_len(&vertex), Vertex::SIZE);
        let triangle = Triangle {
            flags: 0,
            vertex_indices: [0; 3],
            normals: [[0.0; 3]; 3],
            s: [0.0; 3],
            t: [0.0; 3],
            smoothing_group: 1,
            group_index: 0,
        };
        assert_eq!(written_len(&triangle), Triangle::SIZE);
        let material = Material {
            name: [0; 32],
            ambient: [0.0; 4],
            diffuse: [0.0; 4],
            specular: [0.0; 4],
            emissive: [0.0; 4],
            shininess: 0.0,
            transparency: 1.0,
            mode: 0,
            texture: [0; 128],
            alphamap: [0; 128],
        };
        assert_eq!(written_len(&material), Material::SIZE);
        let head = JointHead {
            flags: 0,
            name: [0; 32],
            parent_name: [0; 32],
            rotation: [0.0; 3],
            position: [0.0; 3],
            rotation_key_count: 0,
            translation_key_count: 0,
        };
        assert_eq!(written_len(&head), JointHead::SIZE);
        let group = GroupHead {
            flags: 0,
            name: [0; 32],
            triangle_count: 0,
        };
        assert_eq!(written_len(&group), GroupHead::SIZE);
    }

    #[test]
    fn vertex_extra_stride_follows_the_sub_version() {
        let record = VertexExtraRecord {
            bone_ids: [1, 2, 3],
            weights: [4, 5, 6],
            extra: [7, 8],
        };
        for (sub_version, size) in [(1, 6), (2, 10), (3, 14)] {
            let mut out = Cursor::new(Vec::new());
            record.write_le_args(&mut out, (sub_version,)).unwrap();
            assert_eq!(out.get_ref().len(), size);
            assert_eq!(vertex_extra_size(sub_version), Some(size as u64));
        }
        assert_eq!(vertex_extra_size(0), None);
        assert_eq!(vertex_extra_size(4), None);
    }
}
