//! Hand-computed fixtures, made byte by byte (see `common/raw.rs`): quantization and mask
//! bits, framerate 0, animation-only files, half/double/integer vertex arrays with Noesis
//! style blends and custom arrays, version 1, `filesize` and offsets that lie.

mod common;

use common::raw::{self, Bytes, Raw};
use rigport_iqm::{Detail, Error, File, ReadOptions, to_model};
use rigport_model_core::glam::{Quat, Vec2, Vec3, Vec4};
use rigport_model_core::{JointId, Severity};

/// One pose animating tx (mask bit 0) and qx (bit 3) over two frames at framerate 0, loop
/// flag set, in a file with no joints.
fn quantized_animation() -> Vec<u8> {
    let mut raw = Raw::new(2);
    raw.counted(raw::NUM_TEXT, 8, b"\0spin\0\0\0");
    // channeloffset: t = (1, 2, 3), q = (0, 0, 0, -1), s = (1, 1, 1).
    // channelscale: tx 0.5, qx 0.0001.
    let pose = Bytes::default()
        .i32(-1)
        .u32(0b1001)
        .f32s(&[1.0, 2.0, 3.0, 0.0, 0.0, 0.0, -1.0, 1.0, 1.0, 1.0])
        .f32s(&[0.5, 0.0, 0.0, 0.0001, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    raw.counted(raw::NUM_POSES, 1, &pose.0);
    let anim = Bytes::default().u32(1).u32(0).u32(2).f32(0.0).u32(1);
    raw.counted(raw::NUM_ANIMS, 1, &anim.0);
    raw.header[raw::NUM_FRAMES] = 2;
    raw.header[raw::NUM_FRAMECHANNELS] = 2;
    let frames = Bytes::default().u16(0).u16(0).u16(4).u16(10000);
    raw.header[raw::OFS_FRAMES] = raw.block(&frames.0);
    raw.finish()
}

#[test]
fn frames_dequantize_as_offset_plus_value_times_scale() {
    let bytes = quantized_animation();
    let (file, report) = File::from_slice_with(&bytes, &ReadOptions::strict()).unwrap();
    assert!(report.is_empty());
    assert_eq!(file.to_vec(), bytes);
    // Frame 1: tx = 1 + 4 × 0.5 = 3; qx = 0 + 10000 × 0.0001 = 1; the rest are offsets.
    let f1 = file.frame_channels(1, 0).unwrap();
    assert_eq!(&f1[..4], &[3.0, 2.0, 3.0, 1.0]);
    assert_eq!(f1[6], -1.0);
    let (model, report) = to_model(&file, &Default::default()).unwrap();
    // framerate 0 → 24 fps with a warning; no joints → one placeholder joint.
    let warned: Vec<_> = report
        .notices
        .iter()
        .filter(|n| n.severity == Severity::Warning)
        .map(|n| n.code)
        .collect();
    assert_eq!(warned, ["placeholder-joints", "default-framerate"]);
    assert_eq!(model.skeleton.joints.len(), 1);
    let animation = &model.animations[0];
    assert_eq!(animation.name, "spin");
    assert_eq!(animation.fps, 24.0);
    assert!(animation.looping);
    // Looping: 2 frames at 24 fps last 2/24 s (frame 1 blends back to frame 0).
    assert_eq!(animation.duration, 2.0 / 24.0);
    let track = &animation.tracks[0];
    assert_eq!(track.joint, JointId(0));
    let t: Vec<_> = track
        .translations
        .iter()
        .map(|k| (k.time, k.value))
        .collect();
    assert_eq!(
        t,
        [
            (0.0, Vec3::new(1.0, 2.0, 3.0)),
            (1.0 / 24.0, Vec3::new(3.0, 2.0, 3.0))
        ]
    );
    let h = 0.5f32.sqrt();
    assert_eq!(
        track.rotations[0].value,
        Quat::from_xyzw(0.0, 0.0, 0.0, -1.0)
    );
    assert!(
        track.rotations[1]
            .value
            .abs_diff_eq(Quat::from_xyzw(h, 0.0, 0.0, -h), 1e-6)
    );
    // Scale is constant and equal to the bind scale: no keys.
    assert!(track.scales.is_empty());
}

#[test]
fn from_model_quantizes_per_pose_and_leaves_constant_channels_out_of_the_mask() {
    let file = File::from_slice(&quantized_animation()).unwrap();
    let (model, _) = to_model(&file, &Default::default()).unwrap();
    let (written, _) = rigport_iqm::from_model(&model, &Default::default()).unwrap();
    let pose = written.poses[0];
    // tx varies 1 → 3, qx 0 → √½, qw −1 → −√½: bits 0, 3 and 6; the rest constant.
    assert_eq!(pose.channelmask, 0b100_1001);
    assert_eq!(pose.channeloffset[0], 1.0);
    assert_eq!(pose.channelscale[0], 2.0 / 65535.0);
    assert_eq!(written.header.num_framechannels, 3);
    assert_eq!(written.frames, [0, 0, 0, 65535, 65535, 65535]);
    assert_eq!(written.anims[0].framerate, 24.0);
    assert_eq!(written.anims[0].num_frames, 2);
    assert_eq!(written.anims[0].flags, rigport_iqm::LOOP);
}

/// Three vertices: positions as doubles, texcoords as halves, normals as shorts, Noesis
/// style blends (int indexes, float weights), float RGB colours and a custom array.
fn typed_arrays() -> Vec<u8> {
    let mut raw = Raw::new(2);
    raw.counted(raw::NUM_TEXT, 16, b"\0tri\0mat\0extra\0\0");
    let mesh = Bytes::default().u32(1).u32(5).u32(0).u32(3).u32(0).u32(1);
    raw.counted(raw::NUM_MESHES, 1, &mesh.0);
    let joint = |name: u32, parent: i32| {
        Bytes::default()
            .u32(name)
            .i32(parent)
            .f32s(&[0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0])
            .0
    };
    let mut joints = joint(1, -1);
    joints.extend(joint(5, 0));
    raw.counted(raw::NUM_JOINTS, 2, &joints);
    let mut data = Vec::new();
    let positions = [0.0f64, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    data.push((
        0u32,
        8u32,
        3u32,
        positions
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect::<Vec<_>>(),
    ));
    // halves: 0, 0 | 1.0, 0.5 | -2.0, 0
    let halves: [u16; 6] = [0, 0, 0x3c00, 0x3800, 0xc000, 0];
    data.push((
        1,
        6,
        2,
        halves.iter().flat_map(|v| v.to_le_bytes()).collect(),
    ));
    let normals: [i16; 9] = [0, 0, 32767, 0, 0, 32767, 0, 0, -32767];
    data.push((
        2,
        2,
        3,
        normals.iter().flat_map(|v| v.to_le_bytes()).collect(),
    ));
    let indexes: [i32; 12] = [0, 1, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0];
    data.push((
        4,
        4,
        4,
        indexes.iter().flat_map(|v| v.to_le_bytes()).collect(),
    ));
    let weights: [f32; 12] = [0.25, 0.75, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
    data.push((
        5,
        7,
        4,
        weights.iter().flat_map(|v| v.to_le_bytes()).collect(),
    ));
    let colors: [f32; 9] = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    data.push((
        6,
        7,
        3,
        colors.iter().flat_map(|v| v.to_le_bytes()).collect(),
    ));
    data.push((0x10 + 9, 1, 1, vec![7, 8, 9]));
    let offsets: Vec<u32> = data
        .iter()
        .map(|(_, _, _, bytes)| raw.block(bytes))
        .collect();
    let mut descriptors = Bytes::default();
    for ((kind, format, size, _), offset) in data.iter().zip(offsets) {
        descriptors = descriptors
            .u32(*kind)
            .u32(0)
            .u32(*format)
            .u32(*size)
            .u32(offset);
    }
    raw.header[raw::NUM_VERTEXARRAYS] = data.len() as u32;
    raw.header[raw::NUM_VERTEXES + 1] = raw.block(&descriptors.0);
    raw.header[raw::NUM_VERTEXES] = 3;
    raw.counted(
        raw::NUM_TRIANGLES,
        1,
        &Bytes::default().u32(0).u32(1).u32(2).0,
    );
    raw.finish()
}

#[test]
fn every_component_format_decodes() {
    let bytes = typed_arrays();
    let (file, report) = File::from_slice_with(&bytes, &ReadOptions::strict()).unwrap();
    assert!(report.is_empty());
    assert_eq!(file.to_vec(), bytes);
    let (model, report) = to_model(&file, &Default::default()).unwrap();
    let mesh = &model.meshes[0];
    assert_eq!(
        (mesh.name.as_str(), model.materials[0].name.as_str()),
        ("tri", "mat")
    );
    // Clockwise in IQM, counter-clockwise in the model.
    assert_eq!(mesh.triangles, [[0, 2, 1]]);
    let v = &mesh.vertices;
    assert_eq!(v[1].position, Vec3::X);
    assert_eq!(v[1].uv, Vec2::new(1.0, 0.5));
    assert_eq!(v[2].uv, Vec2::new(-2.0, 0.0));
    assert_eq!(v[2].normal, Vec3::NEG_Z);
    assert_eq!(v[0].joints[..2], [JointId(0), JointId(1)]);
    assert_eq!(v[0].weights, [0.25, 0.75, 0.0, 0.0]);
    assert_eq!(v[0].color, Vec4::new(1.0, 0.0, 0.0, 1.0));
    // Vertex 2 names joint 5 of 2: dropped, and said so.
    assert!(!v[2].is_skinned());
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::WEIGHT_JOINT_OUT_OF_RANGE)
            .count(),
        1
    );
    let custom = report
        .with_code(rigport_model_core::codes::CUSTOM_ARRAYS)
        .next()
        .unwrap();
    assert!(custom.message.contains("`extra`"), "{custom}");
    assert_eq!(
        file.array(rigport_iqm::ArrayKind::Custom(9)).unwrap().data,
        [7, 8, 9]
    );
}

#[test]
fn version_1_gains_an_explicit_w_and_writes_as_version_2() {
    let mut raw = Raw::new(1);
    // A v1 joint: rotation (0, 0, 0) → w = −1.
    let joint = Bytes::default()
        .u32(0)
        .i32(-1)
        .f32s(&[0.0; 3])
        .f32s(&[0.0; 3])
        .f32s(&[1.0; 3]);
    raw.counted(raw::NUM_JOINTS, 1, &joint.0);
    // A v1 pose animating tx (bit 0) and qx (bit 3): qx 0 → 0.6, so w −1 → −0.8.
    let pose = Bytes::default()
        .i32(-1)
        .u32(0b1001)
        .f32s(&[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0])
        .f32s(&[1.0, 0.0, 0.0, 0.6 / 65535.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    raw.counted(raw::NUM_POSES, 1, &pose.0);
    raw.counted(
        raw::NUM_ANIMS,
        1,
        &Bytes::default().u32(0).u32(0).u32(2).f32(10.0).u32(0).0,
    );
    raw.header[raw::NUM_FRAMES] = 2;
    raw.header[raw::NUM_FRAMECHANNELS] = 2;
    raw.header[raw::OFS_FRAMES] = raw.block(&Bytes::default().u16(0).u16(0).u16(5).u16(65535).0);
    let bytes = raw.finish();
    let (file, report) = File::from_slice_with(&bytes, &ReadOptions::default()).unwrap();
    assert_eq!(report.notices[0].code, "version-1");
    assert_eq!(file.header.version, 2);
    assert_eq!(file.joints[0].rotate, [0.0, 0.0, 0.0, -1.0]);
    let pose = file.poses[0];
    // Bits 0 and 3 stay, w gets bit 6, scale bits move from 6–8 to 7–9.
    assert_eq!(pose.channelmask, 0b100_1001);
    assert_eq!(pose.channeloffset[6], -1.0);
    assert_eq!(&pose.channeloffset[7..], &[1.0; 3]);
    assert_eq!(file.header.num_framechannels, 3);
    let f1 = file.frame_channels(1, 0).unwrap();
    assert_eq!(f1[0], 5.0);
    assert!(
        (f1[3] - 0.6).abs() < 1e-6 && (f1[6] + 0.8).abs() < 1e-5,
        "{f1:?}"
    );
    let again = File::from_slice(&file.to_vec()).unwrap();
    assert_eq!(again, file);
}

#[test]
fn a_filesize_that_lies_is_a_warning_or_a_strict_error() {
    let mut bytes = quantized_animation();
    bytes.extend([0xAA; 3]);
    let (file, report) = File::from_slice_with(&bytes, &ReadOptions::default()).unwrap();
    assert_eq!(report.notices[0].code, "filesize");
    assert_eq!(file.to_vec(), bytes, "the trailing bytes are kept");
    let error = File::from_slice_with(&bytes, &ReadOptions::strict()).unwrap_err();
    assert!(
        matches!(
            error,
            Error::Format {
                detail: Detail::FileSize { .. },
                ..
            }
        ),
        "{error}"
    );
    assert_eq!(error.offset(), Some(20));
}

#[test]
fn a_wrong_magic_or_version_names_byte_0_or_16() {
    let error = File::from_slice(b"IQE 1.0\n").unwrap_err();
    assert_eq!(
        error.to_string(),
        "not an IQM file: byte 0 holds \"IQE 1.0\\n\", expected \"INTERQUAKEMODEL\\0\""
    );
    assert_eq!(error.offset(), Some(0));
    let mut bytes = typed_arrays();
    bytes[16..20].copy_from_slice(&3u32.to_le_bytes());
    let error = File::from_slice(&bytes).unwrap_err();
    assert!(
        matches!(
            error,
            Error::Format {
                detail: Detail::UnsupportedVersion { version: 3 },
                ..
            }
        ),
        "{error}"
    );
    assert_eq!(error.offset(), Some(16));
}

#[test]
fn an_offset_past_the_end_names_its_field_value_and_byte() {
    let mut bytes = typed_arrays();
    bytes[16 + 4 * 6..16 + 4 * 7].copy_from_slice(&9999u32.to_le_bytes());
    let error = File::from_slice(&bytes).unwrap_err();
    let message = error.to_string();
    assert!(
        message.starts_with("ofs_meshes = 9999 (stored at byte 40): 1 meshes of 24 bytes"),
        "{message}"
    );
    assert_eq!(error.offset(), Some(40));
}

#[test]
fn a_huge_frame_count_with_no_stored_values_stays_small() {
    // 4 × 10⁹ frames of a pose whose channels are all constant: nothing is stored, so the
    // model must not hold a key per frame.
    let mut bytes = quantized_animation();
    let pose_at = u32::from_le_bytes(bytes[16 + 4 * 16..16 + 4 * 17].try_into().unwrap()) as usize;
    bytes[pose_at + 4..pose_at + 8].copy_from_slice(&0u32.to_le_bytes());
    let anim_at = u32::from_le_bytes(bytes[16 + 4 * 18..16 + 4 * 19].try_into().unwrap()) as usize;
    bytes[anim_at + 8..anim_at + 12].copy_from_slice(&4_000_000_000u32.to_le_bytes());
    bytes[16 + 4 * 19..16 + 4 * 21].copy_from_slice(&[0, 0x28, 0x6b, 0xee, 0, 0, 0, 0]);
    let file = File::from_slice(&bytes).unwrap();
    assert_eq!(file.header.num_frames, 4_000_000_000);
    let (model, _) = to_model(&file, &Default::default()).unwrap();
    assert_eq!(model.animations[0].tracks[0].translations.len(), 1);
    // Writing it back would need 4 × 10⁹ frames: refused, not attempted.
    assert!(rigport_iqm::from_model(&model, &Default::default()).is_err());
}

#[test]
fn a_vertex_count_no_array_backs_is_cut_not_allocated() {
    let mut raw = Raw::new(2);
    let mesh = Bytes::default()
        .u32(0)
        .u32(0)
        .u32(0)
        .u32(4_000_000_000)
        .u32(0)
        .u32(0);
    raw.counted(raw::NUM_MESHES, 1, &mesh.0);
    raw.header[raw::NUM_VERTEXES] = 4_000_000_000;
    let file = File::from_slice(&raw.finish()).unwrap();
    let (model, report) = to_model(&file, &Default::default()).unwrap();
    assert!(model.meshes[0].vertices.is_empty());
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::MESH_OUT_OF_RANGE)
            .count(),
        1
    );
}
