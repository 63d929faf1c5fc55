//! Meshes made from both ends of the list are the meshes made in order.

use super::*;
use crate::convert::to_model::normals_of;
use crate::file::File;
use crate::test_lines::test_files;
use rigport_model_core::ReadOptions;

/// Every mesh made by one builder from the first, and the counts.
fn in_order(scene: &Scene<'_>, normals: &CornerNormals) -> (Vec<Mesh>, SkinCounts) {
    let left = Mutex::new(0..scene.meshes.len());
    MeshBuilder::take(scene, normals, &left, End::Front).finish()
}

/// Meshes `..split` made by one builder from the first, the rest by another from the last.
fn split_at(scene: &Scene<'_>, normals: &CornerNormals, split: usize) -> (Vec<Mesh>, SkinCounts) {
    let front = Mutex::new(0..split);
    let back = Mutex::new(split..scene.meshes.len());
    let front = MeshBuilder::take(scene, normals, &front, End::Front);
    let back = MeshBuilder::take(scene, normals, &back, End::Back);
    front.followed_by(back).finish()
}

/// Checks every split of `src`'s meshes; whether its meshes may be split.
fn check_splits(src: &[u8]) -> bool {
    let Ok((file, _)) = File::from_slice_with(src, &ReadOptions::default()) else {
        return false;
    };
    let Ok(scene) = file.scene() else {
        return false;
    };
    let normals = normals_of(&scene);
    let expected = in_order(&scene, &normals);
    let own = own_vertices_only(&scene);
    if own {
        for split in 0..=scene.meshes.len() {
            assert_eq!(
                split_at(&scene, &normals, split),
                expected,
                "split at {split}:\n{}",
                String::from_utf8_lossy(src)
            );
        }
    }
    let (made, meshes, counts, beside) = MeshBuilder::all_beside(&scene, || normals.clone(), || 7);
    assert_eq!(
        (made, meshes, counts, beside),
        (normals, expected.0, expected.1, 7)
    );
    own && scene.meshes.len() > 1
}

/// Three meshes: skins kept, cut to four, renormalized and naming no joint, a vertex of the
/// second no triangle names, vertices before the first mesh, and a `vp` with W ≠ 1.
const SKINNED: &str = "# Inter-Quake Export
joint a -1
joint b 0
vp 9 9 9
vb 0 1
vn 0 0 1
mesh one
vp 0 0 0
vp 1 0 0
vp 0 1 0 2
vb 0 1
vb 1 1
vb 0 0.5 1 0.25
vn 0 0 1
vn 0 0 1
vn 0 0 1
fm 0 1 2
mesh two
vp 0 0 0
vp 1 0 0
vp 0 1 0
vp 5 5 5
vb 0 0.2 1 0.2 0 0.2 1 0.2 0 0.2
vb 7 1
vb 1 1
vb 0 1
vn 0 0 1
vn 0 0 1
vn 0 0 1
vn 0 0 1
fm 0 1 2
mesh three
vp 0 0 0
vp 1 0 0
vp 0 1 0
vp 1 1 0
vb 1 1
vb 1 1
vb 0 1
vb 0 1
vn 0 0 1
vn 0 0 1
vn 0 0 1
vn 0 0 1
fm 0 1 2 3
";

#[test]
fn meshes_split_between_builders_are_the_meshes_made_in_order() {
    assert!(check_splits(SKINNED.as_bytes()));
    // Every count is made on both builders, so a count the join lost would show.
    let (file, _) = File::from_slice_with(SKINNED.as_bytes(), &ReadOptions::default()).unwrap();
    let scene = file.scene().unwrap();
    let (meshes, counts) = in_order(&scene, &normals_of(&scene));
    assert_eq!(meshes.len(), 3);
    assert_eq!(meshes[1].vertices.len(), 4, "the unnamed vertex is kept");
    assert_eq!(
        counts,
        SkinCounts {
            truncated: 1,
            bad_joint: 1,
            renormalized: 2,
            outside: 1,
            w_not_one: 1,
        }
    );
    for src in test_files() {
        check_splits(&src);
    }
}

#[test]
fn a_triangle_naming_another_mesh_keeps_the_meshes_on_one_builder() {
    // The second mesh's face names the first mesh's vertex 0 (`fa` counts from the file's
    // first vertex): the first mesh keeps its unnamed vertices only as made in order.
    let src = SKINNED.replace("mesh two\n", "mesh two\nfa 1 5 6\n");
    assert!(!check_splits(src.as_bytes()));
}
