//! Binding Python arguments to a schema, compiled once per definition.
//!
//! Note [Calling convention]: as in torch, a kernel receives positional
//! parameters positionally and kwarg-only ones as keywords, and arguments
//! equal to their schema default are not passed (trailing positional ones
//! first). When a call passes only positional arguments that need no
//! conversion, the caller's own tuple goes to the kernel unchanged.

mod convert;
mod param;
mod plain;
mod returns;
mod signature;

use crate::dispatch::{DispatchKey, DispatchKeySet};
use crate::python::errors::{argument_error, argument_overflow_error, clip, quote, type_name};
use crate::python::schema::default_to_py;
use crate::python::tensor::base::device_key;
use crate::schema::FunctionSchema;
use convert::{Detail, Misfit};
pub use param::Param;
use param::{compile_param, Kind};
pub use plain::_register_plain_tensor_type;
pub(crate) use plain::plain_tensor;
use plain::Gathered;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
pub use returns::{Quick, Returns};
pub use signature::Signature;
use std::sync::Arc;

thread_local! {
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Why the last quiet binding failed, taken by `QuietBinding::take_failure`.
    static FAILURE: std::cell::Cell<Option<FailureAt>> = const { std::cell::Cell::new(None) };
}

/// Why a binding failed: an argument of the wrong kind (count, keyword, type:
/// the same for every call with the same signature) or a value of the right
/// kind that the type cannot hold. See Note [Overload cache] in `registry/resolve.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    Kind,
    Value,
}

/// Why a binding failed and which parameter it blames: `None` for a failure
/// of the call as a whole (argument count, an unknown or repeated keyword, a
/// missing argument). Operators use it to tell a misfit of their other
/// operand from any other failure; see Note [Operator protocol] in
/// `dispatch/operator_protocol.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FailureAt {
    pub why: Failure,
    pub param: Option<usize>,
}

/// While alive, binding failures skip building their messages (overload
/// resolution tries overloads that are expected not to fit) and record why
/// they failed.
pub struct QuietBinding(bool, Option<FailureAt>);

impl QuietBinding {
    pub fn new(quiet: bool) -> Self {
        QuietBinding(QUIET.with(|q| q.replace(quiet)), FAILURE.with(|f| f.take()))
    }

    /// Why the last failed binding failed (None: not by a binding check,
    /// e.g. a conversion that raised), and forget it.
    pub fn take_failure(&self) -> Option<Failure> {
        self.take_failure_at().map(|f| f.why)
    }

    /// Like `take_failure`, with the parameter the failure blames.
    pub fn take_failure_at(&self) -> Option<FailureAt> {
        FAILURE.with(std::cell::Cell::take)
    }
}

impl Drop for QuietBinding {
    fn drop(&mut self) {
        QUIET.with(|q| q.set(self.0));
        FAILURE.with(|f| f.set(self.1));
    }
}

/// A binding error (see Note [Argument errors]); its message is only
/// formatted when someone will read it.
fn mismatch(py: Python<'_>, message: impl FnOnce() -> String) -> PyErr {
    failed(py, Failure::Kind, None, message)
}

fn failed(
    py: Python<'_>,
    why: Failure,
    param: Option<usize>,
    message: impl FnOnce() -> String,
) -> PyErr {
    failed_as(py, why, param, argument_error, message)
}

/// `failed`, with the class of the loud error made by `make`.
fn failed_as(
    py: Python<'_>,
    why: Failure,
    param: Option<usize>,
    make: fn(Python<'_>, String) -> PyErr,
    message: impl FnOnce() -> String,
) -> PyErr {
    if QUIET.with(std::cell::Cell::get) {
        FAILURE.with(|f| f.set(Some(FailureAt { why, param })));
        argument_error(py, "arguments do not match this overload".to_string())
    } else {
        make(py, message())
    }
}

// Note [Numbers as tensors]: torch's argument parser lets a Python number
// fill a `Tensor` parameter of a few arithmetic operators (its
// `should_allow_numbers_as_tensors`): `x * 2`, `torch.add(x, 1)`,
// `x.div(2, rounding_mode="floor")` call the `.Tensor`
// overload (`mul.Tensor`, node `MulBackward0`) with the number as a wrapped
// number, never the `.Scalar` one, which only an explicit
// `ops.aten.mul.Scalar` reaches; `__torch_dispatch__` sees the number as a
// Python number. opyard's binder does the same for the parameters after
// `self` and passes the number on unchanged: the kernels, formulas and rules
// of these operators take a number operand as a wrapped number (it does not
// raise the tensor's dtype within its category). A number as `self`
// (`opyard.mul(2, t)`) is no wrapped number the kernels take: the packet's
// retry converts it (`_aten/number_operands.py`).

/// The operators whose `Tensor` parameters take Python numbers; see Note [Numbers as tensors].
const NUMBERS_AS_TENSORS: &[&str] = &[
    "add",
    "add_",
    "sub",
    "sub_",
    "mul",
    "mul_",
    "div",
    "div_",
    "divide",
    "divide_",
    "multiply",
    "multiply_",
    "subtract",
    "subtract_",
    "true_divide",
    "true_divide_",
    "floor_divide",
    "floor_divide_",
];

/// `aten::name.overload` is one of [`NUMBERS_AS_TENSORS`].
fn takes_numbers(qualified: &str) -> bool {
    let Some(rest) = qualified.strip_prefix("aten::") else {
        return false;
    };
    let base = rest.split('.').next().unwrap_or(rest);
    NUMBERS_AS_TENSORS.contains(&base)
}

/// A schema compiled for binding: parameters, dispatch positions, messages.
pub struct Binder {
    pub params: Vec<Param>,
    n_pos: usize,
    device_arg: Option<usize>,
    /// `ns::op`, as error messages name it.
    pub op_name: String,
    pub schema: Arc<FunctionSchema>,
    /// What its kernels must return. See Note [Checked results].
    pub returns: Returns,
    quick: Quick,
}

/// Arguments ready for the kernel, with the key set gathered from them.
pub struct BoundCall<'py> {
    pub args: Bound<'py, PyTuple>,
    pub kwargs: Option<Bound<'py, PyDict>>,
    pub keys: DispatchKeySet,
    /// A tensor argument is not of a plain tensor type. See Note [Subclass check].
    pub foreign: bool,
    /// The call path's test of the kernel's result. See Note [Checked results].
    pub quick: Quick,
}

impl Binder {
    /// Compile a schema. Needs the GIL for the default values.
    pub fn new(py: Python<'_>, schema: &Arc<FunctionSchema>) -> Binder {
        // See Note [Undefined tensors].
        let defined_tensors = schema.name.starts_with("aten::");
        let numbers = takes_numbers(&schema.name);
        let params: Vec<Param> = schema
            .arguments
            .iter()
            .enumerate()
            .map(|(i, a)| compile_param(py, a, defined_tensors, numbers && i > 0))
            .collect();
        let n_pos = params.iter().take_while(|p| !p.kwarg_only).count();
        let has_tensors = schema.arguments.iter().any(|a| a.ty.is_dispatchable());
        let device_arg = if !has_tensors {
            params.iter().position(|p| p.kind == Kind::Device)
        } else {
            None
        };
        Binder {
            params,
            n_pos,
            device_arg,
            op_name: schema.name.clone(),
            schema: schema.clone(),
            returns: Returns::of(schema),
            quick: Returns::of(schema).quick(),
        }
    }

    /// Bind a call. `strict` refuses conversions (int for float, a single int for
    /// `int[N]`), which overload resolution tries first.
    pub fn bind<'py>(
        &self,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
        strict: bool,
    ) -> PyResult<BoundCall<'py>> {
        let nargs = args.len();
        if nargs > self.n_pos {
            return Err(mismatch(args.py(), || {
                format!(
                    "{}() expected at most {} argument(s) but received {} argument(s). Declaration: {}",
                    self.op_name, self.n_pos, nargs, self.schema
                )
            }));
        }
        if kwargs.is_none_or(|k| k.is_empty()) {
            if let Some(call) = self.bind_positional(args, strict)? {
                return Ok(call);
            }
        }
        self.bind_general(args, kwargs, strict)
    }

    /// The fast path: positional only, no conversion. `Ok(None)` means "take the general path".
    ///
    /// Indexing here and in `bind_general` cannot go out of bounds: `bind`
    /// checked `args.len() <= n_pos <= params.len()`, and `vals` has one slot per parameter.
    fn bind_positional<'py>(
        &self,
        args: &Bound<'py, PyTuple>,
        strict: bool,
    ) -> PyResult<Option<BoundCall<'py>>> {
        let mut gathered = Gathered::default();
        let nargs = args.len();
        for (i, p) in self.params[..nargs].iter().enumerate() {
            let a = args.get_item(i)?;
            match p.check(&a, strict, &mut gathered) {
                Ok(()) => {}
                Err(Misfit::NeedsConversion) => return Ok(None),
                Err(m) => return Err(self.misfit(i, &a, m)),
            }
        }
        if let Some(p) = self.params[nargs..].iter().find(|p| p.default.is_none()) {
            return Err(self.missing(args.py(), p));
        }
        if let Some(e) = gathered.error.take() {
            return Err(e);
        }
        let mut end = nargs;
        while end > 0 && self.params[end - 1].equals_default(&args.get_item(end - 1)?) {
            end -= 1;
        }
        let args = if end == nargs {
            args.clone()
        } else {
            args.get_slice(0, end)
        };
        let keys = self.device_keys(gathered.keys, &args, None)?;
        Ok(Some(BoundCall {
            args,
            kwargs: None,
            keys,
            foreign: gathered.foreign,
            quick: self.quick,
        }))
    }

    /// Keywords, conversions, defaults in the middle: build fresh args and kwargs.
    fn bind_general<'py>(
        &self,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
        strict: bool,
    ) -> PyResult<BoundCall<'py>> {
        let py = args.py();
        let mut vals: Vec<Option<Bound<'py, PyAny>>> = args.iter().map(Some).collect();
        vals.resize_with(self.params.len(), || None);
        if let Some(kw) = kwargs {
            for (k, v) in kw.iter() {
                let i = self.keyword_index(&k)?;
                if vals[i].is_some() {
                    return Err(mismatch(py, || {
                        format!(
                            "{}() got multiple values for argument '{}'. Declaration: {}",
                            self.op_name, self.params[i].name_str, self.schema
                        )
                    }));
                }
                vals[i] = Some(v);
            }
        }
        let mut gathered = Gathered::default();
        for (i, p) in self.params.iter().enumerate() {
            let v = match vals[i].take() {
                Some(v) => self.accept(i, v, strict, &mut gathered)?,
                None => match &p.default {
                    Some(d) => p.default_value(d.bind(py))?,
                    None => return Err(self.missing(py, p)),
                },
            };
            vals[i] = Some(v);
        }
        if let Some(e) = gathered.error.take() {
            return Err(e);
        }
        let mut end = self.n_pos;
        while end > 0
            && vals[end - 1]
                .as_ref()
                .is_some_and(|v| self.params[end - 1].equals_default(v))
        {
            end -= 1;
        }
        let pos = PyTuple::new_bound(py, vals[..end].iter().flatten().collect::<Vec<_>>());
        let kw = PyDict::new_bound(py);
        for (p, v) in self.params[self.n_pos..].iter().zip(&vals[self.n_pos..]) {
            if let Some(v) = v.as_ref().filter(|v| !p.equals_default(v)) {
                kw.set_item(p.name.bind(py), v)?;
            }
        }
        let kwargs = if kw.is_empty() { None } else { Some(kw) };
        let keys = self.device_keys(gathered.keys, &pos, kwargs.as_ref())?;
        Ok(BoundCall {
            args: pos,
            kwargs,
            keys,
            foreign: gathered.foreign,
            quick: self.quick,
        })
    }

    /// The parameter a keyword names.
    fn keyword_index(&self, k: &Bound<'_, PyAny>) -> PyResult<usize> {
        let name = k.downcast::<PyString>().ok().and_then(|s| s.to_str().ok());
        let found = name.and_then(|n| self.params.iter().position(|p| p.name_str == n));
        found.ok_or_else(|| {
            mismatch(k.py(), || {
                let shown = match name {
                    Some(n) => clip(n).into_owned(),
                    None => quote(k),
                };
                format!(
                    "{}() got an unexpected keyword argument '{}'. Declaration: {}",
                    self.op_name, shown, self.schema
                )
            })
        })
    }

    /// Check (and if allowed convert) the value given for parameter `i`.
    fn accept<'py>(
        &self,
        i: usize,
        v: Bound<'py, PyAny>,
        strict: bool,
        gathered: &mut Gathered,
    ) -> PyResult<Bound<'py, PyAny>> {
        let p = &self.params[i];
        match p.check(&v, strict, gathered) {
            Ok(()) => Ok(v),
            Err(Misfit::NeedsConversion) if !strict => match p.convert(&v)? {
                Ok(converted) => Ok(converted),
                Err(detail) => Err(self.misfit(i, &v, Misfit::Value(detail))),
            },
            Err(m) => Err(self.misfit(i, &v, m)),
        }
    }

    /// With no tensor arguments, a `Device` argument picks the backend (None → CPU).
    fn device_keys(
        &self,
        keys: DispatchKeySet,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<DispatchKeySet> {
        let Some(i) = self.device_arg else {
            return Ok(keys);
        };
        if !keys.is_empty() {
            return Ok(keys);
        }
        let p = &self.params[i];
        let v = if i < args.len() {
            args.get_item(i).ok()
        } else {
            kwargs.and_then(|k| k.get_item(p.name.bind(args.py())).ok().flatten())
        };
        let key = match v {
            Some(v) => device_key(&v)?,
            None => DispatchKey::CPU,
        };
        Ok(keys.add(key))
    }

    fn missing(&self, py: Python<'_>, p: &Param) -> PyErr {
        mismatch(py, || {
            format!(
                "{}() is missing value for argument '{}'. Declaration: {}",
                self.op_name, p.name_str, self.schema
            )
        })
    }

    /// The error for a value that does not fit parameter `i`.
    fn misfit(&self, i: usize, v: &Bound<'_, PyAny>, m: Misfit) -> PyErr {
        match m {
            // torch: RuntimeError from the operator, TypeError from its
            // functional form; see Note [Argument errors].
            Misfit::Undefined => failed(v.py(), Failure::Kind, Some(i), || {
                format!(
                    "{}() Expected a proper Tensor but got None (or an undefined Tensor in C++) \
                     for argument #{i} '{}'\nDeclaration: {}",
                    self.op_name, self.params[i].name_str, self.schema
                )
            }),
            Misfit::Value(detail) => self.type_error(i, v, Some(detail)),
            Misfit::Type | Misfit::NeedsConversion => self.type_error(i, v, None),
        }
    }

    /// torch's binding message; a value misfit adds its "Cast error details".
    fn type_error(&self, i: usize, v: &Bound<'_, PyAny>, detail: Option<Detail>) -> PyErr {
        let p = &self.params[i];
        let why = if detail.is_some() {
            Failure::Value
        } else {
            Failure::Kind
        };
        // An int too big for a Scalar or a float: torch's conversion raises OverflowError.
        let make = match detail {
            Some(Detail::ScalarRange | Detail::FloatRange) => argument_overflow_error,
            _ => argument_error,
        };
        failed_as(v.py(), why, Some(i), make, || {
            let details = detail.map_or(String::new(), |d| format!("\nCast error details: {d}"));
            format!(
                "{}() Expected a value of type '{}' for argument '{}' but instead found type '{}'.\nPosition: {}\nValue: {}\nDeclaration: {}{}",
                self.op_name, p.type_str, p.name_str, type_name(v), i, quote(v), self.schema, details
            )
        })
    }
}
