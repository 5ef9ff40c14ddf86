//! Final callbacks of a backward pass: torch's
//! `Variable._execution_engine.queue_callback(fn)`.
//!
//! Note [Final callbacks]: each backward pass on a thread (a reentrant one
//! inside a node's backward too) has a frame on this thread's stack; a
//! callback queued while the pass runs goes to the innermost frame. When the
//! pass has finished without an error, its callbacks run in order, on the
//! calling thread, with the frame still open, so a callback may queue more
//! (they run too); a callback's error ends the pass with that error. A pass
//! that raised drops its callbacks unrun, as torch does. Pushing and popping
//! an empty frame is all a pass without callbacks costs.
//!
//! See Note [No foreign code under a lock]: the stack is a `RefCell`; no
//! Python code runs and no Python object is dropped while it is borrowed
//! (callbacks are cloned out before they are called, frames dropped after).

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::cell::RefCell;

/// The callbacks queued during one pass, and whether the pass runs only towards given inputs.
struct Frame {
    partial: bool,
    callbacks: Vec<PyObject>,
}

thread_local! {
    /// One frame per backward pass running on this thread, innermost last.
    static FRAMES: RefCell<Vec<Frame>> = const { RefCell::new(Vec::new()) };
}

/// Runs `pass` as one backward pass with a frame of final callbacks, then those callbacks;
/// `partial`: the pass runs only towards given inputs (`autograd.grad`, `backward(inputs=...)`).
pub fn with_final_callbacks<R>(
    py: Python<'_>,
    partial: bool,
    pass: impl FnOnce() -> PyResult<R>,
) -> PyResult<R> {
    FRAMES.with(|s| {
        s.borrow_mut().push(Frame {
            partial,
            callbacks: Vec::new(),
        })
    });
    let mut out = pass();
    // The pass is over: a callback may checkpoint again (torch restores the flag first).
    FRAMES.with(|s| {
        if let Some(frame) = s.borrow_mut().last_mut() {
            frame.partial = false;
        }
    });
    if out.is_ok() {
        let mut i = 0;
        loop {
            let next = FRAMES.with(|s| {
                s.borrow()
                    .last()
                    .and_then(|frame| frame.callbacks.get(i).map(|cb| cb.clone_ref(py)))
            });
            let Some(cb) = next else { break };
            if let Err(e) = cb.call0(py) {
                out = Err(e);
                break;
            }
            i += 1;
        }
    }
    let frame = FRAMES.with(|s| s.borrow_mut().pop());
    drop(frame);
    out
}

/// `queue_callback(fn)`: run `fn()` when the backward pass running on this thread ends.
#[pyfunction]
pub fn _queue_final_callback(callback: PyObject) -> PyResult<()> {
    let queued = FRAMES.with(|s| match s.borrow_mut().last_mut() {
        Some(frame) => {
            frame.callbacks.push(callback);
            Ok(())
        }
        None => Err(callback),
    });
    match queued {
        Ok(()) => Ok(()),
        Err(callback) => {
            drop(callback);
            Err(PyRuntimeError::new_err(
                "Final callbacks can only be installed during backward pass.",
            ))
        }
    }
}

/// torch's `is_checkpoint_valid()`: False while a pass that runs only towards given
/// inputs is running on this thread (a reentrant checkpoint cannot recompute there).
#[pyfunction]
pub fn _checkpoint_valid() -> bool {
    FRAMES.with(|s| !s.borrow().iter().any(|f| f.partial))
}
