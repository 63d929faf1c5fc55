//! `rigport`: inspect, validate and convert skeletal models.
#![forbid(unsafe_code)]

mod args;
#[allow(dead_code)]
mod export;
#[allow(dead_code)]
mod formats;
#[allow(dead_code)]
mod output;

use clap::Parser;

fn main() {
    let _cli = args::Cli::parse();
}
