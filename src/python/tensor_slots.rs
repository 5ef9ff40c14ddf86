//! The object fields of `TensorBase` and the struct members that expose them.
//!
//! Note [Tensor slots]: a tensor's state lives in `TensorBase` as an array of
//! object pointers, one per [`Field`]. Python reads and writes each one
//! through a writable `Py_T_OBJECT_EX` struct member (`PyMemberDef`) that
//! this module installs on the type at module init, with the field's offset
//! measured once on a real instance. CPython then treats `t._data`,
//! `t._grad_fn = fn`, ... exactly as `__slots__` slots: the interpreter's
//! `LOAD_ATTR_SLOT`/`STORE_ATTR_SLOT` specializations read and write the
//! pointer in place, with no call into Rust and no dictionary. (PyO3's
//! `#[pyo3(get)]` on a `Py<T>` field of a frozen class makes the same kind of
//! member, but read-only.)
//!
//! All access happens with the GIL held (CPython's member code and ours), which
//! is what makes the `UnsafeCell` sound in a frozen (shared-reference) class.
//! A field is NULL only when [`Init::Null`] says so (`_data` of a tensor
//! under construction, which raises `AttributeError` until set) or after the
//! cyclic GC cleared it, or after `del t.<field>`; Rust readers treat NULL as
//! "absent".

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::AsPyPointer;
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
    /// A slot owning a new reference to `obj` (NULL for `None`).
    pub fn new(obj: Option<&Bound<'_, PyAny>>) -> Self {
        ObjSlot(UnsafeCell::new(
            obj.map_or(ptr::null_mut(), |o| o.clone().into_ptr()),
        ))
    }

    /// The raw pointer (borrowed, possibly NULL).
    #[inline]
    pub fn ptr(&self) -> *mut ffi::PyObject {
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

/// What a field holds in a new tensor.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Init {
    /// Unset: reading raises `AttributeError` until the field is written.
    Null,
    /// `None`.
    None,
    /// The cpu device object (`opyard.device("cpu")`, one shared object).
    Cpu,
    /// The int `0`.
    Zero,
    /// `False`.
    False,
}

macro_rules! fields {
    ($($variant:ident = $name:literal, $default:ident, $doc:literal;)*) => {
        /// The object fields of a tensor, in slot order. See Note [Tensor slots].
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        #[repr(usize)]
        pub enum Field { $(#[doc = $doc] $variant,)* }

        /// Number of object fields.
        pub const FIELD_COUNT: usize = [$(Field::$variant),*].len();

        /// Every field with its Python name and default, in slot order.
        pub const FIELDS: [(Field, &CStr, Init); FIELD_COUNT] =
            [$((Field::$variant, $name, Init::$default)),*];
    };
}

fields! {
    Data = c"_data", Null, "The storage: a numpy (or cupy) array; meta, fake and wrapper tensors hold a zero-stride broadcast of their shape.";
    Dev = c"_dev", Cpu, "The device object (`opyard.device`).";
    Base = c"_base", None, "The tensor this one views (its root), or None.";
    Grad = c"_grad", None, "The accumulated gradient (`.grad`), or None.";
    GradFn = c"_grad_fn", None, "The node that produced this tensor, or None for a leaf.";
    OutputNr = c"_output_nr", Zero, "Which output of `_grad_fn` this tensor is.";
    Vc = c"_vc", None, "The version counter (`_core._VersionCounter`), shared with every view of one root; created on first use.";
    RetainsGrad = c"_retains_grad", False, "Whether `retain_grad()` was called on this non-leaf.";
    GradAccumulator = c"_grad_accumulator", None, "A weak reference to the leaf's `AccumulateGrad` node, or None.";
    BackwardHooks = c"_backward_hooks", None, "A leaf's gradient hooks (a dict by handle id), or None.";
    PostAccumulateHooks = c"_post_accumulate_hooks", None, "A leaf's post-accumulate-grad hooks, or None.";
    FwGrad = c"_fw_grad", None, "The forward-mode tangent, or None.";
    ViewFn = c"_view_fn", None, "How autograd replays this view from its base, or None.";
    MetaStrides = c"_meta_strides", None, "Strides in elements when they are not the data's own (meta, fake and wrapper tensors), or None.";
    MetaOffset = c"_meta_offset", Zero, "Storage offset in elements of a meta view.";
    SymShape = c"_sym_shape", None, "Symbolic sizes of a fake tensor, or None.";
    SymStrides = c"_sym_strides", None, "Symbolic strides of a fake tensor, or None.";
    FakeMode = c"_fake_mode", None, "The `FakeTensorMode` a fake tensor belongs to, or None.";
    FakeStorage = c"_fake_storage", None, "The fake storage of a fake root tensor, or None.";
    PythonMeta = c"_python_meta", Zero, "Which metadata queries the class's `__torch_dispatch__` answers (bits: sizes, strides, device, layout; 0 for none).";
}

impl Field {
    /// The field's Python attribute name.
    pub fn name(self) -> &'static CStr {
        FIELDS[self as usize].1
    }

    /// The field called `name`.
    pub fn by_name(name: &str) -> Option<Field> {
        FIELDS
            .iter()
            .find(|(_, n, _)| n.to_bytes() == name.as_bytes())
            .map(|(f, _, _)| *f)
    }
}

/// Install one writable `Py_T_OBJECT_EX` member per field on `owner` (the
/// `TensorBase` type) and return the descriptors' count. `slots_offset` is the
/// byte offset of the first slot from the start of the object.
pub fn install_members(
    owner: &Bound<'_, pyo3::types::PyType>,
    slots_offset: usize,
) -> PyResult<()> {
    for (field, name, _) in FIELDS {
        let descr = member_descr(owner, name, slots_offset, field, false)?;
        owner.setattr(name.to_str().expect("ascii field name"), descr)?;
    }
    Ok(())
}

/// A member descriptor of `owner` reading (and unless `readonly`, writing) `field`, named `name`.
pub fn member_descr<'py>(
    owner: &Bound<'py, pyo3::types::PyType>,
    name: &'static CStr,
    slots_offset: usize,
    field: Field,
    readonly: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let offset = slots_offset + field as usize * std::mem::size_of::<ObjSlot>();
    // The descriptor keeps a pointer to its definition: one leaked `PyMemberDef`
    // per descriptor, made a bounded number of times (at init, and per alias).
    let def: &'static mut ffi::PyMemberDef = Box::leak(Box::new(ffi::PyMemberDef {
        name: name.as_ptr(),
        type_code: ffi::Py_T_OBJECT_EX,
        offset: offset as ffi::Py_ssize_t,
        flags: if readonly { ffi::Py_READONLY } else { 0 },
        doc: ptr::null(),
    }));
    // SAFETY: `owner` is a live type object; `def` lives forever and describes
    // an object-pointer field at `offset` in every instance of `owner` (see
    // `slots_offset` in tensor.rs, measured on an instance).
    unsafe {
        let descr = ffi::PyDescr_NewMember(owner.as_ptr().cast(), def);
        Bound::from_owned_ptr_or_err(owner.py(), descr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_discriminants_index_the_table() {
        for (i, (field, _, _)) in FIELDS.iter().enumerate() {
            assert_eq!(*field as usize, i, "{field:?} is out of slot order");
        }
        assert_eq!(FIELDS.len(), FIELD_COUNT);
    }

    #[test]
    fn names_are_private_unique_and_found_again() {
        for (field, name, _) in FIELDS {
            let name = name.to_str().unwrap();
            assert!(
                name.starts_with('_'),
                "{name}: fields are private attributes"
            );
            assert_eq!(Field::by_name(name), Some(field));
            assert_eq!(field.name().to_str().unwrap(), name);
        }
        assert_eq!(Field::by_name("grad"), None);
        assert_eq!(Field::by_name(""), None);
    }

    #[test]
    fn only_data_starts_unset() {
        let unset: Vec<_> = FIELDS
            .iter()
            .filter(|f| f.2 == Init::Null)
            .map(|f| f.0)
            .collect();
        assert_eq!(unset, [Field::Data]);
        assert_eq!(FIELDS[Field::Dev as usize].2, Init::Cpu);
    }

    #[test]
    fn a_slot_is_one_pointer() {
        // The member offsets assume slots are laid out as an array of object pointers.
        // (No slot is made here: dropping one calls into libpython, which test binaries do not link.)
        assert_eq!(
            std::mem::size_of::<ObjSlot>(),
            std::mem::size_of::<*mut ffi::PyObject>()
        );
    }
}
