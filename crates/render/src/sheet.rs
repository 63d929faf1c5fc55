//! Contact sheets: frames spread evenly over an animation, in a grid of equal cells.

use crate::draw::{Picture, Scene, bands_for};
use crate::texture::TextureSource;
use crate::{MAX_SHEET_PIXELS, PoseAt, RenderError, RenderOptions};
use image::RgbaImage;
use rayon::prelude::*;
use rigport_anim::PoseError;
use rigport_model_core::Model;

/// Columns and rows of a sheet of `frames` cells: as square as possible, filled row by row.
pub fn sheet_grid(frames: u32) -> (u32, u32) {
    let frames = frames.max(1);
    let mut columns = (f64::from(frames).sqrt().ceil() as u32).max(1);
    while columns > 1 && (columns - 1) * (columns - 1) >= frames {
        columns -= 1;
    }
    (columns, frames.div_ceil(columns))
}

/// The times, in seconds, of the `frames` cells of a sheet over an animation lasting
/// `period` seconds: a looping animation's cells split the cycle evenly (the last frame
/// would repeat the first), a one-shot animation's run from its start to its end.
pub fn sheet_times(period: f32, looping: bool, frames: u32) -> Vec<f32> {
    let period = if period.is_finite() && period > 0.0 {
        period
    } else {
        0.0
    };
    let steps = if looping || frames < 2 {
        frames.max(1)
    } else {
        frames - 1
    };
    (0..frames)
        .map(|i| period * (i as f32 / steps as f32))
        .collect()
}

/// Draws `frames` poses of one animation into one picture: a grid (see [`sheet_grid`]) of
/// cells of `options.width`×`options.height`, each fitted to the model as posed at its time
/// (see [`sheet_times`]), left to right, top to bottom. The animation is the one
/// `options.pose` names (its time is ignored); [`PoseAt::Auto`] and [`PoseAt::Bind`] mean the
/// first. Cells are drawn on all available cores (rayon's pool).
pub fn render_sheet(
    model: &Model,
    options: &RenderOptions,
    frames: u32,
    textures: &dyn TextureSource,
) -> Result<Picture, RenderError> {
    options.check_size()?;
    // A sheet is one colour picture: extra passes are not drawn for its cells.
    let options = &RenderOptions {
        passes: crate::Passes::default(),
        ..*options
    };
    let (columns, rows) = sheet_grid(frames);
    let pixels = u64::from(columns * options.width) * u64::from(rows * options.height);
    if frames == 0 || frames > 4096 || pixels > MAX_SHEET_PIXELS {
        return Err(RenderError::BadSheet {
            frames,
            width: options.width,
            height: options.height,
        });
    }
    let index = match options.pose {
        PoseAt::Animation { index, .. } => index,
        PoseAt::Auto | PoseAt::Bind => 0,
    };
    let scene = Scene::new(model, textures)?.skipping_hidden_faces();
    let animation = match scene.model().animations.get(index) {
        Some(a) => a,
        None if model.animations.is_empty() => return Err(RenderError::NoAnimation),
        None => {
            return Err(RenderError::Pose(PoseError::NoSuchAnimation {
                index,
                count: model.animations.len(),
            }));
        }
    };
    let times = sheet_times(animation.end_time(), animation.looping, frames);

    // Cells are drawn in parallel, reusing the kept targets; a cell is split into
    // bands of rows only when there are fewer cells than cores.
    let bands = bands_for(times.len());
    let cells: Vec<Result<Picture, RenderError>> = times
        .par_iter()
        .map(|&time| scene.draw_into(options, PoseAt::Animation { index, time }, bands))
        .collect();

    let mut image = RgbaImage::from_pixel(
        columns * options.width,
        rows * options.height,
        image::Rgba([
            options.background.0[0],
            options.background.0[1],
            options.background.0[2],
            255,
        ]),
    );
    let mut report = scene.report.clone();
    for (i, cell) in cells.into_iter().enumerate() {
        let cell = cell?;
        let (column, row) = (i as u32 % columns, i as u32 / columns);
        image::imageops::replace(
            &mut image,
            &cell.image,
            i64::from(column * options.width),
            i64::from(row * options.height),
        );
        // Every cell repeats the same animation fixes: keep each notice once.
        for notice in cell.report.notices {
            if !report.notices.contains(&notice) {
                report.notices.push(notice);
            }
        }
    }
    Ok(Picture {
        image,
        report,
        depth: None,
        normal: None,
        mask: None,
        camera: None,
        joints: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_are_nearly_square_and_hold_every_frame() {
        assert_eq!(sheet_grid(1), (1, 1));
        assert_eq!(sheet_grid(2), (2, 1));
        assert_eq!(sheet_grid(4), (2, 2));
        assert_eq!(sheet_grid(5), (3, 2));
        assert_eq!(sheet_grid(16), (4, 4));
        assert_eq!(sheet_grid(17), (5, 4));
        for n in 1..200 {
            let (c, r) = sheet_grid(n);
            assert!(c * r >= n && c * (r - 1) < n && c >= r, "{n}");
        }
    }

    #[test]
    fn times_cover_the_animation() {
        assert_eq!(sheet_times(2.0, false, 3), vec![0.0, 1.0, 2.0]);
        assert_eq!(sheet_times(2.0, true, 4), vec![0.0, 0.5, 1.0, 1.5]);
        assert_eq!(sheet_times(2.0, false, 1), vec![0.0]);
        assert_eq!(sheet_times(f32::NAN, false, 2), vec![0.0, 0.0]);
    }
}
