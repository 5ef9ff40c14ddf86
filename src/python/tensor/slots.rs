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

pub use crate::python::ffi::members::{member_descr, ObjSlot, SlotsOffset};
use pyo3::prelude::*;
use std::ffi::CStr;

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
    ViewMeta = c"_view_meta", None, "How autograd made this view and when: `version << 2 | kind` (see Note [View history]), or None.";
    MetaStrides = c"_meta_strides", None, "Strides in elements when they are not the data's own (meta, fake and wrapper tensors), or None.";
    MetaOffset = c"_meta_offset", Zero, "Storage offset in elements of a meta view.";
    SymShape = c"_sym_shape", None, "Symbolic sizes of a fake tensor, or None.";
    SymStrides = c"_sym_strides", None, "Symbolic strides of a fake tensor, or None.";
    FakeMode = c"_fake_mode", None, "The `FakeTensorMode` a fake tensor belongs to, or None.";
    FakeStorage = c"_fake_storage", None, "The fake storage of a fake root tensor, or None.";
    PythonMeta = c"_python_meta", Zero, "Which metadata queries the class's `__torch_dispatch__` answers (bits: sizes, strides, device, layout; 0 for none).";
    BatchValue = c"_value", None, "A `vmap` batched tensor's physical tensor (every example, batch dim 0), or None (Note [Batched tensors in Rust]).";
    BatchLevel = c"_level", None, "The `vmap` level a batched tensor belongs to (an int), or None.";
    FixedStorage = c"_fixed_storage", False, "Whether the memory came from outside (`from_numpy`, `from_dlpack`, `as_tensor` of an array): it cannot grow, as torch's storage of such memory is not resizable.";
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
/// `TensorBase` type), reading the slots at `offset` (Note [Tensor slots]).
pub fn install_members(
    owner: &Bound<'_, pyo3::types::PyType>,
    offset: SlotsOffset,
) -> PyResult<()> {
    for (field, name, _) in FIELDS {
        let descr = member_descr(owner, name, offset, field as usize, false)?;
        owner.setattr(name.to_str().expect("ascii field name"), descr)?;
    }
    Ok(())
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
            std::mem::size_of::<*mut std::ffi::c_void>()
        );
    }
}
