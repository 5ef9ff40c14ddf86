//! A fixed set of Python types recognised by pointer compare on a hot path
//! (plain tensor types for the binder, types the Rust kernels accept).

use pyo3::prelude::*;
use pyo3::types::PyType;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Put `cls` into the first free slot of `slots` (a no-op when it is there
/// already). False when every slot holds another type.
pub fn register(slots: &[AtomicUsize], cls: &Bound<'_, PyType>) -> bool {
    let ptr = cls.as_ptr() as usize;
    for slot in slots {
        match slot.compare_exchange(0, ptr, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => {
                // The type object must outlive every later compare: keep one reference forever.
                std::mem::forget(cls.clone());
                return true;
            }
            Err(existing) if existing == ptr => return true,
            Err(_) => {}
        }
    }
    false
}
