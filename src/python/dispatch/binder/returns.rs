//! Kernel results checked against the schema's returns, at the op boundary.
//!
//! Note [Checked results]: torch converts what a Python kernel returns to the
//! schema's return types as it leaves the kernel and raises when it cannot
//! ("Unable to cast ... to Tensor"). opyard checks every kernel's result the
//! same way in `ops::invoke`: a `Returns` is compiled with the binder, and a
//! call whose result is what the schema says pays one type test (a plain
//! tensor for `-> Tensor`, a tuple of the right length whose items pass for
//! several returns). Only a result that does not fit takes the slow path,
//! which converts what torch converts (a list for several returns becomes a
//! tuple, a tuple for `Tensor[]` a list, a numpy or one-element-tensor number
//! for `int`/`float`/`bool`/`Scalar` a Python number) and raises torch's
//! `RuntimeError` otherwise, naming the operator, the key whose kernel
//! returned it and the schema.

use super::convert::is_symint;
use crate::python::tensor::base::AsTensorBase;
use crate::schema::{BaseType, FunctionSchema, Type};
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyComplex, PyFloat, PyList, PyLong, PyTuple};

/// The part of `Returns` the call path tests itself (`BoundCall` carries it): a
/// result that passes needs nothing more; any other goes to `Returns::check`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Quick {
    /// Varret, or a single return opyard does not check.
    Any,
    /// `-> ()`: None passes.
    Nothing,
    /// `-> Tensor`: a tensor passes.
    Tensor,
    /// `-> (Tensor, Tensor, ...)`: a tuple of that many tensors passes.
    Tensors(usize),
    /// Anything else: always checked in full.
    Other,
}

impl Quick {
    /// Whether `out` passes without the full check.
    #[inline]
    pub fn passes(self, out: &Bound<'_, PyAny>) -> bool {
        match self {
            // An exact `opyard.Tensor` (the common result) is one pointer comparison.
            Quick::Tensor => {
                crate::python::hooks::installed(out.py())
                    .is_some_and(|h| h.tensor.downcast_exact(out).is_some())
                    || out.is_tensor_base()
            }
            Quick::Any => true,
            Quick::Nothing => out.is_none(),
            Quick::Tensors(n) => out
                .downcast::<PyTuple>()
                .is_ok_and(|t| t.len() == n && t.iter().all(|x| x.is_tensor_base())),
            Quick::Other => false,
        }
    }
}

/// What one return may be.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ret {
    Tensor,
    OptTensor,
    TensorList,
    Int,
    Float,
    Bool,
    Scalar,
    /// Anything (types opyard passes through unchecked: str, Any, Device, ...).
    Any,
}

/// What a kernel of one schema returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Returns {
    /// `-> ...` (varret): anything.
    Any,
    /// `-> ()`: None.
    Nothing,
    One(Ret),
    Many(Box<[Ret]>),
}

fn ret_of(ty: &Type) -> Ret {
    match ty {
        Type::Base(BaseType::Tensor) => Ret::Tensor,
        Type::Optional(t) if **t == Type::Base(BaseType::Tensor) => Ret::OptTensor,
        Type::List(t) if **t == Type::Base(BaseType::Tensor) => Ret::TensorList,
        Type::Base(BaseType::Int | BaseType::SymInt) => Ret::Int,
        Type::Base(BaseType::Float) => Ret::Float,
        Type::Base(BaseType::Bool | BaseType::SymBool) => Ret::Bool,
        Type::Base(BaseType::Scalar) => Ret::Scalar,
        _ => Ret::Any,
    }
}

impl Returns {
    /// The check of `schema`'s returns.
    pub fn of(schema: &FunctionSchema) -> Returns {
        if schema.is_varret {
            return Returns::Any;
        }
        match schema.returns.as_slice() {
            [] => Returns::Nothing,
            [one] => Returns::One(ret_of(&one.ty)),
            many => Returns::Many(many.iter().map(|r| ret_of(&r.ty)).collect()),
        }
    }

    /// The call path's share of the check.
    pub fn quick(&self) -> Quick {
        match self {
            Returns::Any | Returns::One(Ret::Any) => Quick::Any,
            Returns::Nothing => Quick::Nothing,
            Returns::One(Ret::Tensor) => Quick::Tensor,
            Returns::Many(rets) if rets.iter().all(|r| *r == Ret::Tensor) => {
                Quick::Tensors(rets.len())
            }
            _ => Quick::Other,
        }
    }

    /// `out` if it fits, else its conversion or torch's error (a result `Quick`
    /// did not pass). `who` names the kernel (`"CPU kernel"`), `op` the operator.
    #[cold]
    pub fn check(
        &self,
        py: Python<'_>,
        out: PyObject,
        op: &str,
        who: &dyn Fn() -> String,
        schema: &FunctionSchema,
    ) -> PyResult<PyObject> {
        let v = out.bind(py);
        if self.quick().passes(v) {
            return Ok(out);
        }
        let text = |head: String| {
            format!(
                "{head} (the {} of {op} returned {}, where its schema '{schema}' declares {}); \
                 return what the schema declares",
                who(),
                type_label(v),
                returns_text(schema)
            )
        };
        let fail = |head: String| PyRuntimeError::new_err(text(head));
        match self {
            Returns::Any => Ok(out),
            Returns::Nothing if v.is_none() => Ok(out),
            Returns::Nothing => Err(fail(format!(
                "Expected the kernel of {op} to return None but it returned something else instead"
            ))),
            Returns::One(r) => one(py, *r, v).map_err(fail),
            Returns::Many(rets) => {
                let items: Vec<Bound<'_, PyAny>> = if let Ok(t) = v.downcast::<PyTuple>() {
                    t.iter().collect()
                } else if let Ok(l) = v.downcast::<PyList>() {
                    l.iter().collect()
                } else {
                    // torch's pybind11 cast raises a TypeError here.
                    return Err(PyTypeError::new_err(text(format!(
                        "Object of type '{}' is not an instance of 'sequence'",
                        type_label(v)
                    ))));
                };
                if items.len() != rets.len() {
                    return Err(fail(format!(
                        "expected {} results but got {}",
                        rets.len(),
                        items.len()
                    )));
                }
                let mut same = v.is_instance_of::<PyTuple>();
                let mut converted = Vec::with_capacity(items.len());
                for (item, r) in items.iter().zip(rets.iter()) {
                    let c = one(py, *r, item).map_err(&fail)?;
                    same &= c.is(item);
                    converted.push(c);
                }
                if same {
                    return Ok(out); // a tuple (or a named tuple of return types) that fits
                }
                Ok(PyTuple::new_bound(py, converted).into_any().unbind())
            }
        }
    }
}

/// One result converted to `r`, or the head of torch's error.
fn one(py: Python<'_>, r: Ret, v: &Bound<'_, PyAny>) -> Result<PyObject, String> {
    let is_tensor = v.is_tensor_base();
    let cast = || format!("Unable to cast {} to Tensor", short_repr(v));
    match r {
        Ret::Any => Ok(v.clone().unbind()),
        Ret::Tensor | Ret::OptTensor if is_tensor || v.is_none() => Ok(v.clone().unbind()),
        Ret::Tensor | Ret::OptTensor => Err(cast()),
        Ret::TensorList => {
            let items: Option<Vec<Bound<'_, PyAny>>> = if let Ok(l) = v.downcast::<PyList>() {
                Some(l.iter().collect())
            } else {
                v.downcast::<PyTuple>().ok().map(|t| t.iter().collect())
            };
            match items {
                Some(items) if items.iter().all(|t| t.is_tensor_base()) => {
                    if v.is_instance_of::<PyList>() {
                        Ok(v.clone().unbind())
                    } else {
                        Ok(PyList::new_bound(py, items).into_any().unbind())
                    }
                }
                _ => Err(format!("Unable to cast {} to Tensor[]", short_repr(v))),
            }
        }
        Ret::Int => {
            if v.is_exact_instance_of::<PyLong>() || is_symint(v) {
                return Ok(v.clone().unbind());
            }
            number(v, is_tensor, "int")
        }
        Ret::Float => {
            if v.is_exact_instance_of::<PyFloat>() || is_sym(v, &["SymFloat"]) {
                return Ok(v.clone().unbind());
            }
            number(v, is_tensor, "float")
        }
        Ret::Bool => {
            if v.is_instance_of::<PyBool>() {
                return Ok(v.clone().unbind());
            }
            if v.is_none() {
                return Ok(false.into_py(py));
            }
            if is_sym(v, &["SymBool"]) {
                return Ok(v.clone().unbind());
            }
            number(v, is_tensor, "bool")
        }
        Ret::Scalar => {
            let plain = v.is_exact_instance_of::<PyLong>()
                || v.is_exact_instance_of::<PyFloat>()
                || v.is_exact_instance_of::<PyComplex>()
                || v.is_instance_of::<PyBool>()
                || is_symint(v);
            if plain {
                return Ok(v.clone().unbind());
            }
            if is_sym(v, &["SymFloat", "SymBool"]) {
                return Ok(v.clone().unbind()); // a data-dependent scalar under FakeTensorMode
            }
            if !is_tensor && numpy_is(v, "number") {
                return v
                    .call_method0("item")
                    .map(Bound::unbind)
                    .map_err(|_| format!("Cannot cast {} to number", short_repr(v)));
            }
            Err(format!("Cannot cast {} to number", short_repr(v)))
        }
    }
}

/// A Python int/float/bool from a number-like result: a bool or int, a float
/// (not for `int`), a numpy number (not a numpy float for `int`), a
/// one-element tensor, as torch reads them.
fn number(v: &Bound<'_, PyAny>, is_tensor: bool, ty: &str) -> Result<PyObject, String> {
    let fits = if is_tensor {
        v.call_method0("numel")
            .and_then(|n| n.extract::<usize>())
            .is_ok_and(|n| n == 1)
    } else if ty == "int" {
        v.is_instance_of::<PyLong>() || numpy_is(v, "integer")
    } else {
        v.is_instance_of::<PyLong>() || v.is_instance_of::<PyFloat>() || numpy_is(v, "number")
    };
    if !fits {
        return Err(format!(
            "Unable to cast Python instance of type {} to {ty}",
            type_label(v)
        ));
    }
    let py = v.py();
    let value = if is_tensor {
        v.call_method0("item").map_err(|e| e.to_string())?
    } else {
        v.clone()
    };
    let builtin = py
        .import_bound("builtins")
        .and_then(|b| b.getattr(ty))
        .map_err(|e| e.to_string())?;
    builtin
        .call1((value,))
        .map(Bound::unbind)
        .map_err(|e| e.to_string())
}

/// `isinstance(v, numpy.<kind>)` (`number`, `integer`), false without numpy.
fn numpy_is(v: &Bound<'_, PyAny>, kind: &str) -> bool {
    type_module(v) == "numpy"
        && v.py()
            .import_bound("numpy")
            .and_then(|np| np.getattr(kind))
            .is_ok_and(|t| v.is_instance(&t).unwrap_or(false))
}

/// `v` is one of opyard's symbolic scalars named in `names` (only asked once the plain
/// types did not fit, so the name compare is off the call path).
fn is_sym(v: &Bound<'_, PyAny>, names: &[&str]) -> bool {
    type_module(v) == "opyard.fake.symbolic"
        && v.get_type()
            .qualname()
            .is_ok_and(|n| n.to_cow().is_ok_and(|n| names.contains(&n.as_ref())))
}

fn type_module(v: &Bound<'_, PyAny>) -> String {
    v.get_type()
        .getattr("__module__")
        .and_then(|m| m.extract::<String>())
        .unwrap_or_default()
}

fn type_label(v: &Bound<'_, PyAny>) -> String {
    let name = v
        .get_type()
        .qualname()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    match type_module(v).as_str() {
        "builtins" | "" => name,
        m => format!("{m}.{name}"),
    }
}

fn short_repr(v: &Bound<'_, PyAny>) -> String {
    let s = v
        .str()
        .map(|s| s.to_string())
        .unwrap_or_else(|_| "?".into());
    crate::python::errors::clip(&s).to_string()
}

fn returns_text(schema: &FunctionSchema) -> String {
    let text = schema.to_string();
    text.rsplit_once(" -> ")
        .map_or(text.clone(), |(_, r)| r.to_string())
}
