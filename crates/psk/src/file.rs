//! The faithful layer: a PSK, PSKX or PSA file as a flat list of sections, each with its
//! header as stored and its records decoded (known sections) or kept raw (the rest).

use rigport_model_core::text::until_nul;

/// Bytes of a section header: `char[20]` id, `int` type flag, `int` record size, `int` count.
pub const HEADER_SIZE: usize = 32;

/// Which file a section list is: decided by its first section's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A mesh with its reference skeleton (`ACTRHEAD` first): `.psk`, `.pskx`.
    Mesh,
    /// Animations over a list of bone names (`ANIMHEAD` first): `.psa`.
    Anim,
}

impl Kind {
    /// The usual extension: `"psk"` or `"psa"`.
    pub const fn extension(self) -> &'static str {
        match self {
            Kind::Mesh => "psk",
            Kind::Anim => "psa",
        }
    }
}

/// A wedge (render vertex), 16 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Wedge {
    /// The point index as stored in 32 bits: a `uint16` and two padding bytes in classic
    /// files (the padding may hold junk), a `uint32` in files with more than 65536 points.
    /// [`File::point_of`] applies the rule.
    pub point: u32,
    /// U.
    pub u: f32,
    /// V; 0 is the top of the image.
    pub v: f32,
    /// Material index of the wedge (informative; faces carry the one that counts).
    pub material: u8,
    /// Reserved byte.
    pub reserved: u8,
    /// Padding.
    pub pad: u16,
}

/// A triangle: `FACE0000` (16-bit wedge indices, 12 bytes) or `FACE3200` (32-bit, 18 bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Face {
    /// Wedge indices in stored order (clockwise seen from the front).
    pub wedges: [u32; 3],
    /// Material index.
    pub material: u8,
    /// Auxiliary material index (unused).
    pub aux_material: u8,
    /// Smoothing group bit mask.
    pub smoothing: u32,
}

/// A material, 88 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaterialRecord {
    /// Name bytes, NUL-terminated (bytes after the NUL kept).
    pub name: [u8; 64],
    /// Texture index.
    pub texture_index: i32,
    /// Unreal poly flags.
    pub poly_flags: u32,
    /// Auxiliary material.
    pub aux_material: i32,
    /// Auxiliary flags.
    pub aux_flags: u32,
    /// LOD bias.
    pub lod_bias: i32,
    /// LOD style.
    pub lod_style: i32,
}

/// A bone of `REFSKELT` or `BONENAMES`, 120 bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bone {
    /// Name bytes, NUL-terminated or space-padded.
    pub name: [u8; 64],
    /// Flags.
    pub flags: u32,
    /// Number of children (informative).
    pub num_children: i32,
    /// Parent's index; the root (bone 0) stores 0 or −1.
    pub parent: i32,
    /// Orientation quaternion `x, y, z, w` as stored (see the crate docs for its convention).
    pub orientation: [f32; 4],
    /// Position relative to the parent.
    pub position: [f32; 3],
    /// Length (unused).
    pub length: f32,
    /// X, Y, Z size (unused).
    pub size: [f32; 3],
}

/// An influence of `RAWWEIGHTS`, 12 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RawWeight {
    /// Weight.
    pub weight: f32,
    /// The point (not wedge) it moves.
    pub point: i32,
    /// The bone.
    pub bone: i32,
}

/// A morph target's header in `MRPHINFO`, 68 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MorphInfo {
    /// Name bytes.
    pub name: [u8; 64],
    /// Number of deltas in `MRPHDATA` for this target.
    pub vertex_count: i32,
}

/// One delta of `MRPHDATA`, 28 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MorphDelta {
    /// Position delta.
    pub position: [f32; 3],
    /// Normal (tangent Z) delta.
    pub normal: [f32; 3],
    /// The point it moves.
    pub point: i32,
}

/// A sequence of `ANIMINFO`, 168 bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnimInfo {
    /// Sequence name bytes.
    pub name: [u8; 64],
    /// Group name bytes (usually `None`).
    pub group: [u8; 64],
    /// Bones (= the `BONENAMES` count).
    pub total_bones: i32,
    /// Unused.
    pub root_include: i32,
    /// Unused.
    pub key_compression_style: i32,
    /// Frames × bones in exporters.
    pub key_quotum: i32,
    /// Key reduction.
    pub key_reduction: f32,
    /// Track time (usually the frame count).
    pub track_time: f32,
    /// Frames per second.
    pub anim_rate: f32,
    /// Unused.
    pub start_bone: i32,
    /// Index of the sequence's first frame among all frames of `ANIMKEYS`.
    pub first_raw_frame: i32,
    /// Frames in the sequence.
    pub num_raw_frames: i32,
}

/// A key of `ANIMKEYS`, 32 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AnimKey {
    /// Position relative to the parent.
    pub position: [f32; 3],
    /// Orientation `x, y, z, w`, same convention as the bones.
    pub orientation: [f32; 4],
    /// Time (ignored by readers).
    pub time: f32,
}

/// A key of `SCALEKEYS`, 16 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScaleKey {
    /// Scale.
    pub scale: [f32; 3],
    /// Time.
    pub time: f32,
}

/// A section's records.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// `PNTS0000`.
    Points(Vec<[f32; 3]>),
    /// `VTXW0000`.
    Wedges(Vec<Wedge>),
    /// `FACE0000` (16-bit wedge indices).
    Faces(Vec<Face>),
    /// `FACE3200` (32-bit wedge indices).
    Faces32(Vec<Face>),
    /// `MATT0000`.
    Materials(Vec<MaterialRecord>),
    /// `REFSKELT`, `REFSKEL0` or `BONENAMES`.
    Bones(Vec<Bone>),
    /// `RAWWEIGHTS` or `RAWWEIGHT0`.
    Weights(Vec<RawWeight>),
    /// `VTXNORMS`: a normal per point.
    Normals(Vec<[f32; 3]>),
    /// `VERTEXCOLOR`: R, G, B, A per wedge.
    Colors(Vec<[u8; 4]>),
    /// `EXTRAUVS0`, `EXTRAUVS1`, …: a UV per wedge.
    Uvs(Vec<[f32; 2]>),
    /// `MRPHINFO`.
    MorphInfo(Vec<MorphInfo>),
    /// `MRPHDATA`.
    MorphData(Vec<MorphDelta>),
    /// `ANIMINFO`.
    AnimInfo(Vec<AnimInfo>),
    /// `ANIMKEYS`.
    Keys(Vec<AnimKey>),
    /// `SCALEKEYS`.
    ScaleKeys(Vec<ScaleKey>),
    /// Any other section, a header (`ACTRHEAD`, `ANIMHEAD`), or a known one whose record
    /// size is not the one this crate reads: the bytes as stored.
    Raw(Vec<u8>),
}

impl Body {
    /// Number of records (bytes for [`Body::Raw`]).
    pub fn len(&self) -> usize {
        match self {
            Body::Points(v) | Body::Normals(v) => v.len(),
            Body::Wedges(v) => v.len(),
            Body::Faces(v) | Body::Faces32(v) => v.len(),
            Body::Materials(v) => v.len(),
            Body::Bones(v) => v.len(),
            Body::Weights(v) => v.len(),
            Body::Colors(v) => v.len(),
            Body::Uvs(v) => v.len(),
            Body::MorphInfo(v) => v.len(),
            Body::MorphData(v) => v.len(),
            Body::AnimInfo(v) => v.len(),
            Body::Keys(v) => v.len(),
            Body::ScaleKeys(v) => v.len(),
            Body::Raw(v) => v.len(),
        }
    }

    /// Whether there are no records.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes of one record as this body writes it (1 for [`Body::Raw`]).
    pub fn record_size(&self) -> usize {
        match self {
            Body::Points(_) | Body::Normals(_) | Body::Faces(_) | Body::Weights(_) => 12,
            Body::Wedges(_) | Body::ScaleKeys(_) => 16,
            Body::Faces32(_) => 18,
            Body::Materials(_) => 88,
            Body::Bones(_) => 120,
            Body::Colors(_) => 4,
            Body::Uvs(_) => 8,
            Body::MorphInfo(_) => 68,
            Body::MorphData(_) => 28,
            Body::AnimInfo(_) => 168,
            Body::Keys(_) => 32,
            Body::Raw(_) => 1,
        }
    }
}

/// One section: its header as stored and its records.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    /// Name bytes (`PNTS0000`), NUL-padded; bytes after the NUL are kept.
    pub id: [u8; 20],
    /// Type flag ("version"; carries no reliable meaning).
    pub type_flag: i32,
    /// Bytes per record as stored.
    pub data_size: i32,
    /// Records as stored.
    pub data_count: i32,
    /// The records.
    pub body: Body,
}

impl Section {
    /// A section named `name` (at most 20 bytes) holding `body`, its size and count set
    /// from the body (a [`Body::Raw`] is one record of its length, or none when empty).
    pub fn new(name: &str, type_flag: i32, body: Body) -> Self {
        let mut id = [0u8; 20];
        let bytes = name.as_bytes();
        let n = bytes.len().min(20);
        id[..n].copy_from_slice(&bytes[..n]);
        let (size, count) = match &body {
            Body::Raw(raw) if raw.is_empty() => (0, 0),
            Body::Raw(raw) => (raw.len(), 1),
            other => (other.record_size(), other.len()),
        };
        Self {
            id,
            type_flag,
            data_size: i32::try_from(size).unwrap_or(i32::MAX),
            data_count: i32::try_from(count).unwrap_or(i32::MAX),
            body,
        }
    }

    /// The name: the id's bytes before the first NUL.
    pub fn name(&self) -> &[u8] {
        until_nul(&self.id)
    }

    /// Bytes of the records (`DataSize × DataCount`).
    pub fn body_len(&self) -> u64 {
        u64::try_from(self.data_size).unwrap_or(0) * u64::try_from(self.data_count).unwrap_or(0)
    }
}

/// A PSK, PSKX or PSA file: its sections in file order, and any bytes after the last one.
#[derive(Clone, Debug, PartialEq)]
pub struct File {
    /// Mesh or animation file (from the first section).
    pub kind: Kind,
    /// Sections in file order.
    pub sections: Vec<Section>,
    /// Bytes after the last section too few for a header (none in real files).
    pub trailing: Vec<u8>,
}

macro_rules! first_of {
    ($(#[$doc:meta])* $fn:ident, $variant:ident, $ty:ty) => {
        $(#[$doc])*
        pub fn $fn(&self) -> &[$ty] {
            self.sections
                .iter()
                .find_map(|s| match &s.body {
                    Body::$variant(v) => Some(v.as_slice()),
                    _ => None,
                })
                .unwrap_or(&[])
        }
    };
}

impl File {
    first_of!(
        /// The points of the first `PNTS0000` section (empty without one).
        points, Points, [f32; 3]
    );
    first_of!(
        /// The wedges of the first `VTXW0000` section.
        wedges, Wedges, Wedge
    );
    first_of!(
        /// The materials of the first `MATT0000` section.
        materials, Materials, MaterialRecord
    );
    first_of!(
        /// The bones of the first `REFSKELT` or `BONENAMES` section.
        bones, Bones, Bone
    );
    first_of!(
        /// The influences of the first `RAWWEIGHTS` section.
        weights, Weights, RawWeight
    );
    first_of!(
        /// The point normals of the first `VTXNORMS` section.
        normals, Normals, [f32; 3]
    );
    first_of!(
        /// The wedge colours of the first `VERTEXCOLOR` section.
        colors, Colors, [u8; 4]
    );
    first_of!(
        /// The morph targets of the first `MRPHINFO` section.
        morph_info, MorphInfo, MorphInfo
    );
    first_of!(
        /// The deltas of the first `MRPHDATA` section.
        morph_data, MorphData, MorphDelta
    );
    first_of!(
        /// The sequences of the first `ANIMINFO` section.
        sequences, AnimInfo, AnimInfo
    );
    first_of!(
        /// The keys of the first `ANIMKEYS` section.
        keys, Keys, AnimKey
    );
    first_of!(
        /// The scale keys of the first `SCALEKEYS` section.
        scale_keys, ScaleKeys, ScaleKey
    );

    /// The faces of the first `FACE0000` or `FACE3200` section.
    pub fn faces(&self) -> &[Face] {
        self.sections
            .iter()
            .find_map(|s| match &s.body {
                Body::Faces(v) | Body::Faces32(v) => Some(v.as_slice()),
                _ => None,
            })
            .unwrap_or(&[])
    }

    /// The extra UV sets (`EXTRAUVS0`, `EXTRAUVS1`, …) in file order, with their names.
    pub fn extra_uvs(&self) -> Vec<(&[u8], &[[f32; 2]])> {
        self.sections
            .iter()
            .filter_map(|s| match &s.body {
                Body::Uvs(v) => Some((s.name(), v.as_slice())),
                _ => None,
            })
            .collect()
    }

    /// The point a wedge indexes: the low 16 bits while the file has at most 65536 points
    /// (old files keep junk in the padding), else all 32.
    pub fn point_of(&self, wedge: &Wedge) -> u32 {
        point_index(wedge.point, self.points().len())
    }

    /// Where each section's header starts in the written file.
    pub fn section_offsets(&self) -> Vec<u64> {
        let mut at = 0u64;
        self.sections
            .iter()
            .map(|s| {
                let here = at;
                at += HEADER_SIZE as u64 + s.body_len();
                here
            })
            .collect()
    }

    /// Where the records of the first section whose body matches `pick` start, with that
    /// section's record size.
    pub(crate) fn body_offset(&self, pick: impl Fn(&Body) -> bool) -> (u64, u64) {
        let offsets = self.section_offsets();
        self.sections
            .iter()
            .zip(offsets)
            .find(|(s, _)| pick(&s.body))
            .map_or((0, 0), |(s, at)| {
                (
                    at + HEADER_SIZE as u64,
                    u64::try_from(s.data_size).unwrap_or(0),
                )
            })
    }
}

/// The point index a stored wedge index means in a file with `points` points.
pub(crate) fn point_index(stored: u32, points: usize) -> u32 {
    if points <= 65536 {
        stored & 0xFFFF
    } else {
        stored
    }
}

/// A name's display form: the bytes before the NUL, trailing spaces removed, decoded.
pub fn name_of(bytes: &[u8]) -> String {
    let name = until_nul(bytes);
    let end = name
        .iter()
        .rposition(|&b| b != b' ')
        .map_or(0, |last| last + 1);
    rigport_model_core::text::decode_name(&name[..end])
}

/// A 64-byte NUL-terminated name field for `name` (cut to 63 bytes at a character
/// boundary); returns the field and whether it was cut.
pub fn name_field(name: &str) -> ([u8; 64], bool) {
    let mut field = [0u8; 64];
    let mut end = name.len().min(63);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    field[..end].copy_from_slice(&name.as_bytes()[..end]);
    (field, end < name.len())
}
