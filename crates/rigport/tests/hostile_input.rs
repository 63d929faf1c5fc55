//! Hostile input sweep: every fixture and every corpus file, cut at 64 evenly spaced offsets
//! and mutated 64 times with a seeded generator, goes through everything rigport does with an
//! input (sniff, lenient and strict read, summary, `convert` to every format and reading the
//! result back, drawing a small picture and a contact sheet; see `support/exercise.rs`).
//! Each case must
//!
//! - return (a panic is caught and reported with the case that caused it),
//! - keep its messages short ([`exercise::MAX_MESSAGE_BYTES`]),
//! - finish within [`HANG_SECONDS`] — a hang detector, not a speed test: real cases take
//!   at most about a second, so only a loop that never ends or a runaway resampling can
//!   reach it,
//! - and hold at most [`ALLOC_PER_INPUT_BYTE`] × input size + [`ALLOC_CONSTANT`] bytes
//!   allocated at once, measured by the counting global allocator of this test binary.
//!
//! The bound: real conversions of the corpus peak at no more than 30 × the input size (a
//! 1.4 MB MilkShape file becomes welded vertices, a model, six output files and their
//! read-backs; the sweep prints the worst ratio it saw), so 64 × leaves a margin of two. The
//! constant covers fixed costs and the one place where output may outgrow the input: IQE
//! stores every frame, and its writer resamples up to 131 072 poses whatever the number of
//! keys (`rigport_iqe::from_model`). A count in a header or a key time that made a reader
//! or writer allocate for what the file does not hold breaks the bound at once.

use rigport_test_support::{corpus, counting_alloc, exercise};

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

#[global_allocator]
static ALLOCATOR: counting_alloc::Counting = counting_alloc::Counting;

/// Cuts per file, at `i × len / 64`.
const CUTS: usize = 64;
/// Seeded mutants per file.
const MUTANTS: usize = 64;
/// Allowed peak allocation per input byte.
const ALLOC_PER_INPUT_BYTE: usize = 64;
/// Allowed peak allocation on top of the per-byte share.
const ALLOC_CONSTANT: usize = 64 << 20;
/// A case running longer than this is hanging (see the module docs: not a speed test).
const HANG_SECONDS: u64 = 10;

/// splitmix64: a tiny, good-enough deterministic generator (no dependency needed).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Stable seed from a file name, so a failing case can be reproduced from its label.
fn seed_of(name: &str) -> u64 {
    name.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}

/// Mutant `index` of `original`: one to four edits, each one of the damage kinds real and
/// crafted files show — a random byte, a flipped bit, a count or length turned huge or
/// negative, a float turned into garbage, a run of digits in text, a deleted byte (misaligns
/// everything after it).
fn mutate(original: &[u8], seed: u64, index: usize) -> Vec<u8> {
    let mut rng = SplitMix64(seed ^ (index as u64).wrapping_mul(0xA24B_AED4_963E_E407));
    let mut bytes = original.to_vec();
    for _ in 0..1 + rng.below(4) {
        if bytes.is_empty() {
            bytes.push(rng.next() as u8);
            continue;
        }
        let at = rng.below(bytes.len());
        let overwrite = |bytes: &mut Vec<u8>, with: &[u8]| {
            for (i, b) in with.iter().enumerate() {
                if let Some(slot) = bytes.get_mut(at + i) {
                    *slot = *b;
                }
            }
        };
        match rng.below(7) {
            0 => bytes[at] = rng.next() as u8,
            1 => bytes[at] ^= 1 << rng.below(8),
            2 => overwrite(&mut bytes, &u32::MAX.to_le_bytes()),
            3 => overwrite(&mut bytes, &0x7FFF_FFF0_u32.to_le_bytes()),
            4 => overwrite(&mut bytes, &(-3.3e38_f32).to_le_bytes()),
            5 => overwrite(&mut bytes, b"99999999"),
            _ => {
                bytes.remove(at);
            }
        }
    }
    bytes
}

/// Case `index` of a file: cuts first, then mutants.
fn case(name: &str, original: &[u8], index: usize) -> (String, Vec<u8>) {
    if index < CUTS {
        let at = index * original.len() / CUTS;
        (format!("{name} cut at {at}"), original[..at].to_vec())
    } else {
        let m = index - CUTS;
        (
            format!("{name} mutant {m}"),
            mutate(original, seed_of(name), m),
        )
    }
}

thread_local! {
    /// Where and why the last panic on this thread happened, recorded by [`quiet_panics`].
    static LAST_PANIC: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Replaces the panic hook so a caught panic is recorded for the failure list instead of
/// printing a backtrace per case.
fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("(no message)");
        let at = info
            .location()
            .map_or_else(String::new, |l| format!("{}:{}", l.file(), l.line()));
        LAST_PANIC.with(|p| *p.borrow_mut() = format!("{at}: {message}"));
    }));
}

/// What the sweep saw, for the summary line and the failure list.
#[derive(Default)]
struct Tally {
    cases: usize,
    conversions: usize,
    worst_ratio: f64,
    worst_ratio_case: String,
    largest_peak: usize,
    largest_peak_case: String,
    slowest: Duration,
    slowest_case: String,
    failures: Vec<String>,
}

/// Runs every case of every file on a few worker threads and fails with the list of bad cases.
fn sweep(files: &[(String, Vec<u8>)]) {
    let jobs: Vec<(usize, usize)> = (0..files.len())
        .flat_map(|f| (0..CUTS + MUTANTS).map(move |c| (f, c)))
        .collect();
    let next = AtomicUsize::new(0);
    let tally = Mutex::new(Tally::default());
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let started = Instant::now();
    quiet_panics();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while let Some(&(f, c)) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let (name, original) = &files[f];
                    let (label, bytes) = case(name, original, c);
                    let clock = Instant::now();
                    let (outcome, peak) = counting_alloc::peak_during(|| {
                        catch_unwind(AssertUnwindSafe(|| exercise::exercise(&bytes)))
                    });
                    let outcome = outcome.map_err(|_| LAST_PANIC.with(|p| p.take()));
                    let elapsed = clock.elapsed();
                    let bound = ALLOC_PER_INPUT_BYTE * bytes.len() + ALLOC_CONSTANT;
                    let mut t = tally.lock().unwrap_or_else(|p| p.into_inner());
                    t.cases += 1;
                    match outcome {
                        Ok(Ok(n)) => t.conversions += n,
                        Ok(Err(bug)) => t.failures.push(format!("{label}: {bug}")),
                        Err(panic) => t.failures.push(format!("{label}: panicked at {panic}")),
                    }
                    if peak > bound {
                        t.failures.push(format!(
                            "{label}: peak allocation {peak} bytes for {} input bytes (bound {bound})",
                            bytes.len()
                        ));
                    }
                    // Only inputs large enough for the per-byte share to dominate say
                    // something about the multiple.
                    let ratio = peak as f64 / bytes.len().max(1) as f64;
                    if bytes.len() >= 1 << 16 && ratio > t.worst_ratio {
                        t.worst_ratio = ratio;
                        t.worst_ratio_case = format!("{label}, {} bytes", bytes.len());
                    }
                    if peak > t.largest_peak {
                        t.largest_peak = peak;
                        t.largest_peak_case = format!("{label}, {} bytes", bytes.len());
                    }
                    if elapsed > t.slowest {
                        t.slowest = elapsed;
                        t.slowest_case = label.clone();
                    }
                    if elapsed > Duration::from_secs(HANG_SECONDS) {
                        t.failures
                            .push(format!("{label}: took {elapsed:?}, probably a hang"));
                    }
                }
            });
        }
    });
    let t = tally.into_inner().unwrap_or_else(|p| p.into_inner());
    println!(
        "{} files, {} cases, {} conversions read back, {:?} on {workers} threads; \
         slowest {:?} ({}); largest peak {} bytes ({}); worst peak / input (inputs of \
         64 KiB or more) {:.1} ({})",
        files.len(),
        t.cases,
        t.conversions,
        started.elapsed(),
        t.slowest,
        t.slowest_case,
        t.largest_peak,
        t.largest_peak_case,
        t.worst_ratio,
        t.worst_ratio_case,
    );
    for failure in &t.failures {
        println!("BAD {}", failure.lines().next().unwrap_or_default());
    }
    assert_eq!(t.cases, files.len() * (CUTS + MUTANTS));
    assert!(
        t.failures.is_empty(),
        "{} bad cases:\n{}",
        t.failures.len(),
        t.failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Every file under `dir`, recursively, named relative to it, sorted.
fn files_under(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if !path.ends_with("MANIFEST.tsv") {
                let name = path
                    .strip_prefix(dir)
                    .unwrap_or(&path)
                    .display()
                    .to_string();
                let bytes = std::fs::read(&path).expect("readable file");
                found.push((name, bytes));
            }
        }
    }
    found.sort();
    found
}

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn fixtures_survive_cuts_and_mutations() {
    let files = files_under(&workspace_root().join("fixtures"));
    assert!(
        files.len() >= 60,
        "fixtures/ holds the project's test files"
    );
    sweep(&files);
}

#[test]
fn corpus_survives_cuts_and_mutations() {
    let Some(dir) = corpus::corpus_root() else {
        return;
    };
    let files = files_under(&dir);
    assert!(!files.is_empty(), "{} holds no files", dir.display());
    sweep(&files);
}

/// Diagnosis of one case named as in a failure (`HOSTILE_CASE='ms3d/x.ms3d mutant 7'`): the
/// time and peak allocation of each conversion, and the case's bytes written to
/// `HOSTILE_CASE_OUT` if set (to commit it under `fuzz/regressions/`). Run with
/// `cargo test -p rigport --test hostile_input -- --ignored --nocapture`.
#[test]
#[ignore = "a diagnosis tool, run by hand with HOSTILE_CASE set"]
fn diagnose_one_case() {
    let wanted = std::env::var("HOSTILE_CASE").expect("HOSTILE_CASE names a case");
    let mut dirs = vec![workspace_root().join("fixtures")];
    dirs.extend(corpus::corpus_root());
    let files: Vec<_> = dirs.iter().flat_map(|d| files_under(d)).collect();
    let (label, bytes) = files
        .iter()
        .flat_map(|(name, original)| (0..CUTS + MUTANTS).map(move |c| (name, original, c)))
        .map(|(name, original, c)| case(name, original, c))
        .find(|(label, _)| *label == wanted)
        .unwrap_or_else(|| panic!("no case named `{wanted}`"));
    if let Some(out) = std::env::var_os("HOSTILE_CASE_OUT") {
        std::fs::write(&out, &bytes).expect("writable HOSTILE_CASE_OUT");
    }
    println!("{label}: {} bytes", bytes.len());
    for target in exercise::targets() {
        let clock = Instant::now();
        let (outcome, peak) =
            counting_alloc::peak_during(|| exercise::convert_and_read_back(&bytes, target));
        println!(
            "{:>10}: {:?}, peak {peak} bytes, {:?}",
            target.key(),
            outcome.map_err(|e| e.lines().next().unwrap_or_default().to_owned()),
            clock.elapsed()
        );
    }
}

/// A text fixture with a megabyte of `x` pushed into the middle of its fourth line (into a
/// name, a number or a keyword, whatever is there) still gives short messages: every error
/// and warning is checked against [`exercise::MAX_MESSAGE_BYTES`], and a read error still
/// says where (a `--> line:column`).
#[test]
fn a_megabyte_line_gives_short_messages() {
    let root = workspace_root().join("fixtures");
    let mut errors = 0;
    for (dir, format) in [
        ("iqe", rigport::Format::Iqe),
        ("ms3d-ascii", rigport::Format::Ms3dAscii),
    ] {
        for (name, original) in files_under(&root.join(dir)) {
            let Some(line_start) = original
                .iter()
                .enumerate()
                .filter(|(_, b)| **b == b'\n')
                .nth(2)
                .map(|(i, _)| i + 1)
            else {
                continue;
            };
            let line_len = original[line_start..]
                .iter()
                .position(|&b| b == b'\n')
                .unwrap_or(original.len() - line_start);
            let at = line_start + line_len / 2;
            let mut bytes = original[..at].to_vec();
            bytes.extend(std::iter::repeat_n(b'x', 1 << 20));
            bytes.extend_from_slice(&original[at..]);
            if let Err(bug) = exercise::exercise(&bytes) {
                panic!("{name}: {bug}");
            }
            let read = rigport::document::Document::read(&bytes, format, &Default::default());
            if let Err(error) = read {
                errors += 1;
                assert!(
                    error.to_string().contains("--> "),
                    "{name}: the error names no line:\n{}",
                    error
                );
            }
        }
    }
    // Most fixtures break when a number or keyword grows a megabyte of `x`.
    assert!(errors >= 10, "only {errors} fixtures failed to read");
}

/// Counts and sizes that promise far more than the file holds are refused before anything
/// is allocated for them: each input is tiny, so the allocation bound is close to the
/// constant alone, and a reader that trusted the count would blow it by gigabytes.
#[test]
fn promised_counts_fail_at_once() {
    let mut ms3d_vertices = b"MS3D000000".to_vec();
    ms3d_vertices.extend_from_slice(&4i32.to_le_bytes());
    ms3d_vertices.extend_from_slice(&u16::MAX.to_le_bytes());
    let cases: [(&str, Vec<u8>); 8] = [
        ("ms3d vertex count 65535", ms3d_vertices),
        (
            "ASCII Meshes: 2000000000",
            b"// MilkShape 3D ASCII\nMeshes: 2000000000\n\"m\" 0 0\n".to_vec(),
        ),
        (
            "ASCII Meshes: 4000000000",
            b"// MilkShape 3D ASCII\n\nFrames: 30\nFrame: 1\n\nMeshes: 4000000000\n\"m\" 0 0\n"
                .to_vec(),
        ),
        (
            "ASCII vertex count 4000000000",
            b"// MilkShape 3D ASCII\nMeshes: 1\n\"m\" 0 0\n4000000000\n0 0 0 0 0 0 -1\n".to_vec(),
        ),
        (
            "ASCII Bones: 2147483647 with key counts",
            b"// MilkShape 3D ASCII\nBones: 2147483647\n\"b\"\n\"\"\n0 0 0 0 0 0 0\n2147483647\n"
                .to_vec(),
        ),
        (
            "IQE vertex array of 4000000000 components",
            b"# Inter-Quake Export\nvertexarray position float 4000000000\nmesh m\nvp 0 0 0\n"
                .to_vec(),
        ),
        (
            "IQE face index 4000000000",
            b"# Inter-Quake Export\nmesh m\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 4000000000\n"
                .to_vec(),
        ),
        (
            "IQE frame at the end of time",
            b"# Inter-Quake Export\njoint a -1\npq 0 0 0 0 0 0 1\nanimation x\nframerate 3e38\n\
              frame\npq 0 0 0 0 0 0 1\nframe\npq 0 0 0 0 0 0 1\n"
                .to_vec(),
        ),
    ];
    for (what, bytes) in cases {
        let (outcome, peak) = counting_alloc::peak_during(|| exercise::exercise(&bytes));
        if let Err(bug) = outcome {
            panic!("{what}: {bug}");
        }
        let bound = ALLOC_PER_INPUT_BYTE * bytes.len() + ALLOC_CONSTANT;
        assert!(peak <= bound, "{what}: peak {peak} bytes, bound {bound}");
        let strict = rigport_model_core::ReadOptions::strict();
        let read = rigport::document::Document::sniff_and_read(&bytes, &strict);
        // The strict reader refuses the counts (a lenient one keeps the block as a damaged
        // tail); the other cases read, and the conversions refused or bounded them, which
        // `exercise` checked above.
        if what.contains("count") || what.contains("Meshes") {
            let error = read.expect_err(what);
            assert!(
                error.to_string().len() <= exercise::MAX_MESSAGE_BYTES,
                "{what}"
            );
        }
    }
}

/// The most an IQE export resamples for any model (131 072 poses, see the module docs) fits
/// the allocation constant: a 150-byte MilkShape ASCII file with one bone keyed at frame
/// 131 000 becomes 131 001 frames of IQE.
#[test]
fn the_largest_free_resampling_fits_the_constant() {
    let text = b"// MilkShape 3D ASCII\nFrames: 131000\nFrame: 1\nMeshes: 0\nMaterials: 0\n\
                 Bones: 1\n\"root\"\n\"\"\n8 0 0 0 0 0 0\n2\n1 0 0 0\n131000 0 1 0\n0\n";
    let (outcome, peak) =
        counting_alloc::peak_during(|| exercise::convert_and_read_back(text, rigport::Format::Iqe));
    assert_eq!(
        outcome,
        Ok(true),
        "the conversion is allowed and reads back"
    );
    let iqe = rigport::pipeline::convert(
        text,
        Path::new("out.iqe"),
        rigport::Format::Iqe,
        &Default::default(),
    )
    .expect("converts");
    let frames = iqe.files[0]
        .1
        .split(|&b| b == b'\n')
        .filter(|l| l.starts_with(b"frame"))
        .count();
    // The last key, at frame 131 000, is 131 000 / fps seconds in (MilkShape ASCII frame
    // numbers are times × fps); IQE samples from time 0: frames 0..=131 000.
    assert_eq!(frames, 131_001);
    let bound = ALLOC_PER_INPUT_BYTE * text.len() + ALLOC_CONSTANT;
    println!("peak {peak} bytes for 131 001 poses (bound {bound})");
    assert!(peak <= bound, "peak {peak} bytes, bound {bound}");
}
