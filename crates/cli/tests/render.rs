//! `rigport render` on the command line: one picture, a contact sheet, a batch, and the
//! exit codes of bad input and bad arguments. What the pictures show is tested through the
//! library in `crates/rigport/tests/render.rs`.

mod common;

use common::{repo_root, rigport};

#[test]
fn command_line_single_sheet_batch_and_errors() {
    let out = tempfile::tempdir().unwrap();
    let fixture = repo_root().join("fixtures/ms3d/rig_full.ms3d");
    let png = out.path().join("rig.png");
    let run = rigport(&[
        "render",
        fixture.to_str().unwrap(),
        png.to_str().unwrap(),
        "--size",
        "64x48",
        "--view",
        "front",
        "--frame",
        "3",
        "--background",
        "102030",
        "--wire",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let image = image::open(&png).unwrap();
    assert_eq!((image.width(), image.height()), (64, 48));
    assert_eq!(image.to_rgba8().get_pixel(0, 0).0, [0x10, 0x20, 0x30, 255]);
    // Again without --force: refused, exit 1, the file untouched.
    let again = rigport(&["render", fixture.to_str().unwrap(), png.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--force"));

    let sheet = out.path().join("sheet.png");
    let run = rigport(&[
        "render",
        fixture.to_str().unwrap(),
        sheet.to_str().unwrap(),
        "--sheet",
        "5",
        "--size",
        "20x10",
    ]);
    assert!(run.status.success());
    let image = image::open(&sheet).unwrap();
    assert_eq!((image.width(), image.height()), (60, 20));

    // No triangles: exit 1 with a message that says so.
    let bones = repo_root().join("fixtures/iqe/skeleton_only.iqe");
    let run = rigport(&[
        "render",
        bones.to_str().unwrap(),
        out.path().join("b.png").to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("no triangles"));
    // Usage errors: exit 2.
    for bad in [
        ["--size", "0x10"],
        ["--view", "side"],
        ["--background", "red"],
    ] {
        let run = rigport(&["render", fixture.to_str().unwrap(), "x.png", bad[0], bad[1]]);
        assert_eq!(run.status.code(), Some(2), "{bad:?}");
    }
    let run = rigport(&[
        "render",
        fixture.to_str().unwrap(),
        "x.png",
        "--time",
        "1",
        "--frame",
        "2",
    ]);
    assert_eq!(run.status.code(), Some(2));

    // Batch: one PNG per model, a summary, exit 1 because one input has no triangles.
    let dir = out.path().join("batch");
    let iqe = repo_root().join("fixtures/iqe/polygons.iqe");
    let run = rigport(&[
        "render",
        fixture.to_str().unwrap(),
        iqe.to_str().unwrap(),
        bones.to_str().unwrap(),
        "-o",
        dir.to_str().unwrap(),
        "--size",
        "32x32",
    ]);
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("2 rendered"), "{stderr}");
    assert!(!stderr.contains("converted"), "{stderr}");
    assert!(stderr.contains("1 failed"), "{stderr}");
    assert!(dir.join("rig_full.png").is_file() && dir.join("polygons.png").is_file());
}
