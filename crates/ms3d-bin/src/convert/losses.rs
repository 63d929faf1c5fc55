//! What the neutral model cannot carry from a file, as [`Severity::Loss`] notices.
//!
//! [`Severity::Loss`]: rigport_model_core::Severity::Loss

use crate::file::File;
use crate::summary::has_bytes_after_nul;
use rigport_model_core::Report;
use rigport_model_core::codes;
use std::collections::BTreeSet;

/// Adds one loss notice per kind of information `to_model` drops.
pub(super) fn report_losses(file: &File, report: &mut Report) {
    smoothing_groups(file, report);
    flags(file, report);
    let modes = file.materials.iter().filter(|m| m.mode != 0).count();
    if modes > 0 {
        report.loss(
            codes::MATERIAL_MODE,
            format!("the mode byte of {modes} materials is not carried"),
        );
    }
    comments(file, report);
    if let Some(extra) = &file.joint_extra {
        if !extra.colors.is_empty() {
            report.loss(
                codes::JOINT_COLOURS,
                format!(
                    "the colours of {} joints are not carried",
                    extra.colors.len()
                ),
            );
        }
    }
    if let Some(extra) = &file.vertex_extra {
        let words = extra.records.iter().filter(|r| r.extra != [0, 0]).count();
        if words > 0 {
            report.loss(
                codes::VERTEX_EXTRA_WORDS,
                format!(
                    "the extra words (subVersion {}) of {words} vertices are not carried",
                    extra.sub_version
                ),
            );
        }
    }
    if let Some(extra) = &file.model_extra {
        report.loss(
            codes::MODEL_EXTRA,
            format!(
                "the model extra block (joint size {}, transparency mode {}, alpha ref {}) is not carried",
                extra.joint_size, extra.transparency_mode, extra.alpha_ref
            ),
        );
    }
    if file.keyframer.current_time != 0.0 {
        report.loss(
            codes::CURRENT_TIME,
            format!(
                "the editor's current time {} is not carried",
                file.keyframer.current_time
            ),
        );
    }
    let junk = file
        .groups
        .iter()
        .map(|g| &g.name[..])
        .chain(
            file.materials
                .iter()
                .flat_map(|m| [&m.name[..], &m.texture[..], &m.alphamap[..]]),
        )
        .chain(
            file.joints
                .iter()
                .flat_map(|j| [&j.name[..], &j.parent_name[..]]),
        )
        .filter(|raw| has_bytes_after_nul(raw))
        .count();
    if junk > 0 {
        report.loss(
            codes::NAME_BYTES,
            format!("bytes after the NUL of {junk} names and paths are not carried"),
        );
    }
    if !file.tail.is_empty() {
        report.loss(
            codes::RAW_TAIL,
            format!(
                "{} uninterpretable bytes at the end are not carried",
                file.tail.len()
            ),
        );
    }
}

fn smoothing_groups(file: &File, report: &mut Report) {
    let groups: BTreeSet<u8> = file.triangles.iter().map(|t| t.smoothing_group).collect();
    let with_group = file
        .triangles
        .iter()
        .filter(|t| t.smoothing_group != 0)
        .count();
    if with_group > 0 {
        report.loss(
            codes::SMOOTHING_GROUPS,
            format!(
                "the smoothing groups of {with_group} triangles ({} distinct) are not carried; their stored normals are",
                groups.iter().filter(|g| **g != 0).count()
            ),
        );
    }
}

fn flags(file: &File, report: &mut Report) {
    let counts = [
        (
            file.vertices.iter().filter(|v| v.flags != 0).count(),
            "vertices",
        ),
        (
            file.triangles.iter().filter(|t| t.flags != 0).count(),
            "triangles",
        ),
        (
            file.groups.iter().filter(|g| g.flags != 0).count(),
            "groups",
        ),
        (
            file.joints.iter().filter(|j| j.flags != 0).count(),
            "joints",
        ),
    ];
    let parts: Vec<String> = counts
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
    if !parts.is_empty() {
        report.loss(
            codes::FLAGS,
            format!(
                "selection/hidden flags are not carried: {}",
                parts.join(", ")
            ),
        );
    }
}

fn comments(file: &File, report: &mut Report) {
    let Some(c) = &file.comments else {
        return;
    };
    let dropped_model = c.model.len().saturating_sub(1);
    let total = c.groups.len() + c.materials.len() + c.joints.len() + dropped_model;
    if total > 0 {
        report.loss(
            codes::COMMENTS,
            format!(
                "comments are not carried: {} group, {} material, {} joint, {} further model comments",
                c.groups.len(),
                c.materials.len(),
                c.joints.len(),
                dropped_model
            ),
        );
    }
}
