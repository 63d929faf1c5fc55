//! Pictures of files (`rigport_dataset::picture`): goldens per fixture (compared
//! with a tolerance), the README's contact sheet, and front-view silhouettes of every corpus
//! model against an independent projection. The command line is tested in `rigport-cli`.
//!
//! `RIGPORT_UPDATE_GOLDENS=1` (set by `cargo xtask golden`) rewrites the PNGs beyond the
//! tolerance instead of comparing them; a golden the test accepts is left as it is, whatever
//! this machine's rounding or encoder would write.

use rigport::document::Document;
use rigport_dataset::picture::{PictureRequest, render_png};
use rigport_model_core::glam::DVec2;
use rigport_model_core::{Mesh, Model, ReadOptions, UpAxis};
use rigport_render::image;
use rigport_render::{NoTextures, RenderError, RenderOptions, Rgb, View, render};
use rigport_test_support::fixtures::{READABLE, file_name, readable_fixtures};
use rigport_test_support::workspace_root as repo_root;
use std::path::{Path, PathBuf};

/// Golden pictures of the fixtures.
const GOLDEN_DIR: &str = "crates/dataset/tests/render_goldens";
/// The README's contact sheet.
const README_SHEET: &str = "docs/images/rig_full_sheet.png";

fn updating() -> bool {
    std::env::var_os("RIGPORT_UPDATE_GOLDENS").is_some_and(|v| v == "1")
}

/// The goldens' tolerance (`rigport_test_support::png::close`: at most 1 % of pixels more
/// than 8 levels off), with a message naming the golden.
fn assert_close(png: &[u8], golden_path: &Path) {
    let golden = std::fs::read(golden_path)
        .unwrap_or_else(|e| panic!("{}: {e} (run `cargo xtask golden`)", golden_path.display()));
    let differing = rigport_test_support::png::differing_pixels(png, &golden);
    assert!(
        rigport_test_support::png::close(png, &golden),
        "{}: (differing pixels, total) {differing:?}: beyond 1 % more than 8 levels off, or other dimensions (run `cargo xtask golden` if the change is intended)",
        golden_path.display()
    );
}

/// Updating, writes `png` only when it is beyond the tolerance of the golden (so another
/// machine's rounding or encoder leaves an accepted golden as it is); else compares with
/// the tolerance.
fn check_or_write(png: &[u8], path: &Path) {
    if updating() {
        if rigport_test_support::png::write_unless_close(path, png).unwrap() {
            println!("wrote {}", path.display());
        }
    } else {
        assert_close(png, path);
    }
}

fn golden_path(fixture: &Path) -> PathBuf {
    let format = fixture.parent().unwrap().file_name().unwrap();
    let mut name = fixture.file_stem().unwrap().to_os_string();
    name.push(".png");
    repo_root().join(GOLDEN_DIR).join(format).join(name)
}

#[test]
fn fixture_goldens() {
    let request = PictureRequest {
        options: RenderOptions {
            width: 128,
            height: 128,
            wire: true,
            ..RenderOptions::default()
        },
        ..PictureRequest::default()
    };
    let (mut drawn, mut refused) = (0, 0);
    for fixture in readable_fixtures() {
        let path = repo_root().join(&fixture);
        let bytes = std::fs::read(&path).unwrap();
        let golden = golden_path(&fixture);
        match render_png(&bytes, path.parent().unwrap(), &request) {
            Ok((png, _)) => {
                check_or_write(&png, &golden);
                drawn += 1;
            }
            Err(error) => {
                // Skeleton- or animation-only fixtures: the typed error, and no golden.
                assert!(
                    matches!(
                        error,
                        rigport_dataset::Error::Render(RenderError::NoTriangles)
                    ),
                    "{}: {error}",
                    fixture.display()
                );
                assert!(!golden.exists(), "stale golden {}", golden.display());
                refused += 1;
            }
        }
    }
    println!("{drawn} fixtures drawn, {refused} without triangles");
    assert!(drawn >= 30, "{drawn}");
}

#[test]
fn readme_contact_sheet() {
    let path = repo_root().join("fixtures/ms3d/rig_full.ms3d");
    let request = PictureRequest {
        options: RenderOptions {
            width: 160,
            height: 160,
            view: View::Iso,
            ..RenderOptions::default()
        },
        sheet: Some(6),
        ..PictureRequest::default()
    };
    let (png, _) = render_png(
        &std::fs::read(&path).unwrap(),
        path.parent().unwrap(),
        &request,
    )
    .unwrap();
    let sheet = image::load_from_memory(&png).unwrap();
    assert_eq!((sheet.width(), sheet.height()), (480, 320));
    check_or_write(&png, &repo_root().join(README_SHEET));
}

fn read_model(path: &Path) -> Option<Model> {
    let bytes = std::fs::read(path).ok()?;
    let (document, _) = Document::sniff_and_read(&bytes, &ReadOptions::default()).ok()?;
    document.to_model().ok().map(|(model, _)| model)
}

const MAGENTA: Rgb = Rgb([255, 0, 255]);

/// Which pixels of a `width`×`height` front view the posed triangles cover, computed
/// independently of the renderer: turn a Z-up model's positions upright (`(x, y, z) →
/// (x, z, −y)`, written out here rather than taken from the library), fit the XY bounds of
/// the drawable vertices into 90 % of the picture (centred, +Y up), mark every 2×2
/// sub-sample centre inside a triangle, and call a pixel covered when any of its
/// sub-samples is.
fn projected_coverage(meshes: &[Mesh], up: UpAxis, width: u32, height: u32) -> Vec<bool> {
    let upright = |p: rigport_model_core::glam::DVec3| match up {
        UpAxis::Z => rigport_model_core::glam::DVec3::new(p.x, p.z, -p.y),
        UpAxis::Y => p,
    };
    let (w2, h2) = (f64::from(width * 2), f64::from(height * 2));
    let drawable = |m: &Mesh, t: &[u32; 3]| {
        t.iter().all(|&i| {
            m.vertices
                .get(i as usize)
                .is_some_and(|v| v.position.is_finite())
        })
    };
    let (mut lo, mut hi) = (DVec2::INFINITY, DVec2::NEG_INFINITY);
    for m in meshes {
        for t in m.triangles.iter().filter(|t| drawable(m, t)) {
            for &i in t {
                let p = upright(m.vertices[i as usize].position.as_dvec3()).truncate();
                lo = lo.min(p);
                hi = hi.max(p);
            }
        }
    }
    let extent = hi - lo;
    let fit = |size: f64, e: f64| {
        if e > 0.0 {
            0.9 * size / e
        } else {
            f64::INFINITY
        }
    };
    let mut scale = fit(w2, extent.x).min(fit(h2, extent.y));
    if !scale.is_finite() {
        scale = 1.0;
    }
    let centre = (lo + hi) * 0.5;
    let mut samples = vec![false; (width * 2 * height * 2) as usize];
    for m in meshes {
        for t in m.triangles.iter().filter(|t| drawable(m, t)) {
            let [a, b, c] = t.map(|i| {
                let p = upright(m.vertices[i as usize].position.as_dvec3());
                DVec2::new(
                    w2 / 2.0 + (p.x - centre.x) * scale,
                    h2 / 2.0 - (p.y - centre.y) * scale,
                )
            });
            let area = (b - a).perp_dot(c - a);
            if area == 0.0 || !area.is_finite() {
                continue;
            }
            let min = a.min(b).min(c).max(DVec2::ZERO);
            let max = a.max(b).max(c).min(DVec2::new(w2, h2));
            for y in (min.y as u32)..(max.y.ceil() as u32).min(height * 2) {
                for x in (min.x as u32)..(max.x.ceil() as u32).min(width * 2) {
                    let p = DVec2::new(f64::from(x) + 0.5, f64::from(y) + 0.5);
                    let d = [
                        (b - a).perp_dot(p - a),
                        (c - b).perp_dot(p - b),
                        (a - c).perp_dot(p - c),
                    ];
                    if d.iter().all(|&v| v >= 0.0) || d.iter().all(|&v| v <= 0.0) {
                        samples[(y * width * 2 + x) as usize] = true;
                    }
                }
            }
        }
    }
    (0..height)
        .flat_map(|y| (0..width).map(move |x| (x, y)))
        .map(|(x, y)| {
            [(0, 0), (1, 0), (0, 1), (1, 1)]
                .iter()
                .any(|(dx, dy)| samples[((y * 2 + dy) * width * 2 + x * 2 + dx) as usize])
        })
        .collect()
}

#[test]
fn corpus_front_silhouettes_match_the_projected_triangles() {
    let mut checked = 0;
    let Some(files) = rigport_test_support::corpus::corpus_files(&READABLE) else {
        return;
    };
    {
        for path in files {
            let Some(model) = read_model(&path) else {
                continue;
            };
            let options = RenderOptions {
                width: 128,
                height: 96,
                view: View::Front,
                background: MAGENTA,
                ..RenderOptions::default()
            };
            let picture = match render(&model, &options, &NoTextures) {
                Ok(picture) => picture,
                Err(e @ (RenderError::NoTriangles | RenderError::Pose(_))) => {
                    println!("{}: {e}", file_name(&path));
                    continue;
                }
                Err(e) => panic!("{}: {e}", path.display()),
            };
            // The default pose: the first frame of the first animation, else the bind pose.
            let posed = if model.animations.is_empty() {
                model.meshes.clone()
            } else {
                rigport_anim::posed_meshes(&model, 0, 0.0).unwrap().0
            };
            let expected = projected_coverage(&posed, model.up, 128, 96);
            let actual: Vec<bool> = picture
                .image
                .pixels()
                .map(|p| p.0[..3] != MAGENTA.0[..])
                .collect();
            let iou = iou(&expected, &actual);
            println!("{}: IoU {iou:.4}", file_name(&path));
            assert!(iou >= 0.95, "{}: IoU {iou}", path.display());
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} corpus models drawn");
}

/// Intersection over union of two masks; 1 when both are empty (a model of degenerate
/// triangles only covers nothing, in both).
fn iou(expected: &[bool], actual: &[bool]) -> f64 {
    let both = expected
        .iter()
        .zip(actual)
        .filter(|(e, a)| **e && **a)
        .count();
    let either = expected
        .iter()
        .zip(actual)
        .filter(|(e, a)| **e || **a)
        .count();
    if either == 0 {
        1.0
    } else {
        both as f64 / either as f64
    }
}

/// `rigport render --view front` of every IQE and IQM corpus model (Z-up files) through
/// the facade, as the command draws it, against the silhouette of its triangles turned
/// upright by hand; and the same model's triangles projected as stored (lying down) do not
/// match, so the comparison can tell the two apart.
#[test]
fn z_up_models_are_drawn_upright_in_the_front_view() {
    let Some(files) = rigport_test_support::corpus::corpus_files(&["iqe", "iqm"]) else {
        return;
    };
    let request = PictureRequest {
        options: RenderOptions {
            width: 128,
            height: 128,
            view: View::Front,
            background: MAGENTA,
            ..RenderOptions::default()
        },
        ..PictureRequest::default()
    };
    let (mut checked, mut told_apart) = (0, 0);
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let Ok((png, _)) = render_png(&bytes, path.parent().unwrap(), &request) else {
            continue;
        };
        let model = read_model(&path).unwrap();
        assert_eq!(model.up, UpAxis::Z, "{}", path.display());
        let posed = if model.animations.is_empty() {
            model.meshes.clone()
        } else {
            rigport_anim::posed_meshes(&model, 0, 0.0).unwrap().0
        };
        let actual: Vec<bool> = image::load_from_memory(&png)
            .unwrap()
            .into_rgba8()
            .pixels()
            .map(|p| p.0[..3] != MAGENTA.0[..])
            .collect();
        let upright = iou(&projected_coverage(&posed, UpAxis::Z, 128, 128), &actual);
        let lying = iou(&projected_coverage(&posed, UpAxis::Y, 128, 128), &actual);
        println!(
            "{}: IoU upright {upright:.4}, as stored {lying:.4}",
            file_name(&path)
        );
        assert!(upright >= 0.9, "{}: IoU {upright}", path.display());
        if lying < 0.9 {
            told_apart += 1;
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} Z-up corpus models drawn");
    assert!(
        told_apart * 2 >= checked,
        "the stored projection matched too often ({told_apart} of {checked} told apart)"
    );
}
