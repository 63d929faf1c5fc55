//! What to draw: size, view, pose, background and the wire overlay.

use crate::RenderError;
use rigport_model_core::Model;
use std::fmt;
use std::str::FromStr;

/// Largest width or height of one picture (or one sheet cell), in pixels. The rasterizer
/// draws at twice this in each direction, so a cell's buffers stay under 512 MiB.
pub const MAX_SIDE: u32 = 4096;

/// Largest number of pixels a whole contact sheet may hold (256 MiB of RGBA).
pub const MAX_SHEET_PIXELS: u64 = 1 << 26;

/// Where the camera looks from.
///
/// Views are defined in the model's upright frame: a Y-up model (MilkShape, glTF) as it
/// is, a Z-up model (IQE, IQM) seen through the turn to Y-up `(x, y, z) → (x, z, −y)`
/// (the turn its `.glb` gets), so up is up and `Front` shows the side a Blender-made
/// character faces (−Y in Blender, +Z once turned). The axes below are those of that
/// upright frame.
///
/// `Front` is an orthographic projection onto the XY plane looking down −Z with +Y up;
/// `Back`, `Left`, `Right` and `Top` are the same camera turned (looking down +Z, +X, −X
/// and −Y); `Iso` is a three-quarter perspective view from front-right-above. Every view is
/// fitted to the posed model's bounds with a 5 % margin, aspect kept, centred.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum View {
    /// Orthographic, looking down −Z (the camera on +Z), +Y up, +X to the right.
    Front,
    /// Orthographic, looking down +Z (the camera on −Z), +Y up, −X to the right.
    Back,
    /// Orthographic, looking down +X (the camera on −X), +Y up, +Z to the right.
    Left,
    /// Orthographic, looking down −X (the camera on +X), +Y up, −Z to the right.
    Right,
    /// Orthographic, looking down −Y (the camera on +Y), −Z up, +X to the right.
    Top,
    /// Perspective (30° field of view) from front-right-above: turned 45° about Y from
    /// `Front` towards +X and raised 30°.
    #[default]
    Iso,
}

impl View {
    /// Every view, in the order the help lists them.
    pub const ALL: [View; 6] = [
        View::Front,
        View::Back,
        View::Left,
        View::Right,
        View::Top,
        View::Iso,
    ];

    /// The lower-case name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            View::Front => "front",
            View::Back => "back",
            View::Left => "left",
            View::Right => "right",
            View::Top => "top",
            View::Iso => "iso",
        }
    }
}

impl fmt::Display for View {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for View {
    type Err = RenderError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        View::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| RenderError::BadView(s.to_owned()))
    }
}

/// A perspective camera circling the model's up axis (see [`RenderOptions::orbit`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Orbit {
    /// Degrees about the up axis from the front (0: the `front` view's side, 90: from
    /// the model's right, +X of the upright frame).
    pub azimuth_degrees: f32,
    /// Degrees above the horizontal plane (negative: from below); kept within ±89.
    pub elevation_degrees: f32,
    /// The camera's distance as a multiple of the nearest at which the model fills the
    /// middle 90 % of the picture: 1 (the default) fills it, more shows the model smaller.
    /// Values below 1 or not finite count as 1.
    pub distance_scale: f32,
}

impl Default for Orbit {
    fn default() -> Self {
        Self {
            azimuth_degrees: 0.0,
            elevation_degrees: 0.0,
            distance_scale: 1.0,
        }
    }
}

impl Orbit {
    /// `count` cameras evenly around the up axis at `elevation_degrees`, the first at
    /// the front.
    pub fn ring(count: u32, elevation_degrees: f32) -> Vec<Orbit> {
        (0..count)
            .map(|i| Orbit {
                azimuth_degrees: 360.0 * i as f32 / count as f32,
                elevation_degrees,
                distance_scale: 1.0,
            })
            .collect()
    }
}

/// Pictures drawn beside the colour picture, each from the same camera and samples.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Passes {
    /// Distance along the viewing direction of each pixel's nearest sample
    /// ([`Picture::depth`](crate::Picture::depth)).
    pub depth: bool,
    /// Camera-space normals ([`Picture::normal`](crate::Picture::normal)).
    pub normal: bool,
    /// Coverage ([`Picture::mask`](crate::Picture::mask)).
    pub mask: bool,
}

impl FromStr for Passes {
    type Err = RenderError;

    /// Parses a comma-separated list of `color`, `depth`, `normal` and `mask` (`color`
    /// is always drawn and is accepted for completeness).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut passes = Passes::default();
        for word in s.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match word.to_ascii_lowercase().as_str() {
                "color" | "colour" => {}
                "depth" => passes.depth = true,
                "normal" | "normals" => passes.normal = true,
                "mask" => passes.mask = true,
                _ => return Err(RenderError::BadPass(word.to_owned())),
            }
        }
        Ok(passes)
    }
}

/// Which pose of the model to draw.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum PoseAt {
    /// The bind pose of a model without animations, else the first animation at time 0.
    #[default]
    Auto,
    /// The skeleton's bind pose (the meshes as stored).
    Bind,
    /// Animation `index` at `time` seconds (wrapped if it loops).
    Animation {
        /// Index into [`Model::animations`].
        index: usize,
        /// Seconds from the animation's start.
        time: f32,
    },
}

impl PoseAt {
    /// [`PoseAt::Auto`] made concrete for `model`; other values are returned as they are.
    pub fn resolve(self, model: &Model) -> PoseAt {
        match self {
            PoseAt::Auto if model.animations.is_empty() => PoseAt::Bind,
            PoseAt::Auto => PoseAt::Animation {
                index: 0,
                time: 0.0,
            },
            other => other,
        }
    }
}

/// An sRGB colour, 8 bits a channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgb(pub [u8; 3]);

impl FromStr for Rgb {
    type Err = RenderError;

    /// Parses `RRGGBB`, with or without a leading `#`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let hex = s.trim().trim_start_matches('#');
        let bad = || RenderError::BadColour(s.to_owned());
        if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad());
        }
        let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| bad());
        Ok(Rgb([channel(0)?, channel(2)?, channel(4)?]))
    }
}

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [r, g, b] = self.0;
        write!(f, "{r:02x}{g:02x}{b:02x}")
    }
}

/// How to draw one picture (or each cell of a sheet).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderOptions {
    /// Width in pixels, `1..=MAX_SIDE`. Default 512.
    pub width: u32,
    /// Height in pixels, `1..=MAX_SIDE`. Default 512.
    pub height: u32,
    /// Camera. Default [`View::Iso`].
    pub view: View,
    /// Pose to draw. Default [`PoseAt::Auto`].
    pub pose: PoseAt,
    /// Colour of the pixels no triangle covers. Default `404048`.
    pub background: Rgb,
    /// Overlay the triangles' edges.
    pub wire: bool,
    /// Draw from this orbit camera instead of `view`: perspective, vertical field of view
    /// 40°, aimed at the centre of the posed model's bounds (the principal point is the
    /// picture's centre) from the nearest distance at which the model fits the middle
    /// 90 % of the picture. Default `None`.
    pub orbit: Option<Orbit>,
    /// Extra pictures to draw from the same camera. Default none.
    pub passes: Passes,
}

impl Default for RenderOptions {
    fn default() -> Self {
        Self {
            width: 512,
            height: 512,
            view: View::Iso,
            pose: PoseAt::Auto,
            background: Rgb([0x40, 0x40, 0x48]),
            wire: false,
            orbit: None,
            passes: Passes::default(),
        }
    }
}

impl RenderOptions {
    /// Checks the size against [`MAX_SIDE`].
    pub fn check_size(&self) -> Result<(), RenderError> {
        if (1..=MAX_SIDE).contains(&self.width) && (1..=MAX_SIDE).contains(&self.height) {
            Ok(())
        } else {
            Err(RenderError::BadSize {
                width: self.width,
                height: self.height,
            })
        }
    }
}

/// Parses `WxH` (e.g. `512x512`) into a width and a height, each in `1..=MAX_SIDE`.
pub fn parse_size(s: &str) -> Result<(u32, u32), RenderError> {
    let bad = || RenderError::BadSizeText(s.to_owned());
    let (w, h) = s.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    let options = RenderOptions {
        width: w,
        height: h,
        ..RenderOptions::default()
    };
    options.check_size()?;
    Ok((w, h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_views_colours_and_sizes() {
        for view in View::ALL {
            assert_eq!(view.name().parse::<View>().unwrap(), view);
        }
        assert!("side".parse::<View>().is_err());
        assert_eq!("#10ff0A".parse::<Rgb>().unwrap(), Rgb([0x10, 0xff, 0x0a]));
        assert_eq!(Rgb([1, 2, 255]).to_string(), "0102ff");
        assert!("12345".parse::<Rgb>().is_err());
        assert!("12345g".parse::<Rgb>().is_err());
        assert_eq!(parse_size("640x480").unwrap(), (640, 480));
        assert!(parse_size("0x480").is_err());
        assert!(parse_size("5000x10").is_err());
        assert!(parse_size("640").is_err());
    }

    #[test]
    fn auto_pose_depends_on_animations() {
        let mut model = Model::default();
        assert_eq!(PoseAt::Auto.resolve(&model), PoseAt::Bind);
        model
            .animations
            .push(rigport_model_core::Animation::new("a", 30.0));
        assert_eq!(
            PoseAt::Auto.resolve(&model),
            PoseAt::Animation {
                index: 0,
                time: 0.0
            }
        );
    }
}
