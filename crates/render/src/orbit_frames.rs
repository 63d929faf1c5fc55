//! Animated orbits: every frame of an animation seen from orbit cameras, each camera fitted
//! once to the box around the model in every frame, so a view's frames share one camera
//! and the model moves within it.

use crate::camera::Camera;
use crate::draw::{Scene, bands_for};
use crate::texture::TextureSource;
use crate::{
    MAX_ANIMATION_FRAMES, MAX_VIEWS_PIXELS, Orbit, Picture, PoseAt, PosedJoints, RenderError,
    RenderOptions, SUPERSAMPLE,
};
use glam::Vec3;
use rayon::prelude::*;
use rigport_model_core::Model;

/// The frames of one animation and the cameras of each, ready to draw
/// ([`OrbitFrames::draw_with`]).
pub struct OrbitFrames<'a> {
    scene: Scene<'a>,
    options: RenderOptions,
    index: usize,
    times: Vec<f32>,
    orbits: Vec<Vec<Orbit>>,
    /// The box around the drawable model in every frame.
    frame: Option<[Vec3; 2]>,
    /// The skeleton at each time, to be seen in every picture ([`OrbitFrames::seeing`]).
    joints: Vec<PosedJoints>,
}

impl<'a> OrbitFrames<'a> {
    /// Animation `index` of `model` at each of `times` (seconds), frame `f` seen from the
    /// cameras `orbits[f]` (so `orbits` has one list per time), everything else as
    /// `options` says (`options.orbit` and `options.pose` ignored). Errors: no such
    /// animation, more than [`MAX_ANIMATION_FRAMES`] times, more than
    /// [`MAX_VIEWS_PIXELS`] pixels in one frame's views, a frame without its cameras.
    pub fn new(
        model: &'a Model,
        options: &RenderOptions,
        index: usize,
        times: Vec<f32>,
        orbits: Vec<Vec<Orbit>>,
        textures: &dyn TextureSource,
    ) -> Result<Self, RenderError> {
        options.check_size()?;
        if model.animations.is_empty() {
            return Err(RenderError::NoAnimation);
        }
        if index >= model.animations.len() {
            return Err(RenderError::Pose(
                rigport_anim::PoseError::NoSuchAnimation {
                    index,
                    count: model.animations.len(),
                },
            ));
        }
        if times.is_empty() || times.len() as u64 > MAX_ANIMATION_FRAMES {
            return Err(RenderError::BadFrames {
                frames: times.len() as u64,
            });
        }
        if orbits.len() != times.len() {
            return Err(RenderError::BadFrames {
                frames: orbits.len() as u64,
            });
        }
        let most = orbits.iter().map(Vec::len).max().unwrap_or(0);
        let pixels = most as u64 * u64::from(options.width) * u64::from(options.height);
        if pixels > MAX_VIEWS_PIXELS {
            return Err(RenderError::TooManyViews {
                views: most,
                width: options.width,
                height: options.height,
            });
        }
        let scene = Scene::new(model, textures)?.skipping_hidden_faces();
        let mut frame: Option<[Vec3; 2]> = None;
        for &time in &times {
            if let Some([lo, hi]) = scene.posed_bounds(PoseAt::Animation { index, time })? {
                frame = Some(frame.map_or([lo, hi], |[a, b]| [a.min(lo), b.max(hi)]));
            }
        }
        Ok(Self {
            scene,
            options: *options,
            index,
            times,
            orbits,
            frame,
            joints: Vec::new(),
        })
    }

    /// These frames, each picture also showing the skeleton at its time ([`Picture::joints`],
    /// as [`render_views_seeing`](crate::render_views_seeing) finds it): the joints at
    /// each time of [`OrbitFrames::times`] ([`PosedJoints::of`] the animation at that time),
    /// in that order. A frame without its joints is drawn without.
    pub fn seeing(mut self, joints: Vec<PosedJoints>) -> Self {
        self.joints = joints;
        self
    }

    /// The times drawn, in seconds.
    pub fn times(&self) -> &[f32] {
        &self.times
    }

    /// The cameras of each frame.
    pub fn orbits(&self) -> &[Vec<Orbit>] {
        &self.orbits
    }

    /// A bound on every distance the depth pass can hold: the farthest corner of the box
    /// around every frame, along the view of the camera that sees it farthest (0 when
    /// nothing is drawable).
    pub fn far_bound(&self) -> f64 {
        let Some([lo, hi]) = self.frame else {
            return 0.0;
        };
        let corners = box_corners(lo, hi);
        let (width, height) = (
            self.options.width * SUPERSAMPLE,
            self.options.height * SUPERSAMPLE,
        );
        self.orbits
            .iter()
            .flatten()
            .filter_map(|&orbit| {
                Camera::orbit(
                    orbit,
                    self.scene.model().up,
                    || corners.into_iter(),
                    width,
                    height,
                )
            })
            .map(|camera| camera.far())
            .fold(0.0, f64::max)
    }

    /// Draws every frame from each of its cameras, frames one after another and a frame's
    /// views in parallel, handing each picture to `each(frame, view, picture)` on the
    /// thread that drew it; returns what `each` returned, by frame then view. Texture
    /// warnings are in the first picture's report only; a frame's posing warnings in its
    /// first view's.
    pub fn draw_with<T: Send>(
        &self,
        each: impl Fn(usize, usize, Picture) -> T + Sync,
    ) -> Result<Vec<Vec<T>>, RenderError> {
        let mut all = Vec::with_capacity(self.times.len());
        for (f, (&time, orbits)) in self.times.iter().zip(&self.orbits).enumerate() {
            let posed = self.scene.pose(PoseAt::Animation {
                index: self.index,
                time,
            })?;
            let bands = bands_for(orbits.len());
            let frame: Result<Vec<T>, RenderError> = orbits
                .par_iter()
                .enumerate()
                .map(|(v, &orbit)| {
                    let options = RenderOptions {
                        orbit: Some(orbit),
                        ..self.options
                    };
                    let mut picture = self.scene.draw_posed(
                        &options,
                        &posed,
                        self.frame,
                        bands,
                        self.joints.get(f),
                    )?;
                    if v > 0 {
                        picture.report = Default::default();
                    } else if f == 0 {
                        let mut report = self.scene.report.clone();
                        report.notices.append(&mut picture.report.notices);
                        picture.report = report;
                    }
                    Ok(each(f, v, picture))
                })
                .collect();
            all.push(frame?);
        }
        Ok(all)
    }
}

/// The eight corners of the box from `lo` to `hi`.
fn box_corners(lo: Vec3, hi: Vec3) -> [Vec3; 8] {
    std::array::from_fn(|i| {
        Vec3::select(glam::BVec3::new(i & 1 != 0, i & 2 != 0, i & 4 != 0), hi, lo)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NoTextures;
    use rigport_model_core::{Animation, Joint, JointId, Key, Mesh, Skeleton, Track, Vertex};

    /// A triangle bound to one joint that slides along +X over one second.
    fn sliding() -> Model {
        let mut mesh = Mesh::new("tri");
        for p in [Vec3::ZERO, Vec3::X, Vec3::Y] {
            mesh.vertices.push(Vertex {
                position: p,
                normal: Vec3::Z,
                joints: [JointId(0); 4],
                weights: [1.0, 0.0, 0.0, 0.0],
                ..Vertex::default()
            });
        }
        mesh.triangles.push([0, 1, 2]);
        let mut skeleton = Skeleton::default();
        skeleton.joints.push(Joint::new("root"));
        let mut animation = Animation::new("slide", 1.0);
        let mut track = Track::new(JointId(0));
        track.translations.push(Key::new(0.0, Vec3::ZERO));
        track
            .translations
            .push(Key::new(1.0, Vec3::new(3.0, 0.0, 0.0)));
        animation.tracks.push(track);
        animation.duration = 1.0;
        Model {
            meshes: vec![mesh],
            skeleton,
            animations: vec![animation],
            ..Model::default()
        }
    }

    #[test]
    fn one_camera_per_view_sees_the_model_move() {
        let model = sliding();
        let options = RenderOptions {
            width: 48,
            height: 32,
            ..RenderOptions::default()
        };
        let orbits = vec![Orbit::ring(2, 10.0); 3];
        let frames = OrbitFrames::new(
            &model,
            &options,
            0,
            vec![0.0, 0.5, 1.0],
            orbits,
            &NoTextures,
        )
        .expect("frames");
        assert!(frames.far_bound() > 0.0);
        let drawn = frames
            .draw_with(|f, v, picture| (f, v, picture.camera, picture.image))
            .expect("drawn");
        assert_eq!(drawn.len(), 3);
        for (view, (first, last)) in drawn[0].iter().zip(&drawn[2]).enumerate() {
            // The same camera in every frame, a different picture.
            assert_eq!(first.2, last.2);
            assert_ne!(first.3, last.3);
            assert_eq!((drawn[1][view].0, drawn[1][view].1), (1, view));
        }
        assert!(
            OrbitFrames::new(&model, &options, 1, vec![0.0], vec![vec![]], &NoTextures).is_err()
        );
        assert!(OrbitFrames::new(&model, &options, 0, vec![0.0], vec![], &NoTextures).is_err());
    }
}
