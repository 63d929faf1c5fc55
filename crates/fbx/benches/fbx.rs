//! Throughput of the FBX reader on the corpus's largest skinned, animated character
//! (`ufbx_maya_kenney_character_7700_binary.fbx`, 742 KB: 58 bones, 1604 triangles, one
//! animation), counted in input bytes: ufbx's load alone, and the whole read into the model
//! (load, skeleton, meshes, baked animation). Skips when `RIGPORT_CORPUS` is not set.

use criterion::{Criterion, Throughput};
use rigport_model_core::ReadOptions;
use std::hint::black_box;

fn fbx(c: &mut Criterion) {
    let Some(dir) = rigport_test_support::corpus::corpus_dir("fbx") else {
        return;
    };
    let bytes = std::fs::read(dir.join("ufbx_maya_kenney_character_7700_binary.fbx"))
        .expect("the corpus character");
    let options = ReadOptions::default();
    rigport_fbx::CODEC
        .read(&bytes, &options)
        .expect("the bench input reads");
    let mut group = c.benchmark_group("fbx");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("load", |b| {
        b.iter(|| rigport_fbx::load(black_box(&bytes), &options))
    });
    group.bench_function("read", |b| {
        b.iter(|| rigport_fbx::CODEC.read(black_box(&bytes), &options))
    });
    group.finish();
}

rigport_test_support::bench_main!(fbx);
