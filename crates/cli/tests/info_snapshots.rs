//! `rigport info` on every fixture, text and JSON, snapshotted.

mod common;

use common::{file_name, fixtures, rigport};

#[test]
fn info_of_every_fixture() {
    for format in ["ms3d", "ms3d-ascii", "iqe"] {
        for path in fixtures(format) {
            let path_text = path.to_string_lossy().replace('\\', "/");
            let text = rigport(&["info", &path_text]);
            let json = rigport(&["info", "--json", &path_text]);
            let expect_failure = file_name(&path).starts_with("fail_");
            // Failing fixtures fail in lenient mode too unless their failure is a strict-only one.
            let code = text.status.code();
            assert!(
                matches!(code, Some(0) | Some(1)),
                "{path_text}: exit {code:?}"
            );
            if !expect_failure {
                assert_eq!(
                    code,
                    Some(0),
                    "{path_text} should read: {}",
                    String::from_utf8_lossy(&text.stderr)
                );
            }
            let snapshot = format!(
                "exit: {code:?}\n--- stdout\n{}--- stderr\n{}--- json\n{}",
                String::from_utf8_lossy(&text.stdout),
                String::from_utf8_lossy(&text.stderr),
                String::from_utf8_lossy(&json.stdout),
            );
            let name = format!("info__{format}__{}", file_name(&path));
            insta::assert_snapshot!(name, snapshot);
        }
    }
}

#[test]
fn json_counts_agree_with_the_text_summary() {
    let out = rigport(&["info", "--json", "fixtures/ms3d/rig_full.ms3d"]);
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["format"], "ms3d");
    for key in [
        "meshes",
        "vertices",
        "triangles",
        "materials",
        "joints",
        "animations",
        "frames",
    ] {
        assert!(value[key].is_u64(), "{key} missing in {value}");
    }
    assert!(value["warnings"].is_array());
}
