//! Vertex weights for targets that hold at most four influences per vertex (the model, IQM,
//! glTF's one `JOINTS_0` set): keep the four largest and renormalize, the rule every
//! compiler applies (Valve's studiomdl, the IQM SDK).

use rigport_model_core::JointId;

/// Keeps the four largest influences (ties keep the earlier one) and, when any were dropped,
/// scales the rest to sum to 1. Returns whether any were dropped.
///
/// The kept influences are sorted by weight, largest first. Fewer than five influences are
/// left exactly as they are.
///
/// ```
/// use rigport_anim::weights::keep_largest_four;
/// use rigport_model_core::JointId;
///
/// let mut influences = vec![
///     (JointId(0), 0.1),
///     (JointId(1), 0.3),
///     (JointId(2), 0.2),
///     (JointId(3), 0.25),
///     (JointId(4), 0.15),
/// ];
/// assert!(keep_largest_four(&mut influences));
/// let joints: Vec<u32> = influences.iter().map(|(j, _)| j.0).collect();
/// assert_eq!(joints, [1, 3, 2, 4]);
/// let sum: f32 = influences.iter().map(|(_, w)| w).sum();
/// assert!((sum - 1.0).abs() < 1e-6);
/// assert!((influences[0].1 - 0.3 / 0.9).abs() < 1e-6);
/// ```
pub fn keep_largest_four(influences: &mut Vec<(JointId, f32)>) -> bool {
    if influences.len() <= 4 {
        return false;
    }
    // Stable: equal weights keep their order, so the earlier one survives.
    influences.sort_by(|a, b| b.1.total_cmp(&a.1));
    influences.truncate(4);
    let sum: f32 = influences.iter().map(|(_, w)| *w).sum();
    if sum > 0.0 && sum.is_finite() {
        for (_, weight) in influences.iter_mut() {
            *weight /= sum;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_or_fewer_are_untouched() {
        let mut four = vec![
            (JointId(0), 0.5),
            (JointId(1), 0.2),
            (JointId(2), 0.2),
            (JointId(3), 0.05),
        ];
        let before = four.clone();
        assert!(!keep_largest_four(&mut four));
        assert_eq!(four, before);
    }

    #[test]
    fn six_become_the_four_largest_renormalized() {
        // Weights 0.3, 0.25, 0.2, 0.1 kept (sum 0.85), 0.1 (later tie) and 0.05 dropped.
        let mut six = vec![
            (JointId(5), 0.05),
            (JointId(0), 0.3),
            (JointId(1), 0.1),
            (JointId(2), 0.25),
            (JointId(3), 0.1),
            (JointId(4), 0.2),
        ];
        assert!(keep_largest_four(&mut six));
        let expected = [(0, 0.3), (2, 0.25), (4, 0.2), (1, 0.1)];
        for ((joint, weight), (ej, ew)) in six.iter().zip(expected) {
            assert_eq!(joint.0, ej);
            assert!(
                (weight - ew / 0.85).abs() < 1e-6,
                "{weight} vs {}",
                ew / 0.85
            );
        }
    }

    #[test]
    fn all_zero_weights_stay_zero() {
        let mut zeros = vec![(JointId(0), 0.0); 5];
        assert!(keep_largest_four(&mut zeros));
        assert_eq!(zeros.len(), 4);
        assert!(zeros.iter().all(|(_, w)| *w == 0.0));
    }
}
