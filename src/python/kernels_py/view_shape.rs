//! The shape views' fast paths (`view`, `reshape`, `t`, `transpose`,
//! `permute`, `unsqueeze`, `squeeze`, `select`, `slice`, `narrow`): the numpy
//! view the Python kernel makes, built through numpy's C API and wrapped as a
//! view tensor, with no Python frame.
//!
//! Note [Shape views as numpy makes them]: a fast path must give the very
//! array its Python kernel gives (shape, byte strides, data offset,
//! writeability), since `stride()`, `storage_offset()` and later in-place ops
//! read them. So each one calls the numpy function the Python kernel calls
//! where numpy decides the strides (`PyArray_Newshape` for `view`/`reshape`/
//! `unsqueeze`, `PyArray_Squeeze` for `squeeze()`), and otherwise builds
//! the view from the arithmetic numpy's own indexing does: a permutation of
//! sizes and strides (`t`, `transpose`, `permute`), a dropped axis plus an
//! offset (`select`, `squeeze.dim`), a clipped range times the step (`slice`,
//! `narrow`, following numpy's `get_view_from_index`). Every argument it does
//! not take as given (a non-int, a dim or index out of range, a bad size,
//! a 0-d input where the Python kernel special-cases it) runs the Python
//! kernel, which raises its usual error.

use super::tensor_io::{plain_cpu_tensor, view_root, wrap_result, wrap_view};
use super::view_args::{int_at, opt_int_at, read_ints, wrap_dim, Call};
use super::view_layout::{newshape, same_data, squeeze_all, sub_view, Layout};
use crate::python::ffi::numpy::{whole_view, Header, MAX_DIMS};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

/// Which shape view a kernel makes.
#[derive(Clone, Copy, Debug)]
pub enum ShapeView {
    View,
    Reshape,
    T,
    Transpose,
    Permute,
    Unsqueeze,
    Squeeze,
    SqueezeDim,
    Select,
    Slice,
    Narrow,
}

/// The view `which` makes of `args[0]`, or `None` (run the Python kernel).
pub fn shape_view(
    py: Python<'_>,
    which: ShapeView,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Option<PyObject>> {
    if kwargs.is_some_and(|k| !k.is_empty()) || args.is_empty() {
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
    let call = Call { args, head: &head };
    let made = match which {
        ShapeView::View => reshaped(&data, &call, false)?,
        ShapeView::Reshape => reshaped(&data, &call, true)?,
        ShapeView::Unsqueeze => unsqueeze(&data, &call)?,
        ShapeView::Squeeze if args.len() == 1 => squeeze_all(&data)?.map(Made::View),
        ShapeView::SqueezeDim => squeeze_dim(&data, &call)?,
        _ => match strided(which, &call) {
            Some(v) => Some(Made::View(sub_view(&data, &v)?)),
            None => None,
        },
    };
    match made {
        Some(Made::View(view)) => {
            let Some(root) = view_root(&self_obj, state) else {
                return Ok(None);
            };
            wrap_view(py, view, state.keys(), &root).map(Some)
        }
        Some(Made::Copy(arr)) => wrap_result(py, arr).map(Some),
        None => Ok(None),
    }
}

/// A fast path's result: a view of the input's array, or (reshape only) a copy.
enum Made<'py> {
    View(Bound<'py, PyAny>),
    Copy(Bound<'py, PyAny>),
}

/// The layouts that are pure arithmetic on the input's (see Note [Shape views as numpy makes them]).
fn strided(which: ShapeView, c: &Call<'_, '_>) -> Option<Layout> {
    let whole = Layout::of(c.head);
    let n = whole.n;
    match which {
        ShapeView::T if c.args.len() == 1 && n <= 2 => {
            let order: &[usize] = if n == 2 { &[1, 0] } else { &[0, 1][..n] };
            Some(whole.permuted(order))
        }
        ShapeView::Transpose if c.args.len() == 3 && n > 0 => {
            let (a, b) = (
                wrap_dim(int_at(c.args, 1)?, n)?,
                wrap_dim(int_at(c.args, 2)?, n)?,
            );
            let mut order: Vec<usize> = (0..n).collect();
            order.swap(a, b);
            Some(whole.permuted(&order))
        }
        ShapeView::Permute if c.args.len() == 2 => {
            let mut raw = [0; MAX_DIMS];
            let k = read_ints(&c.args.get_item(1).ok()?, &mut raw)?;
            let mut order = [0usize; MAX_DIMS];
            let mut seen = [false; MAX_DIMS];
            if k != n {
                return None;
            }
            for i in 0..n {
                let a = wrap_dim(raw[i], n)?;
                if std::mem::replace(&mut seen[a], true) {
                    return None;
                }
                order[i] = a;
            }
            Some(whole.permuted(&order[..n]))
        }
        ShapeView::Select if c.args.len() == 3 && n > 0 => {
            let d = wrap_dim(int_at(c.args, 1)?, n)?;
            let (size, index) = (whole.dims[d], int_at(c.args, 2)?);
            if !(-size..size).contains(&index) {
                return None;
            }
            let i = if index < 0 { index + size } else { index };
            let offset = i * whole.strides[d];
            let mut l = whole.drop_axis(d);
            l.offset = offset;
            Some(l)
        }
        ShapeView::Slice if (1..=5).contains(&c.args.len()) && n > 0 => {
            let d = wrap_dim(opt_int_at(c.args, 1, 0)?, n)?;
            let start = opt_none_at(c.args, 2)?;
            let end = opt_none_at(c.args, 3)?;
            let step = opt_int_at(c.args, 4, 1)?;
            // A step whose byte stride overflows: numpy's C arithmetic decides (Python kernel).
            let fits = step > 0 && whole.strides[d].checked_mul(step).is_some();
            fits.then(|| sliced(whole, d, start, end, step))
        }
        ShapeView::Narrow if c.args.len() == 4 && n > 0 => {
            let d = wrap_dim(int_at(c.args, 1)?, n)?;
            let (size, length) = (whole.dims[d], int_at(c.args, 3)?);
            let mut start = int_at(c.args, 2)?;
            if start < 0 {
                start += size;
            }
            let ok = start >= 0 && length >= 0 && start.checked_add(length)? <= size;
            ok.then(|| sliced(whole, d, Some(start), Some(start + length), 1))
        }
        _ => None,
    }
}

/// `args[i]` as `None` (→ `Some(None)`) or an exact int; absent counts as `None`.
fn opt_none_at(args: &Bound<'_, PyTuple>, i: usize) -> Option<Option<isize>> {
    match args.get_item(i) {
        Err(_) => Some(None),
        Ok(v) if v.is_none() => Some(None),
        Ok(_) => int_at(args, i).map(Some),
    }
}

/// `x[:, ..., start:end:step]` on axis `d` as numpy's basic indexing makes
/// it: Python's slice clipping, and an empty result pointing at the start
/// with the axis' own stride.
fn sliced(
    mut l: Layout,
    d: usize,
    start: Option<isize>,
    end: Option<isize>,
    step: isize,
) -> Layout {
    let len = l.dims[d];
    let clip = |v: isize| {
        if v < 0 {
            v.saturating_add(len).max(0)
        } else {
            v.min(len)
        }
    };
    let (mut s, e) = (start.map_or(0, clip), end.map_or(len, clip));
    let mut step = step;
    let count = if e > s { (e - s - 1) / step + 1 } else { 0 };
    if count == 0 {
        (s, step) = (0, 1);
    }
    l.offset += s * l.strides[d];
    l.dims[d] = count;
    l.strides[d] *= step;
    l
}

/// `view`/`reshape(self, size)`: the sizes resolved as `_shape_arg` does,
/// then numpy's reshape; a copy is kept only for `reshape`.
fn reshaped<'py>(
    data: &Bound<'py, PyAny>,
    c: &Call<'_, '_>,
    copy_ok: bool,
) -> PyResult<Option<Made<'py>>> {
    if c.args.len() != 2 {
        return Ok(None);
    }
    let mut size = [0; MAX_DIMS];
    let Some(k) = read_ints(&c.args.get_item(1)?, &mut size) else {
        return Ok(None);
    };
    let numel = c
        .head
        .dims()
        .iter()
        .try_fold(1isize, |a, &d| a.checked_mul(d));
    let Some(size) = numel.and_then(|n| infer_size(&mut size[..k], n)) else {
        return Ok(None);
    };
    let arr = newshape(data, size)?;
    if same_data(&arr, data) {
        Ok(Some(Made::View(arr)))
    } else {
        Ok(copy_ok.then_some(Made::Copy(arr)))
    }
}

/// The `-1` of `size` inferred from `numel`, when `size` is valid for it.
fn infer_size(size: &mut [isize], numel: isize) -> Option<&[isize]> {
    let mut infer = None;
    let mut known: isize = 1;
    for (i, &s) in size.iter().enumerate() {
        match s {
            -1 if infer.is_none() => infer = Some(i),
            s if s >= 0 => known = known.checked_mul(s)?,
            _ => return None,
        }
    }
    if let Some(i) = infer {
        if known == 0 || numel % known != 0 {
            return None;
        }
        size[i] = numel / known;
    } else if known != numel {
        return None;
    }
    Some(size)
}

/// `unsqueeze(self, dim)`: numpy's reshape with a 1 inserted (`np.expand_dims`).
fn unsqueeze<'py>(data: &Bound<'py, PyAny>, c: &Call<'_, '_>) -> PyResult<Option<Made<'py>>> {
    let dims = c.head.dims();
    let n = dims.len();
    let at = (c.args.len() == 2 && n < MAX_DIMS)
        .then(|| int_at(c.args, 1))
        .flatten()
        .and_then(|d| wrap_dim(d, n + 1));
    let Some(at) = at else {
        return Ok(None);
    };
    let mut size = [1; MAX_DIMS];
    size[..at].copy_from_slice(&dims[..at]);
    size[at + 1..=n].copy_from_slice(&dims[at..]);
    let arr = newshape(data, &size[..=n])?;
    Ok(same_data(&arr, data).then_some(Made::View(arr)))
}

/// `squeeze(self, dim)`: the axis dropped when its size is 1, else `x[...]`.
fn squeeze_dim<'py>(data: &Bound<'py, PyAny>, c: &Call<'_, '_>) -> PyResult<Option<Made<'py>>> {
    let whole = Layout::of(c.head);
    if c.args.len() != 2 {
        return Ok(None);
    }
    if whole.n == 0 {
        return whole_view(data).map(|v| Some(Made::View(v)));
    }
    let Some(d) = int_at(c.args, 1).and_then(|d| wrap_dim(d, whole.n)) else {
        return Ok(None);
    };
    let view = if whole.dims[d] == 1 {
        sub_view(data, &whole.drop_axis(d))?
    } else {
        whole_view(data)?
    };
    Ok(Some(Made::View(view)))
}
