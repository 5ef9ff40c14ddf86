//! A built-in op's output made output 0 of its new node, from Rust.
//!
//! `record::attach_output` reads the output's `dtype`, `dtype.is_floating_point`
//! and `shape` as Python attributes (a subclass may override them). A plain
//! CPU tensor's are those of its numpy array, so for one the sizes are read
//! from the array and whether its dtype is floating point is remembered per
//! dtype object: no `Size` or attribute lookup per call. Anything else goes
//! through `attach_output`.
//!
//! Note [Complex outputs]: torch differentiates complex results too (the
//! gradient of a complex tensor is its conjugate Wirtinger derivative). A
//! built-in op's complex result gets a history only when its formula says it
//! computes that derivative (`Formula(complex=True)`): a formula written for
//! real numbers would give a complex input a wrong gradient, where without a
//! history `backward` refuses the output.

use pyo3::intern;
use pyo3::prelude::*;

use crate::python::autograd::node::shapes::one_native_shape;
use crate::python::autograd::node::PyNodeBase;
use crate::python::autograd::record::{attach_output, autograd_bit, autograd_mask};
use crate::python::kernels_py::plain_cpu_tensor;
use crate::python::tensor::dtype_flags::DtypeFlags;

/// Whether a dtype is floating point, per dtype object.
static FLOATING: DtypeFlags = DtypeFlags::new();

/// Whether `dtype` is floating point (its `is_floating_point`).
fn is_floating(dtype: &Bound<'_, PyAny>) -> PyResult<bool> {
    FLOATING.get(dtype, |d| {
        d.getattr(intern!(d.py(), "is_floating_point"))?.is_truthy()
    })
}

/// Makes `out` output 0 of the fresh `node` (as `attach_output(node, out, complex)`).
pub fn attach(node: &Bound<'_, PyNodeBase>, out: &Bound<'_, PyAny>, complex: bool) -> PyResult<()> {
    let py = out.py();
    let Some(state) = plain_cpu_tensor(out) else {
        return attach_output(node, out, complex).map(drop);
    };
    let Some(shapes) = state.with_dims(py, one_native_shape) else {
        return attach_output(node, out, complex).map(drop);
    };
    if complex {
        return attach_output(node, out, true).map(drop);
    }
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
