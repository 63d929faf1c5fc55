//! The one binary buffer of an export and the accessors that view it.
//!
//! Every array goes through [`Builder::accessor`], so each gets its own buffer view starting
//! at a 4-byte boundary (what glTF requires for float and `u32` data) and bounds are computed
//! the same way everywhere.

use gltf_json as json;
use json::accessor::{ComponentType, GenericComponentType, Type};
use json::buffer::Target;
use json::validation::{Checked, USize64};
use rigport_model_core::Model;

/// A scalar type an accessor can hold.
pub(super) trait Component: Copy + PartialOrd + bytemuck::Pod {
    /// The glTF component type.
    const TYPE: ComponentType;
    /// Appends the little-endian bytes.
    fn put(self, out: &mut Vec<u8>);
    /// Appends the little-endian bytes of every value: on little-endian machines the
    /// values' own bytes in one copy (bytemuck), several times faster than value by value
    /// for the long key arrays of an animation.
    fn put_all(values: &[Self], out: &mut Vec<u8>) {
        if cfg!(target_endian = "little") {
            out.extend_from_slice(bytemuck::cast_slice(values));
        } else {
            values.iter().for_each(|v| v.put(out));
        }
    }
    /// The value as a JSON number (exact: an `f32` widens to the same `f64`).
    fn json(self) -> json::Value;
}

/// `Component` for a number type: little-endian bytes, widened to `f64` (exactly) for
/// JSON.
macro_rules! component {
    ($ty:ty, $component:ident) => {
        impl Component for $ty {
            const TYPE: ComponentType = ComponentType::$component;
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn json(self) -> json::Value {
                json::Value::from(self)
            }
        }
    };
}
component!(f32, F32);
component!(u8, U8);
component!(u16, U16);
component!(u32, U32);

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
    /// The bytes of a builder that worked on its own ([`Builder::follow_with`]), laid after
    /// `bin`; nothing is added to `bin` once there are.
    tail: Vec<u8>,
}

/// The bytes of an export's one buffer: `head`, then `tail` at the next multiple of 4 (the
/// animations, made on their own), each view where the JSON says.
pub(super) struct Buffer {
    /// The bytes written first.
    pub head: Vec<u8>,
    /// The bytes of another builder, laid after them.
    pub tail: Vec<u8>,
}

impl Buffer {
    /// The buffer as one run of bytes.
    pub fn joined(self) -> Vec<u8> {
        self.behind(&[])
    }

    /// `front` then the buffer, as one run of bytes. With a tail, `front` and the head go in
    /// front of it inside the tail's allocation, which is made with room for them (see
    /// [`size_bound`]); else `front` goes in front of the head inside its allocation.
    pub fn behind(self, front: &[u8]) -> Vec<u8> {
        let Buffer { mut head, mut tail } = self;
        if tail.is_empty() {
            insert_front(&mut head, &[front]);
            return head;
        }
        pad_to_4(&mut head, 0);
        insert_front(&mut tail, &[front, &head]);
        tail
    }
}

impl Builder {
    /// An empty document whose buffer has room for `bytes` (see [`size_bound`]).
    pub fn with_capacity(bytes: usize) -> Self {
        Self {
            root: json::Root::default(),
            bin: Vec::with_capacity(bytes),
            tail: Vec::new(),
        }
    }

    /// Takes in `other`, a builder that wrote animations on its own (its accessors, buffer
    /// views and animations; nothing else): they follow this builder's, with their indices
    /// and byte offsets moved past this builder's, and its bytes become the buffer's tail.
    /// The document and the buffer are then exactly what writing the animations here
    /// would have made.
    pub fn follow_with(&mut self, other: Builder) {
        debug_assert!(self.tail.is_empty() && other.tail.is_empty());
        pad_to_4(&mut self.bin, 0);
        let base = self.bin.len() as u64;
        let views = self.root.buffer_views.len();
        let accessors = self.root.accessors.len();
        for mut view in other.root.buffer_views {
            view.byte_offset = view.byte_offset.map(|offset| USize64(offset.0 + base));
            self.root.buffer_views.push(view);
        }
        for mut accessor in other.root.accessors {
            accessor.buffer_view = accessor.buffer_view.map(|view| moved(view, views));
            self.root.accessors.push(accessor);
        }
        for mut animation in other.root.animations {
            for sampler in &mut animation.samplers {
                sampler.input = moved(sampler.input, accessors);
                sampler.output = moved(sampler.output, accessors);
            }
            self.root.animations.push(animation);
        }
        self.tail = other.bin;
    }

    /// The bytes of the buffer, once the document is written out.
    pub fn into_buffer(self) -> Buffer {
        Buffer {
            head: self.bin,
            tail: self.tail,
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
        let offset = self.start_view(values.len() * C::TYPE.size());
        C::put_all(values, &mut self.bin);
        let bounds = needs_bounds(usage).then(|| bounds(values, width));
        self.finish_accessor::<C>(offset, values.len() / width, ty, usage, bounds)
    }

    /// Like [`Builder::accessor`], but the values are written into the buffer as `items`
    /// yields them: no array of the whole attribute is built first (an export of a large
    /// model would otherwise hold every attribute twice). Each item holds `N` components,
    /// a whole number of elements (`N = ty.multiplicity()` for accessors with bounds; three
    /// scalar indices per triangle for an index accessor). `items` must not be empty.
    pub fn accessor_from<C: Component, const N: usize>(
        &mut self,
        items: impl Iterator<Item = [C; N]>,
        ty: Type,
        usage: Usage,
    ) -> json::Index<json::Accessor> {
        let width = ty.multiplicity();
        debug_assert!(N % width == 0 && (width == N || !needs_bounds(usage)));
        let offset = self.start_view(items.size_hint().0 * N * C::TYPE.size());
        let mut range: Option<([C; N], [C; N])> = None;
        let track = needs_bounds(usage);
        let mut components = 0;
        for item in items {
            C::put_all(&item, &mut self.bin);
            if track {
                range = Some(match range {
                    None => (item, item),
                    Some((mut min, mut max)) => {
                        widen(&mut min, &mut max, &item);
                        (min, max)
                    }
                });
            }
            components += N;
        }
        let bounds = range.map(|(min, max)| (to_json(&min), to_json(&max)));
        self.finish_accessor::<C>(offset, components / width, ty, usage, bounds)
    }

    /// A sparse `VEC3` float accessor of `count` elements: zero except at `indices`
    /// (strictly ascending, each below `count`), which take `values` (glTF 2.0 §3.6.2.3, no
    /// base buffer view). `bounds` adds `min`/`max` over every element, zeros included.
    pub fn sparse_vec3(
        &mut self,
        count: usize,
        indices: &[u32],
        values: impl Iterator<Item = [f32; 3]>,
        bounds: bool,
    ) -> json::Index<json::Accessor> {
        debug_assert!(!indices.is_empty() && indices.len() <= count);
        let (index_type, index_view) = if count <= usize::from(u16::MAX) + 1 {
            let narrow: Vec<u16> = indices.iter().map(|&i| i as u16).collect();
            (ComponentType::U16, self.plain_view(&narrow))
        } else {
            (ComponentType::U32, self.plain_view(indices))
        };
        let values: Vec<f32> = values.flatten().collect();
        let value_view = self.plain_view(&values);
        let (min, max) = if bounds {
            let mut min = [0.0_f32; 3];
            let mut max = [0.0_f32; 3];
            if indices.len() == count {
                min = [values[0], values[1], values[2]];
                max = min;
            }
            for element in values.chunks_exact(3) {
                widen(&mut min, &mut max, element);
            }
            (Some(to_json(&min)), Some(to_json(&max)))
        } else {
            (None, None)
        };
        self.root.push(json::Accessor {
            buffer_view: None,
            byte_offset: None,
            count: USize64::from(count),
            component_type: Checked::Valid(GenericComponentType(ComponentType::F32)),
            extensions: None,
            extras: Default::default(),
            type_: Checked::Valid(Type::Vec3),
            min,
            max,
            name: None,
            normalized: false,
            sparse: Some(json::accessor::sparse::Sparse {
                count: USize64::from(indices.len()),
                indices: json::accessor::sparse::Indices {
                    buffer_view: index_view,
                    byte_offset: USize64(0),
                    component_type: Checked::Valid(json::accessor::IndexComponentType(index_type)),
                    extensions: None,
                    extras: Default::default(),
                },
                values: json::accessor::sparse::Values {
                    buffer_view: value_view,
                    byte_offset: USize64(0),
                    extensions: None,
                    extras: Default::default(),
                },
                extensions: None,
                extras: Default::default(),
            }),
        })
    }

    /// Appends `values` as a buffer view without target (sparse indices and values).
    fn plain_view<C: Component>(&mut self, values: &[C]) -> json::Index<json::buffer::View> {
        let offset = self.start_view(values.len() * C::TYPE.size());
        C::put_all(values, &mut self.bin);
        self.root.push(json::buffer::View {
            buffer: json::Index::new(0),
            byte_length: USize64::from(self.bin.len() - offset),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: None,
            extensions: None,
            extras: Default::default(),
        })
    }

    /// Appends raw bytes (an embedded image) as a buffer view without target, starting at a
    /// 4-byte boundary.
    pub fn raw_view(&mut self, bytes: &[u8]) -> json::Index<json::buffer::View> {
        self.plain_view(bytes)
    }

    /// Pads the buffer to 4 bytes and makes room for `bytes` more; returns where they start.
    fn start_view(&mut self, bytes: usize) -> usize {
        debug_assert!(self.tail.is_empty(), "written after the tail");
        pad_to_4(&mut self.bin, 0);
        self.bin.reserve(bytes);
        self.bin.len()
    }

    /// Declares a view over the bytes written since `offset` and an accessor over it.
    fn finish_accessor<C: Component>(
        &mut self,
        offset: usize,
        count: usize,
        ty: Type,
        usage: Usage,
        bounds: Option<(json::Value, json::Value)>,
    ) -> json::Index<json::Accessor> {
        let target = match usage {
            Usage::Vertex | Usage::Position => Some(Target::ArrayBuffer),
            Usage::Index => Some(Target::ElementArrayBuffer),
            Usage::KeyTimes | Usage::Plain => None,
        };
        let length = self.bin.len() - offset;
        let view = self.root.push(json::buffer::View {
            buffer: json::Index::new(0),
            byte_length: USize64::from(length),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: target.map(Checked::Valid),
            extensions: None,
            extras: Default::default(),
        });
        let (min, max) = bounds.unzip();
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

    /// Declares the buffer (index 0, which every view names) once all data is in, unless
    /// there is none: glTF forbids empty buffers. `uri` is `None` for a GLB's BIN chunk.
    pub fn finish_buffer(&mut self, uri: Option<String>) {
        pad_to_4(&mut self.bin, 0);
        pad_to_4(&mut self.tail, 0);
        let length = self.bin.len() + self.tail.len();
        if length == 0 {
            return;
        }
        self.root.push(json::Buffer {
            byte_length: USize64::from(length),
            name: None,
            uri,
            extensions: None,
            extras: Default::default(),
        });
    }
}

/// More bytes than the export of `model` can need: its buffer and the GLB header and JSON
/// that go before it.
///
/// The buffer is allocated once with this capacity (the animations' part too, when it is
/// made apart: the rest is put in front of it), so it is never moved while it grows (each
/// move would copy everything written so far and, for a moment, hold it twice) and the GLB
/// is assembled inside it. Capacity never written is never touched, so a generous bound
/// costs address space, not memory.
pub(super) fn size_bound(model: &Model) -> usize {
    // Per vertex: position, normal, texture coordinate, colour, u16 joints, weights.
    const VERTEX: usize = 12 + 12 + 8 + 16 + 8 + 16;
    let meshes: usize = model
        .meshes
        .iter()
        .map(|m| m.vertices.len() * VERTEX + m.triangles.len() * 12 + 8 * 4)
        .sum();
    // Per target: its offsets (a dense position and normal column at most) and two views.
    let targets: usize = model
        .meshes
        .iter()
        .flat_map(|m| {
            m.morph_targets
                .iter()
                .map(|_| m.vertices.len() * 28 + 2 * JSON_ITEM)
        })
        .sum();
    let joints = (model.skeleton.joints.len() + 1) * (64 + JSON_ITEM);
    let items = (model.meshes.len() * 8 + model.materials.len() * 4) * JSON_ITEM;
    meshes + targets + joints + items + (64 << 10) + animation_bound(model)
}

/// The part of [`size_bound`] for the animations.
pub(super) fn animation_bound(model: &Model) -> usize {
    let keys: usize = model
        .animations
        .iter()
        .flat_map(|a| &a.tracks)
        .map(|t| (t.key_count() + 3) * KEY + 3 * JSON_ITEM)
        .sum();
    let weights: usize = model
        .animations
        .iter()
        .flat_map(|a| &a.morph_tracks)
        .map(|t| t.times.len() * 4 + t.weights.len() * 12 + 2 * JSON_ITEM)
        .sum();
    keys + weights + model.animations.len() * (KEY + JSON_ITEM)
}

/// Bytes per key in [`size_bound`]: a time and up to three values of four floats (cubic:
/// tangents and value).
const KEY: usize = 4 + 3 * 16;
/// JSON per accessor, node, mesh, channel or material in [`size_bound`], generously.
const JSON_ITEM: usize = 512;

/// Whether accessors of this usage must carry `min` and `max`.
fn needs_bounds(usage: Usage) -> bool {
    matches!(usage, Usage::Position | Usage::KeyTimes)
}

/// Widens the per-component `min` and `max` to include `item`.
fn widen<C: Component>(min: &mut [C], max: &mut [C], item: &[C]) {
    // Compared as stored: every component type widens to `f64` exactly and in order, so
    // this is the comparison of the values the JSON will hold.
    for ((lo, hi), &v) in min.iter_mut().zip(max.iter_mut()).zip(item) {
        if v < *lo {
            *lo = v;
        }
        if v > *hi {
            *hi = v;
        }
    }
}

/// Components as a JSON array holding the exact stored values.
fn to_json<C: Component>(values: &[C]) -> json::Value {
    json::Value::Array(values.iter().map(|&v| v.json()).collect())
}

/// `index` moved past `by` items that now come before it. Indices are `u32` in glTF: a
/// document never holds more items than that.
fn moved<T>(index: json::Index<T>, by: usize) -> json::Index<T> {
    json::Index::new(u32::try_from(index.value() + by).unwrap_or(u32::MAX))
}

/// Inserts `front` (its slices in order) before the bytes of `buffer`, moving them within
/// the allocation.
fn insert_front(buffer: &mut Vec<u8>, front: &[&[u8]]) {
    let old = buffer.len();
    let length: usize = front.iter().map(|part| part.len()).sum();
    if length == 0 {
        return;
    }
    buffer.resize(old + length, 0);
    buffer.copy_within(..old, length);
    let mut at = 0;
    for part in front {
        buffer[at..at + part.len()].copy_from_slice(part);
        at += part.len();
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
        widen(&mut min, &mut max, element);
    }
    (to_json(&min), to_json(&max))
}
