//! Everything rigport does with an untrusted input (including drawing it), in one call
//! (feature `sweep`), for the hostile-input sweep, the fuzz-regression replay and the
//! `pipeline` fuzz target, so the three check exactly the same things.
//!
//! A panic anywhere is a bug (the caller sees it); so is an [`Err`] from [`exercise`]: a
//! converted file that rigport cannot read back, or an error message too long to show.

use rigport::Format;
use rigport::document::{Document, sniff};
use rigport::pipeline::{Settings, convert};
use rigport_dataset::picture::{PictureRequest, RenderOptions, render_png};
use rigport_model_core::{ReadOptions, Report};
use std::path::Path;

/// Longest error or warning message accepted. Rendered text errors are five lines with a
/// 120-character excerpt; anything much longer is quoting attacker-sized input back.
pub const MAX_MESSAGE_BYTES: usize = 1024;

/// Every output format this build writes, in registry order.
pub fn targets() -> Vec<Format> {
    Format::ALL
        .into_iter()
        .filter(|format| format.can_write())
        .collect()
}

/// Sniffs, reads (lenient and strict), summarizes, and converts `input` to every format,
/// reading back each output. Returns how many conversions succeeded.
pub fn exercise(input: &[u8]) -> Result<usize, String> {
    let _ = sniff(input);
    for options in [ReadOptions::default(), ReadOptions::strict()] {
        match Document::sniff_and_read(input, &options) {
            Ok((document, report)) => {
                let _ = document.summary();
                check_report("read", &report)?;
            }
            Err(e) => check_message("read", &e.to_string())?,
        }
    }
    let mut converted = 0;
    for target in targets() {
        converted += usize::from(convert_and_read_back(input, target)?);
    }
    render_small(input)?;
    Ok(converted)
}

/// Draws `input` small, once as a picture with the wire and once as a 3-frame sheet; a
/// refusal must come with a short message. The texture folder does not exist, so nothing
/// outside the input is read.
fn render_small(input: &[u8]) -> Result<(), String> {
    let no_folder = Path::new("/nonexistent-rigport-texture-folder");
    for sheet in [None, Some(3)] {
        let request = PictureRequest {
            options: RenderOptions {
                width: 48,
                height: 32,
                wire: sheet.is_none(),
                ..RenderOptions::default()
            },
            sheet,
            ..PictureRequest::default()
        };
        match render_png(input, no_folder, &request) {
            Ok((png, report)) => {
                check_report("render", &report)?;
                if !png.starts_with(b"\x89PNG") {
                    return Err("render produced no PNG".into());
                }
            }
            Err(error) => check_message("render", &error.to_string())?,
        }
    }
    Ok(())
}

/// Converts `input` to `target` and reads the result back; `Ok(false)` when the conversion
/// refused with a (short) message.
pub fn convert_and_read_back(input: &[u8], target: Format) -> Result<bool, String> {
    let output = format!("out.{}", target.extension());
    let converted = match convert(input, Path::new(&output), target, &Settings::default()) {
        Ok(converted) => converted,
        Err(error) => return check_message("convert", &error.to_string()).map(|()| false),
    };
    check_report("convert", &converted.report)?;
    let (_, main) = converted
        .files
        .first()
        .ok_or_else(|| format!("converting to {} produced no file", target.key()))?;
    // A same-format .glb is the input's bytes (checked by rigport's import on the way): it
    // need not satisfy gltf-json, which, for one, knows no KHR_mesh_quantization.
    if target == Format::Glb && sniff(input) == Some(Format::Glb) {
        return match main.as_slice() == input {
            true => Ok(true),
            false => Err("a .glb -> .glb copy differs from the input".into()),
        };
    }
    read_back(main, target)
        .map_err(|e| format!("{} output does not read back: {e}", target.key()))?;
    Ok(true)
}

/// Reads a converted file the way a user of its format would.
fn read_back(bytes: &[u8], target: Format) -> Result<(), String> {
    match target {
        // A .glb is whole: rigport's own import must read it back too. A .gltf's buffer
        // is a separate file, so only its JSON is checked.
        Format::Glb => {
            validate_gltf_json(glb_json_chunk(bytes)?)?;
            let (document, _) = Document::read(bytes, target, &ReadOptions::default())
                .map_err(|e| e.to_string())?;
            document.to_model().map(|_| ()).map_err(|e| e.to_string())
        }
        Format::Gltf => validate_gltf_json(bytes),
        // Every other format rigport reads: sniffed as itself and read back strictly.
        _ if target.can_read() => {
            if sniff(bytes) != Some(target) {
                return Err(format!("sniffed as {:?}", sniff(bytes)));
            }
            let (document, _) = Document::read(bytes, target, &ReadOptions::default())
                .map_err(|e| e.to_string())?;
            document.to_model().map(|_| ()).map_err(|e| e.to_string())
        }
        // An export-only format (posed OBJ): text a viewer reads.
        _ => std::str::from_utf8(bytes)
            .map(|_| ())
            .map_err(|e| format!("{target} output is not UTF-8: {e}")),
    }
}

/// The JSON chunk of a GLB container, after checking the header's lengths.
fn glb_json_chunk(glb: &[u8]) -> Result<&[u8], String> {
    let word = |at: usize| {
        glb.get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .ok_or_else(|| format!("GLB shorter than {} bytes", at + 4))
    };
    if glb.get(..4) != Some(b"glTF") || word(4)? != 2 || word(8)? != glb.len() {
        return Err("bad GLB header".into());
    }
    let json_len = word(12)?;
    if word(16)? != 0x4E4F_534A {
        return Err("first GLB chunk is not JSON".into());
    }
    glb.get(20..20 + json_len)
        .ok_or_else(|| "GLB JSON chunk runs past the end".into())
}

/// Parses glTF JSON and runs gltf-json's validation (indices in range, required fields).
fn validate_gltf_json(json: &[u8]) -> Result<(), String> {
    use gltf_json::validation::Validate;
    let root: gltf_json::Root = serde_json::from_slice(json).map_err(|e| e.to_string())?;
    let mut errors = Vec::new();
    root.validate(&root, gltf_json::Path::new, &mut |path, error| {
        errors.push(format!("{}: {error}", path()));
    });
    match errors.first() {
        None => Ok(()),
        Some(first) => Err(format!(
            "{} glTF validation errors, first {first}",
            errors.len()
        )),
    }
}

fn check_report(stage: &str, report: &Report) -> Result<(), String> {
    report
        .notices
        .iter()
        .try_for_each(|notice| check_message(stage, &notice.message))
}

fn check_message(stage: &str, message: &str) -> Result<(), String> {
    if message.len() > MAX_MESSAGE_BYTES {
        let start: String = message.chars().take(200).collect();
        return Err(format!(
            "{stage} message of {} bytes (limit {MAX_MESSAGE_BYTES}): {start}…",
            message.len()
        ));
    }
    Ok(())
}
