//! What `rigport info` shows of an FBX file: the model's counts and what the file says of
//! itself (version, encoding, creator, axes, unit, frame rate).

use crate::codec::INFO;
use crate::convert::{unit_scale_factor, up_axis};
use crate::load::Loaded;
use rigport_model_core::codec::Modelled;
use rigport_model_core::{FileSummary, Report};

/// The file's counts and what it says of itself (`rigport info`).
pub(crate) fn summarize(loaded: &Loaded, modelled: &Modelled) -> FileSummary {
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
