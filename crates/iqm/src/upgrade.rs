//! Version 1 files: joints and poses store the rotation without `w` (nine pose channels).
//! They are read into version 2 records: `w = −√(1 − x² − y² − z²)` (the sign IQM's own
//! tools restore, as IQE's `pq` does), quantized per pose as the SDK quantizes channels,
//! and the file is laid out afresh, so it writes back as version 2.

use crate::file::File;
use crate::records::{Joint, JointV1, Pose, PoseV1};
use crate::writer;
use rigport_model_core::Report;

/// The `w` a unit quaternion with this `x y z` has, on the negative side.
fn restore_w(x: f32, y: f32, z: f32) -> f32 {
    -(1.0 - x * x - y * y - z * z).max(0.0).sqrt()
}

/// Old mask bits 0–5 stay; 6–8 (scale) move to 7–9, leaving bit 6 for `w`.
fn widen_mask(mask: u32) -> u32 {
    (mask & 0x3f) | ((mask & !0x3f) << 1)
}

/// The ten-channel index of each of the nine old channels.
const OLD_TO_NEW: [usize; 9] = [0, 1, 2, 3, 4, 5, 7, 8, 9];

pub(crate) fn joints_and_poses(joints: &[JointV1], poses: &[PoseV1]) -> (Vec<Joint>, Vec<Pose>) {
    let joints = joints
        .iter()
        .map(|j| {
            let [x, y, z] = j.rotate;
            Joint {
                name: j.name,
                parent: j.parent,
                translate: j.translate,
                rotate: [x, y, z, restore_w(x, y, z)],
                scale: j.scale,
            }
        })
        .collect();
    let poses = poses
        .iter()
        .map(|p| {
            let mut pose = Pose {
                parent: p.parent,
                channelmask: widen_mask(p.channelmask),
                ..Pose::default()
            };
            for (old, &new) in OLD_TO_NEW.iter().enumerate() {
                pose.channeloffset[new] = p.channeloffset[old];
                pose.channelscale[new] = p.channelscale[old];
            }
            pose
        })
        .collect();
    (joints, poses)
}

const XYZ: u32 = 0b111 << 3;

/// Rebuilds the frames of a version 1 file (poses already widened) with a quantized `w`
/// channel, then lays the file out as version 2.
pub(crate) fn frames(file: &mut File, report: &mut Report) {
    let old_channels = file.header.num_framechannels as usize;
    // Frames the stored values hold (all of them in a consistent file).
    let frames = file
        .frames
        .len()
        .checked_div(old_channels)
        .map_or(0, |n| n.min(file.header.num_frames as usize));
    let poses = file.poses.clone();
    // w of every (frame, pose) whose x, y or z varies: each such pose has a stored value
    // in every frame, so this never outgrows the frames themselves.
    let varying: Vec<usize> = (0..poses.len())
        .filter(|&p| poses[p].channelmask & XYZ != 0)
        .collect();
    let mut ws = vec![0f32; frames * varying.len()];
    let constant_w = |p: &Pose| {
        let o = p.channeloffset;
        restore_w(o[3], o[4], o[5])
    };
    for f in 0..frames {
        let values = &file.frames[f * old_channels..(f + 1) * old_channels];
        let mut at = 0;
        let mut slot = 0;
        for pose in &poses {
            let mut q = [
                pose.channeloffset[3],
                pose.channeloffset[4],
                pose.channeloffset[5],
            ];
            for c in (0..10).filter(|&c| c != 6 && pose.channelmask & (1 << c) != 0) {
                let v = values.get(at).copied().unwrap_or(0);
                at += 1;
                if (3..6).contains(&c) {
                    q[c - 3] += f32::from(v) * pose.channelscale[c];
                }
            }
            if pose.channelmask & XYZ != 0 {
                ws[f * varying.len() + slot] = restore_w(q[0], q[1], q[2]);
                slot += 1;
            }
        }
    }
    let mut new_poses = poses.clone();
    for (slot, &p) in varying.iter().enumerate() {
        let column = (0..frames).map(|f| ws.get(f * varying.len() + slot).copied().unwrap_or(0.0));
        let (min, max) = column.fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), w| {
            (a.min(w), b.max(w))
        });
        let pose = &mut new_poses[p];
        if max - min >= 1e-10 {
            pose.channelmask |= 1 << 6;
            pose.channeloffset[6] = min;
            pose.channelscale[6] = (max - min) / 65535.0;
        } else {
            pose.channeloffset[6] = if min.is_finite() {
                min
            } else {
                constant_w(pose)
            };
        }
    }
    for pose in new_poses.iter_mut() {
        if pose.channelmask & XYZ == 0 {
            pose.channeloffset[6] = constant_w(pose);
        }
    }
    let new_channels: usize = new_poses
        .iter()
        .map(|p| (p.channelmask & 0x3ff).count_ones() as usize)
        .sum();
    let mut out = Vec::with_capacity(frames * new_channels);
    {
        for f in 0..frames {
            let values = file
                .frames
                .get(f * old_channels..(f + 1) * old_channels)
                .unwrap_or(&[]);
            let mut at = 0;
            let mut slot = 0;
            for (old, new) in poses.iter().zip(&new_poses) {
                for c in 0..10 {
                    if c == 6 {
                        if new.channelmask & (1 << 6) != 0 {
                            let w = ws[f * varying.len() + slot];
                            let q = ((w - new.channeloffset[6]) / new.channelscale[6]).round();
                            out.push(q.clamp(0.0, 65535.0) as u16);
                        }
                        continue;
                    }
                    if old.channelmask & (1 << c) != 0 {
                        out.push(values.get(at).copied().unwrap_or(0));
                        at += 1;
                    }
                }
                if old.channelmask & XYZ != 0 {
                    slot += 1;
                }
            }
        }
    }
    file.poses = new_poses;
    file.frames = out;
    file.header.num_framechannels = new_channels as u32;
    let _ = writer::pack(file);
    report.info(
        rigport_model_core::codes::VERSION_1,
        "IQM version 1 file: rotations gained an explicit w (−√(1 − x² − y² − z²)); it writes back as version 2",
    );
}
