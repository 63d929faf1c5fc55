//! The format's limits (`MAX_*` in the specification), checked by [`from_model`](crate::from_model).

/// Most vertex records a file may hold (`MAX_VERTICES`).
pub const MAX_VERTICES: usize = 65534;
/// Most triangles a file may hold (`MAX_TRIANGLES`).
pub const MAX_TRIANGLES: usize = 65534;
/// Most groups a file may hold (`MAX_GROUPS`).
pub const MAX_GROUPS: usize = 255;
/// Most materials a file may hold (`MAX_MATERIALS`).
pub const MAX_MATERIALS: usize = 128;
/// Most joints a file may hold (`MAX_JOINTS`).
pub const MAX_JOINTS: usize = 128;
