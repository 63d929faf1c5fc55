//! The oracle's own glTF reading: the GLB container, buffers (GLB chunk, base64 data URI or
//! a file beside the source) and accessors (strided, normalized, sparse), from `serde_json`
//! values only. Written from the glTF 2.0 specification, not from `rigport-gltf`, and kept
//! simple rather than fast: it reads test files.

use serde_json::Value;
use std::path::Path;

/// A glTF document with its buffers loaded.
#[derive(Clone, Debug)]
pub struct Source {
    /// The JSON document.
    pub json: Value,
    /// Every buffer's bytes, in order.
    pub buffers: Vec<Vec<u8>>,
}

impl Source {
    /// Reads a `.glb` or `.gltf`; external buffers are read from `base_dir`.
    pub fn read(bytes: &[u8], base_dir: Option<&Path>) -> Result<Self, String> {
        let (json, chunk) = if bytes.starts_with(b"glTF") {
            split_glb(bytes)?
        } else {
            (bytes, None)
        };
        let json: Value = serde_json::from_slice(json).map_err(|e| format!("JSON: {e}"))?;
        let mut buffers = Vec::new();
        for (i, buffer) in array(&json, "buffers").iter().enumerate() {
            let length = uint(&buffer["byteLength"]).ok_or("buffer without byteLength")?;
            let data = match buffer["uri"].as_str() {
                None => chunk
                    .map(<[u8]>::to_vec)
                    .ok_or(format!("buffer {i} has no URI and there is no GLB chunk"))?,
                Some(uri) => resolve_uri(uri, base_dir)?,
            };
            if data.len() < length {
                return Err(format!("buffer {i} holds {} of {length} bytes", data.len()));
            }
            buffers.push(data);
        }
        Ok(Self { json, buffers })
    }

    /// The bytes of buffer view `index`, with its stride (0 when packed).
    fn view(&self, index: usize) -> Result<(&[u8], usize), String> {
        let view = &self.json["bufferViews"][index];
        let buffer = self
            .buffers
            .get(uint(&view["buffer"]).ok_or("view without buffer")?)
            .ok_or("buffer out of range")?;
        let offset = uint(&view["byteOffset"]).unwrap_or(0);
        let length = uint(&view["byteLength"]).ok_or("view without byteLength")?;
        let bytes = buffer
            .get(offset..offset + length)
            .ok_or(format!("buffer view {index} runs past its buffer"))?;
        Ok((bytes, uint(&view["byteStride"]).unwrap_or(0)))
    }

    /// Accessor `index` as rows of `f32` (normalized integers mapped to [0, 1] / [-1, 1] as the
    /// spec says; other integers converted as they are), sparse substitutions applied.
    pub fn accessor(&self, index: usize) -> Result<Vec<Vec<f32>>, String> {
        let accessor = &self.json["accessors"][index];
        if accessor.is_null() {
            return Err(format!("accessor {index} does not exist"));
        }
        let count = uint(&accessor["count"]).ok_or("accessor without count")?;
        let width = width(accessor["type"].as_str().ok_or("accessor without type")?)?;
        let component = uint(&accessor["componentType"]).ok_or("no componentType")? as u32;
        let normalized = accessor["normalized"].as_bool().unwrap_or(false);
        let mut rows = match uint(&accessor["bufferView"]) {
            None => vec![vec![0.0; width]; count],
            Some(view) => {
                let (bytes, stride) = self.view(view)?;
                let offset = uint(&accessor["byteOffset"]).unwrap_or(0);
                let size = component_size(component)?;
                let stride = if stride == 0 { size * width } else { stride };
                (0..count)
                    .map(|i| {
                        (0..width)
                            .map(|c| {
                                let at = offset + i * stride + c * size;
                                let raw = bytes
                                    .get(at..at + size)
                                    .ok_or(format!("accessor {index} runs past its view"))?;
                                Ok(decode(raw, component, normalized))
                            })
                            .collect::<Result<Vec<f32>, String>>()
                    })
                    .collect::<Result<_, _>>()?
            }
        };
        if let Some(sparse) = accessor.get("sparse") {
            let n = uint(&sparse["count"]).ok_or("sparse without count")?;
            let (index_bytes, _) = self.view(uint(&sparse["indices"]["bufferView"]).ok_or("?")?)?;
            let index_offset = uint(&sparse["indices"]["byteOffset"]).unwrap_or(0);
            let index_type = uint(&sparse["indices"]["componentType"]).ok_or("?")? as u32;
            let (value_bytes, _) = self.view(uint(&sparse["values"]["bufferView"]).ok_or("?")?)?;
            let value_offset = uint(&sparse["values"]["byteOffset"]).unwrap_or(0);
            let index_size = component_size(index_type)?;
            let size = component_size(component)?;
            for k in 0..n {
                let at = index_offset + k * index_size;
                let raw = index_bytes
                    .get(at..at + index_size)
                    .ok_or("sparse indices short")?;
                let target = decode(raw, index_type, false) as usize;
                let row = rows.get_mut(target).ok_or("sparse index out of range")?;
                for (c, value) in row.iter_mut().enumerate() {
                    let at = value_offset + (k * width + c) * size;
                    let raw = value_bytes
                        .get(at..at + size)
                        .ok_or("sparse values short")?;
                    *value = decode(raw, component, normalized);
                }
            }
        }
        Ok(rows)
    }

    /// Accessor `index` as integers (indices, joint numbers).
    pub fn integers(&self, index: usize) -> Result<Vec<Vec<u32>>, String> {
        Ok(self
            .accessor(index)?
            .into_iter()
            .map(|row| row.into_iter().map(|v| v as u32).collect())
            .collect())
    }
}

/// The JSON chunk and the BIN chunk (if any) of a GLB file.
fn split_glb(bytes: &[u8]) -> Result<(&[u8], Option<&[u8]>), String> {
    let word = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .ok_or(format!("GLB shorter than {} bytes", at + 4))
    };
    if word(4)? != 2 || word(8)? > bytes.len() {
        return Err("bad GLB header".into());
    }
    let json_len = word(12)?;
    let json = bytes.get(20..20 + json_len).ok_or("JSON chunk short")?;
    let bin_at = 20 + json_len;
    let bin = if bin_at + 8 <= word(8)? {
        let len = word(bin_at)?;
        bytes.get(bin_at + 8..bin_at + 8 + len)
    } else {
        None
    };
    Ok((json, bin))
}

/// The bytes a buffer or image URI names.
pub fn resolve_uri(uri: &str, base_dir: Option<&Path>) -> Result<Vec<u8>, String> {
    if let Some(rest) = uri.strip_prefix("data:") {
        let (_, data) = rest
            .split_once(";base64,")
            .ok_or("data URI is not base64")?;
        return unbase64(data);
    }
    let dir = base_dir.ok_or(format!("external URI {uri} and no folder"))?;
    let path = dir.join(percent_decode(uri));
    std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))
}

fn percent_decode(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn unbase64(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            _ => return Err(format!("bad base64 byte {c:#x}")),
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Ok(out)
}

fn decode(raw: &[u8], component: u32, normalized: bool) -> f32 {
    match (component, normalized) {
        (5120, false) => f32::from(raw[0] as i8),
        (5120, true) => (f32::from(raw[0] as i8) / 127.0).max(-1.0),
        (5121, false) => f32::from(raw[0]),
        (5121, true) => f32::from(raw[0]) / 255.0,
        (5122, false) => f32::from(i16::from_le_bytes([raw[0], raw[1]])),
        (5122, true) => (f32::from(i16::from_le_bytes([raw[0], raw[1]])) / 32767.0).max(-1.0),
        (5123, false) => f32::from(u16::from_le_bytes([raw[0], raw[1]])),
        (5123, true) => f32::from(u16::from_le_bytes([raw[0], raw[1]])) / 65535.0,
        (5125, _) => u32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]) as f32,
        _ => f32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]),
    }
}

fn component_size(component: u32) -> Result<usize, String> {
    Ok(match component {
        5120 | 5121 => 1,
        5122 | 5123 => 2,
        5125 | 5126 => 4,
        other => return Err(format!("component type {other}")),
    })
}

fn width(ty: &str) -> Result<usize, String> {
    Ok(match ty {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "VEC4" | "MAT2" => 4,
        "MAT3" => 9,
        "MAT4" => 16,
        other => return Err(format!("accessor type {other}")),
    })
}

/// A JSON number as a non-negative integer.
pub fn uint(value: &Value) -> Option<usize> {
    value.as_u64().and_then(|v| usize::try_from(v).ok())
}

/// A top-level array, or an empty slice when missing.
pub fn array<'a>(json: &'a Value, key: &str) -> &'a [Value] {
    json[key].as_array().map_or(&[], Vec::as_slice)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips_and_normalized_integers_follow_the_spec() {
        let data = b"rigport oracle \x00\xff";
        assert_eq!(unbase64(&crate::gltf::builder::base64(data)).unwrap(), data);
        assert_eq!(decode(&[0x81], 5120, true), -1.0);
        assert_eq!(decode(&[127], 5120, true), 1.0);
        assert_eq!(decode(&[255, 255], 5123, true), 1.0);
        assert_eq!(percent_decode("my%20file.bin"), "my file.bin");
    }
}
