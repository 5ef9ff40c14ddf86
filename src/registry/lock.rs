//! The registry's lock discipline: what may happen while `State` is locked,
//! and where everything removed under the lock is dropped.
//!
//! Note [No foreign code under a lock]: while a registry lock is held, no
//! code outside this crate runs: no callback (`compile` of `define` runs
//! before the lock is taken), no `Drop` of a kernel, definition, table or
//! operator (they are moved into a `Trash` and dropped after the lock is
//! released), and no construction of a result object (callers build Python
//! objects from the plain Rust values a registry call returns). The reason is
//! Python: any allocation of a Python object may run the cyclic GC, whose
//! finalizers run arbitrary code, for example `Library._destroy()` of an
//! unreachable library, which needs this same lock; a kernel's `Drop` may run
//! a `__del__`. Under a non-reentrant mutex that is a permanent deadlock, and
//! while the GIL is held it also blocks every other thread. `K::clone` is the
//! one kernel operation allowed under the lock: kernels are `Arc`s, whose
//! clone is a counter increment.
//!
//! Should foreign code ever re-enter the registry from under its lock anyway
//! (a bug this rule exists to rule out), it does not wait for the lock its own
//! thread holds: `destroy_library`, what a finalizer calls, is deferred to the
//! end of the critical section that is running (see `Registry::locked`);
//! registrations fail with `Error::Registration`; queries answer as for an
//! empty registry.

use super::{OpDef, Operator, Overloads, Packet};
use crate::dispatch::table::{DispatchTable, Registration};
use crate::error::Error;
use std::cell::Cell;
use std::sync::Arc;

thread_local! {
    /// Address of the registry whose state this thread has locked (0: none).
    /// One cell suffices: nothing runs under a lock, so no thread holds two.
    static HELD: Cell<usize> = const { Cell::new(0) };
}

/// True while the current thread holds the lock of the registry at `addr`.
pub(super) fn held_by_this_thread(addr: usize) -> bool {
    // `try_with`: a registry call from a thread-local destructor must not panic.
    HELD.try_with(|h| h.get() == addr).unwrap_or(false)
}

/// Marks the current thread as holding a registry's lock until dropped.
pub(super) struct Held {
    previous: usize,
}

impl Held {
    pub(super) fn enter(addr: usize) -> Self {
        Held {
            previous: HELD.try_with(|h| h.replace(addr)).unwrap_or(0),
        }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let _ = HELD.try_with(|h| h.set(self.previous));
    }
}

/// The error of a registry call made from under the registry's own lock.
pub(super) fn reentered() -> Error {
    Error::Registration(
        "the operator registry was re-entered while it was being updated (from a kernel's \
         destructor or a finalizer); register from ordinary code instead"
            .into(),
    )
}

/// Everything a critical section removed, dropped once the lock is released.
/// See Note [No foreign code under a lock].
pub(super) struct Trash<K, C> {
    pub regs: Vec<Registration<K>>,
    pub kernels: Vec<K>,
    pub tables: Vec<Arc<DispatchTable<K>>>,
    pub defs: Vec<Arc<OpDef<C>>>,
    pub ops: Vec<Arc<Operator<K, C>>>,
    pub lists: Vec<Overloads<K, C>>,
    pub packets: Vec<Arc<Packet<K, C>>>,
    /// A definition or an overload list was replaced. See Note [Definitions epoch].
    pub definitions_changed: bool,
}

impl<K, C> Trash<K, C> {
    /// Empty; allocates nothing until something is thrown away.
    pub(super) const fn new() -> Self {
        Trash {
            regs: Vec::new(),
            kernels: Vec::new(),
            tables: Vec::new(),
            defs: Vec::new(),
            ops: Vec::new(),
            lists: Vec::new(),
            packets: Vec::new(),
            definitions_changed: false,
        }
    }
}

/// Move every registration of `lib` from `stack` to `out`; true if any moved.
pub(super) fn take_lib<K>(
    stack: &mut Vec<Registration<K>>,
    lib: u64,
    out: &mut Vec<Registration<K>>,
) -> bool {
    // Most stacks are empty or hold other libraries' kernels: check before
    // setting up the extraction.
    if !stack.iter().any(|r| r.lib == lib) {
        return false;
    }
    out.extend(stack.extract_if(.., |r| r.lib == lib));
    true
}
