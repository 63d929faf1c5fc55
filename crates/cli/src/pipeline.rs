//! The conversion pipeline shared by single-file and batch `convert`.
//!
//! Same-format conversion goes through the faithful layer (byte-identical for binary,
//! content-identical for text); anything else goes through the neutral model, and every
//! step's [`Report`] is collected.

use crate::attach::{AnimationSource, attach};
use crate::document::Document;
use crate::export::gltf::{self, GltfOptions, GltfOutput, Layout};
use crate::export::obj;
use crate::formats::Format;
use rigport_model_core::{Model, ReadOptions, Report};
use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// Which pose an OBJ export shows.
#[derive(Clone, Debug, Default)]
pub struct PoseRequest {
    /// Time in seconds.
    pub time: Option<f32>,
    /// Frame number (converted with the animation's fps).
    pub frame: Option<f32>,
    /// Animation name or index.
    pub anim: Option<String>,
}

/// Settings of one conversion.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Reading options.
    pub read: ReadOptions,
    /// Pose for OBJ output.
    pub pose: PoseRequest,
    /// Animations of other files to attach to the model (`--with-anims`).
    pub animations: Vec<AnimationSource>,
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
) -> Result<Converted, String> {
    let (document, report) =
        Document::sniff_and_read(input, &settings.read).map_err(|e| e.message)?;
    convert_document(document, report, output, target, settings)
}

/// [`convert`] for an input the caller no longer needs: the bytes are freed as soon as the
/// faithful file is read, so a large conversion never holds the input, the file, the model
/// and the output at once (the 100 MB IQE → glb peak drops by the input's size).
pub fn convert_owned(
    input: Vec<u8>,
    output: &Path,
    target: Format,
    settings: &Settings,
) -> Result<Converted, String> {
    let (document, report) =
        Document::sniff_and_read(&input, &settings.read).map_err(|e| e.message)?;
    drop(input);
    convert_document(document, report, output, target, settings)
}

/// The rest of a conversion once the file is read: the faithful copy for the same format,
/// else through the neutral model.
fn convert_document(
    document: Document,
    mut report: Report,
    output: &Path,
    target: Format,
    settings: &Settings,
) -> Result<Converted, String> {
    if document.format() == target && settings.animations.is_empty() {
        return Ok(Converted {
            files: vec![(output.to_path_buf(), document.to_vec())],
            report,
        });
    }
    let (mut model, to_model_report) = document.to_model().map_err(|e| e.message)?;
    for source in &settings.animations {
        let count = attach(&mut model, source)?;
        report.info(
            "animations-attached",
            format!("{count} animations attached from {}", source.label),
        );
    }
    // The faithful file is no longer needed: free it before the writer allocates its output.
    drop(document);
    report.extend(to_model_report);
    let files = write_model(&model, output, target, settings, &mut report)?;
    Ok(Converted { files, report })
}

/// Writes a neutral model as `target`.
fn write_model(
    model: &Model,
    output: &Path,
    target: Format,
    settings: &Settings,
    report: &mut Report,
) -> Result<Vec<(PathBuf, Vec<u8>)>, String> {
    let single = |bytes: Vec<u8>| vec![(output.to_path_buf(), bytes)];
    let files = match target {
        Format::Ms3d => {
            let (file, r) = rigport_ms3d_bin::from_model(model, &Default::default())
                .map_err(|e| e.to_string())?;
            report.extend(r);
            Ok(single(file.to_vec()))
        }
        Format::Ms3dAscii => {
            let (file, r) = rigport_ms3d_ascii::from_model(model, &Default::default())
                .map_err(|e| e.to_string())?;
            report.extend(r);
            Ok(single(file.to_vec()))
        }
        Format::Iqe => {
            let (file, r) =
                rigport_iqe::from_model(model, &Default::default()).map_err(|e| e.to_string())?;
            report.extend(r);
            Ok(single(file.to_vec()))
        }
        Format::Iqm => {
            let (file, r) =
                rigport_iqm::from_model(model, &Default::default()).map_err(|e| e.to_string())?;
            report.extend(r);
            Ok(single(file.to_vec()))
        }
        Format::Glb => {
            let options = GltfOptions::default();
            match export_gltf(model, &options, report)? {
                GltfOutput::Glb(bytes) => Ok(single(bytes)),
                GltfOutput::Separate { .. } => {
                    Err("glTF exporter returned the wrong layout".into())
                }
            }
        }
        Format::Gltf => {
            let bin_name = gltf::bin_file_name_for(output);
            let options = GltfOptions {
                layout: Layout::Separate {
                    bin_file_name: bin_name.clone(),
                },
                pretty: true,
            };
            match export_gltf(model, &options, report)? {
                GltfOutput::Separate { json, bin } => {
                    let mut files = single(json.into_bytes());
                    if !bin.is_empty() {
                        files.push((output.with_file_name(bin_name), bin));
                    }
                    Ok(files)
                }
                GltfOutput::Glb(_) => Err("glTF exporter returned the wrong layout".into()),
            }
        }
        Format::Obj => write_obj(model, output, &settings.pose, report),
    }?;
    // `out.mtl --to obj` or `out.bin --to gltf` would make the companion file replace the
    // main one; refuse instead of writing one of them silently.
    if files.iter().skip(1).any(|(path, _)| path == output) {
        return Err(format!(
            "{} would also be the name of its companion file; choose an output ending in .{}",
            output.display(),
            target.extension()
        ));
    }
    Ok(files)
}

fn export_gltf(
    model: &Model,
    options: &GltfOptions,
    report: &mut Report,
) -> Result<GltfOutput, String> {
    let (output, r) = gltf::export(model, options).map_err(|e| e.to_string())?;
    report.extend(r);
    Ok(output)
}

/// Poses the model as asked and writes OBJ text plus its material library.
fn write_obj(
    model: &Model,
    output: &Path,
    pose: &PoseRequest,
    report: &mut Report,
) -> Result<Vec<(PathBuf, Vec<u8>)>, String> {
    // The bind pose is the model itself; only a requested pose makes a (posed) copy.
    let posed = match resolve_pose(model, pose)? {
        Some((animation, time)) => {
            let (posed, r) =
                rigport_anim::pose_model(model, animation, time).map_err(|e| e.to_string())?;
            report.extend(r);
            Cow::Owned(posed)
        }
        None => Cow::Borrowed(model),
    };
    let mtl_path = output.with_extension("mtl");
    let mtl_name = mtl_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned());
    let export = obj::write_obj(&posed, mtl_name.as_deref());
    report.extend(export.report);
    let mut files = vec![(output.to_path_buf(), export.obj.into_bytes())];
    if !export.mtl.is_empty() {
        files.push((mtl_path, export.mtl.into_bytes()));
    }
    Ok(files)
}

/// Which animation and time (seconds) a pose request names; `None` means the bind pose.
fn resolve_pose(model: &Model, pose: &PoseRequest) -> Result<Option<(usize, f32)>, String> {
    if pose.time.is_none() && pose.frame.is_none() && pose.anim.is_none() {
        return Ok(None);
    }
    let index = match &pose.anim {
        None => 0,
        Some(key) => model
            .animations
            .iter()
            .position(|a| &a.name == key)
            .or_else(|| key.parse::<usize>().ok())
            .ok_or_else(|| format!("no animation named `{key}`"))?,
    };
    let animation = model.animations.get(index).ok_or_else(|| {
        format!(
            "animation {index} does not exist (the model has {})",
            model.animations.len()
        )
    })?;
    let time = match (pose.time, pose.frame) {
        (Some(time), _) => time,
        (None, Some(frame)) if animation.fps > 0.0 => frame / animation.fps,
        (None, Some(_)) => return Err(format!("animation `{}` has no frame rate", animation.name)),
        (None, None) => 0.0,
    };
    Ok(Some((index, time)))
}
