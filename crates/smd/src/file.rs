//! The faithful file layer: every line of an SMD file that carries something, in file
//! order, with names and material strings as the raw bytes of the file.

use std::sync::Arc;

/// A whole SMD file: reference (mesh), animation or vertex-animation (`.vta`).
///
/// Items are kept in file order, comments included, so writing gives the same *content*
/// as the file that was read (see the crate docs for what content means).
#[derive(Clone, Debug, PartialEq)]
pub struct File {
    /// Top-level items in file order.
    pub items: Vec<Item>,
    /// The line ending the file used (from its first line break), used when writing.
    pub line_ending: LineEnding,
    /// Whether the last line ended with a line break.
    pub final_newline: bool,
}

impl Default for File {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            line_ending: LineEnding::Lf,
            final_newline: true,
        }
    }
}

/// How lines end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LineEnding {
    /// `\n`
    #[default]
    Lf,
    /// `\r\n`
    CrLf,
}

impl LineEnding {
    /// The bytes of the line ending.
    pub fn as_bytes(self) -> &'static [u8] {
        match self {
            LineEnding::Lf => b"\n",
            LineEnding::CrLf => b"\r\n",
        }
    }
}

/// One top-level item.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A whole-line comment outside the blocks (`// Created by Crowbar 0.56`), the line's
    /// text without surrounding blanks, marker included.
    Comment(Vec<u8>),
    /// `version N`.
    Version(Version),
    /// `nodes` … `end`.
    Nodes(Vec<NodeLine>),
    /// `skeleton` … `end`.
    Skeleton(Vec<SkeletonLine>),
    /// `triangles` … `end`.
    Triangles(Vec<TriangleLine>),
    /// `vertexanimation` … `end` (flex shapes of a `.vta` file).
    VertexAnimation(Vec<VertexAnimationLine>),
    /// A block with another keyword, kept as raw lines.
    Unknown(UnknownBlock),
}

impl Item {
    /// The keyword of a block item (`"nodes"`), `"version"`, or `"//"` for a comment.
    pub fn name(&self) -> &[u8] {
        match self {
            Item::Comment(_) => b"//",
            Item::Version(_) => b"version",
            Item::Nodes(_) => b"nodes",
            Item::Skeleton(_) => b"skeleton",
            Item::Triangles(_) => b"triangles",
            Item::VertexAnimation(_) => b"vertexanimation",
            Item::Unknown(block) => &block.keyword,
        }
    }
}

/// The `version N` line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Version {
    /// The number (1 in every file real tools write).
    pub value: i32,
    /// A comment after the number on the same line.
    pub comment: Option<Vec<u8>>,
}

/// A line of the `nodes` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeLine {
    /// `ID "name" parentID`.
    Node(Node),
    /// A whole-line comment.
    Comment(Vec<u8>),
}

/// A bone: `ID "name" parentID`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    /// The bone number every other block uses.
    pub id: i32,
    /// The name bytes (between the quotes when quoted); may hold spaces and dots.
    pub name: Vec<u8>,
    /// Whether the name was quoted (hand-written files may leave a one-word name bare).
    pub quoted: bool,
    /// The parent's ID, −1 for a root.
    pub parent: i32,
    /// A comment after the fields on the same line.
    pub comment: Option<Vec<u8>>,
}

/// A line of the `skeleton` block.
#[derive(Clone, Debug, PartialEq)]
pub enum SkeletonLine {
    /// `time T`: a new frame starts.
    Time {
        /// The frame number as written.
        time: i32,
        /// A comment after the number.
        comment: Option<Vec<u8>>,
    },
    /// A bone's transform in the current frame.
    Pose(BonePose),
    /// A whole-line comment.
    Comment(Vec<u8>),
}

/// `boneID px py pz rx ry rz`: a bone's transform relative to its parent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BonePose {
    /// The bone's ID.
    pub bone: i32,
    /// Translation relative to the parent (to model space for a root).
    pub position: [f32; 3],
    /// Euler angles in radians about X, Y and Z: `R = Rz·Ry·Rx` (X applied first).
    pub rotation: [f32; 3],
    /// A comment after the fields.
    pub comment: Option<Vec<u8>>,
}

/// A line group of the `triangles` block.
// Triangles are nearly every entry; boxing them would cost an allocation each.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum TriangleLine {
    /// A material line and its three vertex lines.
    Triangle(Triangle),
    /// A whole-line comment between triangles.
    Comment(Vec<u8>),
}

/// One triangle: a material line and three vertex lines.
#[derive(Clone, Debug, PartialEq)]
pub struct Triangle {
    /// The material line without surrounding blanks (usually a texture file name). Shared
    /// between triangles with the same material.
    pub material: Arc<[u8]>,
    /// The three corners in file order.
    pub vertices: [Vertex; 3],
    /// Whole-line comments inside the triangle: `(n, text)` sits after the material line
    /// and `n − 1` vertex lines (`n` in `1..=3`).
    pub comments: Vec<(u8, Vec<u8>)>,
}

/// A vertex line `parent px py pz nx ny nz u v [count bone weight …]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Vertex {
    /// The "parent bone": with no links the vertex is wholly on it; with links it takes the
    /// weight the links leave below 1.
    pub parent: i32,
    /// Position in model space at the bind pose.
    pub position: [f32; 3],
    /// Normal in model space (not necessarily unit length).
    pub normal: [f32; 3],
    /// Texture coordinate, origin bottom-left.
    pub uv: [f32; 2],
    /// `None` for a GoldSrc line of 9 fields; else the link count's pairs (possibly none).
    pub links: Option<Vec<Link>>,
    /// A comment after the fields.
    pub comment: Option<Vec<u8>>,
}

/// A `(bone, weight)` pair of a Source vertex line.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Link {
    /// The bone's ID.
    pub bone: i32,
    /// Its weight.
    pub weight: f32,
}

/// A line of the `vertexanimation` block.
#[derive(Clone, Debug, PartialEq)]
pub enum VertexAnimationLine {
    /// `time T`: a new shape starts (0 is the base shape).
    Time {
        /// The shape number.
        time: i32,
        /// A comment after the number (BST keeps shape names there).
        comment: Option<Vec<u8>>,
    },
    /// `index px py pz nx ny nz`: a vertex of the reference mesh moved in this shape.
    Vertex {
        /// Index into the reference file's vertex lines.
        index: i32,
        /// New position.
        position: [f32; 3],
        /// New normal.
        normal: [f32; 3],
        /// A comment after the fields.
        comment: Option<Vec<u8>>,
    },
    /// A whole-line comment.
    Comment(Vec<u8>),
}

/// A block whose keyword the reader does not know: its lines up to `end`, raw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnknownBlock {
    /// The keyword line without surrounding blanks.
    pub keyword: Vec<u8>,
    /// The lines up to `end`, without line endings or surrounding blanks, blank lines left out.
    pub lines: Vec<Vec<u8>>,
}

impl File {
    /// The version number, if the file has a `version` line.
    pub fn version(&self) -> Option<i32> {
        self.items.iter().find_map(|i| match i {
            Item::Version(v) => Some(v.value),
            _ => None,
        })
    }

    /// The bones of the first `nodes` block, in file order.
    pub fn nodes(&self) -> impl Iterator<Item = &Node> {
        self.items
            .iter()
            .find_map(|i| match i {
                Item::Nodes(lines) => Some(lines.as_slice()),
                _ => None,
            })
            .unwrap_or(&[])
            .iter()
            .filter_map(|l| match l {
                NodeLine::Node(n) => Some(n),
                NodeLine::Comment(_) => None,
            })
    }

    /// The lines of the first `skeleton` block (empty when there is none).
    pub fn skeleton(&self) -> &[SkeletonLine] {
        self.items
            .iter()
            .find_map(|i| match i {
                Item::Skeleton(lines) => Some(lines.as_slice()),
                _ => None,
            })
            .unwrap_or(&[])
    }

    /// The frames of the first `skeleton` block: each `time` value with its bone lines.
    /// Bone lines before the first `time` line are left out (the reader refuses them).
    pub fn frames(&self) -> Vec<Frame<'_>> {
        let mut frames: Vec<Frame<'_>> = Vec::new();
        for line in self.skeleton() {
            match line {
                SkeletonLine::Time { time, .. } => frames.push(Frame {
                    time: *time,
                    poses: Vec::new(),
                }),
                SkeletonLine::Pose(pose) => {
                    if let Some(frame) = frames.last_mut() {
                        frame.poses.push(pose);
                    }
                }
                SkeletonLine::Comment(_) => {}
            }
        }
        frames
    }

    /// Whether the file has a `triangles` block (a reference file; an animation file has
    /// none).
    pub fn has_triangles(&self) -> bool {
        self.items.iter().any(|i| matches!(i, Item::Triangles(_)))
    }

    /// Every triangle of every `triangles` block, in file order.
    pub fn triangles(&self) -> impl Iterator<Item = &Triangle> {
        self.items
            .iter()
            .filter_map(|i| match i {
                Item::Triangles(lines) => Some(lines),
                _ => None,
            })
            .flatten()
            .filter_map(|l| match l {
                TriangleLine::Triangle(t) => Some(t),
                TriangleLine::Comment(_) => None,
            })
    }

    /// Whether the file has a `vertexanimation` block.
    pub fn has_vertex_animation(&self) -> bool {
        self.items
            .iter()
            .any(|i| matches!(i, Item::VertexAnimation(_)))
    }

    /// The unknown blocks in file order.
    pub fn unknown_blocks(&self) -> impl Iterator<Item = &UnknownBlock> {
        self.items.iter().filter_map(|i| match i {
            Item::Unknown(u) => Some(u),
            _ => None,
        })
    }

    /// How many lines end with a comment after their fields.
    pub fn trailing_comment_count(&self) -> usize {
        let some = |c: &Option<Vec<u8>>| usize::from(c.is_some());
        self.items
            .iter()
            .map(|item| match item {
                Item::Version(v) => some(&v.comment),
                Item::Nodes(lines) => lines
                    .iter()
                    .map(|l| match l {
                        NodeLine::Node(n) => some(&n.comment),
                        NodeLine::Comment(_) => 0,
                    })
                    .sum(),
                Item::Skeleton(lines) => lines
                    .iter()
                    .map(|l| match l {
                        SkeletonLine::Time { comment, .. } => some(comment),
                        SkeletonLine::Pose(p) => some(&p.comment),
                        SkeletonLine::Comment(_) => 0,
                    })
                    .sum(),
                Item::Triangles(lines) => lines
                    .iter()
                    .map(|l| match l {
                        TriangleLine::Triangle(t) => {
                            t.vertices.iter().map(|v| some(&v.comment)).sum()
                        }
                        TriangleLine::Comment(_) => 0,
                    })
                    .sum(),
                Item::VertexAnimation(lines) => lines
                    .iter()
                    .map(|l| match l {
                        VertexAnimationLine::Time { comment, .. }
                        | VertexAnimationLine::Vertex { comment, .. } => some(comment),
                        VertexAnimationLine::Comment(_) => 0,
                    })
                    .sum(),
                Item::Comment(_) | Item::Unknown(_) => 0,
            })
            .sum()
    }

    /// Every whole-line comment, in file order, wherever it is.
    pub fn comment_lines(&self) -> Vec<&[u8]> {
        let mut out: Vec<&[u8]> = Vec::new();
        for item in &self.items {
            match item {
                Item::Comment(c) => out.push(c),
                Item::Nodes(lines) => out.extend(lines.iter().filter_map(|l| match l {
                    NodeLine::Comment(c) => Some(c.as_slice()),
                    NodeLine::Node(_) => None,
                })),
                Item::Skeleton(lines) => out.extend(lines.iter().filter_map(|l| match l {
                    SkeletonLine::Comment(c) => Some(c.as_slice()),
                    _ => None,
                })),
                Item::Triangles(lines) => {
                    for line in lines {
                        match line {
                            TriangleLine::Comment(c) => out.push(c),
                            TriangleLine::Triangle(t) => {
                                out.extend(t.comments.iter().map(|(_, c)| c.as_slice()));
                            }
                        }
                    }
                }
                Item::VertexAnimation(lines) => {
                    out.extend(lines.iter().filter_map(|l| match l {
                        VertexAnimationLine::Comment(c) => Some(c.as_slice()),
                        _ => None,
                    }));
                }
                Item::Version(_) | Item::Unknown(_) => {}
            }
        }
        out
    }
}

/// One frame of a `skeleton` block, as [`File::frames`] groups it.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame<'a> {
    /// The `time` value.
    pub time: i32,
    /// The bone lines of the frame in file order (may list only some bones).
    pub poses: Vec<&'a BonePose>,
}
