//! glTF 2.0 as [`Codec`]s: [`GLB_CODEC`] reads and writes `.glb`, [`GLTF_CODEC`] `.gltf`
//! JSON with its `.bin` (and images) beside it. Both read either flavour.
//!
//! [`Codec::read`] gives the model alone: images embedded in the file are not part of a
//! [`Model`] (materials keep their names), which the report says. The file
//! [`Reader::open`] keeps gives them too (its `to_model`), as PNG files named as the
//! materials name them. [`Writer::write`] embeds the texture images it finds among the
//! [`Output::files`] it is given (unless `WriteOptions::keep_texture_uris`); without
//! them every texture stays a URI.
//!
//! ```
//! use rigport_gltf::codec::GLB_CODEC;
//! use rigport_model_core::codec::WriteOptions;
//! use rigport_model_core::{Mesh, Model, ReadOptions, Vertex, glam::Vec3};
//!
//! let mut mesh = Mesh::new("tri");
//! for position in [Vec3::ZERO, Vec3::X, Vec3::Y] {
//!     mesh.vertices.push(Vertex { position, normal: Vec3::Z, ..Vertex::default() });
//! }
//! mesh.triangles.push([0, 1, 2]);
//! let model = Model { meshes: vec![mesh], ..Model::default() };
//! let written = GLB_CODEC.write(&model, "tri.glb", &WriteOptions::default()).unwrap();
//! let (back, _) = GLB_CODEC.read(&written.files[0].bytes, &ReadOptions::default()).unwrap();
//! assert_eq!(back.triangle_count(), 1);
//! ```

use crate::export::written;
use crate::import::opened;
use rigport_model_core::codec::{
    Codec, FormatError, FormatInfo, Input, Opening, Output, Reader, Writer, Written,
};
use rigport_model_core::{Model, Report, UpAxis};
use std::borrow::Cow;

/// The reader and writer of one glTF flavour. Both read either flavour; they differ in what
/// they sniff and write.
#[derive(Clone, Copy, Debug)]
pub struct GltfCodec {
    info: &'static FormatInfo,
}

static GLB_FLAVOUR: GltfCodec = GltfCodec { info: &GLB_INFO };
static GLTF_FLAVOUR: GltfCodec = GltfCodec { info: &GLTF_INFO };

/// The `.glb` codec.
pub static GLB_CODEC: Codec = Codec::new(&GLB_INFO, Some(&GLB_FLAVOUR), Some(&GLB_FLAVOUR));
/// The `.gltf` codec.
pub static GLTF_CODEC: Codec = Codec::new(&GLTF_INFO, Some(&GLTF_FLAVOUR), Some(&GLTF_FLAVOUR));

/// What both flavours are.
const GLTF_FAMILY: FormatInfo = FormatInfo {
    family: "glTF",
    up: UpAxis::Y,
    writes: true,
    reads: true,
    morph_targets: true,
    cubic_splines: true,
    embeds_images: true,
    ..FormatInfo::DEFAULT
};

pub(crate) static GLB_INFO: FormatInfo = FormatInfo {
    key: "glb",
    description: "glTF 2.0 binary (`.glb`)",
    extensions: &["glb"],
    ..GLTF_FAMILY
};

pub(crate) static GLTF_INFO: FormatInfo = FormatInfo {
    key: "gltf",
    description: "glTF 2.0 JSON with a `.bin` beside it (`.gltf`)",
    extensions: &["gltf"],
    // It names its buffers and images by relative path: a copy into another folder would
    // lose them.
    faithful_copy: false,
    ..GLTF_FAMILY
};

/// The flavour `bytes` are, whatever codec reads them.
pub(crate) fn info_of(bytes: &[u8]) -> &'static FormatInfo {
    if bytes.starts_with(b"glTF") {
        &GLB_INFO
    } else {
        &GLTF_INFO
    }
}

impl Reader for GltfCodec {
    fn info(&self) -> &'static FormatInfo {
        self.info
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        crate::sniff(bytes) && info_of(bytes).key == self.info.key
    }

    fn open(&self, input: &Input<'_>) -> Result<(Opening, Report), FormatError> {
        let (file, report) = opened::open(input.bytes, input.options, input.companions)?;
        Ok((Opening::file(file), report))
    }
}

impl Writer for GltfCodec {
    fn info(&self) -> &'static FormatInfo {
        self.info
    }

    fn write(&self, model: Cow<'_, Model>, output: &Output<'_>) -> Result<Written, FormatError> {
        written::write(self.info, model, output.main, output.options, output.files)
    }
}
