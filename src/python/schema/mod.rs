//! `FunctionSchema`, `Argument`, `AliasInfo` and `parse_schema` for Python,
//! with torch's attribute names.

use crate::python::errors::schema_error_type;
use crate::schema::{AliasInfo, Argument, BaseType, DefaultValue, FunctionSchema, Type};
use pyo3::prelude::*;
use pyo3::types::{PyComplex, PyList, PySet};
use std::sync::Arc;

mod text;

pub use text::{parse_obj, parse_py_with};

/// A parsed schema. `str()` is torch's canonical form.
#[pyclass(name = "FunctionSchema", module = "opyard._core", frozen)]
pub struct PyFunctionSchema {
    pub inner: Arc<FunctionSchema>,
}

impl PyFunctionSchema {
    /// Wrap a schema the core already holds (the registry shares its `Arc`).
    pub fn from_arc(inner: Arc<FunctionSchema>) -> Self {
        PyFunctionSchema { inner }
    }
}

fn args_to_py(py: Python<'_>, args: &[Argument]) -> PyResult<Vec<Py<PyArgument>>> {
    args.iter()
        .map(|a| Py::new(py, PyArgument { inner: a.clone() }))
        .collect()
}

#[pymethods]
impl PyFunctionSchema {
    /// `FunctionSchema(s)` is `parse_schema(s)`.
    #[new]
    fn new(schema: &Bound<'_, PyAny>) -> PyResult<Self> {
        parse_obj(schema, "FunctionSchema()", true).map(|s| Self::from_arc(Arc::new(s)))
    }

    /// `"ns::op"` (without the overload).
    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }

    /// The overload name, `""` for the default overload.
    #[getter]
    fn overload_name(&self) -> &str {
        &self.inner.overload_name
    }

    /// The arguments, as `Argument`s (kwarg-only ones flagged).
    #[getter]
    fn arguments(&self, py: Python<'_>) -> PyResult<Vec<Py<PyArgument>>> {
        args_to_py(py, &self.inner.arguments)
    }

    /// The returns, as `Argument`s (`name` is `""` when unnamed).
    #[getter]
    fn returns(&self, py: Python<'_>) -> PyResult<Vec<Py<PyArgument>>> {
        args_to_py(py, &self.inner.returns)
    }

    /// The argument list ends with `...`.
    #[getter]
    fn is_vararg(&self) -> bool {
        self.inner.is_vararg
    }

    /// The return list ends with `...`.
    #[getter]
    fn is_varret(&self) -> bool {
        self.inner.is_varret
    }

    /// Some argument is written to (`Tensor(a!)`).
    #[getter]
    fn is_mutable(&self) -> bool {
        self.inner.is_mutable()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("FunctionSchema('{}')", self.inner)
    }

    /// Equal when the canonical texts are equal.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<PyFunctionSchema>()
            .is_ok_and(|o| o.get().inner.to_string() == self.inner.to_string())
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.inner.to_string().hash(&mut h);
        h.finish()
    }
}

/// torch's `str(arg.type)`, which is `Type::annotation_str()` of the argument's
/// *fake* type: `ScalarType`, `Layout`, `MemoryFormat`, `SymInt` and
/// `DeviceIndex` are `int` there, `Scalar` is `number`.
///
/// Walks the type with an explicit stack, like the schema printer, so that no
/// depth can overflow the thread's stack. See Note [Nesting limit].
fn py_type(t: &Type) -> String {
    enum Piece<'a> {
        Type(&'a Type),
        Text(&'static str),
    }
    let mut out = String::new();
    let mut todo = vec![Piece::Type(t)];
    while let Some(piece) = todo.pop() {
        let t = match piece {
            Piece::Text(s) => {
                out.push_str(s);
                continue;
            }
            Piece::Type(t) => t,
        };
        let (open, elems): (&str, &[Type]) = match t {
            Type::Base(b) => {
                out.push_str(py_base_name(*b));
                continue;
            }
            Type::Var(v) | Type::Class(v) => {
                out.push_str(v);
                continue;
            }
            Type::Union(ms) => {
                out.push_str("Union[");
                let (shown, scalar) = crate::schema::union_members(ms);
                todo.push(Piece::Text(match (scalar, shown.is_empty()) {
                    (true, true) => "number]",
                    (true, false) => ", number]",
                    (false, _) => "]",
                }));
                for (i, e) in shown.iter().enumerate().rev() {
                    todo.push(Piece::Type(e));
                    if i > 0 {
                        todo.push(Piece::Text(", "));
                    }
                }
                continue;
            }
            Type::Tuple(es) if es.is_empty() => {
                out.push_str("Tuple[()]");
                continue;
            }
            Type::List(e) => ("List[", std::slice::from_ref(&**e)),
            Type::Optional(e) => ("Optional[", std::slice::from_ref(&**e)),
            Type::Future(e) => ("Future[", std::slice::from_ref(&**e)),
            Type::RRef(e) => ("RRef[", std::slice::from_ref(&**e)),
            Type::Await(e) => ("Await[", std::slice::from_ref(&**e)),
            Type::Tuple(es) => ("Tuple[", es.as_slice()),
            Type::Dict(k, v) => {
                out.push_str("Dict[");
                todo.extend([Piece::Text("]"), Piece::Type(v), Piece::Text(", ")]);
                todo.push(Piece::Type(k));
                continue;
            }
        };
        out.push_str(open);
        todo.push(Piece::Text("]"));
        for (i, e) in elems.iter().enumerate().rev() {
            todo.push(Piece::Type(e));
            if i > 0 {
                todo.push(Piece::Text(", "));
            }
        }
    }
    out
}

/// A base type's name in torch's `annotation_str()` of the fake type.
fn py_base_name(b: BaseType) -> &'static str {
    use BaseType::*;
    match b {
        Int | SymInt | ScalarType | Layout | MemoryFormat | DeviceIndex => "int",
        Scalar => "number",
        SymBool => "bool",
        Tensor => "Tensor",
        Float => "float",
        Bool => "bool",
        Str => "str",
        Device => "Device",
        Stream => "Stream",
        Storage => "Storage",
        Generator => "Generator",
        Complex => "complex",
        QScheme => "QScheme",
        Quantizer => "Quantizer",
        Capsule => "Capsule",
        Any => "Any",
        AnyClassType => "AnyClassType",
        AnyEnumType => "AnyEnumType",
        NoneType => "NoneType",
    }
}

/// A schema default as a Python value.
pub fn default_to_py(py: Python<'_>, d: &DefaultValue) -> PyObject {
    match d {
        DefaultValue::None => py.None(),
        DefaultValue::Bool(b) => b.into_py(py),
        DefaultValue::Int(i) => i.into_py(py),
        DefaultValue::Float(f) => f.into_py(py),
        DefaultValue::Complex(r, i) => PyComplex::from_doubles_bound(py, *r, *i)
            .into_any()
            .unbind(),
        DefaultValue::Str(s) => s.into_py(py),
        DefaultValue::IntList(l) => PyList::new_bound(py, l).into_any().unbind(),
        DefaultValue::FloatList(l) => PyList::new_bound(py, l).into_any().unbind(),
        DefaultValue::BoolList(l) => PyList::new_bound(py, l).into_any().unbind(),
        DefaultValue::ComplexList(l) => PyList::new_bound(
            py,
            l.iter()
                .map(|(r, i)| PyComplex::from_doubles_bound(py, *r, *i)),
        )
        .into_any()
        .unbind(),
        DefaultValue::EmptyList => PyList::empty_bound(py).into_any().unbind(),
    }
}

/// One argument or return of a schema.
#[pyclass(name = "Argument", module = "opyard._core", frozen)]
pub struct PyArgument {
    inner: Argument,
}

#[pymethods]
impl PyArgument {
    /// The parameter name (`""` for an unnamed return).
    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }

    /// torch's rendering: `Tensor`, `Optional[int]`, `List[int]`, `number`.
    #[getter]
    fn r#type(&self) -> String {
        py_type(&self.inner.ty)
    }

    /// Schema syntax of the declared type, as torch's `real_type.str()`:
    /// `SymInt[]`, `ScalarType?`, and `int[]` for `int[2]` (the size is `N`).
    #[getter]
    fn real_type(&self) -> String {
        crate::schema::real_type_text(&self.inner.ty)
    }

    /// The default as a Python value (None, bool, int, float, complex, str or list).
    #[getter]
    fn default_value(&self, py: Python<'_>) -> Option<PyObject> {
        self.inner.default.as_ref().map(|d| default_to_py(py, d))
    }

    /// Whether a default was given (a property here; a method in torch).
    #[getter]
    fn has_default_value(&self) -> bool {
        self.inner.default.is_some()
    }

    /// Declared after the `*` marker.
    #[getter]
    fn kwarg_only(&self) -> bool {
        self.inner.kwarg_only
    }

    /// The size of a `T[N]` list, else None.
    #[getter(N)]
    fn n(&self) -> Option<i64> {
        self.inner.n
    }

    /// The alias annotation (`Tensor(a!)`), else None.
    #[getter]
    fn alias_info(&self, py: Python<'_>) -> PyResult<Option<Py<PyAliasInfo>>> {
        self.inner
            .alias_info
            .as_ref()
            .map(|a| Py::new(py, PyAliasInfo { inner: a.clone() }))
            .transpose()
    }

    /// Written to (`(a!)`, or a list of written elements `Tensor(a!)[]`).
    #[getter]
    fn is_write(&self) -> bool {
        self.inner.alias_info.as_ref().is_some_and(|a| a.is_write)
    }

    /// A kwarg-only argument that is written to: an `out=` argument.
    #[getter]
    fn is_out(&self) -> bool {
        self.inner.kwarg_only && self.is_write()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Argument('{}')", self.inner)
    }
}

/// An alias annotation: alias sets before and after the call, and whether it writes.
#[pyclass(name = "AliasInfo", module = "opyard._core", frozen)]
pub struct PyAliasInfo {
    inner: AliasInfo,
}

/// torch's `before_set`/`after_set`: the set names without their `alias::` prefix.
fn name_set<'py>(py: Python<'py>, names: &[String]) -> PyResult<Bound<'py, PySet>> {
    PySet::new_bound(py, names)
}

#[pymethods]
impl PyAliasInfo {
    /// The alias sets before the call: `{"a"}` for `Tensor(a!)`, `{"*"}` for the wildcard.
    #[getter]
    fn before_set<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PySet>> {
        name_set(py, &self.inner.before_set)
    }

    /// The alias sets after the call (`{"a", "b"}` for `Tensor(a! -> a|b)`).
    #[getter]
    fn after_set<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PySet>> {
        name_set(py, &self.inner.after_set)
    }

    #[getter]
    fn is_write(&self) -> bool {
        self.inner.is_write
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("AliasInfo('{}')", self.inner)
    }
}

/// Parse a schema: `parse_schema("ns::op(Tensor x) -> Tensor")`.
///
/// Bad text raises `SchemaError` with its position: unknown syntax, a type
/// nested more than 256 levels deep (each tuple, `Dict(..)`, `Future(..)`,
/// `[]` and `?` is a level), repeated `T[N]` defaults of more than 65536
/// elements in all, or a string that is not valid Unicode (a lone surrogate).
/// As torch's, an unknown lowercase type name (`t`) is a type variable unless
/// `allow_typevars=False`, which refuses it as an unknown type.
#[pyfunction]
#[pyo3(signature = (schema, allow_typevars = true))]
pub fn parse_schema(schema: &Bound<'_, PyAny>, allow_typevars: bool) -> PyResult<PyFunctionSchema> {
    parse_obj(schema, "parse_schema()", allow_typevars)
        .map(|s| PyFunctionSchema::from_arc(Arc::new(s)))
}

/// Add `parse_schema`, `FunctionSchema`, `Argument`, `AliasInfo` and
/// `SchemaError` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyFunctionSchema>()?;
    m.add_class::<PyArgument>()?;
    m.add_class::<PyAliasInfo>()?;
    m.add("SchemaError", schema_error_type(m.py())?)?;
    m.add_function(wrap_pyfunction!(parse_schema, m)?)
}
