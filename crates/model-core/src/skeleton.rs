//! The joint hierarchy and its bind pose.

use crate::JointId;
use glam::{Quat, Vec3};

/// One joint. Its bind transform is local to its parent: `T(translation)·R(rotation)·S(scale)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    /// Name as shown to a person.
    pub name: String,
    /// Parent joint, or `None` for a root. A parent may be listed after its child.
    pub parent: Option<JointId>,
    /// Bind translation relative to the parent.
    pub translation: Vec3,
    /// Bind rotation relative to the parent (unit quaternion).
    pub rotation: Quat,
    /// Bind scale relative to the parent.
    pub scale: Vec3,
}

impl Joint {
    /// A root joint at the origin with the identity transform.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            parent: None,
            translation: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            scale: Vec3::ONE,
        }
    }
}

/// All joints of a model, in file order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Skeleton {
    /// Joints, indexed by [`JointId`].
    pub joints: Vec<Joint>,
}

impl Skeleton {
    /// The joint with this id.
    pub fn get(&self, id: JointId) -> Option<&Joint> {
        self.joints.get(id.index())
    }

    /// The first joint with this exact name.
    pub fn find(&self, name: &str) -> Option<JointId> {
        self.joints
            .iter()
            .position(|j| j.name == name)
            .and_then(JointId::from_index)
    }

    /// Number of joints.
    pub fn len(&self) -> usize {
        self.joints.len()
    }

    /// Whether there are no joints.
    pub fn is_empty(&self) -> bool {
        self.joints.is_empty()
    }
}
