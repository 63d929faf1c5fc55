//! Writes the files the project makes from code, for `cargo xtask golden` and
//! `cargo xtask bench-data`:
//!
//! * `generate fixtures [--check]`: the generated files under `fixtures/` (with `--check`,
//!   fail naming the stale ones and write nothing);
//! * `generate bench-data`: the large synthetic bench inputs under `bench-data/`.
#![forbid(unsafe_code)]

use rigport_test_support::{generated, workspace_root};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let fixtures = workspace_root().join("fixtures");
    let result = match args.as_slice() {
        ["fixtures"] => generated::write_fixtures(&fixtures, false),
        ["fixtures", "--check"] => generated::write_fixtures(&fixtures, true),
        ["bench-data"] => generated::bench_data::run(),
        _ => {
            eprintln!("usage: generate fixtures [--check] | bench-data");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("generate: {message}");
            ExitCode::FAILURE
        }
    }
}
