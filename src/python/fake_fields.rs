//! Reading a fake tensor's metadata fields for a cache key, without the
//! generic attribute machinery.
//!
//! Note [Reading fake tensor fields]: a key reads six attributes per tensor
//! (`fake_mode`, `_sym_shape`, `_dev`, `_meta_strides`, `_meta_offset` and
//! the `_data` slot). Looked up one by one, each costs a type-cache probe and
//! a dict probe. Instead the fake tensor class is read once into a
//! `ClassView` (the five names' class defaults and the `_data` slot's offset),
//! valid while the type's version tag is unchanged (CPython bumps the tag on
//! any change to the class or its bases, as its own attribute cache relies
//! on); the instance dict is then walked once, its entries overriding the
//! defaults. A name that is an object struct member on the class (a field of
//! `TensorBase`: see Note [Tensor slots]) is read at its offset instead, and no
//! dict entry overrides it (a data descriptor wins over the dict). The view is
//! refused (the caller takes the generic path) when one of the names is any
//! other descriptor, since that could run code or take precedence over the dict.

use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::cell::Cell;

/// The names a key reads from the dict or the class, in `Fields` order.
const NAMES: usize = 5;

/// Borrowed pointers to a fake tensor's fields (NULL: absent).
#[derive(Clone, Copy)]
pub struct Fields {
    /// `fake_mode`, `_sym_shape`, `_dev`, `_meta_strides`, `_meta_offset`.
    pub named: [*mut ffi::PyObject; NAMES],
    /// The `_data` slot.
    pub data: *mut ffi::PyObject,
}

/// The class side of `Fields`, cached per thread. See Note [Reading fake tensor fields].
#[derive(Clone, Copy)]
struct ClassView {
    ty: usize,
    tag: u32,
    defaults: [*mut ffi::PyObject; NAMES],
    /// The offset of each name's object slot when it is a struct member (0: not one).
    offsets: [ffi::Py_ssize_t; NAMES],
    data_offset: ffi::Py_ssize_t,
}

thread_local! {
    static VIEW: Cell<Option<ClassView>> = const { Cell::new(None) };
}

extern "C" {
    // CPython's attribute lookup along the MRO, through the type attribute
    // cache (borrowed reference or NULL, never an exception); not wrapped by
    // pyo3-ffi 0.22.
    fn _PyType_Lookup(ty: *mut ffi::PyTypeObject, name: *mut ffi::PyObject) -> *mut ffi::PyObject;
}

fn names(py: Python<'_>) -> [&Bound<'_, PyString>; NAMES] {
    [
        intern!(py, "fake_mode"),
        intern!(py, "_sym_shape"),
        intern!(py, "_dev"),
        intern!(py, "_meta_strides"),
        intern!(py, "_meta_offset"),
    ]
}

/// The version tag of `ty` if it has a valid one.
///
/// # Safety
/// `ty` is a live type object.
unsafe fn version_tag(ty: *mut ffi::PyTypeObject) -> Option<u32> {
    let valid = (*ty).tp_flags & ffi::Py_TPFLAGS_VALID_VERSION_TAG != 0;
    (valid && (*ty).tp_version_tag != 0).then_some((*ty).tp_version_tag)
}

/// Read `ty` into a view, or None if one of the names is a descriptor there
/// or `_data` is not an object slot.
///
/// # Safety
/// `ty` is a live type object; the GIL is held.
unsafe fn build_view(py: Python<'_>, ty: *mut ffi::PyTypeObject) -> Option<ClassView> {
    let mut defaults = [std::ptr::null_mut(); NAMES];
    let mut offsets = [0; NAMES];
    for ((slot, offset), name) in defaults.iter_mut().zip(offsets.iter_mut()).zip(names(py)) {
        let v = _PyType_Lookup(ty, name.as_ptr());
        if !v.is_null() && (*ffi::Py_TYPE(v)).tp_descr_get.is_some() {
            *offset = object_member_offset(v)?;
        } else {
            *slot = v;
        }
    }
    let data = _PyType_Lookup(ty, intern!(py, "_data").as_ptr());
    let data_offset = object_member_offset(data)?;
    // Looking the names up gave the type a valid tag if it had none.
    let tag = version_tag(ty)?;
    Some(ClassView {
        ty: ty as usize,
        tag,
        defaults,
        offsets,
        data_offset,
    })
}

/// The offset of the object slot `descr` reads, when it is a `Py_T_OBJECT_EX` struct member.
///
/// # Safety
/// `descr` is NULL or a live object; the GIL is held.
unsafe fn object_member_offset(descr: *mut ffi::PyObject) -> Option<ffi::Py_ssize_t> {
    if descr.is_null() || ffi::Py_TYPE(descr) != std::ptr::addr_of_mut!(ffi::PyMemberDescr_Type) {
        return None;
    }
    // pyo3-ffi types `d_member` as a getset def; it is a `PyMemberDef`.
    let member = (*(descr as *mut ffi::PyMemberDescrObject)).d_member as *const ffi::PyMemberDef;
    ((*member).type_code == ffi::Py_T_OBJECT_EX && (*member).offset > 0).then_some((*member).offset)
}

/// The thread's view of `ty`, refreshed if the class changed since.
///
/// # Safety
/// `ty` is a live type object; the GIL is held.
unsafe fn view_of(py: Python<'_>, ty: *mut ffi::PyTypeObject) -> Option<ClassView> {
    let cached = VIEW.try_with(Cell::get).ok().flatten();
    if let Some(v) = cached {
        if v.ty == ty as usize && version_tag(ty) == Some(v.tag) {
            return Some(v);
        }
    }
    let v = build_view(py, ty)?;
    let _ = VIEW.try_with(|c| c.set(Some(v)));
    Some(v)
}

/// `t`'s fields, or None when the class view does not apply (the caller
/// then reads them the generic way). The pointers are borrowed from `t` and
/// its class, valid while `t` is alive and nothing runs in between.
pub fn read(t: &Bound<'_, PyAny>) -> Option<Fields> {
    let py = t.py();
    let obj = t.as_ptr();
    // SAFETY: `obj` is live and the GIL is held. The view's offset is that of
    // an object slot of `obj`'s very class (same type, same version tag), so
    // the read is in bounds; the dict is walked with borrowed references and
    // no code runs during the walk (string comparison only).
    unsafe {
        let view = view_of(py, ffi::Py_TYPE(obj))?;
        let at =
            |offset: ffi::Py_ssize_t| *((obj as *mut u8).offset(offset) as *mut *mut ffi::PyObject);
        let mut fields = Fields {
            named: view.defaults,
            data: at(view.data_offset),
        };
        for (field, &offset) in fields.named.iter_mut().zip(&view.offsets) {
            if offset != 0 {
                *field = at(offset);
            }
        }
        let dictptr = ffi::_PyObject_GetDictPtr(obj);
        let dict = if dictptr.is_null() {
            std::ptr::null_mut()
        } else {
            *dictptr
        };
        if !dict.is_null() {
            let names = names(py);
            let mut pos: ffi::Py_ssize_t = 0;
            let mut key = std::ptr::null_mut();
            let mut value = std::ptr::null_mut();
            while ffi::PyDict_Next(dict, &mut pos, &mut key, &mut value) != 0 {
                if let Some(i) = name_index(key, &names) {
                    if view.offsets[i] == 0 {
                        fields.named[i] = value; // a struct member wins over the dict
                    }
                }
            }
        }
        Some(fields)
    }
}

/// Which of `names` the dict key `key` is.
///
/// # Safety
/// `key` is a live object.
unsafe fn name_index(
    key: *mut ffi::PyObject,
    names: &[&Bound<'_, PyString>; NAMES],
) -> Option<usize> {
    if let Some(i) = names.iter().position(|n| n.as_ptr() == key) {
        return Some(i);
    }
    // Attribute names are interned, so an interned key that is none of ours
    // is another name; a key that is not interned is compared by value.
    if ffi::PyUnicode_Check(key) == 0 || (*(key as *mut ffi::PyASCIIObject)).interned() != 0 {
        return None;
    }
    names
        .iter()
        .position(|n| ffi::PyUnicode_Compare(key, n.as_ptr()) == 0)
}

/// What a new instance of the fake tensor class needs stored, per the class
/// view: `_data` goes straight into its slot, and fields equal to the class
/// default (e.g. `_dev` on cpu) need no dict entry.
pub struct Init {
    view: ClassView,
}

impl Init {
    /// The view of `ty`, or None when it does not apply (store everything generically).
    pub fn of(ty: &Bound<'_, pyo3::types::PyType>) -> Option<Init> {
        // SAFETY: `ty` is a live type object and the GIL is held.
        unsafe { view_of(ty.py(), ty.as_type_ptr()).map(|view| Init { view }) }
    }

    /// Whether `value` is the class default of field `i` of `Fields::named`.
    pub fn is_default(&self, i: usize, value: &Bound<'_, PyAny>) -> bool {
        self.view.defaults[i] == value.as_ptr()
    }

    /// Store `data` into the `_data` slot of `t`, a new instance of the viewed class.
    pub fn set_data(&self, t: &Bound<'_, PyAny>, data: &Bound<'_, PyAny>) {
        debug_assert_eq!(unsafe { ffi::Py_TYPE(t.as_ptr()) } as usize, self.view.ty);
        // SAFETY: `t` is an instance of the viewed class (same version tag),
        // so the offset is its object slot; a new instance's slot is NULL, so
        // nothing is released (a non-NULL one is released after the store).
        unsafe {
            let slot =
                (t.as_ptr() as *mut u8).offset(self.view.data_offset) as *mut *mut ffi::PyObject;
            let old = std::mem::replace(&mut *slot, data.clone().into_ptr());
            if !old.is_null() {
                ffi::Py_DECREF(old);
            }
        }
    }
}
