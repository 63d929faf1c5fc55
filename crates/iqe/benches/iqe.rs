//! Throughput of the IQE reader, writer and conversions on two 10 MB shapes, counted in
//! input bytes (the writer in the bytes it writes):
//!
//! * `iqe`: `bench-data/big10.iqe`, 8 grids of 4970 vertices with 4 weights each and
//!   6-decimal numbers, 64 joints, 640 frames;
//! * `iqe-short`: `bench-data/short10.iqe`, the simplest exporters' short lines:
//!   `vp` with 5 decimals, `vt`, `vn 0 1 0`, `vb 12 0.6 13 0.4`, `fm a b c`, 850 frames of
//!   64 `pq` lines.
//!
//! `read` uses every core of rayon's pool (feature `parallel`), `read, one thread` a pool
//! of one thread, which reads on the calling thread as without the feature.
//! Run `cargo xtask bench-data` first; without it 1 MB files are generated in process.

use criterion::{Criterion, Throughput};
use rigport_iqe::{ConvertOptions, File, from_model, to_model};
use rigport_test_support::synth;
use std::hint::black_box;

/// The read / to_model / from_model / write group on the input `name`.
fn group(c: &mut Criterion, group: &str, name: &str, generate: impl FnOnce() -> Vec<u8>) {
    let bytes = synth::load_or_generate(env!("CARGO_MANIFEST_DIR"), name, generate);
    let options = ConvertOptions::default();
    let file = File::from_slice(&bytes).expect("the bench input reads");
    let (model, _) = to_model(&file, &options).expect("the bench input converts");
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool of one thread");

    let mut group = c.benchmark_group(group);
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("read", |b| b.iter(|| File::from_slice(black_box(&bytes))));
    group.bench_function("read, one thread", |b| {
        b.iter(|| one_thread.install(|| File::from_slice(black_box(&bytes))))
    });
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

fn benches(c: &mut Criterion) {
    group(c, "iqe", "big10.iqe", || synth::iqe(&synth::text_rig(1)));
    group(c, "iqe-short", "short10.iqe", || {
        synth::iqe_short(&synth::short_rig(1))
    });
}

rigport_test_support::bench_main!(benches);
