//! Recording into the graph from Rust: a leaf's `AccumulateGrad`, a built-in
//! op's node, the requires-grad bit of an output, and freeing what a node
//! saved after a backward without `retain_graph`.

use crate::python::ffi::object::{has_plain_new_and_init, is_instance_of_type, new_instance};
use crate::python::hooks::{hooks, installed};
use crate::python::tensor::base::AsTensorBase;
use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyType;
use smallvec::SmallVec;

use crate::dispatch::{DispatchKey, DispatchKeySet};
use crate::python::autograd::accumulate::with_plain_array;
use crate::python::autograd::node::{
    one_native_shape, parse_one_shape, Edges, NodeEdge, NodeKind, PyNodeBase, SavedValues,
};
use crate::python::tensor::fields as tensor_fields;

/// The `Autograd<backend>` bits `requires_grad` looks at (Python's
/// `_tensor_meta.AUTOGRAD_MASK`): those of the backends a device reaches.
const BACKENDS: &[DispatchKey] = crate::dispatch::key::DEVICE_BACKENDS;

pub fn autograd_mask() -> u64 {
    let mut mask = DispatchKeySet::from_key(DispatchKey::AutogradOther);
    for &b in BACKENDS {
        if let Some(ag) = b.autograd_of() {
            mask = mask.add(ag);
        }
    }
    mask.raw()
}

/// The autograd bit a tensor of key set `ks` gets when it starts requiring
/// grad (Python's `_tensor_meta.autograd_bit`: the last of those backends
/// present, else `AutogradOther`).
pub fn autograd_bit(ks: u64) -> u64 {
    let set = DispatchKeySet::from_raw(ks);
    let mut bit = DispatchKey::AutogradOther;
    for &b in BACKENDS {
        if set.has(b) {
            bit = b.autograd_of().unwrap_or(DispatchKey::AutogradOther);
        }
    }
    DispatchKeySet::from_key(bit).raw()
}

/// The `SavedTensor` class (`Hooks::saved_tensor`; `None` while the package imports).
pub fn saved_tensor_type(py: Python<'_>) -> Option<&Py<PyType>> {
    installed(py).map(|h| &h.saved_tensor)
}

/// Frees what `node` saved (torch's `release_variables`): marks it released
/// and empties every `SavedTensor` among its saved values (one list level
/// deep, for `Tensor[]` arguments), so a later unpack raises torch's
/// "backward through the graph a second time" message.
pub fn release_saved(node: &Bound<'_, PyNodeBase>) -> PyResult<()> {
    let py = node.py();
    let items: SmallVec<[PyObject; 4]> = {
        let mut n = node.borrow_mut();
        n.released = true;
        if n.kind == NodeKind::Sink || n.saved.is_empty() {
            return Ok(());
        }
        n.saved.iter().map(|o| o.clone_ref(py)).collect()
    };
    let Some(ty) = saved_tensor_type(py) else {
        return Ok(());
    };
    let ty = ty.bind(py);
    let tensor = pyo3::intern!(py, "tensor");
    // `SavedTensor` is a plain class (no `__instancecheck__`): the type's MRO
    // answers `isinstance` without the generic protocol.
    let saved = |o: &Bound<'_, PyAny>| -> PyResult<bool> { Ok(is_instance_of_type(o, ty)) };
    for item in items {
        let item = item.bind(py);
        if saved(item)? {
            item.setattr(tensor, py.None())?;
        } else if let Ok(list) = item.downcast::<pyo3::types::PyList>() {
            for s in list.iter() {
                if saved(&s)? {
                    s.setattr(tensor, py.None())?;
                }
            }
        }
    }
    Ok(())
}

/// The `AccumulateGrad` class (`Hooks::accumulate_grad_node`; `None` while the package imports).
pub fn sink_type(py: Python<'_>) -> Option<&Bound<'_, PyType>> {
    installed(py).map(|h| h.accumulate_grad_node.bind(py))
}

/// The leaf's `AccumulateGrad`: the cached one while it is alive (the tensor
/// holds it weakly, as torch), else a new one, cached.
///
/// Note [Sinks without __new__]: `Function.apply` and every built-in op with
/// a leaf input ask for the leaf's sink, and a new graph needs a new one (the
/// last one died with the last graph), so making it is on the forward path.
/// It is allocated directly as an instance of the `AccumulateGrad` class
/// with its Rust fields filled in (PyO3's own `tp_new` body): no attribute
/// lookup of `__new__`, no argument tuple, no `__init__` frame, no borrow.
///
/// A view made in no_grad mode of a tensor that requires grad has none (it
/// requires grad through its base; a gradient for it flows nowhere, as in
/// torch): `None`. See Note [View history].
#[pyfunction]
pub fn _grad_accumulator<'py>(t: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = t.py();
    if let Some(acc) = crate::python::tensor::fields::grad_accumulator(t)? {
        return Ok(Some(acc));
    }
    if let Some(view) = t.as_tensor_base() {
        let view = view.get();
        if view.base(py).is_some()
            && crate::python::autograd::view_history::kind(py, view)
                == crate::python::autograd::view_history::NO_GRAD
        {
            return Ok(None);
        }
    }
    let init = PyNodeBase::sink(t.clone().unbind());
    let acc = hooks(py)?
        .accumulate_grad_node
        .new_instance(py, init)?
        .into_any();
    let weak = pyo3::types::PyWeakrefReference::new_bound(&acc)?;
    crate::python::tensor::fields::set_grad_accumulator(t, weak.as_any())?;
    Ok(Some(acc))
}

/// Makes `out` output 0 of `node`: its shape (to check and materialize its
/// gradient), its dtype (See Note [Gradient dtypes] in `autograd.rs`) and,
/// when it is differentiable (floating point; complex too with
/// `complex_ok`, as `Function` outputs), its history and its requires-grad
/// bit. Returns the output's dtype.
pub fn attach_output<'py>(
    node: &Bound<'py, PyNodeBase>,
    out: &Bound<'py, PyAny>,
    complex_ok: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let py = node.py();
    let dtype = tensor_fields::dtype(out)?;
    // See Note [Plain tensors at the sink]: a plain tensor's kind and sizes
    // come from its array header; numpy's own kinds answer `is_floating_point`.
    let plain = with_plain_array(out, |a| (a.dtype_kind(), one_native_shape(a.dims())));
    let known = match plain.as_ref().map(|(kind, _)| *kind) {
        Some(b'f') => Some(true),
        Some(b'c') => Some(complex_ok),
        Some(b'i' | b'u' | b'b') => Some(false),
        _ => None,
    };
    let floating = match known {
        Some(f) => f,
        None => {
            let mut f = dtype
                .getattr(intern!(py, "is_floating_point"))?
                .is_truthy()?;
            if !f && complex_ok {
                f = dtype
                    .getattr(intern!(py, "is_complex"))
                    .map_or(Ok(false), |c| c.is_truthy())?;
            }
            f
        }
    };
    let shape = match plain {
        Some((_, shape)) => shape,
        None => parse_one_shape(&tensor_fields::shape(out)?)?,
    };
    let old = {
        let mut n = node.borrow_mut();
        (
            std::mem::replace(&mut n.shapes, shape),
            n.out_dtype.replace(dtype.clone().unbind()),
        )
    };
    drop(old);
    if floating {
        tensor_fields::set_grad_fn(out, node.as_any())?;
        let ks = tensor_fields::keyset(out)?;
        if ks & autograd_mask() == 0 {
            tensor_fields::set_keyset(out, ks | autograd_bit(ks))?;
        }
    }
    Ok(dtype)
}

/// A new instance of `node_cls`. Note [Formula nodes without a type call]:
/// the classes of the built-in formulas keep NodeBase's `__new__` and
/// `object.__init__` (their fields are set by the kernel that records them),
/// so such a node is allocated directly with a fresh NodeBase state, what
/// `node_cls()` would make, without CPython's type call and PyO3's argument
/// parsing. A class with its own `__new__` or `__init__` is called.
fn new_node<'py>(node_cls: &Bound<'py, PyType>) -> PyResult<Bound<'py, PyAny>> {
    let py = node_cls.py();
    let base = py.get_type_bound::<PyNodeBase>();
    // Only a subclass of NodeBase inherits its `tp_new`: `new_instance` checks.
    if !has_plain_new_and_init(node_cls, &base) {
        return node_cls.call0();
    }
    Ok(new_instance(py, PyNodeBase::empty(), node_cls)?.into_any())
}

/// A built-in op's node with one tensor output, the derivative kernels'
/// common case: a `node_cls()` with `edges` (`(node, input_nr)` pairs) and
/// `saved` (its saved values), and `out` attached as its output 0 (a complex
/// one with `complex`: Note [Complex outputs] in `autograd/kernel/output.rs`).
#[pyfunction]
#[pyo3(signature = (node_cls, edges, out, saved, complex=false))]
pub fn _record_node<'py>(
    node_cls: &Bound<'py, PyType>,
    edges: &Bound<'py, PyAny>,
    out: &Bound<'py, PyAny>,
    saved: &Bound<'py, PyAny>,
    complex: bool,
) -> PyResult<Bound<'py, PyAny>> {
    if !out.is_tensor_base() {
        return Err(PyTypeError::new_err(
            "_record_node: the output is not a tensor",
        ));
    }
    let obj = new_node(node_cls)?;
    let node = crate::python::autograd::node::as_node(&obj)?;
    let mut next: Edges = SmallVec::new();
    for e in edges.iter()? {
        let (n, nr): (Bound<'py, PyAny>, i64) = e?.extract()?;
        next.push(NodeEdge {
            node: (!n.is_none()).then(|| n.unbind()),
            nr,
        });
    }
    let mut values: SavedValues = SmallVec::new();
    for v in saved.iter()? {
        values.push(v?.unbind());
    }
    {
        let mut n = node.borrow_mut();
        // A fresh node: nothing is replaced, so nothing is dropped under the borrow.
        n.next = next;
        n.saved = values;
        n.has_saved = true;
    }
    attach_output(node, out, complex)?;
    Ok(obj)
}
