//! A compiled parameter: what its schema type accepts (`Kind`), and checking,
//! converting and default handling for one value.
//!
//! Note [Undefined tensors]: torch passes `None` for a non-optional `Tensor`
//! on to the kernel as an undefined tensor, and the call's key set ignores it;
//! custom kernels may accept it. ATen's own kernels refuse it ("Expected a
//! proper Tensor but got None ..."); opyard's built-in kernels are Python and
//! would fail obscurely, so for the `aten` namespace the binder raises torch's
//! message in their place, decided once when the schema is compiled.

use super::convert::{
    all_items, check_enum_like, check_float, check_float_list, check_int_list, check_scalar,
    check_scalar_list, check_scalar_type, conversion, dtype_of_code, enum_of_code, fits, int_fit,
    numpy_scalar_item, tensor_list_keys, Detail, EnumLike, IntFit, Misfit, MAX_EXPANDED_LIST,
};
use super::plain::Gathered;
use crate::python::tensor::base::PyDevice;
use crate::python::tensor::device::DEVICE;
use crate::schema::{Argument, BaseType, Type};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyComplex, PyFloat, PyList, PyString};

/// What an argument accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Kind {
    Tensor,
    TensorList {
        opt_elems: bool,
    },
    Int {
        sym: bool,
    },
    Float,
    Bool,
    Str,
    Scalar,
    ScalarType,
    Layout,
    MemoryFormat,
    Device,
    IntList {
        sym: bool,
        n: Option<i64>,
    },
    FloatList,
    BoolList,
    /// `Scalar[]`: numbers, never tensors (torch refuses a tensor where its list wants a number).
    ScalarList,
    Any,
}

impl Kind {
    fn of(arg: &Argument) -> Kind {
        match arg.ty.unwrap_optional() {
            Type::Base(b) => match b {
                BaseType::Tensor => Kind::Tensor,
                BaseType::Int | BaseType::DeviceIndex => Kind::Int { sym: false },
                BaseType::SymInt => Kind::Int { sym: true },
                BaseType::Float => Kind::Float,
                BaseType::Bool => Kind::Bool,
                BaseType::Str => Kind::Str,
                BaseType::Scalar => Kind::Scalar,
                BaseType::ScalarType => Kind::ScalarType,
                BaseType::Layout => Kind::Layout,
                BaseType::MemoryFormat => Kind::MemoryFormat,
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
                Type::Base(BaseType::Scalar) => Kind::ScalarList,
                _ => Kind::Any,
            },
            _ => Kind::Any,
        }
    }
}

/// One compiled parameter.
pub struct Param {
    pub name: Py<PyString>,
    pub name_str: String,
    pub(super) kind: Kind,
    optional: bool,
    /// `None` for a non-optional Tensor is refused. See Note [Undefined tensors].
    defined_tensors: bool,
    /// A Python number fits this `Tensor` parameter. See Note [Numbers as tensors].
    numbers: bool,
    pub(super) default: Option<PyObject>,
    pub kwarg_only: bool,
    pub(super) type_str: String,
}

/// Compile one parameter; `defined_tensors` for ops whose kernels refuse
/// undefined tensors, `numbers` for ops whose tensors may be Python numbers.
pub(super) fn compile_param(
    py: Python<'_>,
    a: &Argument,
    defined_tensors: bool,
    numbers: bool,
) -> Param {
    let kind = Kind::of(a);
    let type_str = match a.n {
        Some(n) => type_syntax(&a.ty).replacen("[]", &format!("[{n}]"), 1),
        None => type_syntax(&a.ty),
    };
    Param {
        name: PyString::intern_bound(py, &a.name).unbind(),
        name_str: a.name.clone(),
        kind,
        optional: matches!(a.ty, Type::Optional(_)),
        defined_tensors,
        numbers: numbers && kind == Kind::Tensor,
        default: a.default.as_ref().map(|d| super::default_to_py(py, d)),
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
    arg.to_string().trim_end().to_string()
}

impl Param {
    /// Check one value, adding its keys. See Note [Calling convention].
    pub(super) fn check(
        &self,
        v: &Bound<'_, PyAny>,
        strict: bool,
        gathered: &mut Gathered,
    ) -> Result<(), Misfit> {
        if v.is_none() {
            return self.check_none(strict);
        }
        match self.kind {
            Kind::Tensor if gathered.tensor(v) => Ok(()),
            Kind::Tensor if self.numbers => {
                gathered.numbers = true;
                check_scalar(v, strict)
            }
            Kind::Tensor => Err(Misfit::Type),
            Kind::TensorList { opt_elems } => fits(tensor_list_keys(v, opt_elems, gathered)),
            Kind::Int { sym } => match int_fit(v, sym) {
                IntFit::Fits => Ok(()),
                IntFit::OutOfRange => Err(Misfit::Value(Detail::IntRange)),
                IntFit::NotInt => Err(Misfit::Type),
            },
            Kind::Float => check_float(v, strict),
            Kind::Bool => fits(v.is_instance_of::<PyBool>()),
            Kind::Str => fits(v.is_instance_of::<PyString>()),
            Kind::Scalar => check_scalar(v, strict),
            Kind::ScalarType => check_scalar_type(v, strict),
            Kind::Layout => check_enum_like(v, EnumLike::Layout, strict),
            Kind::MemoryFormat => check_enum_like(v, EnumLike::MemoryFormat, strict),
            Kind::Device if DEVICE.is_instance(v) => Ok(()),
            // A device string becomes an `opyard.device` (and is validated) by `convert`.
            Kind::Device if v.is_instance_of::<PyString>() => conversion(strict),
            Kind::Device => Err(Misfit::Type),
            Kind::IntList { sym, n } => check_int_list(v, sym, n, strict),
            Kind::FloatList => check_float_list(v),
            Kind::BoolList => fits(all_items(v, |x| x.is_instance_of::<PyBool>())),
            Kind::ScalarList => check_scalar_list(v, strict),
            Kind::Any => Ok(()),
        }
    }

    /// `None` fits an optional parameter, a `Tensor` (see Note [Undefined tensors]) and `Any`.
    fn check_none(&self, strict: bool) -> Result<(), Misfit> {
        match self.kind {
            _ if self.optional => Ok(()),
            Kind::Any => Ok(()),
            // An overload that takes the None as such is preferred.
            Kind::Tensor if strict => Err(Misfit::Type),
            Kind::Tensor if self.defined_tensors => Err(Misfit::Undefined),
            Kind::Tensor => Ok(()),
            _ => Err(Misfit::Type),
        }
    }

    /// The conversions binding performs: an int for a float becomes a float, a
    /// ScalarType code its dtype, a device string a device, a single int for
    /// `int[N]` N copies. `Ok(Err(detail))` is a value the type cannot hold.
    pub(super) fn convert<'py>(
        &self,
        v: &Bound<'py, PyAny>,
    ) -> PyResult<Result<Bound<'py, PyAny>, Detail>> {
        let py = v.py();
        Ok(match self.kind {
            Kind::Float => match v.extract::<f64>() {
                Ok(f) => Ok(PyFloat::new_bound(py, f).into_any()),
                Err(_) => Err(Detail::FloatRange),
            },
            Kind::ScalarType => return dtype_of_code(v),
            Kind::Layout => return enum_of_code(v, EnumLike::Layout),
            Kind::MemoryFormat => return enum_of_code(v, EnumLike::MemoryFormat),
            // A numpy scalar for a `Tensor` that takes numbers, as for a Scalar.
            Kind::Scalar | Kind::Tensor => return numpy_scalar_item(v),
            Kind::Device => {
                let dev = PyDevice::parse(v.downcast::<PyString>()?.to_str()?, None)?;
                Ok(Bound::new(py, dev)?.into_any())
            }
            Kind::IntList { n: Some(n), .. } if n > MAX_EXPANDED_LIST => {
                Err(Detail::Expansion { n })
            }
            Kind::IntList { n: Some(n), .. } => {
                let items = std::iter::repeat_n(v.clone(), n.max(0) as usize);
                Ok(PyList::new_bound(py, items).into_any())
            }
            _ => Ok(v.clone()),
        })
    }

    /// The schema default as the kernel receives it: converted like a given
    /// value where a conversion applies (a ScalarType code becomes its dtype,
    /// an int for `int[N]` a list). A default the type cannot hold as such
    /// (`int[2] stride=[]`, an unknown ScalarType code) stays as written: it is
    /// the schema's choice, not the caller's, and torch passes it on too.
    pub(super) fn default_value<'py>(&self, d: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let mut gathered = Gathered::default();
        match self.check(d, false, &mut gathered) {
            Err(Misfit::NeedsConversion) => Ok(self.convert(d)?.unwrap_or_else(|_| d.clone())),
            _ => Ok(d.clone()),
        }
    }

    /// The value equals the schema default (so it is not passed to the kernel).
    pub(super) fn equals_default(&self, v: &Bound<'_, PyAny>) -> bool {
        let Some(d) = &self.default else { return false };
        let d = d.bind(v.py());
        if d.is_none() || v.is_none() {
            return d.is_none() && v.is_none();
        }
        if matches!(
            self.kind,
            Kind::Tensor
                | Kind::TensorList { .. }
                | Kind::Any
                | Kind::ScalarType
                | Kind::Layout
                | Kind::MemoryFormat
                | Kind::Device
        ) {
            return v.is(d);
        }
        if v.is_instance_of::<PyBool>() != d.is_instance_of::<PyBool>() {
            return false;
        }
        // A Scalar keeps its kind, as torch's IValues do: 0.0 is not the default 0 (so
        // `constant_pad_nd(x, pad, 0.0)` passes its value on).
        if self.kind == Kind::Scalar
            && (v.is_instance_of::<PyFloat>() != d.is_instance_of::<PyFloat>()
                || v.is_instance_of::<PyComplex>() != d.is_instance_of::<PyComplex>())
        {
            return false;
        }
        v.is(d) || v.eq(d).unwrap_or(false)
    }
}
