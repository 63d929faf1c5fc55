//! `rigport`: inspect, validate and convert skeletal models.
#![forbid(unsafe_code)]

#[allow(dead_code)]
mod export;

fn main() {}
