//! Every fixture: good ones read, write back content-identical and byte-identical on a
//! second pass; `fail_*` ones give an error whose rendering is snapshot-tested.

mod common;

use rigport_iqe::{ConvertOptions, File, to_model};

#[test]
fn good_fixtures_round_trip() {
    insta::glob!("../../../fixtures", "iqe/*.iqe", |path| {
        let name = path.file_name().unwrap().to_string_lossy();
        if name.starts_with("fail_") {
            return;
        }
        let bytes = std::fs::read(path).unwrap();
        let file = File::from_slice(&bytes).unwrap_or_else(|e| panic!("{}", e.render(&bytes)));
        let once = file.to_vec();
        let again =
            File::from_slice(&once).unwrap_or_else(|e| panic!("{name}: {}", e.render(&once)));
        assert_eq!(again, file, "{name}: content changed by writing");
        assert_eq!(again.to_vec(), once, "{name}: second write differs");
        to_model(&file, &ConvertOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    });
}

#[test]
fn failing_fixtures_render_their_errors() {
    insta::glob!("../../../fixtures", "iqe/fail_*.iqe", |path| {
        let bytes = std::fs::read(path).unwrap();
        let error = File::from_slice(&bytes).expect_err("a fail_ fixture must not load");
        insta::assert_snapshot!(error.render(&bytes));
    });
}

#[test]
fn canonical_layout_of_a_fixture() {
    let file = common::fixture("crlf.iqe");
    insta::assert_snapshot!(String::from_utf8(file.to_vec()).unwrap());
}
