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
//! the same arguments, which keeps torch's checks and messages. Subclasses
//! with `__torch_function__` reach this method through the routing
//! `opyard.overrides` installs on them, as they reached the Python method.
//!
//! The method is a CPython method descriptor (`METH_FASTCALL |
//! METH_KEYWORDS`) on `opyard.Tensor`: `t.backward(...)` calls it without a
//! bound-method object and without PyO3's argument parsing.

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyType;
use smallvec::SmallVec;
use std::ffi::CStr;

use crate::dispatch::tls::{self, LocalKeySets};
use crate::dispatch::DispatchKeySet;
use crate::python::ffi::ndarray::ArrayView;
use crate::python::hooks::{hooks, Hooks};
use crate::python::tensor::base::{ndarray_type, PyTensorBase};

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
/// the root gradient is `Hooks::ones_like`.
#[pyfunction]
pub fn _backward_method<'py>(tensor: &Bound<'py, PyType>) -> PyResult<Bound<'py, PyAny>> {
    let py = tensor.py();
    if !tensor.is_subclass_of::<PyTensorBase>()? {
        return Err(PyTypeError::new_err(
            "_backward_method expects opyard.Tensor (a subclass of TensorBase)",
        ));
    }
    let def: &'static mut ffi::PyMethodDef = Box::leak(Box::new(ffi::PyMethodDef {
        ml_name: c"backward".as_ptr(),
        ml_meth: ffi::PyMethodDefPointer {
            _PyCFunctionFastWithKeywords: backward_method,
        },
        ml_flags: ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
        ml_doc: DOC.as_ptr(),
    }));
    // SAFETY: `tensor` is a live type (a TensorBase subclass, so every instance
    // the descriptor accepts is a TensorBase) and `def` lives forever.
    unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyDescr_NewMethod(tensor.as_type_ptr(), def)) }
}

/// The call as CPython makes it: `slf` then `nargs` positional arguments,
/// then one value per name in `kwnames`. PyO3's trampoline (not a bare
/// slot wrapper): it tells PyO3 the GIL is held, so the references this call
/// drops are released at once, not deferred to PyO3's pool (a deferred
/// release would leave the engine's gradients with an extra reference, and
/// `.grad` a copy instead of the stolen gradient).
unsafe extern "C" fn backward_method(
    slf: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargsf: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    pyo3::impl_::trampoline::fastcall_with_keywords(slf, args, nargsf, kwnames, backward_body)
}

unsafe fn backward_body(
    py: Python<'_>,
    slf: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargsf: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> PyResult<*mut ffi::PyObject> {
    // SAFETY: CPython passes `nargs` positional values and one per keyword
    // name after them, all alive for the call; the method descriptor checked
    // that `slf` is an `opyard.Tensor`.
    let call = unsafe { Call::new(py, slf, args, nargsf, kwnames) };
    call.run().map(Bound::into_ptr)
}

/// One call's raw arguments.
struct Call<'py> {
    py: Python<'py>,
    slf: Bound<'py, PyAny>,
    /// Positional values then keyword values (borrowed from the caller).
    values: &'py [*mut ffi::PyObject],
    nargs: usize,
    kwnames: Option<Bound<'py, PyAny>>,
}

impl<'py> Call<'py> {
    /// # Safety
    /// As `backward_method`'s arguments: `args` holds `nargs` values plus one
    /// per name of `kwnames` (NULL or a tuple of str), alive during the call.
    unsafe fn new(
        py: Python<'py>,
        slf: *mut ffi::PyObject,
        args: *const *mut ffi::PyObject,
        nargsf: ffi::Py_ssize_t,
        kwnames: *mut ffi::PyObject,
    ) -> Self {
        let nargs = ffi::PyVectorcall_NARGS(nargsf as usize) as usize;
        let kwnames = Bound::from_borrowed_ptr_or_opt(py, kwnames);
        let nkw = kwnames
            .as_ref()
            .map_or(0, |k| ffi::PyTuple_GET_SIZE(k.as_ptr()) as usize);
        let values = if nargs + nkw == 0 {
            &[][..]
        } else {
            std::slice::from_raw_parts(args, nargs + nkw)
        };
        Call {
            py,
            slf: Bound::from_borrowed_ptr(py, slf),
            values,
            nargs,
            kwnames,
        }
    }

    fn run(&self) -> PyResult<Bound<'py, PyAny>> {
        let entry = hooks(self.py)?;
        match self.fast_case(entry)? {
            Some(retain) => {
                scalar_backward(self.py, entry, &self.slf, retain)?;
                Ok(self.py.None().into_bound(self.py))
            }
            None => self.general(entry),
        }
    }

    /// `Some(retain_graph)` when this call is `backward()` of the fast case
    /// (Note [Backward entry in Rust]), `None` otherwise.
    fn fast_case(&self, entry: &Hooks) -> PyResult<Option<bool>> {
        let mut given: [Option<Bound<'py, PyAny>>; PARAMS] = Default::default();
        if self.nargs > PARAMS {
            return Ok(None);
        }
        for (i, v) in self.values.iter().enumerate() {
            // SAFETY: every value is a live object for the call (see `Call::new`).
            let v = unsafe { Bound::from_borrowed_ptr(self.py, *v) };
            let slot = if i < self.nargs {
                i
            } else {
                let Some(names) = &self.kwnames else {
                    return Ok(None);
                };
                let name = names.get_item(i - self.nargs)?;
                let Some(p) = param_index(self.py, &name) else {
                    return Ok(None); // an unknown keyword: Python's TypeError
                };
                p
            };
            if given[slot].replace(v).is_some() {
                return Ok(None); // given twice: Python's TypeError
            }
        }
        let [gradient, retain_graph, create_graph, inputs] = given;
        let none_or_false =
            |v: &Option<Bound<'py, PyAny>>| v.as_ref().is_none_or(|v| v.is_none() || is_false(v));
        if gradient.as_ref().is_some_and(|g| !g.is_none())
            || inputs.as_ref().is_some_and(|i| !i.is_none())
            || !none_or_false(&create_graph)
            || !is_scalar_root(self.py, entry, &self.slf)
        {
            return Ok(None);
        }
        match retain_graph {
            None => Ok(Some(false)),
            Some(r) => Ok(Some(r.is_truthy()?)),
        }
    }

    /// The Python method, with this call's arguments.
    fn general(&self, entry: &Hooks) -> PyResult<Bound<'py, PyAny>> {
        let mut argv: SmallVec<[*mut ffi::PyObject; 8]> = SmallVec::new();
        argv.push(self.slf.as_ptr());
        argv.extend_from_slice(self.values);
        let kwnames = self
            .kwnames
            .as_ref()
            .map_or(std::ptr::null_mut(), |k| k.as_ptr());
        // SAFETY: `argv` holds `self` and the caller's values, alive for the
        // call; `kwnames` is the caller's tuple naming the trailing values.
        unsafe {
            let out = ffi::PyObject_Vectorcall(
                entry.backward.as_ptr(),
                argv.as_ptr(),
                self.nargs + 1,
                kwnames,
            );
            Bound::from_owned_ptr_or_err(self.py, out)
        }
    }
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
    // SAFETY: `Py_False` is a static object; comparing pointers reads nothing.
    v.as_ptr() == unsafe { ffi::Py_False() }
}

/// Whether `t` is the fast case's root: an exact `opyard.Tensor` that
/// requires grad, with a one-element floating-point numpy array.
fn is_scalar_root(py: Python<'_>, entry: &Hooks, t: &Bound<'_, PyAny>) -> bool {
    if !t.get_type().is(entry.tensor.bind(py)) {
        return false;
    }
    // SAFETY: `t`'s type is `opyard.Tensor`, a TensorBase subclass (checked at install).
    let base = unsafe { t.downcast_unchecked::<PyTensorBase>() }.get();
    if base.keys() & crate::python::autograd::record::autograd_mask() == 0 {
        return false;
    }
    let Some(data) = base.data(py) else {
        return false;
    };
    ArrayView::of(&data, ndarray_type(py))
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
    let root = crate::python::autograd::accumulate::call_op(entry.ones_like.bind(py), (t,))?;
    // SAFETY: checked by `is_scalar_root` (an `opyard.Tensor`).
    let base = unsafe { t.downcast_unchecked::<PyTensorBase>() }.get();
    let (node, nr) = match base.grad_fn(py) {
        Some(f) => (f, base.output_nr(py)?),
        None => (crate::python::autograd::record::_grad_accumulator(t)?, 0),
    };
    crate::python::autograd::engine::run_from_root(py, node, nr, root, retain)
}
