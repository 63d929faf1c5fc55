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
/// consistent meshes): … (`gltf`).
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

/// Loss: The model comment has no place in glTF; not carried (`gltf`).
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

/// Every code of this module, for tools that list them and for the uniqueness test.
pub const ALL: &[Code] = &[
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
    BOUNDS_CONSERVATIVE,
    BLEND_INDEXES_USHORT,
    VERTICES_WELDED,
    JOINTS_REORDERED,
    ANIMATIONS_WITHOUT_JOINTS,
    GLTF_ANIMATION_LOOP_WRAP,
    GLTF_ANIMATION_LENGTH_HELD,
    ANIMATION_FLAGS,
    HEADER_FLAGS,
    EXTENSIONS,
    BOUNDS,
    ADJACENCY,
    CUSTOM_ARRAYS,
    VERTEX_ARRAY_FLAGS,
    UNKNOWN_FORMAT,
    BAD_NAME,
    FRAMES_OUT_OF_RANGE,
    EXTRA_POSES,
    CHANNEL_COUNT,
    WEIGHTS_WITHOUT_SKELETON,
    TRIANGLES_OUT_OF_RANGE,
    VERTICES_OUTSIDE_MESH,
    MESH_OUT_OF_RANGE,
    NO_NORMALS,
    NO_POSITIONS,
    BAD_PARENT,
    GLTF_WEIGHT_KEYS_CLEANED,
    GLTF_ANIMATION_FPS_LOOP,
    GLTF_ANIMATION_EMPTY,
    GLTF_MATERIAL_UNMAPPED,
    GLTF_COLOUR_CLAMPED,
    EXTENSIONS_SHORT,
    FILESIZE,
    GLTF_MESH_EMPTY,
    GLTF_MESH_NO_TRIANGLES,
    VERSION_1,
    GLTF_DOUBLE_SIDED,
    GLTF_UNBOUND_JOINT,
    GLTF_BIND_SINGULAR,
    GLTF_JOINT_TRANSFORM_INVALID,
    GLTF_TEXTURE_FORMAT,
    GLTF_TEXTURE_ABSOLUTE,
    GLTF_TEXTURE_NO_FILE,
    GLTF_TEXTURE_EMBEDDED,
    GLTF_COMMENT,
    OBJ_TEXTURE_PATH_SLASHES,
    OBJ_NOT_FINITE,
    OBJ_TRIANGLE_OUT_OF_RANGE,
    OBJ_NO_VERTEX_COLORS,
    OBJ_NO_ANIMATION,
    OBJ_NO_SKELETON,
    OBJ_MATERIAL_MISSING,
    TRIANGLES_SKIPPED,
    GLTF_KEY_DUPLICATE_TIME,
    GLTF_KEYS_REORDERED,
    GLTF_KEY_TIME_NEGATIVE,
    GLTF_KEY_INVALID,
    GLTF_TRACK_DUPLICATE,
    GLTF_TRACK_JOINT_MISSING,
    GLTF_WINDING_DISAGREES,
    GLTF_MATERIAL_MISSING,
    GLTF_NO_NORMALS,
    GLTF_NORMALS_GENERATED,
    GLTF_NON_FINITE_VERTEX,
    GLTF_TRIANGLE_INDEX_OUT_OF_RANGE,
    GLTF_WEIGHT_RESCALED,
    GLTF_WEIGHT_MERGED,
    GLTF_WEIGHT_INVALID,
    GLTF_WEIGHT_JOINT_MISSING,
    MODEL,
    READ,
    WINDING,
    WEIGHTS_NOT_NORMALIZED,
    UNREFERENCED_VERTICES,
    DEGENERATE_TRIANGLES,
    HIERARCHY,
    MS3D_LIMIT,
    MS3D_ASCII_LIMIT,
    MISSING_TEXTURE,
    ABSOLUTE_TEXTURE_PATH,
    NON_UNIT_QUATERNION,
    UNREADABLE,
];

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
