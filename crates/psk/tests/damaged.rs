//! The damaged corpus files fail with the byte offset of the damage.

mod common;

use rigport_psk::{Error, File, ReadOptions};

fn read(name: &str) -> Option<Error> {
    let files = common::corpus("psk-damaged");
    let (_, bytes) = files.iter().find(|(n, _)| n == name)?;
    Some(File::from_slice_with(bytes, &ReadOptions::default()).unwrap_err())
}

#[test]
fn a_truncated_face_section_names_its_header_and_the_cut_record() {
    let Some(error) = read("derived_examplemesh_truncated.psk") else {
        return;
    };
    // FACE0000's header is at 2856; its 108 records of 12 bytes start at 2888, and the file
    // (3373 bytes) ends 5 bytes into record 40, which starts at 2888 + 40 × 12 = 3368.
    assert_eq!(error.offset(), Some(2856), "{error}");
    let text = error.to_string();
    assert!(
        text.contains("FACE0000") && text.contains("record 40 at byte 3368"),
        "{text}"
    );
}

#[test]
fn a_wedge_index_past_the_wedges_names_where_it_is_stored() {
    let Some(error) = read("derived_examplemesh_wedge_index_oob.psk") else {
        return;
    };
    assert_eq!(error.offset(), Some(2928), "{error}");
    assert!(error.to_string().contains("65535"), "{error}");
}

#[test]
fn keys_past_the_end_name_their_section() {
    let Some(error) = read("derived_pendulum_animkeys_past_end.psa") else {
        return;
    };
    // ANIMKEYS at 624 asks for 120 keys of 32 bytes; 1920 bytes are there.
    assert_eq!(error.offset(), Some(624), "{error}");
    assert!(error.to_string().contains("ANIMKEYS"), "{error}");
}

#[test]
fn every_damaged_file_fails_with_an_offset() {
    for (name, bytes) in common::corpus("psk-damaged") {
        let error = File::from_slice(&bytes).expect_err(&name);
        assert!(error.offset().is_some(), "{name}: {error}");
    }
}
