//! Arguments of the view kernels' fast paths: exact Python ints only (a
//! bool, a numpy integer, a `SymInt` or anything else runs the Python
//! kernel, which converts or rejects it with its own message).

use crate::python::ffi::numpy::{Header, MAX_DIMS};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyLong, PyTuple};

/// One view kernel call: its positional arguments and the input array's header.
pub struct Call<'a, 'py> {
    pub args: &'a Bound<'py, PyTuple>,
    pub head: &'a Header<'a>,
}

/// `v` as an exact Python int that fits a `Py_ssize_t`.
fn exact_int(v: &Bound<'_, PyAny>) -> Option<isize> {
    if !v.is_exact_instance_of::<PyLong>() {
        return None;
    }
    v.extract().ok()
}

/// `args[i]` as an exact int (`None`: absent or anything else).
pub fn int_at(args: &Bound<'_, PyTuple>, i: usize) -> Option<isize> {
    exact_int(&args.get_item(i).ok()?)
}

/// `args[i]` as an exact int, `default` when the binder left it out.
pub fn opt_int_at(args: &Bound<'_, PyTuple>, i: usize, default: isize) -> Option<isize> {
    if i >= args.len() {
        return Some(default);
    }
    int_at(args, i)
}

/// The exact ints of a list or tuple into `out` (`None`: any other, or more than `MAX_DIMS`).
pub fn read_ints(obj: &Bound<'_, PyAny>, out: &mut [isize; MAX_DIMS]) -> Option<usize> {
    let mut fill = |it: &mut dyn Iterator<Item = Bound<'_, PyAny>>, n: usize| {
        if n > MAX_DIMS {
            return None;
        }
        for (slot, item) in out.iter_mut().zip(it) {
            *slot = exact_int(&item)?;
        }
        Some(n)
    };
    if let Ok(l) = obj.downcast::<PyList>() {
        fill(&mut l.iter(), l.len())
    } else if let Ok(t) = obj.downcast::<PyTuple>() {
        fill(&mut t.iter(), t.len())
    } else {
        None
    }
}

/// `dim` wrapped into `0..n` (`n` ≥ 1) as `_wrap_dim` does; `None` when out
/// of range (the Python kernel raises "Dimension out of range").
pub fn wrap_dim(dim: isize, n: usize) -> Option<usize> {
    let n = n as isize;
    if n == 0 || !(-n..n).contains(&dim) {
        return None;
    }
    Some((if dim < 0 { dim + n } else { dim }) as usize)
}
