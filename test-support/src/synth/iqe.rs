//! The synthetic scene as an Inter-Quake Export file: joints with `pq` base poses, meshes
//! with `vp vt vn vb` per vertex and `fm` triangles, one long animation of `pq` frames.

use super::rig::{Rig, euler_to_quat};
use super::text::{line, numbers};

const EOL: &str = "\n";

/// The file's bytes.
pub fn iqe(rig: &Rig) -> Vec<u8> {
    let mut out = Vec::new();
    line(&mut out, format_args!("# Inter-Quake Export{EOL}"), EOL);
    for joint in 0..rig.joints {
        let parent = rig.parent(joint).map_or(-1, i64::from);
        line(
            &mut out,
            format_args!("joint \"joint{joint}\" {parent}"),
            EOL,
        );
        let (translation, rotation) = rig.bind(joint);
        pose(&mut out, translation, rotation);
    }
    let stride = rig.cols + 1;
    for m in 0..rig.meshes {
        line(&mut out, format_args!("{EOL}mesh \"grid{m}\""), EOL);
        line(&mut out, format_args!("material \"grid{m}.png\""), EOL);
        for g in 0..rig.vertices_per_mesh() {
            let (i, j) = (g % stride, g / stride);
            out.extend_from_slice(b"vp");
            numbers(&mut out, &rig.position(m, i, j));
            out.extend_from_slice(b"\nvt");
            numbers(&mut out, &rig.uv(i, j));
            out.extend_from_slice(b"\nvn");
            numbers(&mut out, &rig.normal(m, i, j));
            out.extend_from_slice(b"\nvb");
            for (joint, weight) in rig.influences(m, i, j) {
                line(&mut out, format_args!(" {joint}"), "");
                numbers(&mut out, &[weight]);
            }
            out.extend_from_slice(EOL.as_bytes());
        }
        for j in 0..rig.rows {
            for i in 0..rig.cols {
                // IQE fronts wind clockwise.
                for [a, b, c] in rig.quad_triangles(i, j) {
                    line(&mut out, format_args!("fm {a} {c} {b}"), EOL);
                }
            }
        }
    }
    line(&mut out, format_args!("{EOL}animation \"wave\""), EOL);
    line(&mut out, format_args!("framerate 30"), EOL);
    for frame in 0..rig.frames {
        line(&mut out, format_args!("{EOL}frame {frame}"), EOL);
        for joint in 0..rig.joints {
            let (translation, rotation) = rig.bind(joint);
            let (dt, dr) = rig.key(joint, frame);
            pose(
                &mut out,
                std::array::from_fn(|k| translation[k] + dt[k]),
                std::array::from_fn(|k| rotation[k] + dr[k]),
            );
        }
    }
    out
}

/// A `pq` line: translation and the quaternion of MilkShape-style Euler angles.
fn pose(out: &mut Vec<u8>, translation: [f32; 3], euler: [f32; 3]) {
    out.extend_from_slice(b"pq");
    numbers(out, &translation);
    numbers(out, &euler_to_quat(euler));
    out.extend_from_slice(EOL.as_bytes());
}
