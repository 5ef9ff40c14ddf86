//! Rust kernels for the hottest built-in ops, registered as their CPU kernels.
//!
//! Note [Rust kernels]: a `RustKernel` wraps the op's Python kernel (its
//! fallback and readable definition, `__wrapped__`). The dispatcher calls it
//! like any kernel; it runs the Rust loop (`crate::kernels`) when the call is
//! the common one — plain CPU tensors (`Tensor`, or a type registered with
//! `_register_plain_tensor_type(cls, kernels=True)` such as `Parameter`), contiguous numpy arrays of
//! float32/float64/int32/int64, one dtype, equal shapes or one side a single
//! element or a Python number, no extra arguments, not too large — and
//! otherwise calls the Python kernel with the same arguments, so every other
//! case (broadcasting, promotion, meta, subclasses, errors) keeps exactly its
//! behaviour and messages. The result of the fast path is bit-identical to
//! the Python kernel's (Note [Kernel numerics]). `expand` is the exception to
//! "a Rust loop": it makes the same zero-stride numpy view as the Python
//! kernel, through numpy's C API instead of `np.broadcast_to` (and `detach`/
//! `alias` the view `arr[...]` is, by `PyArray_View`); `add_`, `sub_`
//! and `mul_` update `self`'s array in place and bump its version counter,
//! reading a same-shape operand of any strides (`kernels/strided.rs`); the
//! shape views (`view`, `t`, `select`, `slice`, ...) make the numpy view their
//! Python kernel makes (Note [Shape views as numpy makes them]).

mod binary;
mod common;
mod fused;
mod inplace;
mod order;
mod pool;
mod reduce;
mod scalars;
mod select;
mod tensor_io;
mod unary;
mod unary_math;
mod view;
mod view_args;
mod view_layout;
mod view_shape;

pub use tensor_io::{plain_cpu_tensor, register_kernel_plain_type, wrap_result};

use crate::dispatch::DispatchKeySet;
use crate::kernels::elementwise::BinOp;
use crate::python::dispatch::operator::{pick, PyOpOverload};
use crate::python::ffi::call_slot::FastOrGeneral;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use unary::Unary;
use view_shape::ShapeView;

/// Which fast path a `RustKernel` runs.
#[derive(Clone, Copy, Debug)]
enum Fast {
    /// add/sub/mul/div; `true`: the `.Scalar` overload (alpha positional).
    Binary(BinOp, bool),
    Unary(Unary),
    Expand,
    /// detach/alias: a view of the whole array; `true`: detach (no `_base`).
    Whole(bool),
    /// add_/sub_/mul_ with a tensor operand.
    InPlace(BinOp),
    /// view/reshape/t/transpose/permute/unsqueeze/squeeze/select/slice/narrow.
    Shape(ShapeView),
}

/// The overloads that have a Rust kernel, by `name.overload`.
const FAST_OPS: &[(&str, Fast)] = &[
    ("add.Tensor", Fast::Binary(BinOp::Add, false)),
    ("add.Scalar", Fast::Binary(BinOp::Add, true)),
    ("sub.Tensor", Fast::Binary(BinOp::Sub, false)),
    ("sub.Scalar", Fast::Binary(BinOp::Sub, true)),
    ("mul.Tensor", Fast::Binary(BinOp::Mul, false)),
    ("mul.Scalar", Fast::Binary(BinOp::Mul, true)),
    ("div.Tensor", Fast::Binary(BinOp::Div, false)),
    ("div.Scalar", Fast::Binary(BinOp::Div, true)),
    ("neg", Fast::Unary(Unary::Neg)),
    ("sum", Fast::Unary(Unary::Sum)),
    ("clone", Fast::Unary(Unary::Clone)),
    ("ones_like", Fast::Unary(Unary::OnesLike)),
    ("zeros_like", Fast::Unary(Unary::ZerosLike)),
    ("expand", Fast::Expand),
    ("detach", Fast::Whole(true)),
    ("alias", Fast::Whole(false)),
    ("add_.Tensor", Fast::InPlace(BinOp::Add)),
    ("sub_.Tensor", Fast::InPlace(BinOp::Sub)),
    ("mul_.Tensor", Fast::InPlace(BinOp::Mul)),
    ("view", Fast::Shape(ShapeView::View)),
    ("reshape", Fast::Shape(ShapeView::Reshape)),
    ("t", Fast::Shape(ShapeView::T)),
    ("transpose.int", Fast::Shape(ShapeView::Transpose)),
    ("permute", Fast::Shape(ShapeView::Permute)),
    ("unsqueeze", Fast::Shape(ShapeView::Unsqueeze)),
    ("squeeze", Fast::Shape(ShapeView::Squeeze)),
    ("squeeze.dim", Fast::Shape(ShapeView::SqueezeDim)),
    ("select.int", Fast::Shape(ShapeView::Select)),
    ("slice.Tensor", Fast::Shape(ShapeView::Slice)),
    ("narrow", Fast::Shape(ShapeView::Narrow)),
];

/// A CPU kernel in Rust with the op's Python kernel as its fallback.
#[pyclass(name = "RustKernel", module = "opyard._core", frozen)]
pub struct PyRustKernel {
    fast: Fast,
    name: &'static str,
    fallback: PyObject,
}

impl FastOrGeneral for PyRustKernel {
    fn general(&self) -> &PyObject {
        &self.fallback
    }

    /// The Rust kernel, or None for the Python one (also the body of `__call__` and
    /// of the type's raw `tp_call`, see [`install_call_slot`]).
    fn fast(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Option<PyObject>> {
        Ok(match self.fast {
            Fast::Binary(op, scalar) => binary::binary(py, op, args, kwargs, scalar)?,
            Fast::Unary(which) => unary::unary(py, which, args, kwargs)?,
            Fast::Expand => view::expand(py, args, kwargs)?,
            Fast::Whole(detached) => view::whole(py, args, kwargs, detached)?,
            Fast::InPlace(op) => inplace::inplace(py, op, args, kwargs)?,
            Fast::Shape(which) => view_shape::shape_view(py, which, args, kwargs)?,
        })
    }
}

crate::python::ffi::call_slot::fast_or_general_slot!(
    /// The dispatcher calls a kernel with `PyObject_Call(kernel, args, kwargs)`:
    /// pointing the type's `tp_call` at a raw body skips PyO3's argument
    /// extraction (the tuple and dict are what the fast paths read anyway), the
    /// same idea as Note [Packet call slots]. `kernel.__call__(...)` reaches the same body.
    install_call_slot, PyRustKernel);

#[pymethods]
impl PyRustKernel {
    /// `RustKernel("add.Tensor", add)`: the Rust kernel of an aten overload
    /// (see `RustKernel.ops()`), falling back to `fallback`.
    #[new]
    fn new(op: &str, fallback: PyObject) -> PyResult<Self> {
        let Some(&(name, fast)) = FAST_OPS.iter().find(|(n, _)| *n == op) else {
            return Err(PyValueError::new_err(format!(
                "RustKernel: no Rust kernel for aten::{}; the ones with one are {:?}",
                crate::python::errors::clip(op),
                FAST_OPS.iter().map(|(n, _)| *n).collect::<Vec<_>>()
            )));
        };
        Ok(PyRustKernel {
            fast,
            name,
            fallback,
        })
    }

    /// The `name.overload`s that have a Rust kernel.
    #[staticmethod]
    fn ops() -> Vec<&'static str> {
        FAST_OPS.iter().map(|(n, _)| *n).collect()
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

    /// The Python kernel this one falls back to.
    #[getter]
    fn __wrapped__(&self, py: Python<'_>) -> PyObject {
        self.fallback.clone_ref(py)
    }

    /// The fallback's name, so dumps and `get_kernel` name the kernel as before.
    #[getter]
    fn __name__(&self, py: Python<'_>) -> PyResult<PyObject> {
        self.fallback.getattr(py, "__name__")
    }

    #[getter]
    fn __qualname__(&self, py: Python<'_>) -> PyResult<PyObject> {
        self.fallback.getattr(py, "__qualname__")
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "<RustKernel aten::{} falling back to {}>",
            self.name,
            self.fallback.bind(py).repr()?
        ))
    }
}

/// `cur.add_(g)` without the dispatcher's call machinery, for the engine's
/// accumulation into an existing `.grad` (`autograd/accumulate.rs`): `true`
/// when it ran, `false` (nothing done) unless the call `add_op(cur, g)` would
/// reach this area's `add_.Tensor` kernel and that kernel's fast path serves
/// it. What the dispatcher would do first is asked the same way it asks:
/// `__torch_function__` (no mode, both tensors plain), then the kernel of
/// the highest key of the tensors' keys with the thread's included and
/// excluded keys applied, so a dispatch mode, a subclass, another device or
/// a kernel registered over the built-in one all take the full call.
pub fn add_into_existing(
    add_op: &Bound<'_, PyOpOverload>,
    cur: &Bound<'_, PyAny>,
    g: &Bound<'_, PyAny>,
) -> PyResult<bool> {
    let (Some(a), Some(b)) = (plain_cpu_tensor(cur), plain_cpu_tensor(g)) else {
        return Ok(false);
    };
    if crate::python::dispatch::tls::wants_function_protocol(false) {
        return Ok(false);
    }
    let keys = crate::dispatch::tls::apply(DispatchKeySet::from_raw(a.keys() | b.keys()));
    let py = cur.py();
    let Ok((kernel, _)) = pick(py, &add_op.get().op, keys) else {
        return Ok(false);
    };
    if kernel.with_keyset || kernel.is_fallback {
        return Ok(false);
    }
    let Ok(rk) = kernel.func.downcast_exact::<PyRustKernel>() else {
        return Ok(false);
    };
    if !matches!(rk.get().fast, Fast::InPlace(BinOp::Add)) {
        return Ok(false);
    }
    Ok(inplace::update_pair(py, BinOp::Add, cur, g, None)?.is_some())
}

/// The pool of large result buffers (Note [Reused output buffers]): `(owners,
/// bytes, owners in use)`.
#[pyfunction]
fn _result_pool_stats(py: Python<'_>) -> (usize, usize, usize) {
    crate::python::ffi::buffer_pool::stats(py)
}

/// Drop the pool's free buffers (the ones results still use stay).
#[pyfunction]
fn _release_result_pool(py: Python<'_>) {
    crate::python::ffi::buffer_pool::release(py)
}

/// Add this area's classes and functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRustKernel>()?;
    m.add_function(wrap_pyfunction!(_result_pool_stats, m)?)?;
    m.add_function(wrap_pyfunction!(_release_result_pool, m)?)?;
    fused::register(m)?;
    unary_math::register(m)?;
    select::register(m)?;
    reduce::register(m)?;
    pool::register(m)?;
    order::register(m)?;
    install_call_slot(m.py());
    Ok(())
}
