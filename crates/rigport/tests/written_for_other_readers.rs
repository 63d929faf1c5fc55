//! MilkShape, IQM and MD5 models written as Blitz3D `.b3d` are read by assimp with their
//! triangle count, and written as `.psk` read back with their triangles and bones: every
//! fixture and corpus file of those formats that has a mesh. The assimp half is skipped with
//! a message when assimp is not installed.

use rigport::Format;
use rigport::document::Document;
use rigport::pipeline::{Settings, convert};
use rigport_model_core::{Model, ReadOptions};
use rigport_test_support::fixtures::fixtures_dir;
use rigport_test_support::gltf::Oracle;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The damaged-core corpus files (MANIFEST.tsv), which do not read.
const DAMAGED_CORE: [&str; 2] = ["assimp_Wuson_broken2018.ms3d", "icub_iCub_Head_a.ms3d"];

/// Every model of the three formats: fixtures, and corpus files when `RIGPORT_CORPUS` is set.
fn inputs() -> Vec<PathBuf> {
    let mut files = vec![
        fixtures_dir().join("ms3d/rig_full.ms3d"),
        fixtures_dir().join("md5/spec_mesh.md5mesh"),
    ];
    if let Some(root) = std::env::var_os("RIGPORT_CORPUS").map(PathBuf::from) {
        for dir in ["ms3d", "iqm", "md5"] {
            let Ok(listing) = std::fs::read_dir(root.join(dir)) else {
                continue;
            };
            files.extend(listing.map(|e| e.unwrap().path()));
        }
    } else {
        println!("RIGPORT_CORPUS is not set: fixtures only");
    }
    files.retain(|p| {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        !DAMAGED_CORE.contains(&name.as_str())
            && ["ms3d", "iqm", "md5mesh"]
                .iter()
                .any(|e| p.extension().is_some_and(|x| x.eq_ignore_ascii_case(e)))
    });
    files.sort();
    files
}

fn model_of(bytes: &[u8]) -> Model {
    let (document, _) = Document::sniff_and_read(bytes, &ReadOptions::default()).unwrap();
    document.to_model().unwrap().0
}

fn assimp_available() -> bool {
    Command::new("assimp")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The triangles assimp finds in `b3d`, through `assimp export … -fglb2` and the test
/// support's independent glTF reader.
fn assimp_triangles(b3d: &[u8], dir: &Path, stem: &str) -> usize {
    let (input, output) = (
        dir.join(format!("{stem}.b3d")),
        dir.join(format!("{stem}.glb")),
    );
    std::fs::write(&input, b3d).unwrap();
    let run = Command::new("assimp")
        .arg("export")
        .arg(&input)
        .arg(&output)
        .arg("-fglb2")
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{stem}: assimp: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let oracle = Oracle::read(&std::fs::read(&output).unwrap(), None).unwrap();
    oracle.triangles(None).unwrap().len()
}

#[test]
fn milkshape_iqm_and_md5_models_written_as_b3d_and_psk_keep_their_triangles() {
    let assimp = assimp_available();
    if !assimp {
        println!("skipped the assimp half: assimp is not installed");
    }
    let dir = std::env::temp_dir().join(format!("rigport-b3d-psk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for path in inputs() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let model = model_of(&bytes);
        let triangles = model.triangle_count();
        if triangles == 0 {
            println!("{name}: no mesh, not written");
            continue;
        }
        for target in [Format::B3d, Format::Psk] {
            let output = Path::new("out").with_extension(target.extension());
            let converted = convert(&bytes, &output, target, &Settings::default())
                .unwrap_or_else(|e| panic!("{name} -> {target}: {e}"));
            let written = &converted.files[0].1;
            let (back, _) = Document::read(written, target, &ReadOptions::strict())
                .unwrap_or_else(|e| panic!("{name} -> {target} does not read back: {e}"));
            let back = back.to_model().unwrap().0;
            assert_eq!(back.triangle_count(), triangles, "{name} -> {target}");
            if target == Format::Psk {
                // A .psk binds every vertex to a bone: a model without joints gets one, and
                // one with several roots gets a root above them (`joint-added`).
                let added = usize::from(converted.report.with_code("joint-added").next().is_some());
                let joints = model.skeleton.joints.len().max(1) + added;
                assert_eq!(back.skeleton.joints.len(), joints, "{name} -> psk bones");
            } else if assimp {
                let theirs = assimp_triangles(written, &dir, &name);
                assert_eq!(theirs, triangles, "{name} -> b3d in assimp");
            }
        }
        println!("{name}: {triangles} triangles in .b3d (assimp too) and .psk");
        checked += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(checked >= 2, "too few models checked: {checked}");
}
