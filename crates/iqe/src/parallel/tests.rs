//! The file read in chunks on the thread pool is the file read on one thread: same
//! commands, same report, same error at the same line and column.

use super::*;
use crate::Detail;
use crate::file::File;
use crate::read::Split;
use crate::test_lines::{Outcome, file_of, line, read, test_files};
use proptest::prelude::*;
use rigport_model_core::diagnostic::line_col;
use rigport_model_core::{Limits, Report};

/// Reads `src` on one thread and in each number of chunks, leniently and strictly, and
/// checks every chunked read gives what the single reader gives.
fn assert_same_in_chunks(src: &[u8], counts: &[usize]) {
    for strict in [false, true] {
        let options = ReadOptions {
            strict,
            ..Default::default()
        };
        let one = read(src, &options, Split::One);
        for &count in counts {
            let chunked = read(src, &options, Split::Chunks(count));
            assert_eq!(
                chunked,
                one,
                "{count} chunks, strict {strict}, input:\n{}",
                String::from_utf8_lossy(src)
            );
        }
    }
}

/// `src`'s body read in (at most) `count` chunks, each chunk kept handed to `follow`.
fn read_chunks(
    src: &[u8],
    count: usize,
    options: &ReadOptions,
    follow: Follow<'_>,
) -> Option<Result<(Store, Option<usize>), Error>> {
    let (_, body) = crate::lines::header_line(src);
    let mut notes = Notes::default();
    let ranges = split(src, body, count);
    parse_chunks(
        src,
        &ranges,
        options,
        &mut notes,
        crate::read::parse_lines,
        follow,
    )
}

#[test]
fn split_covers_the_body_in_whole_lines() {
    let src = b"# Inter-Quake Export\nvp 1 2 3\n\nvt 0 1\r\nfm 0 1 2\nvp 4 5 6";
    let body = 21;
    for count in 1..12 {
        let ranges = split(src, body, count);
        assert!(ranges.len() <= count, "{count}: {ranges:?}");
        assert_eq!(ranges[0].start, body);
        assert_eq!(ranges.last().map(|r| r.end), Some(src.len()));
        for pair in ranges.windows(2) {
            assert_eq!(pair[0].end, pair[1].start);
            assert_eq!(src[pair[0].end - 1], b'\n', "{count}: {ranges:?}");
            assert!(pair[0].start < pair[0].end);
        }
    }
    // More chunks than lines: one per line at most.
    assert!(split(src, body, 100).len() <= 5);
}

/// Every fixture (the failing ones included) and every corpus file, cut into 2 to 64
/// chunks.
#[test]
fn fixtures_and_corpus_read_the_same_in_chunks() {
    for src in test_files() {
        assert_same_in_chunks(&src, &[2, 3, 7, 64]);
    }
}

/// The chunks handed to the caller as they are read are the file's commands, each once,
/// in order; from a worker of the pool too (which reads them all before following them),
/// even a pool of one thread.
#[test]
fn the_chunks_followed_are_the_file_in_order() {
    let src = rigport_test_support::synth::iqe_short(&rigport_test_support::synth::short_rig(1));
    let options = ReadOptions::default();
    let follow_all = || {
        let mut followed = Vec::new();
        let read = read_chunks(&src, 9, &options, &mut |chunk: &Store| {
            followed.push(chunk.iter().map(|c| c.to_command()).collect::<Vec<_>>())
        });
        let (store, _) = read.expect("read in chunks").expect("read");
        let commands: Vec<_> = store.iter().map(|c| c.to_command()).collect();
        (followed, commands)
    };
    let (followed, commands) = follow_all();
    assert!(followed.len() > 4, "{} chunks", followed.len());
    assert_eq!(followed.concat(), commands);
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let (followed, commands) = one.install(follow_all);
    assert!(followed.len() > 4, "{} chunks", followed.len());
    assert_eq!(followed.concat(), commands);
}

/// A file cut by a `comment` section or an error: only the chunks a reader keeps are
/// followed, up to the one holding the comment (the error's chunk is not).
#[test]
fn chunks_after_a_comment_or_an_error_are_not_followed() {
    let mut text = String::from("# Inter-Quake Export\n");
    for i in 0..400 {
        text.push_str(&format!("vp {i} 0 0\n"));
    }
    let half = text.len();
    for i in 0..400 {
        text.push_str(&format!("vp 0 {i} 0\n"));
    }
    for (cut, kept) in [("comment\n", true), ("vp 1 2 oops\n", false)] {
        let mut src = text.clone().into_bytes();
        src.splice(half..half, cut.bytes());
        let mut followed = 0;
        let read = read_chunks(&src, 8, &ReadOptions::default(), &mut |chunk: &Store| {
            followed += chunk.len()
        })
        .expect("read in chunks");
        match kept {
            true => assert_eq!(followed, read.expect("read").0.len()),
            false => assert!(
                read.is_err() && followed > 0 && followed < 400,
                "{followed}"
            ),
        }
    }
}

/// A file of `lines` with a syntax error on line `bad` (1-based, after the header): the
/// error names that line and the column of the bad token, whichever chunk holds it.
#[test]
fn an_error_in_a_later_chunk_points_at_its_line_and_column() {
    let bytes = rigport_test_support::synth::iqe_short(&rigport_test_support::synth::short_rig(2));
    assert!(
        bytes.len() > MIN_PARALLEL_BYTES,
        "the automatic split is used"
    );
    // Spoil the second number of a `vp` line near the end of the vertices of the 3rd mesh.
    let needle = b"\nvp ";
    let mut at = bytes.len() * 2 / 3;
    while &bytes[at..at + needle.len()] != needle {
        at -= 1;
    }
    let line_start = at + 1;
    let second = line_start
        + 3
        + bytes[line_start + 3..]
            .iter()
            .position(|&b| b == b' ')
            .unwrap()
        + 1;
    let mut src = bytes[..second].to_vec();
    src.extend_from_slice(b"x");
    src.extend_from_slice(&bytes[second..]);
    // Counted here, not by the reader: lines before the spoiled one, and its column.
    let line = 1 + src[..line_start].iter().filter(|&&b| b == b'\n').count();
    let column = second - line_start + 1;
    let options = ReadOptions::default();
    let Outcome::Failed(_, Some(span), rendered) = read(&src, &options, Split::Auto) else {
        panic!("the spoiled number is an error");
    };
    assert_eq!(line_col(&src, span.start), (line, column));
    assert!(
        rendered.contains(&format!("--> {line}:{column}")),
        "{rendered}"
    );
    // The chunked reader itself found it (no fallback to one thread).
    let chunked = read_chunks(&src, 8, &options, &mut |_| {});
    assert!(matches!(
        chunked,
        Some(Err(Error::Format {
            detail: Detail::Syntax { .. },
            ..
        }))
    ));
    assert_same_in_chunks(&src, &[2, 8]);
}

/// A limit the file overdraws gives the single reader's error (read again on one thread),
/// and one it fits gives the same file.
#[test]
fn allocation_limits_fail_at_the_same_command() {
    let src = rigport_test_support::synth::iqe_short(&rigport_test_support::synth::short_rig(1));
    let whole = File::from_slice(&src).unwrap();
    for max_alloc_bytes in [1_000, 200_000, src.len() as u64 / 2, src.len() as u64 * 4] {
        let options = ReadOptions {
            limits: Limits { max_alloc_bytes },
            ..Default::default()
        };
        let one = read(&src, &options, Split::One);
        assert_eq!(
            read(&src, &options, Split::Chunks(5)),
            one,
            "{max_alloc_bytes}"
        );
        if max_alloc_bytes > src.len() as u64 {
            assert_eq!(one, Outcome::Read(whole.clone(), Report::default()));
        } else {
            assert!(matches!(one, Outcome::Failed(..)), "{max_alloc_bytes}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random files of every kind of line, cut into 2 to 9 chunks, read the same as on
    /// one thread: same file, same report, or the same error rendered the same way.
    #[test]
    fn random_files_read_the_same_in_chunks(
        lines in proptest::collection::vec(line(), 0..120),
        counts in proptest::collection::vec(2usize..10, 1..3),
        cut_off in any::<bool>(),
    ) {
        let src = file_of(&lines, cut_off);
        assert_same_in_chunks(&src, &counts);
    }
}
