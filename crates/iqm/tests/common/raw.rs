//! A hand-made IQM file, byte by byte, independent of the crate's writer: blocks are
//! appended in order and the header is filled with their offsets.

/// Little-endian bytes.
#[derive(Default, Clone)]
pub struct Bytes(pub Vec<u8>);

impl Bytes {
    pub fn u32(mut self, v: u32) -> Self {
        self.0.extend(v.to_le_bytes());
        self
    }
    pub fn i32(self, v: i32) -> Self {
        self.u32(v as u32)
    }
    pub fn f32(mut self, v: f32) -> Self {
        self.0.extend(v.to_le_bytes());
        self
    }
    pub fn f32s(self, vs: &[f32]) -> Self {
        vs.iter().fold(self, |b, &v| b.f32(v))
    }
    pub fn u16(mut self, v: u16) -> Self {
        self.0.extend(v.to_le_bytes());
        self
    }
}

/// Header fields by name (index into the 27 words after the magic).
pub const VERSION: usize = 0;
pub const FILESIZE: usize = 1;
pub const NUM_TEXT: usize = 3;
pub const NUM_MESHES: usize = 5;
pub const NUM_VERTEXARRAYS: usize = 7;
pub const NUM_VERTEXES: usize = 8;
pub const NUM_TRIANGLES: usize = 10;
pub const NUM_JOINTS: usize = 13;
pub const NUM_POSES: usize = 15;
pub const NUM_ANIMS: usize = 17;
pub const NUM_FRAMES: usize = 19;
pub const NUM_FRAMECHANNELS: usize = 20;
pub const OFS_FRAMES: usize = 21;

/// A file under construction: header words and the body after the 124-byte header.
pub struct Raw {
    pub header: [u32; 27],
    pub body: Vec<u8>,
}

impl Raw {
    pub fn new(version: u32) -> Self {
        let mut header = [0; 27];
        header[VERSION] = version;
        Self {
            header,
            body: Vec::new(),
        }
    }

    /// Appends a block (4-byte aligned) and returns its offset.
    pub fn block(&mut self, bytes: &[u8]) -> u32 {
        while self.body.len() % 4 != 0 {
            self.body.push(0);
        }
        let at = 124 + self.body.len() as u32;
        self.body.extend(bytes);
        at
    }

    /// Appends a block and sets its count and offset fields (offset at `count_field + 1`).
    pub fn counted(&mut self, count_field: usize, count: u32, bytes: &[u8]) {
        self.header[count_field] = count;
        self.header[count_field + 1] = self.block(bytes);
    }

    pub fn finish(mut self) -> Vec<u8> {
        while self.body.len() % 4 != 0 {
            self.body.push(0);
        }
        self.header[FILESIZE] = 124 + self.body.len() as u32;
        let mut out = b"INTERQUAKEMODEL\0".to_vec();
        for word in self.header {
            out.extend(word.to_le_bytes());
        }
        out.extend(self.body);
        out
    }
}
