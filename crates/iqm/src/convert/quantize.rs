//! The SDK's channel quantization: per pose and channel over every frame of every
//! animation, `offset = min`, `scale = (max − min) / 65535`; a channel whose range is below
//! `1e-10` is left out of the mask and holds `offset`.

use crate::records::Pose;

/// Channels of one pose in one frame: translation, quaternion `x y z w`, scale.
pub(crate) type Channels = [f32; 10];

/// Quantizes `values` (frame-major: `values[f × poses.len() + p]`): fills each pose's mask,
/// offsets and scales and returns the frame values.
pub(crate) fn quantize(values: &[Channels], poses: &mut [Pose]) -> Vec<u16> {
    let n = poses.len();
    if n == 0 {
        return Vec::new();
    }
    let mut min = vec![[f32::INFINITY; 10]; n];
    let mut max = vec![[f32::NEG_INFINITY; 10]; n];
    for (i, v) in values.iter().enumerate() {
        let p = i % n;
        for c in 0..10 {
            min[p][c] = min[p][c].min(v[c]);
            max[p][c] = max[p][c].max(v[c]);
        }
    }
    for (p, pose) in poses.iter_mut().enumerate() {
        pose.channelmask = 0;
        for c in 0..10 {
            let (lo, hi) = (min[p][c], max[p][c]);
            let lo = if lo.is_finite() { lo } else { 0.0 };
            let range = hi - lo;
            pose.channeloffset[c] = lo;
            if range >= 1e-10 {
                pose.channelmask |= 1 << c;
                pose.channelscale[c] = range / 65535.0;
            } else {
                pose.channelscale[c] = 0.0;
            }
        }
    }
    let per_frame: usize = poses
        .iter()
        .map(|p| p.channelmask.count_ones() as usize)
        .sum();
    let mut out = Vec::with_capacity(values.len() / n * per_frame);
    for (i, v) in values.iter().enumerate() {
        let pose = &poses[i % n];
        for (c, value) in v.iter().enumerate() {
            if pose.channelmask & (1 << c) != 0 {
                let q = ((value - pose.channeloffset[c]) / pose.channelscale[c]).round();
                out.push(q.clamp(0.0, 65535.0) as u16);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_quantization() {
        // One pose, three frames: x goes 1, 2, 3; everything else constant.
        let frame = |x: f32| {
            let mut c = [0.0; 10];
            c[0] = x;
            c[6] = -1.0;
            c[7..].copy_from_slice(&[1.0; 3]);
            c
        };
        let mut poses = [Pose::default()];
        let values = quantize(&[frame(1.0), frame(2.0), frame(3.0)], &mut poses);
        assert_eq!(poses[0].channelmask, 1);
        assert_eq!(poses[0].channeloffset[0], 1.0);
        assert_eq!(poses[0].channelscale[0], 2.0 / 65535.0);
        assert_eq!(poses[0].channeloffset[6], -1.0);
        assert_eq!(poses[0].channelscale[6], 0.0);
        // (2 − 1) / (2 / 65535) = 32767.5, rounded away from zero.
        assert_eq!(values, vec![0, 32768, 65535]);
    }
}
