//! A model written as a `.glb`, or as a `.gltf` with its `.bin` and images beside it, for
//! the codecs' [`Writer`](rigport_model_core::codec::Writer).

use crate::codec::GLB_INFO;
use crate::export::{
    BesideImages, ExportOptions, ImageSource, bin_file_name_for, to_glb_from, to_gltf,
    to_gltf_with_images,
};
use rigport_model_core::Model;
use rigport_model_core::codec::{
    Companions, FormatError, FormatInfo, Location, OutputFile, WriteOptions, Written,
};
use std::borrow::Cow;

/// Writes `model` as `info`'s flavour with `images` (`None`: every texture stays a URI); an
/// owned model is freed as it is written (GLB).
pub(crate) fn write(
    info: &'static FormatInfo,
    model: Cow<'_, Model>,
    main: &str,
    options: &WriteOptions,
    images: Option<&dyn Companions>,
) -> Result<Written, FormatError> {
    let export = ExportOptions::default().with_embed_textures(!options.keep_texture_uris);
    let source = images.map(BesideImages::over);
    let error = |e: crate::Error| FormatError::wrap_plain(info.key, Location::Unknown, e);
    if info.key == GLB_INFO.key {
        let images = source.as_ref().map(|s| s as &dyn ImageSource);
        let (bytes, report) = to_glb_from(model, &export, images).map_err(error)?;
        let mut written = Written::single(main, bytes);
        written.report = report;
        return Ok(written);
    }
    let bin_name = bin_file_name_for(std::path::Path::new(main));
    let export = export.with_pretty(true);
    let (separate, report) = match &source {
        Some(source) => to_gltf_with_images(&model, &bin_name, &export, source),
        None => to_gltf(&model, &bin_name, &export),
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
