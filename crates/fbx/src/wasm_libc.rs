//! The C library ufbx needs, for `wasm32-unknown-unknown`, where there is none.
//!
//! The web build compiles ufbx with `UFBX_NO_LIBC` (`cargo xtask web` sets it), so ufbx
//! calls `ufbx_malloc`, `ufbx_sqrt`, `ufbx_memcmp` and the rest instead of libc; they are
//! defined here over Rust's allocator and `f64` math. ufbx gives the old size to `realloc`
//! and `free`, so no header is stored. Files are never opened (the page hands bytes over), so
//! the stdio functions fail. Other targets link the platform's C library and never build this.
#![allow(unsafe_code)]

use std::alloc::{Layout, alloc, dealloc, realloc};
use std::ffi::{c_char, c_int, c_void};

/// ufbx's largest alignment need (`max_align_t` on wasm32 is 8; 16 leaves room for SIMD).
const ALIGN: usize = 16;

fn layout(size: usize) -> Option<Layout> {
    Layout::from_size_align(size.max(1), ALIGN).ok()
}

#[unsafe(no_mangle)]
extern "C" fn ufbx_malloc(size: usize) -> *mut c_void {
    // SAFETY: the layout has a non-zero size.
    layout(size).map_or(std::ptr::null_mut(), |l| unsafe { alloc(l) }.cast())
}

#[unsafe(no_mangle)]
extern "C" fn ufbx_realloc(ptr: *mut c_void, old_size: usize, new_size: usize) -> *mut c_void {
    if ptr.is_null() {
        return ufbx_malloc(new_size);
    }
    match layout(old_size) {
        // SAFETY: `ptr` came from `ufbx_malloc`/`ufbx_realloc` with `old_size` (ufbx passes
        // the size it asked for), so with this layout.
        Some(l) => unsafe { realloc(ptr.cast(), l, new_size.max(1)) }.cast(),
        None => std::ptr::null_mut(),
    }
}

#[unsafe(no_mangle)]
extern "C" fn ufbx_free(ptr: *mut c_void, old_size: usize) {
    if let (false, Some(l)) = (ptr.is_null(), layout(old_size)) {
        // SAFETY: as in `ufbx_realloc`.
        unsafe { dealloc(ptr.cast(), l) }
    }
}

macro_rules! math {
    ($($name:ident($($arg:ident),*) = $body:expr;)*) => {$(
        #[unsafe(no_mangle)]
        extern "C" fn $name($($arg: f64),*) -> f64 {
            $body
        }
    )*};
}

math! {
    ufbx_sqrt(x) = x.sqrt();
    ufbx_sin(x) = x.sin();
    ufbx_cos(x) = x.cos();
    ufbx_tan(x) = x.tan();
    ufbx_asin(x) = x.asin();
    ufbx_acos(x) = x.acos();
    ufbx_atan(x) = x.atan();
    ufbx_atan2(y, x) = y.atan2(x);
    ufbx_pow(x, y) = x.powf(y);
    ufbx_fmin(a, b) = a.min(b);
    ufbx_fmax(a, b) = a.max(b);
    ufbx_fabs(x) = x.abs();
    ufbx_copysign(x, y) = x.copysign(y);
    ufbx_nextafter(x, y) = next_after(x, y);
    ufbx_rint(x) = x.round_ties_even();
    ufbx_floor(x) = x.floor();
    ufbx_ceil(x) = x.ceil();
}

/// C's `nextafter`: the next representable value from `x` towards `y`.
fn next_after(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    if x == y {
        return y;
    }
    if x == 0.0 {
        return f64::from_bits(1).copysign(y);
    }
    let bits = x.to_bits();
    let away = (y > x) == (x > 0.0);
    f64::from_bits(if away { bits + 1 } else { bits - 1 })
}

#[unsafe(no_mangle)]
extern "C" fn ufbx_isnan(x: f64) -> c_int {
    c_int::from(x.is_nan())
}

/// The bytes from `ptr`, `count` long.
///
/// # Safety
/// `ptr` points at `count` readable bytes (or `count` is 0).
unsafe fn bytes<'a>(ptr: *const c_void, count: usize) -> &'a [u8] {
    if count == 0 {
        return &[];
    }
    // SAFETY: the caller's.
    unsafe { std::slice::from_raw_parts(ptr.cast(), count) }
}

#[unsafe(no_mangle)]
unsafe extern "C" fn ufbx_strlen(s: *const c_char) -> usize {
    // SAFETY: ufbx passes NUL-terminated strings.
    unsafe { std::ffi::CStr::from_ptr(s) }.count_bytes()
}

#[unsafe(no_mangle)]
unsafe extern "C" fn ufbx_memcpy(
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
) -> *mut c_void {
    // SAFETY: C's `memcpy` contract: both regions hold `count` bytes and do not overlap.
    unsafe { std::ptr::copy_nonoverlapping(src.cast::<u8>(), dst.cast::<u8>(), count) };
    dst
}

#[unsafe(no_mangle)]
unsafe extern "C" fn ufbx_memmove(
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
) -> *mut c_void {
    // SAFETY: C's `memmove` contract: both regions hold `count` bytes.
    unsafe { std::ptr::copy(src.cast::<u8>(), dst.cast::<u8>(), count) };
    dst
}

#[unsafe(no_mangle)]
unsafe extern "C" fn ufbx_memset(dst: *mut c_void, ch: c_int, count: usize) -> *mut c_void {
    // SAFETY: C's `memset` contract: `dst` holds `count` writable bytes.
    unsafe { std::ptr::write_bytes(dst.cast::<u8>(), ch as u8, count) };
    dst
}

#[unsafe(no_mangle)]
unsafe extern "C" fn ufbx_memchr(ptr: *const c_void, value: c_int, count: usize) -> *const c_void {
    // SAFETY: C's `memchr` contract: `ptr` holds `count` readable bytes.
    let haystack = unsafe { bytes(ptr, count) };
    match haystack.iter().position(|&b| b == value as u8) {
        Some(at) => haystack[at..].as_ptr().cast(),
        None => std::ptr::null(),
    }
}

#[unsafe(no_mangle)]
unsafe extern "C" fn ufbx_memcmp(a: *const c_void, b: *const c_void, count: usize) -> c_int {
    // SAFETY: C's `memcmp` contract: both hold `count` readable bytes.
    let (a, b) = unsafe { (bytes(a, count), bytes(b, count)) };
    order(a, b)
}

#[unsafe(no_mangle)]
unsafe extern "C" fn ufbx_strcmp(a: *const c_char, b: *const c_char) -> c_int {
    // SAFETY: ufbx passes NUL-terminated strings.
    let (a, b) = unsafe { (std::ffi::CStr::from_ptr(a), std::ffi::CStr::from_ptr(b)) };
    order(a.to_bytes(), b.to_bytes())
}

#[unsafe(no_mangle)]
unsafe extern "C" fn ufbx_strncmp(a: *const c_char, b: *const c_char, count: usize) -> c_int {
    let mut i = 0;
    while i < count {
        // SAFETY: ufbx passes NUL-terminated strings; reading stops at the first NUL.
        let (x, y) = unsafe { (*a.add(i) as u8, *b.add(i) as u8) };
        if x != y || x == 0 {
            return c_int::from(x) - c_int::from(y);
        }
        i += 1;
    }
    0
}

/// C's sign of a byte-wise comparison.
fn order(a: &[u8], b: &[u8]) -> c_int {
    match a.cmp(b) {
        std::cmp::Ordering::Less => -1,
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Greater => 1,
    }
}

#[unsafe(no_mangle)]
extern "C" fn ufbx_stdio_open(_path: *const c_char, _length: usize) -> *mut c_void {
    std::ptr::null_mut()
}

#[unsafe(no_mangle)]
extern "C" fn ufbx_stdio_read(_file: *mut c_void, _data: *mut c_void, _size: usize) -> usize {
    0
}

#[unsafe(no_mangle)]
extern "C" fn ufbx_stdio_skip(_file: *mut c_void, _size: usize) -> bool {
    false
}

#[unsafe(no_mangle)]
extern "C" fn ufbx_stdio_size(_file: *mut c_void) -> u64 {
    0
}

#[unsafe(no_mangle)]
extern "C" fn ufbx_stdio_close(_file: *mut c_void) {}
