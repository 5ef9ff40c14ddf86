//! A built-in op's output made output 0 of its new node, from Rust.
//!
//! `record::attach_output` reads the output's `dtype`, `dtype.is_floating_point`
//! and `shape` as Python attributes (a subclass may override them). A plain
//! CPU tensor's are those of its numpy array, so for one the sizes are read
//! from the array and whether its dtype is floating point is remembered per
//! dtype object: no `Size` or attribute lookup per call. Anything else goes
//! through `attach_output`.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::GILProtected;
use std::cell::RefCell;

use super::kernels::plain_cpu_tensor;
use super::node::PyNodeBase;
use super::node_shapes::one_native_shape;
use super::record::{attach_output, autograd_bit, autograd_mask};

/// (dtype object, is floating point) for the dtypes seen; a dtype is kept alive here.
static FLOATING: GILProtected<RefCell<Vec<(PyObject, bool)>>> =
    GILProtected::new(RefCell::new(Vec::new()));

/// Whether `dtype` is floating point (its `is_floating_point`), remembered by identity.
fn is_floating(dtype: &Bound<'_, PyAny>) -> PyResult<bool> {
    let py = dtype.py();
    let hit = FLOATING
        .get(py)
        .borrow()
        .iter()
        .find(|(d, _)| d.as_ptr() == dtype.as_ptr())
        .map(|&(_, f)| f);
    if let Some(f) = hit {
        return Ok(f);
    }
    let f = dtype
        .getattr(intern!(py, "is_floating_point"))?
        .is_truthy()?;
    let mut seen = FLOATING.get(py).borrow_mut();
    // A few builtin dtypes in practice; past the cap the attribute is read each time.
    if seen.len() < 32 {
        seen.push((dtype.clone().unbind(), f));
    }
    Ok(f)
}

/// Makes `out` output 0 of the fresh `node` (as `attach_output(node, out, false)`).
pub fn attach(node: &Bound<'_, PyNodeBase>, out: &Bound<'_, PyAny>) -> PyResult<()> {
    let py = out.py();
    let Some(state) = plain_cpu_tensor(out) else {
        return attach_output(node, out, false).map(drop);
    };
    let Some(shapes) = state.with_dims(py, one_native_shape) else {
        return attach_output(node, out, false).map(drop);
    };
    let floating = is_floating(&state.dtype(py)?)?;
    // A fresh node has no shapes: nothing is dropped under the borrow.
    node.borrow_mut().shapes = shapes;
    if floating {
        state.set_history(py, Some(node.as_any()), 0);
        let ks = state.keys();
        if ks & autograd_mask() == 0 {
            state.set_keys(ks | autograd_bit(ks));
        }
    }
    Ok(())
}
