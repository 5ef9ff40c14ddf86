//! `Tensor.backward` as a method written in Rust.
//!
//! Note [Backward entry in Rust]: `loss.backward()` (no gradient given, no
//! `inputs=`, no `create_graph`) on a plain `opyard.Tensor` that requires
//! grad, is floating point and holds one element is the call nearly every
//! training step makes. This method does that case without a Python frame:
//! the checks (read from the tensor's fields and its array header), the
//! no-grad state of the pass (the autograd keys excluded, restored after,
//! as `_no_grad_guard` does), the root gradient `aten.ones_like` through the
//! dispatcher (Note [Root gradient through the dispatcher] in `engine.py`)
//! and the pass itself from one root edge. Every other call (any other
//! argument, an unknown keyword, a subclass, a tensor without numpy data
//! such as meta or fake ones, an integer or non-scalar tensor, one that does
//! not require grad) calls the Python `backward` of `tensor_methods.py` with
//! the same arguments, which keeps torch's checks and messages (so does a call
//! inside a function transform, which torch refuses). Subclasses
//! with `__torch_function__` reach this method through the routing
//! `opyard.overrides` installs on them, as they reached the Python method.
//!
//! The method is a CPython method descriptor (`METH_FASTCALL |
//! METH_KEYWORDS`) on `opyard.Tensor`: `t.backward(...)` calls it without a
//! bound-method object and without PyO3's argument parsing.

use crate::python::tensor::base::AsTensorBase;
use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyType};
use std::ffi::CStr;

use crate::dispatch::tls::{self, LocalKeySets};
use crate::dispatch::{DispatchKey, DispatchKeySet};
use crate::python::ffi::fastcall::{fastcall_with_keywords, method_descriptor, FastCall};
use crate::python::ffi::ndarray::ArrayView;
use crate::python::hooks::{hooks, Hooks};
use crate::python::tensor::base::PyTensorBase;

/// How many parameters follow `self` (`param_index` names them, in order).
const PARAMS: usize = 4;

const DOC: &CStr =
    c"backward($self, /, gradient=None, retain_graph=None, create_graph=False, inputs=None)
--

Accumulate the gradient of this tensor w.r.t. the graph leaves into their ``.grad``.

Example::

    >>> x = opyard.ones(2, requires_grad=True)
    >>> (x * 3).sum().backward()
    >>> x.grad
    tensor([3., 3.])
";

/// Makes the `backward` method descriptor of `tensor` (`opyard.Tensor`).
/// Every call it does not serve goes to its general path, `Hooks::backward`;
/// the root gradient is `Hooks::ones_like_default`.
#[pyfunction]
pub fn _backward_method<'py>(tensor: &Bound<'py, PyType>) -> PyResult<Bound<'py, PyAny>> {
    if !tensor.is_subclass_of::<PyTensorBase>()? {
        return Err(PyTypeError::new_err(
            "_backward_method expects opyard.Tensor (a subclass of TensorBase)",
        ));
    }
    method_descriptor(tensor, c"backward", DOC, backward_method)
}

fastcall_with_keywords!(
    /// The call as CPython makes it (`self`, then positional values, then one
    /// value per keyword name), behind PyO3's trampoline rather than a bare
    /// slot wrapper: it tells PyO3 the GIL is held, so the references this
    /// call drops are released at once, not deferred to PyO3's pool (a
    /// deferred release would leave the engine's gradients with an extra
    /// reference, and `.grad` a copy instead of the stolen gradient).
    backward_method,
    |call| run(&call)
);

fn run<'py>(call: &FastCall<'_, 'py>) -> PyResult<Bound<'py, PyAny>> {
    let entry = hooks(call.py)?;
    match fast_case(call, entry)? {
        Some(retain) => {
            scalar_backward(call.py, entry, &call.slf, retain)?;
            Ok(call.py.None().into_bound(call.py))
        }
        // The general path, with this call's arguments.
        None => call.forward_with_self(entry.backward.bind(call.py)),
    }
}

/// `Some(retain_graph)` when this call is `backward()` of the fast case
/// (Note [Backward entry in Rust]), `None` otherwise.
fn fast_case<'py>(call: &FastCall<'_, 'py>, entry: &Hooks) -> PyResult<Option<bool>> {
    let py = call.py;
    let mut given: [Option<Bound<'py, PyAny>>; PARAMS] = Default::default();
    if call.nargs > PARAMS {
        return Ok(None);
    }
    for (i, v) in call.values.iter().enumerate() {
        let slot = if i < call.nargs {
            i
        } else {
            let Some(names) = &call.kwnames else {
                return Ok(None);
            };
            let name = names.get_item(i - call.nargs)?;
            let Some(p) = param_index(py, &name) else {
                return Ok(None); // an unknown keyword: Python's TypeError
            };
            p
        };
        if given[slot].replace((**v).clone()).is_some() {
            return Ok(None); // given twice: Python's TypeError
        }
    }
    let [gradient, retain_graph, create_graph, inputs] = given;
    let none_or_false =
        |v: &Option<Bound<'py, PyAny>>| v.as_ref().is_none_or(|v| v.is_none() || is_false(v));
    if gradient.as_ref().is_some_and(|g| !g.is_none())
        || inputs.as_ref().is_some_and(|i| !i.is_none())
        || !none_or_false(&create_graph)
        || in_transform()
        || !is_scalar_root(py, entry, &call.slf)
    {
        return Ok(None);
    }
    match retain_graph {
        None => Ok(Some(false)),
        Some(r) => Ok(Some(r.is_truthy()?)),
    }
}

/// Whether a function transform runs on this thread: `vmap` includes `VmapMode`, `grad`/`jvp`
/// `ADInplaceOrView` (Note [Transform levels] in `transform_levels.py`). The general path then
/// answers, with torch's refusal of `backward()` inside a transform.
fn in_transform() -> bool {
    let included = tls::get().included;
    included.has(DispatchKey::VmapMode) || included.has(DispatchKey::ADInplaceOrView)
}

/// Which of `PARAMS` keyword `name` is: compared by identity with the
/// interned names first (keywords in source code are interned), by value
/// otherwise.
fn param_index(py: Python<'_>, name: &Bound<'_, PyAny>) -> Option<usize> {
    let interned = [
        intern!(py, "gradient"),
        intern!(py, "retain_graph"),
        intern!(py, "create_graph"),
        intern!(py, "inputs"),
    ];
    interned
        .iter()
        .position(|p| name.is(*p))
        .or_else(|| interned.iter().position(|p| name.eq(*p).unwrap_or(false)))
}

fn is_false(v: &Bound<'_, PyAny>) -> bool {
    v.downcast_exact::<PyBool>().is_ok_and(|b| !b.is_true())
}

/// Whether `t` is the fast case's root: an exact `opyard.Tensor` that
/// requires grad, with a one-element floating-point numpy array.
fn is_scalar_root(py: Python<'_>, entry: &Hooks, t: &Bound<'_, PyAny>) -> bool {
    let Some(base) = entry.tensor.downcast_exact(t) else {
        return false;
    };
    let base = base.get();
    if base.keys() & crate::python::autograd::record::autograd_mask() == 0 {
        return false;
    }
    let Some(data) = base.data(py) else {
        return false;
    };
    ArrayView::of(&data)
        .is_some_and(|a| a.dims().iter().product::<isize>() == 1 && a.is_float_kind())
}

/// `backward()` of the fast case: the root gradient and the pass with the
/// autograd keys excluded (Note [Backward entry in Rust]).
fn scalar_backward(
    py: Python<'_>,
    entry: &Hooks,
    t: &Bound<'_, PyAny>,
    retain_graph: bool,
) -> PyResult<()> {
    let ag = DispatchKeySet::AUTOGRAD_KEYS;
    let cur = tls::get();
    let _restore = RestoreKeys(tls::replace(LocalKeySets {
        included: cur.included - ag,
        excluded: cur.excluded | ag,
    }));
    run_scalar(py, entry, t, retain_graph)
}

/// Puts back the thread's key sets when the pass ends, whether it returned,
/// raised or panicked (as `_no_grad_guard`'s `__exit__` does).
struct RestoreKeys(LocalKeySets);

impl Drop for RestoreKeys {
    fn drop(&mut self) {
        tls::replace(self.0);
    }
}

fn run_scalar(py: Python<'_>, entry: &Hooks, t: &Bound<'_, PyAny>, retain: bool) -> PyResult<()> {
    let root =
        crate::python::autograd::accumulate::call_op(entry.ones_like_default(py)?.bind(py), (t,))?;
    let this = t.to_tensor_base()?;
    let base = this.get();
    let (node, nr) = match crate::python::autograd::view_history::grad_fn(this)? {
        Some(f) => (f, base.output_nr(py)?),
        None => match crate::python::autograd::record::_grad_accumulator(t)? {
            Some(acc) => (acc, 0),
            // A view made in no_grad mode: it requires grad, but nothing receives its gradient.
            None => {
                return Err(pyo3::exceptions::PyRuntimeError::new_err(
                    "element 0 of tensors does not require grad and does not have a grad_fn",
                ))
            }
        },
    };
    crate::python::autograd::engine::run_from_root(py, node, nr, root, retain)
}
