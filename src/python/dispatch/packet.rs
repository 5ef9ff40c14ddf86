//! `OpOverloadPacket`: all overloads of `ns::name`; calling it picks one.
//!
//! The overload a call picks is cached per argument signature (see Note
//! [Overload cache] in `registry/resolve.rs`); `packet.<overload>` returns a
//! cached `OpOverload`.

use crate::python::dispatch::binder::{BoundCall, Failure, QuietBinding, Signature};
use crate::python::dispatch::function_protocol::{function_protocol, try_override_or_numbers};
use crate::python::dispatch::lazy;
use crate::python::dispatch::operator::{
    bind_method, dispatch, display_overload, undefined, PyOpOverload, PyOperator, PyPacket,
};
use crate::python::dispatch::operator_protocol::{self, OperatorForm};
use crate::python::dispatch::tls;
use crate::python::errors::{self, clip};
use crate::python::ffi::object::{generic_getattr, lookup_on_type};
use crate::registry::{split_qualified, Choice};
use pyo3::exceptions::{PyAttributeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use std::sync::Arc;

/// All overloads of `ns::name`; calling it picks one.
#[pyclass(name = "OpOverloadPacket", module = "opyard._ops", frozen, weakref)]
pub struct PyOpOverloadPacket {
    pub packet: Arc<PyPacket>,
    /// The `OpOverload` objects handed out by attribute access, so that
    /// `packet.default is packet.default` (torch caches them the same way) and
    /// an access allocates nothing after the first. An entry is reused only
    /// while the registry still lists its very operator; see
    /// Note [No foreign code under a lock]: objects are created and dropped
    /// with this lock released.
    overload_cache: parking_lot::Mutex<Vec<Py<PyOpOverload>>>,
    /// Set on the operator forms bound as `Tensor.__add__` etc.: a binding
    /// failure on the other operand's type returns `NotImplemented`. See
    /// Note [Operator protocol] in `dispatch/operator_protocol.rs`.
    pub operator: Option<OperatorForm>,
    /// Set on the public forms (`opyard.split`, `Tensor.split`) of operators
    /// returning `Tensor[]`: the plain packet. See Note [Tensor lists as tuples].
    pub tuple_form_of: Option<Py<PyOpOverloadPacket>>,
}

// Note [Tensor lists as tuples]: torch's Python bindings (`torch.split`,
// `Tensor.unbind`, ...) return a `Tensor[]` result as a tuple, while the
// operator itself (`torch.ops.aten.split.Tensor`) returns a list. The public
// forms are packet objects of their own with `tuple_form_of` set (made once at
// import by `_tuple_packet`), so the operator's packet keeps its lists and the
// conversion costs the other packets nothing but a flag test.

impl PyOpOverloadPacket {
    /// A packet object for `packet` with an empty overload cache.
    pub fn new(packet: Arc<PyPacket>) -> Self {
        Self::with_operator(packet, None)
    }

    /// A packet object for `packet`, an operator form when `operator` is set.
    pub fn with_operator(packet: Arc<PyPacket>, operator: Option<OperatorForm>) -> Self {
        PyOpOverloadPacket {
            packet,
            overload_cache: parking_lot::Mutex::new(Vec::new()),
            operator,
            tuple_form_of: None,
        }
    }

    /// What the function protocol receives as `func`: the plain packet of an operator form.
    fn public<'py>(slf: &Bound<'py, Self>) -> Bound<'py, PyAny> {
        match &slf.get().operator {
            Some(form) => form.plain.bind(slf.py()).clone().into_any(),
            None => slf.clone().into_any(),
        }
    }

    /// The cached `OpOverload` of `op`, or a new one (then cached).
    fn overload_object(&self, py: Python<'_>, op: &Arc<PyOperator>) -> PyResult<Py<PyOpOverload>> {
        let hit = self
            .overload_cache
            .lock()
            .iter()
            .find(|o| Arc::ptr_eq(&o.get().op, op))
            .map(|o| o.clone_ref(py));
        if let Some(hit) = hit {
            return Ok(hit);
        }
        let made = Py::new(py, PyOpOverload::new(op.clone()))?;
        let stale = {
            let mut cache = self.overload_cache.lock();
            let stale: Vec<_> = cache
                .iter()
                .position(|o| o.get().op.name == op.name)
                .map(|i| cache.swap_remove(i))
                .into_iter()
                .collect();
            cache.push(made.clone_ref(py));
            stale
        };
        drop(stale);
        Ok(made)
    }
}

// Note [Canonical packet]: `opyard.ops.<ns>.<name>` caches one packet object
// per operator name in its namespace (`_ops.py`), until a change of the
// definition makes it forget it. `OpOverload.overloadpacket` returns that
// object (`op.overloadpacket is opyard.ops.ns.name`, as in torch), found
// once through `_ops.py`'s resolver (`Hooks::packet_of`) and then held
// weakly by the `OpOverload`.

/// The namespace's packet object of `ns::name`; see Note [Canonical packet].
pub(crate) fn canonical<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    match crate::python::hooks::installed(py) {
        Some(h) => h.packet_of.bind(py).call1((name,)),
        None => {
            let packet = crate::python::dispatch::operator::REGISTRY
                .packet(name)
                .map_err(errors::core_err)?;
            Ok(Bound::new(py, PyOpOverloadPacket::new(packet))?.into_any())
        }
    }
}

/// What full overload resolution found.
enum Resolved<'py> {
    Found {
        index: usize,
        strict: bool,
        call: BoundCall<'py>,
        /// Every overload tried before failed on an argument's kind, so any
        /// call with the same signature resolves alike. See Note [Overload cache].
        cacheable: bool,
    },
    NoMatch,
}

/// Try every overload without conversions, then with, in definition order.
/// Failures are quiet: they build no message. A binding error other than a
/// `TypeError` (a conversion that raised) ends the search.
fn resolve<'py>(
    py: Python<'py>,
    overloads: &[Arc<PyOperator>],
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Resolved<'py>> {
    let quiet = QuietBinding::new(true);
    let mut cacheable = true;
    for strict in [true, false] {
        for (index, op) in overloads.iter().enumerate() {
            let def = op.def();
            let Some(def) = def.as_ref() else {
                cacheable = false;
                continue;
            };
            match def.compiled.binder(args.py()).bind(args, kwargs, strict) {
                Ok(call) => {
                    return Ok(Resolved::Found {
                        index,
                        strict,
                        call,
                        cacheable,
                    })
                }
                Err(e) if !e.is_instance_of::<PyTypeError>(py) => return Err(e),
                Err(_) => cacheable &= quiet.take_failure() == Some(Failure::Kind),
            }
        }
    }
    Ok(Resolved::NoMatch)
}

/// Run the function protocol if the call asks for it, else dispatch.
fn call_bound(
    slf: &Bound<'_, PyOpOverloadPacket>,
    op: &Arc<PyOperator>,
    call: BoundCall<'_>,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyObject> {
    if tls::wants_function_protocol(call.foreign) {
        let func = PyOpOverloadPacket::public(slf);
        match function_protocol(&func, args, kwargs) {
            Ok(Some(out)) => return Ok(out),
            Ok(None) => {}
            // An operator form (`Tensor.__pow__`) answers NotImplemented when every override
            // declined, so that Python tries the other operand's reflected method, as torch's
            // wrapped dunders do. See Note [Operator protocol].
            Err(e) if slf.get().operator.is_some() && e.is_instance_of::<PyTypeError>(slf.py()) => {
                return Ok(slf.py().NotImplemented())
            }
            Err(e) => return Err(e),
        }
    }
    let keys = tls::apply(call.keys);
    dispatch(slf.py(), op, None, call, keys)
}

/// Nothing fits: bind again, loudly, to explain why for each overload.
fn no_match(
    slf: &Bound<'_, PyOpOverloadPacket>,
    overloads: &[Arc<PyOperator>],
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyObject> {
    let py = slf.py();
    let name = &slf.get().packet.name;
    if overloads.is_empty() && lazy::is_pending(name) {
        // A built-in packet bound before its first use: define it, then call it.
        // See Note [Operators defined on first use].
        lazy::ensure_defined(py, name)?;
        return PyOpOverloadPacket::__call__(slf, args, kwargs);
    }
    if overloads.is_empty() {
        return Err(errors::unknown_op(format!(
            "operator {name} has no overloads defined"
        )));
    }
    let err = || {
        let mut errors_seen = Vec::new();
        let mut overflow = false;
        for op in overloads.iter() {
            if let Some(def) = op.def().as_ref() {
                if let Err(e) = def.compiled.binder(py).bind(args, kwargs, false) {
                    overflow |= e.is_instance_of::<pyo3::exceptions::PyOverflowError>(py);
                    errors_seen.push(e.value_bound(py).to_string());
                }
            }
        }
        // torch raises RuntimeError here; ArgumentError is also a TypeError, as before.
        // An int no Scalar holds would have matched torch's Scalar overload and
        // failed its conversion with OverflowError, so the error is one too.
        let make = if overflow {
            errors::argument_overflow_error
        } else {
            errors::argument_error
        };
        make(
            py,
            format!(
                "Overloaded opyard operator {name} invoked from Python failed to match any schema:\n{}",
                errors_seen.join("\n\n")
            ),
        )
    };
    match &slf.get().operator {
        Some(form) => operator_protocol::binding_failed(form, overloads, args, kwargs, err),
        None => try_override_or_numbers(slf.as_any(), args, kwargs, err()),
    }
}

impl PyOpOverloadPacket {
    /// The only overload failed to bind with `err`.
    #[cold]
    fn single_failed(
        slf: &Bound<'_, Self>,
        overloads: &[Arc<PyOperator>],
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
        err: PyErr,
    ) -> PyResult<PyObject> {
        match &slf.get().operator {
            Some(form) if err.is_instance_of::<PyTypeError>(slf.py()) => {
                operator_protocol::binding_failed(form, overloads, args, kwargs, || err)
            }
            _ => try_override_or_numbers(slf.as_any(), args, kwargs, err),
        }
    }

    /// The body of `__call__` (also the type's raw `tp_call`, see Note [Packet call slots]).
    pub(crate) fn call(
        slf: &Bound<'_, Self>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        let out = Self::call_any(slf, args, kwargs)?;
        if slf.get().tuple_form_of.is_none() {
            return Ok(out);
        }
        // See Note [Tensor lists as tuples].
        let py = slf.py();
        let out = out.into_bound(py);
        if let Ok(list) = out.downcast::<PyList>() {
            return Ok(list.to_tuple().into_any().unbind());
        }
        // A result of several (`histogramdd`'s `(hist, bin_edges)`): its lists become tuples,
        // in a result of the same type.
        if let Ok(items) = out.downcast::<PyTuple>() {
            if items.iter().any(|item| item.is_instance_of::<PyList>()) {
                let converted: Vec<Bound<'_, PyAny>> = items
                    .iter()
                    .map(|item| match item.downcast::<PyList>() {
                        Ok(list) => list.to_tuple().into_any(),
                        Err(_) => item,
                    })
                    .collect();
                let converted = PyTuple::new_bound(py, converted);
                if out.is_exact_instance_of::<PyTuple>() {
                    return Ok(converted.into_any().unbind());
                }
                return Ok(out.get_type().call1((converted,))?.unbind());
            }
        }
        Ok(out.unbind())
    }

    fn call_any(
        slf: &Bound<'_, Self>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        let this = slf.get();
        let overloads = this.packet.overloads();
        if let [op] = overloads.as_slice() {
            let def = op.def();
            let def = def.as_ref().ok_or_else(|| undefined(op))?;
            let call = match def.compiled.binder(args.py()).bind(args, kwargs, false) {
                Ok(call) => call,
                Err(e) => return Self::single_failed(slf, &overloads, args, kwargs, e),
            };
            return call_bound(slf, op, call, args, kwargs);
        }
        let signature = Signature::of(args, kwargs);
        let cache = &this.packet.resolved;
        if let Some(sig) = &signature {
            if let Some(choice) = cache.get(overloads.generation, sig.bytes()) {
                if let Some(op) = overloads.get(choice.index as usize) {
                    let bound = {
                        let _quiet = QuietBinding::new(true);
                        let def = op.def();
                        def.as_ref().map(|d| {
                            d.compiled
                                .binder(args.py())
                                .bind(args, kwargs, choice.strict)
                        })
                    };
                    match bound {
                        Some(Ok(call)) => return call_bound(slf, op, call, args, kwargs),
                        Some(Err(e)) if !e.is_instance_of::<PyTypeError>(slf.py()) => {
                            return Err(e)
                        }
                        // A value the cached overload refuses: resolve in full.
                        _ => {}
                    }
                }
            }
        }
        match resolve(slf.py(), &overloads, args, kwargs)? {
            Resolved::Found {
                index,
                strict,
                call,
                cacheable,
            } => {
                if let (Some(sig), true) = (&signature, cacheable) {
                    let choice = Choice {
                        index: index as u32,
                        strict,
                    };
                    cache.insert(overloads.generation, sig.bytes(), choice);
                }
                call_bound(slf, &overloads[index], call, args, kwargs)
            }
            Resolved::NoMatch => no_match(slf, &overloads, args, kwargs),
        }
    }
}

#[pymethods]
impl PyOpOverloadPacket {
    /// Call the overload whose argument types match without conversion, else the
    /// first (in definition order) that matches with conversion. The choice is
    /// cached per argument signature; see Note [Overload cache].
    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(
        slf: &Bound<'_, Self>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        Self::call(slf, args, kwargs)
    }

    fn __get__(
        slf: &Bound<'_, Self>,
        obj: Option<&Bound<'_, PyAny>>,
        _ty: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyObject> {
        bind_method(slf.as_any(), obj)
    }

    /// `packet.Tensor`, `packet.default`: the cached `OpOverload` (an access
    /// allocates nothing after the first). Attributes of the class come first,
    /// as with torch's `__getattr__`; looking them up on the type first also
    /// spares an overload access the `AttributeError` the generic lookup
    /// would build before a `__getattr__` ran.
    fn __getattribute__(slf: &Bound<'_, Self>, name: &Bound<'_, PyString>) -> PyResult<PyObject> {
        if lookup_on_type(slf.as_any(), name).is_some() {
            return Ok(generic_getattr(slf.as_any(), name)?.unbind());
        }
        let this = slf.get();
        let name = name.to_str()?;
        let wanted = if name == "default" { "" } else { name };
        let find = || {
            this.packet
                .overloads()
                .iter()
                .find(|op| split_qualified(&op.name).2 == wanted)
                .cloned()
        };
        let mut found = find();
        if found.is_none() && lazy::is_pending(&this.packet.name) {
            // See Note [Operators defined on first use].
            lazy::ensure_defined(slf.py(), &this.packet.name)?;
            found = find();
        }
        // An operator form (and a tuple form) hands out its plain packet's objects: one
        // `OpOverload` per overload.
        let owner = match (&this.operator, &this.tuple_form_of) {
            (Some(form), _) => form.plain.get(),
            (None, Some(plain)) => plain.get(),
            (None, None) => this,
        };
        match found {
            Some(op) => Ok(owner.overload_object(slf.py(), &op)?.into_any()),
            // Explained by `__getattr__`, which the slot calls next.
            None => Err(PyAttributeError::new_err(())),
        }
    }

    /// Only reached for a name that is neither a class attribute nor an overload.
    fn __getattr__(&self, name: &str) -> PyResult<PyObject> {
        Err(PyAttributeError::new_err(format!(
            "The underlying op of '{}' has no overload name '{}'",
            self.packet.name.replace("::", "."),
            clip(name)
        )))
    }

    /// Argument signatures whose overload is cached for the current overloads.
    /// For tests; see Note [Overload cache].
    #[getter]
    fn _cached_signatures(&self) -> usize {
        let generation = self.packet.overloads().generation;
        self.packet.resolved.len(generation)
    }

    /// Overload names in definition order (`default` for the unnamed one).
    fn overloads(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        lazy::ensure_defined(py, &self.packet.name)?;
        let overloads = self.packet.overloads();
        let names = overloads
            .iter()
            .map(|op| display_overload(split_qualified(&op.name).2).to_string())
            .collect();
        Ok(names)
    }

    #[getter]
    fn _qualified_op_name(&self) -> String {
        self.packet.name.clone()
    }

    #[getter]
    fn __name__(&self) -> String {
        split_qualified(&self.packet.name).1.to_string()
    }

    #[getter]
    fn __qualname__(&self) -> String {
        self.__name__()
    }

    fn __repr__(&self) -> String {
        format!(
            "<OpOverloadPacket(op='{}')>",
            self.packet.name.replace("::", ".")
        )
    }

    fn __str__(&self) -> String {
        self.packet.name.replace("::", ".")
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<PyOpOverloadPacket>()
            .is_ok_and(|o| Arc::ptr_eq(&o.get().packet, &self.packet))
    }

    fn __hash__(&self) -> u64 {
        Arc::as_ptr(&self.packet) as u64
    }
}

/// The public form of `packet` (`opyard.split`, `Tensor.split`): the same
/// operator, its `Tensor[]` results returned as tuples. See Note [Tensor lists as tuples].
#[pyfunction]
pub fn _tuple_packet(packet: &Bound<'_, PyOpOverloadPacket>) -> PyResult<Py<PyOpOverloadPacket>> {
    let this = packet.get();
    if this.operator.is_some() {
        return Err(PyTypeError::new_err(
            "_tuple_packet: an operator form (Tensor.__add__ ...) has no tuple form",
        ));
    }
    let plain = match &this.tuple_form_of {
        Some(plain) => plain.clone_ref(packet.py()),
        None => packet.clone().unbind(),
    };
    let mut form = PyOpOverloadPacket::new(this.packet.clone());
    form.tuple_form_of = Some(plain);
    Py::new(packet.py(), form)
}
