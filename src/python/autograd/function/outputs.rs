//! Recording a `Function`'s outputs on its ctx node (See Note [Function.apply
//! in Rust] in `autograd/function/mod.rs`): shapes, dtypes, history, and the saved tensors.
//!
//! Note [Function outputs in Rust]: the rules are those of Python's
//! `_record_outputs` (`function.py`), which still serves `mark_dirty` and
//! outputs that are not plain `opyard.Tensor`s on numpy arrays (a subclass
//! may override `dtype`/`shape`): a tuple output is recorded entry by entry
//! (a non-tensor entry has shape `()` and dtype None), an input returned as
//! is becomes an alias (so the input keeps its history), an output marked
//! non-differentiable or of an integer dtype gets no history, and each saved
//! tensor remembers whether (and which) output it is. A lone tensor output
//! that is not plain is still recorded here through its attributes.

use crate::python::tensor::base::AsTensorBase;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use smallvec::SmallVec;

use crate::python::autograd::node::{OutShapes, PyNodeBase, SavedValues};
use crate::python::autograd::record::{attach_output, autograd_bit, autograd_mask};
use crate::python::tensor::base::PyTensorBase;
use crate::python::tensor::dtype_flags::DtypeFlags;

/// Whether a dtype is differentiable as a `Function` output (floating point
/// or complex), per dtype object.
static DIFFERENTIABLE: DtypeFlags = DtypeFlags::new();

fn differentiable_dtype(dtype: &Bound<'_, PyAny>) -> PyResult<bool> {
    DIFFERENTIABLE.get(dtype, |d| {
        let py = d.py();
        if d.getattr(intern!(py, "is_floating_point"))?.is_truthy()? {
            return Ok(true);
        }
        d.getattr(intern!(py, "is_complex"))
            .map_or(Ok(false), |c| c.is_truthy())
    })
}

/// `t` as a plain `opyard.Tensor` (not a subclass) on a numpy array, whose
/// sizes and dtype are Rust state.
fn plain_tensor<'a, 'py>(
    t: &'a Bound<'py, PyAny>,
) -> PyResult<Option<&'a Bound<'py, PyTensorBase>>> {
    let py = t.py();
    let Some(tb) = t.as_tensor_base() else {
        return Ok(None);
    };
    if !t
        .get_type()
        .is(crate::python::hooks::hooks(py)?.tensor.bind(py))
    {
        return Ok(None);
    }
    Ok(tb.get().with_dims(py, |_| ()).map(|_| tb))
}

fn contains(seq: &[Bound<'_, PyAny>], x: &Bound<'_, PyAny>) -> bool {
    seq.iter().any(|y| y.is(x))
}

/// Makes plain tensor `t` output `nr` of `ctx` (history and requires-grad
/// bit) when its dtype is differentiable. Returns the dtype.
fn attach<'py>(
    ctx: &Bound<'py, PyNodeBase>,
    t: &Bound<'py, PyTensorBase>,
    nr: i64,
    differentiable: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let py = ctx.py();
    let base = t.get();
    let dtype = base.dtype(py)?;
    if differentiable && differentiable_dtype(&dtype)? {
        base.set_history(py, Some(ctx.as_any()), nr);
        let ks = base.keys();
        if ks & autograd_mask() == 0 {
            base.set_keys(ks | autograd_bit(ks));
        }
    }
    Ok(dtype)
}

/// Records `output` on `ctx` (See Note [Function outputs in Rust]) and
/// returns what `apply` returns, or None when Python's `_record_outputs`
/// must do it (a tensor output that is not plain, in a tuple or marked).
/// The caller checked that nothing is marked dirty.
pub fn record_outputs<'py>(
    ctx: &Bound<'py, PyNodeBase>,
    args: &Bound<'py, PyTuple>,
    output: &Bound<'py, PyAny>,
    nondiff: Option<&Bound<'py, PyAny>>,
    to_save: Option<&Bound<'py, PyAny>>,
    saved_type: Option<&Bound<'py, PyAny>>,
    alias: &Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = ctx.py();
    let tuple = output.downcast::<PyTuple>().ok();
    let outs: SmallVec<[Bound<'py, PyAny>; 2]> = match tuple {
        Some(t) => t.iter().collect(),
        None => smallvec::smallvec![output.clone()],
    };
    let nondiff: SmallVec<[Bound<'py, PyAny>; 2]> = match nondiff {
        Some(n) => n.iter()?.collect::<PyResult<_>>()?,
        None => SmallVec::new(),
    };
    for o in &outs {
        if o.is_tensor_base() && plain_tensor(o)?.is_none() {
            if tuple.is_some() || !nondiff.is_empty() {
                return Ok(None);
            }
            // A lone tensor that is not plain: through its attributes.
            let out = aliased(args, o, alias)?;
            let dtype = attach_output(ctx, &out, true)?;
            finish(ctx, Dtypes::One(dtype.unbind()), None)?;
            save(ctx, to_save, saved_type, std::slice::from_ref(&out))?;
            return Ok(Some(out));
        }
    }
    let mut shapes = OutShapes::default();
    let mut dtypes: SmallVec<[PyObject; 2]> = SmallVec::new();
    let mut new_outs: SmallVec<[Bound<'py, PyAny>; 2]> = SmallVec::new();
    for (i, o) in outs.iter().enumerate() {
        if !o.is_tensor_base() {
            shapes.push(&[]);
            dtypes.push(py.None());
            new_outs.push(o.clone());
            continue;
        }
        let o = aliased(args, o, alias)?;
        let Some(t) = plain_tensor(&o)? else {
            // The alias of a plain tensor is plain; anything else is Python's to record.
            return Ok(None);
        };
        t.get().with_dims(py, |d| shapes.push(d));
        let dtype = attach(ctx, t, i as i64, !contains(&nondiff, &o))?;
        dtypes.push(dtype.unbind());
        new_outs.push(o);
    }
    let dtypes = match tuple {
        Some(_) => Dtypes::Many(PyTuple::new_bound(py, dtypes).into_any().unbind()),
        None => Dtypes::One(dtypes.pop().unwrap_or_else(|| py.None())),
    };
    finish(ctx, dtypes, Some(shapes))?;
    save(ctx, to_save, saved_type, &new_outs)?;
    Ok(Some(match tuple {
        Some(_) => PyTuple::new_bound(py, new_outs).into_any(),
        None => new_outs.swap_remove(0),
    }))
}

/// An input returned as-is becomes a new tensor on its data, so the input
/// keeps its own history.
fn aliased<'py>(
    args: &Bound<'py, PyTuple>,
    o: &Bound<'py, PyAny>,
    alias: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    if args.iter().any(|a| a.is(o)) {
        alias.call1((o,))
    } else {
        Ok(o.clone())
    }
}

/// The outputs' dtypes: one (a lone output) or a tuple.
enum Dtypes {
    One(PyObject),
    Many(PyObject),
}

/// Stores the outputs' dtypes and (when given) shapes on the node.
fn finish(ctx: &Bound<'_, PyNodeBase>, dtypes: Dtypes, shapes: Option<OutShapes>) -> PyResult<()> {
    let old = {
        let mut node = ctx.borrow_mut();
        let old_shapes = shapes.map(|s| std::mem::replace(&mut node.shapes, s));
        let x = node.extras_mut();
        let old = match dtypes {
            Dtypes::One(d) => (x.out_dtype.replace(d), x.out_dtypes.take()),
            Dtypes::Many(d) => (x.out_dtypes.replace(d), x.out_dtype.take()),
        };
        (old_shapes, old)
    };
    drop(old);
    Ok(())
}

/// What `save_for_backward` received, as the node's saved values: one
/// `SavedTensor` (with the version it has now) per entry, None included.
/// A saved output remembers which output of this node it is, for torch's
/// message when it is modified in place later.
fn save(
    ctx: &Bound<'_, PyNodeBase>,
    to_save: Option<&Bound<'_, PyAny>>,
    saved_type: Option<&Bound<'_, PyAny>>,
    outs: &[Bound<'_, PyAny>],
) -> PyResult<()> {
    let (Some(to_save), Some(saved_type)) = (to_save, saved_type) else {
        return Ok(());
    };
    let py = ctx.py();
    // `save_for_backward` stores a tuple; a list set from Python pays for an iterator.
    let items: SmallVec<[Bound<'_, PyAny>; 2]> = match to_save.downcast::<PyTuple>() {
        Ok(t) => t.iter().collect(),
        Err(_) => to_save.iter()?.collect::<PyResult<_>>()?,
    };
    let mut name: Option<Bound<'_, PyString>> = None;
    let mut saved: SavedValues = SmallVec::new();
    for t in items {
        let nr = outs.iter().position(|o| o.is(&t));
        let is_out = nr.is_some();
        let name = match nr {
            Some(_) => name
                .get_or_insert_with(|| {
                    PyString::new_bound(
                        py,
                        &crate::python::autograd::function::backward::node_name(ctx),
                    )
                })
                .clone(),
            None => intern!(py, "").clone(),
        };
        let nr = nr.unwrap_or(0) as i64;
        // See Note [SavedTensor by slots].
        let fast = match t.as_tensor_base() {
            Some(tb) => crate::python::autograd::saved::construct::new_saved(
                saved_type, tb, is_out, &name, nr,
            )?,
            None => None,
        };
        match fast {
            Some(s) => saved.push(s),
            None => saved.push(saved_type.call1((&t, is_out, name, nr))?.unbind()),
        }
    }
    let old = {
        let mut node = ctx.borrow_mut();
        node.has_saved = true;
        std::mem::replace(&mut node.saved, saved)
    };
    drop(old);
    Ok(())
}
