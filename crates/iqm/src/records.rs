//! The fixed-size records of the format, read and written with binrw.
//!
//! Each record mirrors one C struct of `iqm.h` field by field, little-endian, no padding.
//! The large arrays (vertex data, triangles, frames) are not read record by record: the
//! reader takes them as one checked slice (see `reader`).

use binrw::binrw;

/// A record with a fixed size on disk, so a count can be checked against the bytes left
/// before anything is allocated.
pub(crate) trait Record:
    for<'a> binrw::BinRead<Args<'a> = ()> + for<'a> binrw::BinWrite<Args<'a> = ()>
{
    /// Bytes on disk.
    const SIZE: u64;
}

/// The 16 bytes every IQM file starts with.
pub const MAGIC: &[u8; 16] = b"INTERQUAKEMODEL\0";

/// Size of [`Header`] on disk.
pub const HEADER_SIZE: u64 = 124;

/// `iqmheader` (124 bytes): counts and offsets of every block, kept exactly as stored.
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Header {
    /// `"INTERQUAKEMODEL\0"`.
    pub magic: [u8; 16],
    /// 2 (version 1 files are upgraded when read).
    pub version: u32,
    /// Size of the whole file as the writer saw it.
    pub filesize: u32,
    /// Unused by the specification; kept.
    pub flags: u32,
    /// Bytes in the text table.
    pub num_text: u32,
    /// Offset of the text table.
    pub ofs_text: u32,
    /// Mesh records.
    pub num_meshes: u32,
    /// Offset of the mesh records.
    pub ofs_meshes: u32,
    /// Vertex array descriptors.
    pub num_vertexarrays: u32,
    /// Vertices in every vertex array.
    pub num_vertexes: u32,
    /// Offset of the vertex array descriptors.
    pub ofs_vertexarrays: u32,
    /// Triangles.
    pub num_triangles: u32,
    /// Offset of the triangles.
    pub ofs_triangles: u32,
    /// Offset of the adjacency records (one per triangle), 0 for none.
    pub ofs_adjacency: u32,
    /// Joints.
    pub num_joints: u32,
    /// Offset of the joints.
    pub ofs_joints: u32,
    /// Poses (one per animated joint).
    pub num_poses: u32,
    /// Offset of the poses.
    pub ofs_poses: u32,
    /// Animations.
    pub num_anims: u32,
    /// Offset of the animations.
    pub ofs_anims: u32,
    /// Frames over all animations.
    pub num_frames: u32,
    /// `u16` values per frame.
    pub num_framechannels: u32,
    /// Offset of the frame values.
    pub ofs_frames: u32,
    /// Offset of the per-frame bounds, 0 for none.
    pub ofs_bounds: u32,
    /// Bytes of comment.
    pub num_comment: u32,
    /// Offset of the comment.
    pub ofs_comment: u32,
    /// Extensions (a linked list).
    pub num_extensions: u32,
    /// Offset of the first extension.
    pub ofs_extensions: u32,
}

impl Record for Header {
    const SIZE: u64 = HEADER_SIZE;
}

/// `iqmmesh` (24 bytes). Vertex and triangle ranges index the whole file's arrays.
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mesh {
    /// Name: offset into the text table.
    pub name: u32,
    /// Material: offset into the text table.
    pub material: u32,
    /// First vertex of the mesh.
    pub first_vertex: u32,
    /// Vertices of the mesh.
    pub num_vertexes: u32,
    /// First triangle of the mesh.
    pub first_triangle: u32,
    /// Triangles of the mesh.
    pub num_triangles: u32,
}

impl Record for Mesh {
    const SIZE: u64 = 24;
}

/// `iqmvertexarray` (20 bytes): the descriptor of one vertex array.
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct VertexArrayRecord {
    pub kind: u32,
    pub flags: u32,
    pub format: u32,
    pub size: u32,
    pub offset: u32,
}

impl Record for VertexArrayRecord {
    const SIZE: u64 = 20;
}

/// `iqmjoint` (48 bytes): a joint with its bind transform relative to its parent.
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Joint {
    /// Name: offset into the text table.
    pub name: u32,
    /// Parent joint, negative for a root (the SDK writes parents before children).
    pub parent: i32,
    /// Translation.
    pub translate: [f32; 3],
    /// Rotation quaternion `x y z w`.
    pub rotate: [f32; 4],
    /// Scale.
    pub scale: [f32; 3],
}

impl Record for Joint {
    const SIZE: u64 = 48;
}

/// `iqmjointv1` (44 bytes): a version 1 joint, rotation without `w`.
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct JointV1 {
    pub name: u32,
    pub parent: i32,
    pub translate: [f32; 3],
    pub rotate: [f32; 3],
    pub scale: [f32; 3],
}

impl Record for JointV1 {
    const SIZE: u64 = 44;
}

/// `iqmpose` (88 bytes): how one joint's ten channels are stored in the frames.
///
/// The value of channel `c` in a frame is `channeloffset[c] + v × channelscale[c]`, where
/// `v` is the frame's next `u16` when bit `c` of the mask is set and 0 otherwise. Channels
/// 0–2 are the translation, 3–6 the quaternion `x y z w`, 7–9 the scale.
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pose {
    /// Parent joint, negative for a root.
    pub parent: i32,
    /// Which channels have a value in each frame (bits above 9 are kept, unused).
    pub channelmask: u32,
    /// Per-channel offsets.
    pub channeloffset: [f32; 10],
    /// Per-channel scales.
    pub channelscale: [f32; 10],
}

impl Record for Pose {
    const SIZE: u64 = 88;
}

/// `iqmposev1` (80 bytes): a version 1 pose with nine channels (no `w`).
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct PoseV1 {
    pub parent: i32,
    pub channelmask: u32,
    pub channeloffset: [f32; 9],
    pub channelscale: [f32; 9],
}

impl Record for PoseV1 {
    const SIZE: u64 = 80;
}

/// `iqmanim` (20 bytes).
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Anim {
    /// Name: offset into the text table.
    pub name: u32,
    /// First frame of the animation in the file's frames.
    pub first_frame: u32,
    /// Frames of the animation.
    pub num_frames: u32,
    /// Frames per second; 0 in Red Eclipse's files ("unspecified").
    pub framerate: f32,
    /// [`LOOP`] and unknown bits (kept).
    pub flags: u32,
}

impl Record for Anim {
    const SIZE: u64 = 20;
}

/// `IQM_LOOP`: the animation repeats.
pub const LOOP: u32 = 1;

impl Anim {
    /// Whether the loop flag is set.
    pub fn looping(&self) -> bool {
        self.flags & LOOP != 0
    }
}

/// `iqmbounds` (32 bytes): the box and radii of the posed model in one frame.
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Bounds {
    /// Smallest corner.
    pub bbmin: [f32; 3],
    /// Largest corner.
    pub bbmax: [f32; 3],
    /// Largest distance from the Z axis.
    pub xyradius: f32,
    /// Largest distance from the origin.
    pub radius: f32,
}

impl Record for Bounds {
    const SIZE: u64 = 32;
}

/// `iqmextension` (16 bytes): one link of the extension list.
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ExtensionRecord {
    pub name: u32,
    pub num_data: u32,
    pub ofs_data: u32,
    pub ofs_extensions: u32,
}

impl Record for ExtensionRecord {
    const SIZE: u64 = 16;
}
