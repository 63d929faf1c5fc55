//! Skinning a large synthetic mesh (100k vertices, 64 joints) and sampling its pose.

use criterion::{Criterion, Throughput, criterion_main};
use glam::{Quat, Vec3};
use rigport_anim::Pose;
use rigport_anim::skin::skin_vertices_into;
use rigport_model_core::{Animation, Joint, JointId, Key, Skeleton, Track, Vertex};
use std::hint::black_box;

const JOINTS: u32 = 64;
const VERTICES: u32 = 100_000;

/// A chain of joints one unit apart along Y, each animated with a small bend over 1 s.
fn rig() -> (Skeleton, Animation) {
    let joints = (0..JOINTS)
        .map(|i| Joint {
            parent: i.checked_sub(1).map(JointId),
            translation: if i == 0 { Vec3::ZERO } else { Vec3::Y },
            ..Joint::new(format!("j{i}"))
        })
        .collect();
    let mut animation = Animation::new("bend", 30.0);
    for i in 0..JOINTS {
        let mut track = Track::new(JointId(i));
        for k in 0..=30u8 {
            let t = f32::from(k) / 30.0;
            track.rotations.push(Key::new(
                t,
                Quat::from_rotation_z(0.02 * t * (i as f32 + 1.0)),
            ));
        }
        animation.tracks.push(track);
    }
    (Skeleton { joints }, animation)
}

/// Vertices spread along the chain, each on two neighbouring joints (a 75/25 blend), like a
/// smooth-skinned limb.
fn mesh() -> Vec<Vertex> {
    (0..VERTICES)
        .map(|i| {
            let along = i as f32 * (JOINTS as f32 - 1.0) / VERTICES as f32;
            let joint = along as u32;
            let angle = i as f32 * 0.37;
            Vertex {
                position: Vec3::new(angle.cos() * 0.2, along, angle.sin() * 0.2),
                normal: Vec3::new(angle.cos(), 0.0, angle.sin()),
                joints: [
                    JointId(joint),
                    JointId((joint + 1).min(JOINTS - 1)),
                    JointId(0),
                    JointId(0),
                ],
                weights: [0.75, 0.25, 0.0, 0.0],
                ..Vertex::default()
            }
        })
        .collect()
}

fn skinning(c: &mut Criterion) {
    let (skeleton, animation) = rig();
    let bind = mesh();
    let mut posed = bind.clone();
    let mut pose = Pose::new(&skeleton).expect("a chain has no cycle");
    pose.sample(&animation, 0.5);

    let mut group = c.benchmark_group("skinning");
    group.throughput(Throughput::Elements(u64::from(VERTICES)));
    group.bench_function("linear blend, 100k vertices, 2 weights", |b| {
        b.iter(|| skin_vertices_into(black_box(pose.skinning_matrices()), &bind, &mut posed))
    });
    group.finish();

    // The same work counted in bytes of vertex data skinned, comparable with the readers.
    let mut group = c.benchmark_group("skinning bytes");
    group.throughput(Throughput::Bytes(
        u64::from(VERTICES) * std::mem::size_of::<Vertex>() as u64,
    ));
    group.bench_function("linear blend, 100k vertices, 2 weights", |b| {
        b.iter(|| skin_vertices_into(black_box(pose.skinning_matrices()), &bind, &mut posed))
    });
    group.finish();

    let mut group = c.benchmark_group("pose");
    group.throughput(Throughput::Elements(u64::from(JOINTS)));
    group.bench_function("sample 64 joints, 31 keys each", |b| {
        b.iter(|| pose.sample(black_box(&animation), black_box(0.37)))
    });
    group.finish();
}

/// Criterion's generated entry point, kept private so it needs no docs.
mod entry {
    criterion::criterion_group!(benches, super::skinning);
}
criterion_main!(entry::benches);
