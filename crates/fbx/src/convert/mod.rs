//! A loaded scene into the neutral model: the skeleton first (which nodes are joints and
//! their bind pose), then materials, meshes placed on that skeleton, and every animation
//! stack baked.

mod animation;
mod blend;
mod material;
mod mesh;
pub(crate) mod notes;
pub(crate) use notes::{unit_scale_factor, up_axis};
mod skeleton;

use crate::codec::INFO;
use crate::load::Loaded;
use rigport_model_core::codec::{FormatError, Location, Modelled};
use rigport_model_core::{Model, UpAxis};

/// The neutral model of a loaded scene, with the images the file holds and what could not
/// be carried. A scene loaded without geometry gives its skeleton and animations only.
pub fn to_model(loaded: &Loaded) -> Result<Modelled, FormatError> {
    let run = std::panic::AssertUnwindSafe(|| convert(loaded));
    std::panic::catch_unwind(run).unwrap_or_else(|_| {
        Err(FormatError::new(
            INFO.key,
            Location::Unknown,
            "the scene could not be converted (ufbx refused an operation on it)",
        ))
    })
}

fn convert(loaded: &Loaded) -> Result<Modelled, FormatError> {
    let scene: &ufbx::Scene = &loaded.scene;
    let mut report = loaded.report.clone();
    let baked = animation::bake(scene, loaded.memory_limit, &mut report)?;
    let rig = skeleton::build(scene, &baked.animated);
    let (materials, images, material_ids) = material::convert(scene);
    let (meshes, blend_sources) = mesh::convert(scene, &rig, &material_ids, &mut report);
    let animations = animation::tracks(scene, &rig, baked, &blend_sources);
    notes::add(scene, &mut report);
    let model = Model {
        meshes,
        materials,
        skeleton: rig.skeleton,
        animations,
        comment: None,
        up: UpAxis::Y,
    };
    Ok(Modelled {
        model,
        images,
        report,
    })
}
