//! wip
#![forbid(unsafe_code)]
mod command;
mod convert;
mod error;
mod file;
mod from_model;
mod lexer;
mod normals;
mod notes;
mod parse;
mod pose;
mod scene;
mod to_model;
mod write;

pub use command::{Attribute, Command, FaceBase, PoseKind, VertexArrayDecl};
pub use convert::{ConvertOptions, from_model, to_model};
pub use error::Error;
pub use file::{File, sniff};
pub use normals::{CornerNormals, corner_normals};
pub use pose::{PoseFacts, Transform, pose_transform};
pub use scene::{Scene, SceneAnimation, SceneJoint, SceneMesh, SmoothingState, Tangent, Triangle};
