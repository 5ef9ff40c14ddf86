//! The backward of a `Function` node, run by the engine (See Note
//! [Function.apply in Rust] in `autograd/function/mod.rs`): materialize the gradients of
//! unused outputs, call the user's backward, check what it returned.

use crate::python::ffi::object::vectorcall;
use crate::python::tensor::base::AsTensorBase;
use pyo3::exceptions::PyRuntimeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use smallvec::SmallVec;

use crate::python::autograd::function::PyFunctionSpec;
use crate::python::autograd::node::PyNodeBase;
use crate::python::hooks::hooks;

/// What the engine needs of the node before calling backward.
struct Pending {
    spec: Py<PyFunctionSpec>,
    materialize: bool,
    /// The outputs' dtypes, when some gradient may need materializing.
    dtypes: SmallVec<[Option<PyObject>; 2]>,
}

fn pending(node: &Bound<'_, PyNodeBase>, grads: &[Option<PyObject>]) -> PyResult<Pending> {
    let py = node.py();
    let (spec, materialize, many, one) = {
        let n = node.borrow();
        let x = n.extras();
        let spec = x.and_then(|x| x.function.as_ref()).map(|s| s.clone_ref(py));
        let materialize = n.materialize_grads && grads.iter().any(Option::is_none);
        let pick = |o: &Option<PyObject>| o.as_ref().map(|d| d.clone_ref(py));
        let many = x.and_then(|x| pick(&x.out_dtypes));
        let one = x.and_then(|x| pick(&x.out_dtype));
        (spec, materialize, many, one)
    };
    let spec = spec.ok_or_else(|| {
        PyRuntimeError::new_err("a Function node was recorded without its backward")
    })?;
    let mut dtypes = SmallVec::new();
    if materialize {
        // The tuple of one dtype is made after the borrow ends (an allocation may run the GC).
        match (many, one) {
            (Some(d), _) => dtypes.push(Some(d)),
            (None, Some(d)) => dtypes.push(Some(PyTuple::new_bound(py, [d]).into_any().unbind())),
            (None, None) => {}
        }
    }
    Ok(Pending {
        spec,
        materialize,
        dtypes,
    })
}

/// Fills each missing gradient of a tensor output with zeros of its shape.
fn materialize(
    node: &Bound<'_, PyNodeBase>,
    dtypes: &Bound<'_, PyAny>,
    grads: &mut [Option<PyObject>],
) -> PyResult<()> {
    let py = node.py();
    let zeros = &hooks(py)?.zeros;
    let shapes = node.getattr(intern!(py, "_out_shapes"))?;
    for (i, g) in grads.iter_mut().enumerate() {
        // A non-tensor output (dtype None) has no gradient: backward gets None, as torch.
        let dt = dtypes.get_item(i)?;
        if g.is_none() && !dt.is_none() {
            *g = Some(zeros.call1(py, (shapes.get_item(i)?, dt))?);
        }
    }
    Ok(())
}

/// `backward(node, *grads)` by vectorcall (no argument tuple).
fn call_backward<'py>(
    backward: &Bound<'py, PyAny>,
    node: &Bound<'py, PyNodeBase>,
    grads: &[Option<PyObject>],
) -> PyResult<Bound<'py, PyAny>> {
    let py = node.py();
    let none = py.None();
    let rest = grads
        .iter()
        .map(|g| g.as_ref().unwrap_or(&none).bind_borrowed(py));
    vectorcall(
        backward,
        std::iter::once(node.as_any().as_borrowed()).chain(rest),
    )
}

/// A `register_autograd` backward's result as one gradient per input (See
/// Note [register_autograd in Rust]): a tuple of plain gradients of the
/// right length as it is, a lone gradient of a one-input node as a 1-tuple,
/// anything else through `unflatten_grads` (which raises torch's messages).
fn normalize_op_result<'py>(
    unflatten: &Bound<'py, PyAny>,
    result: Bound<'py, PyAny>,
    n_inputs: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let nested =
        |g: &Bound<'_, PyAny>| g.is_instance_of::<PyTuple>() || g.is_instance_of::<PyList>();
    if let Ok(t) = result.downcast::<PyTuple>() {
        if t.len() == n_inputs && !t.iter().any(|g| nested(&g)) {
            return Ok(result);
        }
    } else if n_inputs == 1 && !result.is_instance_of::<PyList>() {
        return Ok(PyTuple::new_bound(result.py(), [result]).into_any());
    }
    unflatten.call1((result, n_inputs))
}

/// The backward of a `Function` node, run by the engine (Python's
/// `BackwardCFunction.apply`, which direct calls of the node still use):
/// materialize the gradients of unused outputs, call the user's backward,
/// check what it returned (count, types, no gradient for a non-tensor input).
pub fn apply_node(
    node: &Bound<'_, PyNodeBase>,
    mut grads: Vec<Option<PyObject>>,
) -> PyResult<Vec<Option<PyObject>>> {
    let py = node.py();
    let p = pending(node, &grads)?;
    if p.materialize {
        if let Some(Some(dtypes)) = p.dtypes.first() {
            materialize(node, dtypes.bind(py), &mut grads)?;
        }
    }
    let spec = p.spec.bind(py).get();
    let mut result = call_backward(spec.backward.bind(py), node, &grads)?;
    drop(grads);
    if let Some(op) = &spec.op {
        let n_inputs = node.borrow().extras().map_or(0, |x| x.n_inputs);
        result = normalize_op_result(op.unflatten.bind(py), result, n_inputs)?;
    }
    check_result(node, &result)
}

/// Checks the gradients backward returned: one per edge (extra trailing
/// Nones dropped), each a tensor or None, None for a non-tensor input.
fn check_result(
    node: &Bound<'_, PyNodeBase>,
    result: &Bound<'_, PyAny>,
) -> PyResult<Vec<Option<PyObject>>> {
    let mut items: Vec<Bound<'_, PyAny>> = match result.downcast::<PyTuple>() {
        Ok(t) => t.iter().collect(),
        Err(_) => vec![result.clone()],
    };
    let non_tensor: SmallVec<[bool; 4]> = node
        .borrow()
        .next
        .iter()
        .map(|e| e.node.is_none() && e.nr == -1)
        .collect();
    let n = non_tensor.len();
    if items.len() != n {
        if items.len() > n && items[n..].iter().all(|g| g.is_none()) {
            items.truncate(n);
        } else {
            return Err(PyRuntimeError::new_err(format!(
                "function {} returned an incorrect number of gradients (expected {n}, got {})",
                node_name(node),
                items.len()
            )));
        }
    }
    for (i, g) in items.iter().enumerate() {
        if g.is_none() {
            continue;
        }
        if !g.is_tensor_base() {
            // torch's text is the tail ("expected Variable or None (got int)"); the head says where.
            return Err(PyRuntimeError::new_err(format!(
                "function {} returned an invalid gradient at position {}: expected Variable or \
                 None (got {})",
                node_name(node),
                i + 1,
                g.get_type().name()?
            )));
        }
        if non_tensor[i] {
            return Err(PyRuntimeError::new_err(format!(
                "function {} returned a gradient different than None at position {}, but the \
                 corresponding forward input was not a Variable",
                node_name(node),
                i + 1
            )));
        }
    }
    Ok(items
        .into_iter()
        .map(|g| (!g.is_none()).then(|| g.unbind()))
        .collect())
}

/// The node's `name()` (e.g. `MyFnBackward`), for messages.
pub fn node_name(node: &Bound<'_, PyNodeBase>) -> String {
    node.call_method0(intern!(node.py(), "name"))
        .and_then(|n| n.extract::<String>())
        .unwrap_or_else(|_| node.get_type().to_string())
}
