//! Reading accessors: every range checked against its buffer view before a byte is read,
//! values handed to a closure element by element (so callers write them straight into their
//! final vectors, column by column, without an intermediate allocation), sparse
//! substitutions applied afterwards, normalized integers (KHR_mesh_quantization) scaled.

use super::{GltfFile, ImportError};
use gltf_json as json;
use json::accessor::{ComponentType, Type};
use json::validation::Checked;

/// What an accessor holds, checked.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Info {
    /// Elements.
    pub count: usize,
    /// Components per element (1 for SCALAR … 16 for MAT4).
    pub components: usize,
    /// Component type.
    pub component: ComponentType,
    /// Whether integers are normalized to 0..1 / −1..1.
    pub normalized: bool,
}

/// The accessor's declared shape, or an error naming it.
pub(crate) fn info(file: &GltfFile, index: usize, what: &str) -> Result<Info, ImportError> {
    let root = file.root();
    let accessor = root.accessors.get(index).ok_or_else(|| {
        ImportError::index(format!("{what} accessor"), index, root.accessors.len())
    })?;
    let Checked::Valid(ty) = accessor.type_ else {
        return Err(ImportError::invalid(
            format!("accessor {index}"),
            "has an invalid type",
        ));
    };
    let Checked::Valid(component) = accessor.component_type else {
        return Err(ImportError::invalid(
            format!("accessor {index}"),
            "has an invalid componentType",
        ));
    };
    // Neither a bufferView nor sparse values: all zeros (glTF 2.0 §3.6.2.3), which Blender
    // writes for a morph target that moves nothing. Callers reserve what they build from
    // the count against the read's budget, so a large count is refused there.
    let count = usize::try_from(accessor.count.0).map_err(|_| {
        ImportError::range(format!("accessor {index}"), "count does not fit in memory")
    })?;
    Ok(Info {
        count,
        components: ty.multiplicity(),
        component: component.0,
        normalized: accessor.normalized,
    })
}

/// A component read from little-endian bytes as f32, scaled when normalized (glTF 2.0
/// §3.11: `max(c / 127, −1)` for bytes, `c / 255` for unsigned bytes, and so on).
#[inline(always)]
fn component_f32(bytes: &[u8], component: ComponentType, normalized: bool) -> f32 {
    match component {
        ComponentType::F32 => f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
        ComponentType::U8 => {
            let v = f32::from(bytes[0]);
            if normalized { v / 255.0 } else { v }
        }
        ComponentType::I8 => {
            let v = f32::from(bytes[0] as i8);
            if normalized { (v / 127.0).max(-1.0) } else { v }
        }
        ComponentType::U16 => {
            let v = f32::from(u16::from_le_bytes([bytes[0], bytes[1]]));
            if normalized { v / 65535.0 } else { v }
        }
        ComponentType::I16 => {
            let v = f32::from(i16::from_le_bytes([bytes[0], bytes[1]]));
            if normalized {
                (v / 32767.0).max(-1.0)
            } else {
                v
            }
        }
        ComponentType::U32 => {
            let v = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as f32;
            if normalized { v / u32::MAX as f32 } else { v }
        }
    }
}

/// A component read as an unsigned integer (negative signed values are out of range).
#[inline(always)]
fn component_u32(bytes: &[u8], component: ComponentType) -> u32 {
    match component {
        ComponentType::U8 => u32::from(bytes[0]),
        ComponentType::U16 => u32::from(u16::from_le_bytes([bytes[0], bytes[1]])),
        ComponentType::U32 => u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
        ComponentType::I8 => u32::try_from(bytes[0] as i8).unwrap_or(u32::MAX),
        ComponentType::I16 => {
            u32::try_from(i16::from_le_bytes([bytes[0], bytes[1]])).unwrap_or(u32::MAX)
        }
        ComponentType::F32 => {
            let v = f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
            if v >= 0.0 && v <= u32::MAX as f32 && v.fract() == 0.0 {
                v as u32
            } else {
                u32::MAX
            }
        }
    }
}

/// The bytes of `count` elements of `element` bytes every `stride` bytes, starting at
/// `offset` in buffer view `view`, checked: `offset + stride·(count−1) + element` must fit.
fn strided<'a>(
    file: &'a GltfFile,
    view: usize,
    offset: u64,
    count: usize,
    element: usize,
    what: &str,
) -> Result<(&'a [u8], usize), ImportError> {
    let (data, stride) = file.view(view)?;
    let stride = stride.unwrap_or(element);
    if stride < element {
        return Err(ImportError::range(
            what,
            format!(
                "byteStride {stride} of buffer view {view} is shorter than an element ({element} bytes)"
            ),
        ));
    }
    if count == 0 {
        return Ok((&[], stride));
    }
    let span = (count as u64 - 1)
        .checked_mul(stride as u64)
        .and_then(|s| s.checked_add(element as u64))
        .and_then(|s| s.checked_add(offset));
    match span {
        Some(end) if end <= data.len() as u64 => Ok((&data[offset as usize..end as usize], stride)),
        _ => Err(ImportError::range(
            what,
            format!(
                "{count} elements of {element} bytes every {stride} bytes from byte {offset} do not fit in buffer view {view} of {} bytes",
                data.len()
            ),
        )),
    }
}

/// An accessor checked for `components` per element, with its dense bytes.
struct CheckedAccessor<'a> {
    info: Info,
    accessor: &'a json::Accessor,
    /// Bytes per component.
    size: usize,
    /// Bytes per element.
    element: usize,
    /// `what (accessor N)`, for errors.
    label: String,
    /// The elements' bytes and stride; `None` when there is no buffer view (all zeros,
    /// unless sparse substitutes some, glTF 2.0 §3.6.2.3).
    dense: Option<(&'a [u8], usize)>,
}

/// The part [`visit_f32`] and [`visit_u32`] share: the accessor's description checked for
/// `components` per element and its bytes checked against the buffer view.
fn checked_accessor<'a>(
    file: &'a GltfFile,
    index: usize,
    what: &str,
    components: usize,
) -> Result<CheckedAccessor<'a>, ImportError> {
    let info = info(file, index, what)?;
    let label = format!("{what} (accessor {index})");
    if info.components != components {
        return Err(ImportError::invalid(
            label,
            format!(
                "has {} components per element, expected {components}",
                info.components
            ),
        ));
    }
    let accessor = &file.root().accessors[index];
    let size = info.component.size();
    // Matrices of 1- and 2-byte components pad each column to 4 bytes (glTF 2.0 §3.6.2.4);
    // no attribute this importer reads is such a matrix, so elements are packed.
    let element = size * components;
    let dense = match accessor.buffer_view {
        Some(view) => {
            let offset = accessor.byte_offset.map_or(0, |o| o.0);
            Some(strided(
                file,
                view.value(),
                offset,
                info.count,
                element,
                &label,
            )?)
        }
        None => None,
    };
    Ok(CheckedAccessor {
        info,
        accessor,
        size,
        element,
        label,
        dense,
    })
}

/// Calls `f(i, value)` for every element of a float-valued accessor of `N` components
/// (integer components converted, normalized ones scaled), dense values first, then the
/// sparse substitutions. Returns the element count.
pub(crate) fn visit_f32<const N: usize>(
    file: &GltfFile,
    index: usize,
    what: &str,
    mut f: impl FnMut(usize, [f32; N]),
) -> Result<usize, ImportError> {
    let CheckedAccessor {
        info,
        accessor,
        size,
        element,
        label,
        dense,
    } = checked_accessor(file, index, what, N)?;
    if let Some((data, stride)) = dense {
        let (component, normalized) = (info.component, info.normalized);
        if component == ComponentType::F32 {
            // The common case, without a per-component type switch; cutting each chunk to
            // the element's constant length lets the compiler drop the bounds checks.
            let read = |chunk: &[u8]| {
                let chunk = &chunk[..4 * N];
                let mut value = [0.0f32; N];
                for (v, b) in value.iter_mut().zip(chunk.chunks_exact(4)) {
                    *v = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                }
                value
            };
            if stride == element {
                for (i, chunk) in data.chunks_exact(element).enumerate() {
                    f(i, read(chunk));
                }
            } else {
                for (i, chunk) in data.chunks(stride).take(info.count).enumerate() {
                    f(i, read(chunk));
                }
            }
        } else {
            for (i, chunk) in data.chunks(stride).take(info.count).enumerate() {
                let mut value = [0.0f32; N];
                for (c, v) in value.iter_mut().enumerate() {
                    *v = component_f32(&chunk[c * size..], component, normalized);
                }
                f(i, value);
            }
        }
    } else {
        // No buffer view: all zeros, unless sparse substitutes some (glTF 2.0 §3.6.2.3).
        for i in 0..info.count {
            f(i, [0.0; N]);
        }
    }
    if let Some(sparse) = &accessor.sparse {
        visit_sparse(file, index, &info, sparse, element, &label, |i, bytes| {
            let mut value = [0.0f32; N];
            for (c, v) in value.iter_mut().enumerate() {
                *v = component_f32(&bytes[c * size..], info.component, info.normalized);
            }
            f(i, value);
        })?;
    }
    Ok(info.count)
}

/// Calls `f(i, value)` for every element of an integer accessor of `N` components (indices,
/// joints). Float components that are whole numbers are accepted; anything else is
/// `u32::MAX`, which callers treat as out of range.
pub(crate) fn visit_u32<const N: usize>(
    file: &GltfFile,
    index: usize,
    what: &str,
    mut f: impl FnMut(usize, [u32; N]),
) -> Result<usize, ImportError> {
    let CheckedAccessor {
        info,
        accessor,
        size,
        element,
        label,
        dense,
    } = checked_accessor(file, index, what, N)?;
    if let Some((data, stride)) = dense {
        macro_rules! dense {
            ($read:expr) => {
                for (i, chunk) in data.chunks(stride).take(info.count).enumerate() {
                    let mut value = [0u32; N];
                    for (c, v) in value.iter_mut().enumerate() {
                        *v = $read(&chunk[c * size..]);
                    }
                    f(i, value);
                }
            };
        }
        match info.component {
            ComponentType::U16 => dense!(|b: &[u8]| u32::from(u16::from_le_bytes([b[0], b[1]]))),
            ComponentType::U32 => dense!(|b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            ComponentType::U8 => dense!(|b: &[u8]| u32::from(b[0])),
            other => dense!(|b: &[u8]| component_u32(b, other)),
        }
    } else {
        for i in 0..info.count {
            f(i, [0; N]);
        }
    }
    if let Some(sparse) = &accessor.sparse {
        visit_sparse(file, index, &info, sparse, element, &label, |i, bytes| {
            let mut value = [0u32; N];
            for (c, v) in value.iter_mut().enumerate() {
                *v = component_u32(&bytes[c * size..], info.component);
            }
            f(i, value);
        })?;
    }
    Ok(info.count)
}

/// Calls `f(element index, element bytes)` for each sparse substitution, every index
/// checked against the accessor's count.
fn visit_sparse(
    file: &GltfFile,
    accessor: usize,
    info: &Info,
    sparse: &json::accessor::sparse::Sparse,
    element: usize,
    label: &str,
    mut f: impl FnMut(usize, &[u8]),
) -> Result<(), ImportError> {
    let count = usize::try_from(sparse.count.0)
        .map_err(|_| ImportError::range(label, "sparse count does not fit in memory"))?;
    if count > info.count {
        return Err(ImportError::range(
            label,
            format!("{count} sparse values for {} elements", info.count),
        ));
    }
    let Checked::Valid(index_type) = sparse.indices.component_type else {
        return Err(ImportError::invalid(
            label,
            "sparse indices have an invalid componentType",
        ));
    };
    let index_type = index_type.0;
    let index_size = index_type.size();
    let (indices, _) = strided(
        file,
        sparse.indices.buffer_view.value(),
        sparse.indices.byte_offset.0,
        count,
        index_size,
        &format!("{label} sparse indices"),
    )?;
    let (values, _) = strided(
        file,
        sparse.values.buffer_view.value(),
        sparse.values.byte_offset.0,
        count,
        element,
        &format!("{label} sparse values"),
    )?;
    // Sparse index and value views are tightly packed whatever their stride says.
    for (k, (index_bytes, value_bytes)) in indices
        .chunks(index_size)
        .zip(values.chunks(element))
        .take(count)
        .enumerate()
    {
        let i = component_u32(index_bytes, index_type) as usize;
        if i >= info.count {
            return Err(ImportError::BadIndex {
                what: format!("accessor {accessor} sparse index {k}"),
                index: i as u64,
                len: info.count as u64,
            });
        }
        f(i, value_bytes);
    }
    Ok(())
}

/// The triangles of an index accessor read as a triangle list, when it is the common
/// case — unsigned, tightly packed, not sparse — in one tight loop; `None` otherwise (the
/// caller then uses [`visit_u32`]). A trailing partial triangle is left out; the largest
/// index is returned for the caller's range check.
pub(crate) fn packed_triangles(
    file: &GltfFile,
    index: usize,
    what: &str,
    out: &mut Vec<[u32; 3]>,
) -> Result<Option<u32>, ImportError> {
    let info = info(file, index, what)?;
    let accessor = &file.root().accessors[index];
    let (Some(view), None, 1) = (accessor.buffer_view, &accessor.sparse, info.components) else {
        return Ok(None);
    };
    let size = info.component.size();
    let offset = accessor.byte_offset.map_or(0, |o| o.0);
    let (data, stride) = strided(file, view.value(), offset, info.count, size, what)?;
    if stride != size {
        return Ok(None);
    }
    let mut max = 0u32;
    macro_rules! read {
        ($n:literal, $get:expr) => {{
            out.reserve(data.len() / (3 * $n));
            for c in data.chunks_exact(3 * $n) {
                let t = [
                    $get(&c[0..$n]),
                    $get(&c[$n..2 * $n]),
                    $get(&c[2 * $n..3 * $n]),
                ];
                max = max.max(t[0]).max(t[1]).max(t[2]);
                out.push(t);
            }
        }};
    }
    match info.component {
        ComponentType::U32 => read!(4, |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        ComponentType::U16 => read!(2, |b: &[u8]| u32::from(u16::from_le_bytes([b[0], b[1]]))),
        ComponentType::U8 => read!(1, |b: &[u8]| u32::from(b[0])),
        _ => return Ok(None),
    }
    Ok(Some(max))
}

/// An accessor of floats read into a vector (for small accessors: key times, inverse
/// bind matrices).
pub(crate) fn read_f32<const N: usize>(
    file: &GltfFile,
    index: usize,
    what: &str,
    budget: &mut rigport_model_core::Budget,
) -> Result<Vec<[f32; N]>, ImportError> {
    let info = info(file, index, what)?;
    budget.reserve("accessor values", info.count as u64, (4 * N) as u64)?;
    let mut out = vec![[0.0; N]; info.count];
    visit_f32::<N>(file, index, what, |i, v| out[i] = v)?;
    Ok(out)
}

/// The accessor type, for callers that accept several (COLOR_0: VEC3 or VEC4).
pub(crate) fn accessor_type(file: &GltfFile, index: usize) -> Option<Type> {
    match file.root().accessors.get(index)?.type_ {
        Checked::Valid(ty) => Some(ty),
        Checked::Invalid => None,
    }
}
