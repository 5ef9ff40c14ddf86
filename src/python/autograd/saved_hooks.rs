//! The thread's stack of saved-tensor hooks: torch's
//! `autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook)`.
//!
//! Note [Saved tensor hooks]: while a pair is on this thread's stack, every
//! tensor saved for backward is packed by the innermost `pack_hook` and
//! unpacked by its `unpack_hook` when backward (or `grad_fn._saved_*`) reads it
//! (`SavedTensor` in `autograd/graph.py` does both). The Rust makers of
//! `SavedTensor`s (`ag_saved.rs`, `saved_fast.rs`) fill its slots directly
//! only while the stack is empty (`active()`, one thread-local read);
//! otherwise they call the class, whose `__init__` packs. A packed value is
//! never a tensor, so the Rust readers of saved tensors take the Python
//! `unpack` for it.
//!
//! See Note [No foreign code under a lock]: a popped pair is dropped after the
//! borrow ends.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::cell::{Cell, RefCell};

thread_local! {
    static STACK: RefCell<Vec<(PyObject, PyObject)>> = const { RefCell::new(Vec::new()) };
    static DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// Whether saved-tensor hooks are active on this thread.
#[inline]
pub fn active() -> bool {
    DEPTH.with(Cell::get) != 0
}

/// Pushes `(pack_hook, unpack_hook)`; the innermost pair packs what is saved from now on.
#[pyfunction]
pub fn _push_saved_tensors_hooks(pack_hook: PyObject, unpack_hook: PyObject) {
    STACK.with(|s| s.borrow_mut().push((pack_hook, unpack_hook)));
    DEPTH.with(|d| d.set(d.get() + 1));
}

/// Pops the innermost pair (the end of its `with` block).
#[pyfunction]
pub fn _pop_saved_tensors_hooks() -> PyResult<()> {
    let popped = STACK.with(|s| s.borrow_mut().pop());
    match popped {
        Some(pair) => {
            DEPTH.with(|d| d.set(d.get() - 1));
            drop(pair);
            Ok(())
        }
        None => Err(PyRuntimeError::new_err(
            "saved_tensors_hooks: no hooks to pop on this thread",
        )),
    }
}

/// The innermost `(pack_hook, unpack_hook)` of this thread, or None.
#[pyfunction]
pub fn _current_saved_tensors_hooks(py: Python<'_>) -> Option<(PyObject, PyObject)> {
    STACK.with(|s| {
        s.borrow()
            .last()
            .map(|(p, u)| (p.clone_ref(py), u.clone_ref(py)))
    })
}
