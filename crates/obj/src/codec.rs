//! Wavefront OBJ as a [`Codec`], for callers that handle every format alike: a [`Writer`]
//! only (OBJ is never read), in the pose `WriteOptions::pose` asks for, with its `.mtl`
//! beside it (named after the `.obj`) when there are materials.
//!
//! ```
//! use rigport_model_core::codec::WriteOptions;
//! use rigport_model_core::{Mesh, Model, Vertex, glam::Vec3};
//!
//! let mut mesh = Mesh::new("tri");
//! for position in [Vec3::ZERO, Vec3::X, Vec3::Y] {
//!     mesh.vertices.push(Vertex { position, normal: Vec3::Z, ..Vertex::default() });
//! }
//! mesh.triangles.push([0, 1, 2]);
//! let model = Model { meshes: vec![mesh], ..Model::default() };
//! let written = rigport_obj::CODEC.write(&model, "tri.obj", &WriteOptions::default()).unwrap();
//! assert_eq!(written.files.len(), 1); // no materials, no `.mtl`
//! assert!(!rigport_obj::CODEC.sniff(b"v 0 0 0\n"));
//! ```

use rigport_model_core::codec::{
    Codec, FormatError, FormatInfo, Location, Output, OutputFile, Writer, Written, stem_of,
};
use rigport_model_core::{Model, UpAxis};
use std::borrow::Cow;

/// The OBJ codec (write-only).
#[derive(Clone, Copy, Debug, Default)]
pub struct Obj;

/// The OBJ codec, as a registry lists it.
pub static CODEC: Codec = Codec::new(&INFO, None, Some(&Obj));

static INFO: FormatInfo = FormatInfo {
    key: "obj",
    family: "OBJ",
    description: "Wavefront OBJ with an `.mtl` beside it (`.obj`), posed",
    extensions: &["obj"],
    up: UpAxis::Y,
    writes: true,
    reads: false,
    posed: true,
    ..FormatInfo::DEFAULT
};

impl Writer for Obj {
    fn info(&self) -> &'static FormatInfo {
        &INFO
    }

    fn write(&self, model: Cow<'_, Model>, output: &Output<'_>) -> Result<Written, FormatError> {
        let main = output.main;
        let mtl_name = format!("{}.mtl", stem_of(main));
        let export = crate::write_posed(&model, &output.options.pose, Some(&mtl_name))
            .map_err(|e| FormatError::wrap_plain(INFO.key, Location::Unknown, e))?;
        let mut written = Written::single(main, export.obj.into_bytes());
        if !export.mtl.is_empty() {
            written.files.push(OutputFile {
                name: mtl_name,
                bytes: export.mtl.into_bytes(),
            });
        }
        written.report = export.report;
        Ok(written)
    }
}
