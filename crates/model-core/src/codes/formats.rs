//! The codes a single format crate, the renderer or `rigport validate` raises, each with the
//! sentence it comes with; re-exported by [`crate::codes`], where every code is named.

use crate::Code;

/// Info: … frames × … vertices: per-frame bounds computed from per-joint boxes (they contain
/// the posed model but may be larger than the SDK's) (`iqm`).
pub const BOUNDS_CONSERVATIVE: Code = Code::new("bounds-conservative");

/// Warning: Joint … is above 255: blend indexes written as ushort, which raylib and other
/// ubyte-only readers cannot load (`iqm`).
pub const BLEND_INDEXES_USHORT: Code = Code::new("blend-indexes-ushort");

/// Info: … identical vertices welded (`iqm`).
pub const VERTICES_WELDED: Code = Code::new("vertices-welded");

/// Info: Joints were reordered so that every parent comes before its children, as IQM readers
/// expect (`iqm`).
pub const JOINTS_REORDERED: Code = Code::new("joints-reordered");

/// Loss: … animations dropped: the model has no joints (`iqm`).
pub const ANIMATIONS_WITHOUT_JOINTS: Code = Code::new("animations-without-joints");

/// Info: Looping animation … lasts … s; each channel gets a key there equal to its first, so it
/// blends back as it loops (`gltf`).
pub const GLTF_ANIMATION_LOOP_WRAP: Code = Code::new("gltf-animation-loop-wrap");

/// Info: Animation … lasts … s but its last key is at … s; a holding key keeps the length
/// (`gltf`).
pub const GLTF_ANIMATION_LENGTH_HELD: Code = Code::new("gltf-animation-length-held");

/// Loss: … animations carry unknown flag bits; dropped (`iqm`).
pub const ANIMATION_FLAGS: Code = Code::new("animation-flags");

/// Loss: Header flags … cannot be carried (`iqm`).
pub const HEADER_FLAGS: Code = Code::new("header-flags");

/// Loss: The extension list at byte … ends after … of … extensions (`iqm`).
pub const EXTENSIONS: Code = Code::new("extensions");

/// Info: Per-frame bounds are not kept in the model (from_model computes them again) (`iqm`).
pub const BOUNDS: Code = Code::new("bounds");

/// Info: Triangle adjacency is not kept in the model (from_model computes it again) (`iqm`).
pub const ADJACENCY: Code = Code::new("adjacency");

/// Loss: … custom vertex arrays cannot be carried: … (`iqm`).
pub const CUSTOM_ARRAYS: Code = Code::new("custom-arrays");

/// Loss: Vertex array flags … cannot be carried (`iqm`).
pub const VERTEX_ARRAY_FLAGS: Code = Code::new("vertex-array-flags");

/// Loss: No known file signature (`iqm`).
pub const UNKNOWN_FORMAT: Code = Code::new("unknown-format");

/// Warning: … joint names point outside the text table; left empty (`iqm`).
pub const BAD_NAME: Code = Code::new("bad-name");

/// Warning: Animation … uses frames …..… of the … the file holds; cut to those (`iqm`).
pub const FRAMES_OUT_OF_RANGE: Code = Code::new("frames-out-of-range");

/// Loss: … poses beyond the … joints dropped (`iqm`).
pub const EXTRA_POSES: Code = Code::new("extra-poses");

/// Warning: The poses' channel masks select … values per frame, the header says …; values past
/// the frame read as 0 (`iqm`).
pub const CHANNEL_COUNT: Code = Code::new("channel-count");

/// Loss: … vertices carry blend weights but the file has no joints; dropped (`iqm`).
pub const WEIGHTS_WITHOUT_SKELETON: Code = Code::new("weights-without-skeleton");

/// Loss: … triangles use vertices past the end of the vertex arrays; dropped (`iqm`).
pub const TRIANGLES_OUT_OF_RANGE: Code = Code::new("triangles-out-of-range");

/// Warning: … vertices belong to no mesh and no face uses them; dropped (`iqm`).
pub const VERTICES_OUTSIDE_MESH: Code = Code::new("vertices-outside-mesh");

/// Warning: Mesh … uses vertices …+… and triangles …+… of the … and … the file holds; cut to
/// those (`iqm`).
pub const MESH_OUT_OF_RANGE: Code = Code::new("mesh-out-of-range");

/// Info: The file has no normal array; normals are zero (`iqm`).
pub const NO_NORMALS: Code = Code::new("no-normals");

/// Warning: The file has … vertices but no position array; positions are zero (`iqm`).
pub const NO_POSITIONS: Code = Code::new("no-positions");

/// Warning: … joints or poses name a parent that does not exist; made roots (`iqm`).
pub const BAD_PARENT: Code = Code::new("bad-parent");

/// Warning: … morph weight tracks had key times glTF does not accept (not finite, negative or
/// out of order); those keys were left out (`gltf`).
pub const GLTF_WEIGHT_KEYS_CLEANED: Code = Code::new("gltf-weight-keys-cleaned");

/// Loss: Frame rate and loop flag of … animations have no place in glTF; not carried (`gltf`).
pub const GLTF_ANIMATION_FPS_LOOP: Code = Code::new("gltf-animation-fps-loop");

/// Loss: Animation … has no valid keys; left out (glTF forbids animations without channels)
/// (`gltf`).
pub const GLTF_ANIMATION_EMPTY: Code = Code::new("gltf-animation-empty");

/// Loss: … of … materials has no glTF equivalent; not carried (`gltf`).
pub const GLTF_MATERIAL_UNMAPPED: Code = Code::new("gltf-material-unmapped");

/// Warning: Vertex colours were outside 0..1; clamped (`gltf`).
pub const GLTF_COLOUR_CLAMPED: Code = Code::new("gltf-colour-clamped");

/// Warning: The extension list at byte … ends after … of … extensions (`iqm`).
pub const EXTENSIONS_SHORT: Code = Code::new("extensions-short");

/// Warning: Header filesize at byte 20 is …, but the file has … bytes (`iqm`).
pub const FILESIZE: Code = Code::new("filesize");

/// Info: Mesh … is empty; left out (`gltf`).
pub const GLTF_MESH_EMPTY: Code = Code::new("gltf-mesh-empty");

/// Loss: Mesh … has no valid triangles; left out with its … vertices (glTF forbids empty
/// primitives) (`gltf`).
pub const GLTF_MESH_NO_TRIANGLES: Code = Code::new("gltf-mesh-no-triangles");

/// Info: IQM version 1 file: rotations gained an explicit w (−√(1 − x² − y² − z²)); it writes
/// back as version 2 (`iqm`).
pub const VERSION_1: Code = Code::new("version-1");

/// Warning: … of … meshes have more than … % of their triangles facing away from their stored
/// normals; drawn double-sided (a double-sided copy where the material is shared with
/// consistent meshes): … (`gltf`). Info, read back: … read as the materials they are
/// double-sided copies of.
pub const GLTF_DOUBLE_SIDED: Code = Code::new("gltf-double-sided");

/// Info: Vertices bound to no joint in skinned meshes are bound to the static joint … (`gltf`).
pub const GLTF_UNBOUND_JOINT: Code = Code::new("gltf-unbound-joint");

/// Warning: … joints have a bind transform that cannot be inverted (zero scale); identity
/// inverse bind matrix written (`gltf`).
pub const GLTF_BIND_SINGULAR: Code = Code::new("gltf-bind-singular");

/// Warning: … joints had a non-finite or zero bind transform part; replaced by the identity
/// part (`gltf`).
pub const GLTF_JOINT_TRANSFORM_INVALID: Code = Code::new("gltf-joint-transform-invalid");

/// Warning: Material …: texture … is not PNG or JPEG, which glTF viewers need; convert the
/// image (`gltf`).
pub const GLTF_TEXTURE_FORMAT: Code = Code::new("gltf-texture-format");

/// Warning: Material …: absolute texture path … written as … (place the image beside the model)
/// (`gltf`).
pub const GLTF_TEXTURE_ABSOLUTE: Code = Code::new("gltf-texture-absolute");

/// Loss: Material …: texture path … names no file; left out (`gltf`).
pub const GLTF_TEXTURE_NO_FILE: Code = Code::new("gltf-texture-no-file");

/// Info: … texture images … (… converted to PNG) (`gltf`).
pub const GLTF_TEXTURE_EMBEDDED: Code = Code::new("gltf-texture-embedded");

/// Info: The model comment is kept in `asset.extras.comment`, which rigport reads back and
/// other glTF readers pass over (`gltf`).
pub const GLTF_COMMENT: Code = Code::new("gltf-comment");

/// Info: … texture path(s) had back-slashes; written with forward slashes (`obj`).
pub const OBJ_TEXTURE_PATH_SLASHES: Code = Code::new("obj-texture-path-slashes");

/// Warning: … number(s) were NaN or infinite; written as 0 (`obj`).
pub const OBJ_NOT_FINITE: Code = Code::new("obj-not-finite");

/// Warning: Skipped … triangle(s) whose indices point past their mesh's vertices (`obj`).
pub const OBJ_TRIANGLE_OUT_OF_RANGE: Code = Code::new("obj-triangle-out-of-range");

/// Loss: OBJ has no vertex colours: dropped those of … mesh(es) (`obj`).
pub const OBJ_NO_VERTEX_COLORS: Code = Code::new("obj-no-vertex-colors");

/// Loss: OBJ has no animation: … animation(s) dropped (`obj`).
pub const OBJ_NO_ANIMATION: Code = Code::new("obj-no-animation");

/// Loss: OBJ has no skeleton: … joint(s) and the skin weights were dropped (the meshes are
/// written in their current shape) (`obj`).
pub const OBJ_NO_SKELETON: Code = Code::new("obj-no-skeleton");

/// Warning: Mesh … uses material …, which does not exist; it gets the default material (`obj`).
pub const OBJ_MATERIAL_MISSING: Code = Code::new("obj-material-missing");

/// Warning: … of … triangle(s) were not drawn: indices out of range or positions not finite
/// (`render`).
pub const TRIANGLES_SKIPPED: Code = Code::new("triangles-skipped");

/// Keys shared a time with a later key of the same channel; the later one is kept (`gltf`).
pub const GLTF_KEY_DUPLICATE_TIME: Code = Code::new("gltf-key-duplicate-time");

/// Key channels were not in time order; sorted (`gltf`).
pub const GLTF_KEYS_REORDERED: Code = Code::new("gltf-keys-reordered");

/// Keys had a negative time (glTF times start at 0); left out (`gltf`).
pub const GLTF_KEY_TIME_NEGATIVE: Code = Code::new("gltf-key-time-negative");

/// Keys had a non-finite time or value (or a zero rotation); left out (`gltf`).
pub const GLTF_KEY_INVALID: Code = Code::new("gltf-key-invalid");

/// Animation tracks repeat a joint already animated; only the first is kept (`gltf`).
pub const GLTF_TRACK_DUPLICATE: Code = Code::new("gltf-track-duplicate");

/// Animation tracks name a joint that does not exist; left out (`gltf`).
pub const GLTF_TRACK_JOINT_MISSING: Code = Code::new("gltf-track-joint-missing");

/// raised by `gltf` (`export/mesh.rs`).
pub const GLTF_WINDING_DISAGREES: Code = Code::new("gltf-winding-disagrees");

/// Meshes name a material that does not exist; written without material (`gltf`).
pub const GLTF_MATERIAL_MISSING: Code = Code::new("gltf-material-missing");

/// Meshes have no normals; written without (viewers compute flat normals) (`gltf`).
pub const GLTF_NO_NORMALS: Code = Code::new("gltf-no-normals");

/// Vertices had a zero or broken normal; replaced by the normal of their faces (`gltf`).
pub const GLTF_NORMALS_GENERATED: Code = Code::new("gltf-normals-generated");

/// Vertex positions or texture coordinates were not finite; written as 0 (`gltf`).
pub const GLTF_NON_FINITE_VERTEX: Code = Code::new("gltf-non-finite-vertex");

/// Triangles name a vertex that does not exist; left out (`gltf`).
pub const GLTF_TRIANGLE_INDEX_OUT_OF_RANGE: Code = Code::new("gltf-triangle-index-out-of-range");

/// Vertices had weights not summing to 1; rescaled (glTF requires the sum 1) (`gltf`).
pub const GLTF_WEIGHT_RESCALED: Code = Code::new("gltf-weight-rescaled");

/// Vertex influences repeated a joint of the same vertex; their weights were added (`gltf`).
pub const GLTF_WEIGHT_MERGED: Code = Code::new("gltf-weight-merged");

/// Vertex influences had a negative or non-finite weight; dropped (`gltf`).
pub const GLTF_WEIGHT_INVALID: Code = Code::new("gltf-weight-invalid");

/// Vertex influences name a joint that does not exist; dropped and the rest rescaled (`gltf`).
pub const GLTF_WEIGHT_JOINT_MISSING: Code = Code::new("gltf-weight-joint-missing");

/// raised by `rigport` (`checks.rs`).
pub const MODEL: Code = Code::new("model");

/// raised by `rigport` (`checks.rs`).
pub const READ: Code = Code::new("read");

/// Warning: Mesh …: … of … triangles face away from their stored normals (`rigport`).
pub const WINDING: Code = Code::new("winding");

/// Warning: Mesh …: … vertices have weights that do not sum to 1 (`rigport`).
pub const WEIGHTS_NOT_NORMALIZED: Code = Code::new("weights-not-normalized");

/// Warning: Mesh …: … vertices are used by no triangle (`rigport`).
pub const UNREFERENCED_VERTICES: Code = Code::new("unreferenced-vertices");

/// Warning: Mesh …: … triangles have zero area (`rigport`).
pub const DEGENERATE_TRIANGLES: Code = Code::new("degenerate-triangles");

/// Error: raised by `rigport` (`checks.rs`).
pub const HIERARCHY: Code = Code::new("hierarchy");

/// Info: raised by `rigport` (`checks.rs`).
pub const MS3D_LIMIT: Code = Code::new("ms3d-limit");

/// Info: … vertices have several joint weights; MilkShape ASCII keeps only one (`rigport`).
pub const MS3D_ASCII_LIMIT: Code = Code::new("ms3d-ascii-limit");

/// Warning: …: texture … is not beside the model (`rigport`).
pub const MISSING_TEXTURE: Code = Code::new("missing-texture");

/// Warning: …: texture path … is absolute (`rigport`).
pub const ABSOLUTE_TEXTURE_PATH: Code = Code::new("absolute-texture-path");

/// Warning: Joint …: bind rotation has length … (`rigport`).
pub const NON_UNIT_QUATERNION: Code = Code::new("non-unit-quaternion");

/// Error: `rigport validate` could not read the file at all.
pub const UNREADABLE: Code = Code::new("unreadable");
