//! `keypoints.json`: the joints of an orbit's model seen from each view, written and read
//! back.

use super::*;
use serde_json::{Value, json};

/// The joints of an orbit's model seen from each of its views ([`Prepared::orbit_with`]).
#[derive(Clone, Debug, Default)]
pub struct OrbitKeypoints {
    /// `keypoints.json`: `joints` (`name`, `parent` index or null) and per view `frames`
    /// (`file_path`, `view`, `frame`, `time`, `keypoints`: per joint `world`, `pixel`,
    /// `depth`, `visibility`).
    pub json: Value,
    /// Joint names, in joint order.
    pub names: Vec<String>,
    /// Each joint's parent index.
    pub parents: Vec<Option<usize>>,
    /// Per view, in orbit order.
    pub views: Vec<ViewKeypoints>,
}

/// The joints seen from one view, and where the model covers that view.
#[derive(Clone, Debug, Default)]
pub struct ViewKeypoints {
    /// The picture's file name (`view_00.png`).
    pub file_path: String,
    /// One per joint, in joint order.
    pub keypoints: Vec<Keypoint>,
    /// The box of pixels the model covers, `[x, y, width, height]` (`None`: none).
    pub bbox: Option<[u32; 4]>,
    /// How many pixels the model covers.
    pub area: u64,
}

impl Prepared {
    /// `keypoints.json` of the views `seen`, each at its `(view, frame, time)` of `places`.
    pub(super) fn keypoints_json(
        &self,
        seen: Vec<ViewKeypoints>,
        places: &[(usize, usize, f32)],
    ) -> OrbitKeypoints {
        let joints = &self.model.skeleton.joints;
        let names: Vec<String> = joints.iter().map(|j| j.name.clone()).collect();
        let parents: Vec<Option<usize>> =
            joints.iter().map(|j| j.parent.map(|p| p.index())).collect();
        let frames: Vec<Value> = seen
            .iter()
            .zip(places)
            .map(|(view, &(index, frame, time))| {
                json!({
                    "file_path": view.file_path,
                    "view": index,
                    "frame": frame,
                    "time": time,
                    "keypoints": view.keypoints.iter().map(|k| json!({
                        "world": k.world,
                        "pixel": k.pixel,
                        "depth": k.depth,
                        "visibility": k.visibility.key(),
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        let json = json!({
            "joints": names.iter().zip(&parents).map(|(name, parent)| {
                json!({ "name": name, "parent": parent })
            }).collect::<Vec<_>>(),
            "frames": frames,
        });
        OrbitKeypoints {
            json,
            names,
            parents,
            views: seen,
        }
    }
}

impl OrbitKeypoints {
    /// Reads back what [`Prepared::orbit_with`] gave from its `keypoints.json` (`json`) and
    /// each view's box and area, in view order; `None` when `json` is not such a file.
    pub fn from_json(json: Value, boxes: &[(Option<[u32; 4]>, u64)]) -> Option<Self> {
        let mut names = Vec::new();
        let mut parents = Vec::new();
        for joint in json["joints"].as_array()? {
            names.push(joint["name"].as_str()?.to_owned());
            parents.push(joint["parent"].as_u64().map(|p| p as usize));
        }
        let frames = json["frames"].as_array()?;
        if frames.len() != boxes.len() {
            return None;
        }
        let mut views = Vec::with_capacity(frames.len());
        for (frame, &(bbox, area)) in frames.iter().zip(boxes) {
            let keypoints = frame["keypoints"]
                .as_array()?
                .iter()
                .map(|k| {
                    let triple = |key: &str| -> Option<Vec<f64>> {
                        k[key]
                            .as_array()?
                            .iter()
                            .map(|c| Some(c.as_f64().unwrap_or(f64::NAN)))
                            .collect()
                    };
                    let (world, pixel) = (triple("world")?, triple("pixel")?);
                    Some(Keypoint {
                        world: [*world.first()?, *world.get(1)?, *world.get(2)?],
                        pixel: [*pixel.first()?, *pixel.get(1)?],
                        depth: k["depth"].as_f64().unwrap_or(f64::NAN),
                        visibility: match k["visibility"].as_str()? {
                            "visible" => Visibility::Visible,
                            "occluded" => Visibility::Occluded,
                            _ => Visibility::Outside,
                        },
                    })
                })
                .collect::<Option<Vec<_>>>()?;
            views.push(ViewKeypoints {
                file_path: frame["file_path"].as_str()?.to_owned(),
                keypoints,
                bbox,
                area,
            });
        }
        Some(Self {
            json,
            names,
            parents,
            views,
        })
    }
}
