//! Bulk registration: a table of definitions or kernels of one library under
//! one lock, each operator's dispatch table computed once for the batch.
//!
//! Note [Bulk registration]: the built-in operators come as tables (hundreds
//! of schemas, a few kernels per operator). Registering them one `define` /
//! `impl_kernel` at a time takes the lock two or three times per row and
//! recomputes the operator's table after every kernel. `define_many` and
//! `impl_many` validate the whole batch first (a refused batch registers
//! nothing), then apply it in one critical section and refresh each touched
//! operator once, over the union of the slots its rows can affect. What they
//! register is indistinguishable from the same rows registered one by one:
//! same registration ids in row order, same stacks, same tables, so `dump`,
//! destroying the library and later overrides behave alike.
//!
//! Note [Definitions published with their kernels]: a library that defines a
//! packet on its first use (Note [Operators defined on first use],
//! src/python/dispatch/lazy.rs) defines its overloads, then registers their
//! kernels, some of which (the Autograd ones) need the defined operators.
//! Another thread calling the packet meanwhile must not find the overloads
//! before their kernels (it would dispatch `sum` to the autograd fallback and
//! record a node that fails in backward). So such a batch is *staged*: the
//! operators are defined (found by name, so the defining thread registers on
//! them) but stay out of their packet's list, which is all a call reads,
//! until `publish_staged` names the packet when every kernel is in. A caller
//! that finds the list empty waits for the definer.

use super::library::{check_can_define, duplicate_def, impl_key};
use super::names::OpName;
use super::{OpDef, Operator, Registry};
use crate::dispatch::table::{affected_slots, Registration};
use crate::dispatch::{DispatchKey, DispatchKeySet};
use crate::error::Result;
use crate::schema::FunctionSchema;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// One row of `impl_many`: a kernel for `op_name` at `key` (None: the
/// library's key, else CompositeImplicitAutograd), as `impl_kernel` takes it.
pub struct BulkKernel<K> {
    pub op_name: String,
    pub key: Option<DispatchKey>,
    pub kernel: K,
    pub fallthrough: bool,
}

impl<K: Clone, C> Registry<K, C> {
    /// Define every schema in library `lib`, in order; all or nothing. See
    /// Note [Bulk registration]. `compile` runs unlocked, between the checks
    /// and the re-check under the lock (Note [No foreign code under a lock]).
    /// With `stage`, the operators stay out of their packets' lists until
    /// `publish_staged` (Note [Definitions published with their kernels]).
    pub fn define_many(
        &self,
        lib: u64,
        mut schemas: Vec<FunctionSchema>,
        provenance: &str,
        stage: bool,
        mut compile: impl FnMut(&Arc<FunctionSchema>) -> C,
    ) -> Result<Vec<Arc<Operator<K, C>>>> {
        let info = self.locked(|st, _| st.lib(lib).cloned())??;
        let mut names = Vec::with_capacity(schemas.len());
        let mut seen = HashSet::with_capacity(schemas.len());
        for schema in &mut schemas {
            check_can_define(&info, schema)?;
            let qualified = schema.qualified_name();
            if !seen.insert(qualified.clone()) {
                return Err(duplicate_def(&qualified, provenance, provenance));
            }
            names.push(qualified);
        }
        self.locked(|st, _| check_all_undefined(st, &names, provenance))??;
        let provenance: Arc<str> = Arc::from(provenance);
        // On failure the definitions are still ours and are dropped unlocked on return.
        let mut defs: Vec<Option<Arc<OpDef<C>>>> = schemas
            .into_iter()
            .map(|schema| {
                let schema = Arc::new(schema);
                Some(Arc::new(OpDef {
                    compiled: compile(&schema),
                    schema,
                    lib,
                    provenance: provenance.clone(),
                }))
            })
            .collect();
        self.locked(|st, trash| {
            st.lib(lib)?;
            check_all_undefined(st, &names, &provenance)?;
            let mut out = Vec::with_capacity(names.len());
            for (qualified, def) in names.iter().zip(defs.iter_mut()) {
                let op = st.op_entry(qualified, lib);
                trash.defs.extend(op.handle.def.swap(def.take()));
                trash.definitions_changed = true;
                let handle = op.handle.clone();
                if stage {
                    st.stage(&handle);
                } else {
                    st.add_to_packet(&handle, trash);
                }
                out.push(handle);
            }
            Ok(out)
        })?
    }

    /// Register every row in library `lib`, in order, overriding what is
    /// there; all or nothing. Returns `(row index, provenance)` of each kernel
    /// a row shadowed, so that the caller can warn. See Note [Bulk registration].
    pub fn impl_many(
        &self,
        lib: u64,
        mut rows: Vec<BulkKernel<K>>,
        provenance: &str,
    ) -> Result<Vec<(usize, Arc<str>)>> {
        self.locked(|st, trash| {
            let info = st.lib(lib)?;
            let mut targets = Vec::with_capacity(rows.len());
            for row in &rows {
                let name = OpName::parse(&row.op_name, &info.ns)?;
                let key = impl_key(info, &name, row.key)?;
                targets.push((name.qualified(), key));
            }
            let provenance: Arc<str> = Arc::from(provenance);
            let mut shadowed = Vec::new();
            // Per touched operator, in first-touch order: the slots to refresh.
            let mut touched: HashMap<String, usize> = HashMap::new();
            let mut refresh: Vec<(String, DispatchKeySet, bool)> = Vec::new();
            for (i, (row, (qualified, key))) in rows.drain(..).zip(targets).enumerate() {
                let id = st.fresh_id();
                // In bounds: `kernels` has a stack for every key. See `OpState`.
                let stack = &mut st.op_entry(&qualified, lib).kernels[key as usize];
                if let Some(prev) = stack.last() {
                    shadowed.push((i, prev.provenance.clone()));
                }
                stack.push(Registration {
                    id,
                    lib,
                    kernel: row.kernel,
                    key,
                    provenance: provenance.clone(),
                    fallthrough: row.fallthrough,
                });
                let at = *touched.entry(qualified).or_insert_with_key(|q| {
                    refresh.push((q.clone(), DispatchKeySet::EMPTY, false));
                    refresh.len() - 1
                });
                let (_, keys, undefined) = &mut refresh[at];
                *keys = *keys | affected_slots(key);
                *undefined |= key.is_alias();
            }
            for (qualified, keys, undefined) in &refresh {
                st.refresh(qualified, *keys, *undefined, trash);
            }
            Ok(shadowed)
        })?
    }

    /// Put `new` in place of the kernel of the registration of `qualified` at
    /// `key` for which `is_old` holds, keeping its id, library and provenance,
    /// and republish the table. False when there is no such registration
    /// (another thread replaced it first, or its library is gone). For kernels
    /// built on their first call. `is_old` runs under the lock: it must only
    /// compare (Note [No foreign code under a lock]).
    pub fn replace_kernel(
        &self,
        qualified: &str,
        key: DispatchKey,
        is_old: impl Fn(&K) -> bool,
        new: K,
    ) -> Result<bool> {
        let name = qualified.strip_suffix(".default").unwrap_or(qualified);
        let mut new = Some(new);
        let replaced = self.locked(|st, trash| {
            let Some(op) = st.ops.get_mut(name) else {
                return false;
            };
            // In bounds: `kernels` has a stack for every key. See `OpState`.
            let Some(reg) = op.kernels[key as usize]
                .iter_mut()
                .find(|r| is_old(&r.kernel))
            else {
                return false;
            };
            if let Some(new) = new.take() {
                trash.kernels.push(std::mem::replace(&mut reg.kernel, new));
            }
            st.refresh(name, affected_slots(key), key.is_alias(), trash);
            true
        })?;
        // Not used: dropped here, unlocked.
        drop(new);
        Ok(replaced)
    }
}

fn check_all_undefined<K: Clone, C>(
    st: &super::State<K, C>,
    names: &[String],
    provenance: &str,
) -> Result<()> {
    names
        .iter()
        .try_for_each(|q| st.check_undefined(q, provenance))
}

#[cfg(test)]
#[path = "bulk_tests.rs"]
mod tests;
