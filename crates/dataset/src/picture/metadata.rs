//! What an asset library keeps of a file beside its pictures: `metadata.json`.

use super::*;
use serde_json::{Value, json};

impl Prepared {
    /// What an asset library wants to know about the file, named `file`: the `rigport info
    /// --json` object (same keys and values) plus `up` (the file's convention), `bounds`
    /// (`min`, `max` of the bind pose turned Y-up, as in the `.glb`; absent when no vertex
    /// is finite), `joint_list` (`name`, `parent` index or null), `animation_list` (`name`,
    /// `fps`, `duration` in seconds, `frames` as `--animate` draws them, `looping`) and
    /// `textures` (`found`, `missing`: the references materials name, by whether an
    /// image was found for them).
    pub fn metadata(&self, file: &str) -> Value {
        let mut value = rigport::info::info_json(file, &self.info);
        let model = &self.model;
        value["up"] = json!(model.up.key());
        let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
        for v in model.meshes.iter().flat_map(|m| &m.vertices) {
            let p = model.up.turn_vector(UpAxis::Y, v.position);
            if p.is_finite() {
                for (k, c) in p.to_array().into_iter().enumerate() {
                    lo[k] = lo[k].min(c);
                    hi[k] = hi[k].max(c);
                }
            }
        }
        if lo[0] <= hi[0] {
            value["bounds"] = json!({ "min": lo, "max": hi });
        }
        value["joint_list"] = model
            .skeleton
            .joints
            .iter()
            .map(|j| json!({ "name": j.name, "parent": j.parent.map(|p| p.index()) }))
            .collect();
        value["animation_list"] = model
            .animations
            .iter()
            .map(|a| {
                let fps = if a.fps.is_finite() && a.fps > 0.0 {
                    a.fps
                } else {
                    30.0
                };
                let frames = rigport_render::frame_times(a.end_time(), a.looping, fps)
                    .map(|t| t.len() as u64)
                    .ok();
                json!({
                    "name": a.name,
                    "fps": a.fps,
                    "duration": a.end_time(),
                    "frames": frames,
                    "looping": a.looping,
                })
            })
            .collect();
        value
    }
}
