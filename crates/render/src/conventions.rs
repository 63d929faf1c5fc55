//! Camera axes of the camera-to-world matrices written for other tools: OpenGL's (nerfstudio,
//! instant-ngp, Blender: the camera looks down its −Z, +Y up) or OpenCV's (COLMAP, OpenCV:
//! it looks down its +Z, +Y down). The pixels are the same either way; only the columns of
//! the matrix that carry the camera's Y and Z axes change sign.

use crate::{CameraPose, RenderError};
use std::fmt;
use std::str::FromStr;

/// The camera axes a camera-to-world matrix is written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CameraConvention {
    /// +X right, +Y up, looking down −Z ([`CameraPose::camera_to_world`] as it is).
    #[default]
    OpenGl,
    /// +X right, +Y down, looking down +Z: a point `(x, y, z)` of the camera's frame is at
    /// pixel `(cx + fl_x · x / z, cy + fl_y · y / z)`.
    OpenCv,
}

impl CameraConvention {
    /// Every convention, in the order the help lists them.
    pub const ALL: [CameraConvention; 2] = [CameraConvention::OpenGl, CameraConvention::OpenCv];

    /// The name used on the command line and in `transforms.json`: `opengl`, `opencv`.
    pub fn key(self) -> &'static str {
        match self {
            CameraConvention::OpenGl => "opengl",
            CameraConvention::OpenCv => "opencv",
        }
    }

    /// `pose`'s camera-to-world matrix (rows) in these camera axes: OpenCV's is OpenGL's
    /// with its second and third columns negated (exactly).
    pub fn camera_to_world(self, pose: &CameraPose) -> [[f64; 4]; 4] {
        let mut m = pose.camera_to_world;
        if self == CameraConvention::OpenCv {
            for row in &mut m[..3] {
                row[1] = -row[1];
                row[2] = -row[2];
            }
        }
        m
    }
}

impl fmt::Display for CameraConvention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

impl FromStr for CameraConvention {
    type Err = RenderError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        CameraConvention::ALL
            .into_iter()
            .find(|c| c.key().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| RenderError::BadCameraConvention(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DMat4, DVec3, DVec4};

    fn rows_to_mat(m: [[f64; 4]; 4]) -> DMat4 {
        DMat4::from_cols_array_2d(&std::array::from_fn(|c| std::array::from_fn(|r| m[r][c])))
    }

    #[test]
    fn both_conventions_put_a_point_on_the_same_pixel() {
        // A camera at (1, 2, 3) turned about Y, and a point in front of it.
        let (s, c) = (0.6_f64, 0.8_f64);
        let pose = CameraPose {
            camera_to_world: [
                [c, 0.0, s, 1.0],
                [0.0, 1.0, 0.0, 2.0],
                [-s, 0.0, c, 3.0],
                [0.0, 0.0, 0.0, 1.0],
            ],
            focal: 100.0,
            cx: 64.0,
            cy: 48.0,
            orthographic: false,
        };
        let world = DVec3::new(0.5, 2.3, -2.0);
        let gl = rows_to_mat(CameraConvention::OpenGl.camera_to_world(&pose)).inverse()
            * DVec4::from((world, 1.0));
        let cv = rows_to_mat(CameraConvention::OpenCv.camera_to_world(&pose)).inverse()
            * DVec4::from((world, 1.0));
        assert!(gl.z < 0.0 && cv.z > 0.0);
        let gl_pixel = [64.0 + 100.0 * gl.x / -gl.z, 48.0 - 100.0 * gl.y / -gl.z];
        let cv_pixel = [64.0 + 100.0 * cv.x / cv.z, 48.0 + 100.0 * cv.y / cv.z];
        assert!((gl_pixel[0] - cv_pixel[0]).abs() < 1e-9);
        assert!((gl_pixel[1] - cv_pixel[1]).abs() < 1e-9);
        assert_eq!(
            CameraConvention::OpenGl.camera_to_world(&pose),
            pose.camera_to_world
        );
        for convention in CameraConvention::ALL {
            assert_eq!(
                convention.key().parse::<CameraConvention>().unwrap(),
                convention
            );
        }
        assert!("vulkan".parse::<CameraConvention>().is_err());
    }
}
