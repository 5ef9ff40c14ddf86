//! The ctx methods of a `Function`'s node (torch's `_FunctionBase`):
//! `save_for_backward`, `save_for_forward`, `mark_dirty`,
//! `mark_non_differentiable`, `set_materialize_grads`, `saved_tensors` and
//! `needs_input_grad`, as Rust code over the node's fields.
//!
//! Note [Ctx fields in Rust]: a ctx is the graph node (`<Name>Backward`, a
//! Python subclass of `NodeBase`), and what its methods record are fields of
//! the node (`Extras`), so `forward` calling `ctx.save_for_backward(x)` runs
//! no Python frame of ours and `_function_apply` reads the result without an
//! attribute lookup. The Python `FunctionCtx` keeps the same methods for a
//! ctx that is not a node. The messages are torch's.

use crate::python::tensor::base::AsTensorBase;
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use smallvec::SmallVec;

use crate::python::autograd::node::extras::Extras;
use crate::python::autograd::node::PyNodeBase;

/// Checks that every entry of `tensors` is a tensor or None; `what` names
/// the check in torch's words.
fn check_tensors(tensors: &Bound<'_, PyTuple>, what: &str) -> PyResult<()> {
    for (i, t) in tensors.iter().enumerate() {
        if !t.is_none() && !t.is_tensor_base() {
            let ty = t.get_type();
            let name = ty.name()?;
            return Err(PyTypeError::new_err(match what {
                "save_for_backward" => format!(
                    "save_for_backward can only save variables, but argument {i} is of type {name}"
                ),
                _ => format!(
                    "save_for_forward expects all arguments to be tensors or None, but argument \
                     {i} is of type {name}."
                ),
            }));
        }
    }
    Ok(())
}

/// Stores `value` in one ctx slot, dropping the old value after the borrow.
fn store(
    node: &Bound<'_, PyNodeBase>,
    value: &Bound<'_, PyTuple>,
    pick: fn(&mut Extras) -> &mut Option<PyObject>,
) {
    let value = Some(value.clone().into_any().unbind());
    let old = std::mem::replace(pick(node.borrow_mut().extras_mut()), value);
    drop(old);
}

/// `ctx.save_for_backward(*tensors)`.
pub fn save_for_backward(
    node: &Bound<'_, PyNodeBase>,
    tensors: &Bound<'_, PyTuple>,
) -> PyResult<()> {
    check_tensors(tensors, "save_for_backward")?;
    store(node, tensors, |x| &mut x.to_save);
    Ok(())
}

/// `ctx.save_for_forward(*tensors)`.
pub fn save_for_forward(
    node: &Bound<'_, PyNodeBase>,
    tensors: &Bound<'_, PyTuple>,
) -> PyResult<()> {
    check_tensors(tensors, "save_for_forward")?;
    store(node, tensors, |x| &mut x.saved_for_forward);
    Ok(())
}

/// `ctx.mark_dirty(*args)`: checked when the outputs are recorded.
pub fn mark_dirty(node: &Bound<'_, PyNodeBase>, args: &Bound<'_, PyTuple>) {
    store(node, args, |x| &mut x.dirty);
}

/// `ctx.mark_non_differentiable(*args)`.
pub fn mark_non_differentiable(node: &Bound<'_, PyNodeBase>, args: &Bound<'_, PyTuple>) {
    store(node, args, |x| &mut x.non_differentiable);
}

/// torch's "backward through the graph a second time" error (`Hooks::freed_message`).
fn freed_error(py: Python<'_>) -> PyErr {
    let msg = crate::python::hooks::installed(py)
        .map_or("Trying to backward through the graph a second time", |h| {
            &h.freed_message
        });
    PyRuntimeError::new_err(msg.to_string())
}

/// `ctx.saved_tensors`: inside forward/setup_context (nothing recorded yet)
/// what was given so far; after recording, each saved tensor checked for
/// in-place changes since (`SavedTensor.unpack` raises torch's message);
/// after a backward without `retain_graph`, torch's "second time" error.
pub fn saved_tensors<'py>(node: &Bound<'py, PyNodeBase>) -> PyResult<Bound<'py, PyTuple>> {
    let py = node.py();
    let (has_saved, released, items, given) = {
        let n = node.borrow();
        let given = n.extras().map(|x| {
            let pick = |o: &Option<PyObject>| o.as_ref().map(|o| o.clone_ref(py));
            (pick(&x.saved_for_forward), pick(&x.to_save))
        });
        let items: SmallVec<[PyObject; 2]> = n.saved.iter().map(|o| o.clone_ref(py)).collect();
        (n.has_saved, n.released, items, given)
    };
    if released {
        return Err(freed_error(py));
    }
    if !has_saved {
        // `saved_for_forward or to_save`, as `FunctionCtx.saved_tensors`.
        let (sff, to_save) = given.unwrap_or((None, None));
        let pick = match sff {
            Some(s) if s.bind(py).is_truthy()? => Some(s),
            _ => to_save,
        };
        return match pick {
            Some(p) => Ok(PyTuple::new_bound(
                py,
                p.bind(py).iter()?.collect::<PyResult<Vec<_>>>()?,
            )),
            None => Ok(PyTuple::empty_bound(py)),
        };
    }
    let mut out: SmallVec<[PyObject; 2]> = SmallVec::new();
    for s in items {
        out.push(unpack(s.bind(py))?);
    }
    Ok(PyTuple::new_bound(py, out))
}

/// One saved value: a `SavedTensor` whose tensor is unchanged is read
/// without its `unpack` frame; anything else asks `unpack` (which raises
/// torch's in-place message, or unpacks a hook-packed value).
fn unpack(s: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    let py = s.py();
    let is_saved_tensor = crate::python::autograd::record::saved_tensor_type(py)
        .is_some_and(|ty| s.get_type().is(ty.bind(py)));
    if is_saved_tensor {
        let t = s.getattr(intern!(py, "tensor"))?;
        if t.is_none() {
            return Ok(t.unbind());
        }
        if let Some(tb) = t.as_tensor_base() {
            let expected: u64 = s.getattr(intern!(py, "version"))?.extract()?;
            if tb.get().version(py) == expected {
                return Ok(t.unbind());
            }
        }
    }
    Ok(s.call_method1(intern!(py, "unpack"), (false,))?.unbind())
}

/// `ctx.needs_input_grad`: as set from Python, else (a ctx recorded by
/// `_function_apply`) one flag per input, True where it requires grad in
/// grad mode. The tuple is made after the borrow ends (an allocation may run
/// the GC).
pub fn needs_input_grad(node: &Bound<'_, PyNodeBase>) -> PyObject {
    let py = node.py();
    let flags: SmallVec<[bool; 8]> = {
        let n = node.borrow();
        let Some(x) = n.extras() else {
            return PyTuple::empty_bound(py).into_any().unbind();
        };
        if let Some(v) = &x.needs_input_grad {
            return v.clone_ref(py);
        }
        (0..x.n_inputs.min(64))
            .map(|i| x.needs_bits >> i & 1 == 1)
            .collect()
    };
    PyTuple::new_bound(py, flags).into_any().unbind()
}

/// `ctx._out_dtypes`: as set, else `(dtype,)` of the one recorded output.
pub fn out_dtypes(node: &Bound<'_, PyNodeBase>) -> PyObject {
    let py = node.py();
    let one = {
        let n = node.borrow();
        match n.extras() {
            Some(Extras {
                out_dtypes: Some(d),
                ..
            }) => return d.clone_ref(py),
            Some(Extras {
                out_dtype: Some(d), ..
            }) => Some(d.clone_ref(py)),
            _ => None,
        }
    };
    match one {
        Some(d) => PyTuple::new_bound(py, [d]).into_any().unbind(),
        None => PyTuple::empty_bound(py).into_any().unbind(),
    }
}
