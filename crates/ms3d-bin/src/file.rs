//! The faithful file layer: one struct that mirrors a `.ms3d` file exactly.

use crate::records::VertexExtraRecord;
use crate::records::{JointColor, Keyframe, Keyframer, Material, ModelExtra, Triangle, Vertex};

/// The ten bytes every MilkShape 3D binary file starts with.
pub const MAGIC: &[u8; 10] = b"MS3D000000";

/// A whole MilkShape 3D binary file, as stored.
///
/// Writing it back ([`File::write`]) gives the bytes it was read from. The optional trailing
/// blocks are `Some` exactly when the file holds them; they always come in the order
/// comments, vertex extra, joint extra, model extra, so a block is only written when every
/// block before it is present too. Bytes the reader could not interpret are in
/// [`File::tail`].
#[derive(Clone, Debug, PartialEq)]
pub struct File {
    /// Header `version` (3 or 4).
    pub version: i32,
    /// Vertex records.
    pub vertices: Vec<Vertex>,
    /// Triangle records.
    pub triangles: Vec<Triangle>,
    /// Groups (meshes).
    pub groups: Vec<Group>,
    /// Materials.
    pub materials: Vec<Material>,
    /// Frame rate, editor time and total frames.
    pub keyframer: Keyframer,
    /// Joints with their keys.
    pub joints: Vec<Joint>,
    /// Comments block (subVersion 1), if present.
    pub comments: Option<Comments>,
    /// Vertex extra block (weights and extra words), if present; one record per vertex.
    pub vertex_extra: Option<VertexExtra>,
    /// Joint extra block (joint colours), if present; one colour per joint.
    pub joint_extra: Option<JointExtra>,
    /// Model extra block, if present.
    pub model_extra: Option<ModelExtra>,
    /// Bytes after the last block that could be read, kept verbatim (a damaged tail).
    pub tail: Vec<u8>,
}

/// `ms3d_group_t`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// `SELECTED | HIDDEN`; unknown bits kept.
    pub flags: u8,
    /// Name, NUL-terminated, bytes after the NUL kept.
    pub name: [u8; 32],
    /// Indices into [`File::triangles`].
    pub triangle_indices: Vec<u16>,
    /// Material index, −1 for none.
    pub material_index: i8,
}

/// `ms3d_joint_t` with its keys.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    /// `SELECTED | DIRTY`; real files also carry 0x10 and 0x18, kept.
    pub flags: u8,
    /// Name, NUL-terminated, bytes after the NUL kept.
    pub name: [u8; 32],
    /// Name of the parent joint (empty for a root); the parent may come later in the file.
    pub parent_name: [u8; 32],
    /// Bind rotation, Euler angles in radians (`R = Rz·Ry·Rx`).
    pub rotation: [f32; 3],
    /// Bind translation relative to the parent.
    pub position: [f32; 3],
    /// Rotation keys, relative to the bind rotation.
    pub rotation_keys: Vec<Keyframe>,
    /// Translation keys, relative to the bind pose.
    pub translation_keys: Vec<Keyframe>,
}

/// The comments block.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comments {
    /// Block subVersion (1).
    pub sub_version: i32,
    /// Group comments.
    pub groups: Vec<Comment>,
    /// Material comments.
    pub materials: Vec<Comment>,
    /// Joint comments.
    pub joints: Vec<Comment>,
    /// Model comments: the count field (`nHasModelComment`, 0 or 1 in real files) followed
    /// by that many `int length; char text[length]` records — with **no** index field.
    pub model: Vec<Vec<u8>>,
}

/// `ms3d_comment_t`: a comment on one group, material or joint.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comment {
    /// Index of the commented element (not checked: kept as stored).
    pub index: i32,
    /// Text without a terminating NUL, as stored.
    pub text: Vec<u8>,
}

/// The vertex extra block.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VertexExtra {
    /// Block subVersion: 1, 2 or 3 (6, 10 or 14 bytes per vertex).
    pub sub_version: i32,
    /// One record per vertex.
    pub records: Vec<VertexExtraRecord>,
}

/// The joint extra block.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JointExtra {
    /// Block subVersion (1).
    pub sub_version: i32,
    /// One colour per joint.
    pub colors: Vec<JointColor>,
}

impl File {
    /// Which optional blocks the file holds, in file order: `"comments"`, `"vertex extra"`,
    /// `"joint extra"`, `"model extra"`.
    pub fn blocks_present(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.comments.is_some() {
            out.push("comments");
        }
        if self.vertex_extra.is_some() {
            out.push("vertex extra");
        }
        if self.joint_extra.is_some() {
            out.push("joint extra");
        }
        if self.model_extra.is_some() {
            out.push("model extra");
        }
        out
    }

    /// Whether any joint has a rotation or translation key.
    pub fn has_keys(&self) -> bool {
        self.joints
            .iter()
            .any(|j| !j.rotation_keys.is_empty() || !j.translation_keys.is_empty())
    }
}
