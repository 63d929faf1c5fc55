//! The faithful file layer: every block, record and number of a MilkShape ASCII file, in
//! file order, with names as the raw bytes between the quotes.

/// A whole MilkShape ASCII file.
///
/// Blocks are kept in file order; a known block appears at most once (the reader enforces
/// this, the writer writes whatever is here). Writing gives the same *content* as the file
/// that was read (see the crate docs for what content means).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct File {
    /// The blocks in file order.
    pub blocks: Vec<Block>,
    /// Bytes from the start of a block the lenient reader could not finish (the input ended
    /// inside it) to the end of the input, written back verbatim. Empty for sound files.
    pub damaged_tail: Vec<u8>,
}

/// One block: a header line `Word: N` and the lines that belong to it.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// `Frames: N` — the length of the timeline in frames.
    Frames(i32),
    /// `Frame: N` — the frame the editor was showing when the file was saved.
    Frame(i32),
    /// `Meshes: N` and the meshes.
    Meshes(Vec<Mesh>),
    /// `Materials: N` and the materials.
    Materials(Vec<Material>),
    /// `Bones: N` and the bones with their keys.
    Bones(Vec<Bone>),
    /// Any other block (`GroupComments:`, `ModelComment:`…), kept as raw lines.
    Unknown(UnknownBlock),
}

impl Block {
    /// The header word without its colon (`"Meshes"`, or the unknown block's own word).
    pub fn name(&self) -> &[u8] {
        match self {
            Block::Frames(_) => b"Frames",
            Block::Frame(_) => b"Frame",
            Block::Meshes(_) => b"Meshes",
            Block::Materials(_) => b"Materials",
            Block::Bones(_) => b"Bones",
            Block::Unknown(block) => block.name(),
        }
    }
}

/// A block the reader does not interpret: its header line and its non-blank, non-comment
/// lines up to the next block header, each without its line ending.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnknownBlock {
    /// The header line as read, trimmed of surrounding blanks (`GroupComments: 0`).
    pub header: Vec<u8>,
    /// The lines after the header, exactly as read except for the line ending.
    pub lines: Vec<Vec<u8>>,
}

impl UnknownBlock {
    /// The header word without its colon.
    pub fn name(&self) -> &[u8] {
        let header = crate::lexer::trim_start(&self.header);
        let end = header
            .iter()
            .position(|&b| b == b':')
            .unwrap_or(header.len());
        &header[..end]
    }

    /// Whether the block carries anything: body lines, or a header number other than 0.
    pub fn has_content(&self) -> bool {
        let number = self.header.iter().position(|&b| b == b':').map(|colon| {
            crate::lexer::trim_end(crate::lexer::trim_start(&self.header[colon + 1..]))
        });
        !self.lines.is_empty() || number != Some(b"0".as_slice())
    }
}

/// A mesh (MilkShape "group").
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// Name bytes between the quotes; may be Latin-1, may repeat another mesh's name.
    pub name: Vec<u8>,
    /// Editor flags (selected, hidden…).
    pub flags: i32,
    /// Index into the materials, −1 for none.
    pub material: i32,
    /// Vertex records.
    pub vertices: Vec<Vertex>,
    /// Normals; their number need not match the vertices'.
    pub normals: Vec<[f32; 3]>,
    /// Triangles.
    pub triangles: Vec<Triangle>,
}

/// A vertex line `flags x y z u v bone`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vertex {
    /// Editor flags.
    pub flags: i32,
    /// Position `x y z`.
    pub position: [f32; 3],
    /// Texture coordinate `u v`, origin top-left.
    pub uv: [f32; 2],
    /// Index of the one bone that moves this vertex, −1 for none.
    pub bone: i32,
}

/// A triangle line `flags v1 v2 v3 n1 n2 n3 group`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Triangle {
    /// Editor flags.
    pub flags: i32,
    /// Indices into the mesh's vertices.
    pub vertices: [i32; 3],
    /// Indices into the mesh's normals, one per corner.
    pub normals: [i32; 3],
    /// Smoothing group.
    pub smoothing_group: i32,
}

/// A material: nine lines.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Material {
    /// Name bytes between the quotes.
    pub name: Vec<u8>,
    /// Ambient RGBA.
    pub ambient: [f32; 4],
    /// Diffuse RGBA.
    pub diffuse: [f32; 4],
    /// Specular RGBA.
    pub specular: [f32; 4],
    /// Emissive RGBA.
    pub emissive: [f32; 4],
    /// Shininess (specular exponent).
    pub shininess: f32,
    /// Overall alpha (1 = opaque).
    pub transparency: f32,
    /// Diffuse texture path bytes, empty for none.
    pub texture: Vec<u8>,
    /// Alpha-map path bytes, empty for none.
    pub alpha_map: Vec<u8>,
}

/// A bone with its bind pose and its keys.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bone {
    /// Name bytes between the quotes.
    pub name: Vec<u8>,
    /// Parent name bytes, empty for a root. The parent may be listed later, or be missing.
    pub parent: Vec<u8>,
    /// Editor flags.
    pub flags: i32,
    /// Bind position relative to the parent.
    pub position: [f32; 3],
    /// Bind rotation, Euler angles `x y z` in radians (`R = Rz·Ry·Rx`).
    pub rotation: [f32; 3],
    /// Position keys, relative to the bind pose.
    pub position_keys: Vec<Key>,
    /// Rotation keys (Euler angles), relative to the bind pose.
    pub rotation_keys: Vec<Key>,
}

/// A key line `time x y z`; the time is a frame number (possibly fractional), not seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Key {
    /// Frame number.
    pub frame: f32,
    /// Translation or Euler angles.
    pub value: [f32; 3],
}

impl File {
    fn find<'a, T>(&'a self, pick: impl Fn(&'a Block) -> Option<T>) -> Option<T> {
        self.blocks.iter().find_map(pick)
    }

    /// The `Frames:` value, if the block is present.
    pub fn frames(&self) -> Option<i32> {
        self.find(|b| match b {
            Block::Frames(n) => Some(*n),
            _ => None,
        })
    }

    /// The `Frame:` value (the editor's current frame), if the block is present.
    pub fn current_frame(&self) -> Option<i32> {
        self.find(|b| match b {
            Block::Frame(n) => Some(*n),
            _ => None,
        })
    }

    /// The meshes (empty when the block is absent).
    pub fn meshes(&self) -> &[Mesh] {
        self.find(|b| match b {
            Block::Meshes(m) => Some(m.as_slice()),
            _ => None,
        })
        .unwrap_or(&[])
    }

    /// The materials (empty when the block is absent).
    pub fn materials(&self) -> &[Material] {
        self.find(|b| match b {
            Block::Materials(m) => Some(m.as_slice()),
            _ => None,
        })
        .unwrap_or(&[])
    }

    /// The bones (empty when the block is absent).
    pub fn bones(&self) -> &[Bone] {
        self.find(|b| match b {
            Block::Bones(m) => Some(m.as_slice()),
            _ => None,
        })
        .unwrap_or(&[])
    }

    /// The unknown blocks in file order.
    pub fn unknown_blocks(&self) -> impl Iterator<Item = &UnknownBlock> {
        self.blocks.iter().filter_map(|b| match b {
            Block::Unknown(u) => Some(u),
            _ => None,
        })
    }

    /// Whether any bone has a key.
    pub fn has_keys(&self) -> bool {
        self.bones()
            .iter()
            .any(|b| !b.position_keys.is_empty() || !b.rotation_keys.is_empty())
    }
}
