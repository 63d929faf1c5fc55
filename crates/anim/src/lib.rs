//! Skeleton math on the rigport neutral model, with glam.
//!
//! * [`euler`]: MilkShape/IQE Euler angles ↔ quaternions (`q = qz·qy·qx`).
//! * [`milkshape`]: the MilkShape semantics both MilkShape crates share — bind transforms,
//!   keys relative to the bind pose, and the 0–100 vertex weight encoding.
//!
//! ```
//! use rigport_anim::euler::{euler_to_quat, quat_to_euler};
//! use glam::Vec3;
//!
//! let angles = Vec3::new(0.3, -0.2, 1.1);
//! let q = euler_to_quat(angles);
//! assert!((q.length() - 1.0).abs() < 1e-6);
//! assert!((quat_to_euler(q) - angles).length() < 1e-5);
//! ```
#![forbid(unsafe_code)]

pub mod euler;
pub mod milkshape;
pub mod skeleton;

pub use glam;
