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

// Note [Class pointers kept]: PyO3 finds a `#[pyclass]`'s type object through
// its lazy type cell on every `downcast::<T>()` / `is_instance_of::<T>()`:
// about 35 instructions of once-cell checks and result handling before the
// type compare, paid several times per operator call (the result's type test,
// a fake tensor's device, the kernel's class). A `ClassPtr<T>` static keeps
// the pointer after the first use; PyO3 never frees a class's type object, so
// the pointer stays valid for the life of the process. A test is then one load
// and a compare, with CPython's subtype walk only for subclasses.

/// `T`'s type object, found once. See Note [Class pointers kept].
pub struct ClassPtr<T> {
    ptr: std::sync::atomic::AtomicPtr<pyo3::ffi::PyTypeObject>,
    _t: PhantomData<fn() -> T>,
}

impl<T: PyTypeInfo> ClassPtr<T> {
    pub const fn new() -> Self {
        ClassPtr {
            ptr: std::sync::atomic::AtomicPtr::new(std::ptr::null_mut()),
            _t: PhantomData,
        }
    }

    #[inline]
    fn get(&self, py: Python<'_>) -> *mut pyo3::ffi::PyTypeObject {
        let p = self.ptr.load(Ordering::Relaxed);
        if p.is_null() {
            self.find(py)
        } else {
            p
        }
    }

    #[cold]
    fn find(&self, py: Python<'_>) -> *mut pyo3::ffi::PyTypeObject {
        let p = T::type_object_raw(py);
        self.ptr.store(p, Ordering::Relaxed);
        p
    }

    /// Whether `obj` is a `T` (its class or a subclass).
    #[inline]
    pub fn is_instance(&self, obj: &Bound<'_, PyAny>) -> bool {
        let (t, c) = (obj.get_type_ptr(), self.get(obj.py()));
        // SAFETY: both are live type objects (`obj`'s own, and `T`'s, never freed).
        t == c || unsafe { pyo3::ffi::PyType_IsSubtype(t, c) } != 0
    }

    /// `obj` as a `T` when it is one (its class or a subclass).
    #[inline]
    pub fn downcast<'a, 'py>(&self, obj: &'a Bound<'py, PyAny>) -> Option<&'a Bound<'py, T>> {
        // SAFETY: `obj`'s type is `T`'s class or a subclass of it.
        self.is_instance(obj)
            .then(|| unsafe { obj.downcast_unchecked::<T>() })
    }

    /// `obj` as a `T` when its type is exactly `T`'s class.
    #[inline]
    pub fn downcast_exact<'a, 'py>(&self, obj: &'a Bound<'py, PyAny>) -> Option<&'a Bound<'py, T>> {
        // SAFETY: `obj`'s type is exactly `T`'s class.
        (obj.get_type_ptr() == self.get(obj.py())).then(|| unsafe { obj.downcast_unchecked::<T>() })
    }
}

impl<T: PyTypeInfo> Default for ClassPtr<T> {
    fn default() -> Self {
        Self::new()
    }
}
