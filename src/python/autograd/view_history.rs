//! A view's `grad_fn` as torch reads it: regenerated when its base (or
//! another view of the same base) was modified in place after the view's
//! history was made.
//!
//! Note [View history]: torch keeps, on a differentiable view, the version of
//! its memory at which its `grad_fn` was made (`attr_version`) and how the
//! view was made (`CreationMeta`). Reading the `grad_fn` of a view whose
//! memory has changed since (an in-place op on the base, on another view of
//! it, or on the view while nothing recorded) regenerates it as
//! `AsStridedBackward0` on the base's current history: the view then sees
//! what the in-place op did to its base. A view made in `no_grad` mode, and
//! an output of a view op that returns several views (`unbind`, `split`,
//! ...), refuse instead, with torch's messages (also when they themselves are
//! modified in place: `_tensor_meta.check_inplace`).
//!
//! opyard keeps both facts in one tensor field, `_view_meta = version << 2 |
//! kind`, written
//! - by the autograd kernels when they record a view op (kind [`DEFAULT`], or
//!   the kind of the view it views: a view of a multi-output view is one too);
//! - on every output of a multi-output view op (kind [`MULTI_OUTPUT`]);
//! - by the view kernels (`wrap_view`, `_tensor._make_view`) on every view:
//!   kind [`NO_GRAD`] for a view of a base that requires grad (an autograd
//!   kernel recording the view op afterwards overwrites it, so it stays only
//!   on views made while grad mode was off; such a view requires grad as its
//!   base, with no history and no `AccumulateGrad` of its own, as torch's),
//!   else kind [`DEFAULT`] (torch also refuses a view made in no_grad mode of
//!   a base without history once the base gains one; opyard's view follows
//!   the base's new history, as one made in grad mode);
//! - when the view's history is rewritten (`views.rebase_view_history`) or
//!   regenerated (`views.regenerate_view_history`), with the new version.
//!
//! Every reader that builds edges from a tensor or shows its `grad_fn` goes
//! through [`grad_fn`]: a tensor without `_view_meta` costs one pointer
//! compare more than the plain field read; a stale view calls
//! `Hooks::regenerate_view_history`, which makes the new node (or raises)
//! and stores the new version. A view made while its base had no history
//! has no autograd keys, so the readers of keys ask too: binding an op's
//! arguments with grad mode on, and `requires_grad`, regenerate a stale view
//! without keys ([`stale_without_grad`]) first, as torch's
//! `compute_requires_grad` reads each view's `grad_fn`: a view of a buffer
//! that an in-place op later gave a history (`b.add_(w)`) then requires
//! grad, its `grad_fn` an `AsStridedBackward0` on the base's history.

use pyo3::prelude::*;

use crate::python::hooks::hooks;
use crate::python::tensor::base::PyTensorBase;
use crate::python::tensor::slots::Field;

/// A view recorded by an autograd kernel. See Note [View history].
pub const DEFAULT: u64 = 0;
/// A view of a base that requires grad, made while grad mode was off.
pub const NO_GRAD: u64 = 1;
/// An output of a view op that returns several views (or a view of one).
pub const MULTI_OUTPUT: u64 = 2;

/// The kind of view `t` is (`DEFAULT` when autograd recorded nothing).
pub fn kind(py: Python<'_>, t: &PyTensorBase) -> u64 {
    // `None` (most tensors) is tested first: a failed `extract` would build an exception.
    t.field(py, Field::ViewMeta)
        .filter(|m| !m.is_none())
        .and_then(|m| m.extract::<u64>().ok())
        .map_or(DEFAULT, |m| m & 3)
}

/// Record that `t`'s history is that of a `kind` view as of now.
pub fn mark(py: Python<'_>, t: &PyTensorBase, kind: u64) {
    let meta = (t.version(py) << 2 | kind).into_py(py);
    t.set_field(Field::ViewMeta, Some(meta.bind(py)));
}

/// A view without autograd keys whose memory changed since its history was
/// made: its base (or another view of it) may have gained a history by an
/// in-place op since, which the view shares. One field read for a tensor
/// that is no view. See Note [View history].
#[inline]
pub fn stale_without_grad(py: Python<'_>, t: &PyTensorBase) -> bool {
    if t.keys() & crate::dispatch::DispatchKeySet::AUTOGRAD_KEYS.raw() != 0 {
        return false;
    }
    match t.field(py, Field::ViewMeta) {
        Some(m) if !m.is_none() => m.extract::<u64>().is_ok_and(|m| m >> 2 != t.version(py)),
        _ => false,
    }
}

/// `t.grad_fn` as torch reads it: a view whose memory changed since its
/// history was made gets that history regenerated first (or raises).
pub fn grad_fn<'py>(t: &Bound<'py, PyTensorBase>) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = t.py();
    let this = t.get();
    if let Some(meta) = this.field(py, Field::ViewMeta).filter(|m| !m.is_none()) {
        if meta.extract::<u64>()? >> 2 != this.version(py) {
            let node = hooks(py)?
                .regenerate_view_history
                .get(py)?
                .bind(py)
                .call1((t,))?;
            return Ok(Some(node).filter(|n| !n.is_none()));
        }
    }
    Ok(this.grad_fn(py))
}
