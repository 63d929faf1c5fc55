//! glTF 2.0 through the shared [`Codec`] trait: [`GLB`] reads and writes `.glb`, [`GLTF`]
//! `.gltf` JSON with its `.bin` (and images) beside it. Both read either flavour.
//!
//! [`Codec::read`] gives the model alone: images embedded in the file are not part of a
//! [`Model`] (materials keep their names), which the report says. [`Codec::open`] and
//! [`Codec::read_model`] give them too, as PNG files named as the materials name them.
//! [`Codec::write_with`] embeds the texture images it finds among the files it is given
//! (unless [`WriteOptions::keep_texture_uris`]); [`Codec::write`] keeps every texture a URI.
//!
//! ```
//! use rigport_gltf::codec::GLB;
//! use rigport_model_core::codec::{Codec, WriteOptions};
//! use rigport_model_core::{Mesh, Model, ReadOptions, Vertex, glam::Vec3};
//!
//! let mut mesh = Mesh::new("tri");
//! for position in [Vec3::ZERO, Vec3::X, Vec3::Y] {
//!     mesh.vertices.push(Vertex { position, normal: Vec3::Z, ..Vertex::default() });
//! }
//! mesh.triangles.push([0, 1, 2]);
//! let model = Model { meshes: vec![mesh], ..Model::default() };
//! let written = GLB.write(&model, "tri.glb", &WriteOptions::default()).unwrap();
//! let (back, _) = GLB.read(&written.files[0].bytes, &ReadOptions::default()).unwrap();
//! assert_eq!(back.triangle_count(), 1);
//! ```

use crate::export::{
    BesideImages, ExportOptions, bin_file_name_for, to_glb, to_glb_with_images, to_gltf,
    to_gltf_with_images,
};
use crate::import::{GltfFile, ImportError, ImportOptions, to_model};
use rigport_model_core::codec::{
    Codec, Companions, FormatError, FormatInfo, Location, ModelOptions, Modelled, NoCompanions,
    Opened, Opening, OutputFile, WriteOptions, Written,
};
use rigport_model_core::{FileSummary, Limits, Model, ReadOptions, Report, UpAxis, codes};
use std::any::Any;

/// The codec of one glTF flavour: [`GLB`] or [`GLTF`]. Both read either flavour; they
/// differ in what they sniff and write.
#[derive(Clone, Copy, Debug)]
pub struct GltfCodec {
    info: &'static FormatInfo,
}

/// The `.glb` codec.
pub const GLB: GltfCodec = GltfCodec { info: &GLB_INFO };
/// The `.gltf` codec.
pub const GLTF: GltfCodec = GltfCodec { info: &GLTF_INFO };

static GLB_INFO: FormatInfo = FormatInfo {
    key: "glb",
    family: "glTF",
    description: "glTF 2.0 binary (`.glb`)",
    extensions: &["glb"],
    up: UpAxis::Y,
    writes: true,
    reads: true,
    one_timeline: false,
    animation_only: false,
    morph_targets: true,
};

static GLTF_INFO: FormatInfo = FormatInfo {
    key: "gltf",
    family: "glTF",
    description: "glTF 2.0 JSON with a `.bin` beside it (`.gltf`)",
    extensions: &["gltf"],
    up: UpAxis::Y,
    writes: true,
    reads: true,
    one_timeline: false,
    animation_only: false,
    morph_targets: true,
};

/// The flavour `bytes` are, whatever codec reads them.
fn info_of(bytes: &[u8]) -> &'static FormatInfo {
    if bytes.starts_with(b"glTF") {
        &GLB_INFO
    } else {
        &GLTF_INFO
    }
}

/// A read error, about `bytes`: where it is (the JSON text's own line and column, inside a
/// `.glb` counted from the start of its JSON chunk; else a byte of the container), rendered
/// as the text formats render theirs, and naming the external file that could not be read.
fn import_error(error: ImportError, bytes: &[u8]) -> FormatError {
    let location = match error {
        ImportError::Json {
            offset, json_start, ..
        } => {
            let start = usize::try_from(json_start).map_or(bytes.len(), |s| s.min(bytes.len()));
            let at = usize::try_from(offset)
                .unwrap_or(usize::MAX)
                .saturating_sub(start);
            Location::in_text(&bytes[start..], at)
        }
        ref other => Location::at_offset(other.offset()),
    };
    let rendered = error.render(bytes);
    let file = missing_file(&error);
    let mut error = FormatError::wrap(info_of(bytes).key, location, error).with_rendered(rendered);
    error.file = file;
    error
}

/// The external file an import error says could not be read.
fn missing_file(error: &ImportError) -> Option<std::path::PathBuf> {
    match error {
        ImportError::MissingFile { path, .. } => Some(path.clone()),
        _ => None,
    }
}

/// The import of a file read (its bytes are no longer at hand: errors keep their offset).
fn import(
    file: &GltfFile,
    limits: Limits,
    fps: f32,
) -> Result<(crate::import::Imported, Report), FormatError> {
    let options = ImportOptions {
        limits,
        fps,
        ..ImportOptions::default()
    };
    to_model(file, &options).map_err(|error| {
        let info = if file.is_binary() {
            &GLB_INFO
        } else {
            &GLTF_INFO
        };
        let file = missing_file(&error);
        let location = Location::at_offset(error.offset());
        let mut error = FormatError::wrap_plain(info.key, location, error);
        error.file = file;
        error
    })
}

/// An image the file holds, as a file to write beside an output or embed again.
impl From<crate::import::ImportedImage> for OutputFile {
    fn from(image: crate::import::ImportedImage) -> Self {
        OutputFile {
            name: image.file_name,
            bytes: image.png,
        }
    }
}

/// A glTF file read, with the limits its import keeps to.
#[derive(Debug)]
struct OpenedGltf {
    file: GltfFile,
    limits: Limits,
}

impl Opened for OpenedGltf {
    fn info(&self) -> &'static FormatInfo {
        if self.file.is_binary() {
            &GLB_INFO
        } else {
            &GLTF_INFO
        }
    }

    fn summary(&self) -> FileSummary {
        self.file.summary()
    }

    fn to_vec(&self) -> Vec<u8> {
        self.file.to_vec()
    }

    // A glTF reads lazily: accessors and indices are checked by the import, so the copy is
    // imported once (and the model dropped) rather than copied unchecked. It rebuilds vertex
    // tangents glTF forbids, so that every file written validates; when they cannot be
    // rewritten in place (`None`) the copy goes through the model.
    fn copy(&self) -> Result<(Option<Vec<u8>>, Report), FormatError> {
        import(&self.file, self.limits, ModelOptions::default().fps)?;
        Ok(match self.file.valid_copy() {
            Some((bytes, report)) => (Some(bytes), report),
            None => {
                let mut report = Report::default();
                report.warn(
                    codes::TANGENTS_REPAIRED,
                    "vertex tangents glTF forbids cannot be rebuilt in place (sparse, not f32 VEC4, or outside the BIN chunk); converted through the model, which does not carry tangents",
                );
                (None, report)
            }
        })
    }

    fn to_model(&self, options: &ModelOptions) -> Result<Modelled, FormatError> {
        let (imported, report) = import(&self.file, self.limits, options.fps)?;
        Ok(Modelled {
            model: imported.model,
            images: imported.images.into_iter().map(OutputFile::from).collect(),
            report,
        })
    }

    fn as_any(&self) -> &dyn Any {
        &self.file
    }
}

impl GltfCodec {
    fn open_file(
        bytes: &[u8],
        options: &ReadOptions,
        companions: &dyn Companions,
    ) -> Result<(OpenedGltf, Report), FormatError> {
        let (file, report) = GltfFile::from_slice_with(bytes, options, companions.folder())
            .map_err(|e| import_error(e, bytes))?;
        let limits = options.limits;
        Ok((OpenedGltf { file, limits }, report))
    }

    /// Writes `model` with `images` (`None`: every texture stays a URI).
    fn write_images(
        &self,
        model: &Model,
        main: &str,
        options: &WriteOptions,
        images: Option<&dyn Companions>,
    ) -> Result<Written, FormatError> {
        let export = ExportOptions::default().with_embed_textures(!options.keep_texture_uris);
        let source = images.map(BesideImages::over);
        let error = |e: crate::Error| FormatError::wrap_plain(self.info.key, Location::Unknown, e);
        if self.info.key == GLB_INFO.key {
            let (bytes, report) = match &source {
                Some(source) => to_glb_with_images(model, &export, source),
                None => to_glb(model, &export),
            }
            .map_err(error)?;
            let mut written = Written::single(main, bytes);
            written.report = report;
            return Ok(written);
        }
        let bin_name = bin_file_name_for(std::path::Path::new(main));
        let export = export.with_pretty(true);
        let (separate, report) = match &source {
            Some(source) => to_gltf_with_images(model, &bin_name, &export, source),
            None => to_gltf(model, &bin_name, &export),
        }
        .map_err(error)?;
        let mut written = Written::single(main, separate.json.into_bytes());
        if !separate.bin.is_empty() {
            written.files.push(OutputFile {
                name: bin_name,
                bytes: separate.bin,
            });
        }
        // Texture images the .gltf names, written beside it like the .bin.
        for image in separate.images {
            written.files.push(OutputFile {
                name: image.name,
                bytes: image.bytes,
            });
        }
        written.report = report;
        Ok(written)
    }
}

impl Codec for GltfCodec {
    fn info(&self) -> &'static FormatInfo {
        self.info
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        crate::sniff(bytes) && info_of(bytes).key == self.info.key
    }

    fn read(&self, bytes: &[u8], options: &ReadOptions) -> Result<(Model, Report), FormatError> {
        self.read_with(bytes, options, &NoCompanions)
    }

    fn read_with(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
        companions: &dyn Companions,
    ) -> Result<(Model, Report), FormatError> {
        let modelled = self.read_model(bytes, options, companions, &ModelOptions::default())?;
        let mut report = modelled.report;
        if !modelled.images.is_empty() {
            report.loss(
                codes::IMAGES_NOT_CARRIED,
                format!(
                    "{} images held in the file are not part of the model (materials keep their names)",
                    modelled.images.len()
                ),
            );
        }
        Ok((modelled.model, report))
    }

    // A `.glb` is whole: the copy is the bytes read, once they read. A `.gltf` names files
    // beside it, which a copy elsewhere would lose: it has no faithful copy.
    fn copy(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
    ) -> Option<Result<(Vec<u8>, Report), FormatError>> {
        (self.info.key == GLB_INFO.key).then(|| {
            Self::open_file(bytes, options, &NoCompanions)
                .map(|(file, report)| (file.to_vec(), report))
        })
    }

    fn open(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
        companions: &dyn Companions,
    ) -> Option<Opening> {
        Some(
            Self::open_file(bytes, options, companions)
                .map(|(file, report)| (Box::new(file) as Box<dyn Opened>, report)),
        )
    }

    fn write(
        &self,
        model: &Model,
        main: &str,
        options: &WriteOptions,
    ) -> Result<Written, FormatError> {
        self.write_images(model, main, options, None)
    }

    fn write_with(
        &self,
        model: &Model,
        main: &str,
        options: &WriteOptions,
        files: &dyn Companions,
    ) -> Result<Written, FormatError> {
        self.write_images(model, main, options, Some(files))
    }
}
