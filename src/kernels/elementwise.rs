//! Elementwise loops: binary arithmetic over two slices or a slice and a
//! scalar, `alpha`-scaled add/sub, integer true division, negation, fill.
//!
//! Each public function takes `out` of the result's length; a `Slice` operand
//! has that length too (the caller checked the shapes), a `Scalar` operand is
//! broadcast. The match on the operand shapes sits outside the loops so each
//! loop is a plain zip the compiler vectorizes.

use super::{Arith, Float};

/// One side of a binary op: a slice as long as the result, or one value.
#[derive(Clone, Copy, Debug)]
pub enum Operand<'a, T> {
    Slice(&'a [T]),
    Scalar(T),
}

/// The arithmetic of `add`, `sub`, `mul` and `div`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
}

/// `out[i] = f(lhs[i], rhs[i])` over every operand shape.
#[inline(always)]
fn zip_with<A: Copy, B: Copy, U: Copy>(
    lhs: Operand<'_, A>,
    rhs: Operand<'_, B>,
    out: &mut [U],
    f: impl Fn(A, B) -> U,
) {
    let n = out.len();
    match (lhs, rhs) {
        (Operand::Slice(a), Operand::Slice(b)) => {
            let (a, b) = (&a[..n], &b[..n]);
            for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
                *o = f(x, y);
            }
        }
        (Operand::Slice(a), Operand::Scalar(y)) => {
            for (o, &x) in out.iter_mut().zip(&a[..n]) {
                *o = f(x, y);
            }
        }
        (Operand::Scalar(x), Operand::Slice(b)) => {
            for (o, &y) in out.iter_mut().zip(&b[..n]) {
                *o = f(x, y);
            }
        }
        (Operand::Scalar(x), Operand::Scalar(y)) => out.fill(f(x, y)),
    }
}

/// `out = lhs op rhs` for add, sub and mul (wrapping for integers).
///
/// # Panics
/// On `BinOp::Div`, which needs [`divide`] (a `Float`) or [`divide_as`].
pub fn arith<T: Arith>(op: BinOp, lhs: Operand<'_, T>, rhs: Operand<'_, T>, out: &mut [T]) {
    match op {
        BinOp::Add => zip_with(lhs, rhs, out, T::add),
        BinOp::Sub => zip_with(lhs, rhs, out, T::sub),
        BinOp::Mul => zip_with(lhs, rhs, out, T::mul),
        BinOp::Div => panic!("arith: division needs `divide` or `divide_as`"),
    }
}

/// `out = lhs op rhs` for a floating type, division included.
pub fn float_binary<T: Float>(op: BinOp, lhs: Operand<'_, T>, rhs: Operand<'_, T>, out: &mut [T]) {
    match op {
        BinOp::Div => divide(lhs, rhs, out),
        _ => arith(op, lhs, rhs, out),
    }
}

/// `out = lhs / rhs` (IEEE: x/0 is ±inf, 0/0 is nan).
pub fn divide<T: Float>(lhs: Operand<'_, T>, rhs: Operand<'_, T>, out: &mut [T]) {
    zip_with(lhs, rhs, out, T::div);
}

/// Integer true division: both operands converted by `conv` to the float
/// result type first, then divided there (torch's and numpy's order).
pub fn divide_as<I: Copy, F: Float>(
    lhs: Operand<'_, I>,
    rhs: Operand<'_, I>,
    out: &mut [F],
    conv: impl Fn(I) -> F,
) {
    zip_with(lhs, rhs, out, |x, y| conv(x).div(conv(y)));
}

/// `out = lhs + alpha * rhs` (`subtract`: `lhs - alpha * rhs`), the product
/// rounded (or wrapped) in `T` before the sum, as numpy's two ufunc calls.
pub fn scaled<T: Arith>(
    subtract: bool,
    lhs: Operand<'_, T>,
    rhs: Operand<'_, T>,
    alpha: T,
    out: &mut [T],
) {
    if subtract {
        zip_with(lhs, rhs, out, |x, y| x.sub(y.mul(alpha)));
    } else {
        zip_with(lhs, rhs, out, |x, y| x.add(y.mul(alpha)));
    }
}

/// `out = -x` (wrapping for integers: `-i64::MIN == i64::MIN`).
pub fn negate<T: Arith>(x: &[T], out: &mut [T]) {
    for (o, &v) in out.iter_mut().zip(x) {
        *o = v.neg();
    }
}

/// `out = conv(lhs) op rhs` in the float type `F`: an integer tensor with a
/// float operand, computed in the float result dtype (torch's promotion).
pub fn float_binary_from<I: Copy, F: Float>(
    op: BinOp,
    lhs: Operand<'_, I>,
    rhs: Operand<'_, F>,
    out: &mut [F],
    conv: impl Fn(I) -> F,
) {
    match op {
        BinOp::Add => zip_with(lhs, rhs, out, |x, y| conv(x).add(y)),
        BinOp::Sub => zip_with(lhs, rhs, out, |x, y| conv(x).sub(y)),
        BinOp::Mul => zip_with(lhs, rhs, out, |x, y| conv(x).mul(y)),
        BinOp::Div => zip_with(lhs, rhs, out, |x, y| conv(x).div(y)),
    }
}

/// `out = out op rhs` in place (add, sub, mul; wrapping for integers): the
/// in-place ops (`add_`, gradient accumulation). `rhs` must not alias `out`.
///
/// # Panics
/// On `BinOp::Div` (in-place division of integers changes the dtype).
pub fn arith_inplace<T: Arith>(op: BinOp, out: &mut [T], rhs: Operand<'_, T>) {
    // One loop per op with the operation inlined (a function pointer chosen first
    // would be an indirect call per element, which no loop vectorises).
    match op {
        BinOp::Add => update_with(out, rhs, T::add),
        BinOp::Sub => update_with(out, rhs, T::sub),
        BinOp::Mul => update_with(out, rhs, T::mul),
        BinOp::Div => panic!("arith_inplace: no in-place division"),
    }
}

/// `out[i] = f(out[i], rhs[i])` in place.
#[inline(always)]
fn update_with<T: Copy>(out: &mut [T], rhs: Operand<'_, T>, f: impl Fn(T, T) -> T) {
    match rhs {
        Operand::Slice(b) => {
            for (o, &y) in out.iter_mut().zip(b) {
                *o = f(*o, y);
            }
        }
        Operand::Scalar(y) => {
            for o in out.iter_mut() {
                *o = f(*o, y);
            }
        }
    }
}

impl<'a, T: Copy> Operand<'a, T> {
    /// The operand of the `len` results from `start` on: that piece of a slice, a
    /// scalar as it is.
    #[inline]
    pub fn part(self, start: usize, len: usize) -> Operand<'a, T> {
        match self {
            Operand::Slice(s) => Operand::Slice(&s[start..start + len]),
            Operand::Scalar(v) => Operand::Scalar(v),
        }
    }
}

/// `kernel(lhs, rhs, out)` with `out` split into contiguous chunks on the intra-op
/// pool when it is large (`parallel::for_chunks`), the operands split alike. Each
/// element is computed by the same expression as on one thread, so the result does
/// not depend on the number of threads.
pub fn on_pool<A, B, U, K>(lhs: Operand<'_, A>, rhs: Operand<'_, B>, out: &mut [U], kernel: K)
where
    A: Copy + Sync,
    B: Copy + Sync,
    U: Send,
    K: Fn(Operand<'_, A>, Operand<'_, B>, &mut [U]) + Sync,
{
    super::parallel::for_chunks(out, |start, os| {
        let n = os.len();
        kernel(lhs.part(start, n), rhs.part(start, n), os)
    });
}

/// `out = out ± alpha * rhs` in place (`subtract`: minus), the product rounded (or
/// wrapped) in `T` first, as [`scaled`]. `rhs` must not alias `out`.
pub fn scaled_inplace<T: Arith>(subtract: bool, out: &mut [T], rhs: Operand<'_, T>, alpha: T) {
    match rhs {
        Operand::Scalar(y) => {
            let op = if subtract { BinOp::Sub } else { BinOp::Add };
            arith_inplace(op, out, Operand::Scalar(y.mul(alpha)))
        }
        Operand::Slice(b) if subtract => {
            for (o, &v) in out.iter_mut().zip(b) {
                *o = o.sub(v.mul(alpha));
            }
        }
        Operand::Slice(b) => {
            for (o, &v) in out.iter_mut().zip(b) {
                *o = o.add(v.mul(alpha));
            }
        }
    }
}

/// `out op= rhs` (times `alpha` for add/sub when given) in place, `out` split into
/// chunks on the intra-op pool when large ([`on_pool`]'s split); the values are the
/// one-thread loops' ([`arith_inplace`], [`scaled_inplace`]).
pub fn inplace_on_pool<T: Arith + Send + Sync>(
    op: BinOp,
    out: &mut [T],
    rhs: Operand<'_, T>,
    alpha: Option<T>,
) {
    super::parallel::for_chunks(out, |start, os| {
        update_in_place(op, os, rhs.part(start, os.len()), alpha)
    });
}

/// `out op= rhs` (times `alpha` for add/sub when given) in place on the calling
/// thread: [`arith_inplace`], or [`scaled_inplace`] with `alpha`.
pub fn update_in_place<T: Arith>(op: BinOp, out: &mut [T], rhs: Operand<'_, T>, alpha: Option<T>) {
    match alpha {
        None => arith_inplace(op, out, rhs),
        Some(a) => scaled_inplace(op == BinOp::Sub, out, rhs, a),
    }
}
