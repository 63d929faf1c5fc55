//! Every report code the neutral layer, `rigport-anim` and the format crates use, as named
//! constants: tools match on [`Notice::code`](crate::Notice::code), so a code is spelt once,
//! here, and a typo is a compile error instead of a silently unmatched notice.
//!
//! Codes are kebab-case and stable. The severity in each constant's docs is the one the
//! code is used with. Two spellings drifted before this module existed and were settled:
//! `vertex-colors` (not `vertex-colours`, matching `Mesh::has_colors` and the OBJ writer's
//! `obj-no-vertex-colors`) and `animations-dropped` (not `animations`, like
//! `weights-dropped`: the code says what happened).

use crate::Code;

mod all;
mod formats;

pub use all::ALL;
pub use formats::*;

/// Info: The model was turned from its source's up axis to the target's ("Z-up → Y-up").
pub const AXES_CONVERTED: Code = Code::new("axes-converted");

/// Warning: A texture a material names was not found beside the model.
pub const TEXTURE_MISSING: Code = Code::new("texture-missing");

/// Loss: Images held inside a file are not part of the neutral model its codec read.
pub const IMAGES_NOT_CARRIED: Code = Code::new("images-not-carried");
/// Warning: A texture a material names was found beside the model but cannot be used (it
/// cannot be read or decoded, or is larger than [`crate::texture::Limits`] allow).
pub const TEXTURE_UNUSABLE: Code = Code::new("texture-unusable");

/// Loss: A material's texture was not written because a mesh using the material has no
/// texture coordinates (glTF requires them wherever a texture is bound).
pub const TEXTURE_WITHOUT_UVS: Code = Code::new("texture-without-uvs");
/// Warning: A count line disagrees with the records that follow it (MD5 `numverts`,
/// `numJoints`, `numFrames`…); the records are used.
pub const COUNT_MISMATCH: Code = Code::new("count-mismatch");

/// Info: Meshes without vertices or triangles were skipped.
pub const EMPTY_MESHES: Code = Code::new("empty-meshes");

/// Info: A joint was added (a root for vertices bound to no joint, or for a model without
/// joints, where the target needs every vertex weighted); nothing moves.
pub const JOINT_ADDED: Code = Code::new("joint-added");

/// Loss: Normals are not stored by the target (its readers compute them from the triangles).
pub const NORMALS_NOT_STORED: Code = Code::new("normals-not-stored");

/// Info: Names that are not UTF-8 were read as Latin-1.
pub const LATIN1_NAMES: Code = Code::new("latin1-names");

/// Info: Normals were generated because the file has none.
pub const NORMALS_GENERATED: Code = Code::new("normals-generated");

/// Info: Keys between frames were sampled at the target's frame rate.
pub const RESAMPLED: Code = Code::new("resampled");

/// Info: Rotation keys not of unit length were normalized.
pub const ROTATION_NORMALIZED: Code = Code::new("rotation-normalized");

/// Info: Several keys share a time: the value jumps there.
pub const KEYS_SAME_TIME: Code = Code::new("keys-same-time");

/// Info: Pose quaternions not of unit length were normalized.
pub const POSE_NORMALIZED: Code = Code::new("pose-normalized");

/// Info: Vertex weights that did not sum to 1 were rescaled.
pub const WEIGHTS_RENORMALIZED: Code = Code::new("weights-renormalized");

/// Info: Where one animation lies on a timeline of several laid end to end ("walk: frames 1-30").
pub const ANIMATION_RANGE: Code = Code::new("animation-range");

/// Info: A conversion setting had nothing to do for this target (e.g. concatenating animations for a format that keeps every one).
pub const SETTING_IGNORED: Code = Code::new("setting-ignored");

/// Warning: The input ends inside a block; the damaged bytes are kept raw (or, converting, not carried).
pub const DAMAGED_TAIL: Code = Code::new("damaged-tail");

/// Warning: The header line a file of this format starts with is missing.
pub const MISSING_MAGIC: Code = Code::new("missing-magic");

/// Warning: An index in the file points past the list it indexes.
pub const INDEX_OUT_OF_RANGE: Code = Code::new("index-out-of-range");

/// Warning: A joint names a parent that does not exist (or itself); it became a root.
pub const MISSING_PARENT: Code = Code::new("missing-parent");

/// Warning: A joint is its own ancestor; one joint of the cycle became a root.
pub const JOINT_CYCLE: Code = Code::new("joint-cycle");

/// Warning: Several joints share a name; parents found by name resolve to the first.
pub const DUPLICATE_JOINT_NAMES: Code = Code::new("duplicate-joint-names");

/// Warning: Vertex influences name a joint that does not exist.
pub const JOINT_OUT_OF_RANGE: Code = Code::new("joint-out-of-range");

/// Warning: A group names a triangle that does not exist.
pub const MISSING_TRIANGLE: Code = Code::new("missing-triangle");

/// Warning: A triangle names a vertex that does not exist.
pub const MISSING_VERTEX: Code = Code::new("missing-vertex");

/// Warning: A mesh names a material that does not exist.
pub const MISSING_MATERIAL: Code = Code::new("missing-material");

/// Warning: The frame rate is not a positive number; a default was used.
pub const INVALID_FPS: Code = Code::new("invalid-fps");

/// Warning: Keys with times outside the file's timeline were dropped.
pub const KEYS_OUTSIDE_TIMELINE: Code = Code::new("keys-outside-timeline");

/// Warning: A track animates a joint that does not exist; dropped.
pub const TRACK_JOINT_MISSING: Code = Code::new("track-joint-missing");

/// Warning: A joint has several tracks in one animation; the first wins (see `rigport_anim`), writers report the others as lost.
pub const TRACK_JOINT_DUPLICATE: Code = Code::new("track-joint-duplicate");

/// Warning: Keys with a time or value that is not a finite number were dropped.
pub const KEYS_NOT_FINITE: Code = Code::new("keys-not-finite");

/// Warning: Keys out of time order were sorted.
pub const KEYS_UNSORTED: Code = Code::new("keys-unsorted");

/// Warning: Rotation keys of zero length were dropped.
pub const ROTATION_ZERO: Code = Code::new("rotation-zero");

/// Warning: Vertices are weighted to joints that do not exist; those weights were ignored.
pub const SKIN_JOINT_MISSING: Code = Code::new("skin-joint-missing");

/// Warning: A command the reader does not know was kept as it was.
pub const UNKNOWN_COMMAND: Code = Code::new("unknown-command");

/// Warning: A command has more arguments than it takes.
pub const EXTRA_ARGUMENTS: Code = Code::new("extra-arguments");

/// Warning: A blend names a joint without a weight.
pub const BLEND_WITHOUT_WEIGHT: Code = Code::new("blend-without-weight");

/// Warning: The number of base poses differs from the number of joints.
pub const BASE_POSE_COUNT: Code = Code::new("base-pose-count");

/// Warning: Base poses beyond the joints were dropped.
pub const EXTRA_BASE_POSES: Code = Code::new("extra-base-poses");

/// Warning: Frames whose pose count differs from the joint count.
pub const FRAME_POSE_COUNT: Code = Code::new("frame-pose-count");

/// Warning: Frame poses beyond the joints were dropped.
pub const EXTRA_FRAME_POSES: Code = Code::new("extra-frame-poses");

/// Warning: Face smoothing values do not match the faces.
pub const FACE_SMOOTH_COUNT: Code = Code::new("face-smooth-count");

/// Warning: A face has fewer than three corners.
pub const SHORT_FACE: Code = Code::new("short-face");

/// Warning: A face smoothing line has fewer values than the face has edges.
pub const SHORT_FACE_SMOOTH: Code = Code::new("short-face-smooth");

/// Warning: A frame or pose appears outside any animation.
pub const OUTSIDE_ANIMATION: Code = Code::new("outside-animation");

/// Warning: Joints were invented for poses that name no joint (an animation-only file).
pub const PLACEHOLDER_JOINTS: Code = Code::new("placeholder-joints");

/// Warning: Corners sharing a position with too many others were left faceted.
pub const SMOOTHING_SKIPPED: Code = Code::new("smoothing-skipped");

/// Warning: Vertex attribute lines of one vertex do not line up.
pub const VERTEX_RUN: Code = Code::new("vertex-run");

/// Warning: Vertices appear before any mesh.
pub const VERTICES_OUTSIDE_MESHES: Code = Code::new("vertices-outside-meshes");

/// Warning: A vertex weight names a joint that does not exist.
pub const WEIGHT_JOINT_OUT_OF_RANGE: Code = Code::new("weight-joint-out-of-range");

/// Warning: An animation has no frame rate; the default was assumed.
pub const DEFAULT_FRAMERATE: Code = Code::new("default-framerate");

/// Loss: The target holds one animation; the others were not written, one notice each. (Was `animations` in the MilkShape ASCII writer.)
pub const ANIMATIONS_DROPPED: Code = Code::new("animations-dropped");

/// Loss: Vertex colours cannot be stored. (Was `vertex-colours` in the MilkShape binary writer.)
pub const VERTEX_COLORS: Code = Code::new("vertex-colors");

/// Loss: Smoothing groups are not carried (the normals are).
pub const SMOOTHING_GROUPS: Code = Code::new("smoothing-groups");

/// Loss: Editor selection/hidden flags are not carried.
pub const FLAGS: Code = Code::new("flags");

/// Loss: Comments are not carried.
pub const COMMENTS: Code = Code::new("comments");

/// Loss: The model comment is not carried.
pub const COMMENT: Code = Code::new("comment");

/// Loss: The editor's current time is not carried.
pub const CURRENT_TIME: Code = Code::new("current-time");

/// Loss: The editor's current frame is not carried.
pub const CURRENT_FRAME: Code = Code::new("current-frame");

/// Loss: The frame count of a file without keys is not carried.
pub const FRAMES: Code = Code::new("frames");

/// Loss: Joint colours are not carried.
pub const JOINT_COLOURS: Code = Code::new("joint-colours");

/// Loss: The material mode byte is not carried.
pub const MATERIAL_MODE: Code = Code::new("material-mode");

/// Loss: The model extra block is not carried.
pub const MODEL_EXTRA: Code = Code::new("model-extra");

/// Loss: Bytes after the NUL of fixed-size names are not carried.
pub const NAME_BYTES: Code = Code::new("name-bytes");

/// Loss: Names or paths longer than their field were cut.
pub const NAME_TRUNCATED: Code = Code::new("name-truncated");

/// Loss: Names held characters the target cannot quote; they were replaced.
pub const NAMES_CHANGED: Code = Code::new("names-changed");

/// Loss: Names held line breaks or quotes the target cannot hold; they were replaced.
pub const NAME_QUOTES: Code = Code::new("name-quotes");

/// Loss: Uninterpretable bytes at the end are not carried.
pub const RAW_TAIL: Code = Code::new("raw-tail");

/// Loss: The extra words of vertex-extra records are not carried.
pub const VERTEX_EXTRA_WORDS: Code = Code::new("vertex-extra-words");

/// Loss: Triangles in no group are not carried.
pub const UNGROUPED_TRIANGLES: Code = Code::new("ungrouped-triangles");

/// Loss: Vertices no triangle uses are not carried.
pub const UNUSED_VERTICES: Code = Code::new("unused-vertices");

/// Loss: Normals no triangle uses are not carried.
pub const UNUSED_NORMALS: Code = Code::new("unused-normals");

/// Loss: Triangles with out-of-range indices were dropped.
pub const INVALID_TRIANGLES: Code = Code::new("invalid-triangles");

/// Loss: Meshes naming a material that does not exist have none.
pub const INVALID_MATERIAL: Code = Code::new("invalid-material");

/// Loss: Vertices naming a bone that does not exist are not skinned.
pub const INVALID_BONE: Code = Code::new("invalid-bone");

/// Loss: Blocks the model cannot hold were dropped.
pub const UNKNOWN_BLOCKS: Code = Code::new("unknown-blocks");

/// Loss: Commands the model cannot hold were dropped.
pub const UNKNOWN_COMMANDS: Code = Code::new("unknown-commands");

/// Loss: A bind scale other than 1 cannot be stored.
pub const JOINT_SCALE: Code = Code::new("joint-scale");

/// Loss: Scale keys cannot be stored.
pub const SCALE_KEYS: Code = Code::new("scale-keys");

/// Loss: Keys past the target's per-channel limit were not written.
pub const TOO_MANY_KEYS: Code = Code::new("too-many-keys");

/// Loss: The interpolation mode is stored as linear.
pub const INTERPOLATION: Code = Code::new("interpolation");

/// Loss: A cubic animation was sampled linearly.
pub const CUBIC_INTERPOLATION: Code = Code::new("cubic-interpolation");

/// Loss: The loop flag cannot be stored.
pub const LOOPING: Code = Code::new("looping");

/// Loss: Numbers that are not finite were written as 0.
pub const NON_FINITE: Code = Code::new("non-finite");

/// Loss: Vertices with several joint weights kept only the largest.
pub const WEIGHTS_DROPPED: Code = Code::new("weights-dropped");

/// Loss: Vertices with more than four weights kept the four largest.
pub const WEIGHTS_TRUNCATED: Code = Code::new("weights-truncated");

/// Loss: Vertex weights were rounded to the target's steps (MilkShape: whole percents).
pub const WEIGHTS_ROUNDED: Code = Code::new("weights-rounded");

/// Loss: Material colours, textures and the like cannot be stored.
pub const MATERIAL_PROPERTIES: Code = Code::new("material-properties");

/// Loss: Vertices of a model without triangles were left out.
pub const FACELESS_VERTICES: Code = Code::new("faceless-vertices");

/// Loss: Custom vertex attributes are not carried.
pub const CUSTOM_ATTRIBUTES: Code = Code::new("custom-attributes");

/// Loss: Comment lines are not carried.
pub const COMMENT_LINES: Code = Code::new("comment-lines");

/// Loss: Smoothing commands are not carried (normals are generated from them).
pub const SMOOTHING: Code = Code::new("smoothing");

/// Loss: Per-vertex smoothing indexes are not carried.
pub const SMOOTHING_INDEXES: Code = Code::new("smoothing-indexes");

/// Loss: A fourth position coordinate other than 1 is not carried.
pub const POSITION_W: Code = Code::new("position-w");

/// Loss: Vertex array declarations are not carried.
pub const VERTEXARRAY: Code = Code::new("vertexarray");

/// Loss: Tangents are not carried.
pub const TANGENTS: Code = Code::new("tangents");

/// Loss: Bitangents are not carried.
pub const BITANGENTS: Code = Code::new("bitangents");

/// Warning: Vertex tangents glTF forbids (not unit vectors, or `w` other than ±1) were
/// rebuilt in a `.glb` copy.
pub const TANGENTS_REPAIRED: Code = Code::new("tangents-repaired");

/// Warning: A channel's cubic-spline tangents are not one per key; they were dropped.
pub const TANGENTS_MISMATCH: Code = Code::new("tangents-mismatch");

/// Info: Channels of one animation used different interpolations; they were converted to one
/// that reproduces each of them.
pub const INTERPOLATION_MIXED: Code = Code::new("interpolation-mixed");

/// Info: Several skins were merged into one skeleton (joints shared by node).
pub const SKINS_MERGED: Code = Code::new("skins-merged");

/// Warning: An image could not be decoded; the material keeps no texture.
pub const IMAGE_UNDECODABLE: Code = Code::new("image-undecodable");

/// Loss: A cubic-spline animation was resampled to linear keys at a frame rate (the target
/// cannot store tangents).
pub const ANIMATION_RESAMPLED: Code = Code::new("animation-resampled");

/// Loss: Point and line primitives are not carried (only triangles are).
pub const NON_TRIANGLE_PRIMITIVES: Code = Code::new("non-triangle-primitives");

/// Loss: Morph targets and their animated weights are not carried.
pub const MORPH_TARGETS: Code = Code::new("morph-targets");

/// Loss: Animation channels on nodes that are not joints are not carried.
pub const NODE_ANIMATION: Code = Code::new("node-animation");

/// Loss: Cameras are not carried.
pub const CAMERAS: Code = Code::new("cameras");

/// Info: FBX animation curves were sampled at the file's frame rate (cubic or Euler
/// curves that no track holds as they are), through ufbx's baking.
pub const FBX_RESAMPLED: Code = Code::new("fbx-resampled");

/// Info: FBX blend channels with in-between shapes: each shape is a morph target of its
/// own, and the channel's weight is split between the two shapes around it.
pub const FBX_IN_BETWEENS: Code = Code::new("fbx-in-betweens");

/// Warning: ufbx read past something damaged or inconsistent in an FBX file (an array
/// shorter than its count, an index out of range, a duplicate connection); its words.
pub const FBX_REPAIRED: Code = Code::new("fbx-repaired");

/// Loss: Scene elements the neutral model has no place for (lights, NURBS and line
/// curves, FBX skinning other than linear) are not carried.
pub const SCENE_ELEMENTS: Code = Code::new("scene-elements");

/// Warning: A GLB container's layout is off (bytes after its declared length, chunks not
/// padded to 4 bytes); read anyway.
pub const GLB_LAYOUT: Code = Code::new("glb-layout");

/// Warning: JSON text starts with a byte order mark, which glTF forbids; skipped.
pub const JSON_BOM: Code = Code::new("json-bom");

/// Warning: A buffer holds more bytes than its declared length; the rest is ignored.
pub const BUFFER_LENGTH: Code = Code::new("buffer-length");

/// Info: Images a glTF source held were written beside the output as PNG files.
pub const IMAGES_WRITTEN: Code = Code::new("images-written");

/// Info: A material was named after its texture file, because the target keeps one string
/// per material and engines load that string as the texture (IQE, IQM).
pub const MATERIAL_NAMED_AFTER_TEXTURE: Code = Code::new("material-named-after-texture");

/// Warning: The file declares a format version the reader was not written for; read as the known one.
pub const UNSUPPORTED_VERSION: Code = Code::new("unsupported-version");

/// Warning: Several joints share one ID number; the first is the one the ID names.
pub const DUPLICATE_JOINT_IDS: Code = Code::new("duplicate-joint-ids");

/// Info: Triangles whose corners turned against their stored normals were rewound counter-clockwise.
pub const TRIANGLES_REVERSED: Code = Code::new("triangles-reversed");

/// Loss: Mesh names cannot be stored (the target groups triangles by material).
pub const MESH_NAMES: Code = Code::new("mesh-names");

/// Loss: The frame rate cannot be stored; readers assume their own default.
pub const FRAMERATE: Code = Code::new("framerate");

/// Loss: Vertices bound to no joint were bound to one (the target binds every vertex).
pub const UNSKINNED_VERTICES: Code = Code::new("unskinned-vertices");

/// Info: animations of other files (beside the model, or named with it) were attached to it.
pub const ANIMATIONS_ATTACHED: Code = Code::new("animations-attached");

/// Info: The files a write produced (a main file and its companions).
pub const FILES_WRITTEN: Code = Code::new("files-written");

#[cfg(test)]
mod tests {
    use super::ALL;

    #[test]
    fn codes_are_unique_and_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for code in ALL {
            assert!(seen.insert(code), "`{code}` is listed twice");
            let code = code.key();
            assert!(
                !code.is_empty()
                    && code
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                    && !code.starts_with('-')
                    && !code.ends_with('-'),
                "`{code}` is not kebab-case"
            );
        }
    }
}
