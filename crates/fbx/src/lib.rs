//! Autodesk FBX in, through [ufbx](https://github.com/ufbx/ufbx): binary and ASCII files from
//! FBX 5.0 to 7.7 (Mixamo, Blender, Maya, 3ds Max, MotionBuilder) read into the rigport
//! neutral model, the world as Blender's importer shows it (Y up, metres).
//!
//! FBX is read, not written: glTF is the way out. ufbx parses the file and resolves what
//! the format leaves to its readers (pivots, pre- and post-rotations, inherit modes, layer
//! blending, axis systems and units); this crate maps its scene onto the neutral model:
//!
//! - joints: every bone (`LimbNode`), every node a skin cluster binds to, every animated node
//!   with a mesh below it, and the nodes above them (the nulls a skeleton hangs from);
//! - the bind pose: each skin cluster's bind matrix (`TransformLink`) where there is one, else
//!   the joint's rest transform under its parent's bind;
//! - meshes: one per node instance and material, triangulated as ufbx does, skinned meshes
//!   in their bind space with at most four influences per vertex, rigid meshes bound whole to
//!   the joint above them, the others in world space;
//! - animations: one per animation stack, its layers evaluated and baked by ufbx at the
//!   file's frame rate;
//! - materials: the diffuse (base) colour and texture, embedded images (`Video.Content`)
//!   handed back as files beside the output;
//! - blend shapes: morph targets (in-between shapes each their own), their animated
//!   weights a weight track per mesh.
//!
//! What the model cannot carry (lights, cameras, curves) is a loss in the report.
//!
//! ```no_run
//! use rigport_model_core::ReadOptions;
//!
//! let bytes = std::fs::read("character.fbx").unwrap();
//! assert!(rigport_fbx::CODEC.sniff(&bytes));
//! let (model, report) = rigport_fbx::CODEC.read(&bytes, &ReadOptions::default()).unwrap();
//! println!("{} joints, {} animations", model.skeleton.len(), model.animations.len());
//! # let _ = report;
//! ```

// The wasm32 build defines the C library ufbx calls (`wasm_libc`); elsewhere no unsafe code.
#![cfg_attr(not(target_arch = "wasm32"), forbid(unsafe_code))]

mod codec;
mod convert;
mod damage;
mod load;
mod math;
mod sniff;
mod summary;
#[cfg(target_arch = "wasm32")]
mod wasm_libc;

pub use codec::{CODEC, Fbx, FbxFile, INFO};
pub use convert::to_model;
pub use load::{Loaded, load};
pub use sniff::{is_ascii, is_binary};
