//! Deterministic synthetic bench inputs: skinned grid meshes with a long animation, as
//! MilkShape binary, MilkShape ASCII and IQE bytes, or as a neutral model ([`model()`]).
//!
//! `cargo xtask bench-data` writes these inputs to `bench-data/`, and the criterion benches
//! load them from there — or, when they have not been generated, make a smaller input in
//! process. One generator, so the benches and the files cannot drift apart.

pub mod gimbal;
mod iqe;
mod iqe_short;
pub mod le_bytes;
pub mod md5_flags;
pub mod model;
mod ms3d;
mod ms3d_ascii;
pub mod rig;
pub mod sphere;
mod text;

pub use gimbal::gimbal_model;
pub use iqe::iqe;
pub use iqe_short::{iqe_anim, iqe_anim_no_normals, iqe_anim_one_mesh, iqe_anim_quads, iqe_short};
pub use md5_flags::{Md5Flags, md5_flags};
pub use model::model;
pub use ms3d::{Ms3dSpec, ms3d};
pub use ms3d_ascii::ms3d_ascii;
pub use rig::Rig;

use std::path::{Path, PathBuf};

/// An MS3D binary file at the format's limits: 65534 vertex records and triangles in 7
/// grids, 128 joints with 2000 rotation and 2000 translation keys each, subVersion 2
/// weights (4 joints per vertex). About 20 MB.
pub fn limits_ms3d() -> Ms3dSpec {
    Ms3dSpec {
        rig: Rig {
            meshes: 7,
            cols: 151,
            rows: 31,
            joints: 128,
            frames: 2000,
        },
        triangles: 65534,
        vertices: 65534,
    }
}

/// An MS3D binary file with 32767 triangles in 8 groups, the most assimp reads (it takes
/// triangle and vertex indices as signed 16-bit): 32767 vertex records too; 128 joints with 2000 keys of each kind.
pub fn assimp_ms3d() -> Ms3dSpec {
    Ms3dSpec {
        rig: Rig {
            meshes: 8,
            cols: 64,
            rows: 32,
            joints: 128,
            frames: 2000,
        },
        triangles: 32767,
        vertices: 32767,
    }
}

/// A small MS3D binary file (about 1.5 MB) for the batch directory and for benches run
/// without `bench-data/`.
pub fn small_ms3d() -> Ms3dSpec {
    Ms3dSpec {
        rig: Rig {
            meshes: 4,
            cols: 40,
            rows: 40,
            joints: 32,
            frames: 400,
        },
        triangles: u32::MAX,
        vertices: 0,
    }
}

/// The scene of a text file (IQE or MilkShape ASCII) of roughly `megabytes` MB: 8 grids
/// 70 quads wide, 64 joints, and rows and frames growing linearly with the size (about
/// two thirds geometry, one third animation).
pub fn text_rig(megabytes: u32) -> Rig {
    Rig {
        meshes: 8,
        cols: 70,
        rows: (megabytes * 68 / 10).max(1),
        joints: 64,
        frames: (megabytes * 64).max(2),
    }
}

/// The scene of a short-line IQE file ([`iqe_short`]) of roughly `megabytes` MB, shaped
/// like a 100 MB export of a real rig: 4 grids 100 quads wide, 64 joints, about two thirds
/// geometry and one third animation (85 frames of 64 `pq` lines per megabyte, so about 8500
/// frames at 100 MB).
pub fn short_rig(megabytes: u32) -> Rig {
    Rig {
        meshes: 4,
        cols: 100,
        rows: (megabytes * 15).max(1),
        joints: 64,
        frames: (megabytes * 85).max(2),
    }
}

/// The scene of an animation-heavy short-line IQE file ([`iqe_anim`]) of roughly
/// `megabytes` MB (a little more: 111 MB at 100), shaped like a 100 MB export of a
/// character with a long animation: 4 grids 100 quads wide with one triangle per quad, so
/// about as many faces as vertices (808 404 vertices and 800 000 faces at 100 MB), 64
/// joints and 86 frames per megabyte (8600 frames, 550 400 `pq` lines: 12 % of the
/// lines).
pub fn anim_rig(megabytes: u32) -> Rig {
    Rig {
        meshes: 4,
        cols: 100,
        rows: (megabytes * 20).max(1),
        joints: 64,
        frames: (megabytes * 86).max(2),
    }
}

/// The scene of a quad-faced, animation-heavy IQE file ([`iqe_anim_quads`]) of roughly
/// `megabytes` MB: 9 square grids (300 × 300 vertices at 100 MB, 95 × 95 at 10: the
/// vertices grow with the size), 64 joints and 86 frames per megabyte (8600 at 100 MB).
pub fn quad_rig(megabytes: u32) -> Rig {
    // Vertices per side: 30·√megabytes (a square root of an exact integer is exact enough).
    let side = ((f64::from(megabytes) * 900.0).sqrt().round() as u32).max(2) - 1;
    Rig {
        meshes: 9,
        cols: side,
        rows: side,
        joints: 64,
        frames: (megabytes * 86).max(2),
    }
}

/// Makes the bytes of one bench input.
pub type Generator = Box<dyn Fn() -> Vec<u8>>;

/// Every file of `bench-data/`: name (with forward slashes) and generator.
pub fn inputs() -> Vec<(String, Generator)> {
    let mut out: Vec<(String, Generator)> = vec![
        ("limits.ms3d".into(), Box::new(|| ms3d(&limits_ms3d()))),
        ("big32767.ms3d".into(), Box::new(|| ms3d(&assimp_ms3d()))),
        ("big10.iqe".into(), Box::new(|| iqe(&text_rig(10)))),
        ("big100.iqe".into(), Box::new(|| iqe(&text_rig(100)))),
        ("short10.iqe".into(), Box::new(|| iqe_short(&short_rig(10)))),
        (
            "short100.iqe".into(),
            Box::new(|| iqe_short(&short_rig(100))),
        ),
        ("anim10.iqe".into(), Box::new(|| iqe_anim(&anim_rig(10)))),
        ("anim100.iqe".into(), Box::new(|| iqe_anim(&anim_rig(100)))),
        (
            "anim100-one-mesh.iqe".into(),
            Box::new(|| iqe_anim_one_mesh(&anim_rig(100))),
        ),
        (
            "quad10.iqe".into(),
            Box::new(|| iqe_anim_quads(&quad_rig(10))),
        ),
        (
            "quad100.iqe".into(),
            Box::new(|| iqe_anim_quads(&quad_rig(100))),
        ),
        (
            "anim100-no-vn.iqe".into(),
            Box::new(|| iqe_anim_no_normals(&anim_rig(100))),
        ),
        ("big10.txt".into(), Box::new(|| ms3d_ascii(&text_rig(10)))),
        // Within MilkShape's limits (38080 triangles), so the ASCII writer can be timed too.
        ("big5.txt".into(), Box::new(|| ms3d_ascii(&text_rig(5)))),
        ("big100.txt".into(), Box::new(|| ms3d_ascii(&text_rig(100)))),
    ];
    // A directory of many mid-sized files of all three formats, for batch conversion.
    for n in 0..12 {
        out.push((
            format!("batch/m{n:02}.ms3d"),
            Box::new(|| ms3d(&small_ms3d())),
        ));
        out.push((format!("batch/q{n:02}.iqe"), Box::new(|| iqe(&text_rig(2)))));
        out.push((
            format!("batch/a{n:02}.txt"),
            Box::new(|| ms3d_ascii(&text_rig(2))),
        ));
    }
    out
}

/// `bench-data/` at the workspace root (the first ancestor of `manifest_dir` holding
/// `Cargo.lock`).
pub fn bench_data_dir(manifest_dir: &str) -> PathBuf {
    let start = Path::new(manifest_dir);
    let root = start
        .ancestors()
        .find(|dir| dir.join("Cargo.lock").is_file())
        .unwrap_or(start);
    root.join("bench-data")
}

/// The bench input `name` from `bench-data/`, or, when it has not been generated, the
/// smaller `fallback` made in process (with a note on stderr saying so).
pub fn load_or_generate(
    manifest_dir: &str,
    name: &str,
    fallback: impl FnOnce() -> Vec<u8>,
) -> Vec<u8> {
    let path = bench_data_dir(manifest_dir).join(name);
    match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(_) => {
            let bytes = fallback();
            eprintln!(
                "note: {} not found (run `cargo xtask bench-data`); benchmarking a {:.1} MB \
                 input generated in process instead",
                path.display(),
                bytes.len() as f64 / 1e6
            );
            bytes
        }
    }
}
