//! The conversion pipeline shared by single-file and batch `convert`.
//!
//! Same-format conversion goes through the faithful layer (byte-identical for binary,
//! content-identical for text); anything else goes through the neutral model, and every
//! step's [`Report`] is collected.

use crate::attach::{AnimationSource, attach};
use crate::document::{Document, Image, ModelOptions};
use crate::error::Error;
pub use crate::images::Beside;
use crate::registry::Format;
use rigport_model_core::codec::{Companions, Input, Opening, Output, Overlay, WriteOptions};
use rigport_model_core::{Model, ReadOptions, Report};
use std::borrow::Cow;
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
    /// The source file's name in [`Settings::source_dir`] (`hero.md5mesh`), which names the
    /// animation files read beside it (`hero_walk.md5anim` is `walk`; see
    /// [`rigport_model_core::codec::animation_name_beside`]). `None`: each is its file's stem.
    pub source_name: Option<String>,
    /// The files beside the source model, where texture images are looked for (by the rule
    /// of [`rigport_model_core::texture`]): any [`Companions`],
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
            source_name: None,
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
    /// These settings reading the file at `path`: [`Settings::source_dir`] its folder and
    /// [`Settings::source_name`] its name.
    pub fn with_source(mut self, path: &Path) -> Self {
        self.source_dir = Some(crate::batch::input_dir(path));
        self.source_name = path.file_name().and_then(|n| n.to_str()).map(str::to_owned);
        self
    }

    /// The files beside the source: [`Settings::beside`], else the folder
    /// [`Settings::source_dir`], else none.
    pub fn beside_files(&self) -> Option<Beside> {
        self.beside
            .clone()
            .or_else(|| self.source_dir.as_ref().map(Beside::folder))
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
    // at once. A file for another format keeps what its codec builds the model from (IQE:
    // the scene its read checks the commands with, so they are interpreted once).
    let (source, report) = read_source(input.as_ref(), target, settings, false)?;
    drop(input);
    convert_source(source, report, output, target, settings)
}

/// An input file as read for a conversion. One lives per conversion, moved twice: not
/// worth a box.
#[allow(clippy::large_enum_variant)]
enum Source {
    /// The faithful file, for a same-format copy.
    Document(Document),
    /// A file for another format, read straight into the model by its codec (IQE's keeps
    /// the scene its read checks the commands with, so they are interpreted once), with
    /// the images the file holds.
    Model(Model, Vec<Image>),
    /// A file for another format whose model is made once the input is freed, with the
    /// options it is made with.
    Pending(Format, Opening, ModelOptions),
}

/// Reads `input` for a conversion into `target`; `direct` reads a file for another format
/// straight into the model (faster, but the input stays alive until the model is built),
/// else its model is made later ([`Source::Pending`]).
fn read_source(
    input: &[u8],
    target: Format,
    settings: &Settings,
    direct: bool,
) -> Result<(Source, Report), Error> {
    let format = crate::document::sniff(input).ok_or(Error::Unrecognized)?;
    if format != target {
        let codec = crate::document::reader(format)?;
        let folder = crate::document::folder(settings.source_dir.as_deref());
        let companions = crate::document::companions(&folder);
        let options = ModelOptions { fps: settings.fps };
        let read = Input::new(input, &settings.read)
            .beside(companions)
            .named(settings.source_name.as_deref())
            .for_model(options);
        let (opening, report) = codec
            .open(&read)
            .map_err(|e| crate::document::read_error(format, e, input))?;
        if !direct {
            return Ok((Source::Pending(format, opening, options), report));
        }
        let mut modelled = opening
            .into_model(&options)
            .map_err(|e| crate::document::read_error(format, e, input))?;
        let mut all = report;
        all.extend(std::mem::take(&mut modelled.report));
        let images = modelled.images.into_iter().map(Image::from).collect();
        return Ok((Source::Model(modelled.model, images), all));
    }
    Document::read_named(
        input,
        format,
        &settings.read,
        settings.source_dir.as_deref(),
        settings.source_name.as_deref(),
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
        Source::Model(model, images) => convert_model(
            model,
            &images,
            report,
            Report::default(),
            output,
            target,
            settings,
        ),
        Source::Pending(format, opening, options) => {
            let modelled = opening
                .into_model(&options)
                .map_err(|source| Error::ToModel {
                    format,
                    source: Box::new(source),
                })?;
            let images: Vec<Image> = modelled.images.into_iter().map(Image::from).collect();
            convert_model(
                modelled.model,
                &images,
                report,
                modelled.report,
                output,
                target,
                settings,
            )
        }
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
    if document.format() == target
        && target.has(|info| info.faithful_copy)
        && settings.animations.is_empty()
    {
        let (copy, more) = document.copy()?;
        report.extend(more);
        if let Some(bytes) = copy {
            if settings.concat_animations && !target.has_one_timeline() {
                ignore_concat(target, &mut report);
            }
            return Ok(Converted {
                files: vec![(output.to_path_buf(), bytes)],
                report,
            });
        }
    }
    let options = ModelOptions { fps: settings.fps };
    // The faithful file is no longer needed: it is freed before the writer allocates.
    let (model, images, to_model_report) = document.to_model_with_images(&options)?;
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
            rigport_model_core::codes::ANIMATIONS_ATTACHED,
            format!("{count} animations attached from {}", source.label),
        );
    }
    report.extend(to_model_report);
    if !settings.keep_axes {
        model.turn_to_reported(target.up_axis(), &mut report);
    }
    // A posed export (OBJ) applies the weights of its pose itself.
    if !target.keeps_morph_targets() && settings.pose.is_bind_pose() {
        rigport_model_core::morph::drop_morphs(&mut model, target.description(), &mut report);
    }
    let mut beside = Vec::new();
    if !target.has(|info| info.cubic_splines) {
        // Before concatenation: the timeline is laid out from linear keys.
        resample_cubic_splines(&mut model, settings.fps, &mut report);
    }
    if settings.concat_animations {
        concat_animations(&mut model, target, &mut report);
    }
    if !target.has(|info| info.embeds_images) {
        // A glTF export looks for (and warns about) the images itself; the other targets
        // name image files, which are warned about here when they are not beside the source.
        if let Some(files) = settings.beside_files() {
            crate::images::TextureList::of(&model, images, &files).warn_missing(&mut report);
        }
        beside = crate::images::beside_output(&mut model, images, output, &mut report);
        if target.has(|info| info.names_materials_by_texture) {
            crate::images::name_materials_after_textures(&mut model, &beside, &mut report);
        }
    }
    let mut files = write_model(model, output, target, settings, images, &mut report)?;
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
            rigport_model_core::codes::ANIMATION_RESAMPLED,
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
    let why = if target.has(|info| info.posed) {
        "OBJ output is one pose of one animation".to_owned()
    } else {
        format!("{} keeps every animation as it is", target.description())
    };
    report.info(
        rigport_model_core::codes::SETTING_IGNORED,
        format!("animations are not concatenated: {why}"),
    );
}

/// Writes a neutral model as `target` through its codec: the main file at `output`, its
/// companions beside it. Texture images (for the formats that embed them) are looked up
/// among `images` (the source's own) and then the files beside the source. The model is
/// given to the codec, which may free its parts as it writes them.
fn write_model(
    model: Model,
    output: &Path,
    target: Format,
    settings: &Settings,
    images: &[Image],
    report: &mut Report,
) -> Result<Vec<(PathBuf, Vec<u8>)>, Error> {
    let codec = target.codec().ok_or(Error::NotEnabled { format: target })?;
    let main = output.file_name().map_or_else(
        || format!("out.{}", target.extension()),
        |n| n.to_string_lossy().into_owned(),
    );
    let options = WriteOptions::default()
        .with_pose(settings.pose.clone())
        .with_keep_texture_uris(settings.keep_texture_uris);
    let beside = settings.beside_files();
    let to = Output::new(&main, &options);
    let written = if images.is_empty() && beside.is_none() {
        codec.write_to(Cow::Owned(model), &to)
    } else {
        let under = beside.as_ref().map(|files| files as &dyn Companions);
        let held = images
            .iter()
            .map(|image| (image.file_name.as_str(), image.png.as_slice()));
        let files = Overlay::new(held, under);
        codec.write_to(Cow::Owned(model), &to.reading(&files))
    }
    .map_err(|e| Error::FromModel {
        format: target,
        source: Box::new(e),
    })?;
    report.extend(written.report);
    Ok(written
        .files
        .into_iter()
        .map(|file| (output.with_file_name(file.name), file.bytes))
        .collect())
}
