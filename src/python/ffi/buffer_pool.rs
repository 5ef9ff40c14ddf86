//! Large result buffers kept for reuse.
//!
//! Note [Reused output buffers]: a fresh numpy buffer of a few megabytes is a
//! fresh mapping of memory: the allocator maps it, the kernel's first write to
//! each page faults, and the system zeroes the page before the kernel fills it.
//! Freeing it unmaps it again, so a loop that makes results of one size pays
//! that each time (a `layer_norm` forward and backward over 4096×1024 float32
//! spent 5.7 of its 11 ms in the system this way). Results of at least
//! `REUSE_MIN_BYTES` therefore come from a small pool: each entry is a 1-D
//! array that owns its memory (the *owner*), and the result is a view of it
//! with the result's shape, the owner as its base. An owner is free again when
//! the pool holds its only reference: every view of a result, and every view
//! numpy makes of those, keeps a reference to it (numpy collapses a view's base
//! to the array that owns the memory). A free owner of the same dtype and
//! length is handed out again; the pool holds at most `POOL_ENTRIES` owners and
//! `POOL_BYTES` bytes, and drops the least recently used free owners to make
//! room. Results keep numpy's semantics: a writeable view of an owning array
//! (`base` is the owner, as for any view).

use numpy::npyffi::{self, NpyTypes, PY_ARRAY_API};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::GILProtected;
use std::cell::RefCell;
use std::os::raw::c_int;

/// Results at least this large come from the pool.
pub const REUSE_MIN_BYTES: usize = 1 << 18;
/// The most owners the pool keeps.
const POOL_ENTRIES: usize = 32;
/// The most bytes the pool's owners hold together.
const POOL_BYTES: usize = 256 << 20;

/// A pooled owner: a 1-D array of `len` elements of numpy type `type_num`.
struct Owner {
    array: PyObject,
    type_num: c_int,
    len: usize,
    bytes: usize,
}

impl Owner {
    /// Whether only the pool refers to the owner (no result views it any more).
    fn is_free(&self) -> bool {
        // SAFETY: a live object the pool holds a reference to; reading its
        // reference count is a field read (the GIL is held: `POOL` is reached
        // only through `GILProtected`).
        unsafe { ffi::Py_REFCNT(self.array.as_ptr()) == 1 }
    }
}

/// The pool, least recently used first.
static OWNERS: GILProtected<RefCell<Vec<Owner>>> = GILProtected::new(RefCell::new(Vec::new()));

/// A new C-contiguous array of numpy type `type_num` and shape `dims`, over `data`
/// (numpy's fresh buffer when null), its base `owner` when given.
///
/// # Safety
/// The GIL is held; `dims` holds at most 32 non-negative sizes; `data`, when not
/// null, is the memory of `owner`, which holds at least as many bytes as the array
/// needs, aligned for `type_num`, and is writeable.
unsafe fn new_array<'py>(
    py: Python<'py>,
    type_num: c_int,
    dims: &[isize],
    data: *mut std::ffi::c_void,
    owner: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: as this function requires: `PyArray_DescrFromType` returns a new
    // reference to a builtin descr, which `PyArray_NewFromDescr` steals; `dims`
    // is only read and copied (the `*mut` of the C signature is historical).
    // With `data` given, flags ask for a writeable C-contiguous array over it,
    // and `PyArray_SetBaseObject` steals the reference to `owner` added here,
    // which keeps the memory alive as long as the array.
    unsafe {
        let array_type = PY_ARRAY_API.get_type_object(py, NpyTypes::PyArray_Type);
        let descr = PY_ARRAY_API.PyArray_DescrFromType(py, type_num);
        if descr.is_null() {
            return Err(PyErr::fetch(py));
        }
        let flags = if data.is_null() {
            0
        } else {
            npyffi::NPY_ARRAY_CARRAY
        };
        let obj = PY_ARRAY_API.PyArray_NewFromDescr(
            py,
            array_type,
            descr,
            dims.len() as c_int,
            dims.as_ptr() as *mut npyffi::npy_intp,
            std::ptr::null_mut(),
            data,
            flags,
            std::ptr::null_mut(),
        );
        let obj = Bound::from_owned_ptr_or_err(py, obj)?;
        if let Some(owner) = owner {
            ffi::Py_INCREF(owner.as_ptr());
            let rc = PY_ARRAY_API.PyArray_SetBaseObject(
                py,
                obj.as_ptr() as *mut npyffi::PyArrayObject,
                owner.as_ptr(),
            );
            if rc < 0 {
                return Err(PyErr::fetch(py));
            }
        }
        Ok(obj)
    }
}

/// The data pointer of an array this module made.
fn data_of(array: &Bound<'_, PyAny>) -> *mut std::ffi::c_void {
    // SAFETY: `array` is an ndarray made by `new_array` (exact type), whose
    // struct outlives the borrow; reading `data` is a field read.
    unsafe { (*(array.as_ptr() as *const npyffi::PyArrayObject)).data as *mut std::ffi::c_void }
}

/// A new C-contiguous array of numpy type `type_num`, shape `dims` (at most 32
/// non-negative sizes) and `bytes` bytes: a view of a pooled owner when `bytes`
/// is at least `REUSE_MIN_BYTES` (Note [Reused output buffers]), else numpy's
/// own fresh array. Its elements are uninitialised.
pub fn result_array<'py>(
    py: Python<'py>,
    type_num: c_int,
    dims: &[isize],
    len: usize,
    bytes: usize,
) -> PyResult<Bound<'py, PyAny>> {
    debug_assert!(dims.len() <= 32 && dims.iter().all(|&d| d >= 0));
    if bytes < REUSE_MIN_BYTES {
        // SAFETY: GIL held, dims as required; numpy allocates the buffer.
        return unsafe { new_array(py, type_num, dims, std::ptr::null_mut(), None) };
    }
    let owner = match reuse(py, type_num, len) {
        Some(owner) => owner,
        None if make_room(py, bytes) => {
            // SAFETY: GIL held; one size, non-negative; numpy allocates the buffer.
            let owner =
                unsafe { new_array(py, type_num, &[len as isize], std::ptr::null_mut(), None)? };
            OWNERS.get(py).borrow_mut().push(Owner {
                array: owner.clone().unbind(),
                type_num,
                len,
                bytes,
            });
            owner
        }
        // Every kept buffer is in use: numpy's own array, as for a small result.
        // SAFETY: GIL held, dims as required; numpy allocates the buffer.
        None => return unsafe { new_array(py, type_num, dims, std::ptr::null_mut(), None) },
    };
    // SAFETY: GIL held, dims as required; `owner` is a fresh, writeable,
    // C-contiguous array of `len` elements of `type_num`, which the result's
    // `len` elements of the same type fill exactly.
    unsafe { new_array(py, type_num, dims, data_of(&owner), Some(&owner)) }
}

/// A free pooled owner of `len` elements of `type_num`, moved to the most
/// recently used end.
fn reuse(py: Python<'_>, type_num: c_int, len: usize) -> Option<Bound<'_, PyAny>> {
    let mut owners = OWNERS.get(py).borrow_mut();
    let at = owners
        .iter()
        .rposition(|o| o.type_num == type_num && o.len == len && o.is_free())?;
    let owner = owners.remove(at);
    let array = owner.array.clone_ref(py).into_bound(py);
    owners.push(owner);
    Some(array)
}

/// Whether the pool has room for an owner of `bytes` bytes, after dropping least
/// recently used free owners as needed (none when the owners in use leave no room).
fn make_room(py: Python<'_>, bytes: usize) -> bool {
    let (room, dropped) = {
        let mut owners = OWNERS.get(py).borrow_mut();
        let mut total: usize = owners.iter().map(|o| o.bytes).sum();
        let mut dropped = Vec::new();
        let mut i = 0;
        while (owners.len() >= POOL_ENTRIES || total + bytes > POOL_BYTES) && i < owners.len() {
            if owners[i].is_free() {
                total -= owners[i].bytes;
                dropped.push(owners.remove(i));
            } else {
                i += 1;
            }
        }
        (
            owners.len() < POOL_ENTRIES && total + bytes <= POOL_BYTES,
            dropped,
        )
    };
    // Released after the pool's borrow ends.
    drop(dropped);
    room
}

/// `(owners, bytes, owners in use)` of the pool.
pub fn stats(py: Python<'_>) -> (usize, usize, usize) {
    let owners = OWNERS.get(py).borrow();
    (
        owners.len(),
        owners.iter().map(|o| o.bytes).sum(),
        owners.iter().filter(|o| !o.is_free()).count(),
    )
}

/// Drop every free owner; the owners in use stay.
pub fn release(py: Python<'_>) {
    let dropped: Vec<Owner> = {
        let mut owners = OWNERS.get(py).borrow_mut();
        let (free, used): (Vec<Owner>, Vec<Owner>) = owners.drain(..).partition(|o| o.is_free());
        *owners = used;
        free
    };
    drop(dropped);
}
