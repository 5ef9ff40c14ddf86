//! A fixed set of Python types recognised by pointer compare on a hot path
//! (plain tensor types for the binder, types the Rust kernels accept), each
//! checked once, when registered, to be a subclass of the Rust class `T`:
//! an object of exactly one of these types is a `T` without another check.

use pyo3::prelude::*;
use pyo3::types::PyType;
use pyo3::PyTypeInfo;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Up to `N` types, subclasses of `T`; unused slots hold 0 (never a type's address).
pub struct TypeSlots<T, const N: usize> {
    slots: [AtomicUsize; N],
    _t: PhantomData<fn() -> T>,
}

impl<T: PyTypeInfo, const N: usize> TypeSlots<T, N> {
    pub const fn new() -> Self {
        TypeSlots {
            slots: [const { AtomicUsize::new(0) }; N],
            _t: PhantomData,
        }
    }

    /// Put `cls` into the first free slot (a no-op when it is there already):
    /// `Ok(false)` when every slot holds another type, an error when `cls` is
    /// no subclass of `T`.
    pub fn register(&self, cls: &Bound<'_, PyType>) -> PyResult<bool> {
        if !super::object::is_subtype(cls, &T::type_object_bound(cls.py())) {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "{} is not a subclass of {}",
                cls.qualname()?,
                T::NAME
            )));
        }
        let ptr = cls.as_ptr() as usize;
        for slot in &self.slots {
            match slot.compare_exchange(0, ptr, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => {
                    // The type object must outlive every later compare: keep one reference forever.
                    std::mem::forget(cls.clone());
                    return Ok(true);
                }
                Err(existing) if existing == ptr => return Ok(true),
                Err(_) => {}
            }
        }
        Ok(false)
    }

    /// Whether `obj`'s type is exactly one of the registered types (the first
    /// registered is compared first).
    #[inline]
    pub fn holds(&self, obj: &Bound<'_, PyAny>) -> bool {
        let t = obj.get_type_ptr() as usize;
        self.slots[0].load(Ordering::Relaxed) == t
            || self.slots[1..]
                .iter()
                .any(|p| p.load(Ordering::Relaxed) == t)
    }

    /// `obj` as a `T` when its type is exactly one of the registered types.
    #[inline]
    pub fn downcast<'a, 'py>(&self, obj: &'a Bound<'py, PyAny>) -> Option<&'a Bound<'py, T>> {
        // SAFETY: every registered type is a subclass of `T` (checked by
        // `register`), and `obj`'s type is one of them.
        self.holds(obj)
            .then(|| unsafe { obj.downcast_unchecked::<T>() })
    }
}

/// A Python type checked, once, to be `T`'s class or a subclass of it: an
/// object of exactly this type is a `T` without another check, and new
/// instances are made without one.
pub struct SubclassOf<T> {
    ty: Py<PyType>,
    _t: PhantomData<fn() -> T>,
}

impl<T: PyTypeInfo> SubclassOf<T> {
    /// `ty`, or an error when it is no subclass of `T`.
    pub fn new(ty: Bound<'_, PyType>) -> PyResult<Self> {
        if !super::object::is_subtype(&ty, &T::type_object_bound(ty.py())) {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "{} is not a subclass of {}",
                ty.qualname()?,
                T::NAME
            )));
        }
        Ok(SubclassOf {
            ty: ty.unbind(),
            _t: PhantomData,
        })
    }

    #[inline]
    pub fn bind<'a, 'py>(&'a self, py: Python<'py>) -> &'a Bound<'py, PyType> {
        self.ty.bind(py)
    }

    /// The type object (for `__traverse__`).
    pub fn as_py(&self) -> &Py<PyType> {
        &self.ty
    }

    /// `obj` as a `T` when its type is exactly this one.
    #[inline]
    pub fn downcast_exact<'a, 'py>(&self, obj: &'a Bound<'py, PyAny>) -> Option<&'a Bound<'py, T>> {
        // SAFETY: this type is a subclass of `T` (checked by `new`) and
        // `obj`'s type is exactly it.
        (obj.get_type_ptr() == self.ty.as_ptr().cast())
            .then(|| unsafe { obj.downcast_unchecked::<T>() })
    }
}

impl<T: pyo3::PyClass> SubclassOf<T> {
    /// A new instance of this type holding `init` (PyO3's own `tp_new` body:
    /// no lookup of `__new__`, no argument tuple, no `__init__`).
    #[inline]
    pub fn new_instance<'py>(
        &self,
        py: Python<'py>,
        init: impl Into<pyo3::pyclass_init::PyClassInitializer<T>>,
    ) -> PyResult<Bound<'py, T>> {
        // SAFETY: the type is `T`'s or a subclass of it (checked by `new`).
        unsafe { super::object::new_instance_unchecked(py, init, self.ty.bind(py)) }
    }
}

impl<'py, T: PyTypeInfo> FromPyObject<'py> for SubclassOf<T> {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        SubclassOf::new(ob.downcast::<PyType>()?.clone())
    }
}

impl<T> Clone for SubclassOf<T> {
    fn clone(&self) -> Self {
        Python::with_gil(|py| SubclassOf {
            ty: self.ty.clone_ref(py),
            _t: PhantomData,
        })
    }
}

impl<T> IntoPy<PyObject> for SubclassOf<T> {
    fn into_py(self, _py: Python<'_>) -> PyObject {
        self.ty.into_any()
    }
}
