//! The format's limits (`MAX_*` in the specification), checked by [`from_model`](crate::from_model).
//!
//! They live once, in `rigport_anim::milkshape::limits`, shared with the ASCII writer.

pub use rigport_anim::milkshape::limits::{
    MAX_GROUPS, MAX_JOINTS, MAX_KEYS_PER_CHANNEL, MAX_MATERIALS, MAX_NAME_BYTES, MAX_PATH_BYTES,
    MAX_TRIANGLES, MAX_VERTICES,
};
