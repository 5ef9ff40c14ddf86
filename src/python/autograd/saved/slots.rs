//! `SavedTensor`'s `__slots__` read and written in place.
//!
//! Note [SavedTensor slots]: `SavedTensor` (`autograd/graph.py`) is a Python
//! class with five `__slots__` (`tensor`, `version`, `is_output`,
//! `node_name`, `output_nr`). Each slot is an object pointer at a fixed
//! offset in the instance, which its member descriptor records. The layout is
//! read once from the class's own descriptors, and only used when all five
//! are plain writable object members (`Py_T_OBJECT_EX`) inside the instance;
//! otherwise (a changed class) the callers set and read them as attributes.
//! Writes go only to a fresh instance (zeroed by `tp_alloc`: no old value to
//! release); reads borrow, and must not outlive the next Python call.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyType;

/// The slots in `SavedTensor.__init__`'s argument order.
const NAMES: [&str; 5] = ["tensor", "version", "is_output", "node_name", "output_nr"];

/// A slot of `SavedTensor`, by its position in [`NAMES`].
#[derive(Clone, Copy)]
pub enum Slot {
    Tensor = 0,
    Version = 1,
    IsOutput = 2,
    NodeName = 3,
    OutputNr = 4,
}

/// The byte offsets of the five slots in an instance of one class.
#[derive(Clone, Copy)]
pub struct SlotLayout([isize; 5]);

impl SlotLayout {
    /// The layout of `ty`'s own slots, or None when any is not a plain object member.
    pub fn of(ty: &Bound<'_, PyType>) -> PyResult<Option<SlotLayout>> {
        let dict = ty.getattr(pyo3::intern!(ty.py(), "__dict__"))?;
        // SAFETY: `ty` is a live, ready type object.
        let size = unsafe { (*ty.as_type_ptr()).tp_basicsize };
        let word = std::mem::size_of::<*mut ffi::PyObject>() as isize;
        let mut offsets = [0isize; 5];
        for (at, name) in offsets.iter_mut().zip(NAMES) {
            let Ok(d) = dict.get_item(name) else {
                return Ok(None);
            };
            // Taking the address of the static type object reads nothing.
            let member_type = std::ptr::addr_of_mut!(ffi::PyMemberDescr_Type);
            if d.get_type_ptr() != member_type {
                return Ok(None);
            }
            // SAFETY: `d` is a member descriptor (its type was checked above), laid
            // out as `PyMemberDescrObject`, whose `d_member` points at the member's
            // `PyMemberDef` for the descriptor's lifetime (pyo3-ffi types the field
            // as `PyGetSetDef`; CPython declares it `PyMemberDef`).
            let def = unsafe {
                let descr = d.as_ptr().cast::<ffi::PyMemberDescrObject>();
                &*(*descr).d_member.cast::<ffi::PyMemberDef>()
            };
            let inside = def.offset >= 2 * word && def.offset + word <= size;
            if def.type_code != ffi::Py_T_OBJECT_EX || def.flags != 0 || !inside {
                return Ok(None);
            }
            *at = def.offset;
        }
        Ok(Some(SlotLayout(offsets)))
    }

    fn at(&self, obj: *mut ffi::PyObject, slot: Slot) -> *mut *mut ffi::PyObject {
        // The offset was checked to lie inside the instance (`of`); the pointer
        // is only dereferenced by the unsafe callers below.
        obj.cast::<u8>()
            .wrapping_offset(self.0[slot as usize])
            .cast()
    }

    /// Stores `value` in `slot` of the fresh instance `obj`.
    ///
    /// # Safety
    /// `obj` is a live instance of the class this layout was read from, just
    /// allocated (the slot holds NULL, so nothing is released).
    pub unsafe fn init(&self, obj: &Bound<'_, PyAny>, slot: Slot, value: &Bound<'_, PyAny>) {
        let p = self.at(obj.as_ptr(), slot);
        debug_assert!((*p).is_null());
        *p = value.clone().into_ptr();
    }

    /// The object in `slot` of `obj` (None when unset).
    ///
    /// # Safety
    /// `obj` is a live instance of the class this layout was read from; the
    /// result is valid only until Python code runs (which may replace the slot).
    pub unsafe fn get<'a, 'py>(
        &self,
        obj: &'a Bound<'py, PyAny>,
        slot: Slot,
    ) -> Option<Borrowed<'a, 'py, PyAny>> {
        Borrowed::from_ptr_or_opt(obj.py(), *self.at(obj.as_ptr(), slot))
    }
}
