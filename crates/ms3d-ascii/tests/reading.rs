//! Reader and writer behaviour on the fixtures, with expectations worked out by hand.

mod common;

use rigport_model_core::Limits;
use rigport_ms3d_ascii::{Block, Detail, Error, File, ReadOptions};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(common::fixture_dir().join(name)).unwrap()
}

fn read(name: &str) -> File {
    let bytes = fixture(name);
    File::from_slice(&bytes).unwrap_or_else(|e| panic!("{}", e.render(&bytes)))
}

#[test]
fn lf_and_crlf_read_alike() {
    let crlf = fixture("crlf_normals_differ.txt");
    assert!(crlf.windows(2).any(|w| w == b"\r\n"));
    let lf: Vec<u8> = crlf.iter().copied().filter(|&b| b != b'\r').collect();
    assert_eq!(
        File::from_slice(&lf).unwrap(),
        File::from_slice(&crlf).unwrap()
    );
}

#[test]
fn vertex_lines_are_x_y_z_in_file_order() {
    let file = read("lf_skinned_quad.txt");
    let v = file.meshes()[0].vertices[2];
    assert_eq!(v.position, [1.0, 1.0, 0.0]);
    assert_eq!(v.uv, [1.0, 0.0]);
    assert_eq!(v.bone, 1);
}

#[test]
fn exponents_and_signs_read_and_write_without_exponents() {
    let file = read("exponents.txt");
    let v = file.meshes()[0].vertices[0];
    assert_eq!(v.position, [4e-5, -2.5e-3, 100.0]);
    assert_eq!(v.uv, [0.5, 1.0]);
    assert_eq!(file.meshes()[0].vertices[2].position, [0.0, 1.0, 0.0]);
    let text = String::from_utf8(file.to_vec()).unwrap();
    assert!(
        text.contains("\r\n0 0.00004 -0.0025 100 0.5 1 -1\r\n"),
        "{text}"
    );
    let numbers = text
        .split_ascii_whitespace()
        .filter(|t| t.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '.'));
    assert!(numbers.clone().count() > 20);
    for number in numbers {
        assert!(!number.contains(['e', 'E']), "{number}");
    }
}

#[test]
fn latin1_names_stay_bytes_and_duplicates_and_minus_one_survive() {
    let file = read("latin1_names.txt");
    let meshes = file.meshes();
    assert_eq!(meshes[0].name, b"caf\xe9*");
    assert_eq!(meshes[1].name, meshes[0].name);
    assert_eq!(meshes[0].material, -1);
    assert_eq!(file.materials()[0].texture, b"C:\\textures\\\xe9t\xe9.bmp");
    assert_eq!(file.bones()[0].name, b"\xe9paule*");
    let written = file.to_vec();
    assert!(written.windows(7).any(|w| w == b"\"caf\xe9*\""));
}

#[test]
fn blocks_keep_their_order_and_comments_go() {
    let file = read("blocks_out_of_order.txt");
    let names: Vec<&[u8]> = file.blocks.iter().map(Block::name).collect();
    let want: [&[u8]; 7] = [
        b"Bones",
        b"ModelComment",
        b"Materials",
        b"Frame",
        b"Meshes",
        b"Frames",
        b"GroupComments",
    ];
    assert_eq!(names, want);
    assert_eq!(file.frames(), Some(10));
    assert_eq!(file.current_frame(), Some(5));
    assert_eq!(file.bones()[0].position, [1.0, 2.0, 3.0]);
    let written = File::from_slice(&file.to_vec()).unwrap();
    assert_eq!(written, file);
    assert!(!file.to_vec().windows(8).any(|w| w == b"trailing"));
}

#[test]
fn unknown_blocks_keep_their_raw_lines() {
    let file = read("unknown_blocks.txt");
    let unknown: Vec<_> = file.unknown_blocks().collect();
    assert_eq!(unknown.len(), 3);
    assert_eq!(unknown[0].header, b"GroupComments: 1");
    assert_eq!(
        unknown[0].lines,
        [b"0".to_vec(), b"\"a comment about group 0\"".to_vec()]
    );
    assert_eq!(
        unknown[1].lines,
        [
            b"\"made by hand; two    spaces kept\"".to_vec(),
            b"  indented line kept too".to_vec()
        ]
    );
    assert_eq!(unknown[2].name(), b"Extension");
    assert_eq!(unknown[2].lines, [b"x 1 2".to_vec(), b"y 3 4".to_vec()]);
    let text = file.to_vec();
    let tail = b"Bones: 0\r\nGroupComments: 1\r\n0\r\n\"a comment about group 0\"\r\nModelComment: 1\r\n\
\"made by hand; two    spaces kept\"\r\n  indented line kept too\r\nExtension: 2\r\nx 1 2\r\ny 3 4\r\n";
    assert!(text.ends_with(tail), "{}", String::from_utf8_lossy(&text));
}

#[test]
fn parents_may_come_later_and_keys_may_be_fractional_or_absent() {
    let file = read("parent_later_fractional_keys.txt");
    let bones = file.bones();
    assert_eq!(bones[0].parent, b"arm");
    assert_eq!(bones[0].position_keys[0].frame, 0.735294);
    assert_eq!(bones[0].position_keys[1].frame, 12.25);
    assert!(bones[1].position_keys.is_empty() && bones[1].rotation_keys.is_empty());
}

#[test]
fn a_repeated_block_names_both_lines() {
    let bytes = fixture("fail_duplicate_block.txt");
    let error = File::from_slice(&bytes).unwrap_err();
    assert!(
        matches!(
            error,
            Error::Format {
                detail: Detail::DuplicateBlock { first_line: 6, .. },
                ..
            }
        ),
        "{error}"
    );
    assert!(error.render(&bytes).contains("--> 10:1"));
}

#[test]
fn a_huge_count_fails_before_allocating() {
    // 2e9 vertex records of 28 bytes would be 56 GB; the error comes from the byte check.
    let bytes = fixture("fail_count_too_large.txt");
    let error = File::from_slice_with(&bytes, &ReadOptions::strict()).unwrap_err();
    assert!(
        matches!(
            error,
            Error::Format {
                detail: Detail::CountExceedsInput {
                    count: 2_000_000_000,
                    ..
                },
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn the_memory_budget_is_enforced() {
    let bytes = fixture("lf_skinned_quad.txt");
    let options = ReadOptions {
        limits: Limits {
            max_alloc_bytes: 64,
        },
        ..ReadOptions::default()
    };
    let error = File::from_slice_with(&bytes, &options).unwrap_err();
    assert!(matches!(error, Error::Limit { .. }), "{error}");
}

#[test]
fn lenient_reading_keeps_a_truncated_block_as_raw_bytes() {
    let bytes = fixture("fail_truncated_mesh.txt");
    let (file, report) = File::from_slice_with(&bytes, &ReadOptions::default()).unwrap();
    let start = bytes.windows(7).position(|w| w == b"Meshes:").unwrap();
    assert_eq!(file.damaged_tail, &bytes[start..]);
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::DAMAGED_TAIL)
            .count(),
        1
    );
    // The blocks before it are kept, and writing puts the tail back verbatim.
    assert_eq!(file.frames(), Some(30));
    assert!(file.to_vec().ends_with(&bytes[start..]));
}

#[test]
fn sniff_wants_the_header_comment() {
    assert!(rigport_ms3d_ascii::sniff(&fixture("lf_skinned_quad.txt")));
    assert!(rigport_ms3d_ascii::sniff(
        b"\xEF\xBB\xBF\r\n// MilkShape 3D ASCII\r\n"
    ));
    assert!(!rigport_ms3d_ascii::sniff(b"# Inter-Quake Export\n"));
    assert!(!rigport_ms3d_ascii::sniff(b"MS3D000000"));
}

#[test]
fn empty_input_is_an_empty_file_with_a_warning() {
    let (file, report) = File::from_slice_with(b"", &ReadOptions::default()).unwrap();
    assert!(file.blocks.is_empty());
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::MISSING_MAGIC)
            .count(),
        1
    );
}

#[test]
fn a_cut_inside_a_name_or_number_on_the_last_line_is_a_damaged_tail() {
    let head = b"// MilkShape 3D ASCII\r\n\r\nFrames: 30\r\nFrame: 1\r\n\r\nMeshes: 1\r\n";
    for cut in [&b"\"bo"[..], &b"\"body\" 0 4e-"[..]] {
        let text = [&head[..], cut].concat();
        let (file, report) = File::from_slice_with(&text, &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{}", e.render(&text)));
        assert_eq!(
            report
                .with_code(rigport_model_core::codes::DAMAGED_TAIL)
                .count(),
            1,
            "{report}"
        );
        assert!(
            file.to_vec().ends_with(cut),
            "the cut tail is kept as it was"
        );
        assert!(File::from_slice_with(&text, &ReadOptions::strict()).is_err());
    }
}
