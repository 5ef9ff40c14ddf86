//! The Rust applies that read saved tensors (See Note [Rust node apply] in
//! `autograd/formulas/mod.rs`): each unpacks its `SavedTensor`s first, with
//! `SavedTensor.unpack`'s checks, as `BuiltinNode.apply` does, then calls the
//! formula's ops in the formula's order.

use pyo3::prelude::*;
use pyo3::types::{PyComplex, PyFloat, PyLong, PyTuple};
use smallvec::SmallVec;

use crate::python::autograd::formulas::{call, mul, Kind, PyNodeApply, ResultFormula};
use crate::python::autograd::node::PyNodeBase;
use crate::python::autograd::saved::unpack;

impl PyNodeApply {
    /// `ExpBackward0`: the saved result (the last saved value) unpacked and checked
    /// first, as `BuiltinNode.apply`, then `g * result`.
    pub(crate) fn by_result(
        &self,
        py: Python<'_>,
        formula: ResultFormula,
        g: &Bound<'_, PyAny>,
        saved: &[PyObject],
        released: bool,
        n_next: usize,
    ) -> PyResult<Option<PyObject>> {
        let Some(last) = saved.last() else {
            return Ok(None);
        };
        let ty = self.saved_tensor.bind(py);
        let Some(result) = unpack(last.bind(py), ty, self.layout.as_ref(), released)? else {
            return Ok(None);
        };
        if g.is_none() {
            let none = PyTuple::new_bound(py, (0..n_next).map(|_| py.None()));
            return Ok(Some(none.into_any().unbind()));
        }
        let (ops, r) = (&self.ops, &result);
        let one = 1i64.into_py(py).into_bound(py);
        let grad = match formula {
            ResultFormula::Exp => mul(ops, g, r)?,
            ResultFormula::Tanh => {
                let rr = call(py, &ops[0], [r, r])?;
                let d = call(py, &ops[1], [rr.bind(py), &one])?;
                call(py, &ops[0], [g, d.bind(py)])?
            }
            ResultFormula::Sigmoid => {
                let q = call(py, &ops[1], [r, &one])?;
                let d = call(py, &ops[0], [r, q.bind(py)])?;
                call(py, &ops[0], [g, d.bind(py)])?
            }
            ResultFormula::Relu => {
                let zero = 0i64.into_py(py).into_bound(py);
                let mask = call(py, &ops[1], [r, &zero])?;
                let zeros = call(py, &ops[2], [g])?;
                call(py, &ops[0], [mask.bind(py), zeros.bind(py), g])?
            }
        };
        Ok(Some(PyTuple::new_bound(py, [grad]).into_any().unbind()))
    }

    /// `MulBackward0`, `MmBackward0`: the saved tensors unpacked (and checked) first, as
    /// `BuiltinNode.apply`; each is saved only when the other input needs a gradient
    /// (Note [Conditional saves] in `derivatives/registry.py`), so only those are unpacked.
    pub(crate) fn mul_tensor(
        &self,
        py: Python<'_>,
        node: &Bound<'_, PyNodeBase>,
        g: &Bound<'_, PyAny>,
        saved: &[PyObject],
        released: bool,
    ) -> PyResult<Option<PyObject>> {
        let [s, o] = saved else {
            return Ok(None);
        };
        let Some(needs) = needs_input::<2>(node) else {
            return Ok(None);
        };
        // `self` is read by `other`'s gradient, `other` by `self`'s.
        let Some((this, other)) = self.unpack_two(py, (s, needs[1]), (o, needs[0]), released)?
        else {
            return Ok(None);
        };
        let ops = &self.ops;
        // `_mm`: `mm(g, t(mat2))`, `mm(t(self), g)`; `_bmm` likewise with
        // `transpose(x, 1, 2)`; `mul`: `g * other`, `g * self`.
        let flip = |x: &Bound<'_, PyAny>| -> PyResult<PyObject> {
            let (one, two) = (1i64.into_py(py), 2i64.into_py(py));
            call(py, &ops[1], [x, one.bind(py), two.bind(py)])
        };
        let grad = |i: usize| -> PyResult<PyObject> {
            match (self.kind, i) {
                (Kind::Bmm, 0) => call(py, &ops[0], [g, flip(&other)?.bind(py)]),
                (Kind::Bmm, _) => call(py, &ops[0], [flip(&this)?.bind(py), g]),
                (Kind::Mm, 0) => call(py, &ops[0], [g, call(py, &ops[1], [&other])?.bind(py)]),
                (Kind::Mm, _) => call(py, &ops[0], [call(py, &ops[1], [&this])?.bind(py), g]),
                // `MulBackward0` multiplies by `mul.Tensor`, a Python number
                // operand too (Note [Numbers as tensors] in dispatch/binder/mod.rs).
                (_, 0) => call(py, &ops[0], [g, &other]),
                _ => call(py, &ops[0], [g, &this]),
            }
        };
        let (gs, go) = if g.is_none() {
            (py.None(), py.None())
        } else {
            let gs = if needs[0] { grad(0)? } else { py.None() };
            let go = if needs[1] { grad(1)? } else { py.None() };
            (gs, go)
        };
        Ok(Some(PyTuple::new_bound(py, [gs, go]).into_any().unbind()))
    }

    /// `PowBackward0` (`pow.Tensor_Scalar`) for an int or float exponent other than
    /// 0.5 (whose derivative torch computes with `rsqrt`: the Python formula):
    /// `self` unpacked (and checked) first, as `BuiltinNode.apply`, then
    /// `g * (self ** (e - 1) * e)`; an exponent of 0 gives `g * 0`.
    pub(crate) fn pow_scalar(
        &self,
        py: Python<'_>,
        g: &Bound<'_, PyAny>,
        saved: &[PyObject],
        released: bool,
        n_next: usize,
    ) -> PyResult<Option<PyObject>> {
        let [s, e] = saved else {
            return Ok(None);
        };
        let e = e.bind(py);
        // `e - 1` as Python computes it, for the exponents taken here.
        let less = if e.is_exact_instance_of::<PyLong>() {
            match e.extract::<i64>().ok().and_then(|v| v.checked_sub(1)) {
                Some(v) => v.into_py(py),
                None => return Ok(None),
            }
        } else if e.is_exact_instance_of::<PyFloat>() {
            let v = e.extract::<f64>()?;
            if v == 0.5 {
                return Ok(None);
            }
            (v - 1.0).into_py(py)
        } else {
            return Ok(None);
        };
        let ty = self.saved_tensor.bind(py);
        let Some(this) = unpack(s.bind(py), ty, self.layout.as_ref(), released)? else {
            return Ok(None);
        };
        if g.is_none() {
            let none = PyTuple::new_bound(py, (0..n_next).map(|_| py.None()));
            return Ok(Some(none.into_any().unbind()));
        }
        let [pow, scale, times] = &self.ops[..] else {
            return Ok(None);
        };
        let grad = if e.eq(0)? {
            let zero = 0i64.into_py(py);
            call(py, scale, [g, zero.bind(py)])?
        } else {
            let p = call(py, pow, [&this, less.bind(py)])?;
            let d = call(py, scale, [p.bind(py), e])?;
            call(py, times, [g, d.bind(py)])?
        };
        Ok(Some(PyTuple::new_bound(py, [grad]).into_any().unbind()))
    }

    /// `DivBackward0` when `other` needs no gradient (a tensor that does not
    /// require grad, or a Python number): `other` unpacked (and checked), then
    /// `div.Tensor(g, other)`; when it needs one, the Python formula.
    pub(crate) fn div_tensor(
        &self,
        py: Python<'_>,
        node: &Bound<'_, PyNodeBase>,
        g: &Bound<'_, PyAny>,
        saved: &[PyObject],
        released: bool,
    ) -> PyResult<Option<PyObject>> {
        let [s, o] = saved else {
            return Ok(None);
        };
        let Some(needs) = needs_input::<2>(node) else {
            return Ok(None);
        };
        if needs[1] {
            return Ok(None);
        }
        let Some((_, other)) = self.unpack_two(py, (s, false), (o, true), released)? else {
            return Ok(None);
        };
        let gs = if g.is_none() || !needs[0] {
            py.None()
        } else {
            call(py, &self.ops[0], [g, &other])?
        };
        Ok(Some(
            PyTuple::new_bound(py, [gs, py.None()]).into_any().unbind(),
        ))
    }

    /// `AddmmBackward0`: `mat1` and `mat2` unpacked (and checked) first, as
    /// `BuiltinNode.apply`, then `_addmm`'s ops in its order: `mat1`'s
    /// gradient `mm(g, t(mat2)) * alpha`, `mat2`'s `mm(t(mat1), g) * alpha`,
    /// `self`'s `g * beta`, each for an input that needs one.
    pub(crate) fn addmm(
        &self,
        py: Python<'_>,
        node: &Bound<'_, PyNodeBase>,
        g: &Bound<'_, PyAny>,
        saved: &[PyObject],
        released: bool,
    ) -> PyResult<Option<PyObject>> {
        let [_, m1, m2, beta, alpha] = saved else {
            return Ok(None);
        };
        let Some(needs) = needs_input::<3>(node) else {
            return Ok(None);
        };
        // `mat1` is read by `mat2`'s gradient, `mat2` by `mat1`'s (Note [Conditional saves]).
        let Some((mat1, mat2)) = self.unpack_two(py, (m1, needs[2]), (m2, needs[1]), released)?
        else {
            return Ok(None);
        };
        if g.is_none() {
            let none = PyTuple::new_bound(py, [py.None(), py.None(), py.None()]);
            return Ok(Some(none.into_any().unbind()));
        }
        let [mm, t, scale] = &self.ops[..] else {
            return Ok(None);
        };
        let (alpha, beta) = (alpha.bind(py), beta.bind(py));
        let side = |a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>| -> PyResult<PyObject> {
            let prod = call(py, mm, [a, b])?;
            call(py, scale, [prod.bind(py), alpha])
        };
        let gm1 = if needs[1] {
            side(g, call(py, t, [&mat2])?.bind(py))?
        } else {
            py.None()
        };
        let gm2 = if needs[2] {
            side(call(py, t, [&mat1])?.bind(py), g)?
        } else {
            py.None()
        };
        let gs = if needs[0] {
            call(py, scale, [g, beta])?
        } else {
            py.None()
        };
        Ok(Some(
            PyTuple::new_bound(py, [gs, gm1, gm2]).into_any().unbind(),
        ))
    }
}

/// Which of the node's `N` inputs need a gradient (an edge to a node), or
/// None when the node does not have `N` edges (the Python apply handles it).
/// A Python number (a wrapped-number operand, saved as itself).
fn is_number(v: &Bound<'_, PyAny>) -> bool {
    v.is_instance_of::<PyLong>() || v.is_instance_of::<PyFloat>() || v.is_instance_of::<PyComplex>()
}

fn needs_input<const N: usize>(node: &Bound<'_, PyNodeBase>) -> Option<SmallVec<[bool; 3]>> {
    let needs: SmallVec<[bool; 3]> = node
        .borrow()
        .next
        .iter()
        .map(|e| e.node.is_some())
        .collect();
    (needs.len() == N).then_some(needs)
}

impl PyNodeApply {
    /// Two saved tensors unpacked (and checked) in order, each with whether the
    /// formula reads it: one it does not read may be a meta stand-in (not saved,
    /// Note [Conditional saves]) and comes back as None. None when one it reads is
    /// not a plain `SavedTensor` (the Python apply handles it).
    #[allow(clippy::type_complexity)]
    fn unpack_two<'py>(
        &self,
        py: Python<'py>,
        a: (&PyObject, bool),
        b: (&PyObject, bool),
        released: bool,
    ) -> PyResult<Option<(Bound<'py, PyAny>, Bound<'py, PyAny>)>> {
        let ty = self.saved_tensor.bind(py);
        let mut out: SmallVec<[Bound<'py, PyAny>; 2]> = SmallVec::new();
        for (v, read) in [a, b] {
            let v = v.bind(py);
            match unpack(v, ty, self.layout.as_ref(), released)? {
                Some(t) => out.push(t),
                // A Python number operand is saved as itself.
                None if is_number(v) => out.push(v.clone()),
                None if !read && !v.get_type().is(ty) => out.push(py.None().into_bound(py)),
                None => return Ok(None),
            }
        }
        let b = out.pop().expect("two values");
        let a = out.pop().expect("two values");
        Ok(Some((a, b)))
    }
}
