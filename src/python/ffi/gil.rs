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

// Note [Pass scope]: the backward pass asks "does this thread hold the GIL?"
// each time the engine clones or combines a node or a gradient (its traits
// take no `Python` token): about 30 calls per small graph, each a
// `PyGILState_Check` and a `pthread_getspecific`. The pass's entry holds the
// GIL from start to end and runs the engine on its own thread, so it opens a
// `PassScope` (a per-thread depth, made from the entry's `Python` token, not
// `Send`); inside one, `with_pass` takes the token without asking CPython.
// The answer stays right while the scope lives: this thread's code runs only
// while it holds the GIL (a callee that releases it, or CPython's switch
// between threads, takes it back before this thread's code goes on), and the
// engine's own code never runs inside an `allow_threads` region. Nested
// passes (a backward inside a node's `apply`) open nested scopes.

thread_local! {
    /// How many pass scopes are open on this thread.
    static PASS_DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// An open pass scope of this thread. See Note [Pass scope].
pub struct PassScope {
    _not_send: std::marker::PhantomData<*const ()>,
}

impl PassScope {
    /// Open a scope: `_py` says this thread holds the GIL now.
    pub fn open(_py: Python<'_>) -> Self {
        PASS_DEPTH.with(|d| d.set(d.get() + 1));
        PassScope {
            _not_send: std::marker::PhantomData,
        }
    }
}

impl Drop for PassScope {
    fn drop(&mut self) {
        let _ = PASS_DEPTH.try_with(|d| d.set(d.get() - 1));
    }
}

/// Runs `f` with the GIL token: inside a pass scope of this thread without
/// asking CPython (Note [Pass scope]), else as [`with_held`].
#[inline]
pub fn with_pass<R>(f: impl for<'py> FnOnce(Python<'py>) -> R) -> R {
    if PASS_DEPTH.try_with(|d| d.get() != 0).unwrap_or(false) {
        // SAFETY: a pass scope is open on this thread: it was opened with this
        // thread holding the GIL, inside a call that holds it until the scope
        // closes, and this thread's code only runs while holding it (Note [Pass scope]).
        return f(unsafe { Python::assume_gil_acquired() });
    }
    with_held(f)
}
