//! PSKX morph targets (`MRPHINFO`/`MRPHDATA`) as the model's morph targets: every morph a
//! target of every mesh, named as the file names it, each delta on every vertex of its point
//! (checked against the section bytes read independently here), default weight 0.

use rigport_psk::{ConvertOptions, File, ReadOptions, to_model};

/// A morph's name and its `(point, position delta)`s.
type Morph = (String, Vec<(u32, [f32; 3])>);

/// Each morph, from the section bytes.
fn morphs_by_hand(bytes: &[u8]) -> Vec<Morph> {
    let mut at = 0;
    let (mut infos, mut deltas) = (Vec::new(), Vec::new());
    while at + 32 <= bytes.len() {
        let id = String::from_utf8_lossy(&bytes[at..at + 20])
            .trim_end_matches('\0')
            .to_owned();
        let size = u32::from_le_bytes(bytes[at + 24..at + 28].try_into().unwrap()) as usize;
        let count = u32::from_le_bytes(bytes[at + 28..at + 32].try_into().unwrap()) as usize;
        let body = &bytes[at + 32..at + 32 + size * count];
        let f = |b: &[u8]| f32::from_le_bytes(b.try_into().unwrap());
        if id == "MRPHINFO" {
            for r in body.chunks_exact(size) {
                let name = String::from_utf8_lossy(&r[..64])
                    .trim_end_matches('\0')
                    .to_owned();
                infos.push((
                    name,
                    i32::from_le_bytes(r[64..68].try_into().unwrap()) as usize,
                ));
            }
        } else if id == "MRPHDATA" {
            for r in body.chunks_exact(size) {
                let point = u32::from_le_bytes(r[24..28].try_into().unwrap());
                deltas.push((point, [f(&r[0..4]), f(&r[4..8]), f(&r[8..12])]));
            }
        }
        at += 32 + size * count;
    }
    let mut rest = deltas.as_slice();
    infos
        .into_iter()
        .map(|(name, n)| {
            let (mine, after) = rest.split_at(n);
            rest = after;
            (name, mine.to_vec())
        })
        .collect()
}

#[test]
fn pskx_morphs_are_the_meshes_morph_targets() {
    let Some(dir) = rigport_test_support::corpus::corpus_dir("psk") else {
        return;
    };
    let mut checked = 0;
    for name in [
        "dlg_Slurp_Monster_Axe_LOD0.psk",
        "dlg_Grunt_Preview_LOD0.psk",
    ] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let (file, _) = File::from_slice_with(&bytes, &ReadOptions::default()).unwrap();
        let (model, report) = to_model(&file, &ConvertOptions::default()).unwrap();
        assert_eq!(
            report
                .with_code(rigport_model_core::codes::MORPH_TARGETS)
                .count(),
            0,
            "{name}: {report:?}"
        );
        // Slurp holds 5 morphs; Grunt empty MRPHINFO and MRPHDATA sections.
        let expected = morphs_by_hand(&bytes);
        assert_eq!(
            expected.len(),
            if name.contains("Slurp") { 5 } else { 0 },
            "{name}"
        );
        for mesh in &model.meshes {
            assert_eq!(mesh.morph_targets.len(), expected.len(), "{name}");
            // Each offset is the delta of a point at its vertex's position (the vertex was
            // made from that point).
            for (target, (morph, deltas)) in mesh.morph_targets.iter().zip(&expected) {
                assert_eq!(&target.name, morph);
                assert_eq!(target.default_weight, 0.0);
                assert!(target.indices.is_some(), "{name} {morph}: sparse");
                let points = file.points();
                for (k, offset) in target.positions.iter().enumerate() {
                    let vertex = &mesh.vertices[target.vertex_of(k)];
                    let found = deltas.iter().any(|(point, delta)| {
                        points.get(*point as usize) == Some(&vertex.position.to_array())
                            && *delta == offset.to_array()
                    });
                    assert!(
                        found,
                        "{name} {morph}: vertex {} moved by {offset}",
                        target.vertex_of(k)
                    );
                }
                // Every delta's point moves some vertex (the files' points are all used).
                assert!(target.len() >= deltas.len().min(1), "{name} {morph}");
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 2);
}
