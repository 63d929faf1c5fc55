//! `transforms.json`: an orbit's cameras in the instant-ngp / nerfstudio convention.

use super::*;
use serde_json::{Value, json};

/// `transforms.json` of views whose `frames` are given: the intrinsics of the first
/// camera (`None`: none drawn), the depth scale (`depth_unit_scale_factor` with a depth
/// format, else `integer_depth_scale` when `scaled_depth`), the convention when named.
pub(super) fn transforms_json(
    options: &RenderOptions,
    intrinsics: Option<rigport_render::CameraPose>,
    set: &OrbitSet,
    scaled_depth: bool,
    depth_scale: f64,
    frames: Vec<Value>,
) -> Value {
    let (w, h) = (f64::from(options.width), f64::from(options.height));
    let mut transforms = match intrinsics {
        Some(c) => json!({
            "w": options.width,
            "h": options.height,
            "fl_x": c.focal,
            "fl_y": c.focal,
            "cx": c.cx,
            "cy": c.cy,
            "camera_angle_x": 2.0 * (w / (2.0 * c.focal)).atan(),
            "camera_angle_y": 2.0 * (h / (2.0 * c.focal)).atan(),
            "k1": 0.0, "k2": 0.0, "p1": 0.0, "p2": 0.0,
            "camera_model": "OPENCV",
        }),
        None => json!({}),
    };
    match set.depth_format {
        Some(_) => transforms["depth_unit_scale_factor"] = json!(depth_scale),
        None if scaled_depth => {
            transforms["integer_depth_scale"] = json!(depth_scale);
        }
        None => {}
    }
    if let Some(convention) = set.convention {
        transforms["camera_convention"] = json!(convention.key());
        transforms["transform"] = json!("camera_to_world");
    }
    transforms["up"] = json!("+y");
    transforms["frames"] = Value::Array(frames);
    transforms
}
