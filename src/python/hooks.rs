//! The switchboard: every Python object the binding layer (and the Python
//! layers below the one that defines it) calls or compares against, in one
//! struct, set once by `_core._install_hooks(...)` from `opyard/_hooks.py`.
//!
//! Note [The switchboard]: `_core` sits below every Python layer, yet the
//! core calls into them: it makes `opyard.Tensor`s, asks `opyard.overrides`
//! for the `__torch_function__` protocol, hands the rare cases of its fast
//! paths to the Python functions that own their rules. Lower Python layers
//! likewise call what a higher one defines (`_tensor` calls the factories'
//! `tensor()`, `_library` calls `amp`'s autocast kernel builder). Each such
//! late-bound call is one field of [`Hooks`], documented where it is
//! declared; `opyard/_hooks.py`, the one module that imports every layer,
//! fills them all with one `_core._install_hooks(**hooks)` call at the end of
//! `import opyard`. So a reader finds every edge that an import scan cannot
//! see in this file, and a layer never installs anything into another.
//! Before the call (while the layers import) the core's optional uses skip
//! their hook (no packet resolver yet: a fresh packet; no protocol handler:
//! no override) and the rest raise "not installed". The Python layers read
//! their hooks through `_core._hooks()`; hooks of layers that load on first
//! use (`fake`, `func`, `amp`) are small functions in `_hooks.py` that load
//! the layer, or answer for it while it is not loaded.
//!
//! Note [Fast paths and general paths]: every Rust fast path has one Python
//! general path with the same meaning, and the suite passes with either:
//! `OPYARD_FASTPATH=0` in the environment turns every fast path off when
//! `_core` is imported (`_core.FAST_PATHS`; `make test-general` runs the
//! suite that way). A fast path hands the calls it does not serve to its
//! general path, so the general path is also its fallback. The general
//! paths that are per op (a kernel, a formula) are held by the fast path's
//! object; the process-wide ones are fields of [`Hooks`].
//!
//! | fast path (Rust) | general path (Python) | with `OPYARD_FASTPATH=0` |
//! | --- | --- | --- |
//! | `RustKernel`: CPU kernels of the hottest aten ops (`kernels_py/`) | the op's numpy kernel in `_aten/` | `_aten/fast.py` registers none |
//! | `_PlainAutogradKernel`: a built-in op's Autograd kernel (`autograd/kernel/`) | the general kernel of `derivatives/registry.py` | `make_kernel(general=True)` |
//! | recording a built-in op's node in one call (`autograd/record.rs`) | the rest of `registry._record` | `_record` builds the node in Python |
//! | `_NodeApply`: the backward of the hottest formulas (`autograd/formulas/`) | the node's formula in `derivatives/*.py` | the node classes keep their Python `apply` |
//! | `Function.apply` (`autograd/function/apply.rs`, `outputs.rs`) | [`Hooks::apply_general`], [`Hooks::record_outputs`] | `Function.apply` is `_apply_general` |
//! | the ctx methods of a `Function`'s node (`autograd/node/ctx.rs`) | `FunctionCtx`'s (`function.py`) | `BackwardCFunction` takes `FunctionCtx`'s |
//! | a `Function` node's backward (`autograd/function/backward.rs`) | `BackwardCFunction.apply` | the engine calls the node's `apply` |
//! | `register_autograd`'s wrappers (`_FunctionSpec` in op mode) | `_library/autograd.py`'s `_plain_forward` / `_make_backward` | the kernel calls the Function's `apply` |
//! | `Tensor.backward` (`autograd/backward_entry.rs`) | [`Hooks::backward`] | `Tensor.backward` is the Python method |
//! | accumulating into a leaf's `.grad` (`autograd/accumulate.rs`) | `AccumulateGrad.apply` ([`Hooks::accumulate_grad`]) | the engine calls the node's `apply` |
//! | `t.grad = g`'s quick test (`tensor/grad.rs`) | [`Hooks::check_grad`] | every assignment is checked in Python |
//! | the `Fake` fallback's metadata cache (`fake/cache.rs`) | `fake/mode.py`'s `fake_fallback` | `fake_fallback` is the fallback |
//! | `Tensor.view`/`reshape`/`expand`/`permute` (`tensor/view_method.rs`) | `_functional.py`'s sized methods | the Python methods are installed |
//! | a `SavedTensor` made by its slots (`autograd/saved/construct.rs`) | `SavedTensor(...)` | (reached only from `Function.apply`'s fast path) |

use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyTuple, PyType};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::python::autograd::node::PyNodeBase;
use crate::python::ffi::type_slots::SubclassOf;
use crate::python::tensor::base::PyTensorBase;

/// Declares [`Hooks`] (one public field per hook, readable from Python) and
/// its construction from `_install_hooks`' keyword arguments, by name; the
/// `derived` fields are computed once at install from what the core owns.
macro_rules! hooks {
    ($( $(#[doc = $doc:literal])+ $name:ident : $ty:ty, )+
     lazy { $( $(#[doc = $ldoc:literal])+ $lname:ident, )* }
     derived($py:ident) { $( $(#[doc = $ddoc:literal])+ $dname:ident : $dty:ty = $init:expr, )* }) => {
        /// Every late-bound Python object, by role. See Note [The switchboard].
        #[pyclass(name = "Hooks", module = "opyard._core", frozen)]
        pub struct Hooks {
            $( $(#[doc = $doc])+ #[pyo3(get)] pub $name: $ty, )+
            $( $(#[doc = $ldoc])+ pub $lname: LazyHook, )*
            $( $(#[doc = $ddoc])+ pub $dname: $dty, )*
        }

        impl Hooks {
            /// The hook names, in declaration order.
            const NAMES: &'static [&'static str] = &[$(stringify!($name),)+ $(stringify!($lname),)*];

            fn from_kwargs($py: Python<'_>, kwargs: &Bound<'_, PyDict>) -> PyResult<Self> {
                Ok(Hooks {
                    $( $name: take(kwargs, stringify!($name))?, )+
                    $( $lname: take(kwargs, stringify!($lname))?, )*
                    $( $dname: $init, )*
                })
            }
        }

        /// The lazily resolved hooks read from Python: their objects, resolved now if need be.
        #[pymethods]
        impl Hooks {
            $(
                #[getter]
                fn $lname(&self, py: Python<'_>) -> PyResult<PyObject> {
                    self.$lname.get(py).map(|v| v.clone_ref(py))
                }
            )*
        }
    };
}

// Note [Hooks resolved on first use]: the autograd layer's engine, `Function` and view-history
// modules load when first needed (the first backward, `Function`, in-place op on a view), not
// with `import opyard`; the hooks they define are handed over as resolvers, zero-argument
// callables returning the hook (`_hooks.py`: import the module, read the name). The first
// time the core needs one it calls the resolver and keeps its answer; every later use is one
// load and branch. The resolver runs with the GIL held and no lock of ours (it may import, and
// so release the GIL): two threads may both resolve, and the first answer kept is the one every
// caller gets (a module's attribute, so both answers are the same object).
/// A hook resolved on its first use (Note [Hooks resolved on first use]).
pub struct LazyHook {
    resolve: PyObject,
    value: GILOnceCell<PyObject>,
}

impl LazyHook {
    /// The hook, its resolver called on the first use.
    #[inline]
    pub fn get(&self, py: Python<'_>) -> PyResult<&PyObject> {
        match self.value.get(py) {
            Some(v) => Ok(v),
            None => self.resolve_now(py),
        }
    }

    #[cold]
    fn resolve_now(&self, py: Python<'_>) -> PyResult<&PyObject> {
        let found = self.resolve.call0(py)?;
        Ok(self.value.get_or_init(py, || found))
    }
}

impl<'py> FromPyObject<'py> for LazyHook {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        if !ob.is_callable() {
            return Err(PyTypeError::new_err(format!(
                "a hook resolved on first use takes a resolver (a callable returning the hook), not {}",
                ob.get_type().qualname()?
            )));
        }
        Ok(LazyHook {
            resolve: ob.clone().unbind(),
            value: GILOnceCell::new(),
        })
    }
}

hooks! {
    // --- the tensor layer (`_tensor`, `_dtype`) ---
    /// `opyard.Tensor`: what the core makes, and the one type the fast paths serve.
    tensor: SubclassOf<PyTensorBase>,
    /// `opyard.Size`: a tensor's `shape`.
    size: Py<PyType>,
    /// `numpy.ndarray`: a tensor's storage (its header is read in `ffi/ndarray.rs`).
    ndarray: Py<PyType>,
    /// `_dtype.FROM_NP`: numpy dtype -> opyard dtype.
    dtype_of_numpy: Py<PyDict>,
    /// `opyard.dtype`: what a `ScalarType` argument takes.
    dtype: Py<PyType>,
    /// `code -> dtype`: a `ScalarType` schema default (`long` = 4) as a dtype.
    dtype_from_code: PyObject,
    /// `_dtype._Default`: its `value` is the default floating dtype.
    default_dtype: PyObject,
    /// `opyard.layout`: what a `Layout` argument takes, besides torch's int code of one.
    layout: PyObject,
    /// The `opyard.layout`s by torch's int code (its enum order: `0` is `strided`).
    layouts: Py<PyTuple>,
    /// `opyard.memory_format`: what a `MemoryFormat` argument takes, besides
    /// torch's int code of one.
    memory_format: PyObject,
    /// The `opyard.memory_format`s by torch's int code (`0` is `contiguous_format`).
    memory_formats: Py<PyTuple>,
    /// `opyard.float32`.
    float32: PyObject,
    /// `opyard.float64`.
    float64: PyObject,
    /// `tensor_from_data(*args, **kwargs)`: `opyard.tensor`, the legacy
    /// `Tensor(data)` constructor's copy (read by `_tensor`).
    tensor_from_data: PyObject,
    /// `lift_fresh(t)`: a tensor made from data is fake under a
    /// `FakeTensorMode` (Note [lift_fresh]; read by `_factories`).
    lift_fresh: PyObject,

    // --- the dispatcher (`_ops`, `dispatcher`, `overrides`) ---
    /// `opyard.dispatcher.DispatchKey`: keys as the enum's members.
    dispatch_key: PyObject,
    /// `packet_of(name)`: the namespace's packet object of `ns::name`
    /// (See Note [Canonical packet]).
    packet_of: PyObject,
    /// `protocol_of(cls)`: the protocol method of tensor type `cls`, or None
    /// when it is disabled (See Note [Disabled protocol types]).
    protocol_of: PyObject,
    /// `batched_tensor()`: `(BatchedTensor, wrap)` of `opyard.func.batched`,
    /// the class `_core._wrap_batched` makes and the general constructor it
    /// hands the rare cases to (Note [Batched tensors in Rust]).
    batched_tensor: PyObject,
    /// `symint_type()`: `opyard.fake.SymInt`, or None while `opyard.fake`
    /// is not loaded (no SymInt exists then). See [`symint_type`].
    symint_type: PyObject,
    /// `number_operands(packet, args, kwargs)`: a packet call no overload
    /// bound, retried with Python numbers where torch's few operators take
    /// them as tensors (`opyard.add(2.5, t)`; `_aten/number_operands.py`), or
    /// `NotImplemented`. Asked after the protocol handler declined.
    number_operands: PyObject,

    // --- autograd ---
    /// `set_requires_grad(t, flag)`: `t.requires_grad = flag` (torch's checks).
    set_requires_grad: PyObject,
    /// `check_grad(t, g)`: `t.grad = g` when dtype, device or sizes differ
    /// (raises torch's message, or returns to accept).
    check_grad: PyObject,
    /// `AccumulateGrad` (`graph.py`): the class of a leaf's sink node.
    accumulate_grad_node: SubclassOf<PyNodeBase>,
    /// `SavedTensor` (`graph.py`): what `release_variables` empties.
    saved_tensor: Py<PyType>,
    /// `aten::add.Tensor`, summing the gradients that meet at one input.
    add: PyObject,
    /// The `aten::add_` packet: its `Tensor` overload accumulates into an
    /// existing `.grad` ([`Hooks::add_inplace`]).
    add_: PyObject,
    /// The `aten::ones_like` packet: its `default` overload makes
    /// `backward()`'s implicit root gradient ([`Hooks::ones_like_default`]).
    ones_like: PyObject,
    /// General path of `autograd/accumulate.rs`: `accumulate_grad(var, g)`.
    accumulate_grad: PyObject,
    /// General path of `Tensor.backward`: `backward(self, gradient,
    /// retain_graph, create_graph, inputs)` (`tensor_methods.py`).
    backward: PyObject,
    /// `alias(t)`: a new tensor on `t`'s data (an input returned as-is).
    alias: PyObject,
    /// `zeros(shape, dtype)`: a materialized gradient for an unused output.
    zeros: PyObject,
    /// torch's message for unpacking what a freed node saved.
    freed_message: String,
    /// `is_custom_op(op)`: whether `op` was made by `custom_op` (read by the
    /// autograd fallback).
    is_custom_op: PyObject,
    /// `batched_tangent(t)`: the forward gradient of batched tensor `t`,
    /// which lives on its physical tensor (`func`; `NotImplemented` for other
    /// tensors; read by `forward_ad`).
    batched_tangent: PyObject,
    /// `set_batched_tangent(t, tangent)`: attach a batched tangent to the
    /// physical tensor of batched `t` (`func`; `NotImplemented` for others).
    set_batched_tangent: PyObject,
    /// `batched_grad_check(func, inputs, diff_inputs, atol, rtol)`:
    /// `gradcheck(check_batched_grad=True)`'s check (`func`; read by `gradcheck`).
    batched_grad_check: PyObject,
    /// `transform_apply(cls, args, kwargs)`: `Function.apply` while a
    /// function transform runs (torch's rules for a `Function` under
    /// transforms; `func`; read by `autograd.function`).
    transform_apply: PyObject,
    /// `legacy_vmap(func)`: the vmap `autograd.functional`'s
    /// `vectorize=True` maps with (`func`; read by `autograd.functional`).
    legacy_vmap: PyObject,
    /// `batched_autograd_grad(grad, outputs, inputs, grad_outputs, options)`:
    /// `autograd.grad` inside `vmap` on batched tensors, differentiated on
    /// their physical tensors (`func`; read by `autograd.engine`).
    batched_autograd_grad: PyObject,

    // --- torch.library (`_library`) ---
    /// `autocast_kernel(overload, device_type, cast_inputs, api) -> (kernel, key)`
    /// (`amp`; read by `register_autocast`).
    autocast_kernel: PyObject,
    /// `vmap_kernel(overload, rule)`: the `Batched` kernel running a
    /// `register_vmap` rule (`func`; read by `register_vmap`).
    vmap_kernel: PyObject,
    /// `fake_impls_changed()`: an op gained or lost its fake impl (`fake`
    /// forgets what it cached; read by `_library.fake_impl`).
    fake_impls_changed: PyObject,
    /// `symbolic_types() -> (SymInt, DynamicOutputShapeException)` (`fake`;
    /// read by `ctx.new_dynamic_size`).
    symbolic_types: PyObject,
    /// The `opyard` package: string annotations spell `opyard.Tensor`, and the
    /// overridable-function listings name its functions.
    facade: PyObject,

    // --- resolved on first use (Note [Hooks resolved on first use]): the autograd layer's engine,
    // `Function` and view modules and `opyard.overrides` load then ---
    lazy {
        /// `tensor_subclass(cls)`: called for every new `Tensor` subclass
        /// (`opyard.overrides` routes its Python-level methods; read by `_tensor`).
        tensor_subclass,
        /// `function_protocol(func, args, kwargs, relevant=None)`: the
        /// `__torch_function__` protocol (`opyard.overrides`); `NotImplemented`
        /// when no override answers. `relevant` (from `_handle_function_protocol`
        /// and Python-level functions) is where to look for overrides instead of
        /// the arguments.
        function_protocol,
        /// `validate_grad(node, i, g, next, nr)`: a gradient whose shape differs
        /// from its input's (reduce a broadcast, or raise torch's message).
        validate_grad,
        /// `call_pre_hooks(node, grads) -> grads`: a node's pre-hooks.
        call_pre_hooks,
        /// `call_tensor_pre_hooks(node, grads) -> grads`: the hooks of the tensors
        /// whose gradients arrive at `node` (a leaf's, at its `AccumulateGrad`)
        /// and `retain_grad`'s, for a node `grad()` captures without running it.
        call_tensor_pre_hooks,
        /// `call_post_hooks(node, outputs, grads) -> outputs`: a node's hooks.
        call_post_hooks,
        /// General path of `Function.apply`: `apply_general(cls, args, kwargs)`.
        apply_general,
        /// General path of `function/outputs.rs`: `record_outputs(ctx, args, output)`.
        record_outputs,
        /// `check_dirty(ctx, args, output)`: `mark_dirty`'s checks without grad.
        check_dirty,
        /// `rebase_view_history(t, node, output_nr)`: an in-place op on a view
        /// rewrites the view's history (`views.py`; read by `_tensor_meta`).
        rebase_view_history,
        /// `regenerate_view_history(t)`: the `grad_fn` of view `t` whose memory
        /// changed since its history was made (`views.py`, or torch's error; read
        /// by `autograd/view_history.rs`).
        regenerate_view_history,
    }

    derived(py) {
        /// `add_`'s `Tensor` overload, looked up on first use (Note [Packets
        /// the switchboard holds]).
        add_tensor: GILOnceCell<PyObject> = GILOnceCell::new(),
        /// `ones_like`'s `default` overload, looked up on first use.
        ones_like_overload: GILOnceCell<PyObject> = GILOnceCell::new(),
        /// `NodeBase.release_variables`: nodes whose class does not override
        /// it are released without a Python call.
        default_release: PyObject = py
            .get_type_bound::<crate::python::autograd::node::PyNodeBase>()
            .getattr(pyo3::intern!(py, "release_variables"))?
            .unbind(),
    }
}

// Note [Packets the switchboard holds]: the engine's two built-in operators,
// `add_.Tensor` (accumulating into an existing `.grad`) and `ones_like.default`
// (the implicit root gradient), are handed over as their packets, which
// `import opyard` binds without defining (Note [Operators defined on first
// use], dispatch/lazy.rs); the overload is looked up, and so the packet
// defined, on the first backward pass that needs it, then kept here.
impl Hooks {
    /// `aten::add_.Tensor` (defined on the first call of this).
    pub fn add_inplace(&self, py: Python<'_>) -> PyResult<&PyObject> {
        self.add_tensor
            .get_or_try_init(py, || self.add_.getattr(py, intern!(py, "Tensor")))
    }

    /// `aten::ones_like.default` (defined on the first call of this).
    pub fn ones_like_default(&self, py: Python<'_>) -> PyResult<&PyObject> {
        self.ones_like_overload
            .get_or_try_init(py, || self.ones_like.getattr(py, intern!(py, "default")))
    }
}

/// One keyword argument of `_install_hooks`, taken out of `kwargs`.
fn take<'py, T: FromPyObject<'py>>(kwargs: &Bound<'py, PyDict>, name: &str) -> PyResult<T> {
    let value = kwargs
        .get_item(name)?
        .ok_or_else(|| PyTypeError::new_err(format!("_install_hooks() missing hook '{name}'")))?;
    kwargs.del_item(name)?;
    value
        .extract()
        .map_err(|e| PyTypeError::new_err(format!("_install_hooks(): hook '{name}': {e}")))
}

static HOOKS: GILOnceCell<Py<Hooks>> = GILOnceCell::new();

/// The hooks once `_install_hooks` ran (`None` while the package imports).
#[inline]
pub fn installed(py: Python<'_>) -> Option<&Hooks> {
    HOOKS.get(py).map(Py::get)
}

/// The hooks, or torch-style advice when the package is still importing.
#[inline]
pub fn hooks(py: Python<'_>) -> PyResult<&Hooks> {
    installed(py).ok_or_else(not_installed)
}

#[cold]
fn not_installed() -> PyErr {
    PyRuntimeError::new_err(
        "opyard._core: the hooks are not installed yet (`import opyard` installs them: opyard/_hooks.py)",
    )
}

/// Install every hook, once: `_install_hooks(tensor=..., size=..., ...)`,
/// one keyword per field of `Hooks`, each required.
#[pyfunction]
#[pyo3(signature = (**hooks))]
fn _install_hooks(py: Python<'_>, hooks: Option<Bound<'_, PyDict>>) -> PyResult<()> {
    if HOOKS.get(py).is_some() {
        return Err(PyRuntimeError::new_err(
            "_install_hooks(): the hooks are installed already (once, by opyard/_hooks.py)",
        ));
    }
    let kwargs = hooks.map_or_else(|| Ok(PyDict::new_bound(py)), |k| k.copy())?;
    let made = Hooks::from_kwargs(py, &kwargs)?;
    if let Some((name, _)) = kwargs.iter().next() {
        return Err(PyTypeError::new_err(format!(
            "_install_hooks() got an unexpected hook {name} (the hooks are: {})",
            Hooks::NAMES.join(", ")
        )));
    }
    // Cannot fail: the GIL is held and the cell was just seen empty.
    let _ = HOOKS.set(py, Py::new(py, made)?);
    Ok(())
}

/// The installed hooks, for the Python layers below the ones that define
/// them: `_hooks()` raises while the package imports, `_hooks(default)`
/// returns `default` then.
#[pyfunction]
#[pyo3(signature = (*default))]
fn _hooks(py: Python<'_>, default: &Bound<'_, PyTuple>) -> PyResult<PyObject> {
    match (HOOKS.get(py), default.len()) {
        (Some(h), _) => Ok(h.clone_ref(py).into_any()),
        (None, 0) => Err(not_installed()),
        (None, 1) => Ok(default.get_item(0)?.unbind()),
        (None, n) => Err(PyTypeError::new_err(format!(
            "_hooks() takes at most 1 argument ({n} given)"
        ))),
    }
}

/// `opyard.fake.SymInt` once the hook answered with it: a loaded module's
/// class never changes, so later calls compare without asking again.
static SYMINT: GILOnceCell<Py<PyType>> = GILOnceCell::new();

/// `opyard.fake.SymInt`, or `None` while `opyard.fake` is not loaded (then
/// each call asks the hook: only values of no common type get here).
pub fn symint_type(py: Python<'_>) -> Option<&Bound<'_, PyType>> {
    if let Some(t) = SYMINT.get(py) {
        return Some(t.bind(py));
    }
    let found = installed(py)?.symint_type.call0(py).ok()?;
    let ty = found.downcast_bound::<PyType>(py).ok()?.clone().unbind();
    Some(SYMINT.get_or_init(py, || ty).bind(py))
}

/// Whether the fast paths run (See Note [Fast paths and general paths]).
static FAST_PATHS: AtomicBool = AtomicBool::new(true);

/// Whether the Rust fast paths run: false when `OPYARD_FASTPATH=0` was in
/// the environment when `_core` was imported.
#[inline]
pub fn fast_paths() -> bool {
    FAST_PATHS.load(Ordering::Relaxed)
}

/// Add `_install_hooks`, `_hooks`, `Hooks` and `FAST_PATHS` to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let on = std::env::var_os("OPYARD_FASTPATH").is_none_or(|v| v != "0");
    FAST_PATHS.store(on, Ordering::Relaxed);
    m.add("FAST_PATHS", on)?;
    m.add_class::<Hooks>()?;
    m.add_function(wrap_pyfunction!(_install_hooks, m)?)?;
    m.add_function(wrap_pyfunction!(_hooks, m)?)
}
