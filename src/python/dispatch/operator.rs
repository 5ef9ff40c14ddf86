//! `OpOverload` and `OpOverloadPacket`: the call path.
//!
//! A call binds its arguments (dispatch/binder/mod.rs), gathers the key set from the
//! dispatchable arguments, applies the thread's include/exclude sets, masks
//! out fallthrough keys, takes the highest key and calls that table slot's
//! kernel. No dictionary lookup and no Python frame of ours on the way.

use crate::dispatch::table::{EntryKind, Slot};
use crate::dispatch::{DispatchKey, DispatchKeySet};
use crate::python::dispatch::binder::{Binder, BoundCall};
use crate::python::dispatch::function_protocol::{function_protocol, try_override};
use crate::python::dispatch::keys::PyDispatchKeySet;
use crate::python::dispatch::tls;
use crate::python::errors;
use crate::python::ffi::type_slots::ClassPtr;
use crate::python::ffi::vectorcall::{self, vectorcall_entry, VectorcallSlot};
use crate::registry::{split_qualified, Operator, Packet, Registry};
use crate::schema::FunctionSchema;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyTuple, PyWeakrefMethods, PyWeakrefReference};
use std::sync::{Arc, LazyLock};

pub use crate::python::dispatch::packet::PyOpOverloadPacket;

/// torch prints the unnamed overload as `default`.
pub(crate) fn display_overload(overload: &str) -> &str {
    if overload.is_empty() {
        "default"
    } else {
        overload
    }
}

/// A registered Python kernel or fallback.
pub struct PyKernel {
    pub func: PyObject,
    pub with_keyset: bool,
    /// Boxed fallback: receives the `OpOverload` before the arguments.
    pub is_fallback: bool,
    /// Which of the core's own kernel classes `func` is, found once at registration.
    pub kind: KernelKind,
}

/// A kernel as one call runs it: the registered kernel's callable, with a
/// reference of its own (a registration during the call cannot free it), and
/// its flags, copied out of the table without touching the registered
/// kernel's shared count (an atomic increment and decrement per call).
pub struct Picked<'py> {
    pub func: Bound<'py, PyAny>,
    pub with_keyset: bool,
    pub is_fallback: bool,
    pub kind: KernelKind,
}

/// The core's kernel classes that the call path runs without a Python call of
/// their `__call__` (found at registration, not by a type test per call).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum KernelKind {
    /// A pointwise op's batching rule in Rust (Note [Pointwise batching in Rust]).
    BatchedPointwise,
    /// A built-in op's Autograd kernel in Rust (Note [Autograd kernel in Rust]).
    PlainAutograd,
    /// The Fake fallback.
    FakeFallback,
    /// A `register_autograd` kernel: a `Function`'s spec in op mode (Note [register_autograd in Rust]).
    FunctionSpec,
    /// A built-in op's CPU kernel in Rust (Note [Rust kernels] in `kernels_py/mod.rs`),
    /// called without `PyObject_Call` and its trampoline.
    Rust,
    /// Anything else: called as a Python callable.
    Other,
}

impl KernelKind {
    /// The kind of `func` registered as a kernel (`with_keyset`, `is_fallback` as registered).
    pub fn of(func: &Bound<'_, PyAny>, with_keyset: bool, is_fallback: bool) -> Self {
        use crate::python::autograd::function::PyFunctionSpec;
        use crate::python::autograd::kernel::PyPlainAutogradKernel;
        use crate::python::batched::pointwise::PyBatchedPointwise;
        use crate::python::fake::cache::PyFakeFallback;
        use crate::python::kernels_py::PyRustKernel;
        match (with_keyset, is_fallback) {
            (false, false) if func.downcast_exact::<PyBatchedPointwise>().is_ok() => {
                KernelKind::BatchedPointwise
            }
            (true, false) if func.downcast_exact::<PyPlainAutogradKernel>().is_ok() => {
                KernelKind::PlainAutograd
            }
            (_, true) if func.downcast_exact::<PyFakeFallback>().is_ok() => {
                KernelKind::FakeFallback
            }
            (false, false) if func.downcast_exact::<PyRustKernel>().is_ok() => KernelKind::Rust,
            (false, false) if func.downcast_exact::<PyFunctionSpec>().is_ok() => {
                KernelKind::FunctionSpec
            }
            _ => KernelKind::Other,
        }
    }
}

/// Data compiled from a definition.
///
/// Note [Binder on first call]: compiling a schema's binder (parameters,
/// default values as Python objects, messages) costs microseconds per
/// overload, and a process calls a few dozen of the ~1,100 built-in overloads
/// it defines at import. So a definition keeps its schema and compiles the
/// binder on its first call. The call path pays one plain load and branch
/// (`GILOnceCell::get`), no lock: under the GIL, two threads racing on the
/// first call may both compile, and the loser's binder is dropped.
pub struct Compiled {
    binder: GILOnceCell<Binder>,
    schema: Arc<FunctionSchema>,
}

impl Compiled {
    /// The compiled data of `schema`; the binder waits for the first call.
    pub fn new(schema: &Arc<FunctionSchema>) -> Compiled {
        Compiled {
            binder: GILOnceCell::new(),
            schema: schema.clone(),
        }
    }

    /// The binder, compiled now if this is the first call.
    #[inline]
    pub fn binder(&self, py: Python<'_>) -> &Binder {
        self.binder
            .get_or_init(py, || Binder::new(py, &self.schema))
    }
}

pub type Kernel = Arc<PyKernel>;
pub type PyOperator = Operator<Kernel, Compiled>;
pub type PyPacket = Packet<Kernel, Compiled>;

/// The process-wide registry.
pub static REGISTRY: LazyLock<Registry<Kernel, Compiled>> = LazyLock::new(Registry::new);

/// One overload of an operator.
#[pyclass(name = "OpOverload", module = "opyard._ops", frozen)]
pub struct PyOpOverload {
    pub op: Arc<PyOperator>,
    /// `overloadpacket`: a weak reference to the namespace's packet object,
    /// set on first access. Weak, because a packet caches its `OpOverload`s
    /// (a strong one would make a cycle the GC cannot see). See
    /// Note [Canonical packet] in `dispatch/packet.rs`.
    packet_ref: GILOnceCell<Py<PyWeakrefReference>>,
    /// The definition the last call read. See Note [Definitions kept by the called object].
    kept: crate::python::dispatch::hot::KeptDef,
    /// How CPython calls it. See Note [Vectorcall entries] in `ffi/vectorcall.rs`.
    vectorcall: VectorcallSlot,
}

vectorcall_entry!(
    /// `OpOverload`'s vectorcall entry: the body of `__call__`.
    overload_vectorcall,
    PyOpOverload,
    |_py, slf, args, kwargs| PyOpOverload::bind_and_dispatch(slf, args, kwargs, None)
);

impl PyOpOverload {
    /// An `OpOverload` object for `op` (see [`PyOpOverload::create`]).
    fn new(op: Arc<PyOperator>) -> Self {
        PyOpOverload {
            op,
            packet_ref: GILOnceCell::new(),
            kept: Default::default(),
            vectorcall: VectorcallSlot::new(overload_vectorcall),
        }
    }

    /// A new `OpOverload` object for `op`, called through its vectorcall entry.
    pub fn create(py: Python<'_>, op: Arc<PyOperator>) -> PyResult<Py<PyOpOverload>> {
        let made = Bound::new(py, PyOpOverload::new(op))?;
        vectorcall::enable(&made, &made.get().vectorcall)?;
        Ok(made.unbind())
    }
}

pub(crate) fn undefined(op: &PyOperator) -> PyErr {
    errors::unknown_op(format!(
        "operator {} is no longer defined: the library that defined it was destroyed",
        op.name
    ))
}

/// Look up the slot for `keys` and call its kernel.
pub(crate) fn dispatch(
    py: Python<'_>,
    op: &Arc<PyOperator>,
    op_obj: Option<&Bound<'_, PyOpOverload>>,
    call: BoundCall<'_>,
    keys: DispatchKeySet,
) -> PyResult<PyObject> {
    let (kernel, masked) = pick(py, op, keys)?;
    invoke(py, &kernel, op, op_obj, call, masked)
}

/// The kernel of the highest key of `keys` (minus fallthroughs), and that key set.
pub(crate) fn pick<'py>(
    py: Python<'py>,
    op: &PyOperator,
    keys: DispatchKeySet,
) -> PyResult<(Picked<'py>, DispatchKeySet)> {
    // The table guard is released before the kernel runs (a kernel may call
    // ops many levels deep); the call's own reference to the callable keeps it
    // alive should a registration replace the table meanwhile. See Note [Table publication].
    let table = op.table();
    let masked = keys & table.nonfallthrough;
    let key = masked.highest();
    match table.slot(key) {
        Slot::Kernel { reg, .. } => {
            let k = &reg.kernel;
            let picked = Picked {
                func: k.func.bind(py).clone(),
                with_keyset: k.with_keyset,
                is_fallback: k.is_fallback,
                kind: k.kind,
            };
            Ok((picked, masked))
        }
        Slot::Missing => Err(errors::no_kernel(op, key)),
        Slot::Ambiguous => Err(errors::ambiguous_autograd_other(op)),
    }
}

pub(crate) fn invoke(
    py: Python<'_>,
    k: &Picked<'_>,
    op: &Arc<PyOperator>,
    op_obj: Option<&Bound<'_, PyOpOverload>>,
    call: BoundCall<'_>,
    masked: DispatchKeySet,
) -> PyResult<PyObject> {
    let quick = call.quick;
    let out = call_kernel(py, k, op, op_obj, call, masked)?;
    // See Note [Checked results] (binder/returns.rs): one type test here.
    if quick.passes(out.bind(py)) {
        return Ok(out);
    }
    checked_result(py, op, out, masked)
}

/// A result the quick test did not pass, checked against the whole schema.
#[cold]
fn checked_result(
    py: Python<'_>,
    op: &Arc<PyOperator>,
    out: PyObject,
    masked: DispatchKeySet,
) -> PyResult<PyObject> {
    let def = op.def();
    let Some(def) = def.as_ref() else {
        return Ok(out);
    };
    let binder = def.compiled.binder(py);
    let who = || format!("{:?} kernel", masked.highest());
    binder
        .returns
        .check(py, out, &op.name, &who, &binder.schema)
}

// The core's kernel classes, tested per call: see Note [Class pointers kept] in `ffi/type_slots.rs`.
static RUST_KERNEL: ClassPtr<crate::python::kernels_py::PyRustKernel> = ClassPtr::new();
static BATCHED_POINTWISE: ClassPtr<crate::python::batched::pointwise::PyBatchedPointwise> =
    ClassPtr::new();
static PLAIN_AUTOGRAD: ClassPtr<crate::python::autograd::kernel::PyPlainAutogradKernel> =
    ClassPtr::new();
static FAKE_FALLBACK: ClassPtr<crate::python::fake::cache::PyFakeFallback> = ClassPtr::new();
static FUNCTION_SPEC: ClassPtr<crate::python::autograd::function::PyFunctionSpec> = ClassPtr::new();

fn call_kernel(
    py: Python<'_>,
    k: &Picked<'_>,
    op: &Arc<PyOperator>,
    op_obj: Option<&Bound<'_, PyOpOverload>>,
    call: BoundCall<'_>,
    masked: DispatchKeySet,
) -> PyResult<PyObject> {
    let func = &k.func;
    let kwargs = call.kwargs.as_ref();
    // The kernel's class was found at registration (`KernelKind::of`): the casts below
    // cannot fail.
    match k.kind {
        KernelKind::Other if !k.with_keyset && !k.is_fallback => {
            return func.call(&call.args, kwargs).map(Bound::unbind);
        }
        // A Rust CPU kernel: its `__call__` body, called directly.
        KernelKind::Rust => {
            if let Some(rk) = RUST_KERNEL.downcast_exact(func) {
                use crate::python::ffi::call_slot::FastOrGeneral;
                return rk.get().call(py, &call.args, kwargs);
            }
        }
        // A pointwise op's batching rule in Rust (Note [Pointwise batching in Rust]).
        KernelKind::BatchedPointwise => {
            if let Some(bp) = BATCHED_POINTWISE.downcast_exact(func) {
                return bp.get().call_unboxed(py, &call);
            }
        }
        // A built-in op's Autograd kernel in Rust takes the call as it is, no key-set
        // object or new tuple (See Note [Autograd kernel in Rust] in `autograd/kernel/mod.rs`).
        KernelKind::PlainAutograd => {
            if let Some(ag) = PLAIN_AUTOGRAD.downcast_exact(func) {
                return ag.get().call_unboxed(py, &call, masked);
            }
        }
        // The Fake fallback takes the operator and key set as Rust values.
        KernelKind::FakeFallback => {
            if let Some(ff) = FAKE_FALLBACK.downcast_exact(func) {
                return crate::python::fake::cache::call(ff, k, op, op_obj, call, masked);
            }
        }
        // A `register_autograd` kernel: the spec's call body, without a call through CPython.
        KernelKind::FunctionSpec => {
            if let Some(spec) = FUNCTION_SPEC.downcast_exact(func) {
                return crate::python::autograd::function::call(spec, &call.args, kwargs);
            }
        }
        KernelKind::Other => {}
    }
    let mut prefix: Vec<PyObject> = Vec::with_capacity(2);
    if k.with_keyset {
        prefix.push(Py::new(py, PyDispatchKeySet(masked))?.into_any());
    }
    if k.is_fallback {
        match op_obj {
            Some(o) => prefix.push(o.clone().into_any().unbind()),
            None => prefix.push(PyOpOverload::create(py, op.clone())?.into_any()),
        }
    }
    prefix.extend(call.args.iter().map(Bound::unbind));
    let args = PyTuple::new_bound(py, prefix);
    func.call(args, kwargs).map(Bound::unbind)
}

impl PyOpOverload {
    fn bind_and_dispatch(
        slf: &Bound<'_, Self>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
        keys: Option<DispatchKeySet>,
    ) -> PyResult<PyObject> {
        Self::call_reporting(slf, args, kwargs, keys, &mut None)
    }

    /// Bind, dispatch and call; `ran_at` receives the key whose kernel ran
    /// (left None when the function protocol answered the call).
    pub(crate) fn call_reporting(
        slf: &Bound<'_, Self>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
        keys: Option<DispatchKeySet>,
        ran_at: &mut Option<DispatchKey>,
    ) -> PyResult<PyObject> {
        let this = slf.get();
        let op = &this.op;
        let bound = {
            // Scoped: the definition is not needed while the kernel runs.
            let def = crate::python::dispatch::hot::def_of(&this.kept, slf.py(), op);
            let def = def.as_ref().ok_or_else(|| undefined(op))?;
            def.compiled.binder(args.py()).bind(args, kwargs, false)
        };
        let call = match bound {
            Ok(call) => call,
            Err(e) => return try_override(slf.as_any(), args, kwargs, e),
        };
        let keys = match keys {
            Some(k) => k,
            None => {
                if tls::wants_function_protocol(call.foreign) {
                    if let Some(out) = function_protocol(slf.as_any(), args, kwargs)? {
                        return Ok(out);
                    }
                }
                tls::apply(call.keys)
            }
        };
        let (kernel, masked) = pick(slf.py(), op, keys)?;
        *ran_at = Some(masked.highest());
        invoke(slf.py(), &kernel, op, Some(slf), call, masked)
    }
}

#[pymethods]
impl PyOpOverload {
    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(
        slf: &Bound<'_, Self>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        Self::bind_and_dispatch(slf, args, kwargs, None)
    }

    /// Call the kernel of the highest key of `keyset` (minus fallthroughs), ignoring TLS.
    #[pyo3(signature = (keyset, *args, **kwargs))]
    fn redispatch(
        slf: &Bound<'_, Self>,
        keyset: &Bound<'_, PyAny>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        let ks = crate::python::dispatch::keys::extract_keyset(keyset)?;
        Self::bind_and_dispatch(slf, args, kwargs, Some(ks))
    }

    /// Bind like a function when stored on a class (`Tensor.sin = ops.aten.sin.default`).
    fn __get__(
        slf: &Bound<'_, Self>,
        obj: Option<&Bound<'_, PyAny>>,
        _ty: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyObject> {
        bind_method(slf.as_any(), obj)
    }

    /// Whether the kernel below the `Python` key for `keyset` is a
    /// CompositeImplicitAutograd decomposition. Torch's tensors always carry
    /// their autograd key, whose slot holds the decomposition, so modes and
    /// wrapper subclasses see the decomposed ops; opyard's carry it only
    /// while they require grad, so the `Python` key's fallback asks this and
    /// runs the decomposition first.
    fn _decomposes_below_python(&self, keyset: &Bound<'_, PyAny>) -> PyResult<bool> {
        let ks = crate::python::dispatch::keys::extract_keyset(keyset)?.remove(DispatchKey::Python);
        let table = self.op.table();
        let key = (ks & table.nonfallthrough).highest();
        Ok(matches!(
            table.slot(key),
            Slot::Kernel {
                kind: EntryKind::Math,
                ..
            }
        ))
    }

    /// The parsed schema.
    #[getter]
    fn _schema(&self, py: Python<'_>) -> PyResult<PyObject> {
        let def = self.op.def();
        let def = def.as_ref().ok_or_else(|| undefined(&self.op))?;
        Ok(Py::new(
            py,
            crate::python::schema::PyFunctionSchema::from_arc(def.schema.clone()),
        )?
        .into_any())
    }

    /// `ns::name.overload` (`ns::name` for the default overload).
    fn name(&self) -> String {
        self.op.name.clone()
    }

    /// `name.overload`, as torch's `__name__`.
    #[getter]
    fn __name__(&self) -> String {
        let (_, name, overload) = split_qualified(&self.op.name);
        format!("{name}.{}", display_overload(overload))
    }

    #[getter]
    fn __qualname__(&self) -> String {
        self.__name__()
    }

    #[getter]
    fn namespace(&self) -> String {
        split_qualified(&self.op.name).0.to_string()
    }

    #[getter]
    fn _overloadname(&self) -> String {
        display_overload(split_qualified(&self.op.name).2).to_string()
    }

    /// The packet of this overload's operator: the object `opyard.ops.<ns>.<name>`
    /// holds, the same one on every access (no allocation after the first).
    #[getter]
    fn overloadpacket<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if let Some(alive) = self.packet_ref.get(py).and_then(|r| r.bind(py).upgrade()) {
            return Ok(alive);
        }
        let (ns, name, _) = split_qualified(&self.op.name);
        let packet = crate::python::dispatch::packet::canonical(py, &format!("{ns}::{name}"))?;
        if self.packet_ref.get(py).is_none() {
            let _ = self
                .packet_ref
                .set(py, PyWeakrefReference::new_bound(&packet)?.unbind());
        }
        Ok(packet)
    }

    /// True while the operator is defined.
    #[getter]
    fn _defined(&self) -> bool {
        self.op.def().is_some()
    }

    fn __repr__(&self) -> String {
        let (ns, name, overload) = split_qualified(&self.op.name);
        format!(
            "<OpOverload(op='{ns}.{name}', overload='{}')>",
            display_overload(overload)
        )
    }

    fn __str__(&self) -> String {
        let (ns, name, overload) = split_qualified(&self.op.name);
        format!("{ns}.{name}.{}", display_overload(overload))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<PyOpOverload>()
            .is_ok_and(|o| Arc::ptr_eq(&o.get().op, &self.op))
    }

    fn __hash__(&self) -> u64 {
        Arc::as_ptr(&self.op) as u64
    }
}

/// `types.MethodType(func, obj)`, or `func` itself when looked up on the class.
pub(crate) fn bind_method(
    func: &Bound<'_, PyAny>,
    obj: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    match obj {
        None => Ok(func.clone().unbind()),
        Some(o) if o.is_none() => Ok(func.clone().unbind()),
        Some(o) => Ok(crate::python::ffi::object::bound_method(func, o)?.unbind()),
    }
}

/// The key set a call would dispatch with, for `explain`.
pub fn explain_keys(
    op: &Arc<PyOperator>,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<(DispatchKeySet, DispatchKeySet, DispatchKeySet, DispatchKey)> {
    let def = op.def();
    let def = def.as_ref().ok_or_else(|| undefined(op))?;
    let call = def.compiled.binder(args.py()).bind(args, kwargs, false)?;
    let with_tls = tls::apply(call.keys);
    let masked = with_tls & op.table().nonfallthrough;
    Ok((call.keys, with_tls, masked, masked.highest()))
}
