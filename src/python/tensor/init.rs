//! Setting `TensorBase` up: the module-init work (cpu device, slot offsets,
//! members and attributes) and the functions the package calls to build
//! tensors (`_make_tensor`, `_share_state`, `_slot_alias`).

use crate::python::ffi::fastcall::{add_function, fastcall_with_keywords, FastCall};
use crate::python::ffi::members::SlotDefaults;
use crate::python::tensor::attrs::install_attributes;
use crate::python::tensor::base::{
    default_values, new_tensor, PyTensorBase, CPU, DEFAULTS, SLOTS_OFFSET,
};
use crate::python::tensor::device::PyDevice;
use crate::python::tensor::slots::{install_members, member_descr, Field, SlotsOffset, FIELDS};
use pyo3::exceptions::{PyAttributeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyType;

fastcall_with_keywords!(
    /// `_make_tensor(cls, data, keyset, dev=None)`: `new_tensor` for Python, the
    /// constructor of every result tensor. A raw `METH_FASTCALL` function (see
    /// Note [Raw getsets]: PyO3's argument parsing costs as much as the allocation).
    make_tensor_fastcall,
    |call| make_tensor(&call)
);

fn make_tensor<'py>(call: &FastCall<'_, 'py>) -> PyResult<Bound<'py, PyAny>> {
    let (py, nargs) = (call.py, call.nargs);
    if call.kwnames.is_some() || !(3..=4).contains(&nargs) {
        return Err(PyTypeError::new_err(format!(
            "_make_tensor(cls, data, keyset, dev=None) takes 3 or 4 positional arguments ({} given)",
            call.values.len()
        )));
    }
    let arg = |i: usize| (*call.values[i]).clone();
    let cls = arg(0);
    let cls = cls.downcast::<PyType>().map_err(|_| {
        PyTypeError::new_err(format!(
            "_make_tensor: cls must be a subclass of opyard.Tensor, got {}",
            crate::python::errors::quote(&cls)
        ))
    })?;
    let keyset: u64 = arg(2).extract()?;
    let dev = (nargs == 4).then(|| arg(3));
    Ok(new_tensor(py, Some(cls), &arg(1), keyset, dev.as_ref())?.into_any())
}

/// Add `_make_tensor` (see `make_tensor_fastcall`) to the module.
fn add_make_tensor(m: &Bound<'_, PyModule>) -> PyResult<()> {
    add_function(
        m,
        c"_make_tensor",
        c"_make_tensor(cls, data, keyset, dev=None)\n--\n\nA new cls tensor around data with keyset on dev (cpu when None).",
        make_tensor_fastcall,
    )
}

/// Copy every field and the key set of `src` into `dst` (both tensors): the same
/// tensor state as another object (`as_subclass`, `nn.Parameter`).
#[pyfunction]
pub fn _share_state(dst: &Bound<'_, PyTensorBase>, src: &Bound<'_, PyTensorBase>) {
    let py = dst.py();
    let (d, s) = (dst.get(), src.get());
    for (field, _, _) in FIELDS {
        d.set_field(field, s.field(py, field).as_ref());
    }
    d.shape.set(None);
    d.set_keys(s.keys());
}

/// Expose `field` under another attribute `alias` of `cls` (e.g. `fake_mode` of
/// `FakeTensor`, stored in `_fake_mode`): a struct member as fast as the original.
#[pyfunction]
pub fn _slot_alias(cls: &Bound<'_, PyType>, alias: &str, field: &str) -> PyResult<()> {
    let py = cls.py();
    let f = Field::by_name(field).ok_or_else(|| {
        PyAttributeError::new_err(format!(
            "_slot_alias: TensorBase has no field '{}'",
            crate::python::errors::clip(field)
        ))
    })?;
    if !cls.is_subclass_of::<PyTensorBase>()? {
        return Err(PyTypeError::new_err(
            "_slot_alias: cls must subclass TensorBase",
        ));
    }
    let name: &'static std::ffi::CStr =
        Box::leak(std::ffi::CString::new(alias)?.into_boxed_c_str());
    let offset = *SLOTS_OFFSET
        .get(py)
        .expect("members installed at module init");
    let descr = member_descr(
        &py.get_type_bound::<PyTensorBase>(),
        name,
        offset,
        f as usize,
        false,
    )?;
    cls.setattr(alias, descr)
}

/// Create the cpu device, measure where the slots sit in an instance and
/// install their members on `TensorBase` (Note [Tensor slots]).
pub fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let cpu = CPU.get_or_try_init(py, || Py::new(py, PyDevice::parse("cpu", None)?))?;
    m.add("_CPU_DEVICE", cpu.clone_ref(py))?;
    DEFAULTS
        .get_or_init(|| SlotDefaults::new(py, default_values(py).map(|d| d.map(Bound::unbind))));
    let probe = Bound::new(py, PyTensorBase::fresh(py))?;
    let offset = SlotsOffset::measure(&probe, &probe.get().slots)
        .ok_or_else(|| PyTypeError::new_err("TensorBase: the slots lie outside the instance"))?;
    let offset = *SLOTS_OFFSET.get_or_init(py, || offset);
    let ty = py.get_type_bound::<PyTensorBase>();
    install_members(&ty, offset)?;
    install_attributes(&ty, offset)?;
    add_make_tensor(m)
}
