//! The faithful file layer: every chunk of a B3D file as stored.
//!
//! Each record-holding chunk keeps the bytes after its last whole record in `extra`, and
//! chunks the reader does not know (or finds where they do not belong) are kept whole as
//! [`RawChunk`]s in their place, so [`File::to_vec`](crate::File::to_vec) gives back the
//! bytes read.

/// A chunk tag: four bytes such as `*b"NODE"`.
pub type Tag = [u8; 4];

/// A whole B3D file: the `BB3D` chunk and whatever follows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct File {
    /// `BB3D` version (1 in every known file).
    pub version: i32,
    /// The chunks inside `BB3D`, in file order.
    pub chunks: Vec<TopChunk>,
    /// Bytes after the end of the `BB3D` chunk (none in a well-formed file).
    pub trailing: Vec<u8>,
}

/// A chunk directly inside `BB3D`.
#[derive(Clone, Debug, PartialEq)]
pub enum TopChunk {
    /// `TEXS`: the texture list.
    Texs(Texs),
    /// `BRUS`: the brush (material) list.
    Brus(Brus),
    /// `NODE`: a root of the scene.
    Node(Node),
    /// Any other chunk, kept whole.
    Raw(RawChunk),
}

/// A chunk kept as bytes: its tag and its body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawChunk {
    /// The tag (`SEQS`, `PIVO`, anything).
    pub tag: Tag,
    /// The body, without the 8-byte header.
    pub body: Vec<u8>,
}

/// `TEXS`: textures, referenced by index from brushes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Texs {
    /// The textures in file order.
    pub textures: Vec<Texture>,
    /// Bytes after the last whole entry.
    pub extra: Vec<u8>,
}

/// One `TEXS` entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    /// File name as written (without its NUL); any bytes.
    pub file: Vec<u8>,
    /// Blitz3D texture flags (65536: the second UV set).
    pub flags: i32,
    /// `TextureBlend` mode.
    pub blend: i32,
    /// UV offset.
    pub position: [f32; 2],
    /// UV scale.
    pub scale: [f32; 2],
    /// Rotation in radians.
    pub rotation: f32,
}

/// `BRUS`: brushes (materials).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Brus {
    /// Texture slots per brush, stored once for the chunk.
    pub n_texs: i32,
    /// The brushes in file order.
    pub brushes: Vec<Brush>,
    /// Bytes after the last whole entry.
    pub extra: Vec<u8>,
}

/// One `BRUS` entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Brush {
    /// Name as written (without its NUL).
    pub name: Vec<u8>,
    /// Red, green, blue, alpha.
    pub color: [f32; 4],
    /// Shininess, 0…1.
    pub shininess: f32,
    /// `BrushBlend` mode.
    pub blend: i32,
    /// `BrushFX` bits.
    pub fx: i32,
    /// `TEXS` index per slot (−1: empty), `n_texs` of them.
    pub textures: Vec<i32>,
}

/// `NODE`: an entity of the scene, with its children in file order.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Name as written (without its NUL); not unique in real files.
    pub name: Vec<u8>,
    /// Translation relative to the parent (left-handed, Y up).
    pub position: [f32; 3],
    /// Scale relative to the parent.
    pub scale: [f32; 3],
    /// Rotation as stored: `w, x, y, z`, the conjugate of the rotation it stands for.
    pub rotation: [f32; 4],
    /// The chunks after the fixed fields.
    pub children: Vec<NodeChunk>,
}

/// A chunk inside a `NODE`.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeChunk {
    /// `MESH`.
    Mesh(Mesh),
    /// `BONE`: vertex weights.
    Bone(Bone),
    /// `KEYS`: animation keys.
    Keys(Keys),
    /// `ANIM`: an animation starts here.
    Anim(Anim),
    /// A child `NODE`.
    Node(Node),
    /// Any other chunk (`SEQS`, `PIVO`…), kept whole.
    Raw(RawChunk),
}

/// `MESH`: a master brush, then `VRTS` and `TRIS` chunks.
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh {
    /// Master brush, −1 for none.
    pub brush: i32,
    /// The chunks after the brush, in file order.
    pub chunks: Vec<MeshChunk>,
}

/// A chunk inside a `MESH`.
#[derive(Clone, Debug, PartialEq)]
pub enum MeshChunk {
    /// `VRTS`.
    Vrts(Vrts),
    /// `TRIS`.
    Tris(Tris),
    /// Any other chunk, kept whole.
    Raw(RawChunk),
}

/// `VRTS`: vertices, each `stride()` floats: position, then normal (flags bit 1), colour
/// (flags bit 2) and `sets × set_size` texture coordinates.
#[derive(Clone, Debug, PartialEq)]
pub struct Vrts {
    /// 1: normals, 2: colours (other bits kept, not used).
    pub flags: i32,
    /// Texture coordinate sets per vertex.
    pub sets: i32,
    /// Components per set.
    pub set_size: i32,
    /// Every vertex's floats, one after the other.
    pub data: Vec<f32>,
    /// Bytes after the last whole vertex.
    pub extra: Vec<u8>,
}

impl Vrts {
    /// Floats per vertex (at least 3).
    pub fn stride(&self) -> usize {
        vertex_floats(self.flags, self.sets, self.set_size).unwrap_or(3)
    }

    /// Number of vertices.
    pub fn count(&self) -> usize {
        self.data.len() / self.stride()
    }

    /// Whether normals are stored.
    pub fn has_normals(&self) -> bool {
        self.flags & 1 != 0
    }

    /// Whether colours are stored.
    pub fn has_colors(&self) -> bool {
        self.flags & 2 != 0
    }

    fn vertex(&self, i: usize) -> &[f32] {
        let s = self.stride();
        &self.data[i * s..(i + 1) * s]
    }

    /// Position of vertex `i` (panics past [`Vrts::count`]).
    pub fn position(&self, i: usize) -> [f32; 3] {
        let v = self.vertex(i);
        [v[0], v[1], v[2]]
    }

    /// Normal of vertex `i`, if stored.
    pub fn normal(&self, i: usize) -> Option<[f32; 3]> {
        let v = self.vertex(i);
        self.has_normals().then(|| [v[3], v[4], v[5]])
    }

    /// Colour of vertex `i`, if stored.
    pub fn color(&self, i: usize) -> Option<[f32; 4]> {
        let v = self.vertex(i);
        let at = if self.has_normals() { 6 } else { 3 };
        self.has_colors()
            .then(|| [v[at], v[at + 1], v[at + 2], v[at + 3]])
    }

    /// Texture coordinates of set `set` of vertex `i` (`set_size` floats), if stored.
    pub fn tex_coords(&self, i: usize, set: usize) -> Option<&[f32]> {
        let size = usize::try_from(self.set_size).ok()?;
        if set >= usize::try_from(self.sets).ok()? {
            return None;
        }
        let v = self.vertex(i);
        let at = 3 + 3 * usize::from(self.has_normals()) + 4 * usize::from(self.has_colors());
        v.get(at + set * size..at + (set + 1) * size)
    }
}

/// Floats per vertex of a `VRTS` with these fields, `None` when the fields are negative or
/// describe more than 8 sets of 4.
pub(crate) fn vertex_floats(flags: i32, sets: i32, set_size: i32) -> Option<usize> {
    if !(0..=8).contains(&sets) || !(0..=4).contains(&set_size) {
        return None;
    }
    Some(
        3 + 3 * (flags & 1) as usize + 4 * ((flags >> 1) & 1) as usize + (sets * set_size) as usize,
    )
}

/// `TRIS`: triangles sharing a brush.
#[derive(Clone, Debug, PartialEq)]
pub struct Tris {
    /// Brush, −1 for none (then the `MESH` brush applies).
    pub brush: i32,
    /// Vertex indices into the mesh's `VRTS`, as stored (clockwise in the left-handed space).
    pub triangles: Vec<[i32; 3]>,
    /// Bytes after the last whole triangle.
    pub extra: Vec<u8>,
}

/// `BONE`: the weights of this node over the vertices of the most recent `MESH`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bone {
    /// `(vertex id, weight)` pairs as stored (zero weights included).
    pub weights: Vec<(i32, f32)>,
    /// Bytes after the last whole pair.
    pub extra: Vec<u8>,
}

/// `KEYS`: animation keys of this node.
#[derive(Clone, Debug, PartialEq)]
pub struct Keys {
    /// 1 position, 2 scale, 4 rotation (other bits kept, not used).
    pub flags: i32,
    /// The keys; only the fields `flags` names are stored (the others are left at zero).
    pub keys: Vec<Key>,
    /// Bytes after the last whole key.
    pub extra: Vec<u8>,
}

/// One animation key.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Key {
    /// Frame number.
    pub frame: i32,
    /// Position (flags bit 1).
    pub position: [f32; 3],
    /// Scale (flags bit 2).
    pub scale: [f32; 3],
    /// Rotation `w, x, y, z` as stored (flags bit 4).
    pub rotation: [f32; 4],
}

impl Keys {
    /// Bytes per key for these flags.
    pub fn key_size(flags: i32) -> usize {
        4 + 12 * (flags & 1) as usize
            + 12 * ((flags >> 1) & 1) as usize
            + 16 * ((flags >> 2) & 1) as usize
    }
}

/// `ANIM`: the animation that starts at this node.
#[derive(Clone, Debug, PartialEq)]
pub struct Anim {
    /// Unused, 0.
    pub flags: i32,
    /// Length in frames.
    pub frames: i32,
    /// Frames per second (0 in many Blitz3D-made files).
    pub fps: f32,
    /// Bytes after the three fields.
    pub extra: Vec<u8>,
}

impl File {
    /// The root `NODE`s, in file order.
    pub fn root_nodes(&self) -> impl DoubleEndedIterator<Item = &Node> {
        self.chunks.iter().filter_map(|c| match c {
            TopChunk::Node(n) => Some(n),
            _ => None,
        })
    }

    /// The textures of every `TEXS` chunk, in file order (indices as brushes use them).
    pub fn textures(&self) -> impl Iterator<Item = &Texture> {
        self.chunks
            .iter()
            .filter_map(|c| match c {
                TopChunk::Texs(t) => Some(&t.textures),
                _ => None,
            })
            .flatten()
    }

    /// The brushes of every `BRUS` chunk, in file order.
    pub fn brushes(&self) -> impl Iterator<Item = &Brush> {
        self.chunks
            .iter()
            .filter_map(|c| match c {
                TopChunk::Brus(b) => Some(&b.brushes),
                _ => None,
            })
            .flatten()
    }

    /// Every `NODE` in file order (depth first), with its depth (roots at 0).
    pub fn nodes(&self) -> Vec<(usize, &Node)> {
        let mut out = Vec::new();
        let mut stack: Vec<(usize, &Node)> = self.root_nodes().rev().map(|n| (0, n)).collect();
        while let Some((depth, node)) = stack.pop() {
            out.push((depth, node));
            stack.extend(node.child_nodes().rev().map(|n| (depth + 1, n)));
        }
        out
    }
}

impl Node {
    /// The child `NODE`s, in file order.
    pub fn child_nodes(&self) -> impl DoubleEndedIterator<Item = &Node> {
        self.children.iter().filter_map(|c| match c {
            NodeChunk::Node(n) => Some(n),
            _ => None,
        })
    }

    /// The node's `MESH`, if any (the first, should there be several).
    pub fn mesh(&self) -> Option<&Mesh> {
        self.children.iter().find_map(|c| match c {
            NodeChunk::Mesh(m) => Some(m),
            _ => None,
        })
    }

    /// Whether the node holds a `BONE` chunk (an empty one included).
    pub fn is_bone(&self) -> bool {
        self.children
            .iter()
            .any(|c| matches!(c, NodeChunk::Bone(_)))
    }

    /// The node's `KEYS` chunks, in file order.
    pub fn keys(&self) -> impl Iterator<Item = &Keys> {
        self.children.iter().filter_map(|c| match c {
            NodeChunk::Keys(k) => Some(k),
            _ => None,
        })
    }
}

impl Mesh {
    /// The mesh's `VRTS` (the first, should there be several).
    pub fn vrts(&self) -> Option<&Vrts> {
        self.chunks.iter().find_map(|c| match c {
            MeshChunk::Vrts(v) => Some(v),
            _ => None,
        })
    }

    /// The mesh's `TRIS` chunks, in file order.
    pub fn tris(&self) -> impl Iterator<Item = &Tris> {
        self.chunks.iter().filter_map(|c| match c {
            MeshChunk::Tris(t) => Some(t),
            _ => None,
        })
    }
}
