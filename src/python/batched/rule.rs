//! The `Batched` kernel of a custom op whose only argument is one Tensor and
//! that has a `register_vmap` rule, in Rust.
//!
//! Note [register_vmap kernel in Rust]: `func/custom.py`'s `make_vmap_kernel`
//! decides at registration which kernel runs a rule; for an op taking one
//! Tensor it is this one (with the fast paths on). A call with that one
//! batched tensor and no other argument reads the tensor's level and physical
//! value from its fields, finds the level record (the innermost one in the
//! common case: one comparison), makes its `VmapInfo` on first use, calls
//! `rule(info, (0,), value)` with a prepared `in_dims`, and wraps an output
//! returned with out dim `0` at the level in Rust ([`super::wrap`]). Any other
//! call goes to the Python kernel (`general`), any other result to the Python
//! checks (`checked`: torch's messages), so behaviour is the Python kernel's.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};

use super::{
    as_batched, known_level_layout, wrap, LEVEL_SLOTS, SLOT_BATCH_SIZE, SLOT_INFO, SLOT_LEVEL,
    SLOT_RANDOMNESS,
};
use crate::python::ffi::call_slot::FastOrGeneral;
use crate::python::ffi::instance_slots::SlotLayout;
use crate::python::ffi::object::{exact_int_bits, is_instance_of_type, new_by_base, vectorcall};
use crate::python::hooks::installed;
use crate::python::tensor::slots::Field;

/// A custom op's `register_vmap` rule as its `Batched` kernel (one Tensor argument).
#[pyclass(name = "VmapRuleKernel", module = "opyard._core", frozen)]
pub struct PyVmapRuleKernel {
    rule: PyObject,
    /// `name` as the Python kernel's messages spell it.
    name: PyObject,
    /// The Python kernel: every call this one does not serve.
    general: PyObject,
    /// `(VmapInfo, the thread-local stack holder, layer_of, _checked, (0,))`.
    context: Context,
}

/// What `func/custom.py` hands every `VmapRuleKernel` (`_RULE_CONTEXT`), unpacked at registration.
struct Context {
    info_cls: Py<PyType>,
    /// `VmapInfo`'s two slots (`batch_size`, `randomness`), when plain object members.
    info_layout: Option<SlotLayout<2>>,
    stack: PyObject,
    layer_of: PyObject,
    checked: PyObject,
    zero: PyObject,
}

/// Whether `a == b` for two level numbers (identity first: small ints are shared).
fn same_level(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
    if a.is(b) {
        return Ok(true);
    }
    match (exact_int_bits(a), exact_int_bits(b)) {
        (Some(x), Some(y)) => Ok(x == y),
        _ => a.eq(b),
    }
}

impl FastOrGeneral for PyVmapRuleKernel {
    fn general(&self) -> &PyObject {
        &self.general
    }

    /// The call with the one batched tensor (Note [register_vmap kernel in Rust]).
    fn fast(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Option<PyObject>> {
        if args.len() != 1 || kwargs.is_some_and(|k| !k.is_empty()) {
            return Ok(None);
        }
        let x = args.get_item(0)?;
        let Some(b) = as_batched(&x) else {
            return Ok(None);
        };
        let st = b.get();
        let (Some(level), Some(value)) = (
            st.field(py, Field::BatchLevel),
            st.field(py, Field::BatchValue),
        ) else {
            return Ok(None);
        };
        let ctx = &self.context;
        let levels = super::thread_levels(py, ctx.stack.bind(py))?;
        let last = match levels.len() {
            0 => None,
            n => Some(levels.get_item(n - 1)?),
        };
        // The level record's slots read in place when it is vmap's own class (Note
        // [SavedTensor slots]), as attributes otherwise.
        let slots = known_level_layout(py);
        fn read<'py>(
            slots: Option<&SlotLayout<5>>,
            layer: &Bound<'py, PyAny>,
            i: usize,
        ) -> PyResult<Bound<'py, PyAny>> {
            match slots.and_then(|s| s.get(layer, i)) {
                Some(v) => Ok(v),
                None => layer.getattr(LEVEL_SLOTS[i]),
            }
        }
        let layer = match last {
            Some(l) if same_level(&read(slots, &l, SLOT_LEVEL)?, &level)? => l,
            _ => ctx.layer_of.bind(py).call1((&level,))?,
        };
        let mut info = read(slots, &layer, SLOT_INFO)?;
        if info.is_none() {
            // `VmapInfo(batch_size, randomness)` without its `__init__` frame, which sets just these two.
            let (size, randomness) = (
                read(slots, &layer, SLOT_BATCH_SIZE)?,
                read(slots, &layer, SLOT_RANDOMNESS)?,
            );
            info = match &ctx.info_layout {
                Some(layout) => layout.new_instance(py, [&size, &randomness])?,
                None => {
                    let made = new_by_base(ctx.info_cls.bind(py), &py.get_type_bound::<PyAny>())?;
                    made.setattr(pyo3::intern!(py, "batch_size"), size)?;
                    made.setattr(pyo3::intern!(py, "randomness"), randomness)?;
                    made
                }
            };
            if !slots.is_some_and(|s| s.set(&layer, SLOT_INFO, &info)) {
                layer.setattr(pyo3::intern!(py, "info"), &info)?;
            }
        }
        let result = vectorcall(
            self.rule.bind(py),
            [
                info.as_borrowed(),
                ctx.zero.bind_borrowed(py),
                value.as_borrowed(),
            ],
        )?;
        if let Ok(pair) = result.downcast_exact::<PyTuple>() {
            if pair.len() == 2 && exact_int_bits(&pair.get_item(1)?) == Some(0) {
                let out = pair.get_item(0)?;
                let tensor = installed(py).map(|h| h.tensor.bind(py));
                if tensor.is_some_and(|t| is_instance_of_type(&out, t)) {
                    return Ok(Some(wrap(py, &out, &level)?.unbind()));
                }
            }
        }
        let checked = ctx.checked.bind(py);
        Ok(Some(
            checked.call1((self.name.bind(py), result, level))?.unbind(),
        ))
    }
}

crate::python::ffi::call_slot::fast_or_general_slot!(
    /// The dispatcher calls a kernel with the bound argument tuple: no PyO3
    /// argument extraction (Note [Packet call slots]).
    install_call_slot, PyVmapRuleKernel);

#[pymethods]
impl PyVmapRuleKernel {
    /// `VmapRuleKernel(rule, name, general, context)`; see Note [register_vmap kernel in Rust].
    #[new]
    fn new(
        rule: PyObject,
        name: PyObject,
        general: PyObject,
        context: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let (info_cls, stack, layer_of, checked, zero): (Py<PyType>, _, _, _, _) =
            context.extract()?;
        let info_layout =
            SlotLayout::of(info_cls.bind(context.py()), ["batch_size", "randomness"])?;
        Ok(PyVmapRuleKernel {
            rule,
            name,
            general,
            context: Context {
                info_cls,
                info_layout,
                stack,
                layer_of,
                checked,
                zero,
            },
        })
    }

    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        FastOrGeneral::call(self, py, args, kwargs)
    }

    /// The objects held, for the cycle collector (a rule that refers to its op makes a
    /// cycle through the op's table; the rule function's own clear breaks it).
    fn __traverse__(&self, visit: pyo3::PyVisit<'_>) -> Result<(), pyo3::PyTraverseError> {
        let c = &self.context;
        for o in [&self.rule, &self.name, &self.general] {
            visit.call(o)?;
        }
        visit.call(&c.info_cls)?;
        for o in [&c.stack, &c.layer_of, &c.checked, &c.zero] {
            visit.call(o)?;
        }
        Ok(())
    }

    /// The Python kernel's names, so dumps name the kernel as before.
    #[getter]
    fn __name__(&self, py: Python<'_>) -> PyResult<PyObject> {
        self.general.getattr(py, "__name__")
    }

    #[getter]
    fn __qualname__(&self, py: Python<'_>) -> PyResult<PyObject> {
        self.general.getattr(py, "__qualname__")
    }

    /// The Python kernel this one falls back to.
    #[getter]
    fn __wrapped__(&self, py: Python<'_>) -> PyObject {
        self.general.clone_ref(py)
    }
}

/// Add this area's classes to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVmapRuleKernel>()?;
    install_call_slot(m.py());
    Ok(())
}
