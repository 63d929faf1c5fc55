//! Throughput of the MD5 reader, writer and conversions on the shared 1 MB text rig
//! (`rigport_test_support::synth::text_rig(1)`: 8 grids of 4970 vertices with 4 weights,
//! 64 joints, 64 frames) written as an `.md5mesh` and an `.md5anim`, counted in the bytes
//! of the file read (the writer in the bytes it writes).

use criterion::{Criterion, Throughput};
use rigport_md5::{ConvertOptions, File, anim_from_model, from_model, to_model};
use rigport_test_support::synth;
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let model = synth::model(&synth::text_rig(1), 1);
    let options = ConvertOptions::default();
    let (mesh, _) = from_model(&model, &options).expect("the bench model converts");
    let bytes = mesh.to_vec();
    let (mesh_model, _) = to_model(&mesh, &options).expect("the bench mesh converts back");

    let mut group = c.benchmark_group("md5mesh");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("read", |b| b.iter(|| File::from_slice(black_box(&bytes))));
    group.bench_function("to_model", |b| {
        b.iter(|| to_model(black_box(&mesh), &options))
    });
    group.bench_function("from_model", |b| {
        b.iter(|| from_model(black_box(&mesh_model), &options))
    });
    group.bench_function("write", |b| b.iter(|| black_box(&mesh).to_vec()));
    group.finish();

    if !model.animations.is_empty() {
        let (anim, _) = anim_from_model(&model, 0, &options).expect("the bench animation converts");
        let bytes = anim.to_vec();
        let mut group = c.benchmark_group("md5anim");
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("read", |b| b.iter(|| File::from_slice(black_box(&bytes))));
        group.bench_function("to_model", |b| {
            b.iter(|| to_model(black_box(&anim), &options))
        });
        group.bench_function("from_model", |b| {
            b.iter(|| anim_from_model(black_box(&model), 0, &options))
        });
        group.finish();
    }
}

rigport_test_support::bench_main!(benches);
