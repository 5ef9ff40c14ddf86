//! The one-pass unary math and `addcmul`/`addcdiv` kernels (`crate::kernels::unary_math`)
//! as `_core` functions the Python kernels call. As in Note [Fused kernels from Python],
//! each returns its result array or `None` when it does not take the inputs (not
//! C-contiguous, not aligned, a dtype or function it does not cover, the fast paths
//! off), and the Python kernel then computes with numpy as before; the kernel runs
//! with the GIL released.

use super::common::contiguous;
use super::fused::filled;
use crate::kernels::unary_math::{
    addc, clamp, map_f32, map_f64_libm, map_half, F32Op, F64Op, Half16,
};
use crate::python::hooks::fast_paths;
use numpy::{PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;

/// `op` (`"exp"`, `"tanh"`, `"sin"`, `"cos"`) of a C-contiguous array: float32
/// `exp`/`tanh` with `vmath`'s vectorised functions, float64 `sin`/`cos` with the C
/// library's (numpy's own values), on the pool when large; with `half` 1 (bfloat16)
/// or 2 (float16) the array holds 16-bit raw bits (`x.view(np.uint16)`) and `exp`/
/// `tanh` run in float32, rounded once, into new raw bits. `None` for anything else.
#[pyfunction]
fn _unary_math(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    op: &str,
    half: u8,
) -> PyResult<Option<PyObject>> {
    if !fast_paths() {
        return Ok(None);
    }
    let f32_op = match op {
        "exp" => Some(F32Op::Exp),
        "tanh" => Some(F32Op::Tanh),
        _ => None,
    };
    if half != 0 {
        let (Some(op), Some(xr)) = (f32_op, contiguous::<u16>(x)) else {
            return Ok(None);
        };
        let format = if half == 1 { Half16::BF16 } else { Half16::F16 };
        let out = PyArrayDyn::<u16>::zeros_bound(py, xr.shape(), false);
        {
            let xs = xr.as_slice()?;
            let mut w = out.readwrite();
            let os = w.as_slice_mut()?;
            py.allow_threads(|| map_half(xs, format, os, op));
        }
        return Ok(Some(out.into_any().unbind()));
    }
    if let (Some(op), Some(xr)) = (f32_op, contiguous::<f32>(x)) {
        let xs = xr.as_slice()?;
        let out = filled(py, xr.shape(), |os| map_f32(xs, os, op))?;
        return Ok(Some(out.unbind()));
    }
    let f64_op = match op {
        "sin" => F64Op::Sin,
        "cos" => F64Op::Cos,
        _ => return Ok(None),
    };
    let Some(xr) = contiguous::<f64>(x) else {
        return Ok(None);
    };
    let xs = xr.as_slice()?;
    let out = filled(py, xr.shape(), |os| map_f64_libm(xs, os, f64_op))?;
    Ok(Some(out.unbind()))
}

fn addc_as<'py, T>(
    py: Python<'py>,
    s: &Bound<'py, PyAny>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    value: T,
    scale: bool,
    div: bool,
) -> PyResult<Option<PyObject>>
where
    T: crate::kernels::unary_math::AddcElem
        + numpy::Element
        + crate::python::ffi::numpy::Elem
        + Send,
{
    let (Some(sr), Some(ar), Some(br)) =
        (contiguous::<T>(s), contiguous::<T>(a), contiguous::<T>(b))
    else {
        return Ok(None);
    };
    if sr.shape() != ar.shape() || sr.shape() != br.shape() {
        return Ok(None);
    }
    let (ss, as_, bs) = (sr.as_slice()?, ar.as_slice()?, br.as_slice()?);
    let out = filled(py, sr.shape(), |os| {
        addc(ss, as_, bs, value, scale, div, os)
    })?;
    Ok(Some(out.unbind()))
}

/// `s + value * (a * b)` (`div` false: addcmul) or `s + value * (a / b)` (addcdiv) of
/// three C-contiguous float32 or float64 arrays of one shape and dtype, computed as
/// numpy's `(a op b) * value + s` with `value` in the arrays' dtype (the product by it
/// skipped when `scale` is false); or `None`.
#[pyfunction]
fn _fused_addc(
    py: Python<'_>,
    s: &Bound<'_, PyAny>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    value: f64,
    scale: bool,
    div: bool,
) -> PyResult<Option<PyObject>> {
    if !fast_paths() {
        return Ok(None);
    }
    if s.downcast::<PyArrayDyn<f32>>().is_ok() {
        addc_as::<f32>(py, s, a, b, value as f32, scale, div)
    } else if s.downcast::<PyArrayDyn<f64>>().is_ok() {
        addc_as::<f64>(py, s, a, b, value, scale, div)
    } else {
        Ok(None)
    }
}

/// `clamp(x, lo, hi)` of a C-contiguous float32 or float64 array with scalar bounds
/// (`None` bounds nothing; a float bound is first rounded to the array's dtype, as
/// torch does), torch's values (`kernels::unary_math::clamp`); or `None`.
#[pyfunction]
#[pyo3(signature = (x, lo, hi))]
fn _clamp_scalars(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    lo: Option<f64>,
    hi: Option<f64>,
) -> PyResult<Option<PyObject>> {
    if !fast_paths() {
        return Ok(None);
    }
    if let Some(xr) = contiguous::<f32>(x) {
        let xs = xr.as_slice()?;
        let (lo, hi) = (lo.map(|v| v as f32), hi.map(|v| v as f32));
        let out = filled(py, xr.shape(), |os| clamp(xs, lo, hi, os))?;
        return Ok(Some(out.unbind()));
    }
    if let Some(xr) = contiguous::<f64>(x) {
        let xs = xr.as_slice()?;
        let out = filled(py, xr.shape(), |os| clamp(xs, lo, hi, os))?;
        return Ok(Some(out.unbind()));
    }
    Ok(None)
}

/// Add this area's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_unary_math, m)?)?;
    m.add_function(wrap_pyfunction!(_clamp_scalars, m)?)?;
    m.add_function(wrap_pyfunction!(_fused_addc, m)?)
}
