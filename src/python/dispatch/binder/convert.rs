//! Per-type checks of one value (int64 range, list lengths, Scalar range,
//! ScalarType codes) and why a value does not fit (`Misfit`, `Detail`).
//!
//! Note [Fixed-size int lists]: in ATen schemas `int[N]` means "one int, which
//! stands for N copies of itself, or a list of ints". As in torch, the binder
//! does not fix the list's length (`sum(Tensor self, int[1]? dim)` takes several
//! dims, `avg_pool2d` takes `padding=[1]`): the kernel checks it and says what
//! it accepts ("max_pool2d: kernel_size must either be a single int, or a tuple
//! of two ints").

use super::plain::Gathered;
use crate::python::hooks::{installed, symint_type};
use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBool, PyComplex, PyFloat, PyList, PyLong, PyTuple};
use std::fmt;

/// The longest list a single int is expanded to for `int[N]`: list sizes are
/// dimension counts in practice, and a larger N would allocate without bound.
pub(super) const MAX_EXPANDED_LIST: i64 = 1 << 16;

/// Why an argument does not fit (before it is turned into a message).
pub(super) enum Misfit {
    /// A value of the wrong type.
    Type,
    /// The right type, but a value the type cannot hold.
    Value(Detail),
    /// Fits after a conversion, which strict binding refuses.
    NeedsConversion,
    /// `None` for a tensor a built-in kernel needs. See Note [Undefined tensors].
    Undefined,
}

/// What is wrong with a value of the right type; printed as torch's "Cast error details".
#[derive(Clone, Copy, Debug)]
pub(super) enum Detail {
    IntRange,
    ScalarRange,
    FloatRange,
    Expansion {
        n: i64,
    },
    ScalarTypeCode,
    /// An int that is no value's code (`Layout`, `MemoryFormat`): how many codes there are.
    EnumCode {
        what: &'static str,
        n: usize,
    },
}

impl fmt::Display for Detail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Detail::IntRange => f.write_str(
                "value out of range for a 64-bit integer (int64 holds -2**63 to 2**63-1)",
            ),
            Detail::ScalarRange => f.write_str(
                "int too big to convert: a Scalar holds integers from -2**63 to 2**64-1",
            ),
            Detail::FloatRange => f.write_str("int too large to convert to float"),
            Detail::Expansion { n } => write!(
                f,
                "a single int would expand to {n} elements (more than {MAX_EXPANDED_LIST}); pass a list"
            ),
            Detail::EnumCode { what, n } => write!(
                f,
                "unsupported at::{what}: an int {what} is a code from 0 to {}; pass the opyard object \
                 (opyard.strided, opyard.contiguous_format, ...)",
                n - 1
            ),
            Detail::ScalarTypeCode => {
                f.write_str("unsupported scalarType: the int is no dtype's ScalarType code; pass a dtype such as opyard.float32")
            }
        }
    }
}

/// Whether a value is an int, and one that fits an int64.
pub(super) enum IntFit {
    Fits,
    OutOfRange,
    NotInt,
}

pub(super) fn int_fit(v: &Bound<'_, PyAny>, sym: bool) -> IntFit {
    if v.is_instance_of::<PyLong>() && !v.is_instance_of::<PyBool>() {
        return match v.extract::<i64>() {
            Ok(_) => IntFit::Fits,
            Err(_) => IntFit::OutOfRange,
        };
    }
    if sym && is_symint(v) {
        IntFit::Fits
    } else {
        IntFit::NotInt
    }
}

/// Whether `v` is an `opyard.fake.SymInt` (false while `opyard.fake` is not loaded).
pub(super) fn is_symint(v: &Bound<'_, PyAny>) -> bool {
    symint_type(v.py()).is_some_and(|t| v.is_instance(t).unwrap_or(false))
}

/// Whether `v` is an `opyard.dtype` (false while the hooks are not installed).
pub(super) fn is_dtype(v: &Bound<'_, PyAny>) -> bool {
    installed(v.py()).is_some_and(|h| v.is_instance(h.dtype.bind(v.py())).unwrap_or(false))
}

/// The number of items of a list or tuple (`None` for anything else).
fn seq_len(v: &Bound<'_, PyAny>) -> Option<usize> {
    if let Ok(l) = v.downcast::<PyList>() {
        Some(l.len())
    } else {
        v.downcast::<PyTuple>().ok().map(|t| t.len())
    }
}

pub(super) fn all_items(
    v: &Bound<'_, PyAny>,
    mut f: impl FnMut(&Bound<'_, PyAny>) -> bool,
) -> bool {
    if let Ok(l) = v.downcast::<PyList>() {
        l.iter().all(|x| f(&x))
    } else if let Ok(t) = v.downcast::<PyTuple>() {
        t.iter().all(|x| f(&x))
    } else {
        false
    }
}

pub(super) fn fits(ok: bool) -> Result<(), Misfit> {
    if ok {
        Ok(())
    } else {
        Err(Misfit::Type)
    }
}

/// A value that fits after a conversion: refused by strict binding.
pub(super) fn conversion(strict: bool) -> Result<(), Misfit> {
    Err(if strict {
        Misfit::Type
    } else {
        Misfit::NeedsConversion
    })
}

/// numpy's scalar classes, imported on the first value that is no Python number.
struct NumpyScalars {
    /// `numpy.number` and `numpy.bool_`: what a Scalar takes (as torch does).
    number: PyObject,
    bool_: PyObject,
    /// `numpy.integer` and `numpy.floating`: what a float takes.
    integer: PyObject,
    floating: PyObject,
}

static NUMPY_SCALARS: GILOnceCell<Option<NumpyScalars>> = GILOnceCell::new();

fn numpy_scalars(py: Python<'_>) -> Option<&NumpyScalars> {
    NUMPY_SCALARS
        .get_or_init(py, || {
            let np = py.import_bound("numpy").ok()?;
            let get = |name: &str| np.getattr(name).ok().map(Bound::unbind);
            Some(NumpyScalars {
                number: get("number")?,
                bool_: get("bool_")?,
                integer: get("integer")?,
                floating: get("floating")?,
            })
        })
        .as_ref()
}

/// Note [Numpy scalars]: torch binds a numpy scalar (`np.float32(2)`,
/// `np.int64(3)`, `np.bool_(True)`) where a Scalar or a float goes, as the
/// Python number it holds. opyard converts it the same way (`item()`), so
/// `t * np.float32(2)` is the tensor op; without it the tensor's operator
/// would decline and numpy's own would answer with an ndarray. Only values
/// that are no Python number reach this check.
///
/// A numpy bool is no Python bool to torch's Scalar parser (which tests for
/// `bool` exactly, then for an integer): it falls through to the double
/// case, so `t - np.True_` subtracts 1.0 and `int_t + np.True_` is a float
/// tensor. `numpy_scalar_item` converts it the same way.
pub(super) fn numpy_scalar(v: &Bound<'_, PyAny>, float_only: bool) -> bool {
    let py = v.py();
    let Some(c) = numpy_scalars(py) else {
        return false;
    };
    let is = |t: &PyObject| v.is_instance(t.bind(py)).unwrap_or(false);
    if float_only {
        is(&c.floating) || is(&c.integer)
    } else {
        is(&c.number) || is(&c.bool_)
    }
}

pub(super) fn check_float(v: &Bound<'_, PyAny>, strict: bool) -> Result<(), Misfit> {
    if v.is_instance_of::<PyFloat>() {
        Ok(())
    } else if v.is_instance_of::<PyLong>() && !v.is_instance_of::<PyBool>() {
        conversion(strict)
    } else if numpy_scalar(v, true) {
        // See Note [Numpy scalars].
        conversion(strict)
    } else if is_symint(v) {
        if strict {
            Err(Misfit::Type)
        } else {
            Ok(())
        }
    } else {
        Err(Misfit::Type)
    }
}

/// A Scalar holds an int64, a uint64 (torch's range), a double or a complex;
/// a numpy scalar converts to the Python number it holds (Note [Numpy scalars]).
pub(super) fn check_scalar(v: &Bound<'_, PyAny>, strict: bool) -> Result<(), Misfit> {
    if v.is_instance_of::<PyLong>() {
        if v.is_instance_of::<PyBool>() || v.extract::<i64>().is_ok() || v.extract::<u64>().is_ok()
        {
            Ok(())
        } else {
            Err(Misfit::Value(Detail::ScalarRange))
        }
    } else if v.is_instance_of::<PyFloat>() || v.is_instance_of::<PyComplex>() || is_symint(v) {
        Ok(())
    } else if numpy_scalar(v, false) {
        conversion(strict)
    } else {
        Err(Misfit::Type)
    }
}

/// The Python number a numpy scalar holds, checked again as a Scalar (an
/// `np.uint64` past int64 stays in range, a `np.longdouble` past a double
/// does not fit); a numpy bool is the float 1.0 or 0.0, as in torch. See
/// Note [Numpy scalars].
pub(super) fn numpy_scalar_item<'py>(
    v: &Bound<'py, PyAny>,
) -> PyResult<Result<Bound<'py, PyAny>, Detail>> {
    let py = v.py();
    if numpy_scalars(py).is_some_and(|c| v.is_instance(c.bool_.bind(py)).unwrap_or(false)) {
        let one = if v.is_truthy()? { 1.0 } else { 0.0 };
        return Ok(Ok(PyFloat::new_bound(py, one).into_any()));
    }
    let item = v.call_method0(pyo3::intern!(py, "item"))?;
    Ok(match check_scalar(&item, true) {
        Ok(()) => Ok(item),
        Err(_) => Err(Detail::ScalarRange),
    })
}

pub(super) fn check_scalar_type(v: &Bound<'_, PyAny>, strict: bool) -> Result<(), Misfit> {
    let py = v.py();
    match installed(py) {
        Some(h) if v.is_instance(h.dtype.bind(py)).unwrap_or(false) => Ok(()),
        // A ScalarType code (how schema defaults store dtypes) converts to its dtype.
        Some(_) if v.is_instance_of::<PyLong>() && !v.is_instance_of::<PyBool>() => {
            conversion(strict)
        }
        Some(_) => Err(Misfit::Type),
        None => Ok(()),
    }
}

/// The schema types whose values are objects of an `opyard` enum-like class,
/// which torch's binding also takes as their int code (TorchScript's type).
#[derive(Clone, Copy)]
pub(super) enum EnumLike {
    Layout,
    MemoryFormat,
}

impl EnumLike {
    fn name(self) -> &'static str {
        match self {
            EnumLike::Layout => "Layout",
            EnumLike::MemoryFormat => "MemoryFormat",
        }
    }

    /// The class and its values by code, once the hooks are installed.
    fn class_and_values(self, py: Python<'_>) -> Option<(&Bound<'_, PyAny>, &Bound<'_, PyTuple>)> {
        let h = installed(py)?;
        Some(match self {
            EnumLike::Layout => (h.layout.bind(py), h.layouts.bind(py)),
            EnumLike::MemoryFormat => (h.memory_format.bind(py), h.memory_formats.bind(py)),
        })
    }
}

/// A `Layout` or `MemoryFormat` argument: an instance of its class (once the hooks are
/// installed), or an int code, which binding converts (`enum_of_code`).
pub(super) fn check_enum_like(
    v: &Bound<'_, PyAny>,
    of: EnumLike,
    strict: bool,
) -> Result<(), Misfit> {
    match of.class_and_values(v.py()) {
        Some((t, _)) if v.is_instance(t).unwrap_or(false) => Ok(()),
        Some(_) if v.is_instance_of::<PyLong>() => conversion(strict),
        Some(_) => Err(Misfit::Type),
        None => Ok(()),
    }
}

/// The value of an int `Layout`/`MemoryFormat` code; an unknown code is a value misfit.
pub(super) fn enum_of_code<'py>(
    v: &Bound<'py, PyAny>,
    of: EnumLike,
) -> PyResult<Result<Bound<'py, PyAny>, Detail>> {
    let Some((_, values)) = of.class_and_values(v.py()) else {
        return Ok(Ok(v.clone()));
    };
    if !v.is_instance_of::<PyLong>() {
        return Ok(Ok(v.clone()));
    }
    let code = v
        .extract::<i64>()
        .ok()
        .and_then(|c| usize::try_from(c).ok());
    Ok(match code.filter(|c| *c < values.len()) {
        Some(c) => Ok(values.get_item(c)?),
        None => Err(Detail::EnumCode {
            what: of.name(),
            n: values.len(),
        }),
    })
}

/// The dtype of a ScalarType code; an unknown code is a value misfit, as in torch.
pub(super) fn dtype_of_code<'py>(
    v: &Bound<'py, PyAny>,
) -> PyResult<Result<Bound<'py, PyAny>, Detail>> {
    let py = v.py();
    let Some(h) = installed(py) else {
        return Ok(Ok(v.clone()));
    };
    match h.dtype_from_code.bind(py).call1((v,)) {
        Ok(d) => Ok(Ok(d)),
        Err(e) if e.is_instance_of::<PyKeyError>(py) => Ok(Err(Detail::ScalarTypeCode)),
        Err(e) => Err(e),
    }
}

/// `int[]` / `int[N]`: ints that fit an int64, any number of them (a single
/// int too for `int[N]`). See Note [Fixed-size int lists].
pub(super) fn check_int_list(
    v: &Bound<'_, PyAny>,
    sym: bool,
    n: Option<i64>,
    strict: bool,
) -> Result<(), Misfit> {
    if seq_len(v).is_none() {
        return match (n, int_fit(v, sym)) {
            (Some(_), IntFit::Fits) => conversion(strict),
            (Some(_), IntFit::OutOfRange) => Err(Misfit::Value(Detail::IntRange)),
            _ => Err(Misfit::Type),
        };
    }
    let mut out_of_range = false;
    let ints = all_items(v, |x| match int_fit(x, sym) {
        IntFit::Fits => true,
        IntFit::OutOfRange => {
            out_of_range = true;
            true
        }
        IntFit::NotInt => false,
    });
    if !ints {
        Err(Misfit::Type)
    } else if out_of_range {
        Err(Misfit::Value(Detail::IntRange))
    } else {
        Ok(())
    }
}

/// `Scalar[]`: a list or tuple of what a `Scalar` takes (a numpy scalar only
/// when conversions are allowed); a tensor never, as in torch.
pub(super) fn check_scalar_list(v: &Bound<'_, PyAny>, strict: bool) -> Result<(), Misfit> {
    let mut misfit = None;
    let ok = all_items(v, |x| match check_scalar(x, strict) {
        Ok(()) => true,
        Err(m) => {
            misfit = Some(m);
            false
        }
    });
    match misfit {
        _ if ok => Ok(()),
        Some(Misfit::Value(d)) => Err(Misfit::Value(d)),
        _ => Err(Misfit::Type),
    }
}

/// `float[]`: floats, and ints a double can hold.
pub(super) fn check_float_list(v: &Bound<'_, PyAny>) -> Result<(), Misfit> {
    let mut out_of_range = false;
    let ok = all_items(v, |x| {
        if x.is_instance_of::<PyFloat>() || is_symint(x) {
            true
        } else if x.is_instance_of::<PyLong>() && !x.is_instance_of::<PyBool>() {
            out_of_range |= x.extract::<f64>().is_err();
            true
        } else {
            false
        }
    });
    match () {
        _ if !ok => Err(Misfit::Type),
        _ if out_of_range => Err(Misfit::Value(Detail::FloatRange)),
        _ => Ok(()),
    }
}

pub(super) fn tensor_list_keys(
    v: &Bound<'_, PyAny>,
    opt_elems: bool,
    gathered: &mut Gathered,
) -> bool {
    all_items(v, |x| gathered.tensor(x) || (opt_elems && x.is_none()))
}
