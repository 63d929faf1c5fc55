//! The faithful layer: one [`Command`] per line of the file, in file order.
//!
//! Numbers are kept exactly as many as the line gave (a `vp` with three values stays a `vp`
//! with three values); the defaults of the specification are applied only when the file is
//! interpreted (see [`crate::Scene`]). Names are raw bytes: UTF-8, Latin-1 or anything else.

/// Which vertex array a vertex attribute command appends to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Attribute {
    /// `vp X Y Z W`: position, W defaults to 1.
    Position,
    /// `vt U V`: texture coordinate.
    TexCoord,
    /// `vn X Y Z`: normal.
    Normal,
    /// `vx X Y Z W` (tangent + bitangent sign) or `vx X Y Z A B C` (tangent + bitangent).
    Tangent,
    /// `vc R G B A`: colour, A defaults to 1.
    Color,
    /// `v0` … `v9`: custom attribute 0–9.
    Custom(u8),
}

impl Attribute {
    /// The command keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            Attribute::Position => "vp",
            Attribute::TexCoord => "vt",
            Attribute::Normal => "vn",
            Attribute::Tangent => "vx",
            Attribute::Color => "vc",
            Attribute::Custom(n) => CUSTOM_KEYWORDS[usize::from(n.min(9))],
        }
    }

    /// Most values the command takes; more are kept but ignored (with a warning).
    pub fn max_values(self) -> usize {
        match self {
            Attribute::Position | Attribute::Color | Attribute::Custom(_) => 4,
            Attribute::TexCoord => 2,
            Attribute::Normal => 3,
            Attribute::Tangent => 6,
        }
    }

    /// Values used for components the line leaves out, as the specification says.
    pub fn defaults(self) -> [f64; 4] {
        match self {
            Attribute::Position | Attribute::Color => [0.0, 0.0, 0.0, 1.0],
            _ => [0.0; 4],
        }
    }
}

const CUSTOM_KEYWORDS: [&str; 10] = ["v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9"];

/// How a face command counts its indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaceBase {
    /// `fa`: from the first vertex of the file.
    File,
    /// `fm`: from the first vertex after the last `mesh` command.
    Mesh,
}

/// How a pose command gives its rotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PoseKind {
    /// `pq Tx Ty Tz Qx Qy Qz [Qw] [Sx Sy Sz]`.
    Quaternion,
    /// `pm Tx Ty Tz Ax Ay Az Bx By Bz Cx Cy Cz [Sx Sy Sz]` (matrix rows, may carry scale).
    Matrix,
    /// `pa Tx Ty Tz Rx Ry Rz [Sx Sy Sz]` (radians).
    Angles,
}

impl PoseKind {
    /// The command keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            PoseKind::Quaternion => "pq",
            PoseKind::Matrix => "pm",
            PoseKind::Angles => "pa",
        }
    }

    /// Most values the command takes.
    pub fn max_values(self) -> usize {
        match self {
            PoseKind::Quaternion => 10,
            PoseKind::Matrix => 15,
            PoseKind::Angles => 9,
        }
    }
}

/// `vertexarray TYPE COMPONENT SIZE NAME`, kept word for word (unknown types and
/// components are legal and ignored by the specification).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VertexArrayDecl {
    /// `position`, `texcoord`, …, `custom0`…`custom9`, or anything else.
    pub kind: Vec<u8>,
    /// `byte`, `ubyte`, …, `float`, `double`, or anything else.
    pub component: Vec<u8>,
    /// Number of components as written (1–4 are meaningful).
    pub size: Vec<u8>,
    /// Name for custom attributes; absent means "the type name".
    pub name: Option<Vec<u8>>,
}

/// One command of an IQE file.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// A `#` comment line (the text after `#`).
    Comment(Vec<u8>),
    /// A vertex attribute (`vp`, `vt`, `vn`, `vx`, `vc`, `v0`–`v9`) with the values given.
    Vertex(Attribute, Vec<f64>),
    /// `vb`: joint index / weight pairs, any number including none.
    Blend(Vec<(i64, f64)>),
    /// `vs N`: smoothing index of the vertex.
    SmoothIndex(i64),
    /// `vertexarray` declaration.
    VertexArray(VertexArrayDecl),
    /// `mesh [NAME]`.
    Mesh(Option<Vec<u8>>),
    /// `material [NAME]`.
    Material(Option<Vec<u8>>),
    /// `fa`/`fm` with three or more indices (a convex polygon when more).
    Face(FaceBase, Vec<i64>),
    /// `fs`: per-edge smoothing flags of the matching face.
    FaceSmooth(Vec<i64>),
    /// `smoothuv [N]`.
    SmoothUv(Option<i64>),
    /// `smoothgroup [N]`.
    SmoothGroup(Option<i64>),
    /// `smoothangle [DEGREES]`.
    SmoothAngle(Option<f64>),
    /// `joint NAME [PARENT]`.
    Joint {
        /// Joint name.
        name: Vec<u8>,
        /// Parent index as written; negative or absent means a root.
        parent: Option<i64>,
    },
    /// `pq`, `pm` or `pa` with the values given.
    Pose(PoseKind, Vec<f64>),
    /// `animation [NAME]`.
    Animation(Option<Vec<u8>>),
    /// `loop`.
    Loop,
    /// `framerate N`.
    Framerate(f64),
    /// `frame [LABEL]` (real files often write the frame number; it is kept, not used).
    Frame(Option<Vec<u8>>),
    /// A command this crate does not know, kept as the raw line (without line ending).
    Unknown(Vec<u8>),
}
