//! The one binary buffer of an export and the accessors that view it.
//!
//! Every array goes through [`Builder::accessor`], so each gets its own buffer view starting
//! at a 4-byte boundary (what glTF requires for float and `u32` data) and bounds are computed
//! the same way everywhere.

use gltf_json as json;
use json::accessor::{ComponentType, GenericComponentType, Type};
use json::buffer::Target;
use json::validation::{Checked, USize64};

/// A scalar type an accessor can hold.
pub(super) trait Component: Copy {
    /// The glTF component type.
    const TYPE: ComponentType;
    /// Appends the little-endian bytes.
    fn put(self, out: &mut Vec<u8>);
    /// The value for comparisons when computing bounds.
    fn as_f64(self) -> f64;
    /// The value as a JSON number (exact: an `f32` widens to the same `f64`).
    fn json(self) -> json::Value;
}

impl Component for f32 {
    const TYPE: ComponentType = ComponentType::F32;
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
    fn as_f64(self) -> f64 {
        f64::from(self)
    }
    fn json(self) -> json::Value {
        json::Value::from(self)
    }
}

macro_rules! unsigned_component {
    ($ty:ty, $component:ident) => {
        impl Component for $ty {
            const TYPE: ComponentType = ComponentType::$component;
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn as_f64(self) -> f64 {
                f64::from(self)
            }
            fn json(self) -> json::Value {
                json::Value::from(self)
            }
        }
    };
}
unsigned_component!(u8, U8);
unsigned_component!(u16, U16);
unsigned_component!(u32, U32);

/// How an accessor is used, which decides its buffer view target and whether it needs bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Usage {
    /// A vertex attribute without bounds.
    Vertex,
    /// `POSITION`: a vertex attribute that must carry `min` and `max`.
    Position,
    /// Triangle indices.
    Index,
    /// Animation sampler input: no buffer view target, bounds required.
    KeyTimes,
    /// Animation output or inverse bind matrices: no target, no bounds.
    Plain,
}

/// The glTF document being built and the bytes of its buffer.
pub(super) struct Builder {
    /// The document.
    pub root: json::Root,
    /// The buffer (every view starts at a multiple of 4).
    pub bin: Vec<u8>,
}

impl Builder {
    /// An empty document.
    pub fn new() -> Self {
        Self {
            root: json::Root::default(),
            bin: Vec::new(),
        }
    }

    /// Appends `values` (flat, `ty.multiplicity()` components per element) as a new buffer view
    /// and an accessor over it. `values` must not be empty: glTF forbids empty accessors, so
    /// callers skip what has no data (and say so in the report).
    pub fn accessor<C: Component>(
        &mut self,
        values: &[C],
        ty: Type,
        usage: Usage,
    ) -> json::Index<json::Accessor> {
        let width = ty.multiplicity();
        debug_assert!(!values.is_empty() && values.len() % width == 0);
        let count = values.len() / width;
        let target = match usage {
            Usage::Vertex | Usage::Position => Some(Target::ArrayBuffer),
            Usage::Index => Some(Target::ElementArrayBuffer),
            Usage::KeyTimes | Usage::Plain => None,
        };
        let view = self.view(values, target);
        let (min, max) = match usage {
            Usage::Position | Usage::KeyTimes => {
                let (min, max) = bounds(values, width);
                (Some(min), Some(max))
            }
            Usage::Vertex | Usage::Index | Usage::Plain => (None, None),
        };
        self.root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: None,
            count: USize64::from(count),
            component_type: Checked::Valid(GenericComponentType(C::TYPE)),
            extensions: None,
            extras: Default::default(),
            type_: Checked::Valid(ty),
            min,
            max,
            name: None,
            normalized: false,
            sparse: None,
        })
    }

    /// Pads the buffer to 4 bytes, appends the values and declares a view over them.
    fn view<C: Component>(
        &mut self,
        values: &[C],
        target: Option<Target>,
    ) -> json::Index<json::buffer::View> {
        pad_to_4(&mut self.bin, 0);
        let offset = self.bin.len();
        self.bin.reserve(values.len() * C::TYPE.size());
        for &value in values {
            value.put(&mut self.bin);
        }
        let length = self.bin.len() - offset;
        self.root.push(json::buffer::View {
            buffer: json::Index::new(0),
            byte_length: USize64::from(length),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: target.map(Checked::Valid),
            extensions: None,
            extras: Default::default(),
        })
    }

    /// Declares the buffer (index 0, which every view names) once all data is in, unless
    /// there is none: glTF forbids empty buffers. `uri` is `None` for a GLB's BIN chunk.
    pub fn finish_buffer(&mut self, uri: Option<String>) {
        pad_to_4(&mut self.bin, 0);
        if self.bin.is_empty() {
            return;
        }
        self.root.push(json::Buffer {
            byte_length: USize64::from(self.bin.len()),
            name: None,
            uri,
            extensions: None,
            extras: Default::default(),
        });
    }
}

/// Pads `bytes` with `fill` to a multiple of 4 bytes.
pub(super) fn pad_to_4(bytes: &mut Vec<u8>, fill: u8) {
    while bytes.len() % 4 != 0 {
        bytes.push(fill);
    }
}

/// Per-component minimum and maximum of flat `values` with `width` components per element,
/// as JSON arrays holding the exact stored values.
fn bounds<C: Component>(values: &[C], width: usize) -> (json::Value, json::Value) {
    let mut min: Vec<C> = values.get(..width).unwrap_or_default().to_vec();
    let mut max = min.clone();
    for element in values.chunks_exact(width) {
        for (i, &v) in element.iter().enumerate() {
            if v.as_f64() < min[i].as_f64() {
                min[i] = v;
            }
            if v.as_f64() > max[i].as_f64() {
                max[i] = v;
            }
        }
    }
    let to_json = |v: Vec<C>| json::Value::Array(v.into_iter().map(C::json).collect());
    (to_json(min), to_json(max))
}
