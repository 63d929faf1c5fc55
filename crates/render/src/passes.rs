//! The normal pass: the same triangles from the same camera, each sample coloured by its
//! interpolated camera-space normal instead of its lit colour.

use crate::camera::{Camera, Projected};
use crate::raster::{Band, Target, levels};
use glam::{Vec3, Vec4};
use image::RgbImage;
use rigport_model_core::Mesh;

/// Draws the normals of `meshes`' `drawable` triangles (vertices on screen at `screens`)
/// into `target` (reset first) in about `bands` bands, and filters it down: camera-space
/// unit normals turned towards the camera, as `(n + 1) / 2 · 255`, black background.
pub(crate) fn draw_normals(
    camera: &Camera,
    meshes: &[Mesh],
    drawable: &[Vec<[u32; 3]>],
    screens: &[Vec<Projected>],
    target: &mut Target,
    bands: usize,
) -> RgbImage {
    let fills: Vec<([Projected; 3], [Vec4; 3])> = meshes
        .iter()
        .zip(drawable)
        .zip(screens)
        .flat_map(|((mesh, triangles), screen)| {
            let normals: Vec<Option<Vec3>> = mesh
                .vertices
                .iter()
                .map(|v| {
                    let n = v.normal;
                    (n.is_finite() && n.length_squared() > 0.25).then(|| n.normalize())
                })
                .collect();
            triangles.iter().map(move |t| {
                let positions = t.map(|i| mesh.vertices[i as usize].position);
                let face = (positions[1] - positions[0])
                    .cross(positions[2] - positions[0])
                    .normalize_or_zero();
                let attributes = [0, 1, 2].map(|k| {
                    let n = normals[t[k] as usize].unwrap_or(face);
                    let n = if n.dot(camera.towards_camera(positions[k])) < 0.0 {
                        -n
                    } else {
                        n
                    };
                    camera.to_camera_space(n).extend(0.0)
                });
                (t.map(|i| screen[i as usize]), attributes)
            })
        })
        .collect();
    let (width, height) = (target.width(), target.height());
    target.reset(width, height, [0; 3]);
    let fill = |mut band: Band<'_>| {
        for (corners, attributes) in &fills {
            band.triangle(*corners, *attributes, shade_normal);
        }
    };
    target.fill(bands, fill);
    let rgba = target.resolve(true);
    let rgb = crate::encode::rgb_of(rgba.as_raw());
    RgbImage::from_raw(rgba.width(), rgba.height(), rgb)
        .unwrap_or_else(|| RgbImage::new(rgba.width(), rgba.height()))
}

/// An interpolated normal, renormalized, to `(n + 1) / 2 · 255`.
#[inline]
fn shade_normal(a: Vec4) -> [u8; 4] {
    let n = a.truncate().normalize_or_zero();
    levels(((n + Vec3::ONE) * 127.5).extend(0.0))
}
