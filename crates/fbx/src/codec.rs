//! FBX through the shared [`Codec`] trait: read only (glTF is the way out). [`Codec::open`]
//! loads and converts the file once and keeps what `info`, a conversion and the model need.

use crate::convert::{unit_scale_factor, up_axis};
use crate::load::{Loaded, load};
use rigport_model_core::codec::{
    Codec, Companions, FormatError, FormatInfo, ModelOptions, Modelled, NoCompanions, Opened,
    Opening,
};
use rigport_model_core::{FileSummary, Model, ReadOptions, Report, UpAxis, codes};
use std::any::Any;

/// What the codec says about the format.
pub static INFO: FormatInfo = FormatInfo {
    key: "fbx",
    family: "FBX",
    description: "Autodesk FBX, binary or ASCII (`.fbx`), read through ufbx",
    extensions: &["fbx"],
    // Read into Y up and metres, as Blender imports it.
    up: UpAxis::Y,
    writes: false,
    reads: true,
    one_timeline: false,
    animation_only: false,
    morph_targets: false,
};

/// The FBX codec.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fbx;

/// The codec, for the registry.
pub static CODEC: Fbx = Fbx;

/// An FBX file read: its bytes, its model and its counts.
#[derive(Debug)]
pub struct FbxFile {
    bytes: Vec<u8>,
    /// The model and its images, with what the conversion (not the read) reports.
    modelled: Modelled,
    summary: FileSummary,
}

impl FbxFile {
    /// The model, the images the file holds and the conversion's report.
    pub fn modelled(&self) -> &Modelled {
        &self.modelled
    }
}

impl Opened for FbxFile {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn summary(&self) -> FileSummary {
        self.summary.clone()
    }

    fn to_vec(&self) -> Vec<u8> {
        self.bytes.clone()
    }

    fn to_model(&self, _: &ModelOptions) -> Result<Modelled, FormatError> {
        Ok(self.modelled.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The file's counts and what it says of itself (`rigport info`).
fn summarize(loaded: &Loaded, modelled: &Modelled) -> FileSummary {
    let mut summary = FileSummary::of_model(INFO.key, &modelled.model, &Report::default());
    let metadata = &loaded.scene.metadata;
    let settings = &loaded.scene.settings;
    let mut detail = |key: &str, value: String| summary.details.push((key.to_owned(), value));
    detail("version", metadata.version.to_string());
    detail(
        "encoding",
        if metadata.ascii { "ascii" } else { "binary" }.to_owned(),
    );
    if !metadata.creator.is_empty() {
        detail("creator", metadata.creator.to_string());
    }
    detail("up axis", up_axis(&loaded.scene).to_owned());
    // FBX's UnitScaleFactor counts centimetres per file unit.
    detail(
        "unit scale factor",
        unit_scale_factor(&loaded.scene).to_string(),
    );
    detail("frame rate", format!("{}", settings.frames_per_second));
    detail("embedded images", modelled.images.len().to_string());
    summary
}

impl Codec for Fbx {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        crate::is_binary(bytes) || crate::is_ascii(bytes)
    }

    fn read(&self, bytes: &[u8], options: &ReadOptions) -> Result<(Model, Report), FormatError> {
        let modelled = self.read_model(bytes, options, &NoCompanions, &ModelOptions::default())?;
        Ok((modelled.model, modelled.report))
    }

    fn open(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
        _companions: &dyn Companions,
    ) -> Option<Opening> {
        let opened = (|| {
            let loaded = load(bytes, options)?;
            let mut modelled = crate::convert::to_model(&loaded)?;
            let summary = summarize(&loaded, &modelled);
            // What the file holds that the model cannot is the read's report; the turn to Y up
            // is the conversion's.
            let (turned, read): (Vec<_>, Vec<_>) = std::mem::take(&mut modelled.report.notices)
                .into_iter()
                .partition(|n| n.code == codes::AXES_CONVERTED);
            modelled.report.notices = turned;
            let file = FbxFile {
                bytes: bytes.to_vec(),
                modelled,
                summary,
            };
            let opened: Box<dyn Opened> = Box::new(file);
            Ok((opened, Report { notices: read }))
        })();
        Some(opened)
    }

    fn read_model(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
        _companions: &dyn Companions,
        _model_options: &ModelOptions,
    ) -> Result<Modelled, FormatError> {
        let loaded = load(bytes, options)?;
        crate::convert::to_model(&loaded)
    }
}
