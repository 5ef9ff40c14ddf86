//! Schema text from Python: a `str` that may not be valid Unicode.

use crate::python::errors::schema_err;
use crate::schema::{parse_schema_with, FunctionSchema, SchemaError as CoreSchemaError};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use std::borrow::Cow;

/// Parse the schema argument of a Python API that takes any object: a `str`,
/// or `bytes` holding UTF-8 (torch's binding decodes them too); anything else
/// is a `TypeError` naming `api` and the argument.
pub fn parse_obj(
    schema: &Bound<'_, PyAny>,
    api: &str,
    allow_typevars: bool,
) -> PyResult<FunctionSchema> {
    if let Ok(text) = schema.downcast::<PyString>() {
        return parse_py_with(text, api, allow_typevars);
    }
    if let Ok(bytes) = schema.downcast::<PyBytes>() {
        let text = std::str::from_utf8(bytes.as_bytes()).map_err(|e| {
            PyTypeError::new_err(format!(
                "{api}: argument 'schema' holds bytes that are not UTF-8 text ({e}); pass the \
                 schema as a str"
            ))
        })?;
        return parse_schema_with(text, allow_typevars).map_err(|e| schema_err(&e));
    }
    Err(PyTypeError::new_err(format!(
        "{api}: argument 'schema' must be str (a schema such as 'ns::op(Tensor x) -> Tensor'), \
         not {}",
        schema.get_type().name()?
    )))
}

/// Parse a Python `str` as a schema; `api` names the caller in messages, `allow_typevars`
/// chooses whether unknown lowercase names are type variables.
pub fn parse_py_with(
    schema: &Bound<'_, PyString>,
    api: &str,
    allow_typevars: bool,
) -> PyResult<FunctionSchema> {
    let text = schema_text(schema, api)?;
    parse_schema_with(&text, allow_typevars).map_err(|e| schema_err(&e))
}

/// The text of a Python `str` holding a schema.
///
/// A Python string may hold lone surrogates (`"\ud800"`), which no UTF-8 text
/// can, and PyO3's conversion would raise a bare `UnicodeEncodeError`. Such a
/// schema is refused with a `SchemaError` that names the argument and points
/// at the first surrogate.
fn schema_text<'a>(schema: &'a Bound<'_, PyString>, api: &str) -> PyResult<Cow<'a, str>> {
    match schema.to_cow() {
        Ok(text) => Ok(text),
        Err(_) => Err(surrogate_err(schema, api)),
    }
}

/// The `SchemaError` for a string that does not encode to UTF-8.
#[cold]
fn surrogate_err(schema: &Bound<'_, PyString>, api: &str) -> PyErr {
    // `surrogatepass` encodes a surrogate in the 3 bytes `ED A0..BF xx`
    // (never overlapping: neither continuation byte can be `ED`); putting the
    // 3-byte U+FFFD in each one's place gives the text the error quotes, with
    // the same byte offsets.
    let passed = schema
        .call_method1("encode", ("utf-8", "surrogatepass"))
        .ok()
        .and_then(|b| b.downcast_into::<PyBytes>().ok());
    let bytes = passed.as_ref().map_or(&[][..], |b| b.as_bytes());
    let surrogates: Vec<(usize, u8, u8)> = bytes
        .windows(3)
        .enumerate()
        .filter_map(|(i, w)| match *w {
            [0xED, hi @ 0xA0..=0xBF, lo] => Some((i, hi, lo)),
            _ => None,
        })
        .collect();
    let mut fixed = bytes.to_vec();
    for &(i, _, _) in &surrogates {
        if let Some(w) = fixed.get_mut(i..i + 3) {
            // Both sides are 3 bytes, so `copy_from_slice` cannot panic.
            w.copy_from_slice("\u{FFFD}".as_bytes());
        }
    }
    let text = String::from_utf8_lossy(&fixed);
    // `ED hi lo` is the code unit 0xD000 | (hi & 0x3F) << 6 | (lo & 0x3F).
    let (offset, unit) = surrogates.first().map_or((0, 0xD800), |&(i, hi, lo)| {
        (
            i,
            0xD000 | (u32::from(hi & 0x3F) << 6) | u32::from(lo & 0x3F),
        )
    });
    let message = format!(
        "{api}: argument 'schema' is not valid Unicode: it holds the lone surrogate \
         '\\u{unit:04x}', which cannot be encoded as UTF-8; remove it or decode the text with \
         errors='replace' first"
    );
    schema_err(&CoreSchemaError::at(&text, offset, message))
}
