//! The kinds of a call's arguments as a byte string: the key of a packet's
//! overload cache (see Note [Overload cache] in `registry/resolve.rs`).
//!
//! Each value gets one code, chosen by the same type tests the binder's
//! checks make (`param.rs`, `convert.rs`), so two calls with equal signatures
//! pass or fail each overload's type checks alike; a list or tuple adds the
//! set of its elements' codes (the list checks test every element). Keywords
//! add their names. No allocation: the signature lives in a fixed buffer, and
//! a call that does not fit it is resolved without the cache.

use super::convert::{is_dtype, is_symint, numpy_scalar};
use super::plain::is_plain;
use crate::python::tensor::base::AsTensorBase;
use crate::python::tensor::device::DEVICE as DEVICE_CLASS;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyComplex, PyDict, PyFloat, PyList, PyLong, PyString, PyTuple};

/// Room for the signature: a dozen arguments and a few keywords.
const CAPACITY: usize = 96;

const NONE: u8 = 1;
const BOOL: u8 = 2;
const INT: u8 = 3;
const FLOAT: u8 = 4;
const STR: u8 = 5;
const TENSOR: u8 = 6;
const COMPLEX: u8 = 7;
const DEVICE: u8 = 8;
const DTYPE: u8 = 9;
const SYMINT: u8 = 10;
const OTHER: u8 = 11;
/// A list or tuple: followed by two bytes, the set of its elements' codes.
const SEQ: u8 = 12;
/// A keyword: followed by the name's length, the name, then the value's code.
const KEYWORD: u8 = 13;
/// numpy scalars, which a float takes (integers, floats) or only a Scalar
/// takes (complex, bool): see Note [Numpy scalars] in `convert.rs`.
const NUMPY_REAL: u8 = 14;
const NUMPY_SCALAR: u8 = 15;

/// A call's argument signature.
pub struct Signature {
    buf: [u8; CAPACITY],
    len: usize,
}

impl Signature {
    /// The signature of `args` and `kwargs`, or None when it does not fit.
    pub fn of(args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>) -> Option<Self> {
        let mut s = Signature {
            buf: [0; CAPACITY],
            len: 0,
        };
        for a in args.iter() {
            s.value(&a)?;
        }
        if let Some(kw) = kwargs {
            for (k, v) in kw.iter() {
                let name = k.downcast::<PyString>().ok()?.to_str().ok()?;
                let n = u8::try_from(name.len()).ok()?;
                s.push(KEYWORD)?;
                s.push(n)?;
                s.extend(name.as_bytes())?;
                s.value(&v)?;
            }
        }
        Some(s)
    }

    /// The encoded bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    fn push(&mut self, b: u8) -> Option<()> {
        *self.buf.get_mut(self.len)? = b;
        self.len += 1;
        Some(())
    }

    fn extend(&mut self, bytes: &[u8]) -> Option<()> {
        self.buf
            .get_mut(self.len..self.len + bytes.len())?
            .copy_from_slice(bytes);
        self.len += bytes.len();
        Some(())
    }

    fn value(&mut self, v: &Bound<'_, PyAny>) -> Option<()> {
        let items = if let Ok(l) = v.downcast::<PyList>() {
            Some(elements(l.iter()))
        } else if let Ok(t) = v.downcast::<PyTuple>() {
            Some(elements(t.iter()))
        } else {
            None
        };
        match items {
            Some(set) => {
                self.push(SEQ)?;
                self.extend(&set.to_le_bytes())
            }
            None => self.push(code(v)),
        }
    }
}

/// The set of codes of a sequence's elements (a nested sequence counts as `SEQ`).
fn elements<'py>(items: impl Iterator<Item = Bound<'py, PyAny>>) -> u16 {
    items.fold(0u16, |set, x| {
        let c = if x.is_instance_of::<PyList>() || x.is_instance_of::<PyTuple>() {
            SEQ
        } else {
            code(&x)
        };
        set | (1 << c)
    })
}

/// One value's code. Tensors first (the common case, one pointer compare
/// for a plain tensor; no tensor is also a number or a string), then the
/// binder's order: `bool` before `int` (a bool is an int to Python, not to a schema).
fn code(v: &Bound<'_, PyAny>) -> u8 {
    if is_plain(v) {
        TENSOR
    } else if v.is_none() {
        NONE
    } else if v.is_instance_of::<PyBool>() {
        BOOL
    } else if v.is_instance_of::<PyLong>() {
        INT
    } else if v.is_instance_of::<PyFloat>() {
        FLOAT
    } else if v.is_tensor_base() {
        TENSOR
    } else if v.is_instance_of::<PyString>() {
        STR
    } else if v.is_instance_of::<PyComplex>() {
        COMPLEX
    } else if DEVICE_CLASS.is_instance(v) {
        DEVICE
    } else if is_dtype(v) {
        DTYPE
    } else if numpy_scalar(v, true) {
        NUMPY_REAL
    } else if numpy_scalar(v, false) {
        NUMPY_SCALAR
    } else if is_symint(v) {
        // Last: asking whether `opyard.fake` defined `SymInt` yet may cost a
        // Python call, and no SymInt is a numpy scalar.
        SYMINT
    } else {
        OTHER
    }
}
