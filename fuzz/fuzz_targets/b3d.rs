#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rigport_sweep::fuzz::target(env!("CARGO_BIN_NAME"), data));
