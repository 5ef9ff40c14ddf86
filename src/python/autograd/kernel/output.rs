//! A built-in op's output made output 0 of its new node, from Rust.
//!
//! `record::attach_output` reads the output's `dtype`, whether it is
//! differentiable (floating point or complex) and `shape` as Python attributes (a subclass may override them). A plain
//! CPU tensor's are those of its numpy array, so for one the sizes are read
//! from the array and whether its dtype is differentiable is remembered per
//! dtype object: no `Size` or attribute lookup per call. Anything else goes
//! through `attach_output`.

use pyo3::intern;
use pyo3::prelude::*;

use crate::python::autograd::node::shapes::one_native_shape;
use crate::python::autograd::node::PyNodeBase;
use crate::python::autograd::record::{attach_output, autograd_bit, autograd_mask};
use crate::python::kernels_py::plain_cpu_tensor;
use crate::python::tensor::dtype_flags::DtypeFlags;

/// Whether a dtype is differentiable, per dtype object.
static DIFFERENTIABLE: DtypeFlags = DtypeFlags::new();

/// Whether `dtype` is differentiable: floating point or complex (torch's
/// `isDifferentiableType`).
fn is_differentiable(dtype: &Bound<'_, PyAny>) -> PyResult<bool> {
    DIFFERENTIABLE.get(dtype, |d| {
        let py = d.py();
        if d.getattr(intern!(py, "is_floating_point"))?.is_truthy()? {
            return Ok(true);
        }
        d.getattr(intern!(py, "is_complex"))
            .map_or(Ok(false), |c| c.is_truthy())
    })
}

/// Makes `out` output 0 of the fresh `node` (as `attach_output(node, out)`).
pub fn attach(node: &Bound<'_, PyNodeBase>, out: &Bound<'_, PyAny>) -> PyResult<()> {
    let py = out.py();
    let Some(state) = plain_cpu_tensor(out) else {
        return attach_output(node, out).map(drop);
    };
    let Some(shapes) = state.with_dims(py, one_native_shape) else {
        return attach_output(node, out).map(drop);
    };
    let floating = is_differentiable(&state.dtype(py)?)?;
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
