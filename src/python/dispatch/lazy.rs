//! Operators defined on first use.
//!
//! Note [Operators defined on first use]: the built-in `aten` library holds
//! ~1,100 overloads in ~500 packets, and a process calls a few dozen of them.
//! Defining them all at import (parsing, a dispatch table each, ~2,500 kernel
//! registrations, then every backend fallback registered later recomputing a
//! slot of every table) was most of `import opyard`. So the library hands the
//! core the names of its packets and a definer instead; the first time
//! anything resolves a name of such a packet — an overload or packet lookup,
//! `overloads()`, a call of the still-empty packet, `impl`/`define` of an
//! overload, `dump` — the entry point calls the definer (in Python, with no
//! lock of ours held: Note [No foreign code under a lock]), which defines the
//! packet's overloads and registers their kernels before the lookup goes on.
//! So a user's `impl` of a built-in overload lands on top of the built-in
//! kernels, as it would had they been registered at import.
//!
//! The map below is only a filter that keeps a definer from running for
//! names it does not own; the definer is the authority (it takes its own
//! lock, so two threads first-touching one packet define it once, and a
//! definer re-entered through its own registrations returns at once). A name
//! leaves the set when the definer reports it defined; only then do its
//! overloads join the packet's list, so a caller on another thread finds them
//! with every kernel registered or not at all (and then waits for the
//! definer): Note [Definitions published with their kernels]
//! (src/registry/bulk.rs).
//! Packet objects may exist before their overloads: `_packet` does not define
//! (the functional forms and Tensor methods bind packets at import).

use parking_lot::RwLock;
use pyo3::prelude::*;
use pyo3::sync::GILProtected;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::LazyLock;

/// Packet names (`ns::name`) whose definitions wait for their first use, each
/// with the index of its definer in `DEFINERS`.
static PENDING: LazyLock<RwLock<HashMap<String, usize>>> = LazyLock::new(Default::default);
/// Whether `PENDING` may be non-empty: the common case skips the lock.
static ANY_PENDING: AtomicBool = AtomicBool::new(false);
/// The registered definers, `definer(packet_name)` (the GIL guards them: no
/// Rust lock is held while one is cloned or called).
static DEFINERS: GILProtected<RefCell<Vec<PyObject>>> = GILProtected::new(RefCell::new(Vec::new()));

/// `ns::name` of `ns::name[.overload]`.
fn packet_of(qualified: &str) -> &str {
    match qualified.find("::") {
        Some(at) => match qualified[at + 2..].find('.') {
            Some(dot) => &qualified[..at + 2 + dot],
            None => qualified,
        },
        None => qualified,
    }
}

/// Define the packet of `qualified` (`ns::name[.overload]`) now if its
/// definition is pending. Registration and introspection paths only, never a
/// call's hot path. See Note [Operators defined on first use].
pub fn ensure_defined(py: Python<'_>, qualified: &str) -> PyResult<()> {
    if !ANY_PENDING.load(Ordering::Acquire) {
        return Ok(());
    }
    let packet = packet_of(qualified);
    let Some(index) = PENDING.read().get(packet).copied() else {
        return Ok(());
    };
    // Unlocked from here: the definer runs Python code.
    let definer = DEFINERS.get(py).borrow()[index].clone_ref(py);
    definer.call1(py, (packet,))?;
    Ok(())
}

/// `ensure_defined` for a name as `impl` takes it: qualified, or relative to
/// the namespace of library `lib`.
pub fn ensure_defined_in(py: Python<'_>, lib: u64, name: &str) -> PyResult<()> {
    if !ANY_PENDING.load(Ordering::Acquire) {
        return Ok(());
    }
    if name.contains("::") {
        return ensure_defined(py, name);
    }
    match crate::python::dispatch::operator::REGISTRY.library(lib) {
        Some(info) => ensure_defined(py, &format!("{}::{name}", info.ns)),
        None => Ok(()),
    }
}

/// `is_pending` for a name as `define` takes it: qualified, or relative to the
/// namespace of library `lib`.
pub fn is_pending_in(lib: u64, name: &str) -> bool {
    if !ANY_PENDING.load(Ordering::Acquire) {
        return false;
    }
    if name.contains("::") {
        return is_pending(name);
    }
    match crate::python::dispatch::operator::REGISTRY.library(lib) {
        Some(info) => is_pending(&format!("{}::{name}", info.ns)),
        None => false,
    }
}

/// Whether the packet of `qualified` waits for its first use.
pub fn is_pending(qualified: &str) -> bool {
    ANY_PENDING.load(Ordering::Acquire) && PENDING.read().contains_key(packet_of(qualified))
}

/// Defer the definitions of the packets `names` (`ns::name`): the first use
/// of one calls `definer(name)`, which defines it and then reports it with
/// `_defined_lazily`. A registration, like `_define_many`: a library may
/// defer its own packets (the built-in `aten` library does).
#[pyfunction]
pub fn _defer_definitions(py: Python<'_>, names: Vec<String>, definer: PyObject) {
    let index = {
        let mut definers = DEFINERS.get(py).borrow_mut();
        match definers.iter().position(|d| d.is(&definer)) {
            Some(i) => i,
            None => {
                definers.push(definer);
                definers.len() - 1
            }
        }
    };
    let mut pending = PENDING.write();
    pending.extend(names.into_iter().map(|n| (n, index)));
    ANY_PENDING.store(!pending.is_empty(), Ordering::Release);
}

/// The definer reports `name` (`ns::name`) defined, its kernels registered:
/// its overloads join the packet's list (Note [Definitions published with
/// their kernels], src/registry/bulk.rs) and lookups stop calling the definer.
#[pyfunction]
pub fn _defined_lazily(name: &str) -> PyResult<()> {
    crate::python::dispatch::operator::REGISTRY
        .publish_staged(name)
        .map_err(crate::python::errors::core_err)?;
    let mut pending = PENDING.write();
    pending.remove(name);
    ANY_PENDING.store(!pending.is_empty(), Ordering::Release);
    Ok(())
}

/// Whether the packet of `name` (`ns::name[.overload]`) is still to be defined.
#[pyfunction]
pub fn _is_pending(name: &str) -> bool {
    is_pending(name)
}

/// Packets still to be defined, sorted.
#[pyfunction]
pub fn _pending_definitions() -> Vec<String> {
    let mut names: Vec<String> = PENDING.read().keys().cloned().collect();
    names.sort();
    names
}

#[cfg(test)]
mod tests {
    use super::packet_of;

    #[test]
    fn packet_of_strips_the_overload() {
        assert_eq!(packet_of("aten::add.Tensor"), "aten::add");
        assert_eq!(packet_of("aten::add"), "aten::add");
        assert_eq!(packet_of("add.Tensor"), "add.Tensor");
    }
}
