//! COCO keypoints (`annotations.json`) of many models' orbits.

use super::*;
use serde_json::{Value, json};

/// One model's orbit in a COCO keypoints file ([`coco_keypoints`]).
#[derive(Clone, Copy, Debug)]
pub struct CocoModel<'a> {
    /// The model's folder, relative to the file (image `file_name`s start with it).
    pub folder: &'a str,
    /// Picture width and height.
    pub size: (u32, u32),
    /// Its joints seen from each view.
    pub keypoints: &'a OrbitKeypoints,
}

/// A COCO keypoints file (`images`, `annotations`, `categories`) of the orbits of
/// `models`, in their order: one image per view (`file_name` `<folder>/view_00.png`), one
/// annotation per image, and one category per distinct skeleton (the same joint names and
/// parents in the same order), named after the first model that has it, with the joint
/// names as `keypoints` and each bone as a 1-based `[parent, child]` pair in `skeleton`.
///
/// An annotation's `keypoints` are `[x, y, v]` per joint: v = 2 visible, 1 occluded (in the
/// frame but not seen), 0 outside the frame (then x = y = 0), as COCO defines them; x and
/// y count pixels by index, centres at integers, as COCO and detectron2 read them (the
/// `keypoints.json` pixel less 0.5). `bbox` `[x, y, w, h]` and `area` are the pixels the
/// model covers (its mask); `num_keypoints` counts the joints with v > 0.
pub fn coco_keypoints(models: &[CocoModel<'_>]) -> Value {
    let mut categories: Vec<Value> = Vec::new();
    let mut category_of: HashMap<(&[String], &[Option<usize>]), usize> = HashMap::new();
    let mut images = Vec::new();
    let mut annotations = Vec::new();
    for model in models {
        let k = model.keypoints;
        let key = (k.names.as_slice(), k.parents.as_slice());
        let category = *category_of.entry(key).or_insert_with(|| {
            let id = categories.len() + 1;
            let skeleton: Vec<[usize; 2]> = k
                .parents
                .iter()
                .enumerate()
                .filter_map(|(j, p)| p.filter(|&p| p < k.names.len()).map(|p| [p + 1, j + 1]))
                .collect();
            categories.push(json!({
                "id": id,
                "name": model.folder,
                "supercategory": "skeleton",
                "keypoints": k.names,
                "skeleton": skeleton,
            }));
            id
        });
        for view in &k.views {
            let image_id = images.len() + 1;
            images.push(json!({
                "id": image_id,
                "file_name": format!("{}/{}", model.folder, view.file_path),
                "width": model.size.0,
                "height": model.size.1,
            }));
            let mut flat = Vec::with_capacity(view.keypoints.len() * 3);
            let mut labelled = 0;
            for point in &view.keypoints {
                let v = point.visibility.coco();
                let [x, y] = if v > 0 && point.pixel.iter().all(|c| c.is_finite()) {
                    labelled += 1;
                    point.pixel.map(|c| c - 0.5)
                } else {
                    [0.0, 0.0]
                };
                flat.extend([json!(x), json!(y), json!(v)]);
            }
            let bbox = view.bbox.unwrap_or([0; 4]);
            annotations.push(json!({
                "id": annotations.len() + 1,
                "image_id": image_id,
                "category_id": category,
                "keypoints": flat,
                "num_keypoints": labelled,
                "bbox": bbox,
                "area": view.area,
                "iscrowd": 0,
            }));
        }
    }
    json!({
        "info": { "description": "rigport render --orbit --keypoints" },
        "images": images,
        "annotations": annotations,
        "categories": categories,
    })
}
