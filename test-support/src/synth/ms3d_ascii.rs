//! The synthetic scene as a MilkShape ASCII file (CRLF, `%f` numbers), one bone per vertex
//! as the format allows, key times in frames.

use super::rig::Rig;
use super::text::{line, numbers};

const EOL: &str = "\r\n";

/// The file's bytes.
pub fn ms3d_ascii(rig: &Rig) -> Vec<u8> {
    let mut out = Vec::new();
    line(&mut out, format_args!("// MilkShape 3D ASCII{EOL}"), EOL);
    line(&mut out, format_args!("Frames: {}", rig.frames), EOL);
    line(&mut out, format_args!("Frame: 1{EOL}"), EOL);
    line(&mut out, format_args!("Meshes: {}", rig.meshes), EOL);
    let stride = rig.cols + 1;
    for m in 0..rig.meshes {
        line(&mut out, format_args!("\"grid{m}\" 0 {m}"), EOL);
        line(&mut out, format_args!("{}", rig.vertices_per_mesh()), EOL);
        for g in 0..rig.vertices_per_mesh() {
            let (i, j) = (g % stride, g / stride);
            out.push(b'0');
            numbers(&mut out, &rig.position(m, i, j));
            numbers(&mut out, &rig.uv(i, j));
            line(
                &mut out,
                format_args!(" {}", rig.influences(m, i, j)[0].0),
                EOL,
            );
        }
        line(&mut out, format_args!("{}", rig.vertices_per_mesh()), EOL);
        for g in 0..rig.vertices_per_mesh() {
            numbers(&mut out, &rig.normal(m, g % stride, g / stride));
            out.extend_from_slice(EOL.as_bytes());
        }
        line(&mut out, format_args!("{}", rig.triangles_per_mesh()), EOL);
        for j in 0..rig.rows {
            for i in 0..rig.cols {
                for [a, b, c] in rig.quad_triangles(i, j) {
                    line(&mut out, format_args!("0 {a} {b} {c} {a} {b} {c} 1"), EOL);
                }
            }
        }
    }
    out.extend_from_slice(EOL.as_bytes());
    line(&mut out, format_args!("Materials: {}", rig.meshes), EOL);
    for m in 0..rig.meshes {
        line(&mut out, format_args!("\"material{m}\""), EOL);
        for colour in [
            [0.2, 0.2, 0.2, 1.0],
            [0.8, 0.7, 0.6, 1.0],
            [0.0, 0.0, 0.0, 1.0],
            [0.0, 0.0, 0.0, 1.0],
        ] {
            numbers(&mut out, &colour);
            out.extend_from_slice(EOL.as_bytes());
        }
        line(&mut out, format_args!("10.000000{EOL}1.000000"), EOL);
        line(&mut out, format_args!("\"grid{m}.png\"{EOL}\"\""), EOL);
    }
    out.extend_from_slice(EOL.as_bytes());
    line(&mut out, format_args!("Bones: {}", rig.joints), EOL);
    for joint in 0..rig.joints {
        let (translation, rotation) = rig.bind(joint);
        let parent = rig.parent(joint).map(|p| format!("joint{p}"));
        line(&mut out, format_args!("\"joint{joint}\""), EOL);
        line(
            &mut out,
            format_args!("\"{}\"", parent.unwrap_or_default()),
            EOL,
        );
        out.push(b'8');
        numbers(&mut out, &translation);
        numbers(&mut out, &rotation);
        out.extend_from_slice(EOL.as_bytes());
        for part in 0..2 {
            line(&mut out, format_args!("{}", rig.frames), EOL);
            for frame in 0..rig.frames {
                let (position, rotation) = rig.key(joint, frame);
                let value = if part == 0 { position } else { rotation };
                let _ = std::io::Write::write_fmt(&mut out, format_args!("{}.000000", frame + 1));
                numbers(&mut out, &value);
                out.extend_from_slice(EOL.as_bytes());
            }
        }
    }
    out
}
