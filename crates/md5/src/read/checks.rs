//! The checks of every index against what the file holds: a block's when it closes, the
//! whole file's at the end.

use super::notes::*;
use super::state::*;
use crate::error::{Detail, Error};
use crate::file::*;
use rigport_model_core::codes;
use rigport_model_core::diagnostic::Span;

/// Record indices: out of range is an error, out of order a warning.
pub(super) fn check_indices(
    what: &'static str,
    indices: &[(i64, Span)],
    notes: &mut Notes,
) -> Result<(), Error> {
    for (position, (index, span)) in indices.iter().enumerate() {
        if *index < 0 || *index >= indices.len() as i64 {
            return Err(Error::at(
                span.clone(),
                Detail::IndexOutOfRange {
                    what,
                    index: *index,
                    len: indices.len(),
                },
            ));
        }
        if *index != position as i64 {
            notes.warn(codes::INDEX_OUT_OF_RANGE, span.clone(), || {
                format!("{what} {index} is record {position}: records are taken in file order")
            })?;
        }
    }
    Ok(())
}

pub(super) fn check_count(
    keyword: &str,
    declared: Option<&(i64, Span)>,
    found: usize,
    notes: &mut Notes,
) -> Result<(), Error> {
    if let Some((n, span)) = declared
        && *n != found as i64
    {
        notes.warn(COUNT_MISMATCH, span.clone(), || {
            format!("`{keyword} {n}` but {found} records follow")
        })?;
    }
    Ok(())
}

pub(super) fn close(
    open: Open,
    opened: Span,
    close_comment: Comment,
    items: &mut Vec<Item>,
    facts: &mut Facts,
    notes: &mut Notes,
) -> Result<(), Error> {
    let item = match open {
        Open::Joints(mut b) => {
            b.close_comment = close_comment;
            Item::Joints(b)
        }
        Open::Hierarchy(mut b) => {
            b.close_comment = close_comment;
            Item::Hierarchy(b)
        }
        Open::Bounds(mut b) => {
            b.close_comment = close_comment;
            let n = b.records().count();
            facts.bounds = Some((facts.bounds.as_ref().map_or(0, |(c, _)| *c) + n, opened));
            Item::Bounds(b)
        }
        Open::BaseFrame(mut b) => {
            b.close_comment = close_comment;
            let n = b.records().count();
            let before = facts.base_frames.as_ref().map_or(0, |(c, _)| *c);
            facts.base_frames = Some((before + n, opened));
            Item::BaseFrame(b)
        }
        Open::Frame(mut f) => {
            f.block.close_comment = close_comment;
            facts.frames.push((f.values().count(), opened.clone()));
            facts.frame_numbers.push((f.index, opened));
            Item::Frame(f)
        }
        Open::Unknown(header, mut b) => {
            b.close_comment = close_comment;
            Item::UnknownBlock(header, b)
        }
        Open::Mesh(mut b, checks) => {
            b.close_comment = close_comment;
            facts.mesh_blocks += 1;
            let (verts, tris, weights) = (
                checks.vert_index.len(),
                checks.tri_index.len(),
                checks.weight_index.len(),
            );
            check_count("numverts", checks.counts[0].as_ref(), verts, notes)?;
            check_count("numtris", checks.counts[1].as_ref(), tris, notes)?;
            check_count("numweights", checks.counts[2].as_ref(), weights, notes)?;
            check_indices("vert index", &checks.vert_index, notes)?;
            check_indices("tri index", &checks.tri_index, notes)?;
            check_indices("weight index", &checks.weight_index, notes)?;
            for (value, span) in &checks.tri_vertex {
                if *value < 0 || *value >= verts as i64 {
                    return Err(Error::at(
                        span.clone(),
                        Detail::IndexOutOfRange {
                            what: "triangle vertex",
                            index: *value,
                            len: verts,
                        },
                    ));
                }
            }
            for (first, count, span) in &checks.vert_weights {
                let fits = *first >= 0
                    && *count >= 0
                    && first
                        .checked_add(*count)
                        .is_some_and(|end| end <= weights as i64);
                if !fits {
                    return Err(Error::at(
                        span.clone(),
                        Detail::IndexOutOfRange {
                            what: "vertex weights starting at",
                            index: *first,
                            len: weights,
                        },
                    ));
                }
                if *count == 0 {
                    notes.warn(codes::BLEND_WITHOUT_WEIGHT, span.clone(), || {
                        "a vertex without weights stays at the origin, bound to no joint".to_owned()
                    })?;
                }
            }
            Item::Mesh(b)
        }
    };
    items.push(item);
    Ok(())
}

/// The checks that need the whole file: parents and weight joints against the joints,
/// frames against the hierarchy, counts against the header.
pub(super) fn check_file(kind: Kind, facts: &Facts, notes: &mut Notes) -> Result<(), Error> {
    let header = |pick: fn(&Header) -> Option<i64>| {
        facts
            .headers
            .iter()
            .find_map(|(h, span)| pick(h).map(|v| (v, span.clone())))
    };
    match facts
        .headers
        .iter()
        .find(|(h, _)| matches!(h, Header::Version(_)))
    {
        None => notes.warn(codes::MISSING_MAGIC, 0..0, || {
            "no `MD5Version 10` line".to_owned()
        })?,
        Some((Header::Version(v), span)) if *v != 10 => {
            notes.warn(codes::UNSUPPORTED_VERSION, span.clone(), || {
                format!("MD5Version {v}: id Tech 4 files are version 10")
            })?
        }
        _ => {}
    }
    let num_joints = header(|h| match h {
        Header::NumJoints(n) => Some(*n),
        _ => None,
    });
    match kind {
        Kind::Mesh => {
            let joints = facts.joint_parents.len();
            for (parent, span) in &facts.joint_parents {
                check_parent(*parent, span, joints)?;
            }
            if let Some((joint, span)) = &facts.max_weight_joint
                && *joint >= joints as i64
            {
                return Err(Error::at(
                    span.clone(),
                    Detail::IndexOutOfRange {
                        what: "weight joint",
                        index: *joint,
                        len: joints,
                    },
                ));
            }
            check_count("numJoints", num_joints.as_ref(), joints, notes)?;
            let meshes = header(|h| match h {
                Header::NumMeshes(n) => Some(*n),
                _ => None,
            });
            check_count("numMeshes", meshes.as_ref(), facts.mesh_blocks, notes)?;
        }
        Kind::Anim => {
            let joints = facts.hierarchy.len();
            let components = header(|h| match h {
                Header::NumAnimatedComponents(n) => Some(*n),
                _ => None,
            });
            for (parent, flags, start, span) in &facts.hierarchy {
                check_parent(*parent, span, joints)?;
                if let Some((c, _)) = &components
                    && *flags != 0
                    && (*start < 0 || start.saturating_add(flags.count_ones().into()) > *c)
                {
                    notes.warn(codes::INDEX_OUT_OF_RANGE, span.clone(), || {
                        format!(
                            "components {start}.. of flags {flags} pass the frame's {c} \
                             numbers: the missing ones keep the baseframe value"
                        )
                    })?;
                }
            }
            match &facts.base_frames {
                Some((n, span)) if *n != joints => {
                    return Err(Error::at(
                        span.clone(),
                        Detail::Inconsistent {
                            message: format!("baseframe has {n} lines for {joints} joints"),
                        },
                    ));
                }
                None if joints > 0 => {
                    return Err(Error::at(
                        facts.kind.as_ref().map_or(0..0, |(_, s)| s.clone()),
                        Detail::Inconsistent {
                            message: format!("no baseframe block for the {joints} joints"),
                        },
                    ));
                }
                _ => {}
            }
            check_count("numJoints", num_joints.as_ref(), joints, notes)?;
            let num_frames = header(|h| match h {
                Header::NumFrames(n) => Some(*n),
                _ => None,
            });
            check_count("numFrames", num_frames.as_ref(), facts.frames.len(), notes)?;
            if let Some((n, span)) = &facts.bounds
                && *n != facts.frames.len()
            {
                notes.warn(COUNT_MISMATCH, span.clone(), || {
                    format!("{n} bounds for {} frames", facts.frames.len())
                })?;
            }
            for (position, (number, span)) in facts.frame_numbers.iter().enumerate() {
                if *number != position as i64 {
                    notes.warn(codes::INDEX_OUT_OF_RANGE, span.clone(), || {
                        format!("frame {number} is frame block {position}: frames are taken in file order")
                    })?;
                }
            }
            if let Some((c, _)) = &components {
                for (values, span) in &facts.frames {
                    if *values as i64 != *c {
                        notes.warn(COUNT_MISMATCH, span.clone(), || {
                            format!("a frame of {values} numbers, `numAnimatedComponents {c}`")
                        })?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// A joint's parent index, which must be -1 (a root) or one of the `joints`.
fn check_parent(parent: i64, span: &Span, joints: usize) -> Result<(), Error> {
    if parent < -1 || parent >= joints as i64 {
        let detail = Detail::IndexOutOfRange {
            what: "parent joint",
            index: parent,
            len: joints,
        };
        return Err(Error::at(span.clone(), detail));
    }
    Ok(())
}
