//! The registry's cold state and the edits made under its lock.
//!
//! Every method here runs with `State` locked: nothing it removes is dropped
//! here, it goes to the `Trash`. See Note [No foreign code under a lock].

use super::library::LibraryInfo;
use super::lock::{take_lib, Trash};
use super::{names, Operator, OverloadSet, Packet, NUM_KEYS};
use crate::dispatch::table::{affected_slots, DispatchTable, KernelSource, Registration};
use crate::dispatch::{DispatchKey, DispatchKeySet, NUM_SLOTS};
use crate::error::{Error, Result};
use arc_swap::{ArcSwap, ArcSwapOption};
use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

/// Cold per-operator state: stacks of registrations per key (newest last).
pub(super) struct OpState<K, C> {
    pub handle: Arc<Operator<K, C>>,
    /// Indexed by `DispatchKey as usize`; `NUM_KEYS` stacks cover every key,
    /// aliases included, so indexing with any `DispatchKey` is in bounds.
    pub kernels: Vec<Vec<Registration<K>>>,
}

pub(super) struct State<K, C> {
    pub ops: HashMap<String, OpState<K, C>>,
    pub packets: HashMap<String, Arc<Packet<K, C>>>,
    /// Indexed by runtime key (`NUM_SLOTS` stacks); fallbacks exist only there.
    pub fallbacks: Vec<Vec<Registration<K>>>,
    pub libs: HashMap<u64, LibraryInfo>,
    /// Per live library, the operators it defined or registered kernels on
    /// (may repeat a name): destroying it visits these, not every operator,
    /// so its cost does not grow with the number of operators.
    lib_ops: HashMap<u64, Vec<String>>,
    pub def_namespaces: HashMap<String, u64>,
    /// Per packet (`ns::name`), overloads defined but not yet in its list:
    /// see Note [Definitions published with their kernels] (registry/bulk.rs).
    pub staged: HashMap<String, Vec<Arc<Operator<K, C>>>>,
    next_id: u64,
}

pub(super) struct View<'a, K> {
    pub kernels: &'a [Vec<Registration<K>>],
    pub fallbacks: &'a [Vec<Registration<K>>],
}

impl<K> KernelSource<K> for View<'_, K> {
    fn kernel(&self, key: DispatchKey) -> Option<&Registration<K>> {
        self.kernels.get(key as usize).and_then(|s| s.last())
    }
    fn fallback(&self, key: DispatchKey) -> Option<&Registration<K>> {
        self.fallbacks.get(key as usize).and_then(|s| s.last())
    }
}

impl<K: Clone, C> State<K, C> {
    pub fn new() -> Self {
        State {
            ops: HashMap::default(),
            packets: HashMap::default(),
            fallbacks: vec![Vec::new(); NUM_SLOTS],
            libs: HashMap::default(),
            lib_ops: HashMap::default(),
            def_namespaces: HashMap::default(),
            staged: HashMap::default(),
            next_id: 1,
        }
    }

    pub fn fresh_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    pub fn lib(&self, id: u64) -> Result<&LibraryInfo> {
        self.libs
            .get(&id)
            .ok_or_else(|| Error::Registration("this Library has already been destroyed".into()))
    }

    /// Where the live definition of `qualified` was made, if it is defined.
    pub fn defined_at(&self, qualified: &str) -> Option<Arc<str>> {
        let op = self.ops.get(qualified)?;
        let def = op.handle.def.load();
        def.as_ref().map(|d| d.provenance.clone())
    }

    /// The entry of `qualified`, created (undefined, no kernels) if needed;
    /// `lib` is noted as touching it.
    pub fn op_entry(&mut self, qualified: &str, lib: u64) -> &mut OpState<K, C> {
        let touched = self.lib_ops.entry(lib).or_default();
        if touched.last().is_none_or(|n| n != qualified) {
            touched.push(qualified.to_string());
        }
        if !self.ops.contains_key(qualified) {
            let op = self.new_op(qualified);
            self.ops.insert(qualified.to_string(), op);
        }
        // Present: inserted just above when it was missing.
        self.ops
            .get_mut(qualified)
            .expect("operator entry inserted above")
    }

    fn new_op(&self, qualified: &str) -> OpState<K, C> {
        let kernels = vec![Vec::new(); NUM_KEYS];
        let table = DispatchTable::compute(&View {
            kernels: &kernels,
            fallbacks: &self.fallbacks,
        });
        OpState {
            handle: Arc::new(Operator {
                name: qualified.to_string(),
                def: ArcSwapOption::empty(),
                table: ArcSwap::from_pointee(table),
            }),
            kernels,
        }
    }

    pub fn packet(&mut self, ns_name: &str) -> Arc<Packet<K, C>> {
        self.packets
            .entry(ns_name.to_string())
            .or_insert_with(|| {
                Arc::new(Packet {
                    name: ns_name.to_string(),
                    overloads: ArcSwap::from_pointee(OverloadSet::new(Vec::new())),
                    resolved: Default::default(),
                })
            })
            .clone()
    }

    pub fn add_to_packet(&mut self, op: &Arc<Operator<K, C>>, trash: &mut Trash<K, C>) {
        let packet = self.packet(names::split_overload(&op.name).0);
        let mut v: Vec<_> = packet.overloads.load().iter().cloned().collect();
        v.retain(|o| !Arc::ptr_eq(o, op));
        v.push(op.clone());
        trash
            .lists
            .push(packet.overloads.swap(Arc::new(OverloadSet::new(v))));
        trash.definitions_changed = true;
        // `packet` is not the last reference (the map holds one): dropping it frees nothing.
    }

    /// Put `op` (just defined) in its packet's list once `publish_staged`
    /// names the packet. See Note [Definitions published with their kernels].
    pub fn stage(&mut self, op: &Arc<Operator<K, C>>) {
        let base = names::split_overload(&op.name).0;
        self.staged
            .entry(base.to_string())
            .or_default()
            .push(op.clone());
    }

    /// Add the staged overloads of `packet` that are still defined to its list,
    /// in the order they were defined.
    pub fn publish_staged(&mut self, packet: &str, trash: &mut Trash<K, C>) {
        for op in self.staged.remove(packet).unwrap_or_default() {
            if op.def.load().is_some() {
                self.add_to_packet(&op, trash);
            }
        }
    }

    /// Drop `qualified` from its packet unless it is defined; forget a packet
    /// left empty that nothing outside the registry holds (a packet someone
    /// holds must stay, so that it sees a later definition of the name).
    pub fn remove_from_packet(&mut self, qualified: &str, trash: &mut Trash<K, C>) {
        let base = names::split_overload(qualified).0;
        if let Some(staged) = self.staged.get_mut(base) {
            staged.retain(|o| o.name != qualified || o.def.load().is_some());
        }
        let Some(packet) = self.packets.get(base) else {
            return;
        };
        let current = packet.overloads.load();
        let keep = |o: &&Arc<Operator<K, C>>| o.name != qualified || o.def.load().is_some();
        if current.iter().all(|o| keep(&o)) {
            return;
        }
        let v: Vec<_> = current.iter().filter(keep).cloned().collect();
        drop(current);
        let empty = v.is_empty();
        trash
            .lists
            .push(packet.overloads.swap(Arc::new(OverloadSet::new(v))));
        trash.definitions_changed = true;
        if empty && Arc::strong_count(packet) == 1 {
            trash.packets.extend(self.packets.remove(base));
        }
    }

    /// Recompute some slots of one operator and publish the new table; the
    /// old one is freed when the last call that loaded it returns. See Note
    /// [Table publication].
    pub fn refresh(
        &self,
        qualified: &str,
        keys: DispatchKeySet,
        undefined: bool,
        trash: &mut Trash<K, C>,
    ) {
        if let Some(op) = self.ops.get(qualified) {
            self.refresh_op(op, keys, undefined, trash);
        }
    }

    fn refresh_op(
        &self,
        op: &OpState<K, C>,
        keys: DispatchKeySet,
        undefined: bool,
        trash: &mut Trash<K, C>,
    ) {
        let view = View {
            kernels: &op.kernels,
            fallbacks: &self.fallbacks,
        };
        let table = op
            .handle
            .table
            .load()
            .with_recomputed(&view, keys, undefined);
        trash.tables.push(op.handle.table.swap(table));
    }

    /// Recompute some slots of every operator (a fallback changed).
    pub fn refresh_all(&self, keys: DispatchKeySet, trash: &mut Trash<K, C>) {
        if keys.is_empty() {
            return;
        }
        for op in self.ops.values() {
            self.refresh_op(op, keys, false, trash);
        }
    }

    /// Remove everything `lib` registered, restoring what it shadowed. Visits
    /// only the operators `lib` touched; recomputes only the slots its
    /// kernels could affect.
    pub fn destroy(&mut self, lib: u64, trash: &mut Trash<K, C>) {
        let Some(info) = self.libs.remove(&lib) else {
            return;
        };
        if self.def_namespaces.get(&info.ns) == Some(&lib) {
            self.def_namespaces.remove(&info.ns);
        }
        let mut fallback_keys = DispatchKeySet::EMPTY;
        for (i, stack) in self.fallbacks.iter_mut().enumerate() {
            if take_lib(stack, lib, &mut trash.regs) {
                if let Some(k) = DispatchKey::from_index(i) {
                    fallback_keys = fallback_keys.add(k);
                }
            }
        }
        let mut touched = self.lib_ops.remove(&lib).unwrap_or_default();
        touched.sort_unstable();
        touched.dedup();
        for name in &touched {
            let Some(op) = self.ops.get_mut(name) else {
                continue;
            };
            let (mut keys, mut undefined) = (DispatchKeySet::EMPTY, false);
            for stack in op.kernels.iter_mut() {
                let before = trash.regs.len();
                if take_lib(stack, lib, &mut trash.regs) {
                    for reg in &trash.regs[before..] {
                        keys = keys | affected_slots(reg.key);
                        undefined |= reg.key.is_alias();
                    }
                }
            }
            let undefine = op.handle.def.load().as_ref().is_some_and(|d| d.lib == lib);
            if undefine {
                trash.defs.extend(op.handle.def.swap(None));
                trash.definitions_changed = true;
                self.remove_from_packet(name, trash);
            }
            if !keys.is_empty() || undefined {
                self.refresh(name, keys, undefined, trash);
            }
        }
        self.forget_unused(&touched, trash);
        self.refresh_all(fallback_keys, trash);
    }

    /// Forget operators among `names` that are neither defined nor implemented.
    fn forget_unused(&mut self, names: &[String], trash: &mut Trash<K, C>) {
        for name in names {
            let unused = self.ops.get(name).is_some_and(|op| {
                op.handle.def.load().is_none() && op.kernels.iter().all(Vec::is_empty)
            });
            if unused {
                trash.ops.extend(self.ops.remove(name).map(|op| op.handle));
            }
        }
    }

    /// `define`'s duplicate check.
    pub fn check_undefined(&self, qualified: &str, provenance: &str) -> Result<()> {
        match self.defined_at(qualified) {
            Some(prev) => Err(super::library::duplicate_def(qualified, &prev, provenance)),
            None => Ok(()),
        }
    }

    /// See `Registry::check_invariants`.
    pub fn check(&self) -> std::result::Result<(), String> {
        for (name, op) in &self.ops {
            let fresh = DispatchTable::compute(&View {
                kernels: &op.kernels,
                fallbacks: &self.fallbacks,
            });
            if !tables_equal(&fresh, &op.handle.table()) {
                return Err(format!("stale dispatch table for {name}"));
            }
            let (base, _) = names::split_overload(name);
            let defined = op.handle.def.load().is_some();
            let listed = self.packets.get(base).is_some_and(|p| {
                p.overloads
                    .load()
                    .iter()
                    .any(|o| Arc::ptr_eq(o, &op.handle))
            }) || self
                .staged
                .get(base)
                .is_some_and(|v| v.iter().any(|o| Arc::ptr_eq(o, &op.handle)));
            if defined != listed {
                return Err(format!(
                    "packet of {name} is out of sync (defined: {defined})"
                ));
            }
            let noted = |lib: u64| self.lib_ops.get(&lib).is_some_and(|v| v.contains(name));
            let def_lib = op.handle.def.load().as_ref().map(|d| d.lib);
            let libs = op.kernels.iter().flatten().map(|r| r.lib).chain(def_lib);
            if let Some(lib) = libs.into_iter().find(|&l| !noted(l)) {
                return Err(format!("library {lib} touches {name} but does not list it"));
            }
            if !defined && op.kernels.iter().all(Vec::is_empty) {
                return Err(format!(
                    "{name} is kept with neither a definition nor a kernel"
                ));
            }
        }
        for (ns, id) in &self.def_namespaces {
            if !self.libs.contains_key(id) {
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
