//! The GIL the calling thread already holds, without PyO3's guard.
//!
//! Note [Held GIL]: code that runs below a Python call (the backward pass,
//! which holds the GIL from `_run_backward` to its return) but behind a trait
//! whose methods take no `Python` token reaches the interpreter through
//! `with_held`. `Python::with_gil` would be correct too, but each call takes
//! PyO3's guard and drains its deferred reference pool under a mutex (about
//! 350 instructions, paid several times per graph node); asking CPython whether
//! this thread holds the GIL is a thread-state compare.

use pyo3::ffi;
use pyo3::Python;

/// Runs `f` with the GIL token: the one this thread holds when it holds the
/// GIL, else a freshly acquired one (`Python::with_gil`).
#[inline]
pub fn with_held<R>(f: impl for<'py> FnOnce(Python<'py>) -> R) -> R {
    // SAFETY: `PyGILState_Check` only reads the calling thread's state and may
    // be called with or without the GIL (the interpreter is initialised: this
    // module is only reached from code a Python call started).
    if unsafe { ffi::PyGILState_Check() } == 1 {
        // SAFETY: the check above says this thread holds the GIL, and it keeps
        // holding it for the whole of `f`: nothing between here and the return
        // releases it (a callee that releases it reacquires before returning).
        f(unsafe { Python::assume_gil_acquired() })
    } else {
        Python::with_gil(f)
    }
}
