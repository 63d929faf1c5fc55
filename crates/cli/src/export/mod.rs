//! Writers for formats rigport only exports to (they have no faithful layer to read back).

pub mod gltf;
pub mod obj;
