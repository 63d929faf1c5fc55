//! glTF test material (feature `gltf`): a fixture [`builder`] that writes `.glb`/`.gltf` from
//! JSON and buffers, the [`fixtures`] it makes for what the corpus lacks (written into
//! `fixtures/gltf/` by `cargo xtask golden`), and an independent posing [`oracle`] that reads
//! glTF with its own accessor code ([`read`]) to check rigport's import against.

pub mod builder;
pub mod fixtures;
pub mod oracle;
pub mod read;

pub use builder::Builder;
pub use oracle::{Oracle, OracleOptions};

#[cfg(test)]
mod tests {
    use super::fixtures::all;
    use super::oracle::{Oracle, OracleOptions, compare, size};

    fn fixture(name: &str) -> Vec<u8> {
        all()
            .into_iter()
            .find(|f| f.name == name)
            .unwrap_or_else(|| panic!("no fixture {name}"))
            .bytes
    }

    /// At rest, inverse bind matrices that invert the joints' rest worlds leave the skinned
    /// bar where its positions put it, whatever sits above the skeleton.
    #[test]
    fn skinned_fixtures_at_rest_match_their_own_positions() {
        for name in [
            "ancestor_transform.glb",
            "interpolations.glb",
            "two_skins.glb",
        ] {
            let oracle = Oracle::read(&fixture(name), None).unwrap();
            let rest = oracle.triangles(None).unwrap();
            let span = oracle.animations().unwrap()[0].clone();
            let moved = oracle.triangles(Some((0, span.end))).unwrap();
            assert_eq!(rest.len(), moved.len(), "{name}");
            assert!(
                compare(&rest, &moved, 1e-3 * size(&rest)).is_err(),
                "{name}: the animation moves nothing"
            );
            let bind_positions_hold = rest
                .iter()
                .flatten()
                .all(|p| p.z.abs() < 1e-5 || name == "ancestor_transform.glb");
            assert!(bind_positions_hold, "{name}");
        }
    }

    #[test]
    fn strips_and_fans_give_the_spec_triangles_and_points_lines_none() {
        let oracle = Oracle::read(&fixture("strips_fans.gltf"), None).unwrap();
        assert_eq!(oracle.triangles(None).unwrap().len(), 4 + 4);
        let oracle = Oracle::read(&fixture("points_lines.glb"), None).unwrap();
        assert_eq!(oracle.triangles(None).unwrap().len(), 1);
    }

    #[test]
    fn keeping_four_influences_changes_the_pose_of_influences8() {
        let bytes = fixture("influences8.glb");
        let all = Oracle::read(&bytes, None).unwrap();
        let four = all.clone().with_options(OracleOptions {
            max_influences: Some(4),
            ..OracleOptions::default()
        });
        let a = all.triangles(Some((0, 1.0))).unwrap();
        let b = four.triangles(Some((0, 1.0))).unwrap();
        assert!(compare(&a, &b, 1e-3 * size(&a)).is_err());
    }

    #[test]
    fn external_and_quantized_and_sparse_fixtures_read() {
        let dir = crate::fixtures::fixtures_dir().join("gltf");
        let external = std::fs::read(dir.join("external.gltf")).unwrap();
        let oracle = Oracle::read(&external, Some(&dir)).unwrap();
        assert_eq!(oracle.triangles(None).unwrap().len(), 4);
        assert!(Oracle::read(&external, None).is_err());
        let quantized = Oracle::read(&fixture("quantized.glb"), None).unwrap();
        let corners: Vec<_> = quantized
            .triangles(None)
            .unwrap()
            .into_iter()
            .flatten()
            .collect();
        // Stored as position / 2 in 0..1; the node scales by 2 and moves by (-1, 0, 0.5).
        assert!(
            corners.iter().any(|p| (p.y - 2.0).abs() < 1e-3),
            "{corners:?}"
        );
        assert!(
            corners.iter().all(|p| (p.z - 0.5).abs() < 1e-6),
            "{corners:?}"
        );
        let sparse = Oracle::read(&fixture("sparse.glb"), None).unwrap();
        let lifted = sparse
            .triangles(None)
            .unwrap()
            .into_iter()
            .flatten()
            .filter(|p| p.z > 0.1)
            .count();
        assert!(lifted > 0);
    }
}
