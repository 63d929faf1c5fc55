//! glTF 2.0 through the shared [`Codec`] trait: [`GLB`] reads and writes `.glb`, [`GLTF`]
//! `.gltf` JSON with its `.bin` (and images) beside it. Both read either flavour.
//!
//! A codec read gives the model alone: images embedded in the file are not part of a
//! [`Model`] (materials keep their names), which the report says. [`import`](crate::import)
//! gives them too.
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

use crate::export::{ExportOptions, to_glb, to_gltf};
use crate::import::{GltfFile, ImportError, ImportOptions, to_model};
use rigport_model_core::codec::{
    Codec, Companions, FormatError, FormatInfo, Location, NoCompanions, OutputFile, WriteOptions,
    Written, stem_of,
};
use rigport_model_core::{FileSummary, Model, ReadOptions, Report, UpAxis, codes};

/// The codec of `.glb` files.
#[derive(Clone, Copy, Debug, Default)]
pub struct Glb;

/// The codec of `.gltf` files (JSON, with a `.bin` and images beside it).
#[derive(Clone, Copy, Debug, Default)]
pub struct Gltf;

/// The `.glb` codec.
pub const GLB: Glb = Glb;
/// The `.gltf` codec.
pub const GLTF: Gltf = Gltf;

static GLB_INFO: FormatInfo = FormatInfo {
    key: "glb",
    description: "glTF 2.0 binary (`.glb`)",
    extensions: &["glb"],
    up: UpAxis::Y,
    writes: true,
};

static GLTF_INFO: FormatInfo = FormatInfo {
    key: "gltf",
    description: "glTF 2.0 JSON with a `.bin` beside it (`.gltf`)",
    extensions: &["gltf"],
    up: UpAxis::Y,
    writes: true,
};

/// Where an import error is: a byte of a `.glb`, a line and column of JSON text.
fn import_error(key: &'static str, error: ImportError, bytes: &[u8]) -> FormatError {
    let location = match error.offset() {
        Some(offset) if bytes.starts_with(b"glTF") => Location::Offset(offset),
        Some(offset) => Location::in_text(bytes, usize::try_from(offset).unwrap_or(usize::MAX)),
        None => Location::Unknown,
    };
    FormatError::wrap(key, location, error)
}

fn read_file(
    key: &'static str,
    bytes: &[u8],
    options: &ReadOptions,
    companions: &dyn Companions,
) -> Result<(GltfFile, Report), FormatError> {
    GltfFile::from_slice_with(bytes, options, companions.folder())
        .map_err(|e| import_error(key, e, bytes))
}

fn read_model(
    key: &'static str,
    bytes: &[u8],
    options: &ReadOptions,
    companions: &dyn Companions,
) -> Result<(Model, Report), FormatError> {
    let (file, mut report) = read_file(key, bytes, options, companions)?;
    let import = ImportOptions {
        limits: options.limits,
        ..ImportOptions::default()
    };
    let (imported, more) = to_model(&file, &import).map_err(|e| import_error(key, e, bytes))?;
    report.extend(more);
    if !imported.images.is_empty() {
        report.loss(
            codes::IMAGES_NOT_CARRIED,
            format!(
                "{} images held in the file are not part of the model (materials keep their names)",
                imported.images.len()
            ),
        );
    }
    Ok((imported.model, report))
}

fn summary(
    key: &'static str,
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<FileSummary, FormatError> {
    let (file, report) = read_file(key, bytes, options, &NoCompanions)?;
    let mut summary = file.summary();
    summary
        .warnings
        .extend(report.notices.iter().map(|n| n.message.clone()));
    Ok(summary)
}

fn export_error(key: &'static str, error: crate::Error) -> FormatError {
    FormatError::wrap(key, Location::Unknown, error)
}

impl Codec for Glb {
    fn info(&self) -> &'static FormatInfo {
        &GLB_INFO
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        crate::sniff(bytes)
    }

    fn read(&self, bytes: &[u8], options: &ReadOptions) -> Result<(Model, Report), FormatError> {
        read_model(GLB_INFO.key, bytes, options, &NoCompanions)
    }

    fn read_with(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
        companions: &dyn Companions,
    ) -> Result<(Model, Report), FormatError> {
        read_model(GLB_INFO.key, bytes, options, companions)
    }

    fn summary(&self, bytes: &[u8], options: &ReadOptions) -> Result<FileSummary, FormatError> {
        summary(GLB_INFO.key, bytes, options)
    }

    // A `.glb` is whole: the copy is the bytes read, once they read.
    fn copy(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
    ) -> Option<Result<(Vec<u8>, Report), FormatError>> {
        Some(
            read_file(GLB_INFO.key, bytes, options, &NoCompanions)
                .map(|(file, report)| (file.to_vec(), report)),
        )
    }

    fn write(&self, model: &Model, main: &str, _: &WriteOptions) -> Result<Written, FormatError> {
        let (bytes, report) =
            to_glb(model, &ExportOptions::default()).map_err(|e| export_error(GLB_INFO.key, e))?;
        let mut written = Written::single(main, bytes);
        written.report = report;
        Ok(written)
    }
}

impl Codec for Gltf {
    fn info(&self) -> &'static FormatInfo {
        &GLTF_INFO
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        crate::sniff(bytes) && !bytes.starts_with(b"glTF")
    }

    fn read(&self, bytes: &[u8], options: &ReadOptions) -> Result<(Model, Report), FormatError> {
        read_model(GLTF_INFO.key, bytes, options, &NoCompanions)
    }

    fn read_with(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
        companions: &dyn Companions,
    ) -> Result<(Model, Report), FormatError> {
        read_model(GLTF_INFO.key, bytes, options, companions)
    }

    fn summary(&self, bytes: &[u8], options: &ReadOptions) -> Result<FileSummary, FormatError> {
        summary(GLTF_INFO.key, bytes, options)
    }

    fn write(&self, model: &Model, main: &str, _: &WriteOptions) -> Result<Written, FormatError> {
        let bin_name = format!("{}.bin", stem_of(main));
        let options = ExportOptions::default().with_pretty(true);
        let (separate, report) =
            to_gltf(model, &bin_name, &options).map_err(|e| export_error(GLTF_INFO.key, e))?;
        let mut written = Written::single(main, separate.json.into_bytes());
        if !separate.bin.is_empty() {
            written.files.push(OutputFile {
                name: bin_name,
                bytes: separate.bin,
            });
        }
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
