#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rigport_test_support::fuzz::md5(data));
