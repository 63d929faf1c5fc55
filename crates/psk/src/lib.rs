//! Read and write Unreal ActorX PSK, PSKX and PSA files byte for byte, and convert them to
//! and from the rigport neutral [`Model`](rigport_model_core::Model).
//!
//! One container holds the three: a flat list of sections, each a 32-byte header (a
//! 20-byte name, a type flag, a record size and a record count) followed by its records. A
//! `.psk` (or `.pskx`) starts with `ACTRHEAD` and holds a mesh and its reference skeleton;
//! a `.psa` starts with `ANIMHEAD` and holds sequences of keys over a list of bone names.
//!
//! Two layers, as in every rigport format crate:
//!
//! * **Faithful** — [`File`] is the list of [`Section`]s in file order, each with its header
//!   as stored and its records decoded ([`Body`]): points, wedges, faces (`FACE0000` and
//!   `FACE3200`), materials, bones (`REFSKELT`, `BONENAMES`), weights, sequences, keys, scale
//!   keys, and the PSKX extras (`VTXNORMS`, `VERTEXCOLOR`, `EXTRAUVS0`…, `MRPHINFO`,
//!   `MRPHDATA`). Other sections, and known ones with an unexpected record size, are kept
//!   raw. Names keep their bytes after the NUL. [`File::to_vec`] gives back the bytes read.
//! * **Neutral** — [`to_model`], [`to_model_with_animations`] (a `.psk` with `.psa` files
//!   bound by bone name), [`from_model`] (`.psk`) and [`anim_from_model`] (one `.psa` with
//!   every animation), with a [`Report`] naming what the other side cannot hold. [`Psk`]
//!   and [`Psa`] are the [`Codec`](rigport_model_core::codec::Codec)s.
//!
//! ```
//! use rigport_psk::{ConvertOptions, File, Kind, from_model, sniff, to_model};
//! use rigport_model_core::glam::{Vec2, Vec3};
//! use rigport_model_core::{Joint, Mesh, Model, UpAxis, Vertex};
//!
//! let mut mesh = Mesh::new("tri");
//! for (position, uv) in [(Vec3::ZERO, Vec2::ZERO), (Vec3::X, Vec2::X), (Vec3::Y, Vec2::Y)] {
//!     mesh.vertices.push(Vertex { position, normal: Vec3::Z, uv, ..Vertex::default() });
//! }
//! mesh.triangles.push([0, 1, 2]);
//! let mut model = Model { up: UpAxis::Z, ..Model::default() };
//! model.meshes.push(mesh);
//! model.skeleton.joints.push(Joint::new("root"));
//!
//! let (file, _report) = from_model(&model, &ConvertOptions::default())?;
//! let bytes = file.to_vec();
//! assert!(sniff(&bytes));
//!
//! let read = File::from_slice(&bytes)?;
//! assert_eq!(read.kind, Kind::Mesh);
//! assert_eq!(read.to_vec(), bytes); // byte for byte
//! assert_eq!(read.faces().len(), 1);
//! // Stored clockwise seen from the front: the model's second and third corners swap.
//! assert_eq!(read.faces()[0].wedges, [0, 2, 1]);
//!
//! let (back, _report) = to_model(&read, &ConvertOptions::default())?;
//! assert_eq!(back.meshes[0].triangles, vec![[0, 1, 2]]);
//! assert_eq!(back.meshes[0].vertices[1].position, Vec3::X);
//!
//! // Damaged input is an error naming the byte offset.
//! let error = File::from_slice(&bytes[..bytes.len() - 5]).unwrap_err();
//! assert!(error.offset().is_some());
//! # Ok::<(), rigport_psk::Error>(())
//! ```
//!
//! # Reading
//!
//! Every section's `DataSize × DataCount` is checked against the bytes left and every
//! count against the [`Limits`](rigport_model_core::Limits) budget before anything is
//! allocated; an index past what it indexes (a face's wedge, a wedge's point, a weight's
//! point or bone, a bone's parent, a morph delta's point) is an error naming where it is
//! stored. A known section with an unexpected record size, fewer than 32 bytes after the
//! last section, and counts that disagree between sections (`VTXNORMS` against the
//! points, `ANIMKEYS` against the sequences) are warnings; [`ReadOptions::strict`] makes
//! them errors. Wedge point indices use the low 16 bits while the file has at most 65536
//! points (old files keep junk in the padding), all 32 bits otherwise.
//!
//! # The model
//!
//! * **Axes.** The numbers are a right-handed, Z-up space (the authoring tool's; Unreal
//!   shows them mirrored in Y); the model is [`UpAxis::Z`](rigport_model_core::UpAxis::Z)
//!   and the numbers are copied unchanged. Units are Unreal units (usually centimetres);
//!   nothing is scaled.
//! * **Rotations.** Stored quaternions are `x, y, z, w`. Bone 0 (the root) uses its
//!   quaternion as stored; every other bone, and every PSA key of a bone other than the
//!   root, uses the conjugate. Measured on the corpus: with this rule the median distance
//!   between a bone and the weighted centre of the points it moves is 2.0 % of the model's
//!   size on `dlg_Bat.psk`, against 107 % with every quaternion as stored, 58 % with every
//!   one conjugated and 92 % with only the root conjugated; it also holds the frame-0 root
//!   key of `pyffi_pendulum.psa` bit for bit equal to its mesh's root. The writer applies
//!   the same rule backwards.
//! * **Faces.** Stored clockwise seen from the front; the model winds them
//!   counter-clockwise (`(a, b, c)` → `(a, c, b)`). UVs are top-left as stored. Faces are
//!   grouped into one mesh per material index (in index order), named after the material.
//! * **Vertices.** A vertex per wedge; with `VTXNORMS` its point's normal, otherwise
//!   normals are generated from the smoothing groups (a wedge used by faces of different
//!   groups becomes one vertex per group). `VERTEXCOLOR` is sRGB and becomes linear colour.
//! * **Weights** belong to points: zero weights dropped, the four largest kept
//!   ([`rigport_anim::weights::keep_largest_four`]), normalised; a point without weights
//!   is bound to the root.
//! * **Animations.** Keys are frame-major: for each sequence, for each frame, one key per
//!   bone. Frame *i* is at `i / AnimRate` seconds and a sequence of *N* frames lasts
//!   `(N − 1) / AnimRate`. `SCALEKEYS`, when it has one key per key, gives scale keys.
//!   When the first sequence's `FirstRawFrame` equals its frame count (CUE4Parse's bug)
//!   the starts are recomputed as running sums, with a warning; otherwise a sequence
//!   past the keys is an error.
//! * **Binding** a `.psa` to a `.psk` is by bone name (trailing spaces ignored, exact
//!   match first, then ASCII case-insensitive): skeleton bones the PSA does not name keep
//!   their bind pose, PSA bones the skeleton lacks are reported and dropped.
//! * **Morph targets** (PSKX `MRPHINFO`/`MRPHDATA`) become the meshes' morph targets:
//!   each delta moves every vertex of its point, position and normal, default weight 0.
//! * **Not carried**, and reported: extra UV sets, material flags, the PSA's own reference
//!   pose when bound to a mesh.
//!
//! # Writing
//!
//! Classic section order, type flag 1999801, root parent 0, names NUL-terminated in at most
//! 63 bytes, 16-bit point indices while there are at most 65536 points, `FACE0000` while
//! there are at most 65536 wedges (else `FACE3200`), at most four weights per point, sorted
//! by point. The model's animations go to one `.psa` (a PSA holds many sequences): the
//! [`Psk`] codec writes it beside the mesh as `<stem>.psa`.
#![forbid(unsafe_code)]

mod beside;
mod codec;
mod convert;
mod error;
mod file;
mod read;
mod summary;
mod write;

pub use codec::{PSA_CODEC, PSA_INFO, PSK_CODEC, PSK_INFO, Psa, Psk};
pub use convert::{
    ConvertOptions, DEFAULT_FPS, SCALE_TYPE_FLAG, TYPE_FLAG, anim_from_model, bind_by_name, codes,
    from_model, shared_bones, to_model, to_model_with_animations,
};
pub use error::{Detail, Error};
pub use file::{
    AnimInfo, AnimKey, Body, Bone, Face, File, HEADER_SIZE, Kind, MaterialRecord, MorphDelta,
    MorphInfo, RawWeight, ScaleKey, Section, Wedge, name_field, name_of,
};
pub use rigport_model_core::{FileSummary, ReadOptions, Report};

/// Whether the bytes start like a PSK or PSA file (first section `ACTRHEAD` or `ANIMHEAD`).
pub fn sniff(bytes: &[u8]) -> bool {
    sniff_kind(bytes).is_some()
}

/// Which file the bytes start like: [`Kind::Mesh`] for a first section named `ACTRHEAD`,
/// [`Kind::Anim`] for `ANIMHEAD` (the name is the bytes before the first NUL of the first
/// 20; bytes after it do not matter).
pub fn sniff_kind(bytes: &[u8]) -> Option<Kind> {
    read::sniff_id(bytes)
}

rigport_model_core::faithful_readers!(binary);

impl File {
    /// Reads a file with options; the report holds the warnings of a lenient read. With
    /// [`ReadOptions::strict`] the first warning is an error.
    pub fn from_slice_with(bytes: &[u8], options: &ReadOptions) -> Result<(File, Report), Error> {
        read::parse(bytes, options)
    }

    /// The file's bytes: each section's header as stored, then its records.
    pub fn to_vec(&self) -> Vec<u8> {
        write::to_bytes(self)
    }

    /// Counts for `rigport info`: wedges as vertices, faces, materials, bones, sequences
    /// and their frames; the caller appends the read's warnings.
    pub fn summary(&self) -> FileSummary {
        summary::summary(self)
    }
}
