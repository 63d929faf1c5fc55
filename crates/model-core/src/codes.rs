//! Every report code the neutral layer, `rigport-anim` and the format crates use, as named
//! constants: tools match on [`Notice::code`](crate::Notice::code), so a code is spelt once,
//! here, and a typo is a compile error instead of a silently unmatched notice.
//!
//! Codes are kebab-case and stable. The severity in each constant's docs is the one the
//! code is used with. Two spellings drifted before this module existed and were settled:
//! `vertex-colors` (not `vertex-colours`, matching `Mesh::has_colors` and the OBJ writer's
//! `obj-no-vertex-colors`) and `animations-dropped` (not `animations`, like
//! `weights-dropped`: the code says what happened).

/// Info: The model was turned from its source's up axis to the target's ("Z-up → Y-up").
pub const AXES_CONVERTED: &str = "axes-converted";

/// Warning: A texture a material names was not found beside the model.
pub const TEXTURE_MISSING: &str = "texture-missing";

/// Loss: Images held inside a file are not part of the neutral model its codec read.
pub const IMAGES_NOT_CARRIED: &str = "images-not-carried";
/// Warning: A texture a material names was found beside the model but cannot be used (it
/// cannot be read or decoded, or is larger than [`crate::texture::Limits`] allow).
pub const TEXTURE_UNUSABLE: &str = "texture-unusable";

/// Loss: A material's texture was not written because a mesh using the material has no
/// texture coordinates (glTF requires them wherever a texture is bound).
pub const TEXTURE_WITHOUT_UVS: &str = "texture-without-uvs";
/// Warning: A count line disagrees with the records that follow it (MD5 `numverts`,
/// `numJoints`, `numFrames`…); the records are used.
pub const COUNT_MISMATCH: &str = "count-mismatch";

/// Info: Meshes without vertices or triangles were skipped.
pub const EMPTY_MESHES: &str = "empty-meshes";

/// Info: A joint was added (a root for vertices bound to no joint, or for a model without
/// joints, where the target needs every vertex weighted); nothing moves.
pub const JOINT_ADDED: &str = "joint-added";

/// Loss: Normals are not stored by the target (its readers compute them from the triangles).
pub const NORMALS_NOT_STORED: &str = "normals-not-stored";

/// Info: Names that are not UTF-8 were read as Latin-1.
pub const LATIN1_NAMES: &str = "latin1-names";

/// Info: Normals were generated because the file has none.
pub const NORMALS_GENERATED: &str = "normals-generated";

/// Info: Keys between frames were sampled at the target's frame rate.
pub const RESAMPLED: &str = "resampled";

/// Info: Rotation keys not of unit length were normalized.
pub const ROTATION_NORMALIZED: &str = "rotation-normalized";

/// Info: Several keys share a time: the value jumps there.
pub const KEYS_SAME_TIME: &str = "keys-same-time";

/// Info: Pose quaternions not of unit length were normalized.
pub const POSE_NORMALIZED: &str = "pose-normalized";

/// Info: Vertex weights that did not sum to 1 were rescaled.
pub const WEIGHTS_RENORMALIZED: &str = "weights-renormalized";

/// Info: Where one animation lies on a timeline of several laid end to end ("walk: frames 1-30").
pub const ANIMATION_RANGE: &str = "animation-range";

/// Info: A conversion setting had nothing to do for this target (e.g. concatenating animations for a format that keeps every one).
pub const SETTING_IGNORED: &str = "setting-ignored";

/// Warning: The input ends inside a block; the damaged bytes are kept raw (or, converting, not carried).
pub const DAMAGED_TAIL: &str = "damaged-tail";

/// Warning: The header line a file of this format starts with is missing.
pub const MISSING_MAGIC: &str = "missing-magic";

/// Warning: An index in the file points past the list it indexes.
pub const INDEX_OUT_OF_RANGE: &str = "index-out-of-range";

/// Warning: A joint names a parent that does not exist (or itself); it became a root.
pub const MISSING_PARENT: &str = "missing-parent";

/// Warning: A joint is its own ancestor; one joint of the cycle became a root.
pub const JOINT_CYCLE: &str = "joint-cycle";

/// Warning: Several joints share a name; parents found by name resolve to the first.
pub const DUPLICATE_JOINT_NAMES: &str = "duplicate-joint-names";

/// Warning: Vertex influences name a joint that does not exist.
pub const JOINT_OUT_OF_RANGE: &str = "joint-out-of-range";

/// Warning: A group names a triangle that does not exist.
pub const MISSING_TRIANGLE: &str = "missing-triangle";

/// Warning: A triangle names a vertex that does not exist.
pub const MISSING_VERTEX: &str = "missing-vertex";

/// Warning: A mesh names a material that does not exist.
pub const MISSING_MATERIAL: &str = "missing-material";

/// Warning: The frame rate is not a positive number; a default was used.
pub const INVALID_FPS: &str = "invalid-fps";

/// Warning: Keys with times outside the file's timeline were dropped.
pub const KEYS_OUTSIDE_TIMELINE: &str = "keys-outside-timeline";

/// Warning: A track animates a joint that does not exist; dropped.
pub const TRACK_JOINT_MISSING: &str = "track-joint-missing";

/// Warning: A joint has several tracks in one animation; the first wins (see `rigport_anim`), writers report the others as lost.
pub const TRACK_JOINT_DUPLICATE: &str = "track-joint-duplicate";

/// Warning: Keys with a time or value that is not a finite number were dropped.
pub const KEYS_NOT_FINITE: &str = "keys-not-finite";

/// Warning: Keys out of time order were sorted.
pub const KEYS_UNSORTED: &str = "keys-unsorted";

/// Warning: Rotation keys of zero length were dropped.
pub const ROTATION_ZERO: &str = "rotation-zero";

/// Warning: Vertices are weighted to joints that do not exist; those weights were ignored.
pub const SKIN_JOINT_MISSING: &str = "skin-joint-missing";

/// Warning: A command the reader does not know was kept as it was.
pub const UNKNOWN_COMMAND: &str = "unknown-command";

/// Warning: A command has more arguments than it takes.
pub const EXTRA_ARGUMENTS: &str = "extra-arguments";

/// Warning: A blend names a joint without a weight.
pub const BLEND_WITHOUT_WEIGHT: &str = "blend-without-weight";

/// Warning: The number of base poses differs from the number of joints.
pub const BASE_POSE_COUNT: &str = "base-pose-count";

/// Warning: Base poses beyond the joints were dropped.
pub const EXTRA_BASE_POSES: &str = "extra-base-poses";

/// Warning: Frames whose pose count differs from the joint count.
pub const FRAME_POSE_COUNT: &str = "frame-pose-count";

/// Warning: Frame poses beyond the joints were dropped.
pub const EXTRA_FRAME_POSES: &str = "extra-frame-poses";

/// Warning: Face smoothing values do not match the faces.
pub const FACE_SMOOTH_COUNT: &str = "face-smooth-count";

/// Warning: A face has fewer than three corners.
pub const SHORT_FACE: &str = "short-face";

/// Warning: A face smoothing line has fewer values than the face has edges.
pub const SHORT_FACE_SMOOTH: &str = "short-face-smooth";

/// Warning: A frame or pose appears outside any animation.
pub const OUTSIDE_ANIMATION: &str = "outside-animation";

/// Warning: Joints were invented for poses that name no joint (an animation-only file).
pub const PLACEHOLDER_JOINTS: &str = "placeholder-joints";

/// Warning: Corners sharing a position with too many others were left faceted.
pub const SMOOTHING_SKIPPED: &str = "smoothing-skipped";

/// Warning: Vertex attribute lines of one vertex do not line up.
pub const VERTEX_RUN: &str = "vertex-run";

/// Warning: Vertices appear before any mesh.
pub const VERTICES_OUTSIDE_MESHES: &str = "vertices-outside-meshes";

/// Warning: A vertex weight names a joint that does not exist.
pub const WEIGHT_JOINT_OUT_OF_RANGE: &str = "weight-joint-out-of-range";

/// Warning: An animation has no frame rate; the default was assumed.
pub const DEFAULT_FRAMERATE: &str = "default-framerate";

/// Loss: The target holds one animation; the others were not written, one notice each. (Was `animations` in the MilkShape ASCII writer.)
pub const ANIMATIONS_DROPPED: &str = "animations-dropped";

/// Loss: Vertex colours cannot be stored. (Was `vertex-colours` in the MilkShape binary writer.)
pub const VERTEX_COLORS: &str = "vertex-colors";

/// Loss: Smoothing groups are not carried (the normals are).
pub const SMOOTHING_GROUPS: &str = "smoothing-groups";

/// Loss: Editor selection/hidden flags are not carried.
pub const FLAGS: &str = "flags";

/// Loss: Comments are not carried.
pub const COMMENTS: &str = "comments";

/// Loss: The model comment is not carried.
pub const COMMENT: &str = "comment";

/// Loss: The editor's current time is not carried.
pub const CURRENT_TIME: &str = "current-time";

/// Loss: The editor's current frame is not carried.
pub const CURRENT_FRAME: &str = "current-frame";

/// Loss: The frame count of a file without keys is not carried.
pub const FRAMES: &str = "frames";

/// Loss: Joint colours are not carried.
pub const JOINT_COLOURS: &str = "joint-colours";

/// Loss: The material mode byte is not carried.
pub const MATERIAL_MODE: &str = "material-mode";

/// Loss: The model extra block is not carried.
pub const MODEL_EXTRA: &str = "model-extra";

/// Loss: Bytes after the NUL of fixed-size names are not carried.
pub const NAME_BYTES: &str = "name-bytes";

/// Loss: Names or paths longer than their field were cut.
pub const NAME_TRUNCATED: &str = "name-truncated";

/// Loss: Names held characters the target cannot quote; they were replaced.
pub const NAMES_CHANGED: &str = "names-changed";

/// Loss: Names held line breaks or quotes the target cannot hold; they were replaced.
pub const NAME_QUOTES: &str = "name-quotes";

/// Loss: Uninterpretable bytes at the end are not carried.
pub const RAW_TAIL: &str = "raw-tail";

/// Loss: The extra words of vertex-extra records are not carried.
pub const VERTEX_EXTRA_WORDS: &str = "vertex-extra-words";

/// Loss: Triangles in no group are not carried.
pub const UNGROUPED_TRIANGLES: &str = "ungrouped-triangles";

/// Loss: Vertices no triangle uses are not carried.
pub const UNUSED_VERTICES: &str = "unused-vertices";

/// Loss: Normals no triangle uses are not carried.
pub const UNUSED_NORMALS: &str = "unused-normals";

/// Loss: Triangles with out-of-range indices were dropped.
pub const INVALID_TRIANGLES: &str = "invalid-triangles";

/// Loss: Meshes naming a material that does not exist have none.
pub const INVALID_MATERIAL: &str = "invalid-material";

/// Loss: Vertices naming a bone that does not exist are not skinned.
pub const INVALID_BONE: &str = "invalid-bone";

/// Loss: Blocks the model cannot hold were dropped.
pub const UNKNOWN_BLOCKS: &str = "unknown-blocks";

/// Loss: Commands the model cannot hold were dropped.
pub const UNKNOWN_COMMANDS: &str = "unknown-commands";

/// Loss: A bind scale other than 1 cannot be stored.
pub const JOINT_SCALE: &str = "joint-scale";

/// Loss: Scale keys cannot be stored.
pub const SCALE_KEYS: &str = "scale-keys";

/// Loss: Keys past the target's per-channel limit were not written.
pub const TOO_MANY_KEYS: &str = "too-many-keys";

/// Loss: The interpolation mode is stored as linear.
pub const INTERPOLATION: &str = "interpolation";

/// Loss: A cubic animation was sampled linearly.
pub const CUBIC_INTERPOLATION: &str = "cubic-interpolation";

/// Loss: The loop flag cannot be stored.
pub const LOOPING: &str = "looping";

/// Loss: Numbers that are not finite were written as 0.
pub const NON_FINITE: &str = "non-finite";

/// Loss: Vertices with several joint weights kept only the largest.
pub const WEIGHTS_DROPPED: &str = "weights-dropped";

/// Loss: Vertices with more than four weights kept the four largest.
pub const WEIGHTS_TRUNCATED: &str = "weights-truncated";

/// Loss: Vertex weights were rounded to the target's steps (MilkShape: whole percents).
pub const WEIGHTS_ROUNDED: &str = "weights-rounded";

/// Loss: Material colours, textures and the like cannot be stored.
pub const MATERIAL_PROPERTIES: &str = "material-properties";

/// Loss: Vertices of a model without triangles were left out.
pub const FACELESS_VERTICES: &str = "faceless-vertices";

/// Loss: Custom vertex attributes are not carried.
pub const CUSTOM_ATTRIBUTES: &str = "custom-attributes";

/// Loss: Comment lines are not carried.
pub const COMMENT_LINES: &str = "comment-lines";

/// Loss: Smoothing commands are not carried (normals are generated from them).
pub const SMOOTHING: &str = "smoothing";

/// Loss: Per-vertex smoothing indexes are not carried.
pub const SMOOTHING_INDEXES: &str = "smoothing-indexes";

/// Loss: A fourth position coordinate other than 1 is not carried.
pub const POSITION_W: &str = "position-w";

/// Loss: Vertex array declarations are not carried.
pub const VERTEXARRAY: &str = "vertexarray";

/// Loss: Tangents are not carried.
pub const TANGENTS: &str = "tangents";

/// Loss: Bitangents are not carried.
pub const BITANGENTS: &str = "bitangents";

/// Warning: Vertex tangents glTF forbids (not unit vectors, or `w` other than ±1) were
/// rebuilt in a `.glb` copy.
pub const TANGENTS_REPAIRED: &str = "tangents-repaired";

/// Warning: A channel's cubic-spline tangents are not one per key; they were dropped.
pub const TANGENTS_MISMATCH: &str = "tangents-mismatch";

/// Info: Channels of one animation used different interpolations; they were converted to one
/// that reproduces each of them.
pub const INTERPOLATION_MIXED: &str = "interpolation-mixed";

/// Info: Several skins were merged into one skeleton (joints shared by node).
pub const SKINS_MERGED: &str = "skins-merged";

/// Warning: An image could not be decoded; the material keeps no texture.
pub const IMAGE_UNDECODABLE: &str = "image-undecodable";

/// Loss: A cubic-spline animation was resampled to linear keys at a frame rate (the target
/// cannot store tangents).
pub const ANIMATION_RESAMPLED: &str = "animation-resampled";

/// Loss: Point and line primitives are not carried (only triangles are).
pub const NON_TRIANGLE_PRIMITIVES: &str = "non-triangle-primitives";

/// Loss: Morph targets and their animated weights are not carried.
pub const MORPH_TARGETS: &str = "morph-targets";

/// Loss: Animation channels on nodes that are not joints are not carried.
pub const NODE_ANIMATION: &str = "node-animation";

/// Loss: Cameras are not carried.
pub const CAMERAS: &str = "cameras";

/// Info: FBX animation curves were sampled at the file's frame rate (cubic or Euler
/// curves that no track holds as they are), through ufbx's baking.
pub const FBX_RESAMPLED: &str = "fbx-resampled";

/// Info: FBX blend channels with in-between shapes: each shape is a morph target of its
/// own, and the channel's weight is split between the two shapes around it.
pub const FBX_IN_BETWEENS: &str = "fbx-in-betweens";

/// Warning: ufbx read past something damaged or inconsistent in an FBX file (an array
/// shorter than its count, an index out of range, a duplicate connection); its words.
pub const FBX_REPAIRED: &str = "fbx-repaired";

/// Loss: Scene elements the neutral model has no place for (lights, NURBS and line
/// curves, FBX skinning other than linear) are not carried.
pub const SCENE_ELEMENTS: &str = "scene-elements";

/// Warning: A GLB container's layout is off (bytes after its declared length, chunks not
/// padded to 4 bytes); read anyway.
pub const GLB_LAYOUT: &str = "glb-layout";

/// Warning: JSON text starts with a byte order mark, which glTF forbids; skipped.
pub const JSON_BOM: &str = "json-bom";

/// Warning: A buffer holds more bytes than its declared length; the rest is ignored.
pub const BUFFER_LENGTH: &str = "buffer-length";

/// Info: Images a glTF source held were written beside the output as PNG files.
pub const IMAGES_WRITTEN: &str = "images-written";

/// Info: A material was named after its texture file, because the target keeps one string
/// per material and engines load that string as the texture (IQE, IQM).
pub const MATERIAL_NAMED_AFTER_TEXTURE: &str = "material-named-after-texture";

/// Warning: The file declares a format version the reader was not written for; read as the known one.
pub const UNSUPPORTED_VERSION: &str = "unsupported-version";

/// Warning: Several joints share one ID number; the first is the one the ID names.
pub const DUPLICATE_JOINT_IDS: &str = "duplicate-joint-ids";

/// Info: Triangles whose corners turned against their stored normals were rewound counter-clockwise.
pub const TRIANGLES_REVERSED: &str = "triangles-reversed";

/// Loss: Mesh names cannot be stored (the target groups triangles by material).
pub const MESH_NAMES: &str = "mesh-names";

/// Loss: The frame rate cannot be stored; readers assume their own default.
pub const FRAMERATE: &str = "framerate";

/// Loss: Vertices bound to no joint were bound to one (the target binds every vertex).
pub const UNSKINNED_VERTICES: &str = "unskinned-vertices";

/// Info: animations of other files (beside the model, or named with it) were attached to it.
pub const ANIMATIONS_ATTACHED: &str = "animations-attached";

/// Info: The files a write produced (a main file and its companions).
pub const FILES_WRITTEN: &str = "files-written";

/// Every code of this module, for tools that list them and for the uniqueness test.
pub const ALL: &[&str] = &[
    LATIN1_NAMES,
    NORMALS_GENERATED,
    RESAMPLED,
    ROTATION_NORMALIZED,
    KEYS_SAME_TIME,
    POSE_NORMALIZED,
    WEIGHTS_RENORMALIZED,
    ANIMATION_RANGE,
    SETTING_IGNORED,
    COUNT_MISMATCH,
    EMPTY_MESHES,
    JOINT_ADDED,
    NORMALS_NOT_STORED,
    IMAGES_WRITTEN,
    MATERIAL_NAMED_AFTER_TEXTURE,
    DAMAGED_TAIL,
    MISSING_MAGIC,
    INDEX_OUT_OF_RANGE,
    MISSING_PARENT,
    JOINT_CYCLE,
    DUPLICATE_JOINT_NAMES,
    JOINT_OUT_OF_RANGE,
    MISSING_TRIANGLE,
    MISSING_VERTEX,
    MISSING_MATERIAL,
    INVALID_FPS,
    KEYS_OUTSIDE_TIMELINE,
    TRACK_JOINT_MISSING,
    TRACK_JOINT_DUPLICATE,
    KEYS_NOT_FINITE,
    KEYS_UNSORTED,
    ROTATION_ZERO,
    SKIN_JOINT_MISSING,
    UNKNOWN_COMMAND,
    EXTRA_ARGUMENTS,
    BLEND_WITHOUT_WEIGHT,
    BASE_POSE_COUNT,
    EXTRA_BASE_POSES,
    FRAME_POSE_COUNT,
    EXTRA_FRAME_POSES,
    FACE_SMOOTH_COUNT,
    SHORT_FACE,
    SHORT_FACE_SMOOTH,
    OUTSIDE_ANIMATION,
    PLACEHOLDER_JOINTS,
    SMOOTHING_SKIPPED,
    VERTEX_RUN,
    VERTICES_OUTSIDE_MESHES,
    WEIGHT_JOINT_OUT_OF_RANGE,
    DEFAULT_FRAMERATE,
    ANIMATIONS_DROPPED,
    VERTEX_COLORS,
    SMOOTHING_GROUPS,
    FLAGS,
    COMMENTS,
    COMMENT,
    CURRENT_TIME,
    CURRENT_FRAME,
    FRAMES,
    JOINT_COLOURS,
    MATERIAL_MODE,
    MODEL_EXTRA,
    NAME_BYTES,
    NAME_TRUNCATED,
    NAMES_CHANGED,
    NAME_QUOTES,
    RAW_TAIL,
    VERTEX_EXTRA_WORDS,
    UNGROUPED_TRIANGLES,
    UNUSED_VERTICES,
    UNUSED_NORMALS,
    INVALID_TRIANGLES,
    INVALID_MATERIAL,
    INVALID_BONE,
    UNKNOWN_BLOCKS,
    UNKNOWN_COMMANDS,
    JOINT_SCALE,
    SCALE_KEYS,
    TOO_MANY_KEYS,
    INTERPOLATION,
    CUBIC_INTERPOLATION,
    LOOPING,
    NON_FINITE,
    WEIGHTS_DROPPED,
    WEIGHTS_TRUNCATED,
    WEIGHTS_ROUNDED,
    MATERIAL_PROPERTIES,
    FACELESS_VERTICES,
    CUSTOM_ATTRIBUTES,
    COMMENT_LINES,
    SMOOTHING,
    SMOOTHING_INDEXES,
    POSITION_W,
    VERTEXARRAY,
    TANGENTS,
    BITANGENTS,
    TANGENTS_MISMATCH,
    TANGENTS_REPAIRED,
    INTERPOLATION_MIXED,
    SKINS_MERGED,
    IMAGE_UNDECODABLE,
    ANIMATION_RESAMPLED,
    NON_TRIANGLE_PRIMITIVES,
    MORPH_TARGETS,
    NODE_ANIMATION,
    CAMERAS,
    GLB_LAYOUT,
    JSON_BOM,
    BUFFER_LENGTH,
    AXES_CONVERTED,
    TEXTURE_MISSING,
    IMAGES_NOT_CARRIED,
    TEXTURE_UNUSABLE,
    TEXTURE_WITHOUT_UVS,
    UNSUPPORTED_VERSION,
    DUPLICATE_JOINT_IDS,
    TRIANGLES_REVERSED,
    MESH_NAMES,
    FRAMERATE,
    UNSKINNED_VERTICES,
    FILES_WRITTEN,
    ANIMATIONS_ATTACHED,
    FBX_RESAMPLED,
    FBX_IN_BETWEENS,
    FBX_REPAIRED,
    SCENE_ELEMENTS,
];

#[cfg(test)]
mod tests {
    use super::ALL;

    #[test]
    fn codes_are_unique_and_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for code in ALL {
            assert!(seen.insert(code), "`{code}` is listed twice");
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
