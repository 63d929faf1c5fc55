//! A little-endian byte builder for MilkShape binary files, shared by the bench inputs
//! ([`ms3d`](mod@super::ms3d)) and the ms3d fixtures (`crate::fixtures`). It shares no code
//! with `rigport-ms3d-bin`, so that crate's reader is tested against an independent writer.

/// Bytes under construction; every method appends and returns the builder for chaining.
#[derive(Default)]
pub struct LeBytes(pub Vec<u8>);

impl LeBytes {
    /// An empty builder with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> Self {
        Self(Vec::with_capacity(capacity))
    }
    /// One unsigned byte.
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }
    /// One signed byte (joint indices, where -1 means none).
    pub fn i8(&mut self, v: i8) -> &mut Self {
        self.0.push(v as u8);
        self
    }
    /// A little-endian `u16`.
    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    /// A little-endian `i32`.
    pub fn i32(&mut self, v: i32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    /// A little-endian `u32`.
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    /// Little-endian `f32`s, one after the other.
    pub fn f32s(&mut self, vs: &[f32]) -> &mut Self {
        for v in vs {
            self.0.extend_from_slice(&v.to_le_bytes());
        }
        self
    }
    /// Bytes as they are.
    pub fn raw(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.extend_from_slice(bytes);
        self
    }
    /// A fixed-size name field: `text` then zeros (text may hold its own NUL and junk).
    ///
    /// # Panics
    /// If `text` is longer than the field.
    pub fn name(&mut self, text: &[u8], size: usize) -> &mut Self {
        assert!(text.len() <= size, "name longer than its {size}-byte field");
        self.0.extend_from_slice(text);
        self.0.resize(self.0.len() + size - text.len(), 0);
        self
    }
    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// Whether nothing is written yet.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
