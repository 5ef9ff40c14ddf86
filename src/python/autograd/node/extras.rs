//! What a node carries besides its graph facts (See Note [Rust graph nodes]
//! in `autograd/node/mod.rs`): hook slots and metadata, and the state of a `Function`'s
//! ctx. Boxed in the node: a built-in op's node has none of it.
//!
//! See Note [No foreign code under a lock]: setters swap a value out of the
//! borrowed node and drop the old one after the borrow ends.

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::python::autograd::function::PyFunctionSpec;
use crate::python::autograd::node::PyNodeBase;

/// Hook slots, metadata and a `Function` ctx's fields.
#[derive(Default)]
pub struct Extras {
    pub pre_hooks: Option<PyObject>,
    pub post_hooks: Option<PyObject>,
    pub tensor_pre_hooks: Option<PyObject>,
    pub retains_grad_hooks: Option<PyObject>,
    pub metadata: Option<PyObject>,
    /// `ctx.needs_input_grad` as set from Python (or by `_function_apply`
    /// for more than 64 inputs); when unset, a ctx recorded by
    /// `_function_apply` builds it from `needs_bits` on first read instead
    /// of making a tuple on every call.
    pub needs_input_grad: Option<PyObject>,
    /// The number of forward inputs of a ctx recorded by `_function_apply`.
    pub n_inputs: usize,
    /// Bit `i`: forward input `i` requires grad (up to 64 inputs).
    pub needs_bits: u64,
    /// `ctx.to_save`: what `save_for_backward` received.
    pub to_save: Option<PyObject>,
    /// `ctx._dirty`: what `mark_dirty` received.
    pub dirty: Option<PyObject>,
    /// `ctx._non_differentiable`: what `mark_non_differentiable` received.
    pub non_differentiable: Option<PyObject>,
    /// `ctx.saved_for_forward`: what `save_for_forward` received.
    pub saved_for_forward: Option<PyObject>,
    /// `ctx._out_dtypes`: the forward outputs' dtypes (None for non-tensors).
    pub out_dtypes: Option<PyObject>,
    /// The dtype of the one output a ctx recorded by `_function_apply` has
    /// (`out_dtypes` unset): `_out_dtypes` is then `(out_dtype,)`.
    pub out_dtype: Option<PyObject>,
    /// The `Function` this ctx belongs to, for nodes of kind `Function`: its
    /// backward (and, for a `register_autograd` op, how to call it).
    pub function: Option<Py<PyFunctionSpec>>,
}

impl Extras {
    /// Every object slot, for the GC.
    pub fn slots(&self) -> [Option<&PyObject>; 12] {
        [
            self.pre_hooks.as_ref(),
            self.post_hooks.as_ref(),
            self.tensor_pre_hooks.as_ref(),
            self.retains_grad_hooks.as_ref(),
            self.metadata.as_ref(),
            self.needs_input_grad.as_ref(),
            self.to_save.as_ref(),
            self.dirty.as_ref(),
            self.non_differentiable.as_ref(),
            self.saved_for_forward.as_ref(),
            self.out_dtypes.as_ref(),
            self.out_dtype.as_ref(),
        ]
    }
}

fn opt_obj(py: Python<'_>, o: &Option<PyObject>) -> PyObject {
    o.as_ref().map_or_else(|| py.None(), |o| o.clone_ref(py))
}

/// Replaces one extras slot (None clears it), dropping the old value outside the borrow.
pub fn set_extra(
    slf: &Bound<'_, PyNodeBase>,
    value: PyObject,
    pick: fn(&mut Extras) -> &mut Option<PyObject>,
) {
    let value = (!value.is_none(slf.py())).then_some(value);
    let old = {
        let mut node = slf.borrow_mut();
        std::mem::replace(pick(node.extras_mut()), value)
    };
    drop(old);
}

/// One extras slot, None when unset.
pub fn get_extra(slf: &Bound<'_, PyNodeBase>, pick: fn(&Extras) -> &Option<PyObject>) -> PyObject {
    let py = slf.py();
    let node = slf.borrow();
    node.extras()
        .map_or_else(|| py.None(), |x| opt_obj(py, pick(x)))
}

/// A ctx field whose default is the empty tuple (as `FunctionCtx`'s class defaults).
pub fn get_ctx_field(
    slf: &Bound<'_, PyNodeBase>,
    pick: fn(&Extras) -> &Option<PyObject>,
) -> PyObject {
    let py = slf.py();
    let node = slf.borrow();
    match node.extras().and_then(|x| pick(x).as_ref()) {
        Some(v) => v.clone_ref(py),
        None => PyTuple::empty_bound(py).into_any().unbind(),
    }
}
