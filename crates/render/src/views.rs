//! Several cameras of one pose: the model's textures are loaded and its pose sampled for
//! each camera from one prepared scene, and the cameras are drawn on rayon's pool.

use crate::draw::{Picture, Scene, bands_for};
use crate::texture::TextureSource;
use crate::{Orbit, PosedJoints, RenderError, RenderOptions};
use rayon::prelude::*;
use rigport_model_core::Model;

/// Most pixels the views of one [`render_views`] call may hold together (each view's
/// pictures are kept until all are drawn): 2^28, e.g. 1024 views of 512×512.
pub const MAX_VIEWS_PIXELS: u64 = 1 << 28;

/// Draws `model` from each orbit camera in `orbits` (everything else as `options` says,
/// `options.orbit` ignored), in that order; each picture has its own camera pose and
/// the passes `options.passes` asks for. Texture warnings are in the first picture's
/// report only (they are the model's, not a camera's). More than [`MAX_VIEWS_PIXELS`]
/// pixels in all is an error.
///
/// ```
/// use rigport_model_core::{Mesh, Model, Vertex};
/// use rigport_model_core::glam::Vec3;
/// use rigport_render::{NoTextures, Orbit, Passes, RenderOptions, render_views};
///
/// let mut mesh = Mesh::new("triangle");
/// for p in [Vec3::ZERO, Vec3::X, Vec3::Y] {
///     mesh.vertices.push(Vertex { position: p, normal: Vec3::Z, ..Vertex::default() });
/// }
/// mesh.triangles.push([0, 1, 2]);
/// let model = Model { meshes: vec![mesh], ..Model::default() };
/// let options = RenderOptions {
///     width: 32,
///     height: 32,
///     passes: Passes { depth: true, normal: true, mask: true },
///     ..RenderOptions::default()
/// };
/// let pictures = render_views(&model, &options, &Orbit::ring(4, 20.0), &NoTextures)?;
/// assert_eq!(pictures.len(), 4);
/// assert!(pictures.iter().all(|p| p.mask.is_some() && p.camera.is_some()));
/// # Ok::<(), rigport_render::RenderError>(())
/// ```
pub fn render_views(
    model: &Model,
    options: &RenderOptions,
    orbits: &[Orbit],
    textures: &dyn TextureSource,
) -> Result<Vec<Picture>, RenderError> {
    render_views_with(model, options, orbits, textures, |_, picture| picture)
}

/// [`render_views`], handing each picture to `each` (with its index in `orbits`) on the
/// thread that drew it, as soon as it is drawn, and returning what `each` returned in
/// the order of `orbits`. A caller that encodes or writes the pictures does it in
/// parallel this way, and holds one picture per thread rather than every picture.
///
/// ```
/// use rigport_model_core::{Mesh, Model, Vertex};
/// use rigport_model_core::glam::Vec3;
/// use rigport_render::{NoTextures, Orbit, RenderOptions, encode_png, render_views_with};
///
/// let mut mesh = Mesh::new("triangle");
/// for p in [Vec3::ZERO, Vec3::X, Vec3::Y] {
///     mesh.vertices.push(Vertex { position: p, normal: Vec3::Z, ..Vertex::default() });
/// }
/// mesh.triangles.push([0, 1, 2]);
/// let model = Model { meshes: vec![mesh], ..Model::default() };
/// let options = RenderOptions { width: 32, height: 32, ..RenderOptions::default() };
/// let pngs = render_views_with(&model, &options, &Orbit::ring(4, 20.0), &NoTextures, |_, p| {
///     encode_png(&p.image)
/// })?;
/// assert!(pngs.iter().all(|png| png.as_ref().is_ok_and(|bytes| bytes.starts_with(b"\x89PNG"))));
/// # Ok::<(), rigport_render::RenderError>(())
/// ```
pub fn render_views_with<T: Send>(
    model: &Model,
    options: &RenderOptions,
    orbits: &[Orbit],
    textures: &dyn TextureSource,
    each: impl Fn(usize, Picture) -> T + Sync,
) -> Result<Vec<T>, RenderError> {
    draw_views(model, options, orbits, textures, None, each)
}

/// [`render_views_with`], each picture also showing `joints` (the skeleton at
/// `options.pose`, [`PosedJoints::of`]) in [`Picture::joints`]: each joint's pixel, depth
/// and visibility, and the pixels the model covers, read from the drawn samples before
/// they are resolved (the same as [`PosedJoints::seen`] against the depth pass, which is
/// drawn only when `options.passes` asks for it).
///
/// ```
/// use rigport_model_core::{Joint, Mesh, Model, Vertex};
/// use rigport_model_core::glam::Vec3;
/// use rigport_render::{
///     NoTextures, Orbit, PoseAt, PosedJoints, RenderOptions, Visibility, render_views_seeing,
/// };
///
/// let mut mesh = Mesh::new("triangle");
/// for p in [Vec3::ZERO, Vec3::X, Vec3::Y] {
///     mesh.vertices.push(Vertex { position: p, normal: Vec3::Z, ..Vertex::default() });
/// }
/// mesh.triangles.push([0, 1, 2]);
/// let mut model = Model { meshes: vec![mesh], ..Model::default() };
/// model.skeleton.joints.push(Joint::new("root"));
/// let options = RenderOptions { width: 32, height: 32, ..RenderOptions::default() };
/// let joints = PosedJoints::of(&model, PoseAt::Auto)?;
/// let seen = render_views_seeing(&model, &options, &Orbit::ring(2, 20.0), &NoTextures, &joints, |_, p| {
///     p.joints.expect("joints seen")
/// })?;
/// assert_eq!(seen[0].keypoints.len(), 1);
/// assert_eq!(seen[0].keypoints[0].visibility, Visibility::Visible);
/// assert!(seen[0].area > 0);
/// # Ok::<(), rigport_render::RenderError>(())
/// ```
pub fn render_views_seeing<T: Send>(
    model: &Model,
    options: &RenderOptions,
    orbits: &[Orbit],
    textures: &dyn TextureSource,
    joints: &PosedJoints,
    each: impl Fn(usize, Picture) -> T + Sync,
) -> Result<Vec<T>, RenderError> {
    draw_views(model, options, orbits, textures, Some(joints), each)
}

/// [`render_views_with`], seeing `joints` when given.
fn draw_views<T: Send>(
    model: &Model,
    options: &RenderOptions,
    orbits: &[Orbit],
    textures: &dyn TextureSource,
    joints: Option<&PosedJoints>,
    each: impl Fn(usize, Picture) -> T + Sync,
) -> Result<Vec<T>, RenderError> {
    options.check_size()?;
    let pixels = orbits.len() as u64 * u64::from(options.width) * u64::from(options.height);
    if pixels > MAX_VIEWS_PIXELS {
        return Err(RenderError::TooManyViews {
            views: orbits.len(),
            width: options.width,
            height: options.height,
        });
    }
    let scene = Scene::new(model, textures)?;
    let scene = if orbits.len() > 1 {
        scene.skipping_hidden_faces()
    } else {
        scene
    };
    let posed = scene.pose(options.pose)?;
    // Views are drawn in parallel, reusing the kept targets; a view is split into
    // bands of rows only when there are fewer views than cores.
    let bands = bands_for(orbits.len());
    orbits
        .par_iter()
        .enumerate()
        .map(|(index, &orbit)| {
            let options = RenderOptions {
                orbit: Some(orbit),
                ..*options
            };
            let mut picture = scene.draw_posed(&options, &posed, None, bands, joints)?;
            if index == 0 {
                let mut report = scene.report.clone();
                report.notices.append(&mut picture.report.notices);
                picture.report = report;
            }
            Ok(each(index, picture))
        })
        .collect()
}
