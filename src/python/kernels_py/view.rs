//! The view kernels' fast paths, each a numpy view made through numpy's C API
//! and wrapped as a view tensor, with no Python frame.
//!
//! `expand`: a zero-stride view. Sizes it does not take as given (a `-1` in a
//! new leading dimension, other negatives, a size that is no Python int, a
//! mismatch, which is an error) run the Python kernel.
//!
//! `detach` and `alias`: a view of the whole array, what `self._data[...]`
//! gives (numpy answers an Ellipsis index with `PyArray_View(arr, NULL, NULL)`:
//! same dtype, shape, strides, writeability, `arr` as its base).

use super::tensor_io::{plain_cpu_tensor, view_root, wrap_view};
use crate::python::ffi::numpy::{strided_view, whole_view, Header, MAX_DIMS};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyLong, PyTuple};

/// `expand(self, size)` as `np.broadcast_to` + `_make_view`, or `None`.
pub fn expand(
    py: Python<'_>,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Option<PyObject>> {
    if args.len() != 2 || kwargs.is_some_and(|k| !k.is_empty()) {
        return Ok(None);
    }
    let self_obj = args.get_item(0)?;
    let Some(state) = plain_cpu_tensor(&self_obj) else {
        return Ok(None);
    };
    let Some(data) = state.data(py) else {
        return Ok(None);
    };
    let Some(head) = Header::read(&data) else {
        return Ok(None);
    };
    let mut size = [0isize; MAX_DIMS];
    let Some(n) = read_sizes(&args.get_item(1)?, &mut size) else {
        return Ok(None);
    };
    let Some((dims, strides)) = broadcast(head.dims(), head.strides(), &size[..n]) else {
        return Ok(None);
    };
    let Some(root) = view_root(&self_obj, state) else {
        return Ok(None);
    };
    let view = strided_view(&data, &dims[..n], &strides[..n])?;
    wrap_view(py, view, state.keys(), &root).map(Some)
}

/// `detach(self)` / `alias(self)` as `_make_view(self._data[...], self)`, or `None`.
pub fn whole(
    py: Python<'_>,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Option<PyObject>> {
    if args.len() != 1 || kwargs.is_some_and(|k| !k.is_empty()) {
        return Ok(None);
    }
    let self_obj = args.get_item(0)?;
    let Some(state) = plain_cpu_tensor(&self_obj) else {
        return Ok(None);
    };
    let Some(data) = state.data(py) else {
        return Ok(None);
    };
    if Header::read(&data).is_none() {
        return Ok(None);
    }
    let Some(root) = view_root(&self_obj, state) else {
        return Ok(None);
    };
    let view = whole_view(&data)?;
    wrap_view(py, view, state.keys(), &root).map(Some)
}

/// The sizes of a list or tuple of exact Python ints into `out` (`None`: any other).
fn read_sizes(obj: &Bound<'_, PyAny>, out: &mut [isize; MAX_DIMS]) -> Option<usize> {
    let items: Vec<Bound<'_, PyAny>> = if let Ok(l) = obj.downcast::<PyList>() {
        l.iter().collect()
    } else if let Ok(t) = obj.downcast::<PyTuple>() {
        t.iter().collect()
    } else {
        return None;
    };
    if items.len() > MAX_DIMS {
        return None;
    }
    for (slot, item) in out.iter_mut().zip(&items) {
        if !item.is_exact_instance_of::<PyLong>() {
            return None;
        }
        *slot = item.extract().ok()?;
    }
    Some(items.len())
}

/// The view's sizes and byte strides when `size` expands `dims` as torch and
/// numpy agree it does: new dimensions in front (stride 0), each existing
/// size kept (`-1` or itself, same stride) or 1 broadcast to any size (stride 0).
fn broadcast(
    dims: &[isize],
    strides: &[isize],
    size: &[isize],
) -> Option<([isize; MAX_DIMS], [isize; MAX_DIMS])> {
    let lead = size.len().checked_sub(dims.len())?;
    let (mut out_dims, mut out_strides) = ([0; MAX_DIMS], [0; MAX_DIMS]);
    // From the last dimension, as torch's `inferExpandGeometry`: a new leading
    // dimension of size 1 takes the extent of the one after it (size x stride),
    // other new ones stride 0; a new last dimension (a 0-d input) stride 0.
    for (i, &s) in size.iter().enumerate().rev() {
        let (d, stride) = if i < lead {
            match s {
                1 if i + 1 < size.len() => (1, out_dims[i + 1] * out_strides[i + 1]),
                1 => (1, 0),
                s => (s, 0),
            }
        } else {
            let (have, step) = (dims[i - lead], strides[i - lead]);
            match s {
                -1 => (have, step),
                s if s == have => (have, step),
                s if have == 1 => (s, 0),
                _ => return None,
            }
        };
        if d < 0 {
            return None;
        }
        out_dims[i] = d;
        out_strides[i] = stride;
    }
    Some((out_dims, out_strides))
}
