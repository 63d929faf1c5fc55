//! The reader reports every byte of the body as read, once, in steps a caller can hand
//! back to the system while the read goes on.

use rigport_iqe::File;
use rigport_model_core::{Consumed, ReadOptions};
use std::ops::Range;
use std::sync::{Arc, Mutex};

/// Reads `src` with a hook and returns the ranges it was told about, in order.
fn consumed_ranges(src: &[u8]) -> Vec<Range<usize>> {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let options = ReadOptions {
        consumed: Consumed::new(move |range| log.lock().unwrap().push(range)),
        ..ReadOptions::default()
    };
    File::from_slice_with(src, &options).unwrap();
    let mut ranges = seen.lock().unwrap().clone();
    ranges.sort_by_key(|r| r.start);
    ranges
}

/// A file of about `bytes` bytes of vertex and face lines.
fn file_of_size(bytes: usize) -> Vec<u8> {
    let mut src = b"# Inter-Quake Export\nmesh body\n".to_vec();
    let mut v = 0u32;
    while src.len() < bytes {
        src.extend_from_slice(format!("vp {v}.5 1.25 -3\nvt 0.5 0.25\n").as_bytes());
        if v >= 2 {
            src.extend_from_slice(format!("fm {} {} {v}\n", v - 2, v - 1).as_bytes());
        }
        v += 1;
    }
    src
}

#[test]
fn every_byte_after_the_header_is_reported_once_in_order() {
    for size in [200, 3 << 20, 9 << 20] {
        let src = file_of_size(size);
        let ranges = consumed_ranges(&src);
        let body = b"# Inter-Quake Export\n".len();
        assert_eq!(ranges.first().map(|r| r.start), Some(body), "{size}");
        assert_eq!(ranges.last().map(|r| r.end), Some(src.len()), "{size}");
        for pair in ranges.windows(2) {
            assert_eq!(pair[0].end, pair[1].start, "{size}: a gap or an overlap");
        }
        // Large files are reported as they are read, not at the end.
        assert!(
            ranges.len() >= size >> 20,
            "{size}: {} ranges",
            ranges.len()
        );
    }
}

#[test]
fn a_file_read_with_a_listener_is_the_file_read_without() {
    let src = file_of_size(2 << 20);
    let plain = File::from_slice(&src).unwrap();
    let options = ReadOptions {
        consumed: Consumed::new(|_| {}),
        ..ReadOptions::default()
    };
    let (heard, _) = File::from_slice_with(&src, &options).unwrap();
    assert_eq!(plain, heard);
}
