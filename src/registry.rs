//! Operators by `ns::name.overload`: schema, kernels (cold), table (hot),
//! libraries, fallbacks and dangling impls.
//!
//! Note [Cold and hot state]: everything registration touches lives behind one
//! mutex (`State`, see `state.rs`), held only for pure-Rust edits (see Note [No
//! foreign code under a lock] in `lock.rs`). Each operator's `DispatchTable` is
//! published separately (see Note [Table publication]): a call reads it
//! without locking and sees either the old or the new table, never a torn
//! one. A registration recomputes only the slots it can affect
//! (`table::affected_slots`); a fallback change recomputes that slot of every
//! operator. Destroying a library visits only the operators it touched (the
//! state keeps them per library), so neither a call nor an `impl` + destroy
//! costs more with more operators registered.

use crate::dispatch::table::{affected_slots, DispatchTable, Registration};
use crate::dispatch::{DispatchKey, DispatchKeySet};
use crate::error::Result;
use crate::schema::FunctionSchema;
use arc_swap::{ArcSwap, ArcSwapOption};
use parking_lot::Mutex;
use std::sync::Arc;

mod bulk;
mod library;
mod lock;
mod names;
mod resolve;
mod state;

pub use bulk::BulkKernel;
pub use library::{LibraryInfo, LibraryKind};
pub use names::{split_qualified, OpName};
pub use resolve::{Choice, ResolveCache};
use state::State;

const NUM_KEYS: usize = crate::dispatch::key::NUM_KEYS;

/// An operator's definition: its schema plus data compiled from it once.
pub struct OpDef<C> {
    pub schema: Arc<FunctionSchema>,
    pub compiled: C,
    pub lib: u64,
    pub provenance: Arc<str>,
}

/// Note [Table publication]: an operator's table lives in an `ArcSwap`. A
/// reader loads it into a `TableGuard` (arc-swap's thread-local debt slot: a
/// load and a swap on a thread-local word, no shared counter, no lock) and
/// may use it as long as it holds the guard. A registration swaps in a new
/// table; the old one is freed as soon as the last guard on it is dropped
/// (arc-swap turns the debts of readers in flight into counts when it swaps).
/// So retired tables are bounded by the calls in flight, not by the
/// registration history, and a destroyed library's kernels are released with
/// them. The Python call path holds the guard only to pick its kernel (it
/// takes a reference to the kernel's callable, under the GIL, and copies its
/// flags): a thread has 8 debt slots, and kernels calling ops many levels
/// deep would otherwise use them up and fall back to a slower load.
/// A replaced table is dropped after the registry lock is released (Note [No
/// foreign code under a lock]), or by the last reader, which holds no lock.
pub type TableGuard<K> = arc_swap::Guard<Arc<DispatchTable<K>>>;

/// The handle the call path holds: definition and table, both lock-free to read.
pub struct Operator<K, C> {
    /// `ns::name.overload` (or `ns::name` for the default overload).
    pub name: String,
    def: ArcSwapOption<OpDef<C>>,
    table: ArcSwap<DispatchTable<K>>,
}

impl<K, C> Operator<K, C> {
    /// The current definition (None once its library is destroyed).
    #[inline]
    pub fn def(&self) -> arc_swap::Guard<Option<Arc<OpDef<C>>>> {
        self.def.load()
    }

    /// The current definition as an owned handle (a reference count taken).
    /// See Note [Definitions epoch].
    pub fn def_full(&self) -> Option<Arc<OpDef<C>>> {
        self.def.load_full()
    }

    /// The current table; hold the guard while using a kernel borrowed from it.
    /// See Note [Table publication].
    #[inline]
    pub fn table(&self) -> TableGuard<K> {
        self.table.load()
    }
}

/// A packet's overloads in definition order, as one published list.
pub struct OverloadSet<K, C> {
    /// Unique for the process: a list published later has a larger one. It
    /// tags what was derived from this list. See Note [Overload cache].
    pub generation: u64,
    ops: Vec<Arc<Operator<K, C>>>,
}

impl<K, C> OverloadSet<K, C> {
    fn new(ops: Vec<Arc<Operator<K, C>>>) -> Self {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        OverloadSet {
            generation: NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            ops,
        }
    }
}

impl<K, C> std::ops::Deref for OverloadSet<K, C> {
    type Target = Vec<Arc<Operator<K, C>>>;
    fn deref(&self) -> &Self::Target {
        &self.ops
    }
}

/// A packet's overloads, as published.
pub type Overloads<K, C> = Arc<OverloadSet<K, C>>;

/// A lock-free snapshot of a packet's overloads.
pub type OverloadList<K, C> = arc_swap::Guard<Overloads<K, C>>;

/// What `dump` returns: the definition's provenance and every registration.
pub type Dump<K> = (Option<Arc<str>>, Vec<DumpRow<K>>);

/// The overloads of `ns::name`, in definition order.
pub struct Packet<K, C> {
    pub name: String,
    overloads: ArcSwap<OverloadSet<K, C>>,
    /// The overload each argument signature resolved to. See Note [Overload cache].
    pub resolved: ResolveCache,
}

impl<K, C> Packet<K, C> {
    #[inline]
    pub fn overloads(&self) -> OverloadList<K, C> {
        self.overloads.load()
    }

    /// The overloads as an owned handle (a reference count taken). See Note [Definitions epoch].
    pub fn overloads_full(&self) -> Overloads<K, C> {
        self.overloads.load_full()
    }
}

/// What an `impl` replaced, so the caller can warn once.
#[derive(Debug, Default)]
pub struct ImplOutcome {
    /// Provenance of the kernel now shadowed at the same key, if any.
    pub shadowed: Option<Arc<str>>,
}

/// One registration as `dump` reports it.
#[derive(Clone, Debug)]
pub struct DumpRow<K> {
    pub key: DispatchKey,
    pub reg: Registration<K>,
    /// False for kernels shadowed by a newer one at the same key.
    pub active: bool,
}

// Note [Definitions epoch]: a number that changes whenever any operator's
// definition or any packet's overload list is replaced (a `define`, a library
// destroyed), published after the replacement. A reader that keeps a
// definition or list (with the epoch it read *before* loading them) may use
// it as long as the epoch still reads the same: one plain atomic load per
// call instead of an `arc_swap` load and its thread-local debt slot. Tables
// are not covered: a kernel registration does not change the epoch, and a
// kept table would keep a destroyed library's kernels alive.

/// The registry. See Note [Cold and hot state].
pub struct Registry<K, C> {
    state: Mutex<State<K, C>>,
    /// See Note [Definitions epoch].
    epoch: std::sync::atomic::AtomicU64,
    /// Libraries whose destruction was requested from under the lock, by the
    /// thread holding it; destroyed before that thread releases it. See Note
    /// [No foreign code under a lock]. A leaf lock: held only to push or take.
    deferred: Mutex<Vec<u64>>,
}

impl<K: Clone, C> Default for Registry<K, C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: Clone, C> Registry<K, C> {
    /// An empty registry.
    pub fn new() -> Self {
        Registry {
            state: Mutex::new(State::new()),
            epoch: std::sync::atomic::AtomicU64::new(0),
            deferred: Mutex::new(Vec::new()),
        }
    }

    /// See Note [Definitions epoch].
    #[inline]
    pub fn definitions_epoch(&self) -> u64 {
        self.epoch.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Run `f` with the state locked, then drop what it threw away, unlocked.
    /// Fails instead of deadlocking when this thread already holds the lock.
    /// See Note [No foreign code under a lock].
    fn locked<R>(
        &self,
        f: impl FnOnce(&mut State<K, C>, &mut lock::Trash<K, C>) -> R,
    ) -> Result<R> {
        let me = self as *const Self as usize;
        if lock::held_by_this_thread(me) {
            return Err(lock::reentered());
        }
        let mut trash = lock::Trash::new();
        let out = {
            let _held = lock::Held::enter(me);
            let mut st = self.state.lock();
            let out = f(&mut st, &mut trash);
            loop {
                let pending = std::mem::take(&mut *self.deferred.lock());
                if pending.is_empty() {
                    break;
                }
                for lib in pending {
                    st.destroy(lib, &mut trash);
                }
            }
            if trash.definitions_changed {
                // After the replacements, before the lock is released. See Note [Definitions epoch].
                self.epoch
                    .fetch_add(1, std::sync::atomic::Ordering::Release);
            }
            out
        };
        drop(trash);
        Ok(out)
    }

    /// Open a library. DEF may exist once per namespace.
    pub fn new_library(
        &self,
        ns: &str,
        kind: LibraryKind,
        dispatch_key: Option<DispatchKey>,
        provenance: &str,
    ) -> Result<u64> {
        names::check_namespace(ns)?;
        self.locked(|st, _| {
            if kind == LibraryKind::Def {
                if let Some(prev) = st.def_namespaces.get(ns).and_then(|id| st.libs.get(id)) {
                    return Err(library::duplicate_def_library(
                        ns,
                        &prev.provenance,
                        provenance,
                    ));
                }
            }
            let id = st.fresh_id();
            if kind == LibraryKind::Def {
                st.def_namespaces.insert(ns.to_string(), id);
            }
            let info = LibraryInfo::new(ns, kind, dispatch_key, provenance);
            st.libs.insert(id, info);
            Ok(id)
        })?
    }

    /// Define an operator in library `lib`; `compile` derives per-definition
    /// data. `compile` may run foreign code, so it runs unlocked, between a
    /// check and a re-check under the lock. See Note [No foreign code under a lock].
    pub fn define(
        &self,
        lib: u64,
        mut schema: FunctionSchema,
        provenance: &str,
        compile: impl FnOnce(&Arc<FunctionSchema>) -> C,
    ) -> Result<Arc<Operator<K, C>>> {
        let info = self.locked(|st, _| st.lib(lib).cloned())??;
        library::check_can_define(&info, &mut schema)?;
        let qualified = schema.qualified_name();
        self.locked(|st, _| st.check_undefined(&qualified, provenance))??;
        let schema = Arc::new(schema);
        let mut def = Some(Arc::new(OpDef {
            compiled: compile(&schema),
            schema,
            lib,
            provenance: Arc::from(provenance),
        }));
        // On failure `def` is still ours and is dropped unlocked on return.
        self.locked(|st, trash| {
            st.lib(lib)?;
            st.check_undefined(&qualified, provenance)?;
            let op = st.op_entry(&qualified, lib);
            trash.defs.extend(op.handle.def.swap(def.take()));
            trash.definitions_changed = true;
            let handle = op.handle.clone();
            st.add_to_packet(&handle, trash);
            Ok(handle)
        })?
    }

    /// Register a kernel for `op_name` at `key` (None: the library's key, else CIA).
    #[allow(clippy::too_many_arguments)]
    pub fn impl_kernel(
        &self,
        lib: u64,
        op_name: &str,
        key: Option<DispatchKey>,
        kernel: K,
        fallthrough: bool,
        allow_override: bool,
        provenance: &str,
    ) -> Result<ImplOutcome> {
        // Taken only on success: a refused kernel is dropped unlocked on return.
        let mut kernel = Some(kernel);
        self.locked(|st, trash| {
            let info = st.lib(lib)?;
            let name = OpName::parse(op_name, &info.ns)?;
            let key = library::impl_key(info, &name, key)?;
            let qualified = name.qualified();
            let id = st.fresh_id();
            let op = st.op_entry(&qualified, lib);
            // In bounds: `kernels` has a stack for every key. See `OpState`.
            let stack = &mut op.kernels[key as usize];
            let shadowed = stack.last().map(|r| r.provenance.clone());
            if let (Some(prev), false) = (&shadowed, allow_override) {
                return Err(library::override_refused(&qualified, key, prev));
            }
            stack.extend(kernel.take().map(|kernel| Registration {
                id,
                lib,
                kernel,
                key,
                provenance: Arc::from(provenance),
                fallthrough,
            }));
            st.refresh(&qualified, affected_slots(key), key.is_alias(), trash);
            Ok(ImplOutcome { shadowed })
        })?
    }

    /// Register a boxed fallback for `key` (an alias registers each key it covers).
    pub fn fallback(
        &self,
        lib: u64,
        key: Option<DispatchKey>,
        kernel: K,
        fallthrough: bool,
        provenance: &str,
    ) -> Result<ImplOutcome> {
        let mut kernel = Some(kernel);
        self.locked(|st, trash| {
            let key = library::fallback_key(st.lib(lib)?, key)?;
            let id = st.fresh_id();
            let mut shadowed = None;
            let keys = DispatchKeySet::from_key(key);
            let provenance: Arc<str> = Arc::from(provenance);
            for k in keys.iter() {
                // In bounds: a key set holds runtime keys only, one stack each.
                let stack = &mut st.fallbacks[k as usize];
                shadowed = shadowed.or_else(|| stack.last().map(|r| r.provenance.clone()));
                stack.extend(kernel.as_ref().map(|kernel| Registration {
                    id,
                    lib,
                    kernel: kernel.clone(),
                    key: k,
                    provenance: provenance.clone(),
                    fallthrough,
                }));
            }
            trash.kernels.extend(kernel.take());
            st.refresh_all(keys, trash);
            Ok(ImplOutcome { shadowed })
        })?
    }

    /// Remove everything `lib` registered, restoring what it shadowed. Called
    /// from under the registry's own lock (by a finalizer that foreign code
    /// ran there), it is deferred to the end of that critical section instead
    /// of deadlocking. See Note [No foreign code under a lock].
    pub fn destroy_library(&self, lib: u64) {
        if self.locked(|st, trash| st.destroy(lib, trash)).is_err() {
            self.deferred.lock().push(lib);
        }
    }

    /// A defined operator by `ns::name` or `ns::name.overload`.
    pub fn find_op(&self, qualified: &str) -> Option<Arc<Operator<K, C>>> {
        let key = qualified.strip_suffix(".default").unwrap_or(qualified);
        self.locked(|st, _| {
            let op = st.ops.get(key)?;
            op.handle.def.load().as_ref()?;
            Some(op.handle.clone())
        })
        .ok()
        .flatten()
    }

    /// Publish the overloads of `packet` (`ns::name`) staged by `define_many`.
    /// See Note [Definitions published with their kernels] (registry/bulk.rs).
    pub fn publish_staged(&self, packet: &str) -> Result<()> {
        self.locked(|st, trash| st.publish_staged(packet, trash))
    }

    /// The packet `ns::name`, created empty if needed (it fills as overloads are defined).
    pub fn packet(&self, ns_name: &str) -> Result<Arc<Packet<K, C>>> {
        self.locked(|st, _| st.packet(ns_name))
    }

    /// Operators with kernels but no definition (impl before define).
    pub fn dangling_impls(&self) -> Vec<String> {
        let mut v = self
            .locked(|st, _| {
                st.ops
                    .iter()
                    .filter(|(_, o)| o.handle.def.load().is_none())
                    .map(|(n, _)| n.clone())
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        v.sort();
        v
    }

    /// Every registration of an operator, by key, newest first per key.
    pub fn dump(&self, qualified: &str) -> Option<Dump<K>> {
        let name = qualified.strip_suffix(".default").unwrap_or(qualified);
        self.locked(|st, _| {
            let op = st.ops.get(name)?;
            let def = op.handle.def.load().as_ref().map(|d| d.provenance.clone());
            let mut rows = Vec::new();
            for (i, stack) in op.kernels.iter().enumerate() {
                let Some(key) = DispatchKey::from_index(i) else {
                    continue;
                };
                for (j, reg) in stack.iter().enumerate().rev() {
                    rows.push(DumpRow {
                        key,
                        reg: reg.clone(),
                        active: j + 1 == stack.len(),
                    });
                }
            }
            Some((def, rows))
        })
        .ok()
        .flatten()
    }

    /// The newest fallback per runtime key.
    pub fn fallbacks(&self) -> Vec<Registration<K>> {
        self.locked(|st, _| {
            st.fallbacks
                .iter()
                .filter_map(|s| s.last().cloned())
                .collect()
        })
        .unwrap_or_default()
    }

    /// The library's record.
    pub fn library(&self, lib: u64) -> Option<LibraryInfo> {
        self.locked(|st, _| st.libs.get(&lib).cloned())
            .ok()
            .flatten()
    }

    /// Number of live libraries.
    pub fn num_libraries(&self) -> usize {
        self.locked(|st, _| st.libs.len()).unwrap_or(0)
    }

    /// Check that every cached table equals a fresh computation, that packets
    /// list exactly the defined overloads and that every operator entry is
    /// defined or implemented. For tests.
    pub fn check_invariants(&self) -> std::result::Result<(), String> {
        self.locked(|st, _| st.check()).map_err(|e| e.to_string())?
    }
}

#[cfg(test)]
mod tests;
