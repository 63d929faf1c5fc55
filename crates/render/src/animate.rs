//! Animated pictures: every frame of an animation drawn from one view and written, one
//! frame at a time, as an animated PNG (APNG), so memory holds one frame whatever the
//! animation's length.

use crate::draw::{Scene, parallel_bands};
use crate::texture::TextureSource;
use crate::{PoseAt, RenderError, RenderOptions};
use glam::Vec3;
use rigport_anim::PoseError;
use rigport_model_core::{Model, Report};

/// Most frames one animated picture may hold.
pub const MAX_ANIMATION_FRAMES: u64 = 10_000;

/// Frame rate used when neither the caller nor the animation gives a usable one.
const DEFAULT_FPS: f32 = 30.0;

/// The times, in seconds, of the frames of an animation lasting `period` seconds at `fps`:
/// a looping animation's `round(period · fps)` frames (the last one would repeat the
/// first), a one-shot animation's `round(period · fps) + 1` from its start to its end;
/// at least one.
pub fn frame_times(period: f32, looping: bool, fps: f32) -> Result<Vec<f32>, RenderError> {
    let period = if period.is_finite() && period > 0.0 {
        f64::from(period)
    } else {
        0.0
    };
    let fps = f64::from(fps);
    let steps = (period * fps).round();
    let count = if looping { steps.max(1.0) } else { steps + 1.0 };
    if !count.is_finite() || count > MAX_ANIMATION_FRAMES as f64 {
        return Err(RenderError::BadFrames {
            frames: if count.is_finite() {
                count as u64
            } else {
                u64::MAX
            },
        });
    }
    Ok((0..count as u32)
        .map(|i| (f64::from(i) / fps) as f32)
        .collect())
}

/// An animated picture and what drawing it warned about.
#[derive(Clone, Debug, PartialEq)]
pub struct Animated {
    /// The APNG file: 8-bit RGB frames, looping forever.
    pub png: Vec<u8>,
    /// How many frames it holds.
    pub frames: u32,
    /// Frames per second it plays at.
    pub fps: f32,
    /// Warnings, each once.
    pub report: Report,
}

/// Draws every frame of one animation of `model` from `options`' camera and writes them
/// as an APNG. The animation is the one `options.pose` names ([`PoseAt::Auto`] and
/// [`PoseAt::Bind`]: the first); frames are sampled at `fps`, by default the animation's own
/// frame rate (30 when it has none), times from [`frame_times`]. One camera draws every
/// frame, fitted to the box around the model in all of them (a contact sheet, instead,
/// fits each cell to its own pose).
pub fn render_apng(
    model: &Model,
    options: &RenderOptions,
    fps: Option<f32>,
    textures: &dyn TextureSource,
) -> Result<Animated, RenderError> {
    options.check_size()?;
    let index = match options.pose {
        PoseAt::Animation { index, .. } => index,
        PoseAt::Auto | PoseAt::Bind => 0,
    };
    let scene = Scene::new(model, textures)?.skipping_hidden_faces();
    let animation = match model.animations.get(index) {
        Some(a) => a,
        None if model.animations.is_empty() => return Err(RenderError::NoAnimation),
        None => {
            return Err(RenderError::Pose(PoseError::NoSuchAnimation {
                index,
                count: model.animations.len(),
            }));
        }
    };
    let usable = |f: f32| f.is_finite() && f > 0.0;
    let fps = fps
        .filter(|f| usable(*f))
        .or(Some(animation.fps).filter(|f| usable(*f)))
        .unwrap_or(DEFAULT_FPS);
    let times = frame_times(animation.end_time(), animation.looping, fps)?;
    let options = RenderOptions {
        passes: crate::Passes::default(),
        ..*options
    };
    let frames = times.len() as u32;
    let (num, den) = frame_delay(fps);
    let mut png = Vec::new();
    let mut report = scene.report.clone();
    {
        let mut encoder = png::Encoder::new(&mut png, options.width, options.height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Fast);
        encoder.set_animated(frames, 0).map_err(apng_error)?;
        encoder.set_frame_delay(num, den).map_err(apng_error)?;
        let mut writer = encoder.write_header().map_err(apng_error)?;
        // One camera for every frame, fitted to the box around all of them: a character
        // walks across a still frame instead of the frame following each pose.
        let mut frame: Option<[Vec3; 2]> = None;
        for &time in &times {
            if let Some([lo, hi]) = scene.posed_bounds(PoseAt::Animation { index, time })? {
                frame = Some(frame.map_or([lo, hi], |[a, b]| [a.min(lo), b.max(hi)]));
            }
        }
        for &time in &times {
            let picture = scene.draw_framed(
                &options,
                PoseAt::Animation { index, time },
                frame,
                parallel_bands(),
            )?;
            for notice in picture.report.notices {
                if !report.notices.contains(&notice) {
                    report.notices.push(notice);
                }
            }
            let rgb = crate::encode::rgb_of(picture.image.as_raw());
            writer.write_image_data(&rgb).map_err(apng_error)?;
        }
        writer.finish().map_err(apng_error)?;
    }
    Ok(Animated {
        png,
        frames,
        fps,
        report,
    })
}

/// A frame's delay for `fps` as the APNG fraction of a second: `1/fps` for whole rates,
/// else thousandths.
fn frame_delay(fps: f32) -> (u16, u16) {
    if fps.fract() == 0.0 && (1.0..=65535.0).contains(&fps) {
        (1, fps as u16)
    } else {
        let num = (1000.0 / f64::from(fps)).round().clamp(1.0, 65535.0);
        (num as u16, 1000)
    }
}

fn apng_error(e: png::EncodingError) -> RenderError {
    RenderError::Encode(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_follow_the_rate_and_the_loop_flag() {
        assert_eq!(frame_times(1.0, true, 4.0).unwrap(), [0.0, 0.25, 0.5, 0.75]);
        assert_eq!(
            frame_times(1.0, false, 4.0).unwrap(),
            [0.0, 0.25, 0.5, 0.75, 1.0]
        );
        assert_eq!(frame_times(0.0, true, 30.0).unwrap(), [0.0]);
        assert_eq!(frame_times(f32::NAN, false, 30.0).unwrap(), [0.0]);
        assert!(frame_times(1e9, false, 30.0).is_err());
        assert_eq!(frame_delay(30.0), (1, 30));
        assert_eq!(frame_delay(12.5), (80, 1000));
    }
}
