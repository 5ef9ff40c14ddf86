//! The autograd attributes of a tensor: `grad` (with torch's non-leaf warning
//! and checks), `requires_grad`, `is_leaf`, `retains_grad`, the read-only
//! `grad_fn` (a view's regenerated when stale: Note [View history]) and
//! `output_nr` (a member on its field).

use crate::dispatch::DispatchKeySet;
use crate::python::ffi::ndarray::ArrayView;
use crate::python::hooks::{fast_paths, installed};
use crate::python::tensor::base::AsTensorBase;
use crate::python::tensor::base::{dtype_of, PyTensorBase};
use crate::python::tensor::device::DEVICE;
use crate::python::tensor::slots::{member_descr, Field, SlotsOffset};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyUserWarning};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyType};

/// torch's warning for reading `.grad` of a non-leaf that does not retain it.
const NON_LEAF_GRAD_WARNING: &str = "The .grad attribute of a Tensor that is not a \
leaf Tensor is being accessed. Its .grad attribute won't be populated during autograd.backward(). \
If you indeed want the .grad field to be populated for a non-leaf Tensor, use .retain_grad() on \
the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you access the leaf \
Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information.";

/// `t.grad`: the accumulated gradient (torch warns when a non-leaf that does not retain it is read).
fn grad_get<'py>(slf: &Bound<'py, PyTensorBase>) -> PyResult<Bound<'py, PyAny>> {
    let py = slf.py();
    let this = slf.get();
    let g = this.grad(py);
    if g.is_none() && this.grad_fn(py).is_some() && !this.retains_grad() {
        PyErr::warn_bound(
            py,
            &py.get_type_bound::<PyUserWarning>(),
            NON_LEAF_GRAD_WARNING,
            1,
        )?;
    }
    Ok(g.unwrap_or_else(|| py.None().into_bound(py)))
}

/// `t.grad = g` (torch's checks) and `del t.grad` (`value` is `None`).
fn grad_set<'py>(
    slf: &Bound<'py, PyTensorBase>,
    value: Option<&Bound<'py, PyAny>>,
) -> PyResult<()> {
    let py = slf.py();
    let this = slf.get();
    let Some(g) = value.filter(|v| !v.is_none()) else {
        this.set_grad(py, None);
        return Ok(());
    };
    let Some(gt) = g.as_tensor_base() else {
        return Err(PyTypeError::new_err(format!(
            "assigned grad expected to be a Tensor or None but got grad of type {}",
            g.get_type().name()?
        )));
    };
    if !fast_paths() || !grad_matches(py, this, gt.get())? {
        // torch's messages name C++ and ScalarType dtypes: the autograd package
        // formats them (and raises); it may also accept what the quick test refused.
        let Some(check) = installed(py).map(|h| &h.check_grad) else {
            return Err(PyRuntimeError::new_err(
                "attempting to assign a gradient whose dtype, device or size differs from the tensor's",
            ));
        };
        check.call1(py, (slf, g))?;
    }
    this.set_grad(py, Some(g));
    Ok(())
}

/// `requires_grad`: whether the key set carries an `Autograd<backend>` key (DESIGN).
fn requires_grad_get<'py>(t: &Bound<'py, PyTensorBase>) -> PyResult<Bound<'py, PyAny>> {
    // A stale view regenerates first (Note [View history]).
    if crate::python::autograd::view_history::stale_without_grad(t.py(), t.get()) {
        // General code (Note [Raw getsets]).
        crate::python::ffi::getset::counted(|py| {
            crate::python::autograd::view_history::grad_fn(&t.clone().unbind().into_bound(py))
                .map(|_| ())
        })?;
    }
    let on = t.get().keys() & DispatchKeySet::AUTOGRAD_KEYS.raw() != 0;
    Ok(PyBool::new_bound(t.py(), on).to_owned().into_any())
}

/// `t.requires_grad = flag`: the autograd package's checks and key update.
fn requires_grad_set<'py>(
    t: &Bound<'py, PyTensorBase>,
    v: Option<&Bound<'py, PyAny>>,
) -> PyResult<()> {
    let py = t.py();
    let v = v.ok_or_else(|| PyTypeError::new_err("requires_grad of a tensor cannot be deleted"))?;
    let hook = installed(py).map(|h| &h.set_requires_grad).ok_or_else(|| {
        PyRuntimeError::new_err("requires_grad cannot be set before opyard.autograd is imported")
    })?;
    hook.call1(py, (t, v))?;
    Ok(())
}

/// `grad_fn`: the node that produced this tensor. See Note [View history].
fn grad_fn_get<'py>(t: &Bound<'py, PyTensorBase>) -> PyResult<Bound<'py, PyAny>> {
    let py = t.py();
    let this = t.get();
    let view = this
        .field(py, Field::ViewMeta)
        .is_some_and(|m| !m.is_none());
    if !view {
        return Ok(this.grad_fn(py).unwrap_or_else(|| py.None().into_bound(py)));
    }
    // A view, whose node a stale history regenerates: general code (Note [Raw getsets]).
    let node = crate::python::ffi::getset::counted(|py| {
        crate::python::autograd::view_history::grad_fn(&t.clone().unbind().into_bound(py))
            .map(|n| n.map(Bound::unbind))
    })?;
    Ok(node.map_or_else(|| py.None().into_bound(py), |n| n.into_bound(py)))
}

/// `is_leaf`: no `grad_fn`.
fn is_leaf_get<'py>(t: &Bound<'py, PyTensorBase>) -> PyResult<Bound<'py, PyAny>> {
    let leaf = t.get().grad_fn(t.py()).is_none();
    Ok(PyBool::new_bound(t.py(), leaf).to_owned().into_any())
}

/// `retains_grad`: `retain_grad()` was called and the tensor is (still) a non-leaf.
fn retains_grad_get<'py>(t: &Bound<'py, PyTensorBase>) -> PyResult<Bound<'py, PyAny>> {
    let this = t.get();
    let on = this.retains_grad() && this.grad_fn(t.py()).is_some();
    Ok(PyBool::new_bound(t.py(), on).to_owned().into_any())
}

/// Install the autograd attributes on `ty` (the TensorBase type).
pub fn install_autograd_attributes(
    ty: &Bound<'_, PyType>,
    slots_offset: SlotsOffset,
) -> PyResult<()> {
    use crate::python::ffi::getset::install;
    install(
        ty,
        c"grad",
        c"The accumulated gradient (None until backward computes one).",
        grad_get,
        Some(grad_set),
    )?;
    install(
        ty,
        c"requires_grad",
        c"Whether gradients are recorded for this tensor.",
        requires_grad_get,
        Some(requires_grad_set),
    )?;
    install(
        ty,
        c"is_leaf",
        c"Whether this tensor has no grad_fn.",
        is_leaf_get,
        None,
    )?;
    install(
        ty,
        c"retains_grad",
        c"Whether this non-leaf populates .grad.",
        retains_grad_get,
        None,
    )?;
    install(
        ty,
        c"grad_fn",
        c"The node that produced this tensor, or None for a leaf.",
        grad_fn_get,
        None,
    )?;
    let descr = member_descr(
        ty,
        c"output_nr",
        slots_offset,
        Field::OutputNr as usize,
        true,
    )?;
    ty.setattr("output_nr", descr)?;
    Ok(())
}

/// The quick test of `t.grad = g`: same dtype object, device type and sizes.
fn grad_matches(py: Python<'_>, t: &PyTensorBase, g: &PyTensorBase) -> PyResult<bool> {
    let (Some(td), Some(gd)) = (t.data(py), g.data(py)) else {
        return Ok(false);
    };
    if !dtype_of(py, &td)?.is(&dtype_of(py, &gd)?) {
        return Ok(false);
    }
    let same_device = match (t.device(py), g.device(py)) {
        (Some(a), Some(b)) => match (DEVICE.downcast(&a), DEVICE.downcast(&b)) {
            (Some(a), Some(b)) => a.get().type_str() == b.get().type_str(),
            _ => false,
        },
        _ => false,
    };
    Ok(same_device
        && match (ArrayView::of(&td), ArrayView::of(&gd)) {
            (Some(a), Some(b)) => a.dims() == b.dims(),
            _ => false,
        })
}
