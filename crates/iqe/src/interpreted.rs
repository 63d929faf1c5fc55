//! A file read together with what its commands mean, for a conversion that reads the file
//! once and does not interpret it twice.

use crate::convert::{ConvertOptions, owned_scene_to_model};
use crate::error::Error;
use crate::file::{File, read_file};
use crate::read::Split;
use crate::scene::Scene;
use rigport_model_core::{Model, ReadOptions, Report};

/// A [`File`] with its [`Scene`] already built.
///
/// Reading a file interprets its commands to check them; [`to_model`](crate::to_model)
/// interprets them again, because a [`File`] keeps only the commands (a scene costs memory
/// that `info`, `validate` and a round trip do not need). A conversion that reads a file
/// only to convert it keeps the scene of the read instead: one pass fewer (about 5 % of
/// a 10 MB IQE → IQM), and the text can be freed before converting, as it is no longer
/// needed to point at errors.
///
/// The crate's [`CODEC`](crate::CODEC) reads through it; its tests hold it to the same
/// file, warnings, errors, model and report as [`File::from_slice_with`] + `to_model`.
#[derive(Debug)]
pub struct Interpreted {
    file: File,
    /// `file`'s scene, detached from its commands.
    scene: Scene<'static>,
}

impl Interpreted {
    /// Reads a file as [`File::from_slice_with`] does (the same file, report and errors)
    /// and keeps its scene.
    pub fn from_slice_with(
        bytes: &[u8],
        options: &ReadOptions,
    ) -> Result<(Interpreted, Report), Error> {
        let (file, scene, report) = read_file(bytes, options, Split::Auto, |store, notes| {
            Scene::build(store, notes).map(Scene::detach)
        })?;
        Ok((Interpreted { file, scene }, report))
    }

    /// The neutral model, as [`to_model`](crate::to_model) gives it for the file read;
    /// the scene is not built again, so nothing can fail.
    pub fn into_model(self, options: &ConvertOptions) -> (Model, Report) {
        owned_scene_to_model(self.file, self.scene, options)
    }
}
