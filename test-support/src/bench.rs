//! What the criterion benches share (feature `bench`, so xtask and the tests do not build
//! criterion): the short measurement settings, criterion's entry point, and the read /
//! `to_model` / `from_model` / write group that every format crate runs through its API
//! contract.

use criterion::Criterion;
use std::time::Duration;

/// Few samples over short windows, so the whole suite runs in minutes on two cores.
pub fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

/// Criterion's `main`, running the bench function `$target` with [`config`]. The generated
/// group lives in a private module so it needs no docs.
#[macro_export]
macro_rules! bench_main {
    ($target:ident) => {
        mod entry {
            criterion::criterion_group! {
                name = benches;
                config = $crate::bench::config();
                targets = super::$target
            }
        }
        criterion::criterion_main!(entry::benches);
    };
}

/// A whole format-crate bench: the crate `$krate`'s `File::from_slice`, `to_model`,
/// `from_model` and `File::to_vec` on the input `$file` of `bench-data/` (or, when it has
/// not been generated, on the bytes `$generate` makes), in the criterion group `$group`.
/// Readers and conversions count the input's bytes; the writer counts the bytes it writes.
#[macro_export]
macro_rules! format_bench {
    ($krate:ident, $group:literal, $file:literal, $generate:expr) => {
        fn format(c: &mut criterion::Criterion) {
            use criterion::Throughput;
            use std::hint::black_box;
            use $krate::{ConvertOptions, File, from_model, to_model};

            let bytes =
                $crate::synth::load_or_generate(env!("CARGO_MANIFEST_DIR"), $file, || $generate);
            let options = ConvertOptions::default();
            let file = File::from_slice(&bytes).expect("the bench input reads");
            let (model, _) = to_model(&file, &options).expect("the bench input converts");
            // The writer must succeed on the input, or the bench would time an error return.
            from_model(&model, &options).expect("the bench model converts back");

            let mut group = c.benchmark_group($group);
            group.throughput(Throughput::Bytes(bytes.len() as u64));
            group.bench_function("read", |b| b.iter(|| File::from_slice(black_box(&bytes))));
            group.bench_function("to_model", |b| {
                b.iter(|| to_model(black_box(&file), &options))
            });
            group.bench_function("from_model", |b| {
                b.iter(|| from_model(black_box(&model), &options))
            });
            group.throughput(Throughput::Bytes(file.to_vec().len() as u64));
            group.bench_function("write", |b| b.iter(|| black_box(&file).to_vec()));
            group.finish();
        }

        $crate::bench_main!(format);
    };
}
