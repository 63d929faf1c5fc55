//! MD5 through the binary: `info` on an `.md5mesh` and an `.md5anim`, `convert` of a mesh
//! (with the animations beside it) to glb and IQM, and back to `.md5mesh` with one
//! `.md5anim` per animation written beside it.

mod common;

use rigport_test_support::corpus;

fn run(args: &[String]) -> std::process::Output {
    common::rigport(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

fn ok(output: &std::process::Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn info_shows_the_files_own_counts() {
    let Some(dir) = corpus::corpus_dir("md5") else {
        return;
    };
    let mesh = dir.join("unv_blaster_view.md5mesh").display().to_string();
    let json = ok(&run(&["info".into(), "--json".into(), mesh]));
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let text = value.to_string();
    assert!(text.contains("md5mesh"), "{text}");
    // 4 mesh blocks, 1852 vert lines, 2162 tri lines, 22 joints (the file's own counts).
    for count in ["1852", "2162", "22"] {
        assert!(text.contains(count), "{count} missing: {text}");
    }
    let anim = dir
        .join("unv_blaster_view_raise.md5anim")
        .display()
        .to_string();
    let text = ok(&run(&["info".into(), anim]));
    assert!(text.contains("md5anim") && text.contains("11"), "{text}");
}

#[test]
fn convert_md5mesh_to_glb_iqm_and_back() {
    let Some(dir) = corpus::corpus_dir("md5") else {
        return;
    };
    let out = tempfile::tempdir().unwrap();
    let mesh = dir.join("unv_blaster_view.md5mesh").display().to_string();
    for target in ["blaster.glb", "blaster.iqm"] {
        let path = out.path().join(target);
        ok(&run(&[
            "convert".into(),
            mesh.clone(),
            path.display().to_string(),
            "--force".into(),
            "--anims-beside".into(),
        ]));
        let bytes = std::fs::read(&path).unwrap();
        assert!(bytes.len() > 1000, "{target}: {} bytes", bytes.len());
    }
    // With --anims-beside the IQM holds the animations found beside the mesh (fire, idle,
    // raise); without it, only those asked for by name.
    let anims = |path: &std::path::Path| {
        let iqm = std::fs::read(path).unwrap();
        rigport::formats::iqm::File::from_slice(&iqm)
            .unwrap()
            .anims
            .len()
    };
    assert_eq!(anims(&out.path().join("blaster.iqm")), 3);
    // Named as the writer names the files, read back: `unv_blaster_view_fire.md5anim`
    // beside `unv_blaster_view.md5mesh` is `fire`.
    let iqm = std::fs::read(out.path().join("blaster.iqm")).unwrap();
    let (document, _) = rigport::Document::sniff_and_read(&iqm, &Default::default()).unwrap();
    let (model, _) = document.to_model().unwrap();
    let names: Vec<&str> = model.animations.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["fire", "idle", "raise"]);
    let alone = out.path().join("alone.iqm");
    ok(&run(&[
        "convert".into(),
        mesh.clone(),
        alone.display().to_string(),
    ]));
    assert_eq!(anims(&alone), 0);
    let named = out.path().join("named.iqm");
    ok(&run(&[
        "convert".into(),
        mesh.clone(),
        named.display().to_string(),
        "--with-anims".into(),
        dir.join("unv_blaster_view_fire.md5anim")
            .display()
            .to_string(),
    ]));
    assert_eq!(
        anims(&named),
        1,
        "an animation asked for by name is attached once"
    );
    // Back to MD5: the mesh and one .md5anim per animation, all read by the crate.
    let back = out.path().join("again.md5mesh");
    ok(&run(&[
        "convert".into(),
        out.path().join("blaster.iqm").display().to_string(),
        back.display().to_string(),
        "--force".into(),
    ]));
    let mut written: Vec<String> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("again"))
        .collect();
    written.sort();
    assert_eq!(
        written,
        [
            "again.md5mesh",
            "again_fire.md5anim",
            "again_idle.md5anim",
            "again_raise.md5anim"
        ]
    );
    for name in &written {
        let bytes = std::fs::read(out.path().join(name)).unwrap();
        rigport::formats::md5::File::from_slice(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn damaged_md5_files_fail_with_their_line() {
    let Some(dir) = corpus::corpus_dir("md5-damaged") else {
        return;
    };
    let bad = dir
        .join("assimp_InvalidBoneIndex.md5mesh")
        .display()
        .to_string();
    let output = run(&["info".into(), bad]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("23:10") && stderr.contains("999"),
        "{stderr}"
    );
}

/// `info --anims-beside` counts what `convert --anims-beside` attaches: the animations and
/// their frames (the fixture written as MD5 by the CLI, one `.md5anim` beside the mesh).
#[test]
fn info_anims_beside_counts_what_convert_attaches() {
    let out = tempfile::tempdir().unwrap();
    let mesh = out.path().join("rig.md5mesh");
    let fixture = common::repo_root().join("fixtures/ms3d/rig_full.ms3d");
    ok(&run(&[
        "convert".into(),
        fixture.display().to_string(),
        mesh.display().to_string(),
    ]));
    let info = |beside: bool| -> serde_json::Value {
        let mut args = vec!["info".into(), "--json".into(), mesh.display().to_string()];
        if beside {
            args.push("--anims-beside".into());
        }
        serde_json::from_str(&ok(&run(&args))).unwrap()
    };
    let (alone, beside) = (info(false), info(true));
    assert_eq!(alone["animations"], 0, "{alone}");
    let iqm = out.path().join("rig.iqm");
    ok(&run(&[
        "convert".into(),
        mesh.display().to_string(),
        iqm.display().to_string(),
        "--anims-beside".into(),
    ]));
    let file = rigport::formats::iqm::File::from_slice(&std::fs::read(&iqm).unwrap()).unwrap();
    assert!(!file.anims.is_empty());
    assert_eq!(beside["animations"], file.anims.len(), "{beside}");
    let frames: u64 = file.anims.iter().map(|a| u64::from(a.num_frames)).sum();
    assert_eq!(beside["frames"], frames, "{beside}");
    assert_eq!(beside["joints"], alone["joints"], "{beside}");
}
