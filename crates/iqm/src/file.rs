//! The faithful file layer: one struct that mirrors an `.iqm` file exactly.

use crate::records::{Anim, Bounds, Header, Joint, Mesh, Pose};

/// A whole IQM file, as stored.
///
/// IQM places its blocks by offset, so the file is modelled as the [`Header`] (every count
/// and offset as stored) plus each block's contents, plus [`File::gaps`]: every byte range
/// no known block covers (alignment padding, unknown trailing data). [`File::to_vec`] puts
/// each block back at its stored offset and the gaps between them, which gives the input
/// bytes for every file that reads (version 2). After editing blocks, call
/// [`File::pack`] to lay the file out afresh.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct File {
    /// The header as stored.
    pub header: Header,
    /// The text table: NUL-terminated strings; names are byte offsets into it.
    pub text: Vec<u8>,
    /// Mesh records.
    pub meshes: Vec<Mesh>,
    /// Vertex arrays, each with its descriptor and raw data.
    pub vertex_arrays: Vec<VertexArray>,
    /// Triangles: three absolute vertex indices each.
    pub triangles: Vec<[u32; 3]>,
    /// For each triangle edge, the adjacent triangle or `u32::MAX`; `None` when absent.
    pub adjacency: Option<Vec<[u32; 3]>>,
    /// Joints of the bind skeleton.
    pub joints: Vec<Joint>,
    /// Poses: how each animated joint's channels are quantized.
    pub poses: Vec<Pose>,
    /// Animations.
    pub anims: Vec<Anim>,
    /// Frame values: `num_frames × num_framechannels` quantized channel values.
    pub frames: Vec<u16>,
    /// One bounds record per frame, `None` when absent.
    pub bounds: Option<Vec<Bounds>>,
    /// The comment block, raw.
    pub comment: Vec<u8>,
    /// Extensions in list order, raw.
    pub extensions: Vec<Extension>,
    /// Bytes no block covers, at their offsets.
    pub gaps: Vec<Gap>,
}

/// One vertex array: its descriptor and its data (`num_vertexes × size` components).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VertexArray {
    /// Type: 0–6 standard, `≥ 0x10` custom (the text offset of its name is `kind − 0x10`).
    pub kind: u32,
    /// Flags (unused by the specification; kept).
    pub flags: u32,
    /// Component format, see [`Format`].
    pub format: u32,
    /// Components per vertex.
    pub size: u32,
    /// Offset of the data.
    pub offset: u32,
    /// The data, little-endian, exactly as stored; empty when the format is unknown (the
    /// bytes are then in [`File::gaps`]).
    pub data: Vec<u8>,
}

/// One extension of the linked list, raw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extension {
    /// Where its 16-byte record is.
    pub offset: u32,
    /// Name: offset into the text table.
    pub name: u32,
    /// Bytes of data.
    pub num_data: u32,
    /// Offset of the data.
    pub ofs_data: u32,
    /// Offset of the next extension as stored.
    pub ofs_next: u32,
    /// The data.
    pub data: Vec<u8>,
}

/// Bytes no known block covers, kept so the file writes back unchanged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Gap {
    /// Where they start.
    pub offset: u64,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// What a vertex array holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArrayKind {
    /// `IQM_POSITION` (float × 3).
    Position,
    /// `IQM_TEXCOORD` (float × 2).
    TexCoord,
    /// `IQM_NORMAL` (float × 3).
    Normal,
    /// `IQM_TANGENT` (float × 4, `w` = bitangent sign).
    Tangent,
    /// `IQM_BLENDINDEXES` (ubyte × 4 recommended).
    BlendIndexes,
    /// `IQM_BLENDWEIGHTS` (ubyte × 4 recommended).
    BlendWeights,
    /// `IQM_COLOR` (ubyte × 4 recommended).
    Color,
    /// 7–15: reserved by the specification.
    Reserved(u32),
    /// `≥ 0x10`: custom; the value is the text offset of its name.
    Custom(u32),
}

impl ArrayKind {
    /// The kind a stored type value means.
    pub fn from_u32(kind: u32) -> Self {
        match kind {
            0 => Self::Position,
            1 => Self::TexCoord,
            2 => Self::Normal,
            3 => Self::Tangent,
            4 => Self::BlendIndexes,
            5 => Self::BlendWeights,
            6 => Self::Color,
            7..=15 => Self::Reserved(kind),
            _ => Self::Custom(kind - 0x10),
        }
    }

    /// The stored type value.
    pub fn to_u32(self) -> u32 {
        match self {
            Self::Position => 0,
            Self::TexCoord => 1,
            Self::Normal => 2,
            Self::Tangent => 3,
            Self::BlendIndexes => 4,
            Self::BlendWeights => 5,
            Self::Color => 6,
            Self::Reserved(k) => k,
            Self::Custom(name) => name.saturating_add(0x10),
        }
    }
}

/// Component formats (`IQM_BYTE` … `IQM_DOUBLE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// `IQM_BYTE` (i8).
    Byte,
    /// `IQM_UBYTE` (u8).
    UByte,
    /// `IQM_SHORT` (i16).
    Short,
    /// `IQM_USHORT` (u16).
    UShort,
    /// `IQM_INT` (i32).
    Int,
    /// `IQM_UINT` (u32).
    UInt,
    /// `IQM_HALF` (IEEE 754 binary16).
    Half,
    /// `IQM_FLOAT` (f32).
    Float,
    /// `IQM_DOUBLE` (f64).
    Double,
}

impl Format {
    /// The format a stored value means, `None` beyond `IQM_DOUBLE`.
    pub fn from_u32(format: u32) -> Option<Self> {
        Some(match format {
            0 => Self::Byte,
            1 => Self::UByte,
            2 => Self::Short,
            3 => Self::UShort,
            4 => Self::Int,
            5 => Self::UInt,
            6 => Self::Half,
            7 => Self::Float,
            8 => Self::Double,
            _ => return None,
        })
    }

    /// The stored value.
    pub fn to_u32(self) -> u32 {
        self as u32
    }

    /// Bytes per component.
    pub fn size(self) -> usize {
        match self {
            Self::Byte | Self::UByte => 1,
            Self::Short | Self::UShort | Self::Half => 2,
            Self::Int | Self::UInt | Self::Float => 4,
            Self::Double => 8,
        }
    }

    /// Whether components are integers.
    pub fn is_integer(self) -> bool {
        !matches!(self, Self::Half | Self::Float | Self::Double)
    }

    /// The component at the start of `bytes` as stored (integers as their value).
    /// `bytes` must hold at least [`Format::size`] bytes.
    pub fn value(self, bytes: &[u8]) -> f64 {
        let b = |n: usize| &bytes[..n];
        match self {
            Self::Byte => f64::from(bytes[0] as i8),
            Self::UByte => f64::from(bytes[0]),
            Self::Short => f64::from(i16::from_le_bytes([bytes[0], bytes[1]])),
            Self::UShort => f64::from(u16::from_le_bytes([bytes[0], bytes[1]])),
            Self::Int => f64::from(i32::from_le_bytes(b(4).try_into().unwrap_or([0; 4]))),
            Self::UInt => f64::from(u32::from_le_bytes(b(4).try_into().unwrap_or([0; 4]))),
            Self::Half => f64::from(half_to_f32(u16::from_le_bytes([bytes[0], bytes[1]]))),
            Self::Float => f64::from(f32::from_le_bytes(b(4).try_into().unwrap_or([0; 4]))),
            Self::Double => f64::from_le_bytes(b(8).try_into().unwrap_or([0; 8])),
        }
    }

    /// The component as a value in `0..=1` (unsigned) or `-1..=1` (signed) for integer
    /// formats, as OpenGL normalizes them; floats unchanged.
    pub fn normalized(self, bytes: &[u8]) -> f64 {
        let v = self.value(bytes);
        match self {
            Self::Byte => (v / 127.0).max(-1.0),
            Self::UByte => v / 255.0,
            Self::Short => (v / 32767.0).max(-1.0),
            Self::UShort => v / 65535.0,
            Self::Int => (v / f64::from(i32::MAX)).max(-1.0),
            Self::UInt => v / f64::from(u32::MAX),
            Self::Half | Self::Float | Self::Double => v,
        }
    }
}

/// IEEE 754 binary16 to f32 (exact: every half is a float).
pub fn half_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = i32::from((h >> 10) & 0x1f);
    let mantissa = f32::from(h & 0x3ff);
    sign * match exponent {
        0 => mantissa * 2f32.powi(-24),
        31 if mantissa == 0.0 => f32::INFINITY,
        31 => f32::NAN,
        e => (1.0 + mantissa / 1024.0) * 2f32.powi(e - 15),
    }
}

impl VertexArray {
    /// What the array holds.
    pub fn kind(&self) -> ArrayKind {
        ArrayKind::from_u32(self.kind)
    }

    /// The component format, `None` when unknown.
    pub fn format(&self) -> Option<Format> {
        Format::from_u32(self.format)
    }

    /// Component `c` of vertex `v` as stored (integers as their value); `None` when out
    /// of range or the format is unknown.
    pub fn value(&self, v: usize, c: usize) -> Option<f64> {
        self.component(v, c)
            .map(|(format, bytes)| format.value(bytes))
    }

    /// Component `c` of vertex `v`, normalized as [`Format::normalized`] does.
    pub fn normalized(&self, v: usize, c: usize) -> Option<f64> {
        self.component(v, c)
            .map(|(format, bytes)| format.normalized(bytes))
    }

    fn component(&self, v: usize, c: usize) -> Option<(Format, &[u8])> {
        let format = self.format()?;
        let size = self.size as usize;
        if c >= size {
            return None;
        }
        let at = v
            .checked_mul(size)?
            .checked_add(c)?
            .checked_mul(format.size())?;
        let bytes = self.data.get(at..at + format.size())?;
        Some((format, bytes))
    }
}

impl File {
    /// The NUL-terminated string at `offset` of the text table, `None` when the offset is
    /// outside it.
    pub fn text_at(&self, offset: u32) -> Option<&[u8]> {
        let rest = self.text.get(offset as usize..)?;
        Some(rigport_model_core::text::until_nul(rest))
    }

    /// The vertex array of a kind (the first one, as readers use).
    pub fn array(&self, kind: ArrayKind) -> Option<&VertexArray> {
        self.vertex_arrays.iter().find(|a| a.kind() == kind)
    }

    /// The dequantized channels (translation, quaternion `x y z w`, scale) of pose `p` in
    /// frame `f`: `offset + value × scale` for channels in the mask, `offset` for the rest.
    /// `None` when the frame or pose does not exist.
    pub fn frame_channels(&self, f: usize, p: usize) -> Option<[f32; 10]> {
        let channels = self.header.num_framechannels as usize;
        let start = f.checked_mul(channels)?;
        let frame = self.frames.get(start..start.checked_add(channels)?)?;
        let poses = self.poses.get(..=p)?;
        // The pose's values start after those of every earlier pose in the frame.
        let before: u32 = poses[..p]
            .iter()
            .map(|q| (q.channelmask & 0x3ff).count_ones())
            .sum();
        let pose = &poses[p];
        let mut at = before as usize;
        let mut out = pose.channeloffset;
        for (c, value) in out.iter_mut().enumerate() {
            if pose.channelmask & (1 << c) != 0 {
                let stored = *frame.get(at)?;
                at += 1;
                *value += f32::from(stored) * pose.channelscale[c];
            }
        }
        Some(out)
    }
}
