//! MilkShape's limits on the binary writer: the checks shared with the ASCII writer
//! (`rigport_test_support::milkshape_limits`), plus the binary-only key count limit.

use rigport_model_core::{Model, Report};
use rigport_ms3d_bin::{ConvertOptions, from_model};
use rigport_test_support::milkshape_limits;

fn write(model: &Model) -> Result<Report, String> {
    from_model(model, &ConvertOptions::default())
        .map(|(file, report)| {
            // What is written must read back: a limit met is never a broken file.
            rigport_ms3d_bin::File::from_slice(&file.to_vec()).expect("the output reads");
            report
        })
        .map_err(|e| e.to_string())
}

rigport_test_support::milkshape_limit_tests!(
    &write,
    rigport_model_core::codes::WEIGHTS_ROUNDED,
    100
);

#[test]
fn keys_past_the_channel_limit_are_a_loss_naming_it() {
    let report = write(&milkshape_limits::many_keys(65536)).unwrap();
    let notice = report
        .with_code(rigport_model_core::codes::TOO_MANY_KEYS)
        .next()
        .expect("reported");
    assert!(
        notice.message.contains("limit") && notice.message.contains("65535"),
        "{notice}"
    );
    let report = write(&milkshape_limits::many_keys(65535)).unwrap();
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::TOO_MANY_KEYS)
            .count(),
        0,
        "{report}"
    );
}

#[test]
fn whole_percent_weights_come_back_exactly() {
    // The synthetic rig weighs every vertex 40/30/20/10 %: nothing to round.
    let report = write(&milkshape_limits::small(1)).unwrap();
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::WEIGHTS_ROUNDED)
            .count(),
        0,
        "{report}"
    );
}
