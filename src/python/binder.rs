//! Binding Python arguments to a schema, compiled once per definition.
//!
//! Note [Calling convention]: as in torch, a kernel receives positional
//! parameters positionally and kwarg-only ones as keywords, and arguments
//! equal to their schema default are not passed (trailing positional ones
//! first). When a call passes only positional arguments that need no
//! conversion, the caller's own tuple goes to the kernel unchanged.

use super::schema::default_to_py;
use super::tensor::{device_key, PyTensorBase};
use crate::dispatch::{DispatchKey, DispatchKeySet};
use crate::schema::{Argument, BaseType, FunctionSchema, Type};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBool, PyComplex, PyDict, PyFloat, PyList, PyLong, PyString, PyTuple};
use std::sync::Arc;

static DTYPE_TYPE: GILOnceCell<PyObject> = GILOnceCell::new();
static SYMINT_TYPE: GILOnceCell<PyObject> = GILOnceCell::new();
static DTYPE_FROM_CODE: GILOnceCell<PyObject> = GILOnceCell::new();

/// Register the Python classes the binder checks `ScalarType` and `SymInt` against,
/// and the function turning a ScalarType code (a schema default such as `long` = 4)
/// into a dtype.
#[pyfunction]
#[pyo3(signature = (*, dtype=None, symint=None, dtype_from_code=None))]
pub fn _register_types(
    py: Python<'_>,
    dtype: Option<PyObject>,
    symint: Option<PyObject>,
    dtype_from_code: Option<PyObject>,
) {
    if let Some(d) = dtype {
        let _ = DTYPE_TYPE.set(py, d);
    }
    if let Some(f) = dtype_from_code {
        let _ = DTYPE_FROM_CODE.set(py, f);
    }
    if let Some(s) = symint {
        let _ = SYMINT_TYPE.set(py, s);
    }
}

thread_local! {
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// While alive, binding failures skip building their messages (overload
/// resolution tries overloads that are expected not to fit).
pub struct QuietBinding(bool);

impl QuietBinding {
    pub fn new(quiet: bool) -> Self {
        QuietBinding(QUIET.with(|q| q.replace(quiet)))
    }
}

impl Drop for QuietBinding {
    fn drop(&mut self) {
        QUIET.with(|q| q.set(self.0));
    }
}

/// A binding `TypeError`; its message is only formatted when someone will read it.
fn mismatch(message: impl FnOnce() -> String) -> PyErr {
    if QUIET.with(std::cell::Cell::get) {
        PyTypeError::new_err("arguments do not match this overload")
    } else {
        PyTypeError::new_err(message())
    }
}

/// What an argument accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Tensor,
    TensorList { opt_elems: bool },
    Int { sym: bool },
    Float,
    Bool,
    Str,
    Scalar,
    ScalarType,
    Device,
    IntList { sym: bool, n: Option<i64> },
    FloatList,
    BoolList,
    Any,
}

impl Kind {
    fn of(arg: &Argument) -> (Kind, bool) {
        let optional = matches!(arg.ty, Type::Optional(_));
        let kind = match arg.ty.unwrap_optional() {
            Type::Base(b) => match b {
                BaseType::Tensor => Kind::Tensor,
                BaseType::Int | BaseType::DeviceIndex => Kind::Int { sym: false },
                BaseType::SymInt => Kind::Int { sym: true },
                BaseType::Float => Kind::Float,
                BaseType::Bool => Kind::Bool,
                BaseType::Str => Kind::Str,
                BaseType::Scalar => Kind::Scalar,
                BaseType::ScalarType => Kind::ScalarType,
                BaseType::Device => Kind::Device,
                _ => Kind::Any,
            },
            Type::List(elem) => match elem.unwrap_optional() {
                Type::Base(BaseType::Tensor) => Kind::TensorList {
                    opt_elems: matches!(**elem, Type::Optional(_)),
                },
                Type::Base(BaseType::Int) => Kind::IntList {
                    sym: false,
                    n: arg.n,
                },
                Type::Base(BaseType::SymInt) => Kind::IntList {
                    sym: true,
                    n: arg.n,
                },
                Type::Base(BaseType::Float) => Kind::FloatList,
                Type::Base(BaseType::Bool) => Kind::BoolList,
                _ => Kind::Any,
            },
            _ => Kind::Any,
        };
        (kind, optional)
    }
}

/// One compiled parameter.
pub struct Param {
    pub name: Py<PyString>,
    pub name_str: String,
    kind: Kind,
    optional: bool,
    default: Option<PyObject>,
    pub kwarg_only: bool,
    type_str: String,
}

/// A schema compiled for binding: parameters, dispatch positions, messages.
pub struct Binder {
    pub params: Vec<Param>,
    n_pos: usize,
    device_arg: Option<usize>,
    /// `ns::op`, as error messages name it.
    pub op_name: String,
    pub schema: Arc<FunctionSchema>,
}

/// Arguments ready for the kernel, with the key set gathered from them.
pub struct BoundCall<'py> {
    pub args: Bound<'py, PyTuple>,
    pub kwargs: Option<Bound<'py, PyDict>>,
    pub keys: DispatchKeySet,
}

/// Why an argument does not fit (before it is turned into a message).
enum Misfit {
    Type,
    NeedsConversion,
}

impl Binder {
    /// Compile a schema. Needs the GIL for the default values.
    pub fn new(py: Python<'_>, schema: &Arc<FunctionSchema>) -> Binder {
        let params: Vec<Param> = schema
            .arguments
            .iter()
            .map(|a| compile_param(py, a))
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
            return Err(mismatch(|| {
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
    fn bind_positional<'py>(
        &self,
        args: &Bound<'py, PyTuple>,
        strict: bool,
    ) -> PyResult<Option<BoundCall<'py>>> {
        let mut keys = DispatchKeySet::EMPTY;
        let nargs = args.len();
        for (i, p) in self.params[..nargs].iter().enumerate() {
            let a = args.get_item(i)?;
            match p.check(&a, strict, &mut keys) {
                Ok(()) => {}
                Err(Misfit::NeedsConversion) => return Ok(None),
                Err(Misfit::Type) => return Err(self.type_error(i, &a)),
            }
        }
        if let Some(p) = self.params[nargs..].iter().find(|p| p.default.is_none()) {
            return Err(self.missing(p));
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
        keys = self.device_keys(keys, &args, None)?;
        Ok(Some(BoundCall {
            args,
            kwargs: None,
            keys,
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
        vals.resize(self.params.len(), None);
        if let Some(kw) = kwargs {
            for (k, v) in kw.iter() {
                let k: &Bound<'py, PyString> = k.downcast()?;
                let name = k.to_str()?;
                let Some(i) = self.params.iter().position(|p| p.name_str == name) else {
                    return Err(mismatch(|| {
                        format!(
                            "{}() got an unexpected keyword argument '{}'. Declaration: {}",
                            self.op_name, name, self.schema
                        )
                    }));
                };
                if vals[i].is_some() {
                    return Err(mismatch(|| {
                        format!(
                            "{}() got multiple values for argument '{}'. Declaration: {}",
                            self.op_name, name, self.schema
                        )
                    }));
                }
                vals[i] = Some(v);
            }
        }
        let mut keys = DispatchKeySet::EMPTY;
        for (i, p) in self.params.iter().enumerate() {
            let v = match vals[i].take() {
                Some(v) => v,
                None => match &p.default {
                    Some(d) => d.bind(py).clone(),
                    None => return Err(self.missing(p)),
                },
            };
            let v = match p.check(&v, strict, &mut keys) {
                Ok(()) => v,
                Err(Misfit::NeedsConversion) if !strict => p.convert(&v)?,
                Err(_) => return Err(self.type_error(i, &v)),
            };
            vals[i] = Some(v);
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
        keys = self.device_keys(keys, &pos, kwargs.as_ref())?;
        Ok(BoundCall {
            args: pos,
            kwargs,
            keys,
        })
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

    fn missing(&self, p: &Param) -> PyErr {
        mismatch(|| {
            format!(
                "{}() is missing value for argument '{}'. Declaration: {}",
                self.op_name, p.name_str, self.schema
            )
        })
    }

    fn type_error(&self, i: usize, v: &Bound<'_, PyAny>) -> PyErr {
        let p = &self.params[i];
        mismatch(|| {
            let found = v
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default();
            let value = v
                .repr()
                .map(|r| r.to_string())
                .unwrap_or_else(|_| "<unprintable>".into());
            format!(
                "{}() Expected a value of type '{}' for argument '{}' but instead found type '{}'.\nPosition: {}\nValue: {}\nDeclaration: {}",
                self.op_name, p.type_str, p.name_str, found, i, value, self.schema
            )
        })
    }
}

fn compile_param(py: Python<'_>, a: &Argument) -> Param {
    let (kind, optional) = Kind::of(a);
    let type_str = match a.n {
        Some(n) => type_syntax(&a.ty).replacen("[]", &format!("[{n}]"), 1),
        None => type_syntax(&a.ty),
    };
    Param {
        name: PyString::intern_bound(py, &a.name).unbind(),
        name_str: a.name.clone(),
        kind,
        optional,
        default: a.default.as_ref().map(|d| default_to_py(py, d)),
        kwarg_only: a.kwarg_only,
        type_str,
    }
}

/// The type as the schema spells it, for messages.
fn type_syntax(t: &Type) -> String {
    let arg = Argument {
        name: String::new(),
        ty: t.clone(),
        n: None,
        default: None,
        kwarg_only: false,
        alias_info: None,
    };
    let s = arg.to_string();
    s.trim_end().to_string()
}

fn is_int(v: &Bound<'_, PyAny>, sym: bool) -> bool {
    (v.is_instance_of::<PyLong>() && !v.is_instance_of::<PyBool>())
        || (sym
            && SYMINT_TYPE
                .get(v.py())
                .is_some_and(|t| v.is_instance(t.bind(v.py())).unwrap_or(false)))
}

fn is_number(v: &Bound<'_, PyAny>) -> bool {
    v.is_instance_of::<PyLong>()
        || v.is_instance_of::<PyFloat>()
        || v.is_instance_of::<PyComplex>()
        || is_int(v, true)
}

fn all_items(v: &Bound<'_, PyAny>, mut f: impl FnMut(&Bound<'_, PyAny>) -> bool) -> bool {
    if let Ok(l) = v.downcast::<PyList>() {
        l.iter().all(|x| f(&x))
    } else if let Ok(t) = v.downcast::<PyTuple>() {
        t.iter().all(|x| f(&x))
    } else {
        false
    }
}

impl Param {
    /// Check one value, adding its keys. See Note [Calling convention].
    fn check(
        &self,
        v: &Bound<'_, PyAny>,
        strict: bool,
        keys: &mut DispatchKeySet,
    ) -> Result<(), Misfit> {
        if self.optional && v.is_none() {
            return Ok(());
        }
        let ok = match self.kind {
            Kind::Tensor => match v.downcast::<PyTensorBase>() {
                Ok(t) => {
                    *keys = *keys | DispatchKeySet::from_raw(t.get().keys());
                    true
                }
                Err(_) => false,
            },
            Kind::TensorList { opt_elems } => tensor_list_keys(v, opt_elems, keys),
            Kind::Int { sym } => is_int(v, sym),
            Kind::Float => {
                if v.is_instance_of::<PyFloat>() {
                    true
                } else if is_int(v, false) {
                    return Err(if strict {
                        Misfit::Type
                    } else {
                        Misfit::NeedsConversion
                    });
                } else if is_int(v, true) {
                    return if strict { Err(Misfit::Type) } else { Ok(()) };
                } else {
                    false
                }
            }
            Kind::Bool => v.is_instance_of::<PyBool>(),
            Kind::Str => v.is_instance_of::<PyString>(),
            Kind::Scalar => is_number(v),
            Kind::ScalarType => match DTYPE_TYPE.get(v.py()) {
                Some(t) if v.is_instance(t.bind(v.py())).unwrap_or(false) => true,
                // A ScalarType code (how schema defaults store dtypes) converts to its dtype.
                Some(_) if is_int(v, false) && DTYPE_FROM_CODE.get(v.py()).is_some() => {
                    return Err(if strict {
                        Misfit::Type
                    } else {
                        Misfit::NeedsConversion
                    });
                }
                Some(_) => false,
                None => true,
            },
            Kind::Device => {
                v.is_instance_of::<PyString>() || v.downcast::<super::tensor::PyDevice>().is_ok()
            }
            Kind::IntList { sym, n } => {
                if all_items(v, |x| is_int(x, sym)) {
                    true
                } else if n.is_some() && is_int(v, sym) {
                    return Err(if strict {
                        Misfit::Type
                    } else {
                        Misfit::NeedsConversion
                    });
                } else {
                    false
                }
            }
            Kind::FloatList => all_items(v, |x| x.is_instance_of::<PyFloat>() || is_int(x, true)),
            Kind::BoolList => all_items(v, |x| x.is_instance_of::<PyBool>()),
            Kind::Any => true,
        };
        if ok {
            Ok(())
        } else {
            Err(Misfit::Type)
        }
    }

    /// The conversions binding performs: an int for a float becomes a float, a
    /// single int for `int[N]` becomes N copies.
    fn convert<'py>(&self, v: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        match self.kind {
            Kind::Float => Ok(PyFloat::new_bound(v.py(), v.extract::<f64>()?).into_any()),
            Kind::ScalarType => match DTYPE_FROM_CODE.get(v.py()) {
                Some(f) => f.bind(v.py()).call1((v,)),
                None => Ok(v.clone()),
            },
            Kind::IntList { n: Some(n), .. } => {
                let items = std::iter::repeat_n(v.clone(), n.max(0) as usize);
                Ok(PyList::new_bound(v.py(), items).into_any())
            }
            _ => Ok(v.clone()),
        }
    }

    /// The value equals the schema default (so it is not passed to the kernel).
    fn equals_default(&self, v: &Bound<'_, PyAny>) -> bool {
        let Some(d) = &self.default else { return false };
        let d = d.bind(v.py());
        if d.is_none() || v.is_none() {
            return d.is_none() && v.is_none();
        }
        if matches!(
            self.kind,
            Kind::Tensor | Kind::TensorList { .. } | Kind::Any | Kind::ScalarType | Kind::Device
        ) {
            return v.is(d);
        }
        if v.is_instance_of::<PyBool>() != d.is_instance_of::<PyBool>() {
            return false;
        }
        v.is(d) || v.eq(d).unwrap_or(false)
    }
}

fn tensor_list_keys(v: &Bound<'_, PyAny>, opt_elems: bool, keys: &mut DispatchKeySet) -> bool {
    let mut acc = DispatchKeySet::EMPTY;
    let ok = all_items(v, |x| {
        if let Ok(t) = x.downcast::<PyTensorBase>() {
            acc = acc | DispatchKeySet::from_raw(t.get().keys());
            true
        } else {
            opt_elems && x.is_none()
        }
    });
    *keys = *keys | acc;
    ok
}
