//! A glTF writer for fixtures: JSON assembled with `serde_json` plus one binary buffer, written
//! as `.glb`, as `.gltf` with a data URI, or as `.gltf` with the buffer in an external file.
//!
//! It shares no code with `rigport-gltf`: the import is tested against files this module
//! writes from plain numbers, so a mistake in the crate cannot hide behind the same mistake
//! in its fixtures.

use serde_json::{Map, Value, json};

/// glTF component types.
pub mod component {
    /// `BYTE`
    pub const BYTE: u32 = 5120;
    /// `UNSIGNED_BYTE`
    pub const UNSIGNED_BYTE: u32 = 5121;
    /// `SHORT`
    pub const SHORT: u32 = 5122;
    /// `UNSIGNED_SHORT`
    pub const UNSIGNED_SHORT: u32 = 5123;
    /// `UNSIGNED_INT`
    pub const UNSIGNED_INT: u32 = 5125;
    /// `FLOAT`
    pub const FLOAT: u32 = 5126;
}

/// A glTF document under construction: `root` is the JSON object (add nodes, meshes… to it
/// directly), `bin` the content of buffer 0.
#[derive(Clone, Debug)]
pub struct Builder {
    /// The JSON document; `buffers` is added when it is written.
    pub root: Value,
    /// Buffer 0.
    pub bin: Vec<u8>,
}

impl Default for Builder {
    fn default() -> Self {
        Self::new()
    }
}

impl Builder {
    /// An empty glTF 2.0 document.
    pub fn new() -> Self {
        Self {
            root: json!({
                "asset": {"version": "2.0", "generator": "rigport-test-support fixture builder"}
            }),
            bin: Vec::new(),
        }
    }

    /// Appends `value` to the top-level array `key` (created when missing); returns its index.
    pub fn push(&mut self, key: &str, value: Value) -> usize {
        let object = self.root.as_object_mut().expect("the root is an object");
        let array = object
            .entry(key)
            .or_insert_with(|| Value::Array(Vec::new()))
            .as_array_mut()
            .expect("top-level glTF collections are arrays");
        array.push(value);
        array.len() - 1
    }

    /// Sets a top-level member (`scene`, `extensionsUsed`…).
    pub fn set(&mut self, key: &str, value: Value) {
        self.root
            .as_object_mut()
            .expect("the root is an object")
            .insert(key.to_owned(), value);
    }

    /// Appends `bytes` to the buffer (aligned to 4) as a new buffer view; returns its index.
    pub fn view(&mut self, bytes: &[u8], stride: Option<usize>) -> usize {
        while self.bin.len() % 4 != 0 {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        let mut view = json!({"buffer": 0, "byteOffset": offset, "byteLength": bytes.len()});
        if let Some(stride) = stride {
            view["byteStride"] = json!(stride);
        }
        self.push("bufferViews", view)
    }

    /// A tightly packed float accessor of `ty` (`"SCALAR"`, `"VEC3"`…), with min and max
    /// (the validator wants them on positions and animation inputs; they never hurt).
    pub fn floats(&mut self, values: &[f32], ty: &str) -> usize {
        let width = type_width(ty);
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let view = self.view(&bytes, None);
        let mut accessor = json!({
            "bufferView": view, "componentType": component::FLOAT,
            "count": values.len() / width, "type": ty,
        });
        let (min, max) = min_max(values.iter().map(|&v| f64::from(v)), width);
        accessor["min"] = json!(min);
        accessor["max"] = json!(max);
        self.push("accessors", accessor)
    }

    /// An integer accessor: `values` stored as `component_type`, optionally normalized.
    /// Min and max are written for `with_bounds` (positions must have them).
    pub fn integers(
        &mut self,
        values: &[i64],
        component_type: u32,
        ty: &str,
        normalized: bool,
        with_bounds: bool,
    ) -> usize {
        let width = type_width(ty);
        let size = component_size(component_type);
        // Each element starts on a multiple of 4 bytes inside a vertex attribute view, so
        // vectors of 1- and 2-byte components are padded (the spec's alignment rule).
        let element = width * size;
        let stride = element.div_ceil(4) * 4;
        let padded = stride != element && ty != "SCALAR";
        let mut bytes = Vec::new();
        for chunk in values.chunks(width) {
            for &v in chunk {
                bytes.extend_from_slice(&v.to_le_bytes()[..size]);
            }
            if padded {
                bytes.resize(bytes.len() + stride - element, 0);
            }
        }
        let view = self.view(&bytes, padded.then_some(stride));
        let mut accessor = json!({
            "bufferView": view, "componentType": component_type,
            "count": values.len() / width, "type": ty,
        });
        if normalized {
            accessor["normalized"] = json!(true);
        }
        if with_bounds {
            let (min, max) = min_max(values.iter().map(|&v| v as f64), width);
            accessor["min"] = json!(min);
            accessor["max"] = json!(max);
        }
        self.push("accessors", accessor)
    }

    /// A `UNSIGNED_SHORT` index accessor.
    pub fn indices(&mut self, indices: &[u16]) -> usize {
        let values: Vec<i64> = indices.iter().map(|&i| i64::from(i)).collect();
        self.integers(&values, component::UNSIGNED_SHORT, "SCALAR", false, false)
    }

    /// A float accessor of `ty` with `count` elements taken from `base` (a float accessor
    /// index, or `None` for all zeros) and the elements at `indices` replaced by `values`,
    /// stored as a sparse accessor.
    pub fn sparse_floats(
        &mut self,
        base: Option<usize>,
        count: usize,
        ty: &str,
        indices: &[u16],
        values: &[f32],
        bounds: (Vec<f64>, Vec<f64>),
    ) -> usize {
        let index_bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let index_view = self.view(&index_bytes, None);
        let value_bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let value_view = self.view(&value_bytes, None);
        let mut accessor = json!({
            "componentType": component::FLOAT, "count": count, "type": ty,
            "min": bounds.0, "max": bounds.1,
            "sparse": {
                "count": indices.len(),
                "indices": {"bufferView": index_view, "componentType": component::UNSIGNED_SHORT},
                "values": {"bufferView": value_view},
            },
        });
        if let Some(base) = base {
            accessor["bufferView"] = self.root["accessors"][base]["bufferView"].clone();
        }
        self.push("accessors", accessor)
    }

    /// An image stored in the buffer (`image/png` or `image/jpeg`); returns the texture index
    /// (one sampler-less texture per image).
    pub fn embedded_image(&mut self, bytes: &[u8], mime: &str, name: &str) -> usize {
        let view = self.view(bytes, None);
        let image = self.push(
            "images",
            json!({"bufferView": view, "mimeType": mime, "name": name}),
        );
        self.push("textures", json!({"source": image}))
    }

    /// A material with a base colour texture (or none).
    pub fn material(&mut self, name: &str, texture: Option<usize>) -> usize {
        let mut pbr = json!({"metallicFactor": 0.0});
        if let Some(texture) = texture {
            pbr["baseColorTexture"] = json!({"index": texture});
        }
        self.push(
            "materials",
            json!({"name": name, "pbrMetallicRoughness": pbr}),
        )
    }

    /// The document with `buffers` filled in by `uri` (`None`: the GLB chunk).
    fn json_with_buffer(&self, uri: Option<String>) -> Value {
        let mut root = self.root.clone();
        if !self.bin.is_empty() {
            let mut buffer = Map::new();
            buffer.insert("byteLength".into(), json!(self.bin.len()));
            if let Some(uri) = uri {
                buffer.insert("uri".into(), json!(uri));
            }
            root["buffers"] = json!([Value::Object(buffer)]);
        }
        root
    }

    /// A `.glb` file: header, JSON chunk, BIN chunk.
    pub fn glb(&self) -> Vec<u8> {
        glb(&self.json_with_buffer(None), &self.bin)
    }

    /// A `.gltf` file with the buffer inline as a base64 data URI.
    pub fn gltf_data_uri(&self) -> Vec<u8> {
        let uri = format!("data:application/octet-stream;base64,{}", base64(&self.bin));
        pretty(&self.json_with_buffer(Some(uri)))
    }

    /// A `.gltf` file naming its buffer `bin_uri`, and the buffer's content to write there.
    pub fn gltf_external(&self, bin_uri: &str) -> (Vec<u8>, Vec<u8>) {
        (
            pretty(&self.json_with_buffer(Some(bin_uri.to_owned()))),
            self.bin.clone(),
        )
    }
}

/// A GLB container around `json` and `bin` (no BIN chunk when `bin` is empty).
pub fn glb(json: &Value, bin: &[u8]) -> Vec<u8> {
    let mut text = serde_json::to_vec(json).expect("JSON values serialize");
    while text.len() % 4 != 0 {
        text.push(b' ');
    }
    let mut chunk = bin.to_vec();
    while chunk.len() % 4 != 0 {
        chunk.push(0);
    }
    let total = 12 + 8 + text.len() + if chunk.is_empty() { 0 } else { 8 + chunk.len() };
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&text);
    if !chunk.is_empty() {
        out.extend_from_slice(&(chunk.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&chunk);
    }
    out
}

/// Pretty JSON with a final newline.
pub fn pretty(json: &Value) -> Vec<u8> {
    let mut text = serde_json::to_vec_pretty(json).expect("JSON values serialize");
    text.push(b'\n');
    text
}

/// Standard base64 with padding.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Number of components of an accessor type.
pub fn type_width(ty: &str) -> usize {
    match ty {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "VEC4" | "MAT2" => 4,
        "MAT3" => 9,
        "MAT4" => 16,
        other => panic!("unknown accessor type {other}"),
    }
}

/// Size in bytes of a component type.
pub fn component_size(component_type: u32) -> usize {
    match component_type {
        component::BYTE | component::UNSIGNED_BYTE => 1,
        component::SHORT | component::UNSIGNED_SHORT => 2,
        component::UNSIGNED_INT | component::FLOAT => 4,
        other => panic!("unknown component type {other}"),
    }
}

fn min_max(values: impl Iterator<Item = f64>, width: usize) -> (Vec<f64>, Vec<f64>) {
    let mut min = vec![f64::INFINITY; width];
    let mut max = vec![f64::NEG_INFINITY; width];
    for (i, v) in values.enumerate() {
        min[i % width] = min[i % width].min(v);
        max[i % width] = max[i % width].max(v);
    }
    (min, max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc_4648_vectors() {
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
    }

    #[test]
    fn glb_lengths_add_up_and_chunks_are_aligned() {
        let mut builder = Builder::new();
        builder.floats(&[0.0, 1.0, 2.0], "VEC3");
        let glb = builder.glb();
        let word = |at: usize| u32::from_le_bytes(glb[at..at + 4].try_into().unwrap()) as usize;
        assert_eq!(&glb[..4], b"glTF");
        assert_eq!(word(8), glb.len());
        let json_len = word(12);
        assert_eq!(json_len % 4, 0);
        assert_eq!(&glb[20 + json_len + 4..20 + json_len + 8], b"BIN\0");
        assert_eq!(word(20 + json_len), 12);
    }
}
