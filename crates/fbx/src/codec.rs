//! FBX as a [`Codec`]: a [`Reader`] only (glTF is the way out). [`Reader::open`] loads and
//! converts the file once and keeps what `info`, a conversion and the model need; read for
//! the model alone, it keeps nothing else.

use crate::load::load;
use rigport_model_core::codec::{
    Codec, FormatError, FormatInfo, Input, Intent, ModelOptions, Modelled, Opened, Opening, Reader,
};
use rigport_model_core::{FileSummary, Report, UpAxis, codes};
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
    ..FormatInfo::DEFAULT
};

/// The FBX codec.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fbx;

/// The FBX codec, as a registry lists it.
pub static CODEC: Codec = Codec::new(&INFO, Some(&Fbx), None);

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

impl Reader for Fbx {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        crate::is_binary(bytes) || crate::is_ascii(bytes)
    }

    fn open(&self, input: &Input<'_>) -> Result<(Opening, Report), FormatError> {
        let loaded = load(input.bytes, input.options)?;
        let mut modelled = crate::convert::to_model(&loaded)?;
        // What the file holds that the model cannot is the read's report; the turn to Y up
        // is the conversion's.
        let (turned, read): (Vec<_>, Vec<_>) = std::mem::take(&mut modelled.report.notices)
            .into_iter()
            .partition(|n| n.code == codes::AXES_CONVERTED);
        modelled.report.notices = turned;
        let read = Report { notices: read };
        if let Intent::Model(_) = input.intent {
            // The model is made: nothing else is kept.
            return Ok((Opening::Model(Box::new(move || Ok(modelled))), read));
        }
        let summary = crate::summary::summarize(&loaded, &modelled);
        let file = FbxFile {
            bytes: input.bytes.to_vec(),
            modelled,
            summary,
        };
        Ok((Opening::file(file), read))
    }
}
