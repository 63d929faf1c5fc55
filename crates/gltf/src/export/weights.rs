//! Vertex skin weights in the form the glTF validator demands: at most four distinct joints,
//! no negative weights, and a sum of exactly 1 as far as `f32` allows.

use super::report_counts;
use rigport_model_core::{Report, Severity, Vertex};

/// Four joint indices (into the skin) and their weights; unused slots are joint 0, weight 0.
pub(super) type Influence = ([u32; 4], [f32; 4]);

/// What was wrong with the influences of the vertices seen so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct WeightStats {
    /// Influences naming a joint that does not exist (dropped).
    pub bad_joint: usize,
    /// Influences with a negative or non-finite weight (dropped).
    pub bad_weight: usize,
    /// Vertices naming the same joint in two slots (merged).
    pub merged: usize,
    /// Vertices whose valid weights did not sum to 1 (within 0.001) and were rescaled.
    pub rescaled: usize,
}

impl WeightStats {
    /// Adds another set of counts.
    fn add(&mut self, other: &WeightStats) {
        self.bad_joint += other.bad_joint;
        self.bad_weight += other.bad_weight;
        self.merged += other.merged;
        self.rescaled += other.rescaled;
    }
}

/// The normalized influence of a vertex, or `None` when no valid joint influences it.
pub(super) fn influence(
    vertex: &Vertex,
    joint_count: usize,
    stats: &mut WeightStats,
) -> Option<Influence> {
    let (joints, weights, used) = valid_influences(vertex, joint_count, stats)?;
    Some((joints, normalize(weights, used)))
}

/// Whether any valid joint influences `vertex` (what [`influence`] says with `Some`),
/// counting into `stats` as it does, without normalizing the weights.
pub(super) fn is_bound(vertex: &Vertex, joint_count: usize, stats: &mut WeightStats) -> bool {
    valid_influences(vertex, joint_count, stats).is_some()
}

/// A function of a vertex's skin through the last skin it was asked about: neighbouring
/// vertices usually share their joints and weights, and the same skin gives the same
/// result and counts. `R` is what [`influence`] or [`is_bound`] gives.
pub(super) struct LastSkin<R> {
    /// Joints and weight bits of the last vertex, its result and what it counted.
    last: Option<(Skin, R, WeightStats)>,
    of: fn(&Vertex, usize, &mut WeightStats) -> R,
}

/// A vertex's joint ids and the bits of its weights.
type Skin = ([u32; 4], [u32; 4]);

impl LastSkin<Option<Influence>> {
    /// [`influence`] of each vertex.
    pub(super) fn influences() -> Self {
        Self {
            last: None,
            of: influence,
        }
    }
}

impl LastSkin<bool> {
    /// [`is_bound`] of each vertex.
    pub(super) fn bound() -> Self {
        Self {
            last: None,
            of: is_bound,
        }
    }
}

impl<R: Copy> LastSkin<R> {
    /// The result for `vertex`, counting into `stats`.
    pub(super) fn of(&mut self, vertex: &Vertex, joint_count: usize, stats: &mut WeightStats) -> R {
        let skin = (vertex.joints.map(|j| j.0), vertex.weights.map(f32::to_bits));
        let (result, counted) = match &self.last {
            Some((last, result, counted)) if *last == skin => (*result, *counted),
            _ => {
                let mut counted = WeightStats::default();
                let result = (self.of)(vertex, joint_count, &mut counted);
                self.last = Some((skin, result, counted));
                (result, counted)
            }
        };
        stats.add(&counted);
        result
    }
}

/// The valid influences of a vertex (joints merged, weights as `f64`) and how many there
/// are; `None` when there is none.
fn valid_influences(
    vertex: &Vertex,
    joint_count: usize,
    stats: &mut WeightStats,
) -> Option<([u32; 4], [f64; 4], usize)> {
    let mut joints = [0u32; 4];
    let mut weights = [0f64; 4];
    let mut used = 0;
    for (joint, weight) in vertex.joints.iter().zip(vertex.weights) {
        if weight == 0.0 {
            continue;
        }
        if !(weight.is_finite() && weight > 0.0) {
            stats.bad_weight += 1;
            continue;
        }
        if joint.index() >= joint_count {
            stats.bad_joint += 1;
            continue;
        }
        match joints[..used].iter().position(|&j| j == joint.0) {
            Some(slot) => {
                weights[slot] += f64::from(weight);
                stats.merged += 1;
            }
            None => {
                joints[used] = joint.0;
                weights[used] = f64::from(weight);
                used += 1;
            }
        }
    }
    if used == 0 {
        return None;
    }
    let sum: f64 = weights.iter().sum();
    stats.rescaled += usize::from((sum - 1.0).abs() > 1e-3);
    Some((joints, weights, used))
}

/// Scales the first `used` weights to sum to 1, then lets the largest absorb the `f32`
/// rounding so the sum of the stored `f32` values is 1 to within half an ulp.
fn normalize(weights: [f64; 4], used: usize) -> [f32; 4] {
    let sum: f64 = weights[..used].iter().sum();
    let mut out = [0f32; 4];
    for (o, w) in out.iter_mut().zip(&weights[..used]) {
        *o = (w / sum) as f32;
    }
    let largest = (0..used)
        .max_by(|&a, &b| out[a].total_cmp(&out[b]))
        .unwrap_or(0);
    let others: f64 = (0..used)
        .filter(|&i| i != largest)
        .map(|i| f64::from(out[i]))
        .sum();
    out[largest] = (1.0 - others) as f32;
    out
}

/// Turns the counts into report notices.
pub(super) fn report_weight_stats(stats: &WeightStats, report: &mut Report) {
    use Severity::{Info, Loss};
    report_counts(
        report,
        &[
            (
                stats.bad_joint,
                Loss,
                rigport_model_core::codes::GLTF_WEIGHT_JOINT_MISSING,
                "vertex influences name a joint that does not exist; dropped and the rest rescaled",
            ),
            (
                stats.bad_weight,
                Loss,
                rigport_model_core::codes::GLTF_WEIGHT_INVALID,
                "vertex influences had a negative or non-finite weight; dropped",
            ),
            (
                stats.merged,
                Info,
                rigport_model_core::codes::GLTF_WEIGHT_MERGED,
                "vertex influences repeated a joint of the same vertex; their weights were added",
            ),
            (
                stats.rescaled,
                Info,
                rigport_model_core::codes::GLTF_WEIGHT_RESCALED,
                "vertices had weights not summing to 1; rescaled (glTF requires the sum 1)",
            ),
        ],
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use rigport_model_core::JointId;

    fn vertex(joints: [u32; 4], weights: [f32; 4]) -> Vertex {
        Vertex {
            joints: joints.map(JointId),
            weights,
            ..Vertex::default()
        }
    }

    #[test]
    fn thirds_sum_to_one_in_f32() {
        let mut stats = WeightStats::default();
        let (joints, weights) =
            influence(&vertex([0, 1, 2, 0], [1.0, 1.0, 1.0, 0.0]), 3, &mut stats).unwrap();
        assert_eq!(joints, [0, 1, 2, 0]);
        let sum: f64 = weights.iter().map(|&w| f64::from(w)).sum();
        assert!((sum - 1.0).abs() < 1e-7, "{sum}");
        assert_eq!(weights[3], 0.0);
        assert_eq!(
            stats,
            WeightStats {
                rescaled: 1,
                ..WeightStats::default()
            }
        );
    }

    #[test]
    fn duplicates_merge_and_bad_influences_drop() {
        let mut stats = WeightStats::default();
        // Joint 1 twice (0.25 + 0.25), joint 9 does not exist, a NaN weight.
        let v = vertex([1, 1, 9, 0], [0.25, 0.25, 0.3, f32::NAN]);
        let (joints, weights) = influence(&v, 2, &mut stats).unwrap();
        assert_eq!(joints, [1, 0, 0, 0]);
        assert_eq!(weights, [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(
            stats,
            WeightStats {
                bad_joint: 1,
                bad_weight: 1,
                merged: 1,
                rescaled: 1
            }
        );
    }

    #[test]
    fn the_last_skin_gives_what_influence_and_is_bound_give() {
        let vertices = [
            vertex([0, 1, 2, 0], [1.0, 1.0, 1.0, 0.0]),
            vertex([0, 1, 2, 0], [1.0, 1.0, 1.0, 0.0]),
            vertex([1, 1, 9, 0], [0.25, 0.25, 0.3, f32::NAN]),
            vertex([1, 1, 9, 0], [0.25, 0.25, 0.3, f32::NAN]),
            vertex([0, 1, 2, 0], [1.0, 1.0, 1.0, -0.0]),
            vertex([5, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
            vertex([5, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
        ];
        let (mut memo, mut through, mut direct) = (
            LastSkin::influences(),
            WeightStats::default(),
            WeightStats::default(),
        );
        let (mut bound, mut through_bound) = (LastSkin::bound(), WeightStats::default());
        for v in &vertices {
            let expected = influence(v, 3, &mut direct);
            assert_eq!(memo.of(v, 3, &mut through), expected);
            assert_eq!(bound.of(v, 3, &mut through_bound), expected.is_some());
        }
        assert_eq!(through, direct);
        assert_eq!(through_bound, direct);
        assert_eq!(direct.merged, 2);
        assert!(direct.bad_joint > 0 && direct.bad_weight > 0);
    }

    #[test]
    fn unbound_vertices_have_no_influence() {
        let mut stats = WeightStats::default();
        assert_eq!(influence(&vertex([0; 4], [0.0; 4]), 3, &mut stats), None);
        assert_eq!(
            influence(&vertex([5, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]), 3, &mut stats),
            None
        );
        assert_eq!(stats.bad_joint, 1);
    }
}
