//! Animated orbit datasets ([`OrbitSet::animate`]): every sampled frame of an animation from
//! every orbit view (or from a few seeded random views per frame), one camera per view
//! fitted to the whole animation, written as `view_NN/frame_MMMM.png` with their passes,
//! `transforms.json` frames and keypoints per frame.

use super::{
    Drawn, OrbitKeypoints, OrbitPictures, OrbitSet, PictureRequest, Prepared, ViewFiles,
    transforms_json, view_digits,
};
use crate::Error;
use rigport_model_core::Report;
use rigport_render::{DepthFormat, Orbit, OrbitFrames, PoseAt, PosedJoints, RenderError};
use serde_json::json;

/// Frame rate used when neither the caller nor the animation gives a usable one.
const DEFAULT_FPS: f32 = 30.0;

/// Which frames of the animation an animated orbit draws, and from which cameras.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct OrbitAnimation {
    /// Frames per second at which the animation is sampled (default: its own rate, 30
    /// when it has none), frame times as [`rigport_render::frame_times`] gives them.
    pub fps: Option<f32>,
    /// Instead of a rate: this many frames spread evenly over the animation, as a contact
    /// sheet spreads them ([`rigport_render::sheet_times`]).
    pub frames: Option<u32>,
    /// Instead of every camera of [`OrbitSet::orbits`] at every frame: this many random
    /// cameras per frame ([`Orbit::random`]'s rule), from `seed`.
    pub views_per_frame: Option<u32>,
    /// Seed of the random cameras per frame.
    pub seed: u64,
}

impl Prepared {
    /// [`Prepared::orbit_set`] of an animation (`set.animate`): the animation
    /// `request.pose` names (the first by default), sampled as `animation` says, each frame
    /// drawn from its cameras.
    pub(super) fn orbit_frames(
        &self,
        request: &PictureRequest,
        set: &OrbitSet,
        animation: &OrbitAnimation,
    ) -> Result<OrbitPictures, Error> {
        let options = self.options(&request.options, &request.pose)?;
        let index = match options.pose {
            PoseAt::Animation { index, .. } => index,
            PoseAt::Auto | PoseAt::Bind => 0,
        };
        let Some(clip) = self.model.animations.get(index) else {
            return Err(if self.model.animations.is_empty() {
                RenderError::NoAnimation
            } else {
                RenderError::Pose(rigport_anim::PoseError::NoSuchAnimation {
                    index,
                    count: self.model.animations.len(),
                })
            }
            .into());
        };
        let usable = |f: f32| f.is_finite() && f > 0.0;
        let times = match animation.frames {
            Some(frames) => rigport_render::sheet_times(clip.end_time(), clip.looping, frames),
            None => {
                let fps = animation
                    .fps
                    .filter(|f| usable(*f))
                    .or(Some(clip.fps).filter(|f| usable(*f)))
                    .unwrap_or(DEFAULT_FPS);
                rigport_render::frame_times(clip.end_time(), clip.looping, fps)?
            }
        };
        let orbits: Vec<Vec<Orbit>> = match animation.views_per_frame {
            Some(k) => {
                let mut random = rigport_render::SplitMix64::new(animation.seed);
                times
                    .iter()
                    .map(|_| (0..k).map(|_| random.orbit()).collect())
                    .collect()
            }
            None => vec![set.orbits.clone(); times.len()],
        };
        let write_depth = options.passes.depth || set.depth_format.is_some();
        let mut draw_options = options;
        draw_options.passes.depth |= write_depth;
        let parents = self.parents();
        let joints = if set.keypoints || set.draw_skeleton {
            times
                .iter()
                .map(|&time| PosedJoints::of(&self.model, PoseAt::Animation { index, time }))
                .collect::<Result<Vec<_>, _>>()?
        } else {
            Vec::new()
        };
        let frames = OrbitFrames::new(
            &self.model,
            &draw_options,
            index,
            times.clone(),
            orbits,
            &self.textures,
        )?
        .seeing(joints);
        // Each picture is encoded as soon as it is drawn, so the depth step comes from a
        // bound known beforehand: the far corner of the box around every frame.
        let far = frames.far_bound();
        let depth_scale = match set.depth_format {
            Some(format) => format.scale_factor(far),
            None if far > 0.0 => far / 65535.0,
            None => 1.0,
        };
        let depth_format = set.depth_format.unwrap_or(DepthFormat::Png16);
        // Depth is drawn only when it is written (`write_depth`).
        let encode_depth = |depth: &rigport_render::DepthImage| {
            depth_format.encode(depth, depth_scale).map_err(Error::Png)
        };
        let drawn = frames.draw_with(|_, _, picture| {
            Drawn::encode(picture, set.draw_skeleton, &parents, Some(&encode_depth))
        })?;
        let most = frames.orbits().iter().map(Vec::len).max().unwrap_or(0) as u32;
        let view_digits = view_digits(most);
        let frame_digits = (times.len().saturating_sub(1).max(1).to_string().len()).max(4);
        let depth_extension = depth_format.extension();
        let mut report = Report::default();
        let (mut files, mut records, mut seen, mut places) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut intrinsics = None;
        for (f, (views, &time)) in drawn.into_iter().zip(&times).enumerate() {
            for (v, picture) in views.into_iter().enumerate() {
                let picture = picture?;
                for notice in picture.notices {
                    if !report.notices.contains(&notice) {
                        report.notices.push(notice);
                    }
                }
                let name = format!("view_{v:0view_digits$}/frame_{f:0frame_digits$}");
                if let Some(view) = Drawn::view_keypoints(picture.keypoints, &name) {
                    seen.push(view);
                    places.push((v, f, time));
                }
                if let Some(camera) = picture.camera {
                    intrinsics.get_or_insert(camera);
                    let mut record = json!({
                        "file_path": format!("{name}.png"),
                        "view": v,
                        "frame": f,
                        "time": time,
                        "transform_matrix": set
                            .convention
                            .unwrap_or_default()
                            .camera_to_world(&camera),
                    });
                    if picture.encoded_depth.is_some() {
                        record["depth_file_path"] =
                            json!(format!("{name}_depth.{depth_extension}"));
                    }
                    if picture.normal.is_some() {
                        record["normal_file_path"] = json!(format!("{name}_normal.png"));
                    }
                    if picture.mask.is_some() {
                        record["mask_path"] = json!(format!("{name}_mask.png"));
                    }
                    records.push(record);
                }
                files.push(ViewFiles {
                    name,
                    color: picture.color,
                    depth: picture.encoded_depth,
                    depth_extension,
                    normal: picture.normal,
                    mask: picture.mask,
                });
            }
        }
        let transforms =
            transforms_json(&options, intrinsics, set, write_depth, depth_scale, records);
        let keypoints: Option<OrbitKeypoints> =
            set.keypoints.then(|| self.keypoints_json(seen, &places));
        Ok(OrbitPictures {
            views: files,
            transforms,
            report,
            keypoints,
        })
    }
}
