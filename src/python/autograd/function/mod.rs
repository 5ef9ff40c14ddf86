//! `Function.apply` in Rust: one call records a custom Function's node.
//!
//! Note [Function.apply in Rust]: `MyFn.apply` is `MyFn._apply_spec` (a
//! `_FunctionSpec`, stored as the class's `apply`: See Note [apply on each
//! class]), and calling it runs `_function_apply(spec, args)`; the rare cases
//! (keyword arguments, missing defaulted inputs, forward-mode AD) go to
//! Python's `_apply_general`. Here, without a Python frame of ours
//! (`autograd/function/apply.rs`): collect one edge per argument, allocate the ctx
//! (the node, torch's `BackwardCFunction`) with its fields set in one go,
//! run the user's `forward` (and `setup_context`) with the autograd keys
//! excluded, and record the outputs on the node (`autograd/function/outputs.rs`, See
//! Note [Function outputs in Rust]); `mark_dirty` and outputs that are not
//! plain tensors go to Python's `_record_outputs`, which owns those rules.
//! The ctx methods are Rust methods of the node (See Note [Ctx fields in
//! Rust] in `autograd/node/ctx.rs`). The engine runs the backward from Rust
//! (`autograd/function/backward.rs`).
//!
//! Note [register_autograd in Rust]: the Autograd kernel `register_autograd`
//! installs for a schema with positional arguments only is a `_FunctionSpec`
//! in "op mode" (`op` set): its forward calls the operator below autograd
//! with the inputs (no ctx), checks the outputs' aliasing when the op asks
//! for it (once: the custom op's call site then skips its own check), and
//! calls `setup_context(ctx, inputs, output)` with the schema defaults of
//! arguments not passed filled back in; its backward calls the user's
//! function and takes a lone gradient for a one-input node as a 1-tuple.
//! Any other result (one gradient per schema input, wrong counts, lists)
//! goes to Python's `unflatten_grads`, which owns those rules and messages.
//! The Python wrappers `_plain_forward`/`_make_backward` stay for the
//! general path (forward-mode AD) and direct calls of the node.

pub mod apply;
pub mod backward;
pub mod outputs;

use crate::python::ffi::type_slots::SubclassOf;
use crate::python::ffi::vectorcall::{self, vectorcall_entry, VectorcallSlot};
use crate::python::hooks::hooks;
use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};
use pyo3::{PyTraverseError, PyVisit};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::dispatch::tls;
use crate::dispatch::{DispatchKey, DispatchKeySet};
pub use crate::python::autograd::function::apply::_function_apply;
pub use crate::python::autograd::function::backward::apply_node;
use crate::python::autograd::node::PyNodeBase;

/// Whether a forward-AD level is active (process-wide, as `forward_ad._state.level`).
static FORWARD_AD: AtomicBool = AtomicBool::new(false);

/// `forward_ad` says when a dual level starts and ends.
#[pyfunction]
pub fn _set_forward_ad_active(active: bool) {
    FORWARD_AD.store(active, Ordering::Relaxed);
}

/// Whether a forward-AD level is active: kernels called from Rust then take
/// their general Python path.
#[inline]
pub fn forward_ad_active() -> bool {
    FORWARD_AD.load(Ordering::Relaxed)
}

/// Whether an `opyard.func` transform runs on this thread: a `vmap` includes
/// `VmapMode` and a `grad`/`jvp` call `ADInplaceOrView` in the thread's keys
/// for its duration (See Note [Transform levels] in
/// `opyard/autograd/transform_levels.py`), so the test is one TLS read; `apply`
/// then takes the general path, which applies torch's rules for a `Function`
/// under transforms.
#[inline]
fn transform_active() -> bool {
    const MARKS: DispatchKeySet =
        DispatchKeySet::from_key(DispatchKey::VmapMode).add(DispatchKey::ADInplaceOrView);
    tls::get().included.has_any(MARKS)
}

/// What `apply` needs of one `Function` subclass, computed at class creation.
/// Calling it is `cls.apply(*args, **kwargs)` without a Python frame: the
/// Autograd kernel `register_autograd` installs is this object.
#[pyclass(name = "_FunctionSpec", module = "opyard._core", frozen)]
pub struct PyFunctionSpec {
    cls: PyObject,
    /// The node class, `<Name>Backward` (a subclass of `NodeBase`).
    pub backward_cls: SubclassOf<PyNodeBase>,
    pub forward: PyObject,
    /// `setup_context` when the class defines it (then forward takes no ctx).
    pub setup_context: Option<PyObject>,
    /// Calls with fewer arguments get forward's defaults (the general path).
    fill_defaults_below: usize,
    /// How registration listings name this callable.
    qualname: String,
    /// `backward` (or `vjp`), run by the engine (`apply_node`); the user's
    /// own function in op mode.
    pub backward: PyObject,
    /// Op mode (See Note [register_autograd in Rust]).
    pub op: Option<OpCall>,
    /// How CPython calls it once its first call enabled it. See Note [Vectorcall entries] in
    /// `ffi/vectorcall.rs`.
    vectorcall: VectorcallSlot,
}

vectorcall_entry!(
    /// `MyFn.apply(x)` by vectorcall: no argument tuple from `_PyObject_MakeTpCall`.
    spec_vectorcall,
    PyFunctionSpec,
    |_py, slf, args, kwargs| call(slf, args, kwargs)
);

/// What a `register_autograd` kernel's forward and backward need of the op.
pub struct OpCall {
    /// The `OpOverload`, called below autograd with the node's inputs.
    pub overload: PyObject,
    /// `check(args, kwargs, out)`: raises the op's aliasing error (called
    /// when the Rust walk found an output aliasing an input).
    pub check: Option<PyObject>,
    /// The user's `setup_context(ctx, inputs, output)`.
    pub setup: Option<PyObject>,
    /// The schema defaults of the positional arguments, for `setup_context`.
    pub defaults: Py<PyTuple>,
    /// `unflatten(result, n_inputs)`: the general gradient rules and messages.
    pub unflatten: PyObject,
}

#[pymethods]
impl PyFunctionSpec {
    /// Op mode (`op` given) needs `op_defaults` and `op_unflatten`.
    #[new]
    #[pyo3(signature = (cls, backward_cls, forward, setup_context, fill_defaults_below, qualname,
                        backward, *, op=None, op_check=None, op_setup=None, op_defaults=None,
                        op_unflatten=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        cls: PyObject,
        backward_cls: &Bound<'_, PyType>,
        forward: PyObject,
        setup_context: Option<PyObject>,
        fill_defaults_below: usize,
        qualname: String,
        backward: PyObject,
        op: Option<PyObject>,
        op_check: Option<PyObject>,
        op_setup: Option<PyObject>,
        op_defaults: Option<Py<PyTuple>>,
        op_unflatten: Option<PyObject>,
    ) -> PyResult<Self> {
        let backward_cls = SubclassOf::<PyNodeBase>::new(backward_cls.clone()).map_err(|_| {
            PyTypeError::new_err(format!(
                "_FunctionSpec: backward_cls must be a subclass of NodeBase, got {}",
                crate::python::errors::quote(backward_cls.as_any())
            ))
        })?;
        let op = match (op, op_defaults, op_unflatten) {
            (None, _, _) => None,
            (Some(overload), Some(defaults), Some(unflatten)) => Some(OpCall {
                overload,
                check: op_check,
                setup: op_setup,
                defaults,
                unflatten,
            }),
            _ => {
                return Err(PyTypeError::new_err(
                    "_FunctionSpec: op mode needs op_defaults and op_unflatten",
                ))
            }
        };
        Ok(PyFunctionSpec {
            cls,
            backward_cls,
            forward,
            setup_context,
            fill_defaults_below,
            qualname,
            backward,
            op,
            vectorcall: VectorcallSlot::new(spec_vectorcall),
        })
    }

    #[getter]
    fn __qualname__(&self) -> &str {
        &self.qualname
    }

    #[getter]
    fn __name__(&self) -> &str {
        &self.qualname
    }

    /// `MyFn.apply` (See Note [apply on each class]): this spec when looked
    /// up through its own class, else (a subclass, `super().apply`) the spec
    /// of the class the lookup started from.
    fn __get__<'py>(
        slf: &Bound<'py, Self>,
        obj: Option<&Bound<'py, PyAny>>,
        objtype: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let cls = owner(obj, objtype)?;
        if cls.is(slf.get().cls.bind(slf.py())) {
            return Ok(slf.clone().into_any());
        }
        spec_of(&cls)
    }

    /// `cls.apply(*args, **kwargs)` (also the type's raw `tp_call`, see [`install_call_slot`]).
    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(
        slf: &Bound<'_, Self>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        call(slf, args, kwargs)
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.cls)?;
        visit.call(self.backward_cls.as_py())?;
        visit.call(&self.forward)?;
        visit.call(&self.backward)?;
        if let Some(s) = &self.setup_context {
            visit.call(s)?;
        }
        if let Some(op) = &self.op {
            visit.call(&op.overload)?;
            visit.call(&op.defaults)?;
            visit.call(&op.unflatten)?;
            for o in [&op.check, &op.setup].into_iter().flatten() {
                visit.call(o)?;
            }
        }
        Ok(())
    }
}

/// The body of `apply(*args, **kwargs)`: the general path for keywords,
/// missing defaulted inputs and forward-mode AD, else `_function_apply`. The
/// dispatcher calls a `register_autograd` kernel (this object) here directly.
pub(crate) fn call(
    slf: &Bound<'_, PyFunctionSpec>,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyObject> {
    let py = slf.py();
    let spec = slf.get();
    let general = kwargs.is_some_and(|k| !k.is_empty())
        || args.len() < spec.fill_defaults_below
        || FORWARD_AD.load(Ordering::Relaxed)
        || transform_active();
    if general {
        let kw = kwargs.map_or_else(|| PyDict::new_bound(py), |k| k.clone());
        return hooks(py)?
            .apply_general
            .get(py)?
            .call1(py, (&spec.cls, args, kw));
    }
    _function_apply(py, slf, args)
}

crate::python::ffi::call_slot::raw_call_slot!(
/// `MyFn.apply(x)` and the dispatcher's call of a `register_autograd` kernel
/// reach `_FunctionSpec` by `PyObject_Call(spec, args, kwargs)`: pointing the
/// type's `tp_call` at a raw body skips PyO3's argument extraction (the
/// tuple is what `_function_apply` reads), as Note [Packet call slots]. The first call
/// lets CPython call the type's instances through their vectorcall entry from then on.
install_call_slot, PyFunctionSpec, method_descriptor = false,
|_py, slf, args, kwargs| {
    vectorcall::enable(slf, &slf.get().vectorcall)?;
    call(slf, args, kwargs)
});

/// Note [apply on each class]: `Function.__init_subclass__` stores the new
/// class's spec as its own `apply` (unless a class on the way defines its
/// own `apply`), so `MyFn.apply` is one dict hit and a pointer compare in
/// the spec's `__get__`; `Function` itself keeps `_ApplyDescriptor` for
/// classes that define their own `apply` and call `super().apply`.
///
/// `Function.apply`: a descriptor whose class access returns the class's
/// `_FunctionSpec` (itself callable as `apply`), so that `MyFn.apply(x)` runs
/// no Python frame of ours. Through `super().apply` in a user's own `apply`
/// classmethod it returns the spec of the class the call started from, as a
/// classmethod would bind that class.
#[pyclass(name = "_ApplyDescriptor", module = "opyard._core", frozen)]
pub struct PyApplyDescriptor;

#[pymethods]
impl PyApplyDescriptor {
    #[new]
    fn new() -> Self {
        PyApplyDescriptor
    }

    fn __get__<'py>(
        &self,
        obj: Option<&Bound<'py, PyAny>>,
        objtype: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        spec_of(&owner(obj, objtype)?)
    }
}

/// The class a descriptor lookup started from.
fn owner<'py>(
    obj: Option<&Bound<'py, PyAny>>,
    objtype: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    match (objtype, obj) {
        (Some(t), _) if !t.is_none() => Ok(t.clone()),
        (_, Some(o)) => Ok(o.get_type().into_any()),
        _ => Err(PyTypeError::new_err("__get__(None, None) is invalid")),
    }
}

/// `cls._apply_spec`, or torch's kind of error for a class without one.
fn spec_of<'py>(cls: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    cls.getattr(intern!(cls.py(), "_apply_spec")).map_err(|_| {
        pyo3::exceptions::PyAttributeError::new_err(format!(
            "{} has no apply: only subclasses of autograd.Function do",
            cls
        ))
    })
}
