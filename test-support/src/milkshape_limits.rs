//! MilkShape's limits, checked the same way on both MilkShape writers (binary and ASCII),
//! on synthetic models ([`crate::synth::model()`]): every limit is an error, or a loss whose
//! message says "limit" and the number. [`milkshape_limit_tests!`](crate::milkshape_limit_tests)
//! declares one test per limit for a writer.

use crate::synth::{self, Rig};
use rigport_model_core::glam::Quat;
use rigport_model_core::{Key, Model, Report, Severity};

/// A writer under test: the model in, its report or its error message out.
pub type Write<'a> = &'a dyn Fn(&Model) -> Result<Report, String>;

/// A small skinned model: one 4×4 grid, 4 joints, `animations` animations of 3 keys.
pub fn small(animations: u32) -> Model {
    synth::model(
        &Rig {
            meshes: 1,
            cols: 4,
            rows: 4,
            joints: 4,
            frames: 3,
        },
        animations,
    )
}

fn refused(write: Write<'_>, model: &Model, what: &str, limit: usize) {
    let message = write(model).expect_err(&format!("more {what} than {limit} must be refused"));
    assert!(
        message.contains("limit") && message.contains(&limit.to_string()) && message.contains(what),
        "the error names the {what} limit of {limit}: {message}"
    );
}

fn loss_naming_limit(report: &Report, code: rigport_model_core::Code, limit: usize) -> usize {
    let notices: Vec<_> = report.with_code(code).collect();
    assert!(!notices.is_empty(), "`{code}` missing from:\n{report}");
    for notice in &notices {
        assert_eq!(notice.severity, Severity::Loss, "{notice}");
        assert!(
            notice.message.contains("limit") && notice.message.contains(&limit.to_string()),
            "`{code}` names the limit {limit}: {notice}"
        );
    }
    notices.len()
}

/// 65535 vertex records (a grid of 65792 vertices keeping 100 triangles) are refused, and
/// 65534 are written.
pub fn vertices(write: Write<'_>) {
    let mut model = synth::model(
        &Rig {
            meshes: 1,
            cols: 255,
            rows: 256,
            joints: 4,
            frames: 1,
        },
        0,
    );
    model.meshes[0].triangles.truncate(100);
    model.meshes[0].vertices.truncate(65535);
    refused(write, &model, "vertices", 65534);
    model.meshes[0].vertices.truncate(65534);
    write(&model).expect("65534 vertices fit");
}

/// 65535 triangles are refused, 65534 written.
pub fn triangles(write: Write<'_>) {
    let mut model = synth::model(
        &Rig {
            meshes: 1,
            cols: 128,
            rows: 256,
            joints: 4,
            frames: 1,
        },
        0,
    );
    model.meshes[0].triangles.truncate(65535);
    refused(write, &model, "triangles", 65534);
    model.meshes[0].triangles.truncate(65534);
    write(&model).expect("65534 triangles fit");
}

/// 129 joints are refused, 128 written.
pub fn joints(write: Write<'_>) {
    let rig = |joints| Rig {
        meshes: 1,
        cols: 2,
        rows: 2,
        joints,
        frames: 2,
    };
    let model = synth::model(&rig(129), 1);
    assert_eq!(model.skeleton.joints.len(), 129);
    let message = write(&model).expect_err("129 joints must be refused");
    assert!(
        message.contains("limit") && message.contains("128"),
        "{message}"
    );
    write(&synth::model(&rig(128), 1)).expect("128 joints fit");
}

/// 256 meshes and 129 materials are refused.
pub fn groups_and_materials(write: Write<'_>) {
    let mut model = small(0);
    let mesh = model.meshes[0].clone();
    model.meshes = vec![mesh; 256];
    let message = write(&model).expect_err("256 groups must be refused");
    assert!(
        message.contains("limit") && message.contains("255"),
        "{message}"
    );
    let mut model = small(0);
    let material = model.materials[0].clone();
    model.materials = vec![material; 129];
    let message = write(&model).expect_err("129 materials must be refused");
    assert!(
        message.contains("limit") && message.contains("128"),
        "{message}"
    );
}

/// Names longer than 31 bytes and paths longer than 127 are cut, reported once.
pub fn names(write: Write<'_>) {
    let mut model = small(1);
    model.skeleton.joints[1].name = "a joint name longer than thirty-one bytes".into();
    // 33 bytes of UTF-8 (€ has no Latin-1 byte), cut at a character boundary.
    model.meshes[0].name = "€".repeat(11);
    model.materials[0].texture = Some(format!("C:/{}/skin.png", "x".repeat(200)));
    let report = write(&model).expect("names are cut, not refused");
    loss_naming_limit(&report, rigport_model_core::codes::NAME_TRUNCATED, 31);
    let notice = report
        .with_code(rigport_model_core::codes::NAME_TRUNCATED)
        .next()
        .unwrap();
    assert!(
        notice.message.contains("127") && notice.message.starts_with("3 "),
        "{notice}"
    );
    // Names that fit are not reported.
    let report = write(&small(1)).unwrap();
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::NAME_TRUNCATED)
            .count(),
        0,
        "{report}"
    );
}

/// One timeline: the first animation is kept, each other one is a loss naming it.
pub fn animations(write: Write<'_>) {
    let model = small(3);
    let report = write(&model).expect("several animations are written");
    assert_eq!(
        loss_naming_limit(&report, rigport_model_core::codes::ANIMATIONS_DROPPED, 1),
        2
    );
    for (notice, name) in report
        .with_code(rigport_model_core::codes::ANIMATIONS_DROPPED)
        .zip(["anim1", "anim2"])
    {
        assert!(notice.message.contains(&format!("`{name}`")), "{notice}");
        assert!(!notice.message.contains("`anim1` (3"), "{notice}");
    }
    let report = write(&small(1)).unwrap();
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::ANIMATIONS_DROPPED)
            .count(),
        0,
        "{report}"
    );
}

/// Extra joint weights: binary rounds them to whole percents, ASCII keeps one bone; both
/// report it as a loss naming the limit (`weights`: the code and limit number the writer
/// uses), and weights that fit are not reported.
pub fn weights(write: Write<'_>, code: rigport_model_core::Code, limit: usize) {
    let mut model = small(0);
    for vertex in &mut model.meshes[0].vertices {
        // 12.5 % is no whole percent.
        vertex.weights = [0.5, 0.25, 0.125, 0.125];
    }
    let report = write(&model).expect("weights are written");
    loss_naming_limit(&report, code, limit);
    let mut model = small(0);
    for vertex in &mut model.meshes[0].vertices {
        vertex.weights = [1.0, 0.0, 0.0, 0.0];
    }
    let report = write(&model).unwrap();
    assert_eq!(report.with_code(code).count(), 0, "{report}");
}

/// A model with `keys` rotation keys on one joint, for the per-channel key limit.
pub fn many_keys(keys: usize) -> Model {
    let mut model = small(1);
    let track = &mut model.animations[0].tracks[0];
    track.rotations = (0..keys)
        .map(|k| Key::new(k as f32 / 24.0, Quat::IDENTITY))
        .collect();
    model.animations[0].duration = keys as f32 / 24.0;
    model
}

/// Declares one `#[test]` per MilkShape limit for a writer: `$write` is an expression of
/// type `&dyn Fn(&Model) -> Result<Report, String>`, `$weights_code` and `$weights_limit`
/// the loss the writer gives for weights it cannot hold exactly.
#[macro_export]
macro_rules! milkshape_limit_tests {
    ($write:expr, $weights_code:expr, $weights_limit:expr) => {
        #[test]
        fn vertex_limit_is_an_error_naming_it() {
            $crate::milkshape_limits::vertices($write);
        }
        #[test]
        fn triangle_limit_is_an_error_naming_it() {
            $crate::milkshape_limits::triangles($write);
        }
        #[test]
        fn joint_limit_is_an_error_naming_it() {
            $crate::milkshape_limits::joints($write);
        }
        #[test]
        fn group_and_material_limits_are_errors_naming_them() {
            $crate::milkshape_limits::groups_and_materials($write);
        }
        #[test]
        fn long_names_are_cut_with_a_loss_naming_the_limit() {
            $crate::milkshape_limits::names($write);
        }
        #[test]
        fn one_timeline_keeps_the_first_animation_and_names_each_dropped_one() {
            $crate::milkshape_limits::animations($write);
        }
        #[test]
        fn weights_beyond_the_format_are_a_loss_naming_the_limit() {
            $crate::milkshape_limits::weights($write, $weights_code, $weights_limit);
        }
    };
}
