//! An `.md5mesh` and `.md5anim` pair whose 64 joints carry every component-flag pattern
//! (`0..=63`: joint `j` animates the components of the bits of `j`, Tx 1, Ty 2, Tz 4, Qx 8,
//! Qy 16, Qz 32), with the pose they mean computed by hand.
//!
//! The `.md5anim`'s baseframe differs from the mesh's bind pose in every joint, so a reader
//! that poses an unflagged component from the bind instead of the baseframe, or reads a
//! flagged one from the wrong number, moves vertices. Joint `j`'s parent is `(j − 1) / 2`
//! (a binary tree, parents before children). Each joint carries one triangle whose three
//! vertices are weighted to it alone, so every posed vertex is `posed joint · weight
//! position` with no blending for a reader to round.
//!
//! Every number is written with 10 decimals and the by-hand pose ([`Md5Flags::posed_joints`],
//! [`Md5Flags::posed_vertices`]) is computed from the numbers as written, the way the IQM
//! SDK reads them: the baseframe with each flagged component replaced in order from
//! `startIndex`, then `w = −sqrt(max(0, 1 − x² − y² − z²))`.

use rigport_model_core::glam::{DQuat, DVec3};
use std::fmt::Write;

/// Number of joints: one per flag pattern.
pub const JOINTS: usize = 64;

/// The generated pair and the numbers they hold (as written, 10 decimals).
#[derive(Clone, Debug)]
pub struct Md5Flags {
    /// The `.md5mesh` text.
    pub mesh: String,
    /// The `.md5anim` text.
    pub anim: String,
    /// Frames per second of the animation.
    pub fps: f64,
    /// Each joint's parent (`None` for the root).
    pub parents: Vec<Option<usize>>,
    /// Baseframe `[Tx, Ty, Tz, Qx, Qy, Qz]` per joint.
    pub base: Vec<[f64; 6]>,
    /// Each frame's numbers.
    pub frames: Vec<Vec<f64>>,
    /// `startIndex` per joint.
    pub start: Vec<usize>,
    /// Per vertex in file order: its joint and its position in that joint's bind space.
    pub weights: Vec<(usize, DVec3)>,
    /// Bind pose in model space (position, rotation), as the `.md5mesh` holds it.
    pub bind: Vec<(DVec3, DQuat)>,
}

/// A number as it reads back after being written with 10 decimals.
fn written(v: f64) -> f64 {
    format!("{v:.10}").parse().unwrap_or(v)
}

/// A deterministic value in `[-1, 1)` from two integers.
fn noise(a: usize, b: usize) -> f64 {
    let mut x = (a as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add((b as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
        .wrapping_add(0x1656_67B1_9E37_79F9);
    x ^= x >> 31;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 29;
    (x >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}

/// A rotation of at most `max` radians about a direction drawn from `(a, b)`.
fn rotation(a: usize, b: usize, max: f64) -> DQuat {
    let axis =
        DVec3::new(noise(a, b), noise(a, b + 1), noise(a, b + 2)) + DVec3::new(0.0, 0.0, 0.1);
    DQuat::from_axis_angle(axis.normalize(), max * noise(a, b + 3))
}

/// `x y z` of `q` with `w` made negative (the MD5 convention), each as written.
fn stored(q: DQuat) -> [f64; 3] {
    let q = q.normalize();
    let q = if q.w > 0.0 { -q } else { q };
    [written(q.x), written(q.y), written(q.z)]
}

/// The quaternion MD5 readers rebuild from `x y z`.
pub fn restore_w(x: f64, y: f64, z: f64) -> DQuat {
    DQuat::from_xyzw(x, y, z, -(1.0 - x * x - y * y - z * z).max(0.0).sqrt())
}

/// The pair with `frames` frames at 24 frames per second.
pub fn md5_flags(frames: usize) -> Md5Flags {
    let parents: Vec<Option<usize>> = (0..JOINTS)
        .map(|j| if j == 0 { None } else { Some((j - 1) / 2) })
        .collect();
    // Bind pose: parent-relative transforms, composed to model space and written there.
    let mut bind: Vec<(DVec3, DQuat)> = Vec::with_capacity(JOINTS);
    for (j, parent) in parents.iter().enumerate() {
        let local_t = DVec3::new(noise(j, 10), noise(j, 11), noise(j, 12).abs() + 0.5) * 0.6;
        let local_q = rotation(j, 20, 0.5);
        let world = match *parent {
            None => (local_t, local_q),
            Some(p) => (
                bind[p].0 + bind[p].1 * local_t,
                (bind[p].1 * local_q).normalize(),
            ),
        };
        let [x, y, z] = stored(world.1);
        let position = DVec3::new(written(world.0.x), written(world.0.y), written(world.0.z));
        bind.push((position, restore_w(x, y, z).normalize()));
    }
    // Baseframe: the bind's local transforms moved and turned a little.
    let base: Vec<[f64; 6]> = (0..JOINTS)
        .map(|j| {
            let (t, q) = match parents[j] {
                None => bind[j],
                Some(p) => {
                    let inverse = bind[p].1.conjugate();
                    (inverse * (bind[j].0 - bind[p].0), inverse * bind[j].1)
                }
            };
            let t = t + DVec3::new(noise(j, 30), noise(j, 31), noise(j, 32)) * 0.15;
            let [x, y, z] = stored(q * rotation(j, 40, 0.3));
            [written(t.x), written(t.y), written(t.z), x, y, z]
        })
        .collect();
    // Frames: per joint, the flagged components of a pose that moves from the baseframe.
    let mut start = Vec::with_capacity(JOINTS);
    let mut count = 0;
    for j in 0..JOINTS {
        start.push(count);
        count += (j as u32).count_ones() as usize;
    }
    let frame_values: Vec<Vec<f64>> = (0..frames)
        .map(|f| {
            let mut values = Vec::with_capacity(count);
            for (j, b) in base.iter().enumerate() {
                let t = DVec3::new(b[0], b[1], b[2])
                    + DVec3::new(noise(j, 50 + f), noise(j, 60 + f), noise(j, 70 + f)) * 0.2;
                let q = restore_w(b[3], b[4], b[5]) * rotation(j, 100 + 4 * f, 0.4);
                let [x, y, z] = stored(q);
                let pose = [written(t.x), written(t.y), written(t.z), x, y, z];
                for (bit, v) in pose.iter().enumerate() {
                    if j & (1 << bit) != 0 {
                        values.push(*v);
                    }
                }
            }
            values
        })
        .collect();
    // One triangle per joint, weighted to it alone.
    let mut weights = Vec::with_capacity(3 * JOINTS);
    for j in 0..JOINTS {
        for corner in 0..3 {
            let angle = corner as f64 * std::f64::consts::TAU / 3.0;
            let p = DVec3::new(
                0.3 * angle.cos(),
                0.3 * angle.sin(),
                0.1 * noise(j, 80 + corner),
            );
            weights.push((j, DVec3::new(written(p.x), written(p.y), written(p.z))));
        }
    }

    let mut mesh = String::new();
    let _ = writeln!(
        mesh,
        "MD5Version 10\ncommandline \"every component flag\"\n"
    );
    let _ = writeln!(mesh, "numJoints {JOINTS}\nnumMeshes 1\n\njoints {{");
    for (j, (p, q)) in bind.iter().enumerate() {
        let [x, y, z] = stored(*q);
        let parent = parents[j].map_or(-1, |p| p as i64);
        let _ = writeln!(
            mesh,
            "\t\"joint{j}\"\t{parent} ( {:.10} {:.10} {:.10} ) ( {x:.10} {y:.10} {z:.10} )",
            p.x, p.y, p.z
        );
    }
    let _ = writeln!(mesh, "}}\n\nmesh {{\n\tshader \"flags\"\n");
    let _ = writeln!(mesh, "\tnumverts {}", weights.len());
    for v in 0..weights.len() {
        let (u, w) = (noise(v, 90).abs(), noise(v, 91).abs());
        let _ = writeln!(mesh, "\tvert {v} ( {u:.6} {w:.6} ) {v} 1");
    }
    let _ = writeln!(mesh, "\n\tnumtris {JOINTS}");
    for j in 0..JOINTS {
        let _ = writeln!(mesh, "\ttri {j} {} {} {}", 3 * j, 3 * j + 2, 3 * j + 1);
    }
    let _ = writeln!(mesh, "\n\tnumweights {}", weights.len());
    for (v, (j, p)) in weights.iter().enumerate() {
        let _ = writeln!(
            mesh,
            "\tweight {v} {j} 1.0 ( {:.10} {:.10} {:.10} )",
            p.x, p.y, p.z
        );
    }
    let _ = writeln!(mesh, "}}");

    let fps = 24.0;
    let mut anim = String::new();
    let _ = writeln!(
        anim,
        "MD5Version 10\ncommandline \"every component flag\"\n"
    );
    let _ = writeln!(
        anim,
        "numFrames {frames}\nnumJoints {JOINTS}\nframeRate {fps}\nnumAnimatedComponents {count}\n"
    );
    let _ = writeln!(anim, "hierarchy {{");
    for j in 0..JOINTS {
        let parent = parents[j].map_or(-1, |p| p as i64);
        let _ = writeln!(anim, "\t\"joint{j}\"\t{parent} {j} {}", start[j]);
    }
    let _ = writeln!(anim, "}}\n\nbounds {{");
    for _ in 0..frames {
        let _ = writeln!(anim, "\t( -10 -10 -10 ) ( 10 10 10 )");
    }
    let _ = writeln!(anim, "}}\n\nbaseframe {{");
    for b in &base {
        let _ = writeln!(
            anim,
            "\t( {:.10} {:.10} {:.10} ) ( {:.10} {:.10} {:.10} )",
            b[0], b[1], b[2], b[3], b[4], b[5]
        );
    }
    let _ = writeln!(anim, "}}");
    for (f, values) in frame_values.iter().enumerate() {
        let _ = writeln!(anim, "\nframe {f} {{");
        for line in values.chunks(6) {
            let numbers: Vec<String> = line.iter().map(|v| format!("{v:.10}")).collect();
            let _ = writeln!(anim, "\t{}", numbers.join(" "));
        }
        let _ = writeln!(anim, "}}");
    }
    Md5Flags {
        mesh,
        anim,
        fps,
        parents,
        base,
        frames: frame_values,
        start,
        weights,
        bind,
    }
}

impl Md5Flags {
    /// Joint `j`'s parent-relative pose in `frame`: the baseframe with the flagged
    /// components replaced in order from its `startIndex`, `w` rebuilt.
    pub fn local(&self, frame: usize, j: usize) -> (DVec3, DQuat) {
        let mut pose = self.base[j];
        let mut k = self.start[j];
        for (bit, slot) in pose.iter_mut().enumerate() {
            if j & (1 << bit) != 0 {
                *slot = self.frames[frame][k];
                k += 1;
            }
        }
        (
            DVec3::new(pose[0], pose[1], pose[2]),
            restore_w(pose[3], pose[4], pose[5]),
        )
    }

    /// Every joint's model-space pose (position, rotation) in `frame`.
    pub fn posed_joints(&self, frame: usize) -> Vec<(DVec3, DQuat)> {
        let mut world: Vec<(DVec3, DQuat)> = Vec::with_capacity(JOINTS);
        for j in 0..JOINTS {
            let (t, q) = self.local(frame, j);
            world.push(match self.parents[j] {
                None => (t, q),
                Some(p) => (world[p].0 + world[p].1 * t, world[p].1 * q),
            });
        }
        world
    }

    /// Every vertex (in file order) posed in `frame`: `posed joint · weight position`.
    pub fn posed_vertices(&self, frame: usize) -> Vec<DVec3> {
        let joints = self.posed_joints(frame);
        self.weights
            .iter()
            .map(|(j, p)| joints[*j].0 + joints[*j].1 * *p)
            .collect()
    }

    /// Every vertex (in file order) in the bind pose.
    pub fn bind_vertices(&self) -> Vec<DVec3> {
        self.weights
            .iter()
            .map(|(j, p)| self.bind[*j].0 + self.bind[*j].1 * *p)
            .collect()
    }
}
