//! The loops of opyard's hottest built-in kernels, on plain slices.
//!
//! `elementwise` holds add/sub/mul/div (tensor-tensor and tensor-scalar, with
//! `alpha`), negation and fill; `reduce` holds the full `sum`; `fused` the
//! single-pass composites (softmax, the norms, gelu, silu) on `vmath`'s
//! vectorisable functions and `parallel`'s intra-op pool. No pyo3 here:
//! `src/python/kernels_py/mod.rs` reads numpy buffers into slices, calls these and
//! wraps the result, so `cargo test` checks the numerics without Python.
//!
//! Note [Kernel numerics]: every loop computes exactly what numpy's ufunc (the
//! Python kernel these replace) computes, element by element: IEEE float
//! arithmetic without fused multiply-add, integer arithmetic wrapping on
//! overflow (torch's and numpy's behaviour), integer true division in the
//! float result dtype after converting both operands, and `sum` of floats with
//! numpy's pairwise summation (so results are bit-identical, not just close).

pub mod elementwise;
pub mod fused;
pub mod im2col;
pub mod order_stats;
pub mod parallel;
pub mod pool;
pub mod reduce;
pub mod reduce_dim;
pub mod row_sum;
pub mod scan;
pub mod select;
pub mod std_order;
pub mod strided;
pub mod team;
pub mod topk;
pub mod unary_math;
pub mod vmath;

#[cfg(test)]
mod fused_tests;
#[cfg(test)]
mod tests;

/// Element types of the fast kernels: add, subtract, multiply and negate,
/// wrapping on overflow for integers (see Note [Kernel numerics]).
pub trait Arith: Copy + PartialEq + std::fmt::Debug + 'static {
    const ZERO: Self;
    const ONE: Self;
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn neg(self) -> Self;
}

/// Floating element types: true division.
pub trait Float: Arith {
    fn div(self, o: Self) -> Self;
}

macro_rules! float_arith {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            #[inline(always)]
            fn add(self, o: Self) -> Self { self + o }
            #[inline(always)]
            fn sub(self, o: Self) -> Self { self - o }
            #[inline(always)]
            fn mul(self, o: Self) -> Self { self * o }
            #[inline(always)]
            fn neg(self) -> Self { -self }
        }
        impl Float for $t {
            #[inline(always)]
            fn div(self, o: Self) -> Self { self / o }
        }
    )*};
}

macro_rules! int_arith {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline(always)]
            fn add(self, o: Self) -> Self { self.wrapping_add(o) }
            #[inline(always)]
            fn sub(self, o: Self) -> Self { self.wrapping_sub(o) }
            #[inline(always)]
            fn mul(self, o: Self) -> Self { self.wrapping_mul(o) }
            #[inline(always)]
            fn neg(self) -> Self { self.wrapping_neg() }
        }
    )*};
}

float_arith!(f32, f64);
int_arith!(i32, i64);
