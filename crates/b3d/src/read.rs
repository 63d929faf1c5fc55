//! Reading: the chunk tree walked with an explicit end per level; every length checked
//! against its parent's end and every record count against the bytes left and the budget.

use crate::file::{
    Anim, Bone, Brus, Brush, File, Key, Keys, Mesh, MeshChunk, Node, NodeChunk, RawChunk, Tag,
    Texs, Texture, TopChunk, Tris, Vrts, vertex_floats,
};
use crate::{Detail, Error, MAX_DEPTH};
use rigport_model_core::{Budget, ReadOptions, Report, codes};

struct Reader<'a> {
    bytes: &'a [u8],
    budget: Budget,
    report: Report,
    strict: bool,
}

/// A chunk header: tag, where the header starts, where the body starts and ends.
struct Header {
    tag: Tag,
    at: usize,
    body: usize,
    end: usize,
}

fn tag_name(tag: &Tag) -> String {
    String::from_utf8_lossy(tag).into_owned()
}

pub(crate) fn parse(bytes: &[u8], options: &ReadOptions) -> Result<(File, Report), Error> {
    if !bytes.starts_with(crate::MAGIC) {
        let n = bytes.len().min(4);
        return Err(Error::BadMagic {
            format: "a B3D",
            expected: "BB3D",
            found: String::from_utf8_lossy(&bytes[..n]).into_owned(),
        });
    }
    let mut r = Reader {
        bytes,
        budget: options.limits.budget(),
        report: Report::default(),
        strict: options.strict,
    };
    let top = r.header(0, bytes.len(), "the file")?;
    let version = r.i32(top.body, top.end, "BB3D version")?;
    let mut chunks = Vec::new();
    let mut pos = top.body + 4;
    while pos < top.end {
        let h = r.header(pos, top.end, "BB3D")?;
        chunks.push(match &h.tag {
            b"TEXS" => TopChunk::Texs(r.texs(&h)?),
            b"BRUS" => TopChunk::Brus(r.brus(&h)?),
            b"NODE" => TopChunk::Node(r.node(&h, 1)?),
            _ => TopChunk::Raw(r.raw(&h)?),
        });
        pos = h.end;
    }
    let trailing = bytes[top.end..].to_vec();
    if !trailing.is_empty() {
        r.warn(
            top.end,
            codes::DAMAGED_TAIL,
            format!(
                "{} bytes follow the BB3D chunk (kept as they are)",
                trailing.len()
            ),
        )?;
    }
    if version != 1 {
        r.report.info(
            codes::FLAGS,
            format!("BB3D version {version} (readers expect 1)"),
        );
    }
    Ok((
        File {
            version,
            chunks,
            trailing,
        },
        r.report,
    ))
}

impl<'a> Reader<'a> {
    fn warn(
        &mut self,
        offset: usize,
        code: rigport_model_core::Code,
        message: String,
    ) -> Result<(), Error> {
        if self.strict {
            return Err(Error::strict(offset as u64, message));
        }
        self.report.warn(code, format!("byte {offset}: {message}"));
        Ok(())
    }

    fn reserve(
        &mut self,
        at: usize,
        what: &'static str,
        count: usize,
        size: usize,
    ) -> Result<(), Error> {
        self.budget
            .reserve(what, count as u64, size as u64)
            .map_err(|source| Error::limit(at as u64, source))
    }

    /// The chunk header at `pos`, whose chunk must end by `parent_end`.
    fn header(&self, pos: usize, parent_end: usize, parent: &'static str) -> Result<Header, Error> {
        if parent_end - pos < 8 {
            return Err(Error::Truncated {
                offset: pos as u64,
                what: "a chunk header",
                needed: 8,
                available: (parent_end - pos) as u64,
            });
        }
        let tag: Tag = self.bytes[pos..pos + 4].try_into().expect("4 bytes");
        if !tag
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b' ' || *b == b'_')
        {
            let offset = pos as u64;
            return Err(Error::at(offset, Detail::BadTag { offset, tag }));
        }
        let length = i32::from_le_bytes(self.bytes[pos + 4..pos + 8].try_into().expect("4 bytes"));
        if length < 0 {
            let (offset, tag) = (pos as u64, tag_name(&tag));
            let detail = Detail::NegativeLength {
                offset,
                tag,
                length,
            };
            return Err(Error::at(offset, detail));
        }
        let end = pos as u64 + 8 + length as u64;
        if end > parent_end as u64 {
            let offset = pos as u64;
            let detail = Detail::ChunkPastEnd {
                offset,
                tag: tag_name(&tag),
                length,
                end,
                parent,
                parent_end: parent_end as u64,
            };
            return Err(Error::at(offset, detail));
        }
        Ok(Header {
            tag,
            at: pos,
            body: pos + 8,
            end: end as usize,
        })
    }

    fn need(&self, pos: usize, end: usize, n: usize, what: &'static str) -> Result<(), Error> {
        if end - pos < n {
            return Err(Error::Truncated {
                offset: pos as u64,
                what,
                needed: n as u64,
                available: (end - pos) as u64,
            });
        }
        Ok(())
    }

    fn i32(&self, pos: usize, end: usize, what: &'static str) -> Result<i32, Error> {
        self.need(pos, end, 4, what)?;
        Ok(i32_at(self.bytes, pos))
    }

    fn floats<const N: usize>(&self, pos: usize) -> [f32; N] {
        std::array::from_fn(|i| f32_at(self.bytes, pos + 4 * i))
    }

    /// The NUL-terminated string at `pos` (without its NUL), ending before `end`.
    fn string(&self, pos: usize, end: usize) -> Option<&'a [u8]> {
        let len = self.bytes[pos..end].iter().position(|&b| b == 0)?;
        Some(&self.bytes[pos..pos + len])
    }

    fn extra(&mut self, h: &Header, from: usize, what: &str) -> Result<Vec<u8>, Error> {
        if from < h.end {
            self.warn(
                from,
                codes::RAW_TAIL,
                format!(
                    "{} bytes after the last whole {what} of the {} chunk at byte {} (kept as they are)",
                    h.end - from,
                    tag_name(&h.tag),
                    h.at
                ),
            )?;
        }
        Ok(self.bytes[from..h.end].to_vec())
    }

    fn raw(&mut self, h: &Header) -> Result<RawChunk, Error> {
        self.reserve(h.at, "chunk bytes", h.end - h.body, 1)?;
        Ok(RawChunk {
            tag: h.tag,
            body: self.bytes[h.body..h.end].to_vec(),
        })
    }

    fn texs(&mut self, h: &Header) -> Result<Texs, Error> {
        let mut textures = Vec::new();
        let mut pos = h.body;
        while let Some(file) = self.string(pos, h.end) {
            let at = pos + file.len() + 1;
            if h.end - at < 28 {
                break;
            }
            self.reserve(
                pos,
                "textures",
                1,
                std::mem::size_of::<Texture>() + file.len(),
            )?;
            let f: [f32; 5] = self.floats(at + 8);
            textures.push(Texture {
                file: file.to_vec(),
                flags: i32_at(self.bytes, at),
                blend: i32_at(self.bytes, at + 4),
                position: [f[0], f[1]],
                scale: [f[2], f[3]],
                rotation: f[4],
            });
            pos = at + 28;
        }
        let extra = self.extra(h, pos, "texture")?;
        Ok(Texs { textures, extra })
    }

    fn brus(&mut self, h: &Header) -> Result<Brus, Error> {
        let n_texs = self.i32(h.body, h.end, "BRUS n_texs")?;
        let slots = usize::try_from(n_texs)
            .ok()
            .filter(|&n| n <= (h.end - h.body) / 4)
            .ok_or(Error::Invalid {
                offset: h.body as u64,
                what: "BRUS n_texs".into(),
                value: n_texs.into(),
            })?;
        let mut brushes = Vec::new();
        let mut pos = h.body + 4;
        while let Some(name) = self.string(pos, h.end) {
            let at = pos + name.len() + 1;
            if h.end - at < 28 + 4 * slots {
                break;
            }
            self.reserve(
                pos,
                "brushes",
                1,
                std::mem::size_of::<Brush>() + name.len() + 4 * slots,
            )?;
            let f: [f32; 5] = self.floats(at);
            brushes.push(Brush {
                name: name.to_vec(),
                color: [f[0], f[1], f[2], f[3]],
                shininess: f[4],
                blend: i32_at(self.bytes, at + 20),
                fx: i32_at(self.bytes, at + 24),
                textures: (0..slots)
                    .map(|s| i32_at(self.bytes, at + 28 + 4 * s))
                    .collect(),
            });
            pos = at + 28 + 4 * slots;
        }
        let extra = self.extra(h, pos, "brush")?;
        Ok(Brus {
            n_texs,
            brushes,
            extra,
        })
    }

    fn node(&mut self, h: &Header, depth: usize) -> Result<Node, Error> {
        if depth > MAX_DEPTH {
            let offset = h.at as u64;
            return Err(Error::at(
                offset,
                Detail::TooDeep {
                    offset,
                    max: MAX_DEPTH,
                },
            ));
        }
        let name = self
            .string(h.body, h.end)
            .ok_or_else(|| {
                let offset = h.body as u64;
                Error::at(
                    offset,
                    Detail::Unterminated {
                        offset,
                        what: "NODE name",
                    },
                )
            })?
            .to_vec();
        let at = h.body + name.len() + 1;
        self.need(at, h.end, 40, "NODE position, scale and rotation")?;
        self.reserve(h.at, "nodes", 1, std::mem::size_of::<Node>() + name.len())?;
        let f: [f32; 10] = self.floats(at);
        let mut children = Vec::new();
        let mut pos = at + 40;
        while pos < h.end {
            let c = self.header(pos, h.end, "NODE")?;
            self.reserve(c.at, "chunks", 1, std::mem::size_of::<NodeChunk>())?;
            children.push(match &c.tag {
                b"MESH" => NodeChunk::Mesh(self.mesh(&c)?),
                b"BONE" => NodeChunk::Bone(self.bone(&c)?),
                b"KEYS" => NodeChunk::Keys(self.keys(&c)?),
                b"ANIM" => NodeChunk::Anim(self.anim(&c)?),
                b"NODE" => NodeChunk::Node(self.node(&c, depth + 1)?),
                _ => NodeChunk::Raw(self.raw(&c)?),
            });
            pos = c.end;
        }
        Ok(Node {
            name,
            position: [f[0], f[1], f[2]],
            scale: [f[3], f[4], f[5]],
            rotation: [f[6], f[7], f[8], f[9]],
            children,
        })
    }

    fn mesh(&mut self, h: &Header) -> Result<Mesh, Error> {
        let brush = self.i32(h.body, h.end, "MESH brush")?;
        let mut chunks = Vec::new();
        let mut pos = h.body + 4;
        while pos < h.end {
            let c = self.header(pos, h.end, "MESH")?;
            self.reserve(c.at, "chunks", 1, std::mem::size_of::<MeshChunk>())?;
            chunks.push(match &c.tag {
                b"VRTS" => MeshChunk::Vrts(self.vrts(&c)?),
                b"TRIS" => MeshChunk::Tris(self.tris(&c)?),
                _ => MeshChunk::Raw(self.raw(&c)?),
            });
            pos = c.end;
        }
        Ok(Mesh { brush, chunks })
    }

    fn vrts(&mut self, h: &Header) -> Result<Vrts, Error> {
        self.need(
            h.body,
            h.end,
            12,
            "VRTS flags and texture coordinate layout",
        )?;
        let [flags, sets, set_size] = std::array::from_fn(|i| i32_at(self.bytes, h.body + 4 * i));
        let Some(stride) = vertex_floats(flags, sets, set_size) else {
            let (what, value, offset) = if (0..=8).contains(&sets) {
                ("VRTS tex_coord_set_size (0 to 4)", set_size, h.body + 8)
            } else {
                ("VRTS tex_coord_sets (0 to 8)", sets, h.body + 4)
            };
            return Err(Error::Invalid {
                offset: offset as u64,
                what: what.into(),
                value: value.into(),
            });
        };
        let start = h.body + 12;
        let count = (h.end - start) / (4 * stride);
        self.reserve(h.at, "vertex floats", count * stride, 4)?;
        let end = start + count * stride * 4;
        let data = self.bytes[start..end]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
            .collect();
        let extra = self.extra(h, end, "vertex")?;
        Ok(Vrts {
            flags,
            sets,
            set_size,
            data,
            extra,
        })
    }

    fn tris(&mut self, h: &Header) -> Result<Tris, Error> {
        let brush = self.i32(h.body, h.end, "TRIS brush")?;
        let start = h.body + 4;
        let count = (h.end - start) / 12;
        self.reserve(h.at, "triangles", count, 12)?;
        let end = start + count * 12;
        let triangles = self.bytes[start..end]
            .chunks_exact(12)
            .map(|t| std::array::from_fn(|i| i32_at(t, 4 * i)))
            .collect();
        let extra = self.extra(h, end, "triangle")?;
        Ok(Tris {
            brush,
            triangles,
            extra,
        })
    }

    fn bone(&mut self, h: &Header) -> Result<Bone, Error> {
        let count = (h.end - h.body) / 8;
        self.reserve(h.at, "bone weights", count, 8)?;
        let end = h.body + count * 8;
        let weights = self.bytes[h.body..end]
            .chunks_exact(8)
            .map(|w| (i32_at(w, 0), f32_at(w, 4)))
            .collect();
        let extra = self.extra(h, end, "weight")?;
        Ok(Bone { weights, extra })
    }

    fn keys(&mut self, h: &Header) -> Result<Keys, Error> {
        let flags = self.i32(h.body, h.end, "KEYS flags")?;
        let size = Keys::key_size(flags);
        let start = h.body + 4;
        let count = (h.end - start) / size;
        self.reserve(h.at, "keys", count, std::mem::size_of::<Key>())?;
        let end = start + count * size;
        let keys = self.bytes[start..end]
            .chunks_exact(size)
            .map(|k| {
                let mut key = Key {
                    frame: i32_at(k, 0),
                    ..Key::default()
                };
                let mut at = 4;
                if flags & 1 != 0 {
                    key.position = std::array::from_fn(|i| f32_at(k, at + 4 * i));
                    at += 12;
                }
                if flags & 2 != 0 {
                    key.scale = std::array::from_fn(|i| f32_at(k, at + 4 * i));
                    at += 12;
                }
                if flags & 4 != 0 {
                    key.rotation = std::array::from_fn(|i| f32_at(k, at + 4 * i));
                }
                key
            })
            .collect();
        let extra = self.extra(h, end, "key")?;
        Ok(Keys { flags, keys, extra })
    }

    fn anim(&mut self, h: &Header) -> Result<Anim, Error> {
        self.need(h.body, h.end, 12, "ANIM flags, frames and fps")?;
        let extra = self.extra(h, h.body + 12, "field")?;
        Ok(Anim {
            flags: i32_at(self.bytes, h.body),
            frames: i32_at(self.bytes, h.body + 4),
            fps: f32_at(self.bytes, h.body + 8),
            extra,
        })
    }
}

fn i32_at(bytes: &[u8], pos: usize) -> i32 {
    i32::from_le_bytes(bytes[pos..pos + 4].try_into().expect("4 bytes"))
}

fn f32_at(bytes: &[u8], pos: usize) -> f32 {
    f32::from_le_bytes(bytes[pos..pos + 4].try_into().expect("4 bytes"))
}
