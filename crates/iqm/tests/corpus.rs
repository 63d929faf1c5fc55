//! Every real `.iqm` of the corpus: counts agree with an independent scan of the header,
//! the file writes back byte for byte, and it converts to the model with its triangles
//! facing the way their stored normals say.

mod common;

use rigport_iqm::{File, ReadOptions, to_model};

/// Header field `i` (0 = version), read with `from_le_bytes` and nothing else.
fn field(bytes: &[u8], i: usize) -> u32 {
    let at = 16 + 4 * i;
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

#[test]
fn corpus_files_read_count_and_write_back() {
    let Some(dir) = common::corpus_dir("iqm") else {
        return;
    };
    let files = common::files(&dir, "iqm");
    assert_eq!(files.len(), 11, "the corpus holds 11 IQM files");
    for (name, bytes) in &files {
        let (file, report) = File::from_slice_with(bytes, &ReadOptions::strict())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(report.is_empty(), "{name}: {report}");
        assert_eq!(file.to_vec(), *bytes, "{name}: write(read(x)) != x");
        let s = file.summary();
        assert_eq!(s.meshes, u64::from(field(bytes, 5)), "{name} meshes");
        assert_eq!(s.vertices, u64::from(field(bytes, 8)), "{name} vertices");
        assert_eq!(s.triangles, u64::from(field(bytes, 10)), "{name} triangles");
        assert_eq!(s.joints, u64::from(field(bytes, 13)), "{name} joints");
        assert_eq!(file.poses.len() as u32, field(bytes, 15), "{name} poses");
        assert_eq!(s.animations, u64::from(field(bytes, 17)), "{name} anims");
        assert_eq!(s.frames, u64::from(field(bytes, 19)), "{name} frames");
        let arrays = field(bytes, 7) as usize;
        assert_eq!(file.vertex_arrays.len(), arrays, "{name} arrays");
        let frame_values = field(bytes, 19) as usize * field(bytes, 20) as usize;
        assert_eq!(file.frames.len(), frame_values, "{name} frame values");
        let (model, _) =
            to_model(&file, &Default::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(model.triangle_count(), s.triangles as usize, "{name}");
        assert_eq!(model.animations.len(), s.animations as usize, "{name}");
        let joints = field(bytes, 13).max(field(bytes, 15));
        assert_eq!(model.skeleton.joints.len(), joints as usize, "{name}");
    }
}

/// IQM triangles are clockwise seen from their front (as in IQE); the model winds them
/// counter-clockwise. Checked against the stored normals: the face normal of the model's
/// winding must agree with the corners' normals for nearly every triangle.
#[test]
fn corpus_triangles_face_their_normals() {
    let Some(dir) = common::corpus_dir("iqm") else {
        return;
    };
    for (name, bytes) in common::files(&dir, "iqm") {
        let file = File::from_slice(&bytes).unwrap();
        let (model, _) = to_model(&file, &Default::default()).unwrap();
        let (mut agree, mut total) = (0, 0);
        for mesh in &model.meshes {
            for t in &mesh.triangles {
                let [a, b, c] = t.map(|i| mesh.vertices[i as usize]);
                let face = (b.position - a.position).cross(c.position - a.position);
                let stored = a.normal + b.normal + c.normal;
                if face.length() > 1e-12 && stored.length() > 1e-6 {
                    total += 1;
                    agree += usize::from(face.dot(stored) > 0.0);
                }
            }
        }
        if total > 0 {
            println!("{name}: {agree}/{total} triangles face their normals");
            assert!(agree * 10 >= total * 9, "{name}: {agree}/{total}");
        }
    }
}
