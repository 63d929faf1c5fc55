//! One picture: pose the model, fit the camera, shade and fill every triangle, overlay the
//! wire, filter down.

use crate::camera::{Camera, CameraPose, Projected};
use crate::closed::{Outward, Surfaces};
use crate::raster::{Band, SUPERSAMPLE, levels, with_target};
use crate::texture::{TextureError, TextureSource, sample};
use crate::{PoseAt, PosedJoints, RenderError, RenderOptions, SeenJoints};
use glam::{Vec3, Vec4};
use image::{GrayImage, RgbImage, RgbaImage};
use rigport_model_core::{Material, Mesh, Model, Report, Vertex, codes};
use std::borrow::Cow;
use std::sync::Arc;

/// Light every surface gets whatever it faces.
const AMBIENT: f32 = 0.3;
/// Colour of the `--wire` overlay.
const WIRE: [u8; 3] = [16, 16, 16];

/// A drawn picture and what drawing it warned about (missing textures, skipped triangles,
/// animation keys that had to be fixed).
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// The pixels, opaque RGBA.
    pub image: RgbaImage,
    /// Warnings, in the order they arose.
    pub report: Report,
    /// With [`Passes::depth`](crate::Passes::depth): each pixel's distance along the viewing
    /// direction, in the model's units, of its nearest covered sample (from the eye for
    /// perspective views, from the plane of the model's nearest point for orthographic
    /// ones); 0 where no triangle covers the pixel.
    pub depth: Option<DepthImage>,
    /// With [`Passes::normal`](crate::Passes::normal): camera-space unit normals (OpenGL
    /// axes: +X right, +Y up, +Z towards the viewer) as `(n + 1) / 2 · 255` in red, green
    /// and blue, turned towards the camera (both faces are drawn); black where no triangle
    /// covers the pixel, blended at the edges like the colour picture.
    pub normal: Option<RgbImage>,
    /// With [`Passes::mask`](crate::Passes::mask): the share of each pixel's samples
    /// covered by a triangle, 0–255.
    pub mask: Option<GrayImage>,
    /// Where the camera was (`None` for a contact sheet).
    pub camera: Option<CameraPose>,
    /// With joints to see ([`render_views_seeing`](crate::render_views_seeing),
    /// [`OrbitFrames::seeing`](crate::OrbitFrames::seeing)): each joint as this picture
    /// shows it, and where the model covers the picture.
    pub joints: Option<SeenJoints>,
}

/// A depth picture: one `f32` distance a pixel.
pub type DepthImage = image::ImageBuffer<image::Luma<f32>, Vec<f32>>;

/// Draws `model` as `options` say, with material images from `textures`.
///
/// Errors: a model with no triangles, a pose that cannot be sampled, a size out of range,
/// or no triangle that can be drawn at all. Triangles with indices out of range or
/// positions that are not finite are skipped with a warning.
pub fn render(
    model: &Model,
    options: &RenderOptions,
    textures: &dyn TextureSource,
) -> Result<Picture, RenderError> {
    options.check_size()?;
    let scene = Scene::new(model, textures)?;
    let mut picture = scene.draw(options, options.pose)?;
    let mut report = scene.report.clone();
    report.notices.append(&mut picture.report.notices);
    picture.report = report;
    Ok(picture)
}

/// How many bands of rows to split one picture into: a few per core of rayon's pool, so
/// a core that finishes early (models are rarely spread evenly over the rows) takes
/// another band; one when there is a single core.
pub(crate) fn parallel_bands() -> usize {
    match rayon::current_num_threads() {
        0 | 1 => 1,
        n => n * 4,
    }
}

/// Bands per picture when `pictures` are drawn at once, one per core: one band each when
/// there are at least as many pictures as cores (each core draws whole pictures, reusing
/// its kept target), else [`parallel_bands`].
pub(crate) fn bands_for(pictures: usize) -> usize {
    if pictures >= rayon::current_num_threads() {
        1
    } else {
        parallel_bands()
    }
}

/// What a texture source gave for one reference.
type Loaded = Result<Arc<RgbaImage>, TextureError>;

/// A model with its materials' images resolved, ready to be drawn at any pose.
pub(crate) struct Scene<'a> {
    model: &'a Model,
    images: Vec<Option<Arc<RgbaImage>>>,
    /// The model's closed surfaces, whose faces turned away are not drawn, when the scene
    /// is drawn more than once ([`Scene::skipping_hidden_faces`]).
    surfaces: Option<Surfaces>,
    /// Texture warnings (once per material, not per picture).
    pub report: Report,
}

impl<'a> Scene<'a> {
    pub fn new(model: &'a Model, textures: &dyn TextureSource) -> Result<Self, RenderError> {
        if model.triangle_count() == 0 {
            return Err(RenderError::NoTriangles);
        }
        let mut report = Report::default();
        let used = |index: usize| {
            model
                .meshes
                .iter()
                .any(|m| m.has_uvs && m.material.is_some_and(|id| id.index() == index))
        };
        // Each reference is loaded once and, when it fails, reported once with the number
        // of materials naming it (real files repeat one image over dozens of materials).
        let mut loaded: Vec<(&str, Loaded, usize)> = Vec::new();
        let mut slots: Vec<Option<usize>> = Vec::with_capacity(model.materials.len());
        for (index, material) in model.materials.iter().enumerate() {
            let reference = material
                .texture
                .as_deref()
                .filter(|r| !r.trim().is_empty() && used(index));
            slots.push(reference.map(|reference| {
                match loaded.iter().position(|(r, _, _)| *r == reference) {
                    Some(slot) => {
                        loaded[slot].2 += 1;
                        slot
                    }
                    None => {
                        loaded.push((reference, textures.load(reference), 1));
                        loaded.len() - 1
                    }
                }
            }));
        }
        for (_, result, count) in &loaded {
            if let Err(e) = result {
                let code = match e {
                    TextureError::NotFound(_) => codes::TEXTURE_MISSING,
                    TextureError::Decode { .. } => codes::TEXTURE_UNUSABLE,
                };
                report.warn(
                    code,
                    format!("{e} (named by {count} material(s)); drawn with their colours"),
                );
            }
        }
        let images = slots
            .into_iter()
            .map(|slot| slot.and_then(|i| loaded[i].1.as_ref().ok().cloned()))
            .collect();
        Ok(Self {
            model,
            images,
            surfaces: None,
            report,
        })
    }

    /// This scene, finding the model's closed surfaces first so that their faces turned
    /// away from the camera are not filled. Finding them is linear in the triangles and
    /// costs about what filling the faces saves in one picture, so a scene drawn several
    /// times (views, sheets, animations) does it, a single picture does not.
    pub fn skipping_hidden_faces(mut self) -> Self {
        self.surfaces = Some(Surfaces::of(&self.model.meshes));
        self
    }

    pub fn model(&self) -> &Model {
        self.model
    }

    /// Draws the model at `pose` (texture warnings are in [`Scene::report`], not here),
    /// filling bands of rows on all available cores.
    pub fn draw(&self, options: &RenderOptions, pose: PoseAt) -> Result<Picture, RenderError> {
        self.draw_into(options, pose, parallel_bands())
    }

    /// [`Scene::draw`] in about `bands` bands of rows (1 draws on this thread only, for a
    /// caller drawing several pictures at once).
    pub fn draw_into(
        &self,
        options: &RenderOptions,
        pose: PoseAt,
        bands: usize,
    ) -> Result<Picture, RenderError> {
        self.draw_framed(options, pose, None, bands)
    }

    /// The model's meshes at `pose`, and what posing warned about.
    fn posed(&self, pose: PoseAt) -> Result<(Cow<'_, [Mesh]>, Report), RenderError> {
        match pose.resolve(self.model) {
            PoseAt::Animation { index, time } => {
                let (meshes, report) = rigport_anim::posed_meshes(self.model, index, time)?;
                Ok((Cow::Owned(meshes), report))
            }
            _ => Ok((
                rigport_anim::morph::at_default_weights(&self.model.meshes),
                Report::default(),
            )),
        }
    }

    /// The box around the drawable vertices of the model at `pose` (`None`: nothing
    /// drawable), for [`Scene::draw_framed`].
    pub fn posed_bounds(&self, pose: PoseAt) -> Result<Option<[Vec3; 2]>, RenderError> {
        let (meshes, _) = self.posed(pose)?;
        let drawable = Drawable::of(&meshes);
        let (mut lo, mut hi) = (Vec3::INFINITY, Vec3::NEG_INFINITY);
        for p in drawable.points(&meshes) {
            lo = lo.min(p);
            hi = hi.max(p);
        }
        Ok((lo.x <= hi.x).then_some([lo, hi]))
    }

    /// [`Scene::draw_into`] with the camera fitted to the box `frame` (the union of several
    /// poses' [`Scene::posed_bounds`], so the frames of an animation share one camera)
    /// instead of the posed model; `None` fits the posed model.
    pub fn draw_framed(
        &self,
        options: &RenderOptions,
        pose: PoseAt,
        frame: Option<[Vec3; 2]>,
        bands: usize,
    ) -> Result<Picture, RenderError> {
        self.draw_posed(options, &self.pose(pose)?, frame, bands, None)
    }

    /// The model at `pose`, with what every camera of that pose shares: the triangles
    /// that can be drawn and the outward winding of its closed surfaces.
    pub fn pose(&self, pose: PoseAt) -> Result<Posed<'_>, RenderError> {
        let (meshes, mut report) = self.posed(pose)?;
        let visible = Drawable::of(&meshes);
        let total = visible.total;
        let skipped = total - visible.triangles.iter().map(Vec::len).sum::<usize>();
        if skipped == total {
            return Err(RenderError::NoDrawableTriangles { skipped });
        }
        if skipped > 0 {
            report.warn(
                rigport_model_core::codes::TRIANGLES_SKIPPED,
                format!(
                    "{skipped} of {total} triangle(s) were not drawn: indices out of range or positions not finite"
                ),
            );
        }
        // Faces are skipped only when every triangle is drawable, so surfaces are whole.
        let outward = self
            .surfaces
            .as_ref()
            .filter(|surfaces| skipped == 0 && surfaces.any())
            .map(|surfaces| surfaces.outward(&meshes));
        Ok(Posed {
            meshes,
            report,
            visible,
            skipped,
            outward,
        })
    }

    /// [`Scene::draw_framed`] of a model already posed ([`Scene::pose`]), for several
    /// cameras of one pose; with `joints` (the skeleton at that pose), each joint as the
    /// picture shows it ([`Picture::joints`]), read from the samples before they are
    /// resolved, whatever the passes.
    pub fn draw_posed(
        &self,
        options: &RenderOptions,
        posed: &Posed<'_>,
        frame: Option<[Vec3; 2]>,
        bands: usize,
        joints: Option<&PosedJoints>,
    ) -> Result<Picture, RenderError> {
        let meshes = &posed.meshes;
        let report = posed.report.clone();
        let visible = &posed.visible;
        let drawable = &visible.triangles;
        let skipped = posed.skipped;

        let (width, height) = (options.width * SUPERSAMPLE, options.height * SUPERSAMPLE);
        let camera = match frame {
            Some([lo, hi]) => {
                let corners: [Vec3; 8] = std::array::from_fn(|i| {
                    Vec3::select(glam::BVec3::new(i & 1 != 0, i & 2 != 0, i & 4 != 0), hi, lo)
                });
                fit_camera(
                    options,
                    self.model.up,
                    || corners.into_iter(),
                    width,
                    height,
                )
            }
            None => fit_camera(
                options,
                self.model.up,
                || visible.points(meshes),
                width,
                height,
            ),
        }
        .ok_or(RenderError::NoDrawableTriangles { skipped })?;
        let screens = on_screen(&camera, meshes);
        let surfaces = self.surfaces.as_ref().zip(posed.outward.as_deref());
        let shown = shown(meshes, visible, surfaces, &screens);
        let batches: Vec<Batch<'_>> = meshes
            .iter()
            .zip(shown.iter())
            .zip(&screens)
            .map(|((mesh, triangles), screen)| self.batch(&camera, mesh, triangles, screen))
            .collect();

        // The target is taken only now, once the pose and the camera (which may use the
        // pool themselves) are done, and given back before the picture is encoded: a
        // thread holds one target at a time.
        with_target(|target| {
            target.reset(width, height, options.background.0);
            let fill = |mut band: Band<'_>| {
                for batch in &batches {
                    match batch.image {
                        Some(image) => {
                            for f in &batch.fills {
                                let [lo, hi] = uv_bounds(&f.attributes);
                                band.triangle(f.corners, f.attributes, |a| {
                                    textured(image, a, lo, hi)
                                });
                            }
                        }
                        None => {
                            for f in &batch.fills {
                                band.triangle(f.corners, f.attributes, levels);
                            }
                        }
                    }
                }
            };
            target.fill(bands, fill);
            if options.wire {
                for (triangles, screen) in drawable.iter().zip(&screens) {
                    for t in triangles {
                        let [a, b, c] = t.map(|i| screen[i as usize]);
                        target.line(a, b, WIRE);
                        target.line(b, c, WIRE);
                        target.line(c, a, WIRE);
                    }
                }
            }
            let passes = options.passes;
            let pose = camera.pose(SUPERSAMPLE);
            let distance = |key: f32| camera.distance(key) as f32;
            // The joints' pixels are read before the colour resolve empties the depths.
            let keypoints = joints.map(|joints| {
                joints.seen_in(&pose, options.width, options.height, |x, y| {
                    target.depth_at(x, y, distance)
                })
            });
            // Depth and mask read the depths after the colour; the normal pass draws again.
            let clear = !(passes.depth || passes.mask);
            let (image, joints) = match keypoints {
                Some(keypoints) => {
                    let shown = camera
                        .is_perspective()
                        .then(|| crate::raster::shown_from(distance))
                        .flatten();
                    let (image, cover) = target.resolve_covered(clear, &distance, shown);
                    let seen = SeenJoints {
                        keypoints,
                        bbox: cover.bbox(),
                        area: cover.area(),
                    };
                    (image, Some(seen))
                }
                None => (target.resolve(clear), None),
            };
            let depth = passes.depth.then(|| target.resolve_depth(distance));
            let mask = passes.mask.then(|| target.resolve_mask());
            let normal = passes.normal.then(|| {
                crate::passes::draw_normals(&camera, meshes, &shown, &screens, target, bands)
            });
            Ok(Picture {
                image,
                report,
                depth,
                normal,
                mask,
                camera: Some(pose),
                joints,
            })
        })
    }

    /// The fills of `triangles` (all drawable) of `mesh`, whose vertices are at `screen`:
    /// each corner's texture coordinates and light when the mesh is textured, else its lit
    /// colour in `0..=255`.
    fn batch<'s>(
        &'s self,
        camera: &Camera,
        mesh: &Mesh,
        triangles: &[[u32; 3]],
        screen: &[Projected],
    ) -> Batch<'s> {
        let material_index = mesh.material.map(|id| id.index());
        let fallback = Material::default();
        let material = material_index
            .and_then(|i| self.model.materials.get(i))
            .unwrap_or(&fallback);
        let image = material_index
            .filter(|_| mesh.has_uvs)
            .and_then(|i| self.images.get(i))
            .and_then(Option::as_ref)
            .map(Arc::as_ref);
        let diffuse = material.diffuse.truncate();
        // A corner's attributes from its vertex and light: texture coordinates and light
        // when textured, else the lit colour in `0..=255`.
        let attribute = |vertex: &Vertex, light: f32| match image {
            Some(_) => Vec4::new(vertex.uv.x, vertex.uv.y, light, 0.0),
            None => {
                let base = if mesh.has_colors {
                    vertex.color.truncate()
                } else {
                    diffuse
                };
                (base * (light * 255.0)).extend(0.0)
            }
        };
        // Each used vertex's light from its own normal and its attributes, once per vertex
        // rather than per corner; NaN light where the normal is unusable and each triangle
        // takes its face's instead.
        let mut per_vertex = vec![(f32::NAN, Vec4::ZERO); mesh.vertices.len()];
        for &i in triangles.iter().flatten() {
            let slot = &mut per_vertex[i as usize];
            if slot.0.is_nan() {
                let vertex = &mesh.vertices[i as usize];
                let light = vertex_lambert(camera, vertex);
                *slot = (light, attribute(vertex, light));
            }
        }
        let fills = triangles
            .iter()
            .map(|t| {
                let corners = t.map(|i| per_vertex[i as usize]);
                let attributes = if corners.iter().any(|(light, _)| light.is_nan()) {
                    let vertices = t.map(|i| &mesh.vertices[i as usize]);
                    let light = lights(camera, vertices, corners.map(|(light, _)| light));
                    [0, 1, 2].map(|i| attribute(vertices[i], light[i]))
                } else {
                    corners.map(|(_, attribute)| attribute)
                };
                Fill {
                    corners: t.map(|i| screen[i as usize]),
                    attributes,
                }
            })
            .collect();
        Batch { image, fills }
    }
}

/// Every vertex of `meshes` projected by `camera`, mesh by mesh.
fn on_screen(camera: &Camera, meshes: &[Mesh]) -> Vec<Vec<Projected>> {
    meshes
        .iter()
        .map(|m| {
            m.vertices
                .iter()
                .map(|v| camera.project(v.position))
                .collect()
        })
        .collect()
}

/// The triangles to fill: the drawable ones, less the faces of closed surfaces turned
/// away from the camera when that is exact (see [`crate::closed`]): the pose gave each
/// surface's `outward` winding (every triangle drawable, so the surfaces are whole), and
/// every vertex lies in front of the eye.
fn shown<'d>(
    meshes: &[Mesh],
    visible: &'d Drawable,
    surfaces: Option<(&Surfaces, &[Outward])>,
    screens: &[Vec<Projected>],
) -> Cow<'d, [Vec<[u32; 3]>]> {
    let all = Cow::Borrowed(visible.triangles.as_slice());
    let Some((surfaces, outward)) = surfaces else {
        return all;
    };
    let in_front = screens.iter().zip(&visible.used).all(|(screen, used)| {
        screen
            .iter()
            .zip(used)
            .all(|(p, &used)| !used || (p.inv_w.is_finite() && p.inv_w > 0.0))
    });
    if !in_front {
        return all;
    }
    let shown = meshes
        .iter()
        .zip(screens)
        .enumerate()
        .map(|(m, (mesh, screen))| {
            mesh.triangles
                .iter()
                .enumerate()
                .filter(|&(k, t)| {
                    let Some(s) = surfaces.of_triangle(m, k) else {
                        return true;
                    };
                    let [a, b, c] = t.map(|i| screen[i as usize]);
                    // Twice the signed area on screen (y down): negative for a triangle
                    // counter-clockwise as seen.
                    let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
                    // Kept unless turned away; NaN is kept.
                    let away = match outward[s] {
                        Outward::CounterClockwise => area > 0.0,
                        Outward::Clockwise => area < 0.0,
                        Outward::Unknown => false,
                    };
                    !away
                })
                .map(|(_, t)| *t)
                .collect()
        })
        .collect();
    Cow::Owned(shown)
}

/// A model in one pose, with what every camera of that pose shares ([`Scene::pose`]).
pub(crate) struct Posed<'s> {
    meshes: Cow<'s, [Mesh]>,
    /// What posing warned about, and triangles that cannot be drawn.
    report: Report,
    visible: Drawable,
    /// How many triangles cannot be drawn.
    skipped: usize,
    /// Each closed surface's outward winding, when faces turned away may be skipped.
    outward: Option<Vec<Outward>>,
}

/// The triangles of one mesh, ready to fill, and the image that textures them.
struct Batch<'s> {
    image: Option<&'s RgbaImage>,
    fills: Vec<Fill>,
}

/// One triangle on screen with its corners' attributes (see [`Scene::batch`]).
struct Fill {
    corners: [Projected; 3],
    attributes: [Vec4; 3],
}

/// Per mesh, the triangles that can be drawn (indices in range, finite positions) and which
/// vertices they use: the camera fits those, so a stray unused vertex cannot shrink the
/// picture.
struct Drawable {
    triangles: Vec<Vec<[u32; 3]>>,
    used: Vec<Vec<bool>>,
    /// Every triangle, drawable or not.
    total: usize,
}

impl Drawable {
    fn of(meshes: &[Mesh]) -> Self {
        let mut total = 0usize;
        let mut triangles = Vec::with_capacity(meshes.len());
        let mut used = Vec::with_capacity(meshes.len());
        for mesh in meshes {
            total += mesh.triangles.len();
            let finite: Vec<bool> = mesh
                .vertices
                .iter()
                .map(|v| v.position.is_finite())
                .collect();
            let ok = |i: u32| finite.get(i as usize).copied().unwrap_or(false);
            let list: Vec<[u32; 3]> = mesh
                .triangles
                .iter()
                .filter(|t| t.iter().all(|&i| ok(i)))
                .copied()
                .collect();
            let mut mask = vec![false; mesh.vertices.len()];
            for &i in list.iter().flatten() {
                mask[i as usize] = true;
            }
            triangles.push(list);
            used.push(mask);
        }
        Self {
            triangles,
            used,
            total,
        }
    }

    /// The positions of the used vertices of `meshes`.
    fn points<'m>(&'m self, meshes: &'m [Mesh]) -> impl Iterator<Item = Vec3> + 'm {
        meshes.iter().zip(&self.used).flat_map(|(m, mask)| {
            m.vertices
                .iter()
                .zip(mask)
                .filter(|(_, used)| **used)
                .map(|(v, _)| v.position)
        })
    }
}

/// The camera of `options` (its orbit, else its named view) fitted to `points`.
fn fit_camera<I: Iterator<Item = Vec3>>(
    options: &RenderOptions,
    up: rigport_model_core::UpAxis,
    points: impl Fn() -> I,
    width: u32,
    height: u32,
) -> Option<Camera> {
    match options.orbit {
        Some(orbit) => Camera::orbit(orbit, up, points, width, height),
        None => Camera::fit(options.view, up, points, width, height),
    }
}

/// The smallest and largest texture coordinates of a textured fill's corners: a sample's
/// interpolated coordinates are kept within them, so rounding at an edge cannot wrap to
/// the far side of the image.
fn uv_bounds(attributes: &[Vec4; 3]) -> [[f32; 2]; 2] {
    let [a, b, c] = attributes;
    [
        [a.x.min(b.x).min(c.x), a.y.min(b.y).min(c.y)],
        [a.x.max(b.x).max(c.x), a.y.max(b.y).max(c.y)],
    ]
}

/// A textured sample: interpolated `[u, v, light]` to a colour.
#[inline]
fn textured(image: &RgbaImage, a: Vec4, lo: [f32; 2], hi: [f32; 2]) -> [u8; 4] {
    // `max`/`min` (not `clamp`) so NaN bounds from a hostile file cannot panic.
    let u = a.x.max(lo[0]).min(hi[0]);
    let v = a.y.max(lo[1]).min(hi[1]);
    let [r, g, b] = sample(image, u, v);
    levels(Vec4::new(f32::from(r), f32::from(g), f32::from(b), 0.0) * a.z)
}

/// Lambert with the light at the camera, both faces lit alike (real files' winding is
/// inconsistent): ambient plus the rest by the cosine between `normal` and the direction
/// to the camera from `at`.
fn lambert(camera: &Camera, normal: Vec3, at: Vec3) -> f32 {
    let cos = normal.dot(camera.towards_camera(at)).abs();
    let cos = if cos.is_finite() { cos.min(1.0) } else { 0.0 };
    AMBIENT + (1.0 - AMBIENT) * cos
}

/// A vertex's light from its own normal, or NaN when the normal is unusable (not finite
/// or too short to be a direction).
fn vertex_lambert(camera: &Camera, vertex: &Vertex) -> f32 {
    let n = vertex.normal;
    if n.is_finite() && n.length_squared() > 0.25 {
        lambert(camera, n.normalize(), vertex.position)
    } else {
        f32::NAN
    }
}

/// Each corner's light: its vertex's (`per_vertex`, from [`vertex_lambert`]) where the
/// vertex normal is usable, else from the face normal.
fn lights(camera: &Camera, v: [&Vertex; 3], per_vertex: [f32; 3]) -> [f32; 3] {
    if !per_vertex.iter().any(|l| l.is_nan()) {
        return per_vertex;
    }
    let face = (v[1].position - v[0].position)
        .cross(v[2].position - v[0].position)
        .normalize_or_zero();
    [0, 1, 2].map(|i| {
        if per_vertex[i].is_nan() {
            lambert(camera, face, v[i].position)
        } else {
            per_vertex[i]
        }
    })
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod watertight;
