//! Batches say what they skip: files below a folder that rigport does not read are counted
//! by extension in the summary (`-v` names each, `--json` gives a line each), companions
//! stay silent, and a folder with nothing to convert or draw fails.

mod common;

use common::{repo_root, rigport};
use std::path::Path;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn s(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// A folder of `n` files of an extension no format has.
fn unread_folder(root: &Path, n: usize) -> std::path::PathBuf {
    let dir = root.join("unread");
    std::fs::create_dir_all(&dir).unwrap();
    for i in 0..n {
        std::fs::write(dir.join(format!("char{i:02}.blend")), b"BLENDER-v300").unwrap();
    }
    dir
}

#[test]
fn a_folder_of_unread_model_files_is_reported_and_fails() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = unread_folder(tmp.path(), 17);
    let out_dir = tmp.path().join("out");
    for command in [
        vec!["convert", &s(&dir), "--to", "glb", "-o", &s(&out_dir)],
        vec!["render", &s(&dir), "-o", &s(&out_dir)],
        vec!["render", &s(&dir), "-o", &s(&out_dir), "--orbit", "2"],
    ] {
        let out = rigport(&command);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{command:?}: {err}");
        assert!(
            err.contains("17 skipped: .blend (17), not a format rigport reads"),
            "{command:?}: {err}"
        );
        assert!(err.contains("nothing to "), "{command:?}: {err}");
    }
    // An empty folder says so too.
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = rigport(&["convert", &s(&empty), "--to", "glb", "-o", &s(&out_dir)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no model files"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_mixed_folder_counts_its_skipped_files_and_names_them_on_request() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = unread_folder(tmp.path(), 2);
    std::fs::copy(
        repo_root().join("fixtures/ms3d/rig_full.ms3d"),
        dir.join("rig_full.ms3d"),
    )
    .unwrap();
    // Companions stay silent; a posed OBJ is a format written, not read.
    for companion in ["skin.png", "buffer.bin", "pose.mtl"] {
        std::fs::write(dir.join(companion), b"").unwrap();
    }
    std::fs::write(dir.join("pose.obj"), b"v 0 0 0\n").unwrap();
    let (input, out_dir) = (s(&dir), s(&tmp.path().join("out")));
    let convert = |extra: &[&str]| {
        let mut args = vec!["convert", &input, "--to", "glb", "-o", &out_dir];
        args.extend_from_slice(extra);
        args.push("--force");
        rigport(&args)
    };
    let out = convert(&[]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("1 converted"), "{err}");
    assert!(
        err.contains(
            "3 skipped: .blend (2), not a format rigport reads; \
             .obj (1), a format rigport writes but does not read"
        ),
        "{err}"
    );
    assert!(!err.contains("skin.png") && !err.contains(".mtl"), "{err}");

    let verbose = text(&convert(&["-v"]).stderr);
    for name in ["char00.blend", "char01.blend", "pose.obj"] {
        assert!(
            verbose.contains(&format!("skipped {}", s(&dir.join(name)))),
            "{verbose}"
        );
    }

    let json = text(&convert(&["--json"]).stdout);
    let skipped: Vec<serde_json::Value> = json
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .filter(|value| value.get("skipped").is_some())
        .collect();
    assert_eq!(skipped.len(), 3, "{json}");
    assert_eq!(skipped[0]["input"], s(&dir.join("char00.blend")));
    assert_eq!(skipped[0]["skipped"], "not a format rigport reads");
}
