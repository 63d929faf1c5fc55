//! Conversions of files held in memory, as `rigport convert` does them from files on disk:
//! the same [`rigport::pipeline`], the same settings, so the same bytes.

use crate::files::MemoryFiles;
use rigport::attach::AnimationSource;
use rigport::pipeline::{self, PoseRequest, Settings};
use rigport::{Format, ReadOptions, Report};
use rigport_model_core::codec::stem_of;
use serde::Deserialize;
use serde_json::Value;
use std::path::Path;

/// What a conversion asks for beyond the defaults; each field is the `rigport convert` option
/// of the same meaning. Read from JSON with camelCase keys (`{"withAnims": ["anim1.iqm"]}`);
/// an unknown key is an error.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct Options {
    /// Files (among those given) whose animations are attached (`--with-anims`).
    pub with_anims: Vec<String>,
    /// Treat damaged or unexpected input as an error (`--strict`).
    pub strict: bool,
    /// Frames per second for resampling cubic-spline animations (`--fps`, default 30).
    pub fps: Option<f32>,
    /// Keep the source's coordinates (`--keep-axes`).
    pub keep_axes: bool,
    /// Lay every animation end to end on one timeline (`--concat-animations`).
    pub concat_animations: bool,
    /// Keep texture references as URIs in glTF output (`--no-embed-textures`).
    pub no_embed_textures: bool,
    /// OBJ pose: time in seconds (`--time`).
    pub time: Option<f32>,
    /// OBJ pose: frame (`--frame`).
    pub frame: Option<f32>,
    /// OBJ pose: animation name or index (`--anim`).
    pub anim: Option<String>,
}

impl Options {
    /// Reads options from JSON text; empty text (or `null`) means the defaults.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text.is_empty() || text == "null" || text == "undefined" {
            return Ok(Self::default());
        }
        serde_json::from_str(text).map_err(|e| format!("options: {e}"))
    }
}

/// The files one conversion produced, main file first, and its report.
#[derive(Debug, Default)]
pub struct Output {
    /// File names (no folder) and contents.
    pub files: Vec<(String, Vec<u8>)>,
    /// Everything the read and the conversion warned about or could not carry.
    pub report: Report,
}

/// The format `to` names: a `--to` key (`glb`, `ms3d-ascii`) or a file extension (`txt`),
/// which this build must be able to write.
pub fn target_format(to: &str) -> Result<Format, String> {
    let lower = to.trim().trim_start_matches('.').to_ascii_lowercase();
    let format = Format::from_key(&lower)
        .or_else(|| Format::from_extension(Path::new(&format!("x.{lower}"))))
        .ok_or_else(|| {
            let keys: Vec<&str> = writable().iter().map(|f| f.key()).collect();
            format!("unknown output format `{to}` (one of: {})", keys.join(", "))
        })?;
    if !format.can_write() {
        return Err(format!("{} cannot be written", format.description()));
    }
    Ok(format)
}

/// Every format this build writes, in registry order.
pub fn writable() -> Vec<Format> {
    Format::ALL.into_iter().filter(|f| f.can_write()).collect()
}

/// The name a conversion of `main` into `target` is written under: `<stem>.<extension>`, as
/// `rigport convert main <stem>.<extension>` names it.
pub fn output_name(main: &str, target: Format) -> String {
    let main = rigport_model_core::texture::file_name_of(main).unwrap_or(main);
    format!("{}.{}", stem_of(main), target.extension())
}

/// Converts `main` (one of `files`) into the format `to`, with the animations of
/// `options.with_anims` attached; what `rigport convert MAIN <stem>.<ext> --with-anims …`
/// writes from the same files.
pub fn convert(
    files: &MemoryFiles,
    main: &str,
    to: &str,
    options: &Options,
) -> Result<Output, String> {
    let target = target_format(to)?;
    let input = lookup(files, main)?;
    let read = ReadOptions {
        strict: options.strict,
        ..ReadOptions::default()
    };
    let posing = options.time.is_some() || options.frame.is_some() || options.anim.is_some();
    if posing && target != Format::Obj {
        return Err("time, frame and anim pose the model for OBJ output only".into());
    }
    if options.time.is_some() && options.frame.is_some() {
        return Err("time and frame cannot both be given".into());
    }
    let fps = options.fps.unwrap_or(Settings::default().fps);
    if !(fps.is_finite() && fps > 0.0) {
        return Err(format!("fps must be a positive number, not {fps}"));
    }
    let mut animations = Vec::with_capacity(options.with_anims.len());
    for name in &options.with_anims {
        let bytes = lookup(files, name)?;
        let source = AnimationSource::from_bytes(name.clone(), bytes, None, &read)
            .map_err(|message| format!("with-anims {message}"))?;
        animations.push(source);
    }
    let settings = Settings {
        read,
        pose: PoseRequest {
            time: options.time,
            frame: options.frame,
            anim: options.anim.clone(),
        },
        source_dir: None,
        source_name: Some(main.to_owned()),
        // The dropped files are where textures are found, by the library's one rule.
        beside: Some(pipeline::Beside::new(files.clone())),
        fps,
        keep_texture_uris: options.no_embed_textures,
        animations,
        concat_animations: options.concat_animations,
        keep_axes: options.keep_axes,
    };
    let name = output_name(main, target);
    let converted = pipeline::convert(input, Path::new(&name), target, &settings)
        .map_err(|e| format!("{main}: {e}"))?;
    let files = converted
        .files
        .into_iter()
        .map(|(path, bytes)| {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            (name, bytes)
        })
        .collect();
    Ok(Output {
        files,
        report: converted.report,
    })
}

/// The bytes of the file `name` among `files` (exact name, else ignoring case).
fn lookup<'a>(files: &'a MemoryFiles, name: &str) -> Result<&'a [u8], String> {
    files
        .find(name)
        .and_then(|found| files.bytes(found))
        .ok_or_else(|| format!("no file named `{name}` among the files given"))
}

/// A report as JSON: one object per notice, as `rigport convert --json` lists them.
pub fn report_json(report: &Report) -> Value {
    rigport::info::report_json(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRI: &[u8] = b"# Inter-Quake Export\nmesh tri\nmaterial skin.png\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\n";

    fn tri() -> MemoryFiles {
        let mut files = MemoryFiles::new();
        files.insert("tri.iqe", TRI.to_vec());
        files
    }

    #[test]
    fn converts_like_the_pipeline_and_names_the_output_after_the_input() {
        let out = convert(&tri(), "tri.iqe", "glb", &Options::default()).unwrap();
        let direct =
            pipeline::convert(TRI, Path::new("tri.glb"), Format::Glb, &Settings::default())
                .unwrap();
        assert_eq!(out.files.len(), 1);
        assert_eq!(out.files[0].0, "tri.glb");
        assert_eq!(out.files[0].1, direct.files[0].1);
        assert!(
            out.report.with_code("axes-converted").next().is_some(),
            "{:?}",
            out.report
        );
    }

    #[test]
    fn obj_comes_with_its_material_library() {
        let out = convert(&tri(), "tri.iqe", "obj", &Options::default()).unwrap();
        let names: Vec<&str> = out.files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["tri.obj", "tri.mtl"]);
        assert!(String::from_utf8_lossy(&out.files[0].1).contains("mtllib tri.mtl"));
    }

    #[test]
    fn targets_by_key_or_extension() {
        assert_eq!(target_format("ms3d-ascii"), Ok(Format::Ms3dAscii));
        assert_eq!(target_format(".TXT"), Ok(Format::Ms3dAscii));
        assert_eq!(target_format("glb"), Ok(Format::Glb));
        let error = target_format("dae").unwrap_err();
        assert!(error.contains("dae") && error.contains("glb"), "{error}");
        assert_eq!(
            output_name(r"C:\a\hero.model.iqe", Format::Iqm),
            "hero.model.iqm"
        );
        // Every format this build writes, as the registry says.
        let writable = writable();
        let expected: Vec<Format> = Format::ALL.into_iter().filter(|f| f.can_write()).collect();
        assert_eq!(writable, expected);
        assert!(writable.contains(&Format::Obj) && writable.contains(&Format::Gltf));
    }

    #[test]
    fn bad_requests_are_errors_that_say_why() {
        let files = tri();
        let error = convert(&files, "missing.iqe", "glb", &Options::default()).unwrap_err();
        assert!(error.contains("missing.iqe"), "{error}");
        let posed = Options {
            time: Some(0.5),
            ..Options::default()
        };
        let error = convert(&files, "tri.iqe", "glb", &posed).unwrap_err();
        assert!(error.contains("OBJ"), "{error}");
        let mut damaged = MemoryFiles::new();
        damaged.insert("bad.iqe", b"# Inter-Quake Export\nvp 0 x 0\n".to_vec());
        let error = convert(&damaged, "bad.iqe", "glb", &Options::default()).unwrap_err();
        assert!(
            error.starts_with("bad.iqe: ") && error.contains("2:"),
            "{error}"
        );
        let mut junk = MemoryFiles::new();
        junk.insert("junk.bin", vec![0; 16]);
        let error = convert(&junk, "junk.bin", "glb", &Options::default()).unwrap_err();
        assert!(error.contains("junk.bin"), "{error}");
    }

    #[test]
    fn options_read_from_json() {
        let options =
            Options::from_json(r#"{"withAnims": ["a.iqm"], "keepAxes": true, "fps": 24}"#).unwrap();
        assert_eq!(options.with_anims, ["a.iqm"]);
        assert!(options.keep_axes);
        assert_eq!(options.fps, Some(24.0));
        assert_eq!(Options::from_json("").unwrap(), Options::default());
        let error = Options::from_json(r#"{"withAnim": []}"#).unwrap_err();
        assert!(error.contains("withAnim"), "{error}");
    }

    #[test]
    fn report_lists_every_notice() {
        let mut report = Report::default();
        report.loss(rigport_model_core::codes::MORPH_TARGETS, "one thing lost");
        let json = report_json(&report);
        assert_eq!(json[0]["severity"], "loss");
        assert_eq!(json[0]["code"], "morph-targets");
        assert_eq!(json[0]["message"], "one thing lost");
    }
}
