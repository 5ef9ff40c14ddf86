//! Bulk registration entry points: the built-in operator tables registered by
//! one call each. See Note [Bulk registration] (src/registry/bulk.rs).

use crate::python::dispatch::keys::extract_opt_key;
use crate::python::dispatch::lazy::{ensure_defined_in, is_pending_in};
use crate::python::dispatch::library::{py_kernel, schema_arg};
use crate::python::dispatch::operator::{Compiled, REGISTRY};
use crate::python::errors::core_err;
use crate::registry::BulkKernel;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

/// Define every schema (str or FunctionSchema) of `schemas` in library `lib`,
/// in order; all or nothing. Returns their `ns::name.overload` names.
#[pyfunction]
pub fn _define_many(
    py: Python<'_>,
    lib: u64,
    schemas: &Bound<'_, PyAny>,
    provenance: &str,
) -> PyResult<Vec<String>> {
    let parsed = schemas
        .iter()?
        .map(|s| schema_arg(&s?))
        .collect::<PyResult<Vec<_>>>()?;
    // New overloads of a built-in packet come after the built-in ones.
    for schema in &parsed {
        ensure_defined_in(py, lib, &schema.name)?;
    }
    // A definer defining its packet: the overloads join the packet's list when
    // it reports the packet defined, with every kernel registered. See Note
    // [Definitions published with their kernels] (src/registry/bulk.rs).
    let stage = !parsed.is_empty() && parsed.iter().all(|schema| is_pending_in(lib, &schema.name));
    // The binder compiles on the first call (Note [Binder on first call],
    // src/python/dispatch/operator.rs): defining builds no Python object.
    let ops = REGISTRY
        .define_many(lib, parsed, provenance, stage, Compiled::new)
        .map_err(core_err)?;
    Ok(ops.iter().map(|op| op.name.clone()).collect())
}

/// Register `rows` of `(op_name, dispatch_key, kernel, with_keyset)` in library
/// `lib`, in order, all at `provenance`; all or nothing. A kernel that is
/// `fallthrough` registers a fallthrough. Returns `(row index, provenance)` of
/// each kernel a row shadowed.
#[pyfunction]
pub fn _impl_many(
    py: Python<'_>,
    lib: u64,
    rows: &Bound<'_, PyAny>,
    provenance: &str,
    fallthrough: &Bound<'_, PyAny>,
) -> PyResult<Vec<(usize, String)>> {
    let mut kernels = Vec::new();
    for (i, row) in rows.iter()?.enumerate() {
        let (op_name, key, func, with_keyset): (String, Bound<'_, PyAny>, PyObject, bool) =
            row?.extract().map_err(|e| {
                PyTypeError::new_err(format!(
                    "_impl_many(): row {i}: expected (op_name, dispatch_key, kernel, \
                     with_keyset): {e}"
                ))
            })?;
        // Overrides of built-in kernels land on top of them: define those first.
        ensure_defined_in(py, lib, &op_name)?;
        kernels.push(BulkKernel {
            op_name,
            key: extract_opt_key(Some(&key))?,
            fallthrough: func.is(fallthrough),
            kernel: py_kernel(py, func, with_keyset, false),
        });
    }
    let shadowed = REGISTRY
        .impl_many(lib, kernels, provenance)
        .map_err(core_err)?;
    Ok(shadowed
        .into_iter()
        .map(|(i, p)| (i, p.to_string()))
        .collect())
}

/// Put `new` in place of the kernel `old` registered for `op_name` at
/// `dispatch_key`, keeping that registration's id, library and provenance;
/// False if `old` is not registered there (any more). For kernels built on
/// their first call: the table then calls `new` directly.
#[pyfunction]
pub fn _replace_kernel(
    op_name: &str,
    dispatch_key: &Bound<'_, PyAny>,
    old: &Bound<'_, PyAny>,
    new: PyObject,
    with_keyset: bool,
) -> PyResult<bool> {
    let Some(key) = extract_opt_key(Some(dispatch_key))? else {
        return Err(PyTypeError::new_err(format!(
            "_replace_kernel(): a dispatch key is required for {op_name}"
        )));
    };
    let old = old.as_ptr();
    // Compares pointers only: allowed under the registry lock.
    let is_old = |k: &crate::python::dispatch::operator::Kernel| k.func.as_ptr() == old;
    REGISTRY
        .replace_kernel(
            op_name,
            key,
            is_old,
            py_kernel(dispatch_key.py(), new, with_keyset, false),
        )
        .map_err(core_err)
}
