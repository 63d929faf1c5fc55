//! Loading a file with ufbx: the options every read shares (Y up, metres, Blender's world),
//! the memory bound drawn from the input's size, and ufbx's errors as [`FormatError`]s with
//! the place in the file ([`crate::damage`] finds it, since ufbx names none).

use crate::codec::INFO;
use rigport_model_core::codec::FormatError;
use rigport_model_core::{ReadOptions, Report, codes};

/// What ufbx may allocate for a file, before [`rigport_model_core::Limits`] caps it: a base
/// for small files plus a multiple of the input (binary FBX arrays are deflated, and a
/// scene's structures take several times the bytes they are read from).
const BASE_BYTES: u64 = 64 << 20;
/// Bytes ufbx may allocate per input byte beyond [`BASE_BYTES`].
const BYTES_PER_INPUT_BYTE: u64 = 32;
/// How deep a node tree may nest (a deeper one is refused, not recursed into).
const NODE_DEPTH_LIMIT: u32 = 1024;

/// A scene ufbx loaded, with the facts of the file a summary names.
pub struct Loaded {
    /// The scene.
    pub scene: ufbx::SceneRoot,
    /// What ufbx may allocate for work on the scene (baking an animation stack).
    pub memory_limit: usize,
    /// What the read warned about: ufbx's warnings, and a text file that ends inside a
    /// record (ufbx reads what came before).
    pub report: Report,
}

impl std::fmt::Debug for Loaded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Loaded")
            .field("version", &self.scene.metadata.version)
            .field("ascii", &self.scene.metadata.ascii)
            .field("nodes", &self.scene.nodes.len())
            .finish()
    }
}

/// The memory ufbx may use for an input of `len` bytes under `options`' limits.
fn memory_limit(len: usize, options: &ReadOptions) -> usize {
    let by_input = BASE_BYTES.saturating_add((len as u64).saturating_mul(BYTES_PER_INPUT_BYTE));
    let limit = by_input.min(options.limits.max_alloc_bytes);
    usize::try_from(limit).unwrap_or(usize::MAX)
}

/// ufbx's allocator options with a memory limit.
pub(crate) fn allocator(limit: usize) -> ufbx::AllocatorOpts {
    ufbx::AllocatorOpts {
        memory_limit: limit,
        ..Default::default()
    }
}

/// Loads `bytes` with ufbx, converted to Y up and metres as Blender imports FBX. External
/// files (vertex caches, textures) are not opened: textures are looked up beside the file
/// by the conversion's own rule.
pub fn load(bytes: &[u8], options: &ReadOptions) -> Result<Loaded, FormatError> {
    let limit = memory_limit(bytes.len(), options);
    let opts = ufbx::LoadOpts {
        temp_allocator: allocator(limit),
        result_allocator: allocator(limit),
        load_external_files: false,
        ignore_missing_external_files: true,
        clean_skin_weights: true,
        generate_missing_normals: true,
        strict: options.strict,
        file_format: ufbx::FileFormat::Fbx,
        no_format_from_extension: true,
        node_depth_limit: NODE_DEPTH_LIMIT,
        target_axes: ufbx::CoordinateAxes::right_handed_y_up(),
        target_camera_axes: ufbx::CoordinateAxes::right_handed_y_up(),
        target_light_axes: ufbx::CoordinateAxes::right_handed_y_up(),
        target_unit_meters: 1.0,
        space_conversion: ufbx::SpaceConversion::AdjustTransforms,
        inherit_mode_handling: ufbx::InheritModeHandling::Compensate,
        ..Default::default()
    };
    let scene = ufbx::load_memory(bytes, opts).map_err(|error| load_error(bytes, &error, limit))?;
    let mut report = Report::default();
    for warning in scene.metadata.warnings.iter() {
        if warning.type_ == ufbx::WarningType::MissingExternalFile {
            continue;
        }
        let times = if warning.count > 1 {
            format!(" ({} times)", warning.count)
        } else {
            String::new()
        };
        report.warn(
            codes::FBX_REPAIRED,
            format!("{}{times}; read past it", warning.description),
        );
    }
    // ufbx reads a text file cut short as far as it goes; say where it was cut.
    if scene.metadata.ascii {
        if let (location, Some(what)) = crate::damage::locate(bytes) {
            if options.strict {
                return Err(FormatError::new(INFO.key, location, what));
            }
            report.warn(
                codes::DAMAGED_TAIL,
                format!("{location}: {what}; what came before was read"),
            );
        }
    }
    Ok(Loaded {
        scene,
        memory_limit: limit,
        report,
    })
}

/// ufbx's error as a [`FormatError`]: its description and details, at the place
/// [`crate::damage::locate`] finds in the file.
fn load_error(bytes: &[u8], error: &ufbx::Error, limit: usize) -> FormatError {
    let mut text = vec![0u8; 1024];
    let written = ufbx::format_error(&mut text, error).min(text.len());
    let full = String::from_utf8_lossy(&text[..written]).into_owned();
    // The first line is "ufbx v0.x.y error: <description>"; the rest is ufbx's own stack.
    let description = error.description.to_string();
    let detail = full
        .lines()
        .next()
        .and_then(|line| line.split_once("error: ").map(|(_, d)| d.to_owned()))
        .unwrap_or(description);
    let (location, found) = crate::damage::locate(bytes);
    let message = match found {
        Some(found) if error.type_ != ufbx::ErrorType::MemoryLimit => format!("{found} ({detail})"),
        _ if error.type_ == ufbx::ErrorType::MemoryLimit => format!(
            "{detail}: the file needs more memory than its size justifies (limit {limit} bytes)"
        ),
        _ => detail,
    };
    FormatError::new(INFO.key, location, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memory_bound_grows_with_the_input_and_stays_under_the_limits() {
        let options = ReadOptions::default();
        assert_eq!(memory_limit(0, &options), 64 << 20);
        assert_eq!(memory_limit(1 << 20, &options), (64 << 20) + (32 << 20));
        // Capped by the read's limit (1 GiB by default).
        assert_eq!(memory_limit(1 << 30, &options), 1 << 30);
    }

    #[test]
    fn garbage_is_an_error_not_a_scene() {
        let error = load(b"Kaydara FBX Binary  \0\x1a\0", &ReadOptions::default()).unwrap_err();
        assert_eq!(error.format, "fbx");
        assert!(!error.message.is_empty());
    }
}
