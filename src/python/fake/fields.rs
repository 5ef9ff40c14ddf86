//! Reading a fake tensor's metadata fields for a cache key.
//!
//! Note [Reading fake tensor fields]: a key reads six fields per tensor
//! (`_fake_mode`, `_sym_shape`, `_dev`, `_meta_strides`, `_meta_offset` and
//! `_data`). They are struct fields of `TensorBase` (see `tensor/slots.rs`),
//! so a read is a pointer load and an incref: no attribute lookup, no dict,
//! no Python code.

use pyo3::prelude::*;

use crate::python::tensor::base::PyTensorBase;
use crate::python::tensor::slots::Field;

/// A fake tensor's fields (`None`: unset) and its key set.
pub struct Fields<'py> {
    pub fake_mode: Option<Bound<'py, PyAny>>,
    pub sym_shape: Option<Bound<'py, PyAny>>,
    pub dev: Option<Bound<'py, PyAny>>,
    pub meta_strides: Option<Bound<'py, PyAny>>,
    pub meta_offset: Option<Bound<'py, PyAny>>,
    pub data: Option<Bound<'py, PyAny>>,
    pub keys: u64,
}

/// `t`'s fields.
pub fn read<'py>(t: &Bound<'py, PyTensorBase>) -> Fields<'py> {
    let (py, tb) = (t.py(), t.get());
    Fields {
        fake_mode: tb.field(py, Field::FakeMode),
        sym_shape: tb.field(py, Field::SymShape),
        dev: tb.field(py, Field::Dev),
        meta_strides: tb.field(py, Field::MetaStrides),
        meta_offset: tb.field(py, Field::MetaOffset),
        data: tb.field(py, Field::Data),
        keys: tb.keys(),
    }
}
