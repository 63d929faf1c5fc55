//! One picture: pose the model, fit the camera, shade and fill every triangle, overlay the
//! wire, filter down.

use crate::camera::{Camera, Projected};
use crate::raster::Target;
use crate::texture::{TextureError, TextureSource, sample};
use crate::{PoseAt, RenderError, RenderOptions};
use image::RgbaImage;
use rigport_model_core::{Material, Mesh, Model, Report};
use std::borrow::Cow;
use std::sync::Arc;

/// Samples per output pixel in each direction.
pub const SUPERSAMPLE: u32 = 2;
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
}

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

/// What a texture source gave for one reference.
type Loaded = Result<Arc<RgbaImage>, TextureError>;

/// A model with its materials' images resolved, ready to be drawn at any pose.
pub(crate) struct Scene<'a> {
    model: &'a Model,
    images: Vec<Option<Arc<RgbaImage>>>,
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
                report.warn(
                    "texture-unavailable",
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
            report,
        })
    }

    pub fn model(&self) -> &Model {
        self.model
    }

    /// Draws the model at `pose` (texture warnings are in [`Scene::report`], not here).
    pub fn draw(&self, options: &RenderOptions, pose: PoseAt) -> Result<Picture, RenderError> {
        let mut report = Report::default();
        let meshes: Cow<'_, [Mesh]> = match pose.resolve(self.model) {
            PoseAt::Animation { index, time } => {
                let (meshes, pose_report) = rigport_anim::posed_meshes(self.model, index, time)?;
                report.notices.extend(pose_report.notices);
                Cow::Owned(meshes)
            }
            _ => Cow::Borrowed(&self.model.meshes),
        };

        // Per mesh: the drawable triangles, and which vertices they use (the camera fits
        // those, so a stray unused vertex cannot shrink the picture).
        let mut total = 0usize;
        let mut drawable: Vec<Vec<[u32; 3]>> = Vec::with_capacity(meshes.len());
        let mut used: Vec<Vec<bool>> = Vec::with_capacity(meshes.len());
        for mesh in meshes.iter() {
            total += mesh.triangles.len();
            let mut mask = vec![false; mesh.vertices.len()];
            let list: Vec<[u32; 3]> = mesh
                .triangles
                .iter()
                .filter(|t| corners(mesh, t).is_some())
                .copied()
                .collect();
            for &i in list.iter().flatten() {
                mask[i as usize] = true;
            }
            drawable.push(list);
            used.push(mask);
        }
        let skipped = total - drawable.iter().map(Vec::len).sum::<usize>();
        if skipped == total {
            return Err(RenderError::NoDrawableTriangles { skipped });
        }
        if skipped > 0 {
            report.warn(
                "triangles-skipped",
                format!(
                    "{skipped} of {total} triangle(s) were not drawn: indices out of range or positions not finite"
                ),
            );
        }

        let (width, height) = (options.width * SUPERSAMPLE, options.height * SUPERSAMPLE);
        let points = || {
            meshes.iter().zip(&used).flat_map(|(m, mask)| {
                m.vertices
                    .iter()
                    .zip(mask)
                    .filter(|(_, used)| **used)
                    .map(|(v, _)| v.position)
            })
        };
        let camera = Camera::fit(options.view, points, width, height)
            .ok_or(RenderError::NoDrawableTriangles { skipped })?;
        let screens: Vec<Vec<Projected>> = meshes
            .iter()
            .map(|m| {
                m.vertices
                    .iter()
                    .map(|v| camera.project(v.position))
                    .collect()
            })
            .collect();
        let mut target = Target::new(width, height, options.background.0);
        for ((mesh, triangles), screen) in meshes.iter().zip(&drawable).zip(&screens) {
            self.fill_mesh(&mut target, &camera, mesh, triangles, screen);
        }
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
        Ok(Picture {
            image: target.resolve(SUPERSAMPLE),
            report,
        })
    }

    /// Fills `triangles` (all drawable) of `mesh`, whose vertices are at `screen`.
    fn fill_mesh(
        &self,
        target: &mut Target,
        camera: &Camera,
        mesh: &Mesh,
        triangles: &[[u32; 3]],
        screen: &[Projected],
    ) {
        let material_index = mesh.material.map(|id| id.index());
        let fallback = Material::default();
        let material = material_index
            .and_then(|i| self.model.materials.get(i))
            .unwrap_or(&fallback);
        let image = material_index
            .filter(|_| mesh.has_uvs)
            .and_then(|i| self.images.get(i))
            .and_then(Option::as_ref);
        let diffuse = material.diffuse.truncate();
        for t in triangles {
            let Some(vertices) = corners(mesh, t) else {
                continue;
            };
            let projected = t.map(|i| screen[i as usize]);
            let light = lights(camera, vertices);
            match image {
                Some(image) => {
                    let uv = vertices.map(|v| v.uv);
                    target.triangle(projected, |w| {
                        let at = uv[0] * w[0] + uv[1] * w[1] + uv[2] * w[2];
                        let l = light[0] * w[0] + light[1] * w[1] + light[2] * w[2];
                        sample(image, at.x, at.y).map(|c| c * l)
                    });
                }
                None => {
                    let colour = |i: usize| {
                        let base = if mesh.has_colors {
                            vertices[i].color.truncate()
                        } else {
                            diffuse
                        };
                        base * light[i]
                    };
                    let lit = [colour(0), colour(1), colour(2)];
                    target.triangle(projected, |w| {
                        (lit[0] * w[0] + lit[1] * w[1] + lit[2] * w[2]).to_array()
                    });
                }
            }
        }
    }
}

/// The three vertices of a triangle, or `None` when an index is out of range or a position
/// is not finite.
fn corners<'m>(mesh: &'m Mesh, t: &[u32; 3]) -> Option<[&'m rigport_model_core::Vertex; 3]> {
    let get = |i: u32| {
        mesh.vertices
            .get(i as usize)
            .filter(|v| v.position.is_finite())
    };
    Some([get(t[0])?, get(t[1])?, get(t[2])?])
}

/// Lambert with the light at the camera, both faces lit alike (real files' winding is
/// inconsistent), per corner: the vertex normal where it is usable, else the face normal.
fn lights(camera: &Camera, v: [&rigport_model_core::Vertex; 3]) -> [f32; 3] {
    let face = (v[1].position - v[0].position)
        .cross(v[2].position - v[0].position)
        .normalize_or_zero();
    v.map(|vertex| {
        let n = vertex.normal;
        let n = if n.is_finite() && n.length_squared() > 0.25 {
            n.normalize()
        } else {
            face
        };
        let cos = n.dot(camera.towards_camera(vertex.position)).abs();
        let cos = if cos.is_finite() { cos.min(1.0) } else { 0.0 };
        AMBIENT + (1.0 - AMBIENT) * cos
    })
}
