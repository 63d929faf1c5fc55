#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rigport_fuzz::ms3d_ascii(data));
