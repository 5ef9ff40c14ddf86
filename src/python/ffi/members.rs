//! Object pointers held in a Rust struct and exposed to Python as struct
//! members (`PyMemberDef`): see Note [Tensor slots] in `tensor/slots.rs`.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyType;
use pyo3::{AsPyPointer, PyClass};
use std::cell::UnsafeCell;
use std::ffi::CStr;
use std::ptr;

/// One owned (or NULL) object pointer, written in place by CPython's member code.
#[repr(transparent)]
pub struct ObjSlot(UnsafeCell<*mut ffi::PyObject>);

// SAFETY: every read and write of the pointer happens with the GIL held (see
// Note [Tensor slots]); the GIL serializes them, as it does for `__slots__`.
unsafe impl Sync for ObjSlot {}
// SAFETY: as above; the pointee is a Python object, owned through the GIL.
unsafe impl Send for ObjSlot {}

impl ObjSlot {
    /// The address of the object held (0 when empty), for identity tests.
    #[inline]
    pub fn address(&self) -> usize {
        self.ptr() as usize
    }

    /// A slot owning a new reference to `obj` (NULL for `None`).
    pub fn new(obj: Option<&Bound<'_, PyAny>>) -> Self {
        ObjSlot(UnsafeCell::new(
            obj.map_or(ptr::null_mut(), |o| o.clone().into_ptr()),
        ))
    }

    /// The raw pointer (borrowed, possibly NULL).
    #[inline]
    fn ptr(&self) -> *mut ffi::PyObject {
        // SAFETY: see `impl Sync`: reads happen under the GIL.
        unsafe { *self.0.get() }
    }

    /// A new reference to the object, `None` when the slot is empty.
    #[inline]
    pub fn get<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        // SAFETY: the slot owns a reference to a live object (or is NULL);
        // `from_borrowed_ptr_or_opt` takes a new one.
        unsafe { Bound::from_borrowed_ptr_or_opt(py, self.ptr()) }
    }

    /// Store `value` (a new reference is taken); the old object is released last,
    /// once the slot already holds the new one (its finalizer may run Python code).
    #[inline]
    pub fn set(&self, value: Option<&Bound<'_, PyAny>>) {
        let new = value.map_or(ptr::null_mut(), |v| v.clone().into_ptr());
        // SAFETY: under the GIL (we hold a `Bound` or are in a GIL-holding slot).
        let old = unsafe { ptr::replace(self.0.get(), new) };
        // SAFETY: `old` was owned by the slot.
        unsafe { ffi::Py_XDECREF(old) };
    }

    /// Empty the slot, returning what it owned (dropped by the caller, outside any borrow).
    pub fn take(&self, py: Python<'_>) -> Option<PyObject> {
        // SAFETY: under the GIL (`py`); ownership moves to the returned `Py`.
        unsafe {
            let old = ptr::replace(self.0.get(), ptr::null_mut());
            PyObject::from_owned_ptr_or_opt(py, old)
        }
    }
}

// SAFETY: `as_ptr` returns the borrowed pointer the slot owns (or NULL), which is
// what `PyVisit::call` needs during `tp_traverse`.
unsafe impl AsPyPointer for ObjSlot {
    fn as_ptr(&self) -> *mut ffi::PyObject {
        self.ptr()
    }
}

impl Drop for ObjSlot {
    fn drop(&mut self) {
        let p = *self.0.get_mut();
        if !p.is_null() {
            // SAFETY: a slot is dropped only from `tp_dealloc` of its tensor (or
            // while building one under the GIL), so the GIL is held; the slot owns `p`.
            unsafe { ffi::Py_DECREF(p) };
        }
    }
}

/// Where the object slots of a `T` start in its instances, measured on one:
/// the only way to name a member offset, so every member descriptor made
/// here reads and writes an `ObjSlot` of the instance.
#[derive(Clone, Copy, Debug)]
pub struct SlotsOffset {
    offset: usize,
    count: usize,
}

impl SlotsOffset {
    /// The offset of `slots` (a field of `obj`'s Rust struct) from the start of
    /// `obj`; `None` when `slots` does not lie inside `obj`'s instance size.
    pub fn measure<T: PyClass>(obj: &Bound<'_, T>, slots: &[ObjSlot]) -> Option<Self> {
        let start = obj.as_ptr() as usize;
        let at = slots.as_ptr() as usize;
        let size = super::object::basic_size(&obj.as_any().get_type()) as usize;
        let end = at.checked_add(std::mem::size_of_val(slots))?;
        (at >= start && end <= start + size).then_some(SlotsOffset {
            offset: at - start,
            count: slots.len(),
        })
    }
}

/// A member descriptor of `owner` (the measured class or a subclass of it)
/// reading (and unless `readonly`, writing) slot `index`, named `name`.
pub fn member_descr<'py>(
    owner: &Bound<'py, PyType>,
    name: &'static CStr,
    slots: SlotsOffset,
    index: usize,
    readonly: bool,
) -> PyResult<Bound<'py, PyAny>> {
    if index >= slots.count {
        return Err(pyo3::exceptions::PyIndexError::new_err(
            "member_descr: no such slot",
        ));
    }
    let offset = slots.offset + index * std::mem::size_of::<ObjSlot>();
    if (super::object::basic_size(owner) as usize) < offset + std::mem::size_of::<ObjSlot>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "member_descr: the class is too small",
        ));
    }
    // The descriptor keeps a pointer to its definition: one leaked `PyMemberDef`
    // per descriptor, made a bounded number of times (at init, and per alias).
    let def: &'static mut ffi::PyMemberDef = Box::leak(Box::new(ffi::PyMemberDef {
        name: name.as_ptr(),
        type_code: ffi::Py_T_OBJECT_EX,
        offset: offset as ffi::Py_ssize_t,
        flags: if readonly { ffi::Py_READONLY } else { 0 },
        doc: ptr::null(),
    }));
    // SAFETY: `owner` is a live type object whose instances hold an
    // `ObjSlot` (an object pointer) at `offset` (measured on an instance and
    // checked against the instance size); `def` lives forever.
    unsafe {
        let descr = ffi::PyDescr_NewMember(owner.as_ptr().cast(), def);
        Bound::from_owned_ptr_or_err(owner.py(), descr)
    }
}

// Note [Default slots in bulk]: a new tensor starts with ~20 slots holding the
// same few objects (`None` in most, `0`, `False`, the cpu device). One
// `Py_INCREF` per slot is a chain of read-modify-writes of the same few
// reference counts; `SlotDefaults` instead copies the pointers and adds each
// distinct object's count once (callgrind: 90 instructions fewer per new
// tensor). An immortal object (Python 3.12+: `None`, `False`, small ints)
// needs no count at all, and its `Py_DECREF` when the slot is freed or
// overwritten does nothing. Adding to a count writes the object's first word,
// which is the reference count in every layout of a default (GIL) build;
// `SlotDefaults::new` checks that on the objects themselves and otherwise
// counts one slot at a time. (Giving the references back in bulk when a tensor
// is freed was measured too: telling the defaults from the other objects cost
// more instructions than the decrements it saved.)

/// The default object of every slot of an `N`-slot array, copied into new arrays
/// with their counts added in bulk (Note [Default slots in bulk]).
pub struct SlotDefaults<const N: usize> {
    /// The default of each slot (NULL for none), owned by `objects`.
    ptrs: [*mut ffi::PyObject; N],
    /// Each distinct mortal default with the number of slots holding it, when the
    /// counts can be updated in bulk; else empty and `bulk` false.
    mortal: Vec<(*mut ffi::PyObject, isize)>,
    bulk: bool,
    objects: [Option<PyObject>; N],
}

// SAFETY: the pointers are to objects `objects` keeps alive; their counts are
// updated only with the GIL held (`new` and `fill` take a `Python` token).
unsafe impl<const N: usize> Send for SlotDefaults<N> {}
// SAFETY: as above.
unsafe impl<const N: usize> Sync for SlotDefaults<N> {}

/// Whether `p`'s reference count is an immortal one (Python 3.12+: the low 32 bits
/// read as a negative number; never for a mortal count below 2**31).
fn immortal(p: *mut ffi::PyObject) -> bool {
    // SAFETY: `p` is a live object (the caller holds a reference).
    (unsafe { ffi::Py_REFCNT(p) } as u64 as u32 as i32) < 0
}

/// Add `n` to the reference count of mortal `p` (its first word).
///
/// # Safety
/// `p` is live and mortal, the GIL is held, and `SlotDefaults::new` checked that
/// the first word is the count.
unsafe fn add_refs(p: *mut ffi::PyObject, n: isize) {
    // SAFETY: per the contract.
    unsafe { *p.cast::<isize>() += n };
}

impl<const N: usize> SlotDefaults<N> {
    /// The defaults `objects` (None: an empty slot).
    pub fn new(_py: Python<'_>, objects: [Option<PyObject>; N]) -> Self {
        let ptrs = objects
            .each_ref()
            .map(|o| o.as_ref().map_or(ptr::null_mut(), |o| o.as_ptr()));
        let mut mortal: Vec<(*mut ffi::PyObject, isize)> = Vec::new();
        for &p in ptrs.iter().filter(|p| !p.is_null()) {
            if immortal(p) {
                continue;
            }
            if let Some(entry) = mortal.iter_mut().find(|(q, _)| *q == p) {
                entry.1 += 1;
            } else {
                mortal.push((p, 1));
            }
        }
        // The first word must be the count: add and take back one, seen through the API.
        let bulk = mortal.iter().all(|&(p, _)| {
            // SAFETY: `p` is live (owned by `objects`), mortal, and the GIL is held (`_py`).
            unsafe {
                let before = ffi::Py_REFCNT(p);
                add_refs(p, 1);
                let seen = ffi::Py_REFCNT(p);
                add_refs(p, -1);
                seen == before + 1
            }
        });
        SlotDefaults {
            ptrs,
            mortal: if bulk { mortal } else { Vec::new() },
            bulk,
            objects,
        }
    }

    /// A new array of slots holding the defaults, each with its reference.
    pub fn fill(&self, py: Python<'_>) -> [ObjSlot; N] {
        if !self.bulk {
            return self
                .objects
                .each_ref()
                .map(|o| ObjSlot::new(o.as_ref().map(|o| o.bind(py))));
        }
        for &(p, n) in &self.mortal {
            // SAFETY: checked in `new`; the GIL is held (`py`).
            unsafe { add_refs(p, n) };
        }
        self.ptrs.map(|p| ObjSlot(UnsafeCell::new(p)))
    }
}
