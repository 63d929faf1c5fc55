//! `rigport`: inspect, validate and convert skeletal models.
//!
//! Exit codes: 0 success, 1 bad input or a failed conversion, 2 usage error.
#![forbid(unsafe_code)]

use clap::Parser;
use rigport::{args, commands};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    let status = match &cli.command {
        args::Command::Info(a) => commands::info::run(a),
        args::Command::Convert(a) => commands::convert::run(a),
        args::Command::Validate(a) => commands::validate::run(a),
    };
    status.into()
}
