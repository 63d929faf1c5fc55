//! Throughput of the IQM reader (target: at least 1 GB/s), writer and conversions on a
//! synthetic rigged, animated model written by `from_model` (about 10 MB).

use criterion::{Criterion, Throughput, criterion_main};
use rigport_iqm::{ConvertOptions, File, from_model, to_model};
use rigport_model_core::glam::{Quat, Vec2, Vec3};
use rigport_model_core::{Animation, Joint, JointId, Key, Mesh, Model, Track, Vertex};
use std::hint::black_box;

/// A grid mesh of `side²` quads over a chain of joints, with one animation.
fn model(side: u32, joints: u32, frames: u32) -> Model {
    let mut model = Model::default();
    for j in 0..joints {
        let mut joint = Joint::new(format!("joint{j}"));
        joint.parent = j.checked_sub(1).map(JointId);
        joint.translation = Vec3::new(0.0, 1.0, 0.0);
        model.skeleton.joints.push(joint);
    }
    let mut mesh = Mesh::new("grid");
    mesh.has_uvs = true;
    for y in 0..=side {
        for x in 0..=side {
            let j = (y * joints / (side + 1)).min(joints - 1);
            mesh.vertices.push(Vertex {
                position: Vec3::new(x as f32, y as f32, (x * y % 7) as f32 * 0.1),
                normal: Vec3::Z,
                uv: Vec2::new(x as f32 / side as f32, y as f32 / side as f32),
                joints: [
                    JointId(j),
                    JointId((j + 1).min(joints - 1)),
                    JointId(0),
                    JointId(0),
                ],
                weights: [0.75, 0.25, 0.0, 0.0],
                ..Vertex::default()
            });
        }
    }
    for y in 0..side {
        for x in 0..side {
            let i = y * (side + 1) + x;
            mesh.triangles.push([i, i + 1, i + side + 1]);
            mesh.triangles.push([i + 1, i + side + 2, i + side + 1]);
        }
    }
    model.meshes.push(mesh);
    let mut animation = Animation::new("wave", 30.0);
    for j in 0..joints {
        let mut track = Track::new(JointId(j));
        for f in 0..frames {
            let t = f as f32 / 30.0;
            track.rotations.push(Key::new(
                t,
                Quat::from_rotation_z((t + j as f32).sin() * 0.3),
            ));
            track
                .translations
                .push(Key::new(t, Vec3::new(0.0, 1.0, t.cos() * 0.1)));
        }
        animation.tracks.push(track);
    }
    model.animations.push(animation);
    model
}

fn bench(c: &mut Criterion) {
    let options = ConvertOptions::default();
    let (file, _) = from_model(&model(400, 32, 60), &options).expect("the bench model converts");
    let bytes = file.to_vec();
    let file = File::from_slice(&bytes).expect("the bench file reads");
    let (model, _) = to_model(&file, &options).expect("the bench file converts");
    let mut group = c.benchmark_group("iqm");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("read", |b| b.iter(|| File::from_slice(black_box(&bytes))));
    group.bench_function("write", |b| b.iter(|| black_box(&file).to_vec()));
    group.bench_function("to_model", |b| {
        b.iter(|| to_model(black_box(&file), &options))
    });
    group.bench_function("from_model", |b| {
        b.iter(|| from_model(black_box(&model), &options))
    });
    group.finish();
}

mod entry {
    criterion::criterion_group! {
        name = benches;
        config = criterion::Criterion::default()
            .sample_size(10)
            .warm_up_time(std::time::Duration::from_millis(500))
            .measurement_time(std::time::Duration::from_secs(2));
        targets = super::bench
    }
}
criterion_main!(entry::benches);
