//! MilkShape's limits on the ASCII writer: the same checks as on the binary writer
//! (`rigport_test_support::milkshape_limits`); ASCII keeps one bone per vertex.

use rigport_model_core::{Model, Report};
use rigport_ms3d_ascii::{ConvertOptions, from_model};

fn write(model: &Model) -> Result<Report, String> {
    from_model(model, &ConvertOptions::default())
        .map(|(file, report)| {
            // What is written must read back: a limit met is never a broken file.
            rigport_ms3d_ascii::File::from_slice(&file.to_vec()).expect("the output reads");
            report
        })
        .map_err(|e| e.to_string())
}

rigport_test_support::milkshape_limit_tests!(&write, rigport_model_core::codes::WEIGHTS_DROPPED, 1);
