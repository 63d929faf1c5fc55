//! Throughput of the IQE reader, writer and conversions on a 9 MB file
//! (`bench-data/big10.iqe`: 8 grids of 4970 vertices with 4 weights each, 64 joints, 640
//! frames). Run `cargo xtask bench-data` first; without it a 1 MB file is generated in
//! process.

use criterion::{Criterion, Throughput, criterion_main};
use rigport_iqe::{ConvertOptions, File, from_model, to_model};
use std::hint::black_box;
use std::time::Duration;

#[allow(dead_code)] // shared with `cargo xtask bench-data`; this bench uses part of it
#[path = "../../../xtask/src/bench_data/synth/mod.rs"]
mod synth;

fn iqe(c: &mut Criterion) {
    let bytes = synth::load_or_generate(env!("CARGO_MANIFEST_DIR"), "big10.iqe", || {
        synth::iqe(&synth::text_rig(1))
    });
    let options = ConvertOptions::default();
    let file = File::from_slice(&bytes).expect("the bench input reads");
    let (model, _) = to_model(&file, &options).expect("the bench input converts");

    let mut group = c.benchmark_group("iqe");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("read", |b| b.iter(|| File::from_slice(black_box(&bytes))));
    group.bench_function("to_model", |b| {
        b.iter(|| to_model(black_box(&file), &options))
    });
    group.bench_function("from_model", |b| {
        b.iter(|| from_model(black_box(&model), &options))
    });
    // A writer's throughput counts the bytes it writes.
    group.throughput(Throughput::Bytes(file.to_vec().len() as u64));
    group.bench_function("write", |b| b.iter(|| black_box(&file).to_vec()));
    group.finish();
}

/// Few samples over short windows, so the whole suite runs in minutes on two cores.
fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

/// Criterion's generated entry point, kept private so it needs no docs.
mod entry {
    criterion::criterion_group! { name = benches; config = super::config(); targets = super::iqe }
}
criterion_main!(entry::benches);
