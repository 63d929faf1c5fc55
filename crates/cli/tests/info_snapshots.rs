//! `rigport info` on every fixture, text and JSON, snapshotted.

mod common;

use common::{file_name, fixtures, rigport};

#[test]
fn info_of_every_fixture() {
    for format in ["ms3d", "ms3d-ascii", "iqe"] {
        // Models only: a texture beside them (`ms3d/skin.bmp`) is not given to `info`.
        for path in fixtures(format)
            .into_iter()
            .filter(|p| !rigport_test_support::fixtures::is_image(p))
        {
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

#[test]
fn anim_details_give_each_animation_its_rate_and_length() {
    // animation_only.iqe: "walk", framerate 10, 3 looping frames (0.3 s: a looping animation
    // of N frames lasts N / fps); "no rate", one frame, IQE's default 24 fps.
    let out = rigport(&[
        "info",
        "--json",
        "--anim-details",
        "fixtures/iqe/animation_only.iqe",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let details = value["anim_details"].as_array().expect("anim_details list");
    assert_eq!(details.len(), 2, "{value}");
    assert_eq!(value["animations"], 2);
    let expected = [("walk", 10.0, 0.3), ("no rate", 24.0, 0.0)];
    for (detail, (name, fps, duration)) in details.iter().zip(expected) {
        assert_eq!(detail["name"], name);
        assert!(
            (detail["fps"].as_f64().unwrap() - fps).abs() < 1e-6,
            "{detail}"
        );
        assert!(
            (detail["duration"].as_f64().unwrap() - duration).abs() < 1e-6,
            "{detail}"
        );
    }
    // Without the flag the JSON keeps its shape.
    let plain = rigport(&["info", "--json", "fixtures/iqe/animation_only.iqe"]);
    let plain: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert!(plain.get("anim_details").is_none(), "{plain}");
}

#[test]
fn anim_details_need_json_and_fail_like_info() {
    let out = rigport(&["info", "--anim-details", "fixtures/iqe/animation_only.iqe"]);
    assert_eq!(out.status.code(), Some(2), "a usage error without --json");
    let out = rigport(&[
        "info",
        "--json",
        "--anim-details",
        "fixtures/iqe/fail_header.iqe",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(value["error"].is_string(), "{value}");
}
