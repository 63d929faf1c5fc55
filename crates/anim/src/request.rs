//! Which pose a caller asks for ([`PoseRequest`]: an animation by name or index, a time or a
//! frame) and the animation index and time it names in a model ([`resolve`]): one rule for
//! the posed OBJ export, pictures and every front door.

use rigport_model_core::Model;

/// Which pose is asked for (an OBJ export's, a picture's): defined beside the write options
/// that carry it, and resolved here.
pub use rigport_model_core::codec::PoseRequest;

/// Why a [`PoseRequest`] names no pose of a model.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RequestError {
    /// The request names an animation by a name no animation has (and that is no index).
    #[error("no animation named `{name}`")]
    NoAnimationNamed {
        /// The name asked for.
        name: String,
    },
    /// The request names an animation index past the end of the model's animations.
    #[error("animation {index} does not exist (the model has {count})")]
    NoSuchAnimation {
        /// The index asked for.
        index: usize,
        /// Number of animations in the model.
        count: usize,
    },
    /// The request gives a frame number but the animation has no frame rate.
    #[error("animation `{animation}` has no frame rate")]
    NoFrameRate {
        /// Name of the animation.
        animation: String,
    },
}

/// Which animation and time (seconds) a pose request names; `None` means the bind pose.
pub fn resolve(model: &Model, pose: &PoseRequest) -> Result<Option<(usize, f32)>, RequestError> {
    if pose.is_bind_pose() {
        return Ok(None);
    }
    let index = match &pose.anim {
        None => 0,
        Some(key) => model
            .animations
            .iter()
            .position(|a| &a.name == key)
            .or_else(|| key.parse::<usize>().ok())
            .ok_or_else(|| RequestError::NoAnimationNamed { name: key.clone() })?,
    };
    let animation = model
        .animations
        .get(index)
        .ok_or(RequestError::NoSuchAnimation {
            index,
            count: model.animations.len(),
        })?;
    let time = match (pose.time, pose.frame) {
        (Some(time), _) => time,
        (None, Some(frame)) if animation.fps > 0.0 => frame / animation.fps,
        (None, Some(_)) => {
            return Err(RequestError::NoFrameRate {
                animation: animation.name.clone(),
            });
        }
        (None, None) => 0.0,
    };
    Ok(Some((index, time)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rigport_model_core::{Animation, Joint, Mesh, Vertex};

    fn model() -> Model {
        let mut model = Model::default();
        model.skeleton.joints.push(Joint::new("root"));
        let mut mesh = Mesh::new("m");
        mesh.vertices.push(Vertex::default());
        model.meshes.push(mesh);
        let mut walk = Animation::new("walk", 10.0);
        walk.duration = 1.0;
        model.animations.push(walk);
        model.animations.push(Animation::new("still", 0.0));
        model
    }

    fn request(time: Option<f32>, frame: Option<f32>, anim: Option<&str>) -> PoseRequest {
        PoseRequest {
            time,
            frame,
            anim: anim.map(str::to_owned),
        }
    }

    #[test]
    fn names_indices_frames_and_times_resolve() {
        let m = model();
        assert_eq!(resolve(&m, &PoseRequest::default()), Ok(None));
        assert_eq!(
            resolve(&m, &request(None, Some(5.0), None)),
            Ok(Some((0, 0.5)))
        );
        assert_eq!(
            resolve(&m, &request(Some(0.25), Some(5.0), Some("walk"))),
            Ok(Some((0, 0.25)))
        );
        assert_eq!(
            resolve(&m, &request(None, None, Some("1"))),
            Ok(Some((1, 0.0)))
        );
        assert_eq!(
            resolve(&m, &request(None, None, Some("still"))),
            Ok(Some((1, 0.0)))
        );
    }

    #[test]
    fn what_cannot_be_resolved_is_a_typed_error() {
        let m = model();
        assert_eq!(
            resolve(&m, &request(None, None, Some("run"))),
            Err(RequestError::NoAnimationNamed { name: "run".into() })
        );
        assert_eq!(
            resolve(&m, &request(None, None, Some("7"))),
            Err(RequestError::NoSuchAnimation { index: 7, count: 2 })
        );
        let no_rate = resolve(&m, &request(None, Some(3.0), Some("still"))).unwrap_err();
        assert_eq!(no_rate.to_string(), "animation `still` has no frame rate");
    }
}
