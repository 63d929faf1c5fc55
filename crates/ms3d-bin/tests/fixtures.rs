//! One snapshot per fixture: what `rigport info` would show (lenient read, its warnings
//! appended) and how a strict read ends. Every fixture that reads must write back the
//! same bytes.

mod common;

use rigport_ms3d_bin::{File, ReadOptions};

fn describe(bytes: &[u8]) -> String {
    let lenient = match File::from_slice_with(bytes, &ReadOptions::default()) {
        Ok((file, report)) => {
            assert_eq!(file.to_vec(), bytes, "write(read(x)) must equal x");
            let mut summary = file.summary();
            summary
                .warnings
                .extend(report.notices.iter().map(ToString::to_string));
            format!("{summary:#?}")
        }
        Err(error) => {
            assert!(
                error.offset().is_some(),
                "read errors name an offset: {error}"
            );
            format!("error: {error}")
        }
    };
    let strict = match File::from_slice_with(bytes, &ReadOptions::strict()) {
        Ok(_) => "ok".to_owned(),
        Err(error) => format!("error: {error}"),
    };
    format!("lenient: {lenient}\nstrict: {strict}\n")
}

#[test]
fn fixture_summaries() {
    insta::glob!("../../../fixtures", "ms3d/*.ms3d", |path| {
        let bytes = std::fs::read(path).unwrap();
        insta::assert_snapshot!(describe(&bytes));
    });
}

#[test]
fn expected_failures_fail_and_the_rest_read() {
    for (name, bytes) in common::ms3d_files(&common::fixture_dir()) {
        let result = File::from_slice(&bytes);
        assert_eq!(
            result.is_err(),
            name.starts_with("fail_"),
            "{name}: {:?}",
            result.err()
        );
        let strict = File::from_slice_with(&bytes, &ReadOptions::strict());
        let clean = !name.starts_with("fail_") && !name.starts_with("tail_");
        assert_eq!(strict.is_ok(), clean, "{name} strict: {:?}", strict.err());
    }
}
