//! The conversion pipeline shared by single-file and batch `convert`.
//!
//! Same-format conversion goes through the faithful layer (byte-identical for binary,
//! content-identical for text); anything else goes through the neutral model, and every
//! step's [`Report`] is collected.

use crate::attach::{AnimationSource, attach};
use crate::document::{Document, Image, ModelOptions};
use crate::error::Error;
use crate::error::FormatError;
use crate::format::Format;
pub use crate::images::Beside;
use rigport_model_core::{Model, ReadOptions, Report};
use std::path::{Path, PathBuf};

/// Which pose an OBJ export shows (all `None`: the bind pose).
pub use rigport_anim::request::PoseRequest;

/// The highest frame rate [`Settings::fps`] accepts.
pub const MAX_FPS: f32 = 1000.0;

/// Whether `fps` is a frame rate [`Settings::fps`] accepts: finite, above 0 and at most
/// [`MAX_FPS`] (the check behind `--fps` and every other front door's `fps`).
pub fn is_valid_fps(fps: f32) -> bool {
    fps.is_finite() && fps > 0.0 && fps <= MAX_FPS
}

/// Settings of one conversion.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Reading options.
    pub read: ReadOptions,
    /// Pose for OBJ output.
    pub pose: PoseRequest,
    /// Folder of the source model: where a glTF input's external buffers and images are
    /// read from, and where glTF export looks for texture images to embed (`None`: a glTF
    /// naming external files cannot be read, and textures stay URIs).
    pub source_dir: Option<PathBuf>,
    /// The files beside the source model, where texture images are looked for (by the rule
    /// of [`rigport_model_core::texture`]): any [`Companions`](rigport_model_core::codec::Companions),
    /// such as the files a web page was given. `None`: the files in [`Settings::source_dir`].
    pub beside: Option<Beside>,
    /// Frames per second at which animations the target cannot hold as they are (glTF
    /// CUBICSPLINE into IQE, IQM, MilkShape) are resampled (`--fps`, default 30).
    pub fps: f32,
    /// Keep texture references as URIs in glTF output instead of embedding the images
    /// (`--no-embed-textures`).
    pub keep_texture_uris: bool,
    /// Animations of other files to attach to the model (`--with-anims`).
    pub animations: Vec<AnimationSource>,
    /// Lay every animation end to end on one timeline (`--concat-animations`), for targets
    /// that hold one ([`Format::has_one_timeline`]: MilkShape binary and ASCII), with each
    /// animation's frame range reported as a note (`animation-range`, "walk: frames 1-30").
    /// Targets that keep every animation (IQE, IQM, glTF) and OBJ (one pose) ignore it,
    /// with a `setting-ignored` note: concatenating would only lose the names and loop
    /// flags they can hold.
    pub concat_animations: bool,
    /// Keep the source's coordinates as they are (`--keep-axes`) instead of turning the
    /// model to the target's up axis ([`Format::up_axis`]) when the two differ.
    pub keep_axes: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            read: ReadOptions::default(),
            pose: PoseRequest::default(),
            source_dir: None,
            beside: None,
            fps: ModelOptions::default().fps,
            keep_texture_uris: false,
            animations: Vec::new(),
            concat_animations: false,
            keep_axes: false,
        }
    }
}

impl Settings {
    /// The files beside the source: [`Settings::beside`], else the folder
    /// [`Settings::source_dir`], else none.
    pub fn beside_files(&self) -> Option<Beside> {
        self.beside
            .clone()
            .or_else(|| self.source_dir.as_ref().map(Beside::folder))
    }

    /// The glTF export options these settings ask for (images come from
    /// [`Settings::image_source`], never from a folder of the options).
    #[cfg(feature = "gltf")]
    fn gltf_options(&self) -> rigport_gltf::export::ExportOptions {
        rigport_gltf::export::ExportOptions::default().with_embed_textures(!self.keep_texture_uris)
    }

    /// Where glTF export finds texture images: the source's own images first, then the
    /// files beside the source; `None` when there are neither.
    #[cfg(feature = "gltf")]
    fn image_source<'a>(&self, images: &'a [Image]) -> Option<crate::images::MemoryImages<'a>> {
        let folder = self
            .beside_files()
            .map(rigport_gltf::export::BesideImages::over);
        (folder.is_some() || !images.is_empty())
            .then_some(crate::images::MemoryImages { images, folder })
    }
}

/// The files one conversion produces (a `.gltf` has a `.bin` beside it, an `.obj` an `.mtl`).
#[derive(Debug, Default)]
pub struct Converted {
    /// Output paths and their content, main file first.
    pub files: Vec<(PathBuf, Vec<u8>)>,
    /// Everything the reader and the converters warned about or dropped.
    pub report: Report,
}

/// Converts the content of one input file into `target`, to be written at `output`.
pub fn convert(
    input: &[u8],
    output: &Path,
    target: Format,
    settings: &Settings,
) -> Result<Converted, Error> {
    let (source, report) = read_source(input, target, settings, true)?;
    convert_source(source, report, output, target, settings)
}

/// [`convert`] for an input the caller no longer needs (its bytes, or a mapping of the
/// file): it is dropped as soon as the file is read, so a large conversion never holds the
/// input, the file, the model and the output at once (the 100 MB IQE → glb peak drops by
/// the input's size).
pub fn convert_owned<B: AsRef<[u8]>>(
    input: B,
    output: &Path,
    target: Format,
    settings: &Settings,
) -> Result<Converted, Error> {
    // The file is read first and the input dropped before the model is built: building
    // the model straight from the text would hold the input, the parsed file and the model
    // at once. An IQE file keeps the scene its read checks the commands with (the model is
    // made from it, not from a second interpretation).
    let (source, report) = read_source(input.as_ref(), target, settings, false)?;
    drop(input);
    convert_source(source, report, output, target, settings)
}

/// An input file as read for a conversion. One lives per conversion, moved twice: not
/// worth a box.
#[allow(clippy::large_enum_variant)]
enum Source {
    /// The faithful file.
    Document(Document),
    /// An IQE file for another format, read straight into the model by its codec (which
    /// keeps the scene its read checks the commands with, so they are interpreted once).
    #[cfg(feature = "iqe")]
    Model(Model),
    /// An IQE file for another format, read with the scene its read checks the commands
    /// with, for a caller that drops the text before the model is built from them.
    #[cfg(feature = "iqe")]
    Interpreted(rigport_iqe::Interpreted),
}

/// Reads `input` for a conversion into `target`; `direct` reads an IQE file straight into
/// the model (faster, but the text stays alive until the model is built).
fn read_source(
    input: &[u8],
    target: Format,
    settings: &Settings,
    direct: bool,
) -> Result<(Source, Report), Error> {
    let format = crate::document::sniff(input).ok_or(Error::Unrecognized)?;
    #[cfg(feature = "iqe")]
    if format == Format::Iqe && target != Format::Iqe {
        if direct {
            return crate::document::read_iqe_model(input, &settings.read)
                .map(|(model, report)| (Source::Model(model), report));
        }
        return crate::document::read_iqe_interpreted(input, &settings.read)
            .map(|(read, report)| (Source::Interpreted(read), report));
    }
    let _ = (target, direct); // read only with the IQE reader
    Document::read_in(
        input,
        format,
        &settings.read,
        settings.source_dir.as_deref(),
    )
    .map(|(document, report)| (Source::Document(document), report))
}

/// The rest of a conversion once the file is read.
fn convert_source(
    source: Source,
    report: Report,
    output: &Path,
    target: Format,
    settings: &Settings,
) -> Result<Converted, Error> {
    match source {
        Source::Document(document) => convert_document(document, report, output, target, settings),
        #[cfg(feature = "iqe")]
        Source::Interpreted(read) => {
            let (model, to_model_report) = read.into_model(&Default::default());
            convert_model(
                model,
                &[],
                report,
                to_model_report,
                output,
                target,
                settings,
            )
        }
        #[cfg(feature = "iqe")]
        Source::Model(model) => convert_model(
            model,
            &[],
            report,
            Report::default(),
            output,
            target,
            settings,
        ),
    }
}

/// The rest of a conversion once the file is read: the faithful copy for the same format,
/// else through the neutral model.
fn convert_document(
    document: Document,
    mut report: Report,
    output: &Path,
    target: Format,
    settings: &Settings,
) -> Result<Converted, Error> {
    // A `.gltf` may name external buffers and images beside it, which a copy of its JSON
    // into another folder would lose: it goes through the model, which writes them anew.
    if document.format() == target && target != Format::Gltf && settings.animations.is_empty() {
        // A glTF reads lazily: accessors and indices are checked by the import, so a .glb
        // copy is imported once (and the model dropped) rather than copied unchecked.
        if matches!(document.format(), Format::Glb) {
            document.to_model()?;
        }
        // A .glb copy rebuilds vertex tangents glTF forbids, so that every .glb written
        // validates; when they cannot be rewritten in place it goes through the model.
        let copy = match &document {
            #[cfg(feature = "gltf")]
            Document::Gltf(file) => file.valid_copy(),
            #[allow(unreachable_patterns)]
            _ => Some((document.to_vec(), Report::default())),
        };
        if let Some((bytes, repaired)) = copy {
            report.extend(repaired);
            if settings.concat_animations && !target.has_one_timeline() {
                ignore_concat(target, &mut report);
            }
            return Ok(Converted {
                files: vec![(output.to_path_buf(), bytes)],
                report,
            });
        }
        report.warn(
            rigport_model_core::codes::TANGENTS_REPAIRED,
            "vertex tangents glTF forbids cannot be rebuilt in place (sparse, not f32 VEC4, or outside the BIN chunk); converted through the model, which does not carry tangents",
        );
    }
    let options = ModelOptions { fps: settings.fps };
    let (model, images, to_model_report) = document.to_model_with_images(&options)?;
    // The faithful file is no longer needed: free it before the writer allocates its output.
    drop(document);
    convert_model(
        model,
        &images,
        report,
        to_model_report,
        output,
        target,
        settings,
    )
}

/// The rest of a conversion through the neutral model: the animations of other files
/// attached, the model shaped for `target`, and written. `report` is the read's,
/// `to_model_report` the conversion's to the model.
fn convert_model(
    mut model: Model,
    images: &[Image],
    mut report: Report,
    to_model_report: Report,
    output: &Path,
    target: Format,
    settings: &Settings,
) -> Result<Converted, Error> {
    for source in &settings.animations {
        let count = attach(&mut model, source).map_err(Error::Attach)?;
        report.info(
            "animations-attached",
            format!("{count} animations attached from {}", source.label),
        );
    }
    report.extend(to_model_report);
    if !settings.keep_axes {
        model.turn_to_reported(target.up_axis(), &mut report);
    }
    let gltf_target = matches!(target, Format::Glb | Format::Gltf);
    let mut beside = Vec::new();
    if !gltf_target {
        // Before concatenation: the timeline is laid out from linear keys.
        resample_cubic_splines(&mut model, settings.fps, &mut report);
    }
    if settings.concat_animations {
        concat_animations(&mut model, target, &mut report);
    }
    if !gltf_target {
        // glTF export looks for (and warns about) the images itself; the other targets
        // name image files, which are warned about here when they are not beside the source.
        if let Some(files) = settings.beside_files() {
            crate::images::TextureList::of(&model, images, &files).warn_missing(&mut report);
        }
        beside = crate::images::beside_output(&mut model, images, output, &mut report);
        if matches!(target, Format::Iqe | Format::Iqm) {
            crate::images::name_materials_after_textures(&mut model, &beside, &mut report);
        }
    }
    let mut files = write_model(&model, output, target, settings, images, &mut report)?;
    files.extend(beside);
    if files.iter().skip(1).any(|(path, _)| path == output) {
        return Err(Error::CompanionClash {
            output: output.to_path_buf(),
            format: target,
        });
    }
    Ok(Converted { files, report })
}

/// Turns every glTF CUBICSPLINE animation into linear keys at `fps`: only glTF stores the
/// tangents, so any other target would otherwise sample them some other way.
fn resample_cubic_splines(model: &mut Model, fps: f32, report: &mut Report) {
    use rigport_model_core::Interpolation;
    for animation in &mut model.animations {
        if animation.interpolation != Interpolation::CubicSpline {
            continue;
        }
        *animation = rigport_anim::resample::bake(animation, fps);
        report.info(
            "animation-resampled",
            format!(
                "animation `{}`: cubic-spline keys resampled as linear keys at {fps} fps",
                animation.name
            ),
        );
    }
}

/// Replaces the model's animations by one timeline holding them all, for a target with one
/// timeline; any other target keeps them, with a note saying the setting did nothing.
fn concat_animations(model: &mut Model, target: Format, report: &mut Report) {
    if !target.has_one_timeline() {
        ignore_concat(target, report);
        return;
    }
    let name = rigport_anim::milkshape::ANIMATION_NAME;
    if let Some(joined) =
        rigport_anim::concat::concat_animations(&model.skeleton, &model.animations, name)
    {
        report.extend(joined.report);
        model.animations = vec![joined.animation];
    }
}

/// The note saying `concat_animations` did nothing for `target`.
fn ignore_concat(target: Format, report: &mut Report) {
    let why = if target == Format::Obj {
        "OBJ output is one pose of one animation".to_owned()
    } else {
        format!("{} keeps every animation as it is", target.description())
    };
    report.info(
        rigport_model_core::codes::SETTING_IGNORED,
        format!("animations are not concatenated: {why}"),
    );
}

/// Writes a neutral model as `target`.
fn write_model(
    model: &Model,
    output: &Path,
    target: Format,
    settings: &Settings,
    images: &[Image],
    report: &mut Report,
) -> Result<Vec<(PathBuf, Vec<u8>)>, Error> {
    let _ = (model, settings, images, &report); // unused when no writer is built in
    let single = |bytes: Vec<u8>| vec![(output.to_path_buf(), bytes)];
    let files: Vec<(PathBuf, Vec<u8>)> = match target {
        #[cfg(feature = "ms3d")]
        Format::Ms3d => {
            let (file, r) = rigport_ms3d_bin::from_model(model, &Default::default())
                .map_err(|e| from_model_error(target, FormatError::Ms3d(e)))?;
            report.extend(r);
            single(file.to_vec())
        }
        #[cfg(feature = "ms3d-ascii")]
        Format::Ms3dAscii => {
            let (file, r) = rigport_ms3d_ascii::from_model(model, &Default::default())
                .map_err(|e| from_model_error(target, FormatError::Ms3dAscii(e)))?;
            report.extend(r);
            single(file.to_vec())
        }
        #[cfg(feature = "iqe")]
        Format::Iqe => {
            let (file, r) = rigport_iqe::from_model(model, &Default::default())
                .map_err(|e| from_model_error(target, FormatError::Iqe(e)))?;
            report.extend(r);
            single(file.to_vec())
        }
        #[cfg(feature = "iqm")]
        Format::Iqm => {
            let (file, r) = rigport_iqm::from_model(model, &Default::default())
                .map_err(|e| from_model_error(target, FormatError::Iqm(Box::new(e))))?;
            report.extend(r);
            single(file.to_vec())
        }
        #[cfg(feature = "gltf")]
        Format::Glb => {
            use rigport_gltf::export::{to_glb, to_glb_with_images};
            let options = settings.gltf_options();
            // Only a glTF source carries images in memory; the others keep the folder rule.
            let (bytes, r) = match settings.image_source(images) {
                None => to_glb(model, &options)?,
                Some(source) => to_glb_with_images(model, &options, &source)?,
            };
            report.extend(r);
            single(bytes)
        }
        #[cfg(feature = "gltf")]
        Format::Gltf => {
            use rigport_gltf::export::{bin_file_name_for, to_gltf, to_gltf_with_images};
            let bin_name = bin_file_name_for(output);
            let options = settings.gltf_options().with_pretty(true);
            let (separate, r) = match settings.image_source(images) {
                None => to_gltf(model, &bin_name, &options)?,
                Some(source) => to_gltf_with_images(model, &bin_name, &options, &source)?,
            };
            report.extend(r);
            let mut files = single(separate.json.into_bytes());
            if !separate.bin.is_empty() {
                files.push((output.with_file_name(bin_name), separate.bin));
            }
            // Texture images the .gltf names, written beside it like the .bin.
            for image in separate.images {
                files.push((output.with_file_name(image.name), image.bytes));
            }
            files
        }
        #[cfg(feature = "obj")]
        Format::Obj => write_obj(model, output, &settings.pose, report)?,
        #[allow(unreachable_patterns)] // reached only when a format's feature is off
        _ => write_codec(model, output, target, report)?,
    };
    // `out.mtl --to obj` or `out.bin --to gltf` would make the companion file replace the
    // main one; refuse instead of writing one of them silently.
    if files.iter().skip(1).any(|(path, _)| path == output) {
        return Err(Error::CompanionClash {
            output: output.to_path_buf(),
            format: target,
        });
    }
    Ok(files)
}

/// Writes a model through the codec of a codec-based format: the main file at `output`,
/// its companions beside it, each named in the report.
fn write_codec(
    model: &Model,
    output: &Path,
    target: Format,
    report: &mut Report,
) -> Result<Vec<(PathBuf, Vec<u8>)>, Error> {
    let codec = crate::registry::codec(target).ok_or(Error::NotEnabled { format: target })?;
    let main = output.file_name().map_or_else(
        || format!("out.{}", target.extension()),
        |n| n.to_string_lossy().into_owned(),
    );
    let options = rigport_model_core::codec::WriteOptions::default();
    let written = codec
        .write(model, &main, &options)
        .map_err(|e| Error::FromModel {
            format: target,
            source: FormatError::Codec(Box::new(e)),
        })?;
    report.extend(written.report);
    Ok(written
        .files
        .into_iter()
        .map(|file| (output.with_file_name(file.name), file.bytes))
        .collect())
}

#[cfg(any(
    feature = "ms3d",
    feature = "ms3d-ascii",
    feature = "iqe",
    feature = "iqm"
))]
fn from_model_error(format: Format, source: FormatError) -> Error {
    Error::FromModel { format, source }
}

/// Poses the model as asked and writes OBJ text plus its material library.
#[cfg(feature = "obj")]
fn write_obj(
    model: &Model,
    output: &Path,
    pose: &PoseRequest,
    report: &mut Report,
) -> Result<Vec<(PathBuf, Vec<u8>)>, Error> {
    let mtl_path = output.with_extension("mtl");
    let mtl_name = mtl_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned());
    let export = rigport_obj::write_posed(model, pose, mtl_name.as_deref())?;
    report.extend(export.report);
    let mut files = vec![(output.to_path_buf(), export.obj.into_bytes())];
    if !export.mtl.is_empty() {
        files.push((mtl_path, export.mtl.into_bytes()));
    }
    Ok(files)
}
