//! `convert --with-anims`: Red Eclipse's animation-only propeller file attached to its mesh
//! by joint index, and a file whose nameless joints do not match refused with the counts.

mod common;

use rigport::formats::iqm as rigport_iqm;
use rigport_test_support::corpus;

#[test]
fn with_anims_attaches_animation_only_files_by_index_and_refuses_mismatches() {
    let Some(dir) = corpus::corpus_dir("iqm") else {
        return;
    };
    let out = tempfile::tempdir().unwrap();
    let target = out.path().join("propeller.iqm");
    let run = |mesh: &str, anims: &[&str], output: &std::path::Path| {
        let mut args = vec![
            "convert".to_owned(),
            dir.join(mesh).display().to_string(),
            output.display().to_string(),
            "--force".to_owned(),
        ];
        for a in anims {
            args.push("--with-anims".to_owned());
            args.push(dir.join(a).display().to_string());
        }
        common::rigport(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let done = run(
        "redeclipse_propeller_mesh.iqm",
        &["redeclipse_propeller_anim-spin.iqm"],
        &target,
    );
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let file = rigport_iqm::File::from_slice(&std::fs::read(&target).unwrap()).unwrap();
    assert_eq!(file.anims.len(), 1);
    assert_eq!(file.header.num_frames, 20);
    assert_eq!(file.triangles.len(), 288);
    // 14 nameless joints cannot be matched to a 1-joint skeleton.
    let refused = run(
        "redeclipse_propeller_mesh.iqm",
        &["raylib_guyanim.iqm"],
        &out.path().join("bad.iqm"),
    );
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("14 joints without names") && stderr.contains("1 joints"),
        "{stderr}"
    );
}
