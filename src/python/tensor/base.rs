//! `TensorBase`: a tensor's state (key set, storage, device, autograd fields).
//!
//! Any instance of `TensorBase` — `opyard.Tensor` and its subclasses — carries
//! its dispatch key set as one atomic u64, read by the call path without a
//! dictionary lookup or a Python call, and its other state in object slots
//! that Python reads and writes as struct members (Note [Tensor slots]).
//! A plain `opyard.Tensor` therefore has no `__dict__`.
//!
//! Rust code reads and writes a tensor through the typed accessors of
//! [`PyTensorBase`] (`data`/`set_data`, `device`, `base`, `grad`/`set_grad`,
//! `grad_fn`/`set_history`/`output_nr`, `counter`/`version`/`bump_version`,
//! `dtype`, `with_dims`, and `field`/`set_field` for the rest) and makes one
//! with [`new_tensor`], which allocates the registered `opyard.Tensor` type
//! directly. No accessor runs Python code except `dtype` on a dtype it has not
//! seen yet and `counter` when it creates a counter.

use crate::python::ffi::members::SlotDefaults;
use crate::python::ffi::ndarray::ArrayView;
use crate::python::ffi::object::{is_subtype, new_instance};
use crate::python::ffi::type_slots::ClassPtr;
use crate::python::hooks::hooks;
pub use crate::python::tensor::device::{_rename_privateuse1_backend, device_key, PyDevice};
use crate::python::tensor::slots::{Field, Init, ObjSlot, SlotsOffset, FIELDS};
use crate::python::tensor::version::{PyVersionCounter, VERSION_COUNTER};
use pyo3::exceptions::{PyAttributeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::{GILOnceCell, GILProtected};
use pyo3::types::{PyDict, PyTuple, PyType};
use pyo3::{PyTraverseError, PyVisit};
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// Base class of every tensor: the key set the dispatcher reads and the tensor's state.
#[pyclass(
    name = "TensorBase",
    module = "opyard._core",
    subclass,
    frozen,
    weakref
)]
pub struct PyTensorBase {
    keyset: AtomicU64,
    pub(crate) slots: [ObjSlot; FIELDS.len()],
    /// The last `Size` built by `shape`, reused while the data's sizes match it.
    pub(crate) shape: ObjSlot,
    /// This tensor's place in the creation order of tensors (process-wide, see [`BIRTHS`]).
    birth: u64,
}

/// `TensorBase`'s class, found once (Note [Class pointers kept], `ffi/type_slots.rs`).
pub static TENSOR_BASE: ClassPtr<PyTensorBase> = ClassPtr::new();

/// Tests for a `TensorBase` without PyO3's lazy class lookup: see Note [Class pointers kept].
pub trait AsTensorBase<'py> {
    /// Whether this is a `TensorBase` (any subclass).
    fn is_tensor_base(&self) -> bool;
    /// This object as a `TensorBase`, when it is one.
    fn as_tensor_base(&self) -> Option<&Bound<'py, PyTensorBase>>;
    /// This object as a `TensorBase`, else PyO3's `TypeError` for a failed downcast.
    fn to_tensor_base(&self) -> PyResult<&Bound<'py, PyTensorBase>>;
}

impl<'py> AsTensorBase<'py> for Bound<'py, PyAny> {
    #[inline]
    fn is_tensor_base(&self) -> bool {
        TENSOR_BASE.is_instance(self)
    }

    #[inline]
    fn as_tensor_base(&self) -> Option<&Bound<'py, PyTensorBase>> {
        TENSOR_BASE.downcast(self)
    }

    #[inline]
    fn to_tensor_base(&self) -> PyResult<&Bound<'py, PyTensorBase>> {
        match TENSOR_BASE.downcast(self) {
            Some(t) => Ok(t),
            None => Ok(self.downcast::<PyTensorBase>()?),
        }
    }
}

/// The number of tensors made so far: a tensor's `birth` is the count when it was made. A
/// function transform notes the count when it starts, so it tells the tensors made inside it
/// from those it captured (torch's "mutate a captured Tensor" check, `opyard/func/inplace.py`).
static BIRTHS: AtomicU64 = AtomicU64::new(0);

/// The `birth` the next tensor made gets.
#[pyfunction]
pub fn _next_birth() -> u64 {
    BIRTHS.load(Ordering::Relaxed)
}

/// Every field's default object (`None` for an unset field), per Note [Tensor slots].
pub(crate) fn default_values(py: Python<'_>) -> [Option<Bound<'_, PyAny>>; FIELDS.len()] {
    let none = py.None().into_bound(py);
    let cpu = CPU.get(py).map(|d| d.bind(py).clone().into_any());
    FIELDS.map(|(_, _, init)| match init {
        Init::Null => None,
        Init::None => Some(none.clone()),
        Init::Cpu => Some(cpu.clone().unwrap_or_else(|| none.clone())),
        Init::Zero => Some(0i64.into_py(py).into_bound(py)),
        Init::False => Some(false.into_py(py).into_bound(py)),
    })
}

/// `default_values`, made once at init (after the cpu device) for `fresh` and the
/// drop of a tensor state (Note [Default slots in bulk], `ffi/members.rs`).
pub(crate) static DEFAULTS: OnceLock<SlotDefaults<{ FIELDS.len() }>> = OnceLock::new();

pub(crate) static CPU: GILOnceCell<Py<PyDevice>> = GILOnceCell::new();
pub(crate) static SLOTS_OFFSET: GILOnceCell<SlotsOffset> = GILOnceCell::new();
/// `(numpy dtype, opyard dtype)` pairs already looked up, compared by identity.
static DTYPES: GILProtected<RefCell<Vec<(PyObject, PyObject)>>> =
    GILProtected::new(RefCell::new(Vec::new()));

impl PyTensorBase {
    /// A tensor state with every field at its default (Note [Tensor slots]).
    pub fn fresh(py: Python<'_>) -> Self {
        let slots = match DEFAULTS.get() {
            // The common case: the defaults' pointers copied, their counts added in bulk.
            Some(defaults) => defaults.fill(py),
            None => default_values(py).map(|d| ObjSlot::new(d.as_ref())),
        };
        PyTensorBase {
            keyset: AtomicU64::new(0),
            slots,
            shape: ObjSlot::new(None),
            birth: BIRTHS.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// This tensor's place in the creation order of tensors (see [`BIRTHS`]).
    #[inline]
    pub fn birth(&self) -> u64 {
        self.birth
    }

    /// The raw key set.
    #[inline]
    pub fn keys(&self) -> u64 {
        self.keyset.load(Ordering::Relaxed)
    }

    /// Replace the raw key set.
    #[inline]
    pub fn set_keys(&self, raw: u64) {
        self.keyset.store(raw, Ordering::Relaxed);
    }

    /// A new reference to `field`, `None` when it is unset (NULL).
    #[inline]
    pub fn field<'py>(&self, py: Python<'py>, field: Field) -> Option<Bound<'py, PyAny>> {
        self.slots[field as usize].get(py)
    }

    /// Whether `field` holds exactly `obj` (no reference taken, nothing read).
    #[inline]
    pub fn field_is(&self, field: Field, obj: &Bound<'_, PyAny>) -> bool {
        self.slots[field as usize].address() == obj.as_ptr() as usize
    }

    /// Run `f` on the sizes of the storage when it is a numpy array (no Python call).
    pub fn with_dims<R>(&self, py: Python<'_>, f: impl FnOnce(&[isize]) -> R) -> Option<R> {
        let data = self.data(py)?;
        ArrayView::of(&data).map(|a| f(a.dims()))
    }

    /// Store `value` in `field` (`None` leaves it unset: reads raise `AttributeError`).
    #[inline]
    pub fn set_field(&self, field: Field, value: Option<&Bound<'_, PyAny>>) {
        self.slots[field as usize].set(value);
    }

    /// `field`, with an unset field and Python's `None` both read as `None`.
    #[inline]
    fn optional<'py>(&self, py: Python<'py>, field: Field) -> Option<Bound<'py, PyAny>> {
        self.field(py, field).filter(|v| !v.is_none())
    }

    /// The address of what this tensor's data belongs to: its view base (`_base`),
    /// else `own`, the tensor's own address. Nothing is read, no reference taken.
    #[inline]
    pub fn storage_address(&self, py: Python<'_>, own: usize) -> usize {
        let base = self.slots[Field::Base as usize].address();
        if base == 0 || base == pyo3::types::PyNone::get_bound(py).as_ptr() as usize {
            own
        } else {
            base
        }
    }

    /// The storage array (`_data`), `None` while unset.
    pub fn data<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.field(py, Field::Data)
    }

    /// Replace the storage array.
    pub fn set_data(&self, array: &Bound<'_, PyAny>) {
        self.set_field(Field::Data, Some(array));
    }

    /// The device object.
    pub fn device<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.field(py, Field::Dev)
    }

    /// The root tensor this one views, if any.
    pub fn base<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.optional(py, Field::Base)
    }

    /// The accumulated gradient, if any (no non-leaf warning: see the `grad` getter).
    pub fn grad<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.optional(py, Field::Grad)
    }

    /// Store the gradient without the checks of `t.grad = g`.
    pub fn set_grad(&self, py: Python<'_>, grad: Option<&Bound<'_, PyAny>>) {
        self.set_field(Field::Grad, Some(grad.unwrap_or(&py.None().into_bound(py))));
    }

    /// The node that produced this tensor, `None` for a leaf.
    pub fn grad_fn<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.optional(py, Field::GradFn)
    }

    /// Which output of `grad_fn` this tensor is.
    pub fn output_nr(&self, py: Python<'_>) -> PyResult<i64> {
        self.field(py, Field::OutputNr)
            .map_or(Ok(0), |v| v.extract())
    }

    /// Make this tensor output `output_nr` of `node` (or a leaf, with `None`).
    pub fn set_history(&self, py: Python<'_>, node: Option<&Bound<'_, PyAny>>, output_nr: i64) {
        self.set_field(
            Field::GradFn,
            Some(node.unwrap_or(&py.None().into_bound(py))),
        );
        self.set_field(Field::OutputNr, Some(&output_nr.into_py(py).into_bound(py)));
    }

    /// Whether `retain_grad()` was called (on a non-leaf).
    pub fn retains_grad(&self) -> bool {
        crate::python::ffi::object::is_true_address(
            self.slots[Field::RetainsGrad as usize].address(),
        )
    }

    /// The version counter's object, created (shared with the root of a view) on first use.
    pub fn counter<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyVersionCounter>> {
        if let Some(vc) = self.field(py, Field::Vc) {
            if let Some(vc) = VERSION_COUNTER.downcast_exact(&vc) {
                return Ok(vc.clone());
            }
        }
        let vc = match self.base(py).and_then(|b| b.as_tensor_base().cloned()) {
            Some(root) => root.get().counter(py)?,
            _ => Bound::new(py, PyVersionCounter::new())?,
        };
        self.set_field(Field::Vc, Some(vc.as_any()));
        Ok(vc)
    }

    /// The current version of the memory (0 before any in-place change).
    pub fn version(&self, py: Python<'_>) -> u64 {
        if let Some(vc) = self.field(py, Field::Vc) {
            if let Some(vc) = VERSION_COUNTER.downcast_exact(&vc) {
                return vc.get().get();
            }
        }
        match self.base(py).and_then(|b| b.as_tensor_base().cloned()) {
            Some(root) => root.get().version(py),
            _ => 0,
        }
    }

    /// Record an in-place modification of this tensor's memory.
    pub fn bump_version(&self, py: Python<'_>) -> PyResult<()> {
        self.counter(py)?.get().bump();
        Ok(())
    }

    /// The opyard dtype of the storage.
    pub fn dtype<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        dtype_of(py, &self.require_data(py)?)
    }

    pub(crate) fn require_data<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.data(py).ok_or_else(|| {
            PyAttributeError::new_err("this tensor has no data yet ('_data' is unset)")
        })
    }
}

/// A new tensor of `tensor_type` (a `TensorBase` subclass, `opyard.Tensor`
/// when `None`) around `array`, with key set `keyset`, on `device` (cpu when `None`).
pub fn new_tensor<'py>(
    py: Python<'py>,
    tensor_type: Option<&Bound<'py, PyType>>,
    array: &Bound<'py, PyAny>,
    keyset: u64,
    device: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyTensorBase>> {
    let reg = hooks(py)?;
    let ty = tensor_type.unwrap_or_else(|| reg.tensor.bind(py));
    let exact = ty.is(reg.tensor.bind(py));
    if !exact && !is_subtype(ty, &py.get_type_bound::<PyTensorBase>()) {
        return Err(PyTypeError::new_err(format!(
            "_make_tensor: cls must be a subclass of opyard.Tensor, got {}",
            crate::python::errors::quote(ty.as_any())
        )));
    }
    let state = PyTensorBase::fresh(py);
    state.set_data(array);
    state.set_keys(keyset);
    if let Some(d) = device.filter(|d| !d.is_none()) {
        state.set_field(Field::Dev, Some(d));
    }
    if exact {
        return reg.tensor.new_instance(py, state);
    }
    new_instance(py, state, ty)
}

/// The opyard dtype of a storage array: its numpy dtype's entry in `FROM_NP`,
/// remembered by the dtype object's identity so a hit costs one pointer scan.
pub fn dtype_of<'py>(py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let descr = match ArrayView::of(data) {
        Some(a) => a.descr(py),
        None => data.getattr(pyo3::intern!(py, "dtype"))?,
    };
    let hit = DTYPES
        .get(py)
        .borrow()
        .iter()
        .find(|(d, _)| d.as_ptr() == descr.as_ptr())
        .map(|(_, t)| t.clone_ref(py));
    if let Some(t) = hit {
        return Ok(t.into_bound(py));
    }
    let found = hooks(py)?
        .dtype_of_numpy
        .bind(py)
        .as_any()
        .get_item(&descr)?;
    let mut cache = DTYPES.get(py).borrow_mut();
    // Builtin dtypes are a few shared objects; a cap keeps odd, per-array dtype
    // objects (e.g. byte-swapped) from growing the list.
    if cache.len() < 64 {
        cache.push((descr.unbind(), found.clone().unbind()));
    }
    Ok(found)
}

#[pymethods]
impl PyTensorBase {
    /// Accepts and ignores arguments so that subclasses own `__init__`.
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(
        py: Python<'_>,
        _args: &Bound<'_, PyTuple>,
        _kwargs: Option<&Bound<'_, PyDict>>,
    ) -> Self {
        PyTensorBase::fresh(py)
    }

    /// This tensor's place in the creation order of tensors (see `_next_birth`).
    #[getter(_birth)]
    fn birth_py(&self) -> u64 {
        self.birth
    }

    /// Record an in-place modification (the counter is shared by every view of one root).
    #[pyo3(name = "_bump_version")]
    fn bump_version_py(&self, py: Python<'_>) -> PyResult<()> {
        self.bump_version(py)
    }

    /// The shared version counter object (created now if it did not exist).
    #[pyo3(name = "_counter")]
    fn counter_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyVersionCounter>> {
        self.counter(py)
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        for slot in &self.slots {
            visit.call(slot)?;
        }
        visit.call(&self.shape)
    }

    fn __clear__(&self) {
        Python::with_gil(|py| {
            // Take everything first, drop after: a dropped object's finalizer may read this tensor.
            let taken: Vec<_> = self.slots.iter().map(|s| s.take(py)).collect();
            let shape = self.shape.take(py);
            drop((taken, shape));
        });
    }
}
