//! `CustomOpBase`: the Rust base of `opyard.library.CustomOpDef`, whose call
//! goes straight to the operator's call path and checks the outputs after it.
//!
//! Note [Custom op call]: Python looks `__call__` up on the type, so the call
//! lives on this base class: calling a custom op binds, dispatches and runs
//! the kernel with no Python frame of ours in between, then runs the output
//! check its schema asks for (see Note [Custom op aliasing] in
//! `_library/custom_op.py`):
//! - `alias`: no output is, or shares storage with, an input or another
//!   output (storage = a view's `_base`, else the tensor);
//! - `inplace`: the op returns its first argument;
//! - `out`: the op returns its mutable keyword-only arguments.
//!
//! The autograd kernel `register_autograd` installs checks its forward's
//! outputs itself (calls through `opyard.ops` need that too), so when that
//! kernel is what ran, the call site does not check a second time.

use crate::python::dispatch::operator::PyOpOverload;
use crate::python::ffi::vectorcall::{self, vectorcall_entry, VectorcallSlot};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// The check a custom op's outputs get after its kernel. See Note [Custom op call].
enum OutputCheck {
    None,
    Alias,
    Inplace,
    Out(Vec<Py<PyString>>),
}

/// What a call needs, set once when the op is defined.
struct CallPlan {
    op: Py<PyOpOverload>,
    check: OutputCheck,
    /// `on_error(op_def, kind)` raises the error for a failed check (`kind`
    /// is "alias", "inplace" or "out"): its message is the Python layer's.
    on_error: PyObject,
}

/// Base class of `CustomOpDef`. See Note [Custom op call].
#[pyclass(name = "CustomOpBase", module = "opyard._core", subclass, frozen)]
pub struct PyCustomOpBase {
    plan: OnceLock<CallPlan>,
    /// The autograd kernel from `register_autograd` checks the outputs itself.
    autograd_checks: AtomicBool,
    /// How CPython calls it when its class keeps this `__call__`. See Note [Vectorcall entries]
    /// in `ffi/vectorcall.rs`.
    vectorcall: VectorcallSlot,
}

vectorcall_entry!(
    /// A custom op's vectorcall entry: the body of its `tp_call`, without the argument
    /// tuple CPython builds for a `tp_call` (Note [Reused argument tuples]).
    custom_op_vectorcall,
    PyCustomOpBase,
    |_py, slf, args, kwargs| PyCustomOpBase::call(slf, args, kwargs)
);

#[pymethods]
impl PyCustomOpBase {
    /// Accepts (and ignores) the subclass's constructor arguments.
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(_args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, PyDict>>) -> Self {
        PyCustomOpBase {
            plan: OnceLock::new(),
            autograd_checks: AtomicBool::new(false),
            vectorcall: VectorcallSlot::new(custom_op_vectorcall),
        }
    }

    /// Set the operator a call runs and the check of its outputs: `check` is
    /// "none", "alias", "inplace" or "out" (with `out_names`, the mutable
    /// keyword-only arguments the op returns). Once per object. An object whose
    /// class keeps this `__call__` is then called through its vectorcall entry.
    #[pyo3(signature = (op, check, out_names, on_error))]
    fn _set_call_plan(
        slf: &Bound<'_, Self>,
        op: Py<PyOpOverload>,
        check: &str,
        out_names: Vec<Py<PyString>>,
        on_error: PyObject,
    ) -> PyResult<()> {
        let check = match check {
            "none" => OutputCheck::None,
            "alias" => OutputCheck::Alias,
            "inplace" => OutputCheck::Inplace,
            "out" => OutputCheck::Out(out_names),
            other => {
                return Err(PyRuntimeError::new_err(format!(
                    "CustomOpBase._set_call_plan: unknown output check '{}' (expected 'none', \
                     'alias', 'inplace' or 'out')",
                    crate::python::errors::clip(other)
                )))
            }
        };
        let plan = CallPlan {
            op,
            check,
            on_error,
        };
        // A refused plan is dropped here, outside any lock.
        slf.get().plan.set(plan).map_err(|_| {
            PyRuntimeError::new_err("CustomOpBase._set_call_plan: the call plan is already set")
        })?;
        // A class that defines its own `__call__` keeps it: only this one's is bypassed.
        let py = slf.py();
        let name = pyo3::intern!(py, "__call__");
        let ours = py.get_type_bound::<PyCustomOpBase>().getattr(name)?;
        if slf.get_type().getattr(name)?.is(&ours) {
            vectorcall::enable(slf, &slf.get().vectorcall)?;
        }
        Ok(())
    }

    /// A subclass that keeps this `__call__` (`CustomOpDef`) calls it through the raw
    /// `tp_call` too (see [`install_call_slot`]).
    #[classmethod]
    #[pyo3(signature = (**_kwargs))]
    fn __init_subclass__(
        cls: &Bound<'_, pyo3::types::PyType>,
        _kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        if _kwargs.is_some_and(|k| !k.is_empty()) {
            // What `object.__init_subclass__` says, which this one stands in for.
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "{}.__init_subclass__() takes no keyword arguments",
                cls.name()?
            )));
        }
        install_call_slot_on(cls)
    }

    /// Whether the autograd kernel checks the outputs (see Note [Custom op call]).
    fn _set_autograd_checks(&self, on: bool) {
        self.autograd_checks.store(on, Ordering::Relaxed);
    }

    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(
        slf: &Bound<'_, Self>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        Self::call(slf, args, kwargs)
    }
}

impl PyCustomOpBase {
    /// The body of `__call__` (also the type's raw `tp_call`, see [`install_call_slot`]).
    fn call(
        slf: &Bound<'_, Self>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        let py = slf.py();
        let this = slf.get();
        let plan = this.plan.get().ok_or_else(|| {
            PyRuntimeError::new_err(
                "this CustomOpDef has no operator: create custom ops with \
                 opyard.library.custom_op, not by instantiating CustomOpDef",
            )
        })?;
        let mut ran_at = None;
        let op = plan.op.bind(py);
        let out = PyOpOverload::call_reporting(op, args, kwargs, None, &mut ran_at)?;
        let failed = match &plan.check {
            OutputCheck::None => false,
            OutputCheck::Alias => {
                let checked = this.autograd_checks.load(Ordering::Relaxed)
                    && ran_at.is_some_and(|k| k.is_autograd());
                !checked && aliases(args, kwargs, out.bind(py))?
            }
            OutputCheck::Inplace => !args.get_item(0).is_ok_and(|a| a.is(&out)),
            OutputCheck::Out(names) => !returns_outs(names, kwargs, out.bind(py))?,
        };
        if failed {
            let kind = match plan.check {
                OutputCheck::Alias => "alias",
                OutputCheck::Inplace => "inplace",
                _ => "out",
            };
            plan.on_error.call1(py, (slf, kind))?;
            return Err(PyRuntimeError::new_err(format!(
                "the output check '{kind}' of a custom op failed"
            )));
        }
        Ok(out)
    }
}

crate::python::ffi::call_slot::raw_call_slot!(
    /// A custom op is called with the argument tuple and keyword dict CPython
    /// built, without PyO3's argument extraction (Note [Packet call slots]);
    /// `CustomOpDef`, the Python subclass, inherits the slot.
    install_call_slot, install_call_slot_on, PyCustomOpBase,
    |_py, slf, args, kwargs| PyCustomOpBase::call(slf, args, kwargs));

/// `_outputs_alias(args, kwargs, out)`: whether `out` (a tensor, or a list or
/// tuple of them) shares storage with a tensor in `args` (a tuple or list,
/// tensors directly inside nested lists counted) or `kwargs` (a dict or None),
/// or one output with another. The check the autograd kernel of
/// `register_autograd` runs on its forward's outputs, the same one the call
/// site runs (see Note [Custom op call]), without a Python frame per tensor.
#[pyfunction]
#[pyo3(signature = (args, kwargs, out))]
pub fn _outputs_alias(
    args: &Bound<'_, PyAny>,
    kwargs: Option<&Bound<'_, PyDict>>,
    out: &Bound<'_, PyAny>,
) -> PyResult<bool> {
    let owned;
    let args = match args.downcast::<PyTuple>() {
        Ok(t) => t,
        Err(_) => {
            // A regrouped argument list (Tensor[] inputs): the rare case pays for a tuple.
            owned = PyTuple::new_bound(args.py(), args.iter()?.collect::<PyResult<Vec<_>>>()?);
            &owned
        }
    };
    aliases(args, kwargs, out)
}

/// `v` if it is a tensor, else the tensors directly inside a list or tuple.
fn tensors<'py>(
    v: &Bound<'py, PyAny>,
    mut f: impl FnMut(&Bound<'py, PyAny>) -> PyResult<bool>,
) -> PyResult<bool> {
    if is_tensor(v) {
        return f(v);
    }
    let items = if let Ok(l) = v.downcast::<PyList>() {
        l.iter().collect::<Vec<_>>()
    } else if let Ok(t) = v.downcast::<PyTuple>() {
        t.iter().collect::<Vec<_>>()
    } else {
        return Ok(false);
    };
    for x in items.iter().filter(|x| is_tensor(x)) {
        if f(x)? {
            return Ok(true);
        }
    }
    Ok(false)
}

fn is_tensor(v: &Bound<'_, PyAny>) -> bool {
    v.downcast::<crate::python::tensor::base::PyTensorBase>()
        .is_ok()
}

/// What a tensor's data belongs to: its view base, else itself.
fn storage<'py>(t: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    // `_base` is the Rust slot (Note [Tensor slots]): read it without an attribute lookup.
    let base = match t.downcast::<crate::python::tensor::base::PyTensorBase>() {
        Ok(tb) => tb
            .get()
            .base(t.py())
            .unwrap_or_else(|| t.py().None().into_bound(t.py())),
        Err(_) => t.getattr(pyo3::intern!(t.py(), "_base"))?,
    };
    Ok(if base.is_none() { t.clone() } else { base })
}

/// torch's `check_aliasing_constraint`: some output shares storage with an
/// input or an earlier output. Allocates nothing for a single tensor output.
fn aliases(
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
    out: &Bound<'_, PyAny>,
) -> PyResult<bool> {
    if let Some(found) = aliases_plain(args, kwargs, out) {
        return Ok(found);
    }
    let shares_with_input = |so: &Bound<'_, PyAny>| -> PyResult<bool> {
        let hit = |a: &Bound<'_, PyAny>| -> PyResult<bool> { Ok(storage(a)?.is(so)) };
        for a in args.iter() {
            if tensors(&a, hit)? {
                return Ok(true);
            }
        }
        if let Some(kw) = kwargs {
            for (_, a) in kw.iter() {
                if tensors(&a, hit)? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    };
    if is_tensor(out) {
        return shares_with_input(&storage(out)?);
    }
    let mut earlier: Vec<Bound<'_, PyAny>> = Vec::new();
    tensors(out, |o| {
        let so = storage(o)?;
        if shares_with_input(&so)? || earlier.iter().any(|e| e.is(&so)) {
            return Ok(true);
        }
        earlier.push(so);
        Ok(false)
    })
}

/// [`aliases`] for the common call: one tensor output, no keywords, every
/// argument a tensor or a value holding none (not a list or tuple); storages
/// compared by address. `None` for any other call.
fn aliases_plain(
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
    out: &Bound<'_, PyAny>,
) -> Option<bool> {
    if kwargs.is_some_and(|k| !k.is_empty()) {
        return None;
    }
    let py = out.py();
    // An exact `Tensor` by one type comparison, any other by PyO3's subclass test.
    let exact = crate::python::hooks::installed(py).map(|h| &h.tensor);
    let address = |t: &Bound<'_, PyAny>| {
        let state = match exact.and_then(|ty| ty.downcast_exact(t)) {
            Some(tb) => tb.get(),
            None => t
                .downcast::<crate::python::tensor::base::PyTensorBase>()
                .ok()?
                .get(),
        };
        Some(state.storage_address(py, t.as_ptr() as usize))
    };
    let so = address(out)?;
    for a in args.iter() {
        match address(&a) {
            Some(sa) if sa == so => return Some(true),
            Some(_) => {}
            None if a.is_instance_of::<PyList>() || a.is_instance_of::<PyTuple>() => return None,
            None => {}
        }
    }
    Some(false)
}

/// An `out=` op returns its mutable keyword-only arguments: the one itself,
/// or a tuple of them in order.
fn returns_outs(
    names: &[Py<PyString>],
    kwargs: Option<&Bound<'_, PyDict>>,
    out: &Bound<'_, PyAny>,
) -> PyResult<bool> {
    let py = out.py();
    let given = |n: &Py<PyString>| -> PyResult<Option<Bound<'_, PyAny>>> {
        match kwargs {
            Some(kw) => kw.get_item(n.bind(py)),
            None => Ok(None),
        }
    };
    let same = |v: Option<Bound<'_, PyAny>>, o: &Bound<'_, PyAny>| match v {
        Some(v) => v.is(o),
        None => o.is_none(),
    };
    if let [name] = names {
        return Ok(same(given(name)?, out));
    }
    let Ok(t) = out.downcast::<PyTuple>() else {
        return Ok(false);
    };
    if t.len() != names.len() {
        return Ok(false);
    }
    for (n, o) in names.iter().zip(t.iter()) {
        if !same(given(n)?, &o) {
            return Ok(false);
        }
    }
    Ok(true)
}
