//! Registration entry points behind `opyard.library.Library`, plus the
//! introspection behind `opyard.dispatcher` (dump, dump_table, what-if).

use crate::dispatch::table::{compute_slot, EntryKind, KernelSource, Registration, Slot};
use crate::dispatch::{DispatchKey, DispatchKeySet};
use crate::python::dispatch::keys::extract_opt_key;
use crate::python::dispatch::lazy::{ensure_defined, ensure_defined_in};
use crate::python::dispatch::operator::{
    Compiled, PyKernel, PyOpOverload, PyOpOverloadPacket, REGISTRY,
};
use crate::python::errors::core_err;
use crate::python::schema::{parse_py_with, PyFunctionSchema};
use crate::registry::LibraryKind;
use crate::schema::FunctionSchema;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::sync::Arc;

/// Open a library; returns its handle.
#[pyfunction]
#[pyo3(signature = (ns, kind, dispatch_key, provenance))]
pub fn _new_library(
    ns: &str,
    kind: &str,
    dispatch_key: Option<&Bound<'_, PyAny>>,
    provenance: &str,
) -> PyResult<u64> {
    let kind = LibraryKind::parse(kind).map_err(core_err)?;
    let key = extract_opt_key(dispatch_key)?;
    REGISTRY
        .new_library(ns, kind, key, provenance)
        .map_err(core_err)
}

/// Remove everything a library registered.
#[pyfunction]
pub fn _destroy_library(lib: u64) {
    REGISTRY.destroy_library(lib);
}

/// Define an operator from schema text or a parsed schema; returns `ns::name.overload`.
#[pyfunction]
pub fn _define(
    py: Python<'_>,
    lib: u64,
    schema: &Bound<'_, PyAny>,
    provenance: &str,
) -> PyResult<String> {
    let parsed = schema_arg(schema)?;
    // A new overload of a built-in packet comes after the built-in ones.
    ensure_defined_in(py, lib, &parsed.name)?;
    // The binder compiles on the first call (Note [Binder on first call],
    // src/python/dispatch/operator.rs): defining builds no Python object.
    let op = REGISTRY
        .define(lib, parsed, provenance, Compiled::new)
        .map_err(core_err)?;
    Ok(op.name.clone())
}

/// A schema given to `define` as text or as a parsed `FunctionSchema`.
pub(crate) fn schema_arg(schema: &Bound<'_, PyAny>) -> PyResult<FunctionSchema> {
    match schema.downcast::<PyFunctionSchema>() {
        Ok(s) => Ok((*s.get().inner).clone()),
        Err(_) => match schema.downcast::<PyString>() {
            Ok(text) => parse_py_with(text, "Library.define()", false),
            Err(_) => Err(PyTypeError::new_err(format!(
                "Library.define(): expected the schema as a str or FunctionSchema, got {}",
                schema.get_type().name()?
            ))),
        },
    }
}

/// The registry's kernel for a Python callable.
pub(crate) fn py_kernel(
    py: Python<'_>,
    func: PyObject,
    with_keyset: bool,
    is_fallback: bool,
) -> Arc<PyKernel> {
    let kind =
        crate::python::dispatch::operator::KernelKind::of(func.bind(py), with_keyset, is_fallback);
    Arc::new(PyKernel {
        func,
        with_keyset,
        is_fallback,
        kind,
    })
}

/// Register a kernel; returns the provenance of the kernel it shadows, if any.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (lib, op_name, dispatch_key, func, *, with_keyset, fallthrough, allow_override, provenance))]
pub fn _impl(
    py: Python<'_>,
    lib: u64,
    op_name: &str,
    dispatch_key: Option<&Bound<'_, PyAny>>,
    func: PyObject,
    with_keyset: bool,
    fallthrough: bool,
    allow_override: bool,
    provenance: &str,
) -> PyResult<Option<String>> {
    let key = extract_opt_key(dispatch_key)?;
    // An override of a built-in kernel lands on top of it, so define it first.
    ensure_defined_in(py, lib, op_name)?;
    let kernel = py_kernel(py, func, with_keyset, false);
    let out = REGISTRY
        .impl_kernel(
            lib,
            op_name,
            key,
            kernel,
            fallthrough,
            allow_override,
            provenance,
        )
        .map_err(core_err)?;
    Ok(out.shadowed.map(|s| s.to_string()))
}

/// Register a boxed fallback; returns the provenance of the fallback it shadows.
#[pyfunction]
#[pyo3(signature = (lib, dispatch_key, func, *, with_keyset, fallthrough, provenance))]
pub fn _fallback(
    py: Python<'_>,
    lib: u64,
    dispatch_key: Option<&Bound<'_, PyAny>>,
    func: PyObject,
    with_keyset: bool,
    fallthrough: bool,
    provenance: &str,
) -> PyResult<Option<String>> {
    let key = extract_opt_key(dispatch_key)?;
    let kernel = py_kernel(py, func, with_keyset, true);
    let out = REGISTRY
        .fallback(lib, key, kernel, fallthrough, provenance)
        .map_err(core_err)?;
    Ok(out.shadowed.map(|s| s.to_string()))
}

/// The defined overload `ns::name[.overload]`, or None.
#[pyfunction]
pub fn _find_op(py: Python<'_>, name: &str) -> PyResult<Option<Py<PyOpOverload>>> {
    ensure_defined(py, name)?;
    REGISTRY
        .find_op(name)
        .map(|op| PyOpOverload::create(py, op))
        .transpose()
}

/// The packet `ns::name` (possibly with no overloads yet).
#[pyfunction]
pub fn _packet(py: Python<'_>, name: &str) -> PyResult<Py<PyOpOverloadPacket>> {
    let packet = REGISTRY.packet(name).map_err(core_err)?;
    PyOpOverloadPacket::new(packet).into_object(py)
}

/// Operators with kernels but no definition.
#[pyfunction]
pub fn _dangling_impls() -> Vec<String> {
    REGISTRY.dangling_impls()
}

/// Check the registry's invariants; raises on a violation.
#[pyfunction]
pub fn _check_invariants() -> PyResult<()> {
    REGISTRY
        .check_invariants()
        .map_err(pyo3::exceptions::PyAssertionError::new_err)
}

fn kernel_name(py: Python<'_>, reg: &Registration<Arc<PyKernel>>) -> String {
    if reg.fallthrough {
        return "fallthrough".to_string();
    }
    let f = reg.kernel.func.bind(py);
    f.getattr("__qualname__")
        .or_else(|_| f.getattr("__name__"))
        .and_then(|n| n.extract::<String>())
        .unwrap_or_else(|_| {
            f.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        })
}

/// torch's `_dispatch_dump`: the definition and every registration.
#[pyfunction]
pub fn _dump(py: Python<'_>, name: &str) -> PyResult<String> {
    ensure_defined(py, name)?;
    let (def, rows) = REGISTRY.dump(name).ok_or_else(|| unknown(name))?;
    let mut out = format!("name: {}\n", name.strip_suffix(".default").unwrap_or(name));
    match (REGISTRY.find_op(name), def) {
        (Some(op), Some(prov)) => {
            if let Some(d) = op.def().as_ref() {
                out += &format!("schema: {}\ndebug: registered at {prov}\n", d.schema);
            }
        }
        _ => out += "schema: (none)\n",
    }
    for row in rows {
        let alias = if row.key.is_alias() { "[alias]" } else { "" };
        let inactive = if row.active { "" } else { " [inactive]" };
        out += &format!(
            "{}{alias}: registered at {} :: {}{inactive}\n",
            row.key,
            row.reg.provenance,
            kernel_name(py, &row.reg)
        );
    }
    Ok(out)
}

/// One row per non-missing slot: (key, kernel name, reason, provenance).
#[pyfunction]
pub fn _table_entries(
    py: Python<'_>,
    name: &str,
) -> PyResult<Vec<(String, String, String, String)>> {
    ensure_defined(py, name)?;
    let op = REGISTRY.find_op(name).ok_or_else(|| unknown(name))?;
    let table = op.table();
    let mut rows = Vec::new();
    for k in DispatchKeySet::FULL
        .iter()
        .chain(std::iter::once(DispatchKey::Undefined))
    {
        match table.slot(k) {
            Slot::Kernel { reg, kind } => rows.push((
                k.name().to_string(),
                kernel_name(py, reg),
                kind.reason().to_string(),
                reg.provenance.to_string(),
            )),
            Slot::Ambiguous => rows.push((
                k.name().to_string(),
                "ambiguous_autogradother".into(),
                "ambiguous autogradother".into(),
                String::new(),
            )),
            Slot::Missing => {}
        }
    }
    Ok(rows)
}

/// Every key with a registration for `name` (runtime and alias), for error messages.
pub fn registered_keys(name: &str) -> Vec<DispatchKey> {
    let mut keys: Vec<DispatchKey> = REGISTRY
        .dump(name)
        .map(|(_, rows)| rows.into_iter().map(|r| r.key).collect())
        .unwrap_or_default();
    keys.extend(
        REGISTRY
            .fallbacks()
            .into_iter()
            .filter(|r| !r.fallthrough)
            .map(|r| r.key),
    );
    keys.sort();
    keys.dedup();
    keys
}

fn unknown(name: &str) -> PyErr {
    crate::python::errors::unknown_op(format!(
        "no operator named '{name}' is registered; define it with Library.define or custom_op"
    ))
}

/// Pretend kernels, and the process's real backend fallbacks (as torch's
/// PythonDispatcher sees the fallbacks registered in the process).
struct WhatIf(Vec<Registration<()>>, Vec<Registration<()>>);

impl KernelSource<()> for WhatIf {
    fn kernel(&self, key: DispatchKey) -> Option<&Registration<()>> {
        self.0.iter().find(|r| r.key == key)
    }
    fn fallback(&self, key: DispatchKey) -> Option<&Registration<()>> {
        self.1.iter().find(|r| r.key == key)
    }
}

/// The table torch's `PythonDispatcher` would compute for kernels at `keys`:
/// (slot, kernel label, reason) for each slot, in priority order (lowest first).
/// A backend fallback's label is `[fallthrough ]registered at file.py:12`, as torch prints it.
#[pyfunction]
pub fn _what_if(keys: Vec<Bound<'_, PyAny>>) -> PyResult<Vec<(String, String, String)>> {
    let mut regs = Vec::new();
    for k in &keys {
        let key = crate::python::dispatch::keys::extract_key(k)?;
        let provenance: Arc<str> = Arc::from("");
        regs.push(Registration {
            id: key as u64,
            lib: 0,
            kernel: (),
            key,
            provenance,
            fallthrough: false,
        });
    }
    let fallbacks = REGISTRY
        .fallbacks()
        .into_iter()
        .map(|r| Registration {
            id: r.id,
            lib: r.lib,
            kernel: (),
            key: r.key,
            provenance: r.provenance,
            fallthrough: r.fallthrough,
        })
        .collect();
    let src = WhatIf(regs, fallbacks);
    let mut out = Vec::new();
    for k in std::iter::once(DispatchKey::Undefined).chain(DispatchKeySet::FULL.iter()) {
        let (label, reason) = match compute_slot(k, &src) {
            Slot::Kernel { reg, kind } if kind == EntryKind::BackendFallback => {
                let through = if reg.fallthrough { "fallthrough " } else { "" };
                let label = format!("{through}registered at {}", reg.provenance);
                (label, kind.reason().to_string())
            }
            Slot::Kernel { reg, kind } => (format!("fn_{}", reg.key), kind.reason().to_string()),
            Slot::Ambiguous => (
                "ambiguous_autogradother".into(),
                "ambiguous autogradother".into(),
            ),
            Slot::Missing => ("missing".into(), "missing".into()),
        };
        out.push((k.name().to_string(), label, reason));
    }
    Ok(out)
}

/// What a call would do: (argument keys, after TLS, after the fallthrough mask,
/// chosen key, (kernel name, reason, provenance) or None when missing).
#[pyfunction]
#[pyo3(signature = (op, *args, **kwargs))]
#[allow(clippy::type_complexity)]
pub fn _explain(
    py: Python<'_>,
    op: &Bound<'_, PyOpOverload>,
    args: &Bound<'_, pyo3::types::PyTuple>,
    kwargs: Option<&Bound<'_, pyo3::types::PyDict>>,
) -> PyResult<(u64, u64, u64, String, Option<(String, String, String)>)> {
    let op = &op.get().op;
    let (arg_keys, with_tls, masked, key) =
        crate::python::dispatch::operator::explain_keys(op, args, kwargs)?;
    let entry = match op.table().slot(key) {
        Slot::Kernel { reg, kind } => Some((
            kernel_name(py, reg),
            kind.reason().to_string(),
            reg.provenance.to_string(),
        )),
        _ => None,
    };
    Ok((
        arg_keys.raw(),
        with_tls.raw(),
        masked.raw(),
        key.name().to_string(),
        entry,
    ))
}
