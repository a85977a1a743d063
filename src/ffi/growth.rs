//! Structs that grow: option structs and callback tables start with a
//! `size_t struct_size` member, so that later versions can append fields
//! without breaking programs built against an older header.
//!
//! The rules, the same for every such struct the library reads
//! (`mcpr_read_options`, `mcpr_embed_options`, `mcpr_list_options`, `mcpr_request_options`,
//! `mcpr_executor_options`, `mcpr_binding_callbacks`,
//! `mcpr_policy_callbacks`, `mcpr_cache_hints`, `mcpr_notify_options`, and
//! each element of an `mcpr_subscriber` array; `mcpr_executor_stats`, which
//! the library writes, grows by the same `struct_size`):
//! - `struct_size` below `sizeof(size_t)` (a forgotten `struct_size` is 0)
//!   or above [`MAX_STRUCT_SIZE`] is `MCPR_INVALID_ARGUMENT`;
//! - the library reads only the fields lying wholly within `struct_size`;
//!   the others take their defaults (zero, NULL, empty), so a program built
//!   against an older, smaller struct keeps its meaning;
//! - bytes beyond the struct this library knows (a program built against a
//!   newer header) must be zero: a set field this library cannot honour is
//!   `MCPR_INVALID_ARGUMENT`, never silently ignored.

use std::mem::{size_of, MaybeUninit};

use super::status::Error;

/// Largest `struct_size` accepted.
pub(crate) const MAX_STRUCT_SIZE: usize = 4096;

/// The end offset of field `$f` of `$t` (its offset plus its size, the
/// field's type taken from the struct itself).
macro_rules! field_end {
    ($t:ty, $f:ident) => {
        std::mem::offset_of!($t, $f) + $crate::ffi::growth::field_size(|s: &$t| &s.$f)
    };
}
pub(crate) use field_end;

/// The size of the field a projection reaches (see `field_end!`).
pub(crate) const fn field_size<T, F>(_: fn(&T) -> &F) -> usize {
    size_of::<F>()
}

/// A C struct that grows.
///
/// # Safety
/// Implementors are `#[repr(C)]`, their first field is `struct_size:
/// usize`, the all-zero bit pattern is a valid value of every field (and
/// means its default), and [`Grows::FIELD_ENDS`] lists the end offset of
/// every field after `struct_size`, in declaration order.
pub(crate) unsafe trait Grows: Copy {
    /// End offsets of the fields after `struct_size`.
    const FIELD_ENDS: &'static [usize];
}

/// Every field at its default and `struct_size = sizeof(T)`: what the
/// `*_init` functions and `MCPR_*_INIT` macros give.
pub(crate) fn initial<T: Grows>() -> T {
    let mut v = MaybeUninit::<T>::zeroed();
    // SAFETY: `T` starts with a `usize` (the `Grows` contract), and the
    // pointer is valid for writes.
    unsafe { v.as_mut_ptr().cast::<usize>().write(size_of::<T>()) };
    // SAFETY: all-zero is a valid `T` and the first field is now a valid
    // `usize` (the `Grows` contract).
    unsafe { v.assume_init() }
}

/// Writes [`initial`] to `o`; does nothing for NULL (the `*_init`
/// functions).
///
/// # Safety
/// `o` is NULL or valid for one write of a `T`.
pub(crate) unsafe fn init_out<T: Grows>(o: *mut T) {
    if !o.is_null() {
        // SAFETY: `o` is non-null and valid for one write (caller's
        // guarantee).
        unsafe { o.write(initial()) }
    }
}

/// [`read_grown`] of an optional struct: `None` for NULL.
///
/// # Safety
/// `p` is NULL or as for [`read_grown`].
#[inline(always)]
pub(crate) unsafe fn read_grown_opt<T: Grows>(p: *const T) -> Result<Option<T>, Error> {
    if p.is_null() {
        return Ok(None);
    }
    unsafe { read_grown(p) }.map(Some)
}

/// Checks a caller's `struct_size` against the bounds every growing struct
/// shares.
pub(crate) fn check_struct_size(n: usize) -> Result<usize, Error> {
    if n < size_of::<usize>() || n > MAX_STRUCT_SIZE {
        return Err(Error::argument(
            "struct_size must be sizeof the struct (at least sizeof(size_t), at most 4096)",
        ));
    }
    Ok(n)
}

/// Reads a growing struct by its `struct_size`: the fields lying wholly
/// within it, defaults for the others; refuses an impossible size and set
/// bytes beyond the fields this library knows.
///
/// # Safety
/// `p` is non-null, and the `struct_size` bytes it states are readable
/// (at least `sizeof(size_t)` bytes are, to read `struct_size` itself).
pub(crate) unsafe fn read_grown<T: Grows>(p: *const T) -> Result<T, Error> {
    let size = check_struct_size(unsafe { p.cast::<usize>().read_unaligned() })?;
    let bytes = p.cast::<u8>();
    if size > size_of::<T>() {
        // SAFETY: `size` bytes are readable (caller's guarantee).
        let tail =
            unsafe { std::slice::from_raw_parts(bytes.add(size_of::<T>()), size - size_of::<T>()) };
        if tail.iter().any(|&b| b != 0) {
            return Err(Error::argument(
                "struct_size covers fields this library version does not know, and they are set",
            ));
        }
    }
    let known = T::FIELD_ENDS
        .iter()
        .copied()
        .filter(|&end| end <= size)
        .max()
        .unwrap_or(size_of::<usize>());
    let mut v = MaybeUninit::<T>::zeroed();
    // SAFETY: `known <= min(size, sizeof(T))` bytes are readable from `p`
    // and writable in `v`, which cannot overlap.
    unsafe { std::ptr::copy_nonoverlapping(bytes, v.as_mut_ptr().cast::<u8>(), known) };
    // SAFETY: every field wholly within `known` holds the caller's value of
    // its type, every other byte is zero, a valid default (the `Grows`
    // contract); no field is cut, as `known` is a field end.
    Ok(unsafe { v.assume_init() })
}

/// Reads an array of `count` growing structs: the first element's
/// `struct_size` is the array's stride (a C array of the caller's
/// `sizeof`), every element must state the same, and each is read as
/// [`read_grown`] reads one. `count` 0 reads nothing (`p` may then be
/// NULL).
///
/// # Safety
/// When `count > 0`, `p` is non-null and `count` elements of the stride
/// its first `struct_size` states are readable.
pub(crate) unsafe fn read_grown_array<T: Grows>(
    p: *const T,
    count: usize,
) -> Result<Vec<T>, Error> {
    if count == 0 {
        return Ok(Vec::new());
    }
    if p.is_null() {
        return Err(Error::argument("array is NULL with a non-zero count"));
    }
    let stride = check_struct_size(unsafe { p.cast::<usize>().read_unaligned() })?;
    if stride % std::mem::align_of::<usize>() != 0 {
        return Err(Error::argument(
            "array elements' struct_size is not a multiple of their alignment",
        ));
    }
    if count
        .checked_mul(stride)
        .is_none_or(|n| n > isize::MAX as usize)
    {
        return Err(Error::argument("array length is impossible"));
    }
    let base = p.cast::<u8>();
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        // SAFETY: element `i` starts `i * stride` bytes in, within the
        // array (no overflow: checked above), and is readable (the
        // caller's guarantee).
        let at = unsafe { base.add(i * stride) }.cast::<T>();
        if unsafe { at.cast::<usize>().read_unaligned() } != stride {
            return Err(Error::argument(
                "array elements state different struct_size values",
            ));
        }
        out.push(unsafe { read_grown(at) }?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[repr(C)]
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Two {
        struct_size: usize,
        a: u64,
        b: u32,
    }
    // SAFETY: repr(C), starts with `struct_size`, all-zero valid, ends listed.
    unsafe impl Grows for Two {
        const FIELD_ENDS: &'static [usize] = &[field_end!(Two, a), field_end!(Two, b)];
    }

    #[test]
    fn fields_beyond_struct_size_take_their_defaults() {
        let v = Two {
            struct_size: field_end!(Two, a),
            a: 7,
            b: 9,
        };
        // SAFETY: `v` is a whole `Two`.
        let got = unsafe { read_grown(&v) }.ok().unwrap();
        assert_eq!((got.a, got.b), (7, 0));
        // a size cutting `b` does not read it either
        let v = Two {
            struct_size: field_end!(Two, a) + 2,
            ..v
        };
        // SAFETY: as above.
        assert_eq!(unsafe { read_grown(&v) }.ok().unwrap().b, 0);
    }

    #[test]
    fn impossible_sizes_and_set_unknown_fields_are_refused() {
        for size in [0, size_of::<usize>() - 1, MAX_STRUCT_SIZE + 1] {
            let v = Two {
                struct_size: size,
                a: 1,
                b: 1,
            };
            // SAFETY: the size is refused before anything beyond `v` is read.
            assert!(unsafe { read_grown(&v) }.is_err());
        }
        #[repr(C)]
        #[derive(Clone, Copy)]
        struct Newer {
            old: Two,
            c: u64,
        }
        let mut n = Newer {
            old: Two {
                struct_size: size_of::<Newer>(),
                a: 1,
                b: 2,
            },
            c: 0,
        };
        // SAFETY: `n` holds `struct_size` readable bytes.
        let got = unsafe { read_grown((&n as *const Newer).cast::<Two>()) }
            .ok()
            .unwrap();
        assert_eq!((got.a, got.b), (1, 2));
        n.c = 5;
        // SAFETY: as above.
        assert!(unsafe { read_grown((&n as *const Newer).cast::<Two>()) }.is_err());
    }

    #[test]
    fn arrays_grow_by_their_first_elements_struct_size() {
        #[repr(C)]
        #[derive(Clone, Copy)]
        struct Newer {
            old: Two,
            c: u64,
        }
        let e = |a| Newer {
            old: Two {
                struct_size: size_of::<Newer>(),
                a,
                b: 1,
            },
            c: 0,
        };
        let arr = [e(1), e(2), e(3)];
        // SAFETY: three elements of the stated stride.
        let got = unsafe { read_grown_array(arr.as_ptr().cast::<Two>(), 3) }
            .ok()
            .unwrap();
        assert_eq!(got.iter().map(|t| t.a).collect::<Vec<_>>(), [1, 2, 3]);
        let mut mixed = arr;
        mixed[2].old.struct_size = size_of::<Two>();
        // SAFETY: as above.
        assert!(unsafe { read_grown_array(mixed.as_ptr().cast::<Two>(), 3) }.is_err());
        let mut set = arr;
        set[1].c = 9;
        // SAFETY: as above.
        assert!(unsafe { read_grown_array(set.as_ptr().cast::<Two>(), 3) }.is_err());
        // SAFETY: nothing is read for a zero count.
        assert!(unsafe { read_grown_array::<Two>(std::ptr::null(), 0) }
            .ok()
            .unwrap()
            .is_empty());
        // SAFETY: a NULL array is refused before it is read.
        assert!(unsafe { read_grown_array::<Two>(std::ptr::null(), 1) }.is_err());
    }

    #[test]
    fn initial_is_every_default_with_the_full_size() {
        let v: Two = initial();
        assert_eq!(
            v,
            Two {
                struct_size: size_of::<Two>(),
                a: 0,
                b: 0
            }
        );
    }
}
