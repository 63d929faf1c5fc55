//! The faithful layer: a `.glb` or `.gltf` as read, with every buffer and image resolved.

use super::ImportError;
use super::glb::{GLB_MAGIC, parse_glb};
use super::uri::{self, Target};
use gltf_json as json;
use rigport_model_core::{Budget, FileSummary, ReadOptions, Report, codes};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Extensions that compress geometry: the buffers hold no plain accessors.
const COMPRESSION: &[&str] = &["KHR_draco_mesh_compression", "EXT_meshopt_compression"];
/// Required extensions the importer can honour or drop with a loss.
const TOLERATED: &[&str] = &[
    "KHR_mesh_quantization",
    "KHR_texture_transform",
    "KHR_materials_unlit",
    "KHR_materials_emissive_strength",
];

/// Where the bytes of a buffer or an image are.
#[derive(Clone, Debug)]
enum Blob {
    /// A range of the input (the GLB `BIN` chunk).
    Input(Range<usize>),
    /// A slice of a resolved buffer (an image in a buffer view).
    InBuffer(usize, Range<usize>),
    /// Decoded from a `data:` URI or read from a file beside the source.
    Owned(Vec<u8>),
    /// An external image that could not be read (a warning, not an error: the geometry
    /// does not need it); the relative path it names.
    Missing(String),
}

/// The faithful layer: the file as read — the original bytes, the parsed glTF JSON, and
/// every buffer and image resolved (GLB `BIN` chunk, `data:` URI, or external file beside
/// the source).
#[derive(Clone, Debug)]
pub struct GltfFile {
    bytes: Vec<u8>,
    binary: bool,
    json_range: Range<usize>,
    root: json::Root,
    buffers: Vec<Blob>,
    images: Vec<Blob>,
}

impl GltfFile {
    /// Reads a `.glb` or `.gltf` from memory. `base_dir` is the folder external URIs are
    /// resolved against (`None`: an external URI is an error naming it).
    ///
    /// Checks the GLB container (header, chunk lengths and types, alignment), parses the
    /// JSON, refuses compressed geometry and unknown required extensions, and loads every
    /// buffer and image, checking each against its declared `byteLength`. Buffer views are
    /// checked against their buffers here; accessors when they are read.
    pub fn from_slice_with(
        bytes: &[u8],
        options: &ReadOptions,
        base_dir: Option<&Path>,
    ) -> Result<(GltfFile, Report), ImportError> {
        let mut report = Report::default();
        let mut budget = options.limits.budget();
        let warn = |report: &mut Report, code: rigport_model_core::Code, message: String| {
            if options.strict {
                Err(ImportError::Strict(message))
            } else {
                report.warn(code, message);
                Ok(())
            }
        };
        let binary = bytes.starts_with(GLB_MAGIC);
        let (json_range, bin) = if binary {
            let (json_range, bin, problems) = parse_glb(bytes)?;
            for problem in problems {
                warn(&mut report, codes::GLB_LAYOUT, problem)?;
            }
            (json_range, bin)
        } else {
            let start = usize::from(bytes.starts_with(b"\xEF\xBB\xBF")) * 3;
            if start > 0 {
                warn(
                    &mut report,
                    codes::JSON_BOM,
                    "the JSON starts with a byte order mark, which glTF forbids; skipped".into(),
                )?;
            }
            let first = bytes[start..].iter().find(|b| !b.is_ascii_whitespace());
            if first != Some(&b'{') {
                return Err(ImportError::NotGltf(match first {
                    Some(b) => format!(
                        "neither a GLB container (magic `glTF`) nor JSON text (it starts with byte {b:#04x})"
                    ),
                    None => "the input is empty".to_string(),
                }));
            }
            (start..bytes.len(), None)
        };
        let json_text = &bytes[json_range.clone()];
        let root =
            parse_root(json_text).map_err(|e| json_error(&e, json_text, json_range.start))?;
        check_extensions(&root, &mut report)?;

        let mut buffers = Vec::with_capacity(root.buffers.len().min(json_text.len()));
        for (i, buffer) in root.buffers.iter().enumerate() {
            let what = format!("buffer {i}");
            let declared = buffer.byte_length.0;
            let blob = match (&buffer.uri, i, &bin) {
                (None, 0, Some(bin)) => Blob::Input(bin.clone()),
                (None, _, _) => {
                    return Err(ImportError::invalid(
                        what,
                        if binary {
                            "has no URI and is not the first buffer (only buffer 0 can be the GLB BIN chunk)"
                        } else {
                            "has no URI, which only a .glb's first buffer may omit"
                        },
                    ));
                }
                (Some(uri), _, _) => Blob::Owned(load_uri(&what, uri, base_dir, &mut budget)?),
            };
            let actual = match &blob {
                Blob::Input(range) => range.len() as u64,
                Blob::Owned(data) => data.len() as u64,
                Blob::InBuffer(_, range) => range.len() as u64,
                Blob::Missing(_) => 0,
            };
            if actual < declared {
                return Err(ImportError::range(
                    what,
                    format!("declares {declared} bytes but holds {actual}"),
                ));
            }
            // The BIN chunk may be padded by up to 3 bytes; anything more is unexpected.
            if actual > declared + 3 {
                warn(
                    &mut report,
                    codes::BUFFER_LENGTH,
                    format!(
                        "{what} holds {actual} bytes, {} more than its byteLength {declared}; the rest is ignored",
                        actual - declared
                    ),
                )?;
            }
            buffers.push(blob);
        }
        let mut file = GltfFile {
            bytes: bytes.to_vec(),
            binary,
            json_range,
            root,
            buffers,
            images: Vec::new(),
        };
        file.check_views()?;
        file.images = file.load_images(base_dir, &mut budget)?;
        for (i, blob) in file.images.iter().enumerate() {
            if let Blob::Missing(path) = blob {
                warn(
                    &mut report,
                    codes::IMAGE_UNDECODABLE,
                    format!(
                        "image {i} `{path}` cannot be read{}; materials keep its name as their texture",
                        base_dir.map_or_else(
                            || " (no folder to look in)".to_string(),
                            |d| format!(" beside {}", d.display())
                        )
                    ),
                )?;
            }
        }
        Ok((file, report))
    }

    /// Exactly the bytes read (a same-format copy is byte-identical).
    pub fn to_vec(&self) -> Vec<u8> {
        self.bytes.clone()
    }

    /// Whether the input was a `.glb` container (else glTF JSON).
    pub fn is_binary(&self) -> bool {
        self.binary
    }

    /// The parsed glTF JSON document.
    pub fn root(&self) -> &json::Root {
        &self.root
    }

    /// The JSON text as stored.
    pub fn json_text(&self) -> &[u8] {
        &self.bytes[self.json_range.clone()]
    }

    /// The bytes of buffer `index`, cut to its declared `byteLength`.
    pub fn buffer(&self, index: usize) -> Option<&[u8]> {
        let blob = self.buffers.get(index)?;
        let data = self.blob(blob);
        let declared = self.root.buffers.get(index)?.byte_length.0;
        Some(
            &data[..data
                .len()
                .min(usize::try_from(declared).unwrap_or(usize::MAX))],
        )
    }

    /// The encoded bytes (PNG, JPEG…) of image `index`.
    pub fn image(&self, index: usize) -> Option<&[u8]> {
        self.images.get(index).map(|blob| self.blob(blob))
    }

    /// Where buffer `index` starts in the input, when it is the GLB `BIN` chunk.
    pub(crate) fn bin_chunk_offset(&self, index: usize) -> Option<usize> {
        match self.buffers.get(index)? {
            Blob::Input(range) => Some(range.start),
            _ => None,
        }
    }

    /// The relative path of an external image that could not be read, if image `index` is one.
    pub(crate) fn missing_image(&self, index: usize) -> Option<&str> {
        match self.images.get(index)? {
            Blob::Missing(path) => Some(path),
            _ => None,
        }
    }

    fn blob<'a>(&'a self, blob: &'a Blob) -> &'a [u8] {
        match blob {
            Blob::Input(range) => &self.bytes[range.clone()],
            Blob::Owned(data) => data,
            Blob::Missing(_) => &[],
            Blob::InBuffer(buffer, range) => self
                .buffers
                .get(*buffer)
                .map(|b| self.blob(b))
                .and_then(|b| b.get(range.clone()))
                .unwrap_or_default(),
        }
    }

    /// The bytes of buffer view `index`, checked against its buffer when the file was read.
    pub(crate) fn view(&self, index: usize) -> Result<(&[u8], Option<usize>), ImportError> {
        let view = self.root.buffer_views.get(index).ok_or_else(|| {
            ImportError::index("buffer view", index, self.root.buffer_views.len())
        })?;
        let range = view_range(view);
        let buffer = self.buffer(view.buffer.value()).unwrap_or_default();
        let data = buffer.get(range).ok_or_else(|| {
            ImportError::range(format!("buffer view {index}"), "outside its buffer")
        })?;
        Ok((data, view.byte_stride.map(|s| s.0)))
    }

    /// Every buffer view inside its buffer, with a sane stride.
    fn check_views(&self) -> Result<(), ImportError> {
        for (i, view) in self.root.buffer_views.iter().enumerate() {
            let what = format!("buffer view {i}");
            let buffer = view.buffer.value();
            let Some(data) = self.buffer(buffer) else {
                return Err(ImportError::index(
                    format!("{what} buffer"),
                    buffer,
                    self.buffers.len(),
                ));
            };
            let offset = view.byte_offset.map_or(0, |o| o.0);
            let end = offset.checked_add(view.byte_length.0);
            if end.is_none_or(|end| end > data.len() as u64) {
                return Err(ImportError::range(
                    what,
                    format!(
                        "bytes {offset}..{} are outside buffer {buffer} of {} bytes",
                        end.map_or_else(|| "overflow".to_string(), |e| e.to_string()),
                        data.len()
                    ),
                ));
            }
            if let Some(stride) = view.byte_stride {
                if !(4..=252).contains(&stride.0) || stride.0 % 4 != 0 {
                    return Err(ImportError::invalid(
                        what,
                        format!("byteStride {} is not a multiple of 4 in 4..=252", stride.0),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Resolves every image: a buffer view, a `data:` URI or a file beside the source.
    fn load_images(
        &self,
        base_dir: Option<&Path>,
        budget: &mut Budget,
    ) -> Result<Vec<Blob>, ImportError> {
        let mut images = Vec::with_capacity(self.root.images.len());
        for (i, image) in self.root.images.iter().enumerate() {
            let what = format!("image {i}");
            let blob = match (&image.buffer_view, &image.uri) {
                (Some(view), _) => {
                    let index = view.value();
                    let view = self.root.buffer_views.get(index).ok_or_else(|| {
                        ImportError::index(
                            format!("{what} bufferView"),
                            index,
                            self.root.buffer_views.len(),
                        )
                    })?;
                    Blob::InBuffer(view.buffer.value(), view_range(view))
                }
                (None, Some(uri)) => match load_uri(&what, uri, base_dir, budget) {
                    Ok(data) => Blob::Owned(data),
                    Err(
                        ImportError::MissingFile { .. } | ImportError::ExternalWithoutBase { .. },
                    ) => match uri::parse(uri) {
                        Ok(Target::File(path)) => Blob::Missing(path),
                        _ => Blob::Missing(uri.clone()),
                    },
                    Err(other) => return Err(other),
                },
                (None, None) => {
                    return Err(ImportError::invalid(
                        what,
                        "has neither a bufferView nor a URI",
                    ));
                }
            };
            images.push(blob);
        }
        Ok(images)
    }

    /// Counts for `rigport info`.
    pub fn summary(&self) -> FileSummary {
        let root = &self.root;
        let mut triangles = 0u64;
        let mut vertices = 0u64;
        for mesh in &root.meshes {
            for primitive in &mesh.primitives {
                let count = |index: Option<json::Index<json::Accessor>>| {
                    index
                        .and_then(|i| root.accessors.get(i.value()))
                        .map_or(0, |a| a.count.0)
                };
                let position = primitive
                    .attributes
                    .get(&json::validation::Checked::Valid(
                        json::mesh::Semantic::Positions,
                    ))
                    .copied();
                let corners = match primitive.indices {
                    Some(_) => count(primitive.indices),
                    None => count(position),
                };
                vertices += count(position);
                use json::mesh::Mode;
                triangles += match primitive.mode {
                    json::validation::Checked::Valid(Mode::Triangles) => corners / 3,
                    json::validation::Checked::Valid(Mode::TriangleStrip | Mode::TriangleFan) => {
                        corners.saturating_sub(2)
                    }
                    _ => 0,
                };
            }
        }
        let mut joints: Vec<usize> = root
            .skins
            .iter()
            .flat_map(|s| s.joints.iter().map(|j| j.value()))
            .collect();
        joints.sort_unstable();
        joints.dedup();
        let mut details = vec![
            (
                "container".to_string(),
                if self.binary { "glb" } else { "gltf" }.to_string(),
            ),
            (
                "generator".to_string(),
                root.asset.generator.clone().unwrap_or_default(),
            ),
            ("version".to_string(), root.asset.version.clone()),
            ("nodes".to_string(), root.nodes.len().to_string()),
            ("skins".to_string(), root.skins.len().to_string()),
            ("buffers".to_string(), root.buffers.len().to_string()),
            ("images".to_string(), root.images.len().to_string()),
        ];
        if !root.extensions_used.is_empty() {
            details.push(("extensions".to_string(), root.extensions_used.join(", ")));
        }
        FileSummary {
            format: if self.binary { "glb" } else { "gltf" },
            meshes: root.meshes.len() as u64,
            vertices,
            triangles,
            materials: root.materials.len() as u64,
            joints: joints.len() as u64,
            animations: root.animations.len() as u64,
            frames: 0,
            warnings: Vec::new(),
            details,
            morph_targets: Vec::new(),
            weight_tracks: Vec::new(),
        }
    }
}

/// The byte range of a buffer view in its buffer (saturating: checked by `check_views`).
fn view_range(view: &json::buffer::View) -> Range<usize> {
    let start = usize::try_from(view.byte_offset.map_or(0, |o| o.0)).unwrap_or(usize::MAX);
    let len = usize::try_from(view.byte_length.0).unwrap_or(usize::MAX);
    start..start.saturating_add(len)
}

/// Parses the JSON as a glTF root. gltf-json insists on a few members the glTF schema makes
/// optional (`scene.nodes`: Blender 3.4 exports an empty scene without it); when the typed
/// parse fails on content rather than syntax, those members are filled with their defaults
/// and the parse tried once more. The first error is the one reported, so line:column
/// still points into the text the user has.
fn parse_root(text: &[u8]) -> Result<json::Root, json::Error> {
    match json::Root::from_slice(text) {
        Err(e) if e.is_data() => with_optional_members_filled(text).ok_or(e),
        parsed => parsed,
    }
}

/// The root parsed after giving every scene without `nodes` an empty list, or `None` when
/// no scene lacked it or the parse still fails.
fn with_optional_members_filled(text: &[u8]) -> Option<json::Root> {
    let mut value: json::Value = json::deserialize::from_slice(text).ok()?;
    let scenes = value.get_mut("scenes")?.as_array_mut()?;
    let mut filled = false;
    for scene in scenes.iter_mut().filter_map(json::Value::as_object_mut) {
        if !scene.contains_key("nodes") {
            scene.insert("nodes".into(), json::Value::Array(Vec::new()));
            filled = true;
        }
    }
    if !filled {
        return None;
    }
    json::deserialize::from_value(value).ok()
}

fn json_error(error: &json::Error, text: &[u8], json_start: usize) -> ImportError {
    let (line, column) = (error.line(), error.column());
    let mut offset = 0usize;
    if line > 0 {
        let mut lines_left = line - 1;
        for (i, b) in text.iter().enumerate() {
            if lines_left == 0 {
                break;
            }
            if *b == b'\n' {
                lines_left -= 1;
                offset = i + 1;
            }
        }
        offset = (offset + column.saturating_sub(1)).min(text.len());
    }
    // serde_json appends " at line L column C"; the position is shown separately.
    let message = error.to_string();
    let message = message
        .rsplit_once(" at line ")
        .map_or(message.as_str(), |(m, _)| m)
        .to_string();
    ImportError::Json {
        offset: (json_start + offset) as u64,
        json_start: json_start as u64,
        line: line.max(1),
        column: column.max(1),
        message,
    }
}

/// Refuses compressed geometry and required extensions that cannot be honoured.
fn check_extensions(root: &json::Root, report: &mut Report) -> Result<(), ImportError> {
    for extension in &root.extensions_required {
        if COMPRESSION.contains(&extension.as_str()) {
            return Err(ImportError::Compressed {
                extension: extension.clone(),
            });
        }
        if !TOLERATED.contains(&extension.as_str()) {
            return Err(ImportError::UnsupportedExtension {
                extension: extension.clone(),
            });
        }
    }
    let ignored: Vec<&str> = root
        .extensions_used
        .iter()
        .map(String::as_str)
        .filter(|e| *e != "KHR_mesh_quantization")
        .collect();
    if !ignored.is_empty() {
        report.loss(
            codes::MATERIAL_PROPERTIES,
            format!("glTF extensions not carried: {}", ignored.join(", ")),
        );
    }
    Ok(())
}

/// The bytes a buffer or image URI names.
fn load_uri(
    what: &str,
    uri: &str,
    base_dir: Option<&Path>,
    budget: &mut Budget,
) -> Result<Vec<u8>, ImportError> {
    let short = || rigport_model_core::diagnostic::excerpt(uri.as_bytes(), 60);
    let bad = |message: String| ImportError::BadUri {
        what: what.to_string(),
        uri: short(),
        message,
    };
    match uri::parse(uri).map_err(bad)? {
        Target::Data {
            payload, base64, ..
        } => {
            budget.reserve("data: URI", payload.len() as u64 / 4 * 3, 1)?;
            if base64 {
                uri::base64_decode(payload).map_err(bad)
            } else {
                Ok(payload.as_bytes().to_vec())
            }
        }
        Target::File(relative) => {
            let Some(base) = base_dir else {
                return Err(ImportError::ExternalWithoutBase { uri: short() });
            };
            let path: PathBuf = base.join(&relative);
            let missing = |message: String| ImportError::MissingFile {
                uri: short(),
                path: path.clone(),
                message,
            };
            let size = std::fs::metadata(&path)
                .map_err(|e| missing(e.to_string()))?
                .len();
            budget.reserve("external file", size, 1)?;
            std::fs::read(&path).map_err(|e| missing(e.to_string()))
        }
    }
}
