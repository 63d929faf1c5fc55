//! Animations of other files put onto a model's skeleton (`rigport convert --with-anims`).
//!
//! Red Eclipse ships a model as `mesh.iqm` plus `anim*.iqm` files that hold poses but no
//! joints; IQE and MilkShape files can also carry animations for a skeleton defined
//! elsewhere. Joints are matched by name; a file whose joints have no names (an
//! animation-only IQM or IQE, read with placeholder joints) is matched by index when the
//! joint counts agree. Anything else is an error naming the mismatch.

use crate::document::Document;
use rigport_model_core::{JointId, Model, ReadOptions};
use std::path::Path;

/// The animations of one file, ready to attach.
#[derive(Clone, Debug)]
pub struct AnimationSource {
    /// The file, for messages.
    pub label: String,
    /// The file as a model (its skeleton and animations are used).
    pub model: Model,
    /// Whether the file names its joints (false for placeholder joints).
    pub named: bool,
}

impl AnimationSource {
    /// Reads any readable file as a source of animations.
    pub fn read(path: &Path, options: &ReadOptions) -> Result<Self, String> {
        let label = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| format!("{label}: cannot read: {e}"))?;
        Self::from_bytes(label, &bytes, path.parent(), options)
    }

    /// Reads a file's content as a source of animations, for callers that hold files in
    /// memory (the web page). `label` names it in messages; `dir` is the folder a `.gltf`
    /// finds its external buffers in (`None`: nowhere).
    pub fn from_bytes(
        label: String,
        bytes: &[u8],
        dir: Option<&Path>,
        options: &ReadOptions,
    ) -> Result<Self, String> {
        let (document, _) = Document::sniff_and_read_in(bytes, options, dir)
            .map_err(|e| format!("{label}: {e}"))?;
        let (model, report) = document.to_model().map_err(|e| format!("{label}: {e}"))?;
        let named = report
            .with_code(rigport_model_core::codes::PLACEHOLDER_JOINTS)
            .next()
            .is_none();
        Ok(Self {
            label,
            model,
            named,
        })
    }
}

/// Appends the animations of `source` to `target`, their tracks moved onto `target`'s
/// joints. Returns how many animations were attached.
pub fn attach(target: &mut Model, source: &AnimationSource) -> Result<usize, String> {
    let label = &source.label;
    if source.model.animations.is_empty() {
        return Err(format!("{label} holds no animation"));
    }
    // Keys of the source's roots are in its own frame: turned to the model's, they pose the
    // model as they posed the source (a no-op when both stand along the same axis).
    let mut turned = None;
    let model = if source.model.up == target.up {
        &source.model
    } else {
        let mut copy = source.model.clone();
        copy.turn_to(target.up);
        &*turned.insert(copy)
    };
    let joints = &model.skeleton.joints;
    let ours = target.skeleton.joints.len();
    let map: Vec<Option<JointId>> = if source.named {
        joints
            .iter()
            .map(|j| target.skeleton.find(&j.name))
            .collect()
    } else {
        if joints.len() != ours {
            return Err(format!(
                "{label} animates {} joints without names, so they are matched by index, but the model has {ours} joints",
                joints.len()
            ));
        }
        (0..ours).map(JointId::from_index).collect()
    };
    let mut attached = Vec::with_capacity(model.animations.len());
    for animation in &model.animations {
        let mut animation = animation.clone();
        for track in &mut animation.tracks {
            let Some(Some(joint)) = map.get(track.joint.index()) else {
                let name = joints
                    .get(track.joint.index())
                    .map_or("?", |j| j.name.as_str());
                return Err(format!(
                    "{label}: animation `{}` animates joint `{name}`, which the model's skeleton does not have",
                    animation.name
                ));
            };
            track.joint = *joint;
        }
        // Weight tracks follow the mesh of the same name and target count, if the model has
        // one; the others have nothing to drive.
        animation.morph_tracks.retain_mut(|track| {
            let Some(source_mesh) = model.meshes.get(track.mesh.index()) else {
                return false;
            };
            let found = target.meshes.iter().position(|m| {
                m.name == source_mesh.name
                    && m.morph_targets.len() == source_mesh.morph_targets.len()
            });
            match found.and_then(rigport_model_core::MeshId::from_index) {
                Some(mesh) => {
                    track.mesh = mesh;
                    true
                }
                None => false,
            }
        });
        attached.push(animation);
    }
    let count = attached.len();
    target.animations.extend(attached);
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rigport_model_core::{Animation, Joint, Key, Track};

    fn skeleton_model(names: &[&str]) -> Model {
        let mut model = Model::default();
        model.skeleton.joints = names.iter().map(|n| Joint::new(*n)).collect();
        model
    }

    fn source(names: &[&str], named: bool, animated: u32) -> AnimationSource {
        let mut model = skeleton_model(names);
        let mut animation = Animation::new("walk", 10.0);
        let mut track = Track::new(JointId(animated));
        track
            .translations
            .push(Key::new(0.0, rigport_model_core::glam::Vec3::X));
        animation.tracks.push(track);
        model.animations.push(animation);
        AnimationSource {
            label: "anim".into(),
            model,
            named,
        }
    }

    #[test]
    fn joints_match_by_name_or_by_index() {
        let mut target = skeleton_model(&["root", "arm"]);
        attach(&mut target, &source(&["arm"], true, 0)).unwrap();
        assert_eq!(target.animations[0].tracks[0].joint, JointId(1));
        attach(&mut target, &source(&["joint0", "joint1"], false, 1)).unwrap();
        assert_eq!(target.animations[1].tracks[0].joint, JointId(1));
    }

    #[test]
    fn mismatches_are_errors_that_name_them() {
        let mut target = skeleton_model(&["root", "arm"]);
        let error = attach(&mut target, &source(&["leg"], true, 0)).unwrap_err();
        assert!(error.contains("`leg`"), "{error}");
        let error = attach(&mut target, &source(&["joint0"], false, 0)).unwrap_err();
        assert!(
            error.contains("1 joints without names") && error.contains("2 joints"),
            "{error}"
        );
        assert!(target.animations.is_empty());
    }
}
