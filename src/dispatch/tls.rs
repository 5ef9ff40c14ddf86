//! Thread-local included / excluded key sets (torch's `LocalDispatchKeySet`).
//!
//! A call's key set is `(union of argument keys | included) - excluded`.
//! Guards in `opyard.dispatcher` save the pair, change it and restore it.

use super::DispatchKeySet;
use std::cell::Cell;

/// The thread's include and exclude sets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LocalKeySets {
    pub included: DispatchKeySet,
    pub excluded: DispatchKeySet,
}

thread_local! {
    static LOCAL: Cell<LocalKeySets> = const { Cell::new(LocalKeySets {
        included: DispatchKeySet::EMPTY,
        excluded: DispatchKeySet::EMPTY,
    }) };
}

/// The current thread's sets.
#[inline]
pub fn get() -> LocalKeySets {
    LOCAL.with(Cell::get)
}

/// Replace the current thread's sets, returning the previous ones.
pub fn replace(new: LocalKeySets) -> LocalKeySets {
    LOCAL.with(|c| c.replace(new))
}

/// Apply the thread's sets to the keys gathered from a call's arguments.
#[inline]
pub fn apply(arg_keys: DispatchKeySet) -> DispatchKeySet {
    let l = get();
    (arg_keys | l.included) - l.excluded
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dispatch::DispatchKey::*;

    #[test]
    fn include_exclude_are_per_thread() {
        let prev = replace(LocalKeySets {
            included: DispatchKeySet::from_key(Tracer),
            excluded: DispatchKeySet::from_key(AutogradCPU),
        });
        let ks = apply(DispatchKeySet::from_key(CPU).add(AutogradCPU));
        assert_eq!(ks, DispatchKeySet::from_key(CPU).add(Tracer));
        std::thread::spawn(|| assert_eq!(get(), LocalKeySets::default()))
            .join()
            .unwrap();
        replace(prev);
    }
}
