//! Reading a fake tensor's metadata fields for a cache key.
//!
//! Note [Reading fake tensor fields]: a key reads six fields per tensor
//! (`_fake_mode`, `_sym_shape`, `_dev`, `_meta_strides`, `_meta_offset` and
//! `_data`). They are struct fields of `TensorBase` (see `tensor_slots.rs`),
//! so a read is a pointer load: no attribute lookup, no dict, no Python code.

use pyo3::ffi;
use pyo3::prelude::*;

use crate::python::tensor::base::PyTensorBase;
use crate::python::tensor::slots::Field;

/// The fields a key reads, in `Fields::named` order.
const NAMED: [Field; 5] = [
    Field::FakeMode,
    Field::SymShape,
    Field::Dev,
    Field::MetaStrides,
    Field::MetaOffset,
];

/// Borrowed pointers to a fake tensor's fields (NULL: unset).
#[derive(Clone, Copy)]
pub struct Fields {
    /// `_fake_mode`, `_sym_shape`, `_dev`, `_meta_strides`, `_meta_offset`.
    pub named: [*mut ffi::PyObject; 5],
    /// `_data`.
    pub data: *mut ffi::PyObject,
}

/// `t`'s fields, or None when `t` is not a tensor. The pointers are borrowed
/// from `t`, valid while `t` is alive and no Python code runs.
pub fn read(t: &Bound<'_, PyAny>) -> Option<Fields> {
    let tb = t.downcast::<PyTensorBase>().ok()?.get();
    Some(Fields {
        named: NAMED.map(|f| tb.field_ptr(f)),
        data: tb.field_ptr(Field::Data),
    })
}
