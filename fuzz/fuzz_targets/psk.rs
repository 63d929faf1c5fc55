#![no_main]

//! `rigport_psk` (`.psk`, `.pskx`, `.psa`): sniff, lenient and strict reads, the summary, the
//! faithful write (equal to the input), the model, and the model written back as `.psk` and
//! `.psa` and read again strictly.

use rigport_psk::{ConvertOptions, File, ReadOptions, anim_from_model, from_model, to_model};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    rigport_sweep::fuzz::target(env!("CARGO_BIN_NAME"), data);
    let _ = rigport_psk::sniff(data);
    let _ = File::from_slice_with(data, &ReadOptions::strict());
    let file = match File::from_slice_with(data, &ReadOptions::default()) {
        Ok((file, _)) => file,
        Err(error) => {
            assert!(
                error.offset().is_some(),
                "a read error without an offset: {error}"
            );
            return;
        }
    };
    let _ = file.summary();
    assert_eq!(
        file.to_vec(),
        data,
        "the faithful write differs from the input"
    );
    let options = ConvertOptions::default();
    let Ok((model, _)) = to_model(&file, &options) else {
        return;
    };
    for written in [
        from_model(&model, &options),
        anim_from_model(&model, &options),
    ] {
        if let Ok((out, _)) = written {
            let bytes = out.to_vec();
            let back = File::from_slice_with(&bytes, &ReadOptions::strict())
                .expect("the crate's own output reads back strictly");
            assert_eq!(back.0.to_vec(), bytes);
            let _ = to_model(&back.0, &options);
        }
    }
});
