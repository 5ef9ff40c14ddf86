//! The function `vmap(f)` returns, as a Rust callable.
//!
//! Note [vmap's function in Rust]: `opyard.func.vmap(f)` with `in_dims=0`
//! (the int) or a flat tuple of `0`s and `None`s with at least one `0` (then
//! `mapped`: the inputs mapped along dim 0, the others passed as they are),
//! no `chunk_size` and valid `out_dims` returns a
//! `_core.VmapFunction`: what the call needs besides its arguments (the
//! function, randomness, name, `out_dims` and whether it is an int, the
//! `VmapLevel` class, the level counter, the thread's transform stack, the
//! output rules) is read once, at `vmap()` time, and a call with tensors
//! mapped along dim 0 runs entirely here: the batch size from each input's
//! numpy header, the level record made and filled, then [`super::run`] (push,
//! `VmapMode`, wrap, call, restore), then the physical result or `vmap`'s
//! output rules. Every other call (a mapped input that is not a tensor, a
//! 0-dim input, unequal sizes, storage that is not a numpy array; with a tuple
//! `in_dims`, another number of inputs or an unmapped input that is a tuple,
//! list or dict, which the general path rebuilds) goes to the Python
//! function `vmap` built (`general`), which checks and reports as before; so
//! does every call with the fast paths off (`vmap` then returns that function
//! itself). `functools.update_wrapper` gives the object `f`'s name, doc and
//! `__wrapped__` (the class has a `__dict__`), and `__get__` binds it as a
//! method the way a Python function binds.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyIterator, PyList, PyString, PyTuple, PyType};

use crate::python::dispatch::operator::bind_method;
use crate::python::ffi::call_slot::FastOrGeneral;
use crate::python::ffi::ndarray::ArrayView;
use crate::python::hooks::installed;

/// What every call of a `vmap`'d function reads, prepared at `vmap()` time.
#[pyclass(name = "VmapFunction", module = "opyard._core", frozen, dict, weakref)]
pub struct PyVmapFunction {
    func: PyObject,
    /// The Python function `vmap` built: every call this one does not serve.
    general: PyObject,
    randomness: PyObject,
    name: PyObject,
    out_dims: PyObject,
    /// `out_dims` is an int (then it is valid: checked when `vmap` was called).
    out_dims_int: bool,
    /// `out_dims == 0`.
    out_dims_zero: bool,
    /// With a tuple `in_dims`: which inputs are mapped (along dim 0); None: every input.
    mapped: Option<Box<[bool]>>,
    /// `(VmapLevel, level numbers, the thread-local stack holder, _outputs, move_dim)`.
    context: Context,
}

/// What `vmap`'s module hands every `VmapFunction` (`_CONTEXT`), unpacked at `vmap()` time.
struct Context {
    level_cls: Py<PyType>,
    numbers: PyObject,
    stack: PyObject,
    outputs: PyObject,
    move_dim: PyObject,
}

/// The batch size when every mapped input (`mapped`: which; None: all) is a
/// tensor whose storage is a numpy array with at least one dimension, all of
/// one size at dim 0, and no unmapped input is a container; else `None`.
fn batch_size(args: &Bound<'_, PyTuple>, mapped: Option<&[bool]>) -> Option<isize> {
    let py = args.py();
    let tensor = installed(py)?.tensor.bind(py);
    if mapped.is_some_and(|m| m.len() != args.len()) {
        return None;
    }
    let mut size = None;
    for (i, a) in args.iter().enumerate() {
        if mapped.is_some_and(|m| !m[i]) {
            if a.is_instance_of::<PyTuple>()
                || a.is_instance_of::<PyList>()
                || a.is_instance_of::<PyDict>()
            {
                return None;
            }
            continue;
        }
        if !crate::python::ffi::object::is_instance_of_type(&a, tensor) {
            return None;
        }
        let base = a
            .downcast::<crate::python::tensor::base::PyTensorBase>()
            .ok()?;
        let data = base.get().data(py)?;
        let first = *ArrayView::of(&data)?.dims().first()?;
        match size {
            None => size = Some(first),
            Some(s) if s != first => return None,
            Some(_) => {}
        }
    }
    size
}

impl FastOrGeneral for PyVmapFunction {
    fn general(&self) -> &PyObject {
        &self.general
    }

    /// The call with tensors mapped along dim 0 (Note [vmap's function in Rust]).
    fn fast(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Option<PyObject>> {
        let mapped = self.mapped.as_deref();
        let Some(size) = batch_size(args, mapped) else {
            return Ok(None);
        };
        let ctx = &self.context;
        // The level record, as `push_layer` makes it: `VmapLevel(level, batch_size,
        // randomness, name)`, its five slots written in place (Note [SavedTensor slots]):
        // the class call's `__init__` frame cost a quarter of an empty vmap call.
        let level = PyIterator::from_bound_object(ctx.numbers.bind(py))?
            .next()
            .unwrap_or_else(|| Err(pyo3::exceptions::PyStopIteration::new_err(())))?;
        let level_cls = ctx.level_cls.bind(py);
        let layer = match super::level_layout(py, level_cls) {
            Some(layout) => layout.new_instance(
                py,
                [
                    &level,
                    &size.into_py(py).into_bound(py),
                    self.randomness.bind(py),
                    self.name.bind(py),
                    &py.None().into_bound(py),
                ],
            )?,
            None => {
                level_cls.call1((&level, size, self.randomness.bind(py), self.name.bind(py)))?
            }
        };
        let levels = super::thread_levels(py, ctx.stack.bind(py))?;
        let kwargs = kwargs.filter(|k| !k.is_empty());
        let func = self.func.bind(py);
        let (done, out) = super::run(
            py,
            func,
            args,
            kwargs,
            &layer,
            &level,
            &levels,
            self.out_dims_int,
            mapped,
        )?;
        let out_dims = self.out_dims.bind(py);
        if done {
            if self.out_dims_zero {
                return Ok(Some(out.unbind()));
            }
            return Ok(Some(
                ctx.move_dim.bind(py).call1((out, 0, out_dims))?.unbind(),
            ));
        }
        let outputs = ctx.outputs.bind(py);
        Ok(Some(
            outputs.call1((func, out, out_dims, level, size))?.unbind(),
        ))
    }
}

crate::python::ffi::call_slot::fast_or_general_slot!(
    /// A `VmapFunction` is called with the argument tuple and keyword dict
    /// CPython built, without PyO3's argument extraction (Note [Packet call slots]).
    install_call_slot, PyVmapFunction);

#[pymethods]
impl PyVmapFunction {
    /// `VmapFunction(func, general, randomness, name, out_dims, context, mapped=None)`;
    /// see Note [vmap's function in Rust].
    #[new]
    #[pyo3(signature = (func, general, randomness, name, out_dims, context, mapped=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        func: PyObject,
        general: PyObject,
        randomness: PyObject,
        name: PyObject,
        out_dims: &Bound<'_, PyAny>,
        context: &Bound<'_, PyAny>,
        mapped: Option<Vec<bool>>,
    ) -> PyResult<Self> {
        let out_dims_int = out_dims
            .get_type()
            .is(&py.get_type_bound::<pyo3::types::PyLong>());
        let out_dims_zero = out_dims_int && out_dims.eq(0)?;
        let (level_cls, numbers, stack, outputs, move_dim) = context.extract()?;
        Ok(PyVmapFunction {
            func,
            general,
            randomness,
            name,
            out_dims: out_dims.clone().unbind(),
            out_dims_int,
            out_dims_zero,
            mapped: mapped.map(Vec::into_boxed_slice),
            context: Context {
                level_cls,
                numbers,
                stack,
                outputs,
                move_dim,
            },
        })
    }

    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        FastOrGeneral::call(self, py, args, kwargs)
    }

    /// The objects held, for the cycle collector (a function that refers to its own
    /// `vmap`'d form makes a cycle through this object; the function's own clear breaks it).
    fn __traverse__(&self, visit: pyo3::PyVisit<'_>) -> Result<(), pyo3::PyTraverseError> {
        let c = &self.context;
        for o in [
            &self.func,
            &self.general,
            &self.randomness,
            &self.name,
            &self.out_dims,
        ] {
            visit.call(o)?;
        }
        visit.call(&c.level_cls)?;
        for o in [&c.numbers, &c.stack, &c.outputs, &c.move_dim] {
            visit.call(o)?;
        }
        Ok(())
    }

    /// The function mapped: held by this object itself, not in its `__dict__`, which
    /// the cycle collector does not see (a function referring to its own `vmap`'d form
    /// would otherwise make a cycle that is never collected).
    #[getter]
    fn __wrapped__(&self, py: Python<'_>) -> PyObject {
        self.func.clone_ref(py)
    }

    /// `functools.update_wrapper` sets `__wrapped__` to the function mapped, which it already is.
    #[setter(__wrapped__)]
    fn set_wrapped(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        if value.is(&self.func) {
            return Ok(());
        }
        Err(pyo3::exceptions::PyAttributeError::new_err(
            "the __wrapped__ of a vmap'd function is the function it maps",
        ))
    }

    /// Bound as a method when stored on a class, as a Python function is.
    fn __get__(
        slf: &Bound<'_, Self>,
        obj: Option<&Bound<'_, PyAny>>,
        _ty: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyObject> {
        bind_method(slf.as_any(), obj)
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let name = slf
            .getattr(pyo3::intern!(slf.py(), "__qualname__"))
            .and_then(|n| n.downcast_into::<PyString>().map_err(PyErr::from))
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "vmap".to_string());
        Ok(format!("<function {name} at {:#x}>", slf.as_ptr() as usize))
    }
}

/// Add this area's classes to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVmapFunction>()?;
    install_call_slot(m.py());
    Ok(())
}
