//! Operators by `ns::name.overload`: schema, kernels (cold), table (hot),
//! libraries, fallbacks and dangling impls.
//!
//! Note [Cold and hot state]: everything registration touches lives behind one
//! mutex (`State`). Each operator's `DispatchTable` is published through a
//! `TableCell` (see Note [Table publication]); a call loads it with one atomic
//! read, without locking, and sees either the old or the new table, never a
//! torn one. A registration recomputes only the slots it can affect
//! (`table::affected_slots`); a fallback change recomputes that slot of every
//! operator.

use crate::dispatch::table::{affected_slots, DispatchTable, KernelSource, Registration};
use crate::dispatch::{DispatchKey, DispatchKeySet, NUM_SLOTS};
use crate::error::{Error, Result};
use crate::schema::FunctionSchema;
use arc_swap::{ArcSwap, ArcSwapOption};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::Arc;

mod library;
mod names;

pub use library::{LibraryInfo, LibraryKind};
pub use names::{split_qualified, OpName};

const NUM_KEYS: usize = DispatchKey::CompositeExplicitAutogradNonFunctional as usize + 1;

/// An operator's definition: its schema plus data compiled from it once.
pub struct OpDef<C> {
    pub schema: Arc<FunctionSchema>,
    pub compiled: C,
    pub lib: u64,
    pub provenance: Arc<str>,
}

/// Note [Table publication]: the call path reads an operator's table with a
/// single acquire load of a pointer. A registration publishes a new table
/// with a swap and retires the old one instead of freeing it, so a reader that
/// loaded the old pointer (possibly holding it across a kernel call that
/// registers) never sees freed memory. Retired tables are freed with their
/// operator, which every reader keeps alive through an `Arc`. The price is
/// about one table (~1.5 KB) per registration that touched the operator,
/// bounded by the number of registrations; `arc-swap` would cost ~5 ns more
/// per call.
struct TableCell<K> {
    current: AtomicPtr<DispatchTable<K>>,
    retired: Mutex<Vec<Box<DispatchTable<K>>>>,
    // Shared across threads like an `Arc<DispatchTable<K>>`: Send + Sync only
    // when `K` is (`AtomicPtr` alone would claim both for any `K`).
    _shared: std::marker::PhantomData<Arc<DispatchTable<K>>>,
}

impl<K> TableCell<K> {
    fn new(table: DispatchTable<K>) -> Self {
        TableCell {
            current: AtomicPtr::new(Box::into_raw(Box::new(table))),
            retired: Mutex::new(Vec::new()),
            _shared: std::marker::PhantomData,
        }
    }

    #[inline]
    fn load(&self) -> &DispatchTable<K> {
        // SAFETY: `current` always points at a live table: tables are only
        // retired (never freed) while the cell lives. See Note [Table publication].
        unsafe { &*self.current.load(Ordering::Acquire) }
    }

    fn store(&self, table: DispatchTable<K>) {
        let old = self
            .current
            .swap(Box::into_raw(Box::new(table)), Ordering::AcqRel);
        // SAFETY: `old` came from `Box::into_raw` and is now unreachable for new readers.
        self.retired.lock().push(unsafe { Box::from_raw(old) });
    }
}

impl<K> Drop for TableCell<K> {
    fn drop(&mut self) {
        // SAFETY: no reader outlives the cell; `current` came from `Box::into_raw`.
        drop(unsafe { Box::from_raw(*self.current.get_mut()) });
    }
}

/// The handle the call path holds: definition and table, both lock-free to read.
pub struct Operator<K, C> {
    /// `ns::name.overload` (or `ns::name` for the default overload).
    pub name: String,
    def: ArcSwapOption<OpDef<C>>,
    table: TableCell<K>,
}

impl<K, C> Operator<K, C> {
    /// The current definition (None once its library is destroyed).
    #[inline]
    pub fn def(&self) -> arc_swap::Guard<Option<Arc<OpDef<C>>>> {
        self.def.load()
    }

    /// The current table. See Note [Table publication].
    #[inline]
    pub fn table(&self) -> &DispatchTable<K> {
        self.table.load()
    }
}

/// A lock-free snapshot of a packet's overloads.
pub type OverloadList<K, C> = arc_swap::Guard<Arc<Vec<Arc<Operator<K, C>>>>>;

/// What `dump` returns: the definition's provenance and every registration.
pub type Dump<K> = (Option<Arc<str>>, Vec<DumpRow<K>>);

/// The overloads of `ns::name`, in definition order.
pub struct Packet<K, C> {
    pub name: String,
    overloads: ArcSwap<Vec<Arc<Operator<K, C>>>>,
}

impl<K, C> Packet<K, C> {
    #[inline]
    pub fn overloads(&self) -> OverloadList<K, C> {
        self.overloads.load()
    }
}

/// Cold per-operator state: stacks of registrations per key (newest last).
struct OpState<K, C> {
    handle: Arc<Operator<K, C>>,
    kernels: Vec<Vec<Registration<K>>>,
}

struct State<K, C> {
    ops: HashMap<String, OpState<K, C>>,
    packets: HashMap<String, Arc<Packet<K, C>>>,
    fallbacks: Vec<Vec<Registration<K>>>,
    libs: HashMap<u64, LibraryInfo>,
    def_namespaces: HashMap<String, u64>,
    next_id: u64,
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

/// The registry. See Note [Cold and hot state].
pub struct Registry<K, C> {
    state: Mutex<State<K, C>>,
}

struct View<'a, K> {
    kernels: &'a [Vec<Registration<K>>],
    fallbacks: &'a [Vec<Registration<K>>],
}

impl<K> KernelSource<K> for View<'_, K> {
    fn kernel(&self, key: DispatchKey) -> Option<&Registration<K>> {
        self.kernels.get(key as usize).and_then(|s| s.last())
    }
    fn fallback(&self, key: DispatchKey) -> Option<&Registration<K>> {
        self.fallbacks.get(key as usize).and_then(|s| s.last())
    }
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
            state: Mutex::new(State {
                ops: HashMap::new(),
                packets: HashMap::new(),
                fallbacks: vec![Vec::new(); NUM_SLOTS],
                libs: HashMap::new(),
                def_namespaces: HashMap::new(),
                next_id: 1,
            }),
        }
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
        let mut st = self.state.lock();
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
    }

    /// Define an operator in library `lib`; `compile` derives per-definition data.
    pub fn define(
        &self,
        lib: u64,
        mut schema: FunctionSchema,
        provenance: &str,
        compile: impl FnOnce(&Arc<FunctionSchema>) -> C,
    ) -> Result<Arc<Operator<K, C>>> {
        let mut st = self.state.lock();
        let info = st.lib(lib)?.clone();
        library::check_can_define(&info, &mut schema)?;
        let qualified = schema.qualified_name();
        if let Some(prev) = st
            .ops
            .get(&qualified)
            .and_then(|o| o.handle.def.load_full())
        {
            return Err(library::duplicate_def(
                &qualified,
                &prev.provenance,
                provenance,
            ));
        }
        let schema = Arc::new(schema);
        let def = Arc::new(OpDef {
            compiled: compile(&schema),
            schema,
            lib,
            provenance: Arc::from(provenance),
        });
        let op = st.op_entry(&qualified);
        op.handle.def.store(Some(def));
        let handle = op.handle.clone();
        st.add_to_packet(&handle);
        Ok(handle)
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
        let mut st = self.state.lock();
        let info = st.lib(lib)?.clone();
        let name = OpName::parse(op_name, &info.ns)?;
        let key = library::impl_key(&info, &name, key)?;
        let qualified = name.qualified();
        let id = st.fresh_id();
        let op = st.op_entry(&qualified);
        let stack = &mut op.kernels[key as usize];
        let shadowed = stack.last().map(|r| r.provenance.clone());
        if let (Some(prev), false) = (&shadowed, allow_override) {
            return Err(library::override_refused(&qualified, key, prev));
        }
        stack.push(Registration {
            id,
            lib,
            kernel,
            key,
            provenance: Arc::from(provenance),
            fallthrough,
        });
        st.refresh(&qualified, affected_slots(key), key.is_alias());
        Ok(ImplOutcome { shadowed })
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
        let mut st = self.state.lock();
        let info = st.lib(lib)?.clone();
        let key = library::fallback_key(&info, key)?;
        let id = st.fresh_id();
        let mut shadowed = None;
        let keys = DispatchKeySet::from_key(key);
        for k in keys.iter() {
            let stack = &mut st.fallbacks[k as usize];
            shadowed = shadowed.or_else(|| stack.last().map(|r| r.provenance.clone()));
            stack.push(Registration {
                id,
                lib,
                kernel: kernel.clone(),
                key: k,
                provenance: Arc::from(provenance),
                fallthrough,
            });
        }
        st.refresh_all(keys);
        Ok(ImplOutcome { shadowed })
    }

    /// Remove everything `lib` registered, restoring what it shadowed.
    pub fn destroy_library(&self, lib: u64) {
        let mut st = self.state.lock();
        let Some(info) = st.libs.remove(&lib) else {
            return;
        };
        if st.def_namespaces.get(&info.ns) == Some(&lib) {
            st.def_namespaces.remove(&info.ns);
        }
        let mut fallback_keys = DispatchKeySet::EMPTY;
        for (i, stack) in st.fallbacks.iter_mut().enumerate() {
            let before = stack.len();
            stack.retain(|r| r.lib != lib);
            if stack.len() != before {
                fallback_keys =
                    fallback_keys.add(DispatchKey::from_index(i).unwrap_or(DispatchKey::Undefined));
            }
        }
        let mut touched = Vec::new();
        for (name, op) in st.ops.iter_mut() {
            let mut changed = false;
            for stack in op.kernels.iter_mut() {
                let before = stack.len();
                stack.retain(|r| r.lib != lib);
                changed |= stack.len() != before;
            }
            if op.handle.def.load().as_ref().is_some_and(|d| d.lib == lib) {
                op.handle.def.store(None);
                changed = true;
            }
            if changed {
                touched.push(name.clone());
            }
        }
        for name in &touched {
            st.remove_from_packet(name);
            st.refresh(name, DispatchKeySet::FULL, true);
        }
        st.ops.retain(|_, op| {
            op.handle.def.load().is_some() || op.kernels.iter().any(|s| !s.is_empty())
        });
        st.refresh_all(fallback_keys);
    }

    /// A defined operator by `ns::name` or `ns::name.overload`.
    pub fn find_op(&self, qualified: &str) -> Option<Arc<Operator<K, C>>> {
        let key = qualified.strip_suffix(".default").unwrap_or(qualified);
        let st = self.state.lock();
        let op = st.ops.get(key)?;
        op.handle.def.load().as_ref()?;
        Some(op.handle.clone())
    }

    /// The packet `ns::name`, created empty if needed (it fills as overloads are defined).
    pub fn packet(&self, ns_name: &str) -> Arc<Packet<K, C>> {
        self.state.lock().packet(ns_name)
    }

    /// Operators with kernels but no definition (impl before define).
    pub fn dangling_impls(&self) -> Vec<String> {
        let st = self.state.lock();
        let mut v: Vec<String> = st
            .ops
            .iter()
            .filter(|(_, o)| o.handle.def.load().is_none())
            .map(|(n, _)| n.clone())
            .collect();
        v.sort();
        v
    }

    /// Every registration of an operator, by key, newest first per key.
    pub fn dump(&self, qualified: &str) -> Option<Dump<K>> {
        let st = self.state.lock();
        let op = st
            .ops
            .get(qualified.strip_suffix(".default").unwrap_or(qualified))?;
        let def = op.handle.def.load().as_ref().map(|d| d.provenance.clone());
        let mut rows = Vec::new();
        for (i, stack) in op.kernels.iter().enumerate() {
            let key = DispatchKey::from_index(i).unwrap_or(DispatchKey::Undefined);
            for (j, reg) in stack.iter().enumerate().rev() {
                let active = j + 1 == stack.len();
                rows.push(DumpRow {
                    key,
                    reg: reg.clone(),
                    active,
                });
            }
        }
        Some((def, rows))
    }

    /// The newest fallback per runtime key.
    pub fn fallbacks(&self) -> Vec<Registration<K>> {
        let st = self.state.lock();
        st.fallbacks
            .iter()
            .filter_map(|s| s.last().cloned())
            .collect()
    }

    /// The library's record.
    pub fn library(&self, lib: u64) -> Option<LibraryInfo> {
        self.state.lock().libs.get(&lib).cloned()
    }

    /// Number of live libraries.
    pub fn num_libraries(&self) -> usize {
        self.state.lock().libs.len()
    }

    /// Check that every cached table equals a fresh computation and that
    /// packets list exactly the defined overloads. For tests.
    pub fn check_invariants(&self) -> std::result::Result<(), String> {
        let st = self.state.lock();
        for (name, op) in &st.ops {
            let fresh = DispatchTable::compute(&View {
                kernels: &op.kernels,
                fallbacks: &st.fallbacks,
            });
            let cached = op.handle.table();
            if !tables_equal(&fresh, cached) {
                return Err(format!("stale dispatch table for {name}"));
            }
            let (base, _) = names::split_overload(name);
            let defined = op.handle.def.load().is_some();
            let listed = st.packets.get(base).is_some_and(|p| {
                p.overloads
                    .load()
                    .iter()
                    .any(|o| Arc::ptr_eq(o, &op.handle))
            });
            if defined != listed {
                return Err(format!(
                    "packet of {name} is out of sync (defined: {defined})"
                ));
            }
        }
        for (ns, id) in &st.def_namespaces {
            if !st.libs.contains_key(id) {
                return Err(format!("namespace {ns} points at a destroyed DEF library"));
            }
        }
        Ok(())
    }
}

fn tables_equal<K>(a: &DispatchTable<K>, b: &DispatchTable<K>) -> bool {
    use crate::dispatch::table::Slot;
    a.nonfallthrough == b.nonfallthrough
        && a.slots
            .iter()
            .zip(b.slots.iter())
            .all(|(x, y)| match (x, y) {
                (Slot::Missing, Slot::Missing) | (Slot::Ambiguous, Slot::Ambiguous) => true,
                (Slot::Kernel { reg: r1, kind: k1 }, Slot::Kernel { reg: r2, kind: k2 }) => {
                    r1.id == r2.id && k1 == k2
                }
                _ => false,
            })
}

impl<K: Clone, C> State<K, C> {
    fn fresh_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    fn lib(&self, id: u64) -> Result<&LibraryInfo> {
        self.libs
            .get(&id)
            .ok_or_else(|| Error::Registration("this Library has already been destroyed".into()))
    }

    fn op_entry(&mut self, qualified: &str) -> &mut OpState<K, C> {
        let fallbacks = &self.fallbacks;
        self.ops.entry(qualified.to_string()).or_insert_with(|| {
            let kernels = vec![Vec::new(); NUM_KEYS];
            let table = DispatchTable::compute(&View {
                kernels: &kernels,
                fallbacks,
            });
            OpState {
                handle: Arc::new(Operator {
                    name: qualified.to_string(),
                    def: ArcSwapOption::empty(),
                    table: TableCell::new(table),
                }),
                kernels,
            }
        })
    }

    fn packet(&mut self, ns_name: &str) -> Arc<Packet<K, C>> {
        self.packets
            .entry(ns_name.to_string())
            .or_insert_with(|| {
                Arc::new(Packet {
                    name: ns_name.to_string(),
                    overloads: ArcSwap::from_pointee(Vec::new()),
                })
            })
            .clone()
    }

    fn add_to_packet(&mut self, op: &Arc<Operator<K, C>>) {
        let packet = self.packet(names::split_overload(&op.name).0);
        let mut v: Vec<_> = packet.overloads.load().iter().cloned().collect();
        v.retain(|o| !Arc::ptr_eq(o, op));
        v.push(op.clone());
        packet.overloads.store(Arc::new(v));
    }

    fn remove_from_packet(&mut self, qualified: &str) {
        let Some(packet) = self.packets.get(names::split_overload(qualified).0) else {
            return;
        };
        let v: Vec<_> = packet
            .overloads
            .load()
            .iter()
            .filter(|o| o.name != qualified || o.def.load().is_some())
            .cloned()
            .collect();
        packet.overloads.store(Arc::new(v));
    }

    /// Recompute some slots of one operator and publish the new table.
    fn refresh(&mut self, qualified: &str, keys: DispatchKeySet, undefined: bool) {
        let Some(op) = self.ops.get(qualified) else {
            return;
        };
        let view = View {
            kernels: &op.kernels,
            fallbacks: &self.fallbacks,
        };
        let mut table = DispatchTable::clone(op.handle.table());
        table.recompute(&view, keys, undefined);
        op.handle.table.store(table);
    }

    /// Recompute some slots of every operator (a fallback changed).
    fn refresh_all(&mut self, keys: DispatchKeySet) {
        if keys.is_empty() {
            return;
        }
        let names: Vec<String> = self.ops.keys().cloned().collect();
        for n in names {
            self.refresh(&n, keys, false);
        }
    }
}

#[cfg(test)]
mod tests;
