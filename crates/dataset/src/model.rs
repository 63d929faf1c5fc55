//! One model of an asset library, the job every door runs per input: the file read once,
//! drawn as asked (an orbit with its passes, `transforms.json` and keypoints; an animated
//! PNG; one picture) with its metadata, each output named under the model's folder.

use crate::Error;
use crate::library::{KEYPOINTS, TRANSFORMS};
use crate::picture::{OrbitKeypoints, OrbitSet, PictureRequest, Prepared};
use rigport_model_core::Report;
use std::path::{Path, PathBuf};

/// What to make of one model.
#[derive(Clone, Debug, Default)]
pub struct ModelRequest {
    /// How the file is read, how pictures are drawn, and the pose.
    pub picture: PictureRequest,
    /// Draw an orbit from these cameras (its own `animate` draws every frame of an
    /// animation); `None`: one picture, or an animated PNG with [`ModelRequest::animate`].
    pub orbit: Option<OrbitSet>,
    /// Without an orbit: every frame of the animation as an animated PNG (`animation.png`)
    /// instead of one picture (`picture.png`).
    pub animate: bool,
    /// The animated PNG's frame rate (default: the animation's own).
    pub fps: Option<f32>,
    /// Also write `metadata.json` ([`Prepared::metadata`], with `render_warnings`).
    pub metadata: bool,
}

/// What one model's job made.
#[derive(Clone, Debug, Default)]
pub struct ModelFiles {
    /// Each output, as a path under the model's folder, with its bytes.
    pub files: Vec<(PathBuf, Vec<u8>)>,
    /// What reading and drawing reported.
    pub report: Report,
    /// The joints seen from each view, when the orbit asked for keypoints.
    pub keypoints: Option<OrbitKeypoints>,
}

/// Makes everything `request` asks for of the file `input` (its content `bytes`, dropped
/// once read; textures and files beside it are looked up in its folder), named under
/// `folder`. Nothing is written: the door checks the outputs and writes them its own way.
pub fn model_files<B: AsRef<[u8]>>(
    bytes: B,
    input: &Path,
    folder: &Path,
    request: &ModelRequest,
) -> Result<ModelFiles, Error> {
    let read = &request.picture.read;
    let prepared = Prepared::read(bytes.as_ref(), &rigport::batch::input_dir(input), read)?;
    drop(bytes);
    let mut report = prepared.report.clone();
    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    let mut keypoints = None;
    let json = |value: &serde_json::Value, pretty: bool| {
        if pretty {
            serde_json::to_vec_pretty(value)
        } else {
            serde_json::to_vec(value)
        }
        .expect("a JSON value serializes")
    };
    if let Some(set) = &request.orbit {
        let orbit = prepared.orbit_set(&request.picture, set)?;
        report.extend(orbit.report);
        for view in orbit.views {
            for (path, bytes) in view.into_files() {
                files.push((folder.join(path), bytes));
            }
        }
        files.push((folder.join(TRANSFORMS), json(&orbit.transforms, true)));
        if let Some(seen) = orbit.keypoints {
            files.push((folder.join(KEYPOINTS), json(&seen.json, false)));
            keypoints = Some(seen);
        }
    } else if request.animate {
        let animated = prepared.animation(&request.picture, request.fps)?;
        report.extend(animated.report);
        files.push((folder.join("animation.png"), animated.png));
    } else {
        let (picture, drawn) = prepared.picture(&request.picture)?;
        report.extend(drawn);
        let png = rigport_render::encode_png(&picture.image).map_err(Error::Png)?;
        files.push((folder.join("picture.png"), png));
    }
    if request.metadata {
        let mut metadata = prepared.metadata(&input.display().to_string());
        metadata["render_warnings"] = report
            .notices
            .iter()
            .map(|n| serde_json::Value::from(n.to_string()))
            .collect();
        files.push((folder.join("metadata.json"), json(&metadata, true)));
    }
    Ok(ModelFiles {
        files,
        report,
        keypoints,
    })
}
