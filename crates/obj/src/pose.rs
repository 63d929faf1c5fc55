//! Posing the model before it is written, as a [`PoseRequest`] asks.

use crate::Error;
use crate::write::{ObjExport, write_obj};
use rigport_anim::request::{PoseRequest, resolve};
use rigport_model_core::Model;
use std::borrow::Cow;

/// Poses `model` as `pose` asks (the bind pose needs no copy) and writes it with
/// [`write_obj`]. The export's report starts with what posing had to repair.
pub fn write_posed(
    model: &Model,
    pose: &PoseRequest,
    mtl_file_name: Option<&str>,
) -> Result<ObjExport, Error> {
    let mut report = rigport_model_core::Report::default();
    let posed = match resolve(model, pose)? {
        Some((animation, time)) => {
            let (posed, r) = rigport_anim::pose_model(model, animation, time)?;
            report.extend(r);
            Cow::Owned(posed)
        }
        None => Cow::Borrowed(model),
    };
    let mut export = write_obj(&posed, mtl_file_name);
    report.extend(std::mem::take(&mut export.report));
    export.report = report;
    Ok(export)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rigport_model_core::{Animation, Joint, Mesh, Vertex};

    #[test]
    fn the_bind_pose_writes_the_model_unchanged() {
        let mut m = Model::default();
        m.skeleton.joints.push(Joint::new("root"));
        let mut mesh = Mesh::new("m");
        mesh.vertices.push(Vertex::default());
        m.meshes.push(mesh);
        m.animations.push(Animation::new("walk", 10.0));
        let posed = write_posed(&m, &PoseRequest::default(), None).unwrap();
        assert_eq!(posed, write_obj(&m, None));
    }

    #[test]
    fn a_request_naming_no_animation_is_an_error() {
        let m = Model::default();
        let request = PoseRequest {
            anim: Some("run".into()),
            ..PoseRequest::default()
        };
        let error = write_posed(&m, &request, None).unwrap_err();
        assert_eq!(error.to_string(), "no animation named `run`");
    }
}
