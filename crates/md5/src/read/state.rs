//! What the reader holds between lines: the block being read, the indices a mesh block
//! checks when it closes, and the facts the file-wide checks need.

use crate::error::{Detail, Error};
use crate::file::*;
use rigport_model_core::diagnostic::{Span, line_col};

/// The block being read.
pub(crate) enum Open {
    Joints(Block<Joint>),
    Mesh(Block<MeshLine>, MeshChecks),
    Hierarchy(Block<HierarchyEntry>),
    Bounds(Block<Bounds>),
    BaseFrame(Block<BaseFrameEntry>),
    Frame(Frame),
    Unknown(Vec<u8>, Block<Vec<u8>>),
}

/// Indices of one mesh block with their places, checked when the block closes.
#[derive(Default)]
pub(crate) struct MeshChecks {
    pub(super) counts: [Option<(i64, Span)>; 3],
    pub(super) vert_index: Vec<(i64, Span)>,
    pub(super) vert_weights: Vec<(i64, i64, Span)>,
    pub(super) tri_index: Vec<(i64, Span)>,
    pub(super) tri_vertex: Vec<(i64, Span)>,
    pub(super) weight_index: Vec<(i64, Span)>,
}

/// What the file-wide checks at the end need.
#[derive(Default)]
pub(crate) struct Facts {
    pub(super) kind: Option<(Kind, Span)>,
    pub(super) headers: Vec<(Header, Span)>,
    pub(super) joint_parents: Vec<(i64, Span)>,
    pub(super) hierarchy: Vec<(i64, i64, i64, Span)>,
    /// The largest weight joint index and where.
    pub(super) max_weight_joint: Option<(i64, Span)>,
    pub(super) base_frames: Option<(usize, Span)>,
    pub(super) bounds: Option<(usize, Span)>,
    pub(super) frames: Vec<(usize, Span)>,
    pub(super) frame_numbers: Vec<(i64, Span)>,
    pub(super) mesh_blocks: usize,
}

pub(super) fn push_plain(open: &mut Open, blank: bool, comment: Comment) {
    fn push<T>(block: &mut Block<T>, blank: bool, comment: Comment) {
        block.lines.push(match (blank, comment) {
            (false, Some(text)) => Line::Comment(text),
            _ => Line::Blank,
        });
    }
    match open {
        Open::Joints(b) => push(b, blank, comment),
        Open::Mesh(b, _) => push(b, blank, comment),
        Open::Hierarchy(b) => push(b, blank, comment),
        Open::Bounds(b) => push(b, blank, comment),
        Open::BaseFrame(b) => push(b, blank, comment),
        Open::Frame(f) => push(&mut f.block, blank, comment),
        Open::Unknown(_, b) => push(b, blank, comment),
    }
}

/// Sets the file's kind from a line that only one kind holds.
pub(super) fn decide(
    facts: &mut Facts,
    kind: Kind,
    span: &Span,
    what: &str,
    src: &[u8],
) -> Result<(), Error> {
    match &facts.kind {
        None => {
            facts.kind = Some((kind, span.clone()));
            Ok(())
        }
        Some((known, _)) if *known == kind => Ok(()),
        Some((known, at)) => {
            let (line, _) = line_col(src, at.start);
            Err(Error::at(
                span.clone(),
                Detail::Inconsistent {
                    message: format!(
                        "`{what}` belongs to an {}, but line {line} made this an {}",
                        kind.key(),
                        known.key()
                    ),
                },
            ))
        }
    }
}

pub(super) fn set_open_comment(open: &mut Open, comment: Comment) {
    match open {
        Open::Joints(b) => b.open_comment = comment,
        Open::Mesh(b, _) => b.open_comment = comment,
        Open::Hierarchy(b) => b.open_comment = comment,
        Open::Bounds(b) => b.open_comment = comment,
        Open::BaseFrame(b) => b.open_comment = comment,
        Open::Frame(f) => f.block.open_comment = comment,
        Open::Unknown(_, b) => b.open_comment = comment,
    }
}
