//! Per-instance vectorcall entries (`tp_vectorcall_offset`): see Note [Vectorcall entries].

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::GILProtected;
use pyo3::types::{PyDict, PyTuple};
use pyo3::PyClass;
use std::cell::Cell;

// Note [Vectorcall entries]: CPython calls an object whose type has
// `Py_TPFLAGS_HAVE_VECTORCALL` through the function pointer the instance
// keeps at the type's `tp_vectorcall_offset`, with the arguments as the
// caller's array: no argument tuple made by `_PyObject_MakeTpCall` for a
// `tp_call` slot, and (for a `#[pymethods]` `__call__`) no PyO3 extraction of
// `*args`/`**kwargs`. An operator object (`OpOverload`, `OpOverloadPacket`)
// keeps such a pointer in a `VectorcallSlot` field; the first instance made
// measures the field's place (the same in every instance of the Rust type)
// and sets the type's offset and flag. The entry packs the positional values
// into the tuple the binder and the kernels take (and keywords into a dict)
// and runs the same body as the type's `tp_call`, which stays for
// `PyObject_Call` callers (`op(*args, **kwargs)`).

/// A `vectorcallfunc`.
pub type VectorcallFn = unsafe extern "C" fn(
    *mut ffi::PyObject,
    *const *mut ffi::PyObject,
    usize,
    *mut ffi::PyObject,
) -> *mut ffi::PyObject;

/// The entry an instance keeps where its type's `tp_vectorcall_offset` points.
#[repr(transparent)]
pub struct VectorcallSlot(VectorcallFn);

impl VectorcallSlot {
    pub const fn new(entry: VectorcallFn) -> Self {
        VectorcallSlot(entry)
    }
}

/// Let CPython call the instances of `obj`'s type through the entry each keeps
/// in the field `slot` (a field of `obj`'s Rust struct). Idempotent.
pub fn enable<T: PyClass>(obj: &Bound<'_, T>, slot: &VectorcallSlot) -> PyResult<()> {
    let ty = obj.as_any().get_type();
    let start = obj.as_ptr() as usize;
    let at = slot as *const VectorcallSlot as usize;
    let size = super::object::basic_size(&ty) as usize;
    let end = at.checked_add(std::mem::size_of::<VectorcallSlot>());
    if at < start || end.is_none_or(|e| e > start + size) {
        return Err(pyo3::exceptions::PySystemError::new_err(
            "vectorcall entry outside the instance",
        ));
    }
    let offset = (at - start) as ffi::Py_ssize_t;
    let t = ty.as_type_ptr();
    // SAFETY: GIL held; `t` is `obj`'s live, ready type. Every instance of it is
    // a `T` made by `T`'s Rust constructor, which stores a valid entry (a
    // `VectorcallSlot` is never null) at `offset` (measured on `obj`, inside the
    // instance size); CPython calls that entry with the vectorcall convention the
    // entry is declared with. The type keeps its `tp_call` of the same meaning.
    unsafe {
        if (*t).tp_vectorcall_offset == offset
            && (*t).tp_flags & ffi::Py_TPFLAGS_HAVE_VECTORCALL != 0
        {
            return Ok(());
        }
        (*t).tp_vectorcall_offset = offset;
        (*t).tp_flags |= ffi::Py_TPFLAGS_HAVE_VECTORCALL;
        ffi::PyType_Modified(t);
    }
    Ok(())
}

// Note [Reused argument tuples]: the binder and the kernels take the
// positional values as a tuple, so a vectorcall entry packs them into one
// (`pack`), and the tuple usually dies when the call returns. Making and
// freeing it (the tuple allocator, the collector's tracking, the free list)
// was a tenth of a no-op operator call's cycles. A tuple of up to
// `REUSED_ARITY` values that nobody else holds when the call returns
// (`recycle`: reference count one) is kept instead, up to `KEPT_PER_LENGTH`
// per length (a call made while an outer call of the same length holds one,
// like an op inside `Function.apply`'s forward, takes the next), with `None`
// in every place (a kept tuple stays a valid tuple for the collector and
// anyone who finds it through `gc.get_objects()`), and filled again by a later
// call of that length. A kept tuple someone else has meanwhile taken a
// reference to is dropped, never refilled; a call that finds none kept makes
// its own. The values are
// released before the tuple is kept, outside any borrow of the keeper: their
// release may run Python code that calls operators.

/// The longest argument tuple kept for reuse.
const REUSED_ARITY: usize = 4;

/// How many tuples of one length are kept.
const KEPT_PER_LENGTH: usize = 4;

/// The kept tuples of one length: a stack, `len` of its places filled.
struct Stack {
    len: Cell<usize>,
    places: [Cell<Option<Py<PyTuple>>>; KEPT_PER_LENGTH],
}

/// The kept tuples of each length 1..=REUSED_ARITY. See Note [Reused argument tuples].
static KEPT: GILProtected<[Stack; REUSED_ARITY]> = GILProtected::new(
    [const {
        Stack {
            len: Cell::new(0),
            places: [const { Cell::new(None) }; KEPT_PER_LENGTH],
        }
    }; REUSED_ARITY],
);

/// A kept tuple of length `n`, if there is one only the keeper holds.
fn reuse(py: Python<'_>, n: usize) -> Option<Py<PyTuple>> {
    let stack = KEPT.get(py).get(n.wrapping_sub(1))?;
    let top = stack.len.get().checked_sub(1)?;
    stack.len.set(top);
    let t = stack.places[top].take()?;
    // SAFETY: GIL held; `t` is alive (owned here). Dropped normally otherwise.
    (unsafe { ffi::Py_REFCNT(t.as_ptr()) } == 1).then_some(t)
}

/// Keep `tuple`, the positional values `pack` made, for the next call of its
/// length when nobody else holds it; else release it.
pub fn recycle(py: Python<'_>, tuple: Bound<'_, PyTuple>) {
    let n = tuple.len();
    let t = tuple.as_ptr();
    // SAFETY: GIL held; `t` is a live tuple of `n` items owned by `tuple`.
    if !(1..=REUSED_ARITY).contains(&n) || unsafe { ffi::Py_REFCNT(t) } != 1 {
        return;
    }
    for i in 0..n {
        // SAFETY: GIL held; nobody else holds `t` (count one), so replacing an
        // item changes no value anyone can see. The tuple's reference to the
        // old item moves to `old`, released after the store; `None` gets the
        // new reference the tuple keeps.
        let old = unsafe {
            let slot = ffi::PyTuple_GET_ITEM(t, i as ffi::Py_ssize_t);
            let none = ffi::Py_None();
            ffi::Py_INCREF(none);
            ffi::PyTuple_SET_ITEM(t, i as ffi::Py_ssize_t, none);
            Bound::from_owned_ptr(py, slot)
        };
        drop(old); // may run Python code: no borrow of `KEPT` is alive here
    }
    // SAFETY: GIL held; `t` alive. Releasing the values may have let someone
    // take a reference (a finaliser walking `gc.get_objects()`): then no reuse.
    if unsafe { ffi::Py_REFCNT(t) } != 1 {
        return;
    }
    let stack = &KEPT.get(py)[n - 1];
    let len = stack.len.get();
    if len < KEPT_PER_LENGTH {
        stack.places[len].set(Some(tuple.unbind()));
        stack.len.set(len + 1);
    }
    // Else every place is taken: `tuple` is released here, a tuple of `None`s
    // whose release runs no Python code.
}

/// The positional values of a vectorcall as a tuple, its keywords as a dict.
///
/// # Safety
/// As CPython calls a vectorcall entry: `args` holds `nargsf`'s positional
/// values plus one per name of `kwnames` (NULL or a tuple of str), all alive.
pub unsafe fn pack<'py>(
    py: Python<'py>,
    args: *const *mut ffi::PyObject,
    nargsf: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> PyResult<(Bound<'py, PyTuple>, Option<Bound<'py, PyDict>>)> {
    // SAFETY: the caller's contract: `args` holds the values, `kwnames` names the
    // trailing ones; each value gets the new reference the tuple or dict keeps.
    unsafe {
        let n = ffi::PyVectorcall_NARGS(nargsf as usize) as usize;
        let tuple = match reuse(py, n) {
            Some(kept) => {
                let t = kept.into_bound(py);
                for i in 0..n {
                    let v = *args.add(i);
                    ffi::Py_INCREF(v);
                    // The kept tuple holds `None` here (Note [Reused argument tuples]):
                    // its reference is released after the store, which runs no Python code.
                    let none = ffi::PyTuple_GET_ITEM(t.as_ptr(), i as ffi::Py_ssize_t);
                    ffi::PyTuple_SET_ITEM(t.as_ptr(), i as ffi::Py_ssize_t, v);
                    ffi::Py_DECREF(none);
                }
                t.into_any()
            }
            None => {
                let t = Bound::from_owned_ptr_or_err(py, ffi::PyTuple_New(n as ffi::Py_ssize_t))?;
                for i in 0..n {
                    let v = *args.add(i);
                    ffi::Py_INCREF(v);
                    ffi::PyTuple_SET_ITEM(t.as_ptr(), i as ffi::Py_ssize_t, v);
                }
                t
            }
        };
        let tuple = tuple.downcast_into_unchecked::<PyTuple>();
        if kwnames.is_null() {
            return Ok((tuple, None));
        }
        let names = Bound::from_borrowed_ptr(py, kwnames).downcast_into_unchecked::<PyTuple>();
        let dict = PyDict::new_bound(py);
        for (j, name) in names.iter().enumerate() {
            dict.set_item(name, Borrowed::from_ptr(py, *args.add(n + j)))?;
        }
        Ok((tuple, Some(dict)))
    }
}

/// Defines `$name`, a vectorcall entry for `$ty`'s instances (installed by
/// [`enable`]), behind PyO3's trampoline (GIL bookkeeping, panics become
/// `PanicException`): `$body` gets the instance, the positional values as a
/// tuple and the keywords as a dict (see [`pack`]), and returns
/// `PyResult<PyObject>`. The caller promises that only `$ty`'s instances keep
/// `$name` as their entry.
macro_rules! vectorcall_entry {
    ($(#[$doc:meta])* $name:ident, $ty:ty,
     |$py:ident, $slf:ident, $args:ident, $kwargs:ident| $body:expr) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// CPython calls it as the vectorcall entry of a `$ty` instance: GIL held,
        /// `args` holding `nargsf`'s positional values and one per name of `kwnames`.
        pub unsafe extern "C" fn $name(
            callable: *mut pyo3::ffi::PyObject,
            args: *const *mut pyo3::ffi::PyObject,
            nargsf: usize,
            kwnames: *mut pyo3::ffi::PyObject,
        ) -> *mut pyo3::ffi::PyObject {
            /// # Safety
            /// As the entry: `callable` is a `$ty`, the arguments as CPython passed them.
            unsafe fn body(
                $py: pyo3::Python<'_>,
                callable: *mut pyo3::ffi::PyObject,
                args: *const *mut pyo3::ffi::PyObject,
                nargsf: pyo3::ffi::Py_ssize_t,
                kwnames: *mut pyo3::ffi::PyObject,
            ) -> pyo3::PyResult<*mut pyo3::ffi::PyObject> {
                // SAFETY: CPython's arguments, as `pack` requires.
                let (tuple, dict) =
                    unsafe { $crate::python::ffi::vectorcall::pack($py, args, nargsf, kwnames)? };
                let dict_ptr = dict.as_ref().map_or(std::ptr::null_mut(), |d| d.as_ptr());
                // SAFETY: `callable` is a `$ty` (only its instances keep this entry), `tuple`
                // a tuple and `dict_ptr` NULL or a dict, all alive for the call.
                let out = unsafe {
                    $crate::python::ffi::call_slot::with_args(
                        $py,
                        callable,
                        tuple.as_ptr(),
                        dict_ptr,
                        |$slf: &pyo3::Bound<'_, $ty>, $args, $kwargs| {
                            pyo3::PyResult::<pyo3::PyObject>::map($body, |o| o.into_ptr())
                        },
                    )
                };
                $crate::python::ffi::vectorcall::recycle($py, tuple);
                out
            }
            // SAFETY: CPython's own arguments, passed on unchanged (the count keeps
            // its offset flag; `pack` strips it).
            unsafe {
                pyo3::impl_::trampoline::fastcall_with_keywords(
                    callable,
                    args,
                    nargsf as pyo3::ffi::Py_ssize_t,
                    kwnames,
                    body,
                )
            }
        }
    };
}
pub(crate) use vectorcall_entry;
