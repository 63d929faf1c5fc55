//! The faithful file layer: every line of an `.md5mesh` or `.md5anim`, in file order, with
//! comments, blank lines and lines the reader does not know kept.

/// A comment ending a line: the bytes after `//`, as written (`None`: no comment).
pub type Comment = Option<Vec<u8>>;

/// Which of the two MD5 files this is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `.md5mesh`: joints in model space and meshes weighted to them.
    Mesh,
    /// `.md5anim`: hierarchy, bounds, baseframe and frames.
    Anim,
}

impl Kind {
    /// `"md5mesh"` or `"md5anim"`.
    pub fn key(self) -> &'static str {
        match self {
            Kind::Mesh => "md5mesh",
            Kind::Anim => "md5anim",
        }
    }
}

/// How lines end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LineEnding {
    /// `\n`.
    #[default]
    Lf,
    /// `\r\n`.
    CrLf,
}

impl LineEnding {
    /// The bytes of one line ending.
    pub fn bytes(self) -> &'static [u8] {
        match self {
            LineEnding::Lf => b"\n",
            LineEnding::CrLf => b"\r\n",
        }
    }
}

/// A whole `.md5mesh` or `.md5anim` file.
///
/// [`File::items`] are the top-level lines and blocks in file order. Writing gives the same
/// content as the file read (see the crate docs); reading what was written gives an equal
/// `File`.
#[derive(Clone, Debug, PartialEq)]
pub struct File {
    /// Mesh or animation (decided by the lines the file holds).
    pub kind: Kind,
    /// Top-level lines and blocks, in file order.
    pub items: Vec<Item>,
    /// The line ending of the file's first line, used for every line written.
    pub line_ending: LineEnding,
    /// Whether the last line ends with a line ending.
    pub final_newline: bool,
    /// Whether the file starts with a UTF-8 byte-order mark (written back when it did).
    pub bom: bool,
}

/// A header line: a keyword and its value.
#[derive(Clone, Debug, PartialEq)]
pub enum Header {
    /// `MD5Version N` (10 in every file id Tech 4 reads).
    Version(i64),
    /// `commandline "…"`: the exporter's options, informational.
    Commandline(Vec<u8>),
    /// `numJoints N`.
    NumJoints(i64),
    /// `numMeshes N` (md5mesh).
    NumMeshes(i64),
    /// `numFrames N` (md5anim).
    NumFrames(i64),
    /// `frameRate R` (md5anim), frames per second.
    FrameRate(f64),
    /// `numAnimatedComponents N` (md5anim): numbers in each frame.
    NumAnimatedComponents(i64),
}

impl Header {
    /// The keyword as written.
    pub fn keyword(&self) -> &'static str {
        match self {
            Header::Version(_) => "MD5Version",
            Header::Commandline(_) => "commandline",
            Header::NumJoints(_) => "numJoints",
            Header::NumMeshes(_) => "numMeshes",
            Header::NumFrames(_) => "numFrames",
            Header::FrameRate(_) => "frameRate",
            Header::NumAnimatedComponents(_) => "numAnimatedComponents",
        }
    }
}

/// One top-level line or block.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A blank line.
    Blank,
    /// A line holding only a comment: the bytes after `//`.
    Comment(Vec<u8>),
    /// A header line.
    Header(Header, Comment),
    /// `joints { }` (md5mesh): the bind pose in model space.
    Joints(Block<Joint>),
    /// `mesh { }` (md5mesh).
    Mesh(Block<MeshLine>),
    /// `hierarchy { }` (md5anim).
    Hierarchy(Block<HierarchyEntry>),
    /// `bounds { }` (md5anim): one box per frame.
    Bounds(Block<Bounds>),
    /// `baseframe { }` (md5anim): the parent-relative pose of every joint.
    BaseFrame(Block<BaseFrameEntry>),
    /// `frame N { }` (md5anim).
    Frame(Frame),
    /// A line the reader does not know, trimmed, comment included.
    Unknown(Vec<u8>),
    /// A block the reader does not know: its opening line (trimmed, without the `{` and
    /// the comment) and its lines kept raw ([`Line::Unknown`], [`Line::Blank`],
    /// [`Line::Comment`]).
    UnknownBlock(Vec<u8>, Block<Vec<u8>>),
}

/// A block `keyword {` … `}`: its lines and the comments on its braces.
#[derive(Clone, Debug, PartialEq)]
pub struct Block<T> {
    /// Comment after the opening `{`.
    pub open_comment: Comment,
    /// The lines inside, in order.
    pub lines: Vec<Line<T>>,
    /// Comment after the closing `}`.
    pub close_comment: Comment,
}

impl<T> Default for Block<T> {
    fn default() -> Self {
        Self {
            open_comment: None,
            lines: Vec::new(),
            close_comment: None,
        }
    }
}

impl<T> Block<T> {
    /// The records, without blank, comment and unknown lines.
    pub fn records(&self) -> impl Iterator<Item = &T> + '_ {
        self.lines.iter().filter_map(|line| match line {
            Line::Record(record, _) => Some(record),
            _ => None,
        })
    }

    /// A block of these records, without comments.
    pub fn of(records: impl IntoIterator<Item = T>) -> Self {
        Self {
            open_comment: None,
            lines: records.into_iter().map(|r| Line::Record(r, None)).collect(),
            close_comment: None,
        }
    }
}

/// One line inside a block.
#[derive(Clone, Debug, PartialEq)]
pub enum Line<T> {
    /// A record and the comment ending its line.
    Record(T, Comment),
    /// A blank line.
    Blank,
    /// A line holding only a comment: the bytes after `//` (`// meshes: NAME` is one).
    Comment(Vec<u8>),
    /// A line the reader does not know, trimmed, comment included.
    Unknown(Vec<u8>),
}

/// A `joints` line: `"name" parent ( px py pz ) ( qx qy qz )`, in model space.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Joint {
    /// Name bytes between the quotes.
    pub name: Vec<u8>,
    /// Index of the parent joint, −1 for a root.
    pub parent: i64,
    /// Position in model space.
    pub position: [f64; 3],
    /// `x y z` of the model-space orientation; `w` is implied (see
    /// [`crate::math::restore_w`]).
    pub orientation: [f64; 3],
}

/// A line of a `mesh` block.
#[derive(Clone, Debug, PartialEq)]
pub enum MeshLine {
    /// `name "…"` (an optional Doom 3 field).
    Name(Vec<u8>),
    /// `shader "…"`: the material.
    Shader(Vec<u8>),
    /// `numverts N`.
    NumVerts(i64),
    /// `vert i ( u v ) firstWeight weightCount`.
    Vert(Vert),
    /// `numtris N`.
    NumTris(i64),
    /// `tri i a b c`.
    Tri(Tri),
    /// `numweights N`.
    NumWeights(i64),
    /// `weight i joint bias ( x y z )`.
    Weight(Weight),
}

/// `vert i ( u v ) firstWeight weightCount`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vert {
    /// Index as written.
    pub index: i64,
    /// Texture coordinate, origin top-left.
    pub uv: [f64; 2],
    /// First of the vertex's weights in the mesh's weight list.
    pub first_weight: i64,
    /// Number of weights.
    pub weight_count: i64,
}

/// `tri i a b c`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tri {
    /// Index as written.
    pub index: i64,
    /// Vertex indices, in MD5 winding (clockwise seen from the front in glTF's terms).
    pub vertices: [i64; 3],
}

/// `weight i joint bias ( x y z )`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Weight {
    /// Index as written.
    pub index: i64,
    /// Joint index.
    pub joint: i64,
    /// How much the joint contributes.
    pub bias: f64,
    /// The vertex in the joint's bind space.
    pub position: [f64; 3],
}

/// A `hierarchy` line: `"name" parent flags startIndex`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HierarchyEntry {
    /// Name bytes between the quotes.
    pub name: Vec<u8>,
    /// Index of the parent joint, −1 for a root.
    pub parent: i64,
    /// Animated components: bits Tx 1, Ty 2, Tz 4, Qx 8, Qy 16, Qz 32.
    pub flags: i64,
    /// Where this joint's animated numbers start in each frame.
    pub start_index: i64,
}

/// A `bounds` line: `( min ) ( max )`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Bounds {
    /// Smallest corner.
    pub min: [f64; 3],
    /// Largest corner.
    pub max: [f64; 3],
}

/// A `baseframe` line: `( px py pz ) ( qx qy qz )`, parent-relative.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BaseFrameEntry {
    /// Translation relative to the parent.
    pub position: [f64; 3],
    /// `x y z` of the rotation relative to the parent; `w` is implied.
    pub orientation: [f64; 3],
}

/// `frame N { … }`: the animated numbers of one frame, kept line by line as written.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Frame {
    /// `N` as written.
    pub index: i64,
    /// The lines of numbers.
    pub block: Block<Vec<f64>>,
}

impl Frame {
    /// The frame's numbers in order.
    pub fn values(&self) -> impl Iterator<Item = f64> + '_ {
        self.block.records().flatten().copied()
    }
}

/// One `mesh` block seen as its parts (borrowing the file).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshView<'a> {
    /// The name from a `// meshes: NAME` comment (the IQM SDK's source of mesh names), or
    /// from `name "…"`.
    pub name: Option<&'a [u8]>,
    /// The `shader` string.
    pub shader: Option<&'a [u8]>,
    /// `vert` records in file order.
    pub verts: Vec<&'a Vert>,
    /// `tri` records in file order.
    pub tris: Vec<&'a Tri>,
    /// `weight` records in file order.
    pub weights: Vec<&'a Weight>,
}

impl File {
    /// The header lines.
    pub fn headers(&self) -> impl Iterator<Item = &Header> + '_ {
        self.items.iter().filter_map(|item| match item {
            Item::Header(header, _) => Some(header),
            _ => None,
        })
    }

    fn header<T>(&self, pick: impl Fn(&Header) -> Option<T>) -> Option<T> {
        self.headers().find_map(pick)
    }

    /// `MD5Version`.
    pub fn version(&self) -> Option<i64> {
        self.header(|h| match h {
            Header::Version(v) => Some(*v),
            _ => None,
        })
    }

    /// `commandline`.
    pub fn commandline(&self) -> Option<&[u8]> {
        self.headers().find_map(|h| match h {
            Header::Commandline(c) => Some(c.as_slice()),
            _ => None,
        })
    }

    /// `frameRate`.
    pub fn frame_rate(&self) -> Option<f64> {
        self.header(|h| match h {
            Header::FrameRate(r) => Some(*r),
            _ => None,
        })
    }

    /// `numAnimatedComponents`.
    pub fn num_animated_components(&self) -> Option<i64> {
        self.header(|h| match h {
            Header::NumAnimatedComponents(n) => Some(*n),
            _ => None,
        })
    }

    /// The `joints` records (md5mesh), from every `joints` block in order.
    pub fn joints(&self) -> impl Iterator<Item = &Joint> + '_ {
        self.items
            .iter()
            .filter_map(|item| match item {
                Item::Joints(block) => Some(block.records()),
                _ => None,
            })
            .flatten()
    }

    /// The `mesh` blocks (md5mesh), empty ones included.
    pub fn meshes(&self) -> Vec<MeshView<'_>> {
        self.items
            .iter()
            .filter_map(|item| match item {
                Item::Mesh(block) => Some(mesh_view(block)),
                _ => None,
            })
            .collect()
    }

    /// The `hierarchy` records (md5anim).
    pub fn hierarchy(&self) -> impl Iterator<Item = &HierarchyEntry> + '_ {
        self.items
            .iter()
            .filter_map(|item| match item {
                Item::Hierarchy(block) => Some(block.records()),
                _ => None,
            })
            .flatten()
    }

    /// The `bounds` records (md5anim).
    pub fn bounds(&self) -> impl Iterator<Item = &Bounds> + '_ {
        self.items
            .iter()
            .filter_map(|item| match item {
                Item::Bounds(block) => Some(block.records()),
                _ => None,
            })
            .flatten()
    }

    /// The `baseframe` records (md5anim).
    pub fn base_frame(&self) -> impl Iterator<Item = &BaseFrameEntry> + '_ {
        self.items
            .iter()
            .filter_map(|item| match item {
                Item::BaseFrame(block) => Some(block.records()),
                _ => None,
            })
            .flatten()
    }

    /// The `frame` blocks (md5anim), in file order.
    pub fn frames(&self) -> impl Iterator<Item = &Frame> + '_ {
        self.items.iter().filter_map(|item| match item {
            Item::Frame(frame) => Some(frame),
            _ => None,
        })
    }
}

/// The parts of one mesh block.
pub(crate) fn mesh_view(block: &Block<MeshLine>) -> MeshView<'_> {
    let mut view = MeshView::default();
    let mut named = None;
    for line in &block.lines {
        match line {
            Line::Comment(text) => {
                if view.name.is_none()
                    && let Some(name) = meshes_comment(text)
                {
                    view.name = Some(name);
                }
            }
            Line::Record(record, _) => match record {
                MeshLine::Name(name) => named = named.or(Some(name.as_slice())),
                MeshLine::Shader(shader) => view.shader = view.shader.or(Some(shader.as_slice())),
                MeshLine::Vert(v) => view.verts.push(v),
                MeshLine::Tri(t) => view.tris.push(t),
                MeshLine::Weight(w) => view.weights.push(w),
                MeshLine::NumVerts(_) | MeshLine::NumTris(_) | MeshLine::NumWeights(_) => {}
            },
            Line::Blank | Line::Unknown(_) => {}
        }
    }
    if view.name.is_none() {
        view.name = named;
    }
    view
}

/// The name in a ` meshes: NAME` comment (the bytes after `//`), trimmed.
pub(crate) fn meshes_comment(text: &[u8]) -> Option<&[u8]> {
    let text = crate::lex::trim(text);
    let rest = text.strip_prefix(b"meshes:")?;
    Some(crate::lex::trim(rest))
}
