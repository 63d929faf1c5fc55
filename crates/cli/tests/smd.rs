//! SMD through the binary: `info` gives the file's own counts, `convert` writes IQM and glTF
//! from a reference with its animation file (`--with-anims`, bones matched by name), and SMD
//! output is a reference file with one file per animation beside it.

mod common;

use rigport::formats::{iqm, smd};
use rigport_test_support::corpus;
use std::path::Path;

fn run(args: &[&str]) -> std::process::Output {
    let done = common::rigport(args);
    assert!(
        done.status.success(),
        "rigport {args:?}: {}",
        String::from_utf8_lossy(&done.stderr)
    );
    done
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn info_gives_the_files_own_counts() {
    let Some(dir) = corpus::corpus_dir("smd") else {
        return;
    };
    for name in ["mapbase_combine_soldier_lod4.smd", "mapbase_walkn.smd"] {
        let file = dir.join(name);
        let summary = smd::File::from_slice(&std::fs::read(&file).unwrap())
            .unwrap()
            .summary();
        let done = run(&["info", "--json", &path(&file)]);
        let json: serde_json::Value = serde_json::from_slice(&done.stdout).unwrap();
        assert_eq!(json["format"], "smd", "{json}");
        assert_eq!(json["joints"], summary.joints, "{name}: {json}");
        assert_eq!(json["triangles"], summary.triangles, "{name}: {json}");
        assert_eq!(json["frames"], summary.frames, "{name}: {json}");
    }
}

#[test]
fn a_reference_with_its_animation_converts_to_iqm_and_glb() {
    let Some(dir) = corpus::corpus_dir("smd") else {
        return;
    };
    let out = tempfile::tempdir().unwrap();
    let reference = dir.join("mapbase_door01_left_reference.smd");
    let animation = dir.join("mapbase_door01_left_open.smd");
    let source = smd::File::from_slice(&std::fs::read(&reference).unwrap()).unwrap();
    let frames = smd::File::from_slice(&std::fs::read(&animation).unwrap())
        .unwrap()
        .frames()
        .len();
    let iqm_out = out.path().join("door.iqm");
    run(&[
        "convert",
        &path(&reference),
        &path(&iqm_out),
        "--with-anims",
        &path(&animation),
    ]);
    let file = iqm::File::from_slice(&std::fs::read(&iqm_out).unwrap()).unwrap();
    assert_eq!(file.anims.len(), 1);
    assert_eq!(file.header.num_frames as usize, frames);
    assert_eq!(file.triangles.len(), source.triangles().count());
    let glb = out.path().join("door.glb");
    run(&[
        "convert",
        &path(&reference),
        &path(&glb),
        "--with-anims",
        &path(&animation),
    ]);
    let bytes = std::fs::read(&glb).unwrap();
    assert!(bytes.starts_with(b"glTF"));
    let info = run(&["info", "--json", &path(&glb)]);
    let json: serde_json::Value = serde_json::from_slice(&info.stdout).unwrap();
    assert_eq!(json["animations"], 1, "{json}");
}

#[test]
fn smd_output_has_one_file_per_animation() {
    let model = common::repo_root().join("fixtures/iqe/crlf.iqe");
    let out = tempfile::tempdir().unwrap();
    let target = out.path().join("stone.smd");
    run(&["convert", &path(&model), &path(&target)]);
    let reference = smd::File::from_slice(&std::fs::read(&target).unwrap()).unwrap();
    assert_eq!(reference.nodes().count(), 1);
    assert_eq!(reference.triangles().count(), 1);
    let animation = std::fs::read(out.path().join("stone_idle.smd")).unwrap();
    let animation = smd::File::from_slice(&animation).unwrap();
    assert_eq!(animation.frames().len(), 2);
    assert!(animation.frames().iter().all(|f| f.poses.len() == 1));
}
