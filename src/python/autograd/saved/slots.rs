//! `SavedTensor`'s slots, by name (See Note [SavedTensor slots] in
//! `ffi/instance_slots.rs`).

use pyo3::prelude::*;
use pyo3::types::PyType;

/// The slots in `SavedTensor.__init__`'s argument order.
pub const NAMES: [&str; 5] = ["tensor", "version", "is_output", "node_name", "output_nr"];

/// The positions in [`NAMES`] of the slots read back in backward.
pub const TENSOR: usize = 0;
pub const VERSION: usize = 1;

/// The layout of `SavedTensor`'s five slots.
pub type SlotLayout = crate::python::ffi::instance_slots::SlotLayout<5>;

/// `ty`'s layout, or None when its slots are not plain object members.
pub fn layout_of(ty: &Bound<'_, PyType>) -> PyResult<Option<SlotLayout>> {
    SlotLayout::of(ty, NAMES)
}
