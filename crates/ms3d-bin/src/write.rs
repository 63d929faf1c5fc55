//! Writing: the exact inverse of the reader.

use crate::file::{Comment, File, MAGIC};
use crate::records::{GroupHead, JointHead};
use binrw::{BinResult, BinWrite};
use std::io::{Cursor, Error as IoError, ErrorKind};

/// Serializes a file. Fails only when a list is longer than its count field can say; the
/// error comes with the bytes written before that list.
pub(crate) fn to_bytes(file: &File) -> Result<Vec<u8>, (Vec<u8>, IoError)> {
    let mut out = Cursor::new(Vec::new());
    match write_file(file, &mut out) {
        Ok(()) => Ok(out.into_inner()),
        Err(binrw::Error::Io(io)) => Err((out.into_inner(), io)),
        Err(other) => Err((
            out.into_inner(),
            IoError::new(ErrorKind::InvalidData, other.to_string()),
        )),
    }
}

fn word(len: usize, what: &str) -> BinResult<u16> {
    u16::try_from(len).map_err(|_| too_long(len, what, "65535"))
}

/// A list of fixed-size records after its 16-bit count.
fn counted<T>(records: &[T], what: &str, out: &mut Cursor<Vec<u8>>) -> BinResult<()>
where
    T: for<'a> BinWrite<Args<'a> = ()> + 'static,
{
    word(records.len(), what)?.write_le(out)?;
    records.write_le(out)
}

fn int(len: usize, what: &str) -> BinResult<i32> {
    i32::try_from(len).map_err(|_| too_long(len, what, "2147483647"))
}

fn too_long(len: usize, what: &str, max: &str) -> binrw::Error {
    binrw::Error::Io(IoError::new(
        ErrorKind::InvalidInput,
        format!("{len} {what} do not fit in a count field (at most {max})"),
    ))
}

fn write_file(file: &File, out: &mut Cursor<Vec<u8>>) -> BinResult<()> {
    MAGIC.write_le(out)?;
    file.version.write_le(out)?;
    counted(&file.vertices, "vertices", out)?;
    counted(&file.triangles, "triangles", out)?;
    word(file.groups.len(), "groups")?.write_le(out)?;
    for group in &file.groups {
        GroupHead {
            flags: group.flags,
            name: group.name,
            triangle_count: word(group.triangle_indices.len(), "group triangle indices")?,
        }
        .write_le(out)?;
        group.triangle_indices.write_le(out)?;
        group.material_index.write_le(out)?;
    }
    counted(&file.materials, "materials", out)?;
    file.keyframer.write_le(out)?;
    word(file.joints.len(), "joints")?.write_le(out)?;
    for joint in &file.joints {
        JointHead {
            flags: joint.flags,
            name: joint.name,
            parent_name: joint.parent_name,
            rotation: joint.rotation,
            position: joint.position,
            rotation_key_count: word(joint.rotation_keys.len(), "rotation keys")?,
            translation_key_count: word(joint.translation_keys.len(), "translation keys")?,
        }
        .write_le(out)?;
        joint.rotation_keys.write_le(out)?;
        joint.translation_keys.write_le(out)?;
    }
    if let Some(comments) = &file.comments {
        comments.sub_version.write_le(out)?;
        for list in [&comments.groups, &comments.materials, &comments.joints] {
            write_comment_list(list, out)?;
        }
        int(comments.model.len(), "model comments")?.write_le(out)?;
        for text in &comments.model {
            int(text.len(), "comment bytes")?.write_le(out)?;
            text.write_le(out)?;
        }
    }
    if let Some(extra) = &file.vertex_extra {
        extra.sub_version.write_le(out)?;
        for record in &extra.records {
            record.write_le_args(out, (extra.sub_version,))?;
        }
    }
    if let Some(extra) = &file.joint_extra {
        extra.sub_version.write_le(out)?;
        extra.colors.write_le(out)?;
    }
    if let Some(extra) = &file.model_extra {
        extra.write_le(out)?;
    }
    file.tail.write_le(out)
}

fn write_comment_list(list: &[Comment], out: &mut Cursor<Vec<u8>>) -> BinResult<()> {
    int(list.len(), "comments")?.write_le(out)?;
    for comment in list {
        comment.index.write_le(out)?;
        int(comment.text.len(), "comment bytes")?.write_le(out)?;
        comment.text.write_le(out)?;
    }
    Ok(())
}
