//! What the `_core` functions of the Rust kernels share: reading a numpy
//! array as a contiguous slice and picking the loop by element type.
//!
//! Each such function returns `None` when it does not take its inputs (Note
//! [Fused kernels from Python]): `contiguous` gives `None` for an array that
//! is not C-contiguous and aligned, or is borrowed for writing, and `by_dtype!`
//! for an element type outside its list or with the fast paths off
//! (`OPYARD_FASTPATH=0`).

use numpy::{Element, PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;

/// `x` as a C-contiguous, aligned array of `T`, borrowed for reading.
pub(super) fn contiguous<'py, T: Element>(
    x: &Bound<'py, PyAny>,
) -> Option<PyReadonlyArrayDyn<'py, T>> {
    let a = x.downcast::<PyArrayDyn<T>>().ok()?;
    let aligned = (a.data() as usize).is_multiple_of(std::mem::align_of::<T>());
    if !(a.is_c_contiguous() && aligned) {
        return None;
    }
    a.try_readonly().ok()
}

/// `(outer, n, inner)` of `shape` around the dims `first..=last` (read as one
/// dim of their product); `None` for a range outside the shape.
pub(super) fn around(shape: &[usize], first: usize, last: usize) -> Option<(usize, usize, usize)> {
    if first > last || last >= shape.len() {
        return None;
    }
    Some((
        shape[..first].iter().product(),
        shape[first..=last].iter().product(),
        shape[last + 1..].iter().product(),
    ))
}

/// Returns `$body` with `$t` bound to the element type of the numpy array
/// `$x` among the listed types; `Ok(None)` for another type or with the fast
/// paths off. For the tail of a function returning `PyResult<Option<_>>`.
macro_rules! by_dtype {
    ($x:expr, [$($ty:ty),+], $t:ident => $body:expr) => {{
        if !$crate::python::hooks::fast_paths() {
            return Ok(None);
        }
        $(
            if $x.downcast::<numpy::PyArrayDyn<$ty>>().is_ok() {
                type $t = $ty;
                return $body;
            }
        )+
        Ok(None)
    }};
}

pub(super) use by_dtype;
