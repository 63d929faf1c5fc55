//! What the walk looks up and checks beside the commands: the vertex array of a line, and a
//! skeleton's hierarchy.

use super::*;

/// The vertex array command `i` appends to, read from its kind and attribute alone.
pub(super) fn vertex_array_of(store: &Store, i: usize) -> Option<usize> {
    vertex_array(store.kind(i), store.attribute(i))
}

/// The vertex array of a command of this kind and attribute, if it is a vertex line.
pub(super) fn vertex_array(kind: Option<Kind>, attribute: Option<Attribute>) -> Option<usize> {
    match kind? {
        Kind::Vertex => attribute.map(array_of),
        Kind::Blend => Some(BLEND_ARRAY),
        Kind::SmoothIndex => Some(SMOOTH_INDEX_ARRAY),
        _ => None,
    }
}

/// Parents must exist and the hierarchy must not loop.
pub(super) fn check_hierarchy(store: &Store, joints: &[SceneJoint]) -> Result<(), Located> {
    let joint_commands: Vec<usize> = store
        .kinds()
        .enumerate()
        .filter(|&(_, k)| k == Kind::Joint)
        .map(|(i, _)| i)
        .collect();
    let located = |j: usize, problem: String| Located {
        error: Error::detail(Detail::Hierarchy { joint: j, problem }),
        command: joint_commands.get(j).copied(),
    };
    for (j, joint) in joints.iter().enumerate() {
        if let Some(p) = joint.parent
            && p >= joints.len()
        {
            return Err(located(
                j,
                format!("parent index {p} is out of range ({} joints)", joints.len()),
            ));
        }
    }
    // 0 = unseen, 1 = on the current walk, 2 = known to reach a root.
    let mut state = vec![0u8; joints.len()];
    for start in 0..joints.len() {
        let mut walk = Vec::new();
        let mut at = Some(start);
        while let Some(j) = at {
            match state[j] {
                2 => break,
                1 => {
                    return Err(located(
                        j,
                        "the parent chain loops back to this joint".into(),
                    ));
                }
                _ => {
                    state[j] = 1;
                    walk.push(j);
                    at = joints[j].parent;
                }
            }
        }
        for j in walk {
            state[j] = 2;
        }
    }
    Ok(())
}
