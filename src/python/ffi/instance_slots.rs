//! A Python class's `__slots__` read and written in place.
//!
//! Note [SavedTensor slots]: `SavedTensor` (`autograd/graph.py`) is a Python
//! class with five `__slots__` (`tensor`, `version`, `is_output`,
//! `node_name`, `output_nr`). Each slot is an object pointer at a fixed
//! offset in the instance, which its member descriptor records. The layout is
//! read once from the class's own descriptors (`of`: a subclass, which may
//! have an `__init__` of its own, is called instead), or its own and its
//! bases' (`of_inherited`, for a class used exactly), and only used when every
//! slot is a plain writable object member (`Py_T_OBJECT_EX`) inside the
//! instance; otherwise (a changed class) the callers set and read them as
//! attributes. Fresh instances are written without their `__init__` (zeroed
//! by `tp_alloc`: no old value to release); reads take a new reference; `set`
//! replaces a value as the slot's setter does. vmap's level record
//! (`VmapLevel`) and a rule's `VmapInfo` are made and read the same way (Note
//! [vmap's function in Rust]).

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyType;

/// The byte offsets of `N` object slots in the instances of one class.
pub struct SlotLayout<const N: usize> {
    ty: Py<PyType>,
    offsets: [isize; N],
}

impl<const N: usize> SlotLayout<N> {
    /// The layout of `ty`'s own slots `names`, or None when any is not a
    /// plain writable object member of `ty` itself (a subclass that declares
    /// none of them, and may have an `__init__` of its own, gets None).
    pub fn of(ty: &Bound<'_, PyType>, names: [&str; N]) -> PyResult<Option<Self>> {
        let dict = ty.getattr(pyo3::intern!(ty.py(), "__dict__"))?;
        Self::read(ty, names, |name| dict.get_item(name).ok())
    }

    /// The layout of `ty`'s slots `names`, each its own or a base's (what the
    /// class attribute of that name is), or None when any is not a plain
    /// writable object member inside `ty`'s instances.
    pub fn of_inherited(ty: &Bound<'_, PyType>, names: [&str; N]) -> PyResult<Option<Self>> {
        // A member descriptor read from its class is the descriptor itself.
        Self::read(ty, names, |name| ty.getattr(name).ok())
    }

    fn read<'py>(
        ty: &Bound<'py, PyType>,
        names: [&str; N],
        lookup: impl Fn(&str) -> Option<Bound<'py, PyAny>>,
    ) -> PyResult<Option<Self>> {
        let size = super::object::basic_size(ty);
        let word = std::mem::size_of::<*mut ffi::PyObject>() as isize;
        let mut offsets = [0isize; N];
        for (at, name) in offsets.iter_mut().zip(names) {
            let Some(d) = lookup(name) else {
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
        Ok(Some(SlotLayout {
            ty: ty.clone().unbind(),
            offsets,
        }))
    }

    /// The class this layout was read from.
    pub fn class<'py>(&self, py: Python<'py>) -> &Bound<'py, PyType> {
        self.ty.bind(py)
    }

    fn at(&self, obj: &Bound<'_, PyAny>, slot: usize) -> *mut *mut ffi::PyObject {
        obj.as_ptr()
            .cast::<u8>()
            .wrapping_offset(self.offsets[slot])
            .cast()
    }

    /// A new instance of the class with slot `i` holding `values[i]`,
    /// without its `__init__` (a new reference is stored in each slot).
    pub fn new_instance<'py>(
        &self,
        py: Python<'py>,
        values: [&Bound<'py, PyAny>; N],
    ) -> PyResult<Bound<'py, PyAny>> {
        let t = self.ty.bind(py).as_type_ptr();
        // SAFETY: `t` is a live, ready type object; `tp_alloc` is set on every
        // ready type (`PyType_GenericAlloc` unless overridden) and returns a
        // new, zeroed instance or NULL with an exception set.
        let obj = unsafe {
            let alloc = (*t).tp_alloc.unwrap_or(ffi::PyType_GenericAlloc);
            Bound::from_owned_ptr_or_err(py, alloc(t, 0))?
        };
        for (i, v) in values.into_iter().enumerate() {
            let p = self.at(&obj, i);
            // SAFETY: `obj` is a fresh instance of the class, whose object slot
            // `i` lies at this offset inside it (checked in `of`) and holds NULL
            // (zeroed), so storing a new reference is what the slot's setter
            // would do, with nothing to release.
            unsafe { *p = v.clone().into_ptr() };
        }
        Ok(obj)
    }

    /// The object in slot `i` of `obj` (None when unset, or when `obj` is not
    /// exactly an instance of this layout's class).
    pub fn get<'py>(&self, obj: &Bound<'py, PyAny>, i: usize) -> Option<Bound<'py, PyAny>> {
        if obj.get_type_ptr() != self.ty.as_ptr().cast() {
            return None;
        }
        // SAFETY: `obj` is a live instance of the class, whose object slot `i`
        // lies at this offset (checked in `of`); `from_borrowed_ptr_or_opt`
        // takes a new reference to what it holds (NULL: unset).
        unsafe { Bound::from_borrowed_ptr_or_opt(obj.py(), *self.at(obj, i)) }
    }
}

impl<const N: usize> SlotLayout<N> {
    /// Store `value` in slot `i` of `obj` (releasing what it held), as the
    /// slot's setter does; false (nothing done) when `obj` is not exactly an
    /// instance of this layout's class.
    pub fn set(&self, obj: &Bound<'_, PyAny>, i: usize, value: &Bound<'_, PyAny>) -> bool {
        if obj.get_type_ptr() != self.ty.as_ptr().cast() {
            return false;
        }
        let p = self.at(obj, i);
        // SAFETY: `obj` is a live instance of the class, whose object slot `i`
        // lies at this offset (checked in `of`); it owns what it holds (or NULL).
        // The new reference is stored before the old one is released, so the
        // release (which may run a finalizer) sees the slot already updated.
        unsafe {
            let old = std::mem::replace(&mut *p, value.clone().into_ptr());
            ffi::Py_XDECREF(old);
        }
        true
    }
}

impl<const N: usize> Clone for SlotLayout<N> {
    fn clone(&self) -> Self {
        Python::with_gil(|py| SlotLayout {
            ty: self.ty.clone_ref(py),
            offsets: self.offsets,
        })
    }
}
