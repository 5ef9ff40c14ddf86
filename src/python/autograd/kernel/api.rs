//! `_PlainAutogradKernel`'s Python face: its constructor (what
//! `derivatives/registry.py` hands over once per op, checked here) and its
//! attributes. See Note [Autograd kernel in Rust] in `autograd/kernel/mod.rs`.

use crate::python::ffi::type_slots::SubclassOf;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};

use crate::python::autograd::kernel::PyPlainAutogradKernel;
use crate::python::autograd::node::PyNodeBase;
use crate::python::autograd::record::autograd_mask;
use crate::python::autograd::saved::SavedMakers;
use crate::python::dispatch::operator::PyOpOverload;

/// What a node keeps of one argument (registry.py's `_SAVE`, `_META`, `_VALUE`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Save {
    Tensor,
    Meta,
    Value,
}

impl Save {
    pub fn from_code(code: u8) -> PyResult<Save> {
        match code {
            0 => Ok(Save::Tensor),
            1 => Ok(Save::Meta),
            2 => Ok(Save::Value),
            _ => Err(PyValueError::new_err(format!(
                "_PlainAutogradKernel: save kind {code} is not 0 (tensor), 1 (meta) or 2 (value)"
            ))),
        }
    }
}

#[pymethods]
impl PyPlainAutogradKernel {
    /// Made by `derivatives/registry.py` (`_plain_kernel`) once per op: `saves` one
    /// kind per schema argument (0 tensor, 1 meta, 2 value), `defaults` and `names`
    /// one per argument, `result_name` the node name when the result is saved,
    /// `view` whether the op returns a view of its first argument, `inplace`
    /// whether it modifies its first argument and returns it, `complex` whether
    /// a complex result is differentiable (its formula gives the conjugate
    /// Wirtinger derivative; Note [Complex outputs]).
    #[new]
    #[pyo3(signature = (op, general, record, node_cls, diff_pos, saves, defaults, names,
                        result_name, tensor_meta, saved_tensor, name, view=false, inplace=false,
                        complex=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        op: Py<PyOpOverload>,
        general: PyObject,
        record: PyObject,
        node_cls: Bound<'_, PyType>,
        diff_pos: Vec<usize>,
        saves: Vec<u8>,
        defaults: Vec<PyObject>,
        names: Vec<Py<PyString>>,
        result_name: Option<PyObject>,
        tensor_meta: PyObject,
        saved_tensor: Py<PyType>,
        name: Py<PyString>,
        view: bool,
        inplace: bool,
        complex: bool,
    ) -> PyResult<Self> {
        let n = saves.len();
        if defaults.len() != n || names.len() != n || diff_pos.iter().any(|&p| p >= n) {
            return Err(PyValueError::new_err(format!(
                "_PlainAutogradKernel({}): saves, defaults and names need one entry per \
                 argument ({n}, {}, {}) and diff_pos positions below {n} (got {diff_pos:?})",
                name.bind(py),
                defaults.len(),
                names.len()
            )));
        }
        let Ok(node_type) = SubclassOf::<PyNodeBase>::new(node_cls.clone()) else {
            return Err(PyTypeError::new_err(format!(
                "_PlainAutogradKernel({}): node_cls must subclass NodeBase",
                name.bind(py)
            )));
        };
        let base = py.get_type_bound::<PyNodeBase>();
        let object_init = py.get_type_bound::<PyAny>().getattr("__init__")?;
        let direct_node = node_cls.getattr("__new__")?.is(&base.getattr("__new__")?)
            && node_cls.getattr("__init__")?.is(&object_init);
        let saves = saves
            .into_iter()
            .map(Save::from_code)
            .collect::<PyResult<Vec<_>>>()?;
        let quick = match op.get().op.def().as_ref() {
            Some(def) => def.compiled.binder(py).returns.quick(),
            None => crate::python::dispatch::binder::Quick::Other,
        };
        Ok(PyPlainAutogradKernel {
            quick,
            op,
            general,
            record,
            node_cls: node_type,
            diff_pos: diff_pos.into_iter().collect(),
            saves,
            defaults,
            names,
            result_name: result_name.filter(|r| !r.is_none(py)),
            makers: SavedMakers::new(py, tensor_meta, saved_tensor)?,
            name,
            mask: autograd_mask(),
            direct_node,
            view,
            inplace,
            complex,
        })
    }

    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        self.call(py, args, kwargs)
    }

    /// The Python kernel this one falls back to.
    #[getter]
    fn __wrapped__(&self, py: Python<'_>) -> PyObject {
        self.general.clone_ref(py)
    }

    #[getter]
    fn __name__(&self, py: Python<'_>) -> Py<PyString> {
        self.name.clone_ref(py)
    }

    #[getter]
    fn __qualname__(&self, py: Python<'_>) -> Py<PyString> {
        self.name.clone_ref(py)
    }

    /// The node class this kernel records.
    #[getter]
    fn node_cls(&self, py: Python<'_>) -> Py<PyType> {
        self.node_cls.as_py().clone_ref(py)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("<_PlainAutogradKernel {}>", self.name.bind(py))
    }
}
