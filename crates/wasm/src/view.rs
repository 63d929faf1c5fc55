//! What the page does with a set of dropped files: pick the model and the animation files
//! among them ([`plan`]), convert to an in-memory `.glb` for three.js, and describe the result
//! ([`view`]).

use crate::convert::{Options, Output, convert, report_json};
use crate::files::MemoryFiles;
use rigport::info::summarize;
use rigport::{FileSummary, Format, ReadOptions, sniff};
use serde_json::{Value, json};

/// Which file is the model and which carry animations for it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// The model: the readable file with the most triangles (the first by name on a tie).
    pub main: String,
    /// Readable files without triangles but with animations, attached as `--with-anims`
    /// does, in name order.
    pub animations: Vec<String>,
    /// Every other file, with the reason it is not used (a texture is used by the view
    /// when a material names it, so images are not listed).
    pub unused: Vec<(String, String)>,
    /// The model's summary when picking it needed one (several readable files).
    pub summary: Option<FileSummary>,
}

/// Whether a file name looks like an image (used for textures, never read as a model).
fn is_image(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [".png", ".jpg", ".jpeg", ".tga", ".bmp", ".gif", ".webp"]
        .iter()
        .any(|ext| lower.ends_with(ext))
}

/// Picks the model and its animation files among `files`. With one readable file it is the
/// model, whatever it holds; with several, each is summarized (as `rigport info` does) to
/// tell meshes from animation-only files.
pub fn plan(files: &MemoryFiles) -> Result<Plan, String> {
    let readable: Vec<&str> = files
        .iter()
        .filter(|(name, bytes)| !is_image(name) && sniff(bytes).is_some())
        .map(|(name, _)| name)
        .collect();
    let mut unused: Vec<(String, String)> = files
        .iter()
        .filter(|(name, bytes)| !is_image(name) && sniff(bytes).is_none())
        .map(|(name, _)| {
            (
                name.to_owned(),
                "not a model format rigport reads".to_owned(),
            )
        })
        .collect();
    match readable.as_slice() {
        [] => {
            let names: Vec<&str> = files.iter().map(|(n, _)| n).collect();
            if let Some(left_out) = names.iter().find_map(|name| left_out_by_this_build(name)) {
                return Err(left_out);
            }
            let read: Vec<&str> = Format::ALL
                .into_iter()
                .filter(|f| f.can_read())
                .map(Format::description)
                .collect();
            Err(format!(
                "none of the files given is a model rigport reads ({}): {}",
                read.join("; "),
                names.join(", ")
            ))
        }
        [only] => Ok(Plan {
            main: (*only).to_owned(),
            animations: Vec::new(),
            unused,
            summary: None,
        }),
        several => {
            let options = ReadOptions::default();
            let mut main: Option<(&str, FileSummary)> = None;
            let mut animated = Vec::new();
            let mut others = Vec::new();
            for &name in several {
                let bytes = files.bytes(name).unwrap_or_default();
                match summarize(bytes, None, &options) {
                    Ok(summary) if summary.triangles == 0 && summary.animations > 0 => {
                        animated.push(name.to_owned());
                    }
                    Ok(summary) => {
                        if main
                            .as_ref()
                            .is_none_or(|(_, best)| summary.triangles > best.triangles)
                        {
                            if let Some((previous, _)) = main.take() {
                                others.push(previous);
                            }
                            main = Some((name, summary));
                        } else {
                            others.push(name);
                        }
                    }
                    Err(e) => unused.push((name.to_owned(), format!("cannot be read: {e}"))),
                }
            }
            let Some((main, summary)) = main else {
                return Err(match animated.is_empty() {
                    true => "none of the files given could be read as a model".to_owned(),
                    false => format!(
                        "the files given hold animations only ({}): add the model they animate",
                        animated.join(", ")
                    ),
                });
            };
            for other in others {
                unused.push((
                    other.to_owned(),
                    format!("another model (`{main}` has more triangles)"),
                ));
            }
            unused.sort();
            Ok(Plan {
                main: main.to_owned(),
                animations: animated,
                unused,
                summary: Some(summary),
            })
        }
    }
}

/// The `.glb` to draw and a description of it: the plan, the model's `rigport info --json`
/// object, its textures (found among the files or missing) and the conversion's report.
#[derive(Debug)]
pub struct View {
    /// The `.glb`, the model with every animation file attached.
    pub glb: Vec<u8>,
    /// The description, as JSON (see [`view`]).
    pub description: Value,
}

/// Converts the model among `files` to a `.glb` with its animation files attached, as
/// `rigport convert MAIN MAIN.glb --with-anims …` would, and describes it:
///
/// ```json
/// { "main": "mesh.iqm", "animationFiles": ["anim1.iqm"], "unused": [{"file", "reason"}],
///   "info": { …rigport info --json… },
///   "textures": [{"reference": "body.png", "file": "Body.PNG" | null}],
///   "report": [{"severity", "code", "message"}] }
/// ```
pub fn view(files: &MemoryFiles) -> Result<View, String> {
    let plan = plan(files)?;
    let options = Options {
        with_anims: plan.animations.clone(),
        ..Options::default()
    };
    let main_bytes = files.bytes(&plan.main).unwrap_or_default();
    // What `rigport info` says of the main file given with the others beside it: the same
    // counts (the model's joints and animations) and warnings as every other door.
    let inspected = rigport::info::inspect(main_bytes, None, Some(files), &ReadOptions::default())
        .map_err(|e| format!("{}: {e}", plan.main))?;
    let info = rigport::info::info_json(&plan.main, &inspected);
    let Output {
        files: mut written,
        report,
    } = convert(files, &plan.main, "glb", &options)?;
    let glb = written.swap_remove(0).1;
    let textures: Vec<Value> = image_uris(&glb)
        .into_iter()
        .map(|reference| {
            let file = rigport_model_core::texture::find(files, &reference);
            json!({ "reference": reference, "file": file })
        })
        .collect();
    let unused: Vec<Value> = plan
        .unused
        .iter()
        .map(|(file, reason)| json!({ "file": file, "reason": reason }))
        .collect();
    let description = json!({
        "main": plan.main,
        "animationFiles": plan.animations,
        "unused": unused,
        "info": info,
        "textures": textures,
        "report": report_json(&report),
    });
    Ok(View { glb, description })
}

/// The image URIs a `.glb`'s JSON names (images not embedded), percent-decoded, in order.
pub fn image_uris(glb: &[u8]) -> Vec<String> {
    let Some(json) = glb_json(glb) else {
        return Vec::new();
    };
    let Ok(root) = serde_json::from_slice::<Value>(json) else {
        return Vec::new();
    };
    root["images"]
        .as_array()
        .map(|images| {
            images
                .iter()
                .filter_map(|image| image["uri"].as_str())
                .filter(|uri| !uri.starts_with("data:"))
                .map(percent_decode)
                .collect()
        })
        .unwrap_or_default()
}

/// The JSON chunk of a `.glb`.
fn glb_json(glb: &[u8]) -> Option<&[u8]> {
    let word = |at: usize| -> Option<usize> {
        let bytes: [u8; 4] = glb.get(at..at + 4)?.try_into().ok()?;
        Some(u32::from_le_bytes(bytes) as usize)
    };
    if !glb.starts_with(b"glTF") || glb.get(16..20)? != b"JSON" {
        return None;
    }
    let length = word(12)?;
    glb.get(20..20usize.checked_add(length)?)
}

/// `%XX` escapes decoded (an escape that is not one is kept as written).
fn percent_decode(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    let hex = |at: usize| bytes.get(at).and_then(|&b| (b as char).to_digit(16));
    while i < bytes.len() {
        match (bytes[i], hex(i + 1), hex(i + 2)) {
            (b'%', Some(hi), Some(lo)) => {
                out.push((hi * 16 + lo) as u8);
                i += 3;
            }
            (byte, _, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// For a file named like a format this build leaves out (a build without one of the
/// facade's format features), what to use instead.
fn left_out_by_this_build(name: &str) -> Option<String> {
    let extension = std::path::Path::new(name).extension()?.to_str()?;
    let format = Format::ALL
        .into_iter()
        .find(|f| !f.is_enabled() && f.key().eq_ignore_ascii_case(extension))?;
    Some(format!(
        "{name}: this page does not read {} files; the rigport command and its Python package do \
         (`rigport convert {name} model.glb`, then open the .glb here)",
        format.key().to_uppercase()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRI: &[u8] = b"# Inter-Quake Export\njoint root -1\npq 0 0 0 0 0 0 1\nmesh tri\nmaterial Skin.png\nvp 0 0 0\nvb 0 1\nvp 1 0 0\nvb 0 1\nvp 0 1 0\nvb 0 1\nfm 0 1 2\n";
    const WAVE: &[u8] = b"# Inter-Quake Export\njoint root -1\npq 0 0 0 0 0 0 1\nanimation wave\nframerate 10\nframe\npq 0 0 0 0 0 0 1\nframe\npq 0 0 1 0 0 0 1\n";

    fn files(list: &[(&str, &[u8])]) -> MemoryFiles {
        let mut files = MemoryFiles::new();
        for (name, bytes) in list {
            files.insert(name, bytes.to_vec());
        }
        files
    }

    #[test]
    fn the_model_and_its_animation_files_are_told_apart() {
        let given = files(&[
            ("a_wave.iqe", WAVE),
            ("tri.iqe", TRI),
            ("skin.png", b"\x89PNG"),
            ("notes.txt", b"hello"),
        ]);
        let plan = plan(&given).unwrap();
        assert_eq!(plan.main, "tri.iqe");
        assert_eq!(plan.animations, ["a_wave.iqe"]);
        assert_eq!(plan.unused.len(), 1, "{:?}", plan.unused);
        assert_eq!(plan.unused[0].0, "notes.txt");
    }

    #[test]
    fn an_fbx_file_is_read() {
        // The page's build includes FBX (ufbx compiled for wasm32 by `cargo xtask web`).
        let given = files(&[("hero.fbx", b"; FBX 7.4.0 project file\n")]);
        assert!(Format::Fbx.is_enabled());
        assert_eq!(left_out_by_this_build("hero.fbx"), None);
        assert_eq!(plan(&given).unwrap().main, "hero.fbx");
    }

    #[test]
    fn a_view_attaches_the_animations() {
        let given = files(&[("a_wave.iqe", WAVE), ("tri.iqe", TRI)]);
        let view = view(&given).unwrap();
        assert_eq!(&view.glb[..4], b"glTF");
        let d = &view.description;
        assert_eq!(d["main"], "tri.iqe");
        assert_eq!(d["animationFiles"][0], "a_wave.iqe");
        assert_eq!(d["info"]["triangles"], 1);
        assert_eq!(d["info"]["format"], "iqe");
        let codes: Vec<&str> = d["report"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|n| n["code"].as_str())
            .collect();
        assert!(codes.contains(&"animations-attached"), "{codes:?}");
        // The same bytes as a conversion asked for directly.
        let direct = convert(
            &given,
            "tri.iqe",
            "glb",
            &Options {
                with_anims: vec!["a_wave.iqe".into()],
                ..Options::default()
            },
        )
        .unwrap();
        assert_eq!(direct.files[0].1, view.glb);
    }

    /// A MilkShape ASCII triangle whose materials name `.\Skin.png` and `eyes.tga`.
    const TEXTURED: &[u8] = b"// MilkShape 3D ASCII\n\nFrames: 30\nFrame: 1\nMeshes: 1\n\"tri\" 0 0\n3\n0 0 0 0 0 0 -1\n0 1 0 0 1 0 -1\n0 0 1 0 0 1 -1\n1\n0 0 1\n1\n0 0 1 2 0 0 0 1\nMaterials: 2\n\"skin\"\n0.2 0.2 0.2 1\n0.8 0.8 0.8 1\n0 0 0 1\n0 0 0 1\n0\n1\n\".\\Skin.png\"\n\"\"\n\"eyes\"\n0.2 0.2 0.2 1\n0.8 0.8 0.8 1\n0 0 0 1\n0 0 0 1\n0\n1\n\"eyes.tga\"\n\"\"\nBones: 0\nGroupComments: 0\nMaterialComments: 0\nBoneComments: 0\nModelComment: 0\n";

    #[test]
    fn textures_are_found_among_the_files_or_listed_missing() {
        let view = view(&files(&[("tri.txt", TEXTURED), ("skin.PNG", b"\x89PNG")])).unwrap();
        let textures = view.description["textures"].as_array().unwrap().clone();
        let pairs: Vec<(&str, Option<&str>)> = textures
            .iter()
            .map(|t| (t["reference"].as_str().unwrap(), t["file"].as_str()))
            .collect();
        assert!(
            pairs.contains(&("./Skin.png", Some("skin.PNG"))),
            "{pairs:?}"
        );
        assert!(pairs.contains(&("eyes.tga", None)), "{pairs:?}");
    }

    #[test]
    fn nothing_readable_or_animations_alone_are_errors() {
        let error = plan(&files(&[("notes.txt", b"hello")])).unwrap_err();
        assert!(error.contains("notes.txt"), "{error}");
        let error = plan(&files(&[("a.iqe", WAVE), ("b.iqe", WAVE)])).unwrap_err();
        assert!(error.contains("animations only"), "{error}");
        let error = view(&files(&[("bad.iqe", b"# Inter-Quake Export\nvp 0 x 0\n")])).unwrap_err();
        assert!(error.starts_with("bad.iqe: "), "{error}");
    }

    #[test]
    fn uris_are_read_from_the_json_chunk_and_decoded() {
        let json = br#"{"images":[{"uri":"skin%20%232.bmp"},{"bufferView":0},{"uri":"data:image/png;base64,AA"}]}"#;
        let mut glb = b"glTF\x02\0\0\0\0\0\0\0".to_vec();
        glb.extend((json.len() as u32).to_le_bytes());
        glb.extend(b"JSON");
        glb.extend(json);
        assert_eq!(image_uris(&glb), ["skin #2.bmp"]);
        assert_eq!(percent_decode("a%zzb%4"), "a%zzb%4");
        assert!(image_uris(b"glTF").is_empty());
    }
}
