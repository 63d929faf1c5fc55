//! `rigport`: inspect, validate and convert skeletal models.
#![forbid(unsafe_code)]
fn main() {}
