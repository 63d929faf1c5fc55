//! Pictures of rigport models: a small software rasterizer that draws a posed frame, or a
//! contact sheet of an animation, into an RGBA image (PNG via the `image` crate).
//!
//! * Upright: cameras are placed in the model's upright frame. A Y-up model (MilkShape,
//!   glTF) is seen as it is; a Z-up model ([`Model::up`](rigport_model_core::Model::up):
//!   IQE, IQM) through the turn to Y-up `(x, y, z) → (x, z, −y)` its `.glb` gets, so up is
//!   up and `front` shows the side a Blender-made character faces (−Y in Blender).
//! * Cameras ([`View`]): `front` is an orthographic projection onto the XY plane looking
//!   down −Z with +Y up, fitted to the posed model's bounds at that time with a 5 % margin,
//!   aspect kept, centred; `back`, `left`, `right` and `top` are the same camera turned;
//!   `iso` is a three-quarter perspective view. [`Orbit`] cameras circle the up axis
//!   ([`render_views`]), each fitted so the model fills the frame; every picture carries
//!   its [`CameraPose`], whose camera-to-world matrix [`CameraConvention`] gives in
//!   OpenGL or OpenCV camera axes. [`Orbit::random`] places seeded random cameras
//!   ([`SplitMix64`]).
//! * Passes ([`Passes`]): depth, camera-space normals and coverage mask from the same
//!   camera and samples; [`render_apng`] writes every frame of an animation as an APNG;
//!   [`OrbitFrames`] draws every frame from orbit cameras fitted to the whole animation.
//!   [`DepthFormat`] writes a depth pass as dataset loaders read it (16-bit PNG in
//!   millimetre steps, or float32 `.npy`).
//! * Keypoints ([`PosedJoints`]): each joint of the posed skeleton as a picture's camera
//!   sees it (pixel, depth along the view), visible or occluded by the depth pass, or
//!   outside the frame; [`render_views_seeing`] finds them while drawing, from the
//!   samples, without drawing the depth pass.
//! * Drawing: z-buffer, both faces drawn (real files' winding is inconsistent; views,
//!   sheets and animations skip the faces of closed surfaces turned away), Lambert
//!   shading from a light at the camera plus ambient; the material's texture where its image
//!   is found, else vertex colours, else the material's diffuse colour; 4 samples per
//!   pixel ([`SUPERSAMPLE`]² in a grid: coverage and depth per sample, colour once per
//!   pixel, as multisampling does);
//!   an optional wire overlay of the triangles' edges.
//! * [`encode_png`] writes a picture as a PNG quickly (fast deflate, the Paeth filter).
//! * Files stay outside the rasterizer: images come from a [`TextureSource`];
//!   [`BesideTextures`] finds them among the files beside the model (a folder on disk,
//!   [`FolderTextures`], or files in memory) with
//!   [`texture::find`](rigport_model_core::texture::find), the rule glTF embedding uses, and
//!   decodes them within the shared [`texture::Limits`](rigport_model_core::texture::Limits).
//!   A texture not found is a `texture-missing` warning naming it.
//! * No model makes it panic or hang: triangles with indices out of range or positions
//!   that are not finite are skipped (and counted in the report), and every triangle's
//!   work is bounded by the picture's size.
//!
//! ```
//! use rigport_model_core::{Mesh, Model, Vertex};
//! use rigport_model_core::glam::Vec3;
//! use rigport_render::{NoTextures, RenderOptions, View, render};
//!
//! let mut mesh = Mesh::new("triangle");
//! for p in [Vec3::ZERO, Vec3::X, Vec3::Y] {
//!     mesh.vertices.push(Vertex { position: p, normal: Vec3::Z, ..Vertex::default() });
//! }
//! mesh.triangles.push([0, 1, 2]);
//! let model = Model { meshes: vec![mesh], ..Model::default() };
//!
//! let options = RenderOptions { width: 64, height: 64, view: View::Front, ..RenderOptions::default() };
//! let picture = render(&model, &options, &NoTextures)?;
//! assert_eq!(picture.image.dimensions(), (64, 64));
//! // The triangle's right angle sits at the bottom left; the top right is background.
//! assert_ne!(picture.image.get_pixel(10, 53), picture.image.get_pixel(53, 10));
//! // picture.image.save("triangle.png") writes a PNG.
//! # Ok::<(), rigport_render::RenderError>(())
//! ```
#![forbid(unsafe_code)]

mod animate;
mod camera;
mod closed;
mod conventions;
mod depth_out;
mod draw;
mod encode;
mod error;
mod keypoints;
mod options;
mod orbit_frames;
mod orbit_random;
mod passes;
mod raster;
mod samples;
mod sheet;
mod texture;
mod views;

pub use animate::{Animated, MAX_ANIMATION_FRAMES, frame_times, render_apng};
pub use camera::{CameraPose, ORBIT_FOV_Y_DEGREES};
pub use conventions::CameraConvention;
pub use depth_out::{DEPTH_STEP, DepthFormat, png16_step};
pub use draw::{DepthImage, Picture, render};
pub use encode::{encode_png, encode_png_gray8, encode_png_gray16, encode_png_rgb8};
pub use error::RenderError;
pub use keypoints::{
    JOINT_DOT_RADIUS, Keypoint, PosedJoints, SILHOUETTE_SLACK, SKELETON_OCCLUDED, SKELETON_VISIBLE,
    SeenJoints, VISIBILITY_TOLERANCE, Visibility, draw_skeleton,
};
pub use options::{
    MAX_SHEET_PIXELS, MAX_SIDE, Orbit, Passes, PoseAt, RenderOptions, Rgb, View, parse_size,
};
pub use orbit_frames::OrbitFrames;
pub use orbit_random::{RANDOM_DISTANCE_SCALE, RANDOM_ELEVATION_DEGREES, SplitMix64};
pub use raster::SUPERSAMPLE;
pub use sheet::{render_sheet, sheet_grid, sheet_times};
pub use texture::{BesideTextures, FolderTextures, NoTextures, TextureError, TextureSource};
pub use views::{MAX_VIEWS_PIXELS, render_views, render_views_seeing, render_views_with};

/// Re-export of the image crate used in the public API ([`image::RgbaImage`]).
pub use image;
