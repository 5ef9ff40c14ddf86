//! What the call path reads of a definition, kept by the called object.
//!
//! Note [Definitions kept by the called object]: a call of an `OpOverload`
//! reads its operator's definition (for the binder), a call of a packet its
//! overload list and the chosen overload's definition. Each is an `arc_swap`
//! load (a thread-local debt slot, a swap and a compare on it: about 90
//! instructions with the thread-local lookup a shared library pays). The
//! called object keeps what it read last, tagged with the registry's
//! definitions epoch read before loading it (Note [Definitions epoch] in
//! `registry.rs`); a call whose epoch read matches uses the kept value: one
//! plain load and a borrow of a cell the GIL guards. A call that finds the
//! cell borrowed for writing, or whose refresh finds it borrowed by a call
//! further up the stack, uses a value it loads for itself, as before.
//! Tables are not kept (they hold the kernels, which a destroyed library
//! must release at once); a kept definition or list holds only what the
//! registry would hold while the operator is defined.

use crate::python::dispatch::operator::{Compiled, PyPacket};
use crate::python::dispatch::operator::{PyOperator, REGISTRY};
use crate::registry::{OpDef, Overloads};
use pyo3::prelude::*;
use pyo3::sync::GILProtected;
use std::cell::{Ref, RefCell};
use std::sync::Arc;

/// A value kept with the epoch it was read at.
pub struct Kept<T>(GILProtected<RefCell<Option<(u64, T)>>>);

/// A kept value, or one loaded for this call alone.
pub enum Read<'a, T> {
    Kept(Ref<'a, T>),
    Own(T),
}

impl<T> std::ops::Deref for Read<'_, T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        match self {
            Read::Kept(r) => r,
            Read::Own(t) => t,
        }
    }
}

impl<T: Send> Default for Kept<T> {
    fn default() -> Self {
        Kept(GILProtected::new(RefCell::new(None)))
    }
}

impl<T: Send + Clone> Kept<T> {
    /// The kept value if the epoch still reads the same, else `load()` (kept
    /// for the next call when the cell is free).
    #[inline]
    pub fn read<'a>(&'a self, py: Python<'a>, load: impl FnOnce() -> T) -> Read<'a, T> {
        let cell = self.0.get(py);
        let epoch = REGISTRY.definitions_epoch();
        if let Ok(kept) = cell.try_borrow() {
            if let Ok(hit) = Ref::filter_map(kept, |k| {
                k.as_ref().filter(|(e, _)| *e == epoch).map(|(_, v)| v)
            }) {
                return Read::Kept(hit);
            }
        }
        self.refresh(cell, epoch, load())
    }

    #[cold]
    fn refresh<'a>(
        &'a self,
        cell: &'a RefCell<Option<(u64, T)>>,
        epoch: u64,
        fresh: T,
    ) -> Read<'a, T> {
        let old = match cell.try_borrow_mut() {
            Ok(mut w) => w.replace((epoch, fresh.clone())),
            Err(_) => None,
        };
        // Dropped with the cell released: a definition's binder holds Python objects.
        drop(old);
        Read::Own(fresh)
    }
}

/// An `OpOverload`'s definition (None: its library was destroyed).
pub type KeptDef = Kept<Option<Arc<OpDef<Compiled>>>>;

/// Read `op`'s definition through `kept`.
#[inline]
pub fn def_of<'a>(
    kept: &'a KeptDef,
    py: Python<'a>,
    op: &PyOperator,
) -> Read<'a, Option<Arc<OpDef<Compiled>>>> {
    kept.read(py, || op.def_full())
}

/// A packet's overload list and each overload's definition, read together.
#[derive(Clone)]
pub struct Overloaded {
    pub list: Overloads<crate::python::dispatch::operator::Kernel, Compiled>,
    /// One per entry of `list`, in order.
    pub defs: Vec<Option<Arc<OpDef<Compiled>>>>,
}

impl Overloaded {
    fn load(packet: &PyPacket) -> Self {
        let list = packet.overloads_full();
        let defs = list.iter().map(|op| op.def_full()).collect();
        Overloaded { list, defs }
    }
}

/// Read `packet`'s overloads through `kept`.
#[inline]
pub fn overloads_of<'a>(
    kept: &'a Kept<Overloaded>,
    py: Python<'a>,
    packet: &PyPacket,
) -> Read<'a, Overloaded> {
    kept.read(py, || Overloaded::load(packet))
}
