//! Packets in the role of a Python binary operator (`Tensor.__add__`, ...).
//!
//! Note [Operator protocol]: Python's binary operators expect a method that
//! cannot handle the other operand's type to return `NotImplemented`, so that
//! the interpreter tries the other operand's reflected method
//! (`R.__radd__`) and, failing that, raises its own `TypeError: unsupported
//! operand type(s) for +: 'Tensor' and 'R'`. torch wraps its dunders to turn
//! a `TypeError` into `NotImplemented`. opyard's dunders are packets (see
//! Note [Packet call slots]): `Tensor.__add__` is an *operator form* of the
//! `aten::add` packet — the same operator, overloads and caches — which
//! differs from `opyard.add` in one way only: when no overload binds and the
//! binder blames the other operand's *type* (not its value, not a missing
//! or unknown argument) in every overload that accepted the tensor operand,
//! the call returns `NotImplemented` instead of raising `ArgumentError`.
//! - The decision is taken only after binding failed: the success path of
//!   `a + b` is the packet's own, and errors raised by kernels are never
//!   touched.
//! - It binds once more, quietly, to learn which parameter each overload
//!   blames (no message is formatted for a `NotImplemented`).
//! - An other operand whose type has the function protocol
//!   (`__torch_function__`) is no misfit to torch, which binds it where a
//!   tensor goes: the protocol runs, with the plain packet as `func` (torch
//!   passes `Tensor.add` for `a + b`). An override's result is returned; when
//!   every override declines — or the protocol raises a `TypeError`, which
//!   torch's wrapper catches — the answer is `NotImplemented`. Any other
//!   misfit returns `NotImplemented` without asking the protocol, as in
//!   torch (a tensor subclass's `__torch_function__` does not see it).
//! - `opyard.add(t, object())`, `t.add(object())` and
//!   `ops.aten.add(t, object())` are the plain packet: they raise as before.

use crate::python::dispatch::binder::{Failure, FailureAt, QuietBinding};
use crate::python::dispatch::function_protocol::{function_protocol, try_override};
use crate::python::dispatch::operator::{PyOpOverloadPacket, PyOperator};
use crate::python::kernels_py::wrap_result;
use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use std::sync::Arc;

/// What makes a packet object an operator form; see Note [Operator protocol].
pub struct OperatorForm {
    /// The plain packet of the same operator: what the function protocol
    /// receives as `func`, and what a failure that is not the other
    /// operand's reports.
    pub plain: Py<PyOpOverloadPacket>,
    /// The position of the other operand: 1 for `Tensor.__add__(self, other)`,
    /// 0 for a reflected helper calling `pow(other, self)`.
    pub other: usize,
}

/// `Tensor.__add__`-style form of `packet`: returns `NotImplemented` when
/// `other` (the argument at that position, 1 by default) has a type no
/// overload takes. See Note [Operator protocol].
#[pyfunction]
#[pyo3(signature = (packet, other=1))]
pub fn _operator_packet(
    packet: &Bound<'_, PyOpOverloadPacket>,
    other: usize,
) -> PyResult<Py<PyOpOverloadPacket>> {
    if other > 1 {
        return Err(PyValueError::new_err(format!(
            "_operator_packet: the other operand is argument 0 or 1 of a binary operator, got {other}"
        )));
    }
    let this = packet.get();
    // An operator form of an operator form is a form of its plain packet.
    let plain = match &this.operator {
        Some(form) => form.plain.clone_ref(packet.py()),
        None => packet.clone().unbind(),
    };
    let form = OperatorForm { plain, other };
    PyOpOverloadPacket::with_operator(this.packet.clone(), Some(form)).into_object(packet.py())
}

/// Binding failed with `err` and `form`'s packet is an operator: return
/// `NotImplemented` if the other operand's type is to blame, else what the
/// plain packet would (the function protocol, then `err`). `err` is built
/// only when it is raised.
pub(crate) fn binding_failed(
    form: &OperatorForm,
    overloads: &[Arc<PyOperator>],
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
    err: impl FnOnce() -> PyErr,
) -> PyResult<PyObject> {
    let py = args.py();
    let plain = form.plain.bind(py).as_any();
    if !other_misfits(overloads, args, kwargs, form.other) {
        return try_override(plain, args, kwargs, err());
    }
    if !takes_part(&args.get_item(form.other)?) {
        if let Some(out) = eq_with_ndarray(form, args, kwargs)? {
            return Ok(out);
        }
        return Ok(py.NotImplemented());
    }
    match function_protocol(plain, args, kwargs) {
        Ok(Some(out)) => Ok(out),
        Ok(None) => Ok(py.NotImplemented()),
        Err(e) if e.is_instance_of::<PyTypeError>(py) => Ok(py.NotImplemented()),
        Err(e) => Err(e),
    }
}

/// Note [ndarray operands of ==]: torch compares a tensor with a numpy array
/// of numbers elementwise (`t == nd` and `nd == t` give a bool tensor).
/// Neither opyard's binder (an ndarray is no Tensor) nor numpy (it defers to
/// the tensor's higher `__array_priority__`) would, and Python would fall
/// back to identity: `False`. So `==` takes such an array as a CPU tensor
/// over its memory; other dtypes (strings, objects) compare unequal as in
/// torch. `!=` stays torch's: the identity fallback's Python `True` (pinned
/// by the operator-protocol tests). `<`, `>`, arithmetic keep torch's
/// behaviour too: `TypeError`, or numpy's reflected method with the result
/// wrapped by `Tensor.__array_wrap__`.
fn eq_with_ndarray(
    form: &OperatorForm,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Option<PyObject>> {
    let py = args.py();
    let plain = form.plain.bind(py);
    if plain.get().packet.name != "aten::eq" {
        return Ok(None);
    }
    let other = args.get_item(form.other)?;
    let Ok(arr) = other.downcast::<PyUntypedArray>() else {
        return Ok(None);
    };
    if !matches!(arr.dtype().kind(), b'b' | b'i' | b'u' | b'f' | b'c') {
        return Ok(None);
    }
    let tensor = wrap_result(py, other.clone())?;
    let mut items: Vec<PyObject> = args.iter().map(Bound::unbind).collect();
    items[form.other] = tensor;
    let out = plain.call(PyTuple::new_bound(py, items), kwargs)?;
    Ok(Some(out.unbind()))
}

/// Whether `other`'s type has a function protocol method: torch binds such an
/// object where a tensor goes and runs the protocol; any other object fails to
/// bind, and torch's operator returns `NotImplemented` without asking the
/// protocol (even a tensor subclass's own).
fn takes_part(other: &Bound<'_, PyAny>) -> bool {
    let py = other.py();
    [
        intern!(py, "__opyard_function__"),
        intern!(py, "__torch_function__"),
    ]
    .iter()
    .any(|name| crate::python::ffi::object::lookup_on_type(other, name).is_some())
}

/// Whether every overload that took the arguments before `other` failed on
/// `other`'s type (at least one did), binding quietly. A value misfit there
/// (an int out of range), or a failure at a later or no parameter, is not the
/// other operand's type: the call raises as it would without the protocol.
fn other_misfits(
    overloads: &[Arc<PyOperator>],
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
    other: usize,
) -> bool {
    if args.len() <= other {
        return false;
    }
    let py = args.py();
    let quiet = QuietBinding::new(true);
    let mut blamed = false;
    for op in overloads {
        let def = op.def();
        let Some(def) = def.as_ref() else {
            continue;
        };
        match def.compiled.binder(py).bind(args, kwargs, false) {
            Ok(_) => return false,
            // A conversion that raised: not a binding verdict.
            Err(e) if !e.is_instance_of::<PyTypeError>(py) => return false,
            Err(_) => match quiet.take_failure_at() {
                Some(FailureAt {
                    why: Failure::Kind,
                    param: Some(p),
                }) if p == other => blamed = true,
                // This overload refused an operand before `other` (its
                // `Scalar self` for the tensor): it says nothing of `other`.
                Some(FailureAt { param: Some(p), .. }) if p < other => {}
                _ => return false,
            },
        }
    }
    blamed
}
