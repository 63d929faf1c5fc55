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
            min[p][c] = sdk_min(min[p][c], v[c]);
            max[p][c] = sdk_max(max[p][c], v[c]);
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
                out.push(to_u16(
                    (value - pose.channeloffset[c]) / pose.channelscale[c],
                ));
            }
        }
    }
    out
}

/// The SDK's `min(a, b)`, `a < b ? a : b`: of two equal values the later, so `-0` and `+0`
/// give the same offset on every target (`f32::min` may return either, and x86-64 and
/// WebAssembly do differ); a NaN is skipped, as `f32::min` skips it.
fn sdk_min(a: f32, b: f32) -> f32 {
    if a < b || b.is_nan() { a } else { b }
}

/// The SDK's `max(a, b)`, `a > b ? a : b`, NaN skipped (see [`sdk_min`]).
fn sdk_max(a: f32, b: f32) -> f32 {
    if a > b || b.is_nan() { a } else { b }
}

/// `q.round().clamp(0.0, 65535.0) as u16` (halves away from zero, NaN to 0) without the
/// call `f32::round` makes on x86-64: inside the range the fraction is exact, as the whole
/// part is below 2¹⁶.
fn to_u16(q: f32) -> u16 {
    if q.is_nan() || q <= 0.0 {
        0
    } else if q >= 65535.0 {
        65535
    } else {
        let whole = q as u32;
        (whole + u32::from(q - whole as f32 >= 0.5)) as u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_zeros_and_nans_give_one_offset_whatever_the_target() {
        // Of equal values the later wins, as in the SDK; NaN never does.
        assert_eq!(sdk_min(0.0, -0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(sdk_min(-0.0, 0.0).to_bits(), 0.0f32.to_bits());
        assert_eq!(sdk_max(0.0, -0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!((sdk_min(1.0, f32::NAN), sdk_max(1.0, f32::NAN)), (1.0, 1.0));
        assert_eq!((sdk_min(2.0, 1.0), sdk_max(2.0, 3.0)), (1.0, 3.0));
        // A channel holding -0 then +0 is offset by +0 (the later), whatever f32::min does.
        let mut poses = vec![Pose::default()];
        let mut frame = [0.0f32; 10];
        frame[1] = -0.0;
        quantize(&[frame, [0.0; 10]], &mut poses);
        assert_eq!(poses[0].channeloffset[1].to_bits(), 0.0f32.to_bits());
    }

    #[test]
    fn quantized_values_round_as_the_standard_library() {
        let reference = |q: f32| q.round().clamp(0.0, 65535.0) as u16;
        let mut values = vec![
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            -0.0,
            0.0,
            0.5,
            0.49999997,
            1.5,
            2.5,
            65534.5,
            65534.49,
            65535.0,
            65535.5,
            1e30,
            -1e30,
            f32::MIN_POSITIVE,
            -0.5,
        ];
        // Every float around each whole number and half of the range's ends, and a sweep.
        for base in [0.0f32, 1.0, 2.0, 32767.0, 65534.0, 65535.0] {
            for half in [0.0, 0.5] {
                // The 4 floats below and above (all positive: their bits are in order).
                let bits = i64::from((base + half).to_bits());
                values.extend(
                    (bits - 4..=bits + 4)
                        .filter_map(|b| u32::try_from(b).ok())
                        .map(f32::from_bits),
                );
            }
        }
        values.extend((0..2_000_000).map(|i| i as f32 * 0.0331 - 100.0));
        for q in values {
            assert_eq!(to_u16(q), reference(q), "{q:?}");
        }
    }

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
