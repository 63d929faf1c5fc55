//! rigport in the browser: WebAssembly bindings over the [`rigport`] facade. The page in
//! `web/` (built by `cargo xtask web`) hands it the files a user dropped and gets back an
//! in-memory `.glb` to draw, `rigport info --json` objects, and the bytes `rigport convert`
//! writes from the same inputs. No format rule lives here: reading, converting and writing
//! are the facade's.
//!
//! The logic is plain Rust, tested on the host ([`files`], [`mod@convert`], [`mod@view`]); the
//! `#[wasm_bindgen]` items at the root are thin wrappers that pass bytes and JSON text.
//!
//! ```
//! use rigport_wasm::convert::{Options, convert};
//! use rigport_wasm::files::MemoryFiles;
//!
//! let mut files = MemoryFiles::new();
//! files.insert("tri.iqe", b"# Inter-Quake Export\nmesh tri\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\n".to_vec());
//! let out = convert(&files, "tri.iqe", "glb", &Options::default()).unwrap();
//! assert_eq!(out.files[0].0, "tri.glb");
//! assert_eq!(&out.files[0].1[..4], b"glTF");
//! ```
// The `#[wasm_bindgen]` expansions contain `unsafe` blocks (the JavaScript ABI); this crate
// writes none of its own.
#![allow(unsafe_code)]

pub mod convert;
pub mod files;
pub mod view;

use files::MemoryFiles;
use serde_json::json;
use wasm_bindgen::prelude::*;

/// The files a user gave the page, by name.
#[wasm_bindgen]
#[derive(Debug, Default)]
pub struct Files {
    inner: MemoryFiles,
}

#[wasm_bindgen]
impl Files {
    /// No files.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Files {
        Files::default()
    }

    /// Adds the file `name` (a name with folders keeps only its file name).
    pub fn add(&mut self, name: &str, bytes: Vec<u8>) {
        self.inner.insert(name, bytes);
    }

    /// Number of files.
    pub fn count(&self) -> usize {
        self.inner.len()
    }
}

/// The files a conversion produced (main file first) and a JSON description of it.
#[wasm_bindgen]
#[derive(Debug, Default)]
pub struct Converted {
    files: Vec<(String, Vec<u8>)>,
    description: String,
}

#[wasm_bindgen]
impl Converted {
    /// Number of files.
    pub fn count(&self) -> usize {
        self.files.len()
    }

    /// Name of file `index` (empty past the end).
    pub fn name(&self, index: usize) -> String {
        self.files
            .get(index)
            .map(|(n, _)| n.clone())
            .unwrap_or_default()
    }

    /// Content of file `index` (empty past the end), copied out to JavaScript.
    pub fn bytes(&self, index: usize) -> Vec<u8> {
        self.files
            .get(index)
            .map(|(_, b)| b.clone())
            .unwrap_or_default()
    }

    /// The description as JSON text: for [`fn@convert`], `{"files": [...], "report": [...]}`;
    /// for [`fn@view`], the object [`view::view`] documents.
    pub fn description(&self) -> String {
        self.description.clone()
    }
}

/// `rigport info --json` for one file given alone: the JSON text of the object the CLI
/// prints for that file alone in a folder (its textures are then missing), or an
/// `{"file", "error"}` object for a file it cannot read.
#[wasm_bindgen]
pub fn info(name: &str, bytes: &[u8]) -> String {
    let options = rigport::ReadOptions::default();
    let alone = rigport_model_core::codec::NoCompanions;
    match rigport::info::inspect(bytes, None, Some(&alone), &options) {
        Ok(info) => rigport::info::info_json(name, &info),
        Err(e) => rigport::info::error_json(name, &e.to_string()),
    }
    .to_string()
}

/// Converts `main` (one of `files`) to the format `to` (a `--to` key or an extension), with
/// `options` as JSON text ([`convert::Options`]; empty for the defaults): the files
/// `rigport convert` writes from the same inputs.
#[wasm_bindgen]
pub fn convert(files: &Files, main: &str, to: &str, options: &str) -> Result<Converted, JsError> {
    let options = convert::Options::from_json(options).map_err(|e| JsError::new(&e))?;
    let output =
        convert::convert(&files.inner, main, to, &options).map_err(|e| JsError::new(&e))?;
    let names: Vec<&str> = output.files.iter().map(|(n, _)| n.as_str()).collect();
    let description = json!({ "files": names, "report": convert::report_json(&output.report) });
    Ok(Converted {
        description: description.to_string(),
        files: output.files,
    })
}

/// Picks the model and its animation files among `files` and converts them to one `.glb`
/// to draw; the description is [`view::view`]'s.
#[wasm_bindgen]
pub fn view(files: &Files) -> Result<Converted, JsError> {
    let view = view::view(&files.inner).map_err(|e| JsError::new(&e))?;
    let name = format!(
        "{}.glb",
        view.description["main"].as_str().unwrap_or("model")
    );
    Ok(Converted {
        files: vec![(name, view.glb)],
        description: view.description.to_string(),
    })
}

/// Every format this build knows, as JSON text, in the registry's order:
/// `[{"key", "extension", "extensions", "description", "reads", "writes"}]` (the page's export
/// menu takes those it writes, its hint those it reads).
#[wasm_bindgen]
pub fn formats() -> String {
    let list: Vec<_> = rigport::Format::ALL
        .into_iter()
        .filter_map(|f| f.info().map(|info| (f, info)))
        .map(|(f, info)| {
            json!({
                "key": f.key(),
                "extension": f.extension(),
                "extensions": info.extensions,
                "description": info.description,
                "reads": info.reads,
                "writes": info.writes,
            })
        })
        .collect();
    serde_json::Value::from(list).to_string()
}
