//! Import throughput on a large synthetic `.glb` (a 512 × 512 skinned grid, 262 144
//! vertices, 522 242 triangles, 4 joints and one animation: about 18 MB of buffer data),
//! counted in bytes of buffer data (the BIN chunk), the unit of the import's target
//! (≥ 500 MB/s).
//!
//! `cargo bench -p rigport-gltf --bench import` runs criterion. With
//! `RIGPORT_BENCH_ONCE=1` the binary builds the input, reads and converts it once and
//! exits, for instruction counts:
//! `RIGPORT_BENCH_ONCE=1 valgrind --tool=callgrind --toggle-collect='*to_model*' target/release/deps/import-…`.

use criterion::{Criterion, Throughput};
use glam::{Quat, Vec2, Vec3};
use rigport_gltf::export::{ExportOptions, to_glb};
use rigport_gltf::import::{GltfFile, ImportOptions, to_model};
use rigport_model_core::{
    Animation, Joint, JointId, Key, Mesh, Model, ReadOptions, Skeleton, Track, Vertex,
};
use std::hint::black_box;

const SIDE: u32 = 512;

/// A skinned grid: each vertex weighted to two of four joints along X.
fn model() -> Model {
    let mut mesh = Mesh::new("grid");
    mesh.has_uvs = true;
    for y in 0..SIDE {
        for x in 0..SIDE {
            let u = x as f32 / (SIDE - 1) as f32;
            let v = y as f32 / (SIDE - 1) as f32;
            let joint = (u * 3.0).floor().min(2.0) as u32;
            let blend = u * 3.0 - joint as f32;
            mesh.vertices.push(Vertex {
                position: Vec3::new(u * 10.0, v * 10.0, (u * 7.0).sin()),
                normal: Vec3::Z,
                uv: Vec2::new(u, v),
                joints: [JointId(joint), JointId(joint + 1), JointId(0), JointId(0)],
                weights: [1.0 - blend, blend, 0.0, 0.0],
                ..Vertex::default()
            });
        }
    }
    for y in 0..SIDE - 1 {
        for x in 0..SIDE - 1 {
            let i = y * SIDE + x;
            mesh.triangles.push([i, i + 1, i + SIDE]);
            mesh.triangles.push([i + 1, i + SIDE + 1, i + SIDE]);
        }
    }
    let joints = (0..4)
        .map(|i| Joint {
            parent: (i > 0).then(|| JointId(i - 1)),
            translation: if i == 0 { Vec3::ZERO } else { Vec3::X * 3.33 },
            ..Joint::new(format!("j{i}"))
        })
        .collect();
    let mut animation = Animation::new("bend", 30.0);
    for i in 0..4 {
        let mut track = Track::new(JointId(i));
        track.rotations = (0..=30)
            .map(|k| Key::new(k as f32 / 30.0, Quat::from_rotation_y(0.01 * k as f32)))
            .collect();
        animation.tracks.push(track);
    }
    Model {
        meshes: vec![mesh],
        skeleton: Skeleton { joints },
        animations: vec![animation],
        ..Model::default()
    }
}

/// The .glb and the length of its BIN chunk.
fn input() -> (Vec<u8>, u64) {
    let (glb, _) = to_glb(&model(), &ExportOptions::default()).expect("the bench model exports");
    let json_length = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let bin_at = 20 + json_length;
    let bin_length = u32::from_le_bytes(glb[bin_at..bin_at + 4].try_into().unwrap());
    (glb, u64::from(bin_length))
}

fn bench(c: &mut Criterion) {
    let (glb, bin) = input();
    let read = ReadOptions::default();
    let options = ImportOptions::default();
    let (file, _) = GltfFile::from_slice_with(&glb, &read, None).expect("the bench input reads");
    let mut group = c.benchmark_group("gltf-import");
    group.throughput(Throughput::Bytes(bin));
    group.bench_function("read", |b| {
        b.iter(|| GltfFile::from_slice_with(black_box(&glb), &read, None))
    });
    group.bench_function("to_model", |b| {
        b.iter(|| to_model(black_box(&file), &options))
    });
    group.bench_function("read+to_model", |b| {
        b.iter(|| {
            let (file, _) = GltfFile::from_slice_with(black_box(&glb), &read, None).unwrap();
            to_model(&file, &options)
        })
    });
    group.finish();
}

fn main() {
    if std::env::var_os("RIGPORT_BENCH_ONCE").is_some() {
        let (glb, bin) = input();
        let (file, _) = GltfFile::from_slice_with(&glb, &ReadOptions::default(), None).unwrap();
        let (imported, _) = to_model(&file, &ImportOptions::default()).unwrap();
        println!(
            "{} bytes of buffer data, {} vertices, {} triangles",
            bin,
            imported.model.vertex_count(),
            imported.model.triangle_count()
        );
        return;
    }
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(3))
        .configure_from_args();
    bench(&mut c);
    c.final_summary();
}
