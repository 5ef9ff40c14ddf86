//! One-pass unary math and `addcmul`/`addcdiv` on plain slices, on the intra-op pool.
//!
//! Note [Unary math in one pass]: numpy's float32 `exp` is vectorised but runs on
//! one thread, and bfloat16 math through numpy is a float32 loop followed by a
//! rounding pass (torch does both in one vectorised loop). Here `exp` and `tanh` of
//! float32, bfloat16 and float16 data are one loop over the pool: 16-bit values are
//! widened exactly to `f32` a block at a time, `vmath`'s vectorisable function
//! applied, and each result rounded once to nearest even (torch's float32 opmath).
//! float64 `sin`/`cos` run the C library's functions (the ones numpy calls for
//! float64, so the values are numpy's bit for bit) split across the pool: numpy's
//! float64 `sin`/`cos` are a scalar libm loop on one thread.
//!
//! `addc` is `self + value * (t1 op t2)` of three buffers of one length, in numpy's
//! order and roundings (`(t1 op t2) * value + self`, no fused multiply-add), so the
//! values equal the numpy kernel's exactly.

use super::fused::bf16_bits;
use super::parallel::for_chunks;
use super::vmath::{exp_f32, tanh_f32};
use half::slice::{HalfBitsSliceExt, HalfFloatSliceExt};
use multiversion::multiversion;

/// The functions [`map_f32`] and [`map_half`] apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum F32Op {
    Exp,
    Tanh,
}

/// The functions [`map_f64_libm`] applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum F64Op {
    Sin,
    Cos,
}

/// A 16-bit float format (raw bits in `u16` buffers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half16 {
    BF16,
    F16,
}

#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn apply_f32(xs: &[f32], os: &mut [f32], op: F32Op) {
    match op {
        F32Op::Exp => {
            for (o, &v) in os.iter_mut().zip(xs) {
                *o = exp_f32(v);
            }
        }
        F32Op::Tanh => {
            for (o, &v) in os.iter_mut().zip(xs) {
                *o = tanh_f32(v);
            }
        }
    }
}

#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn apply_f32_in_place(xs: &mut [f32], op: F32Op) {
    match op {
        F32Op::Exp => xs.iter_mut().for_each(|v| *v = exp_f32(*v)),
        F32Op::Tanh => xs.iter_mut().for_each(|v| *v = tanh_f32(*v)),
    }
}

/// `op(x)` of a float32 buffer into `out` (same length), on the pool when large.
pub fn map_f32(x: &[f32], out: &mut [f32], op: F32Op) {
    assert_eq!(x.len(), out.len());
    for_chunks(out, |start, os| {
        apply_f32(&x[start..start + os.len()], os, op)
    });
}

/// Values widened, computed and rounded per block of this many (on the stack, in L1).
const HALF_BLOCK: usize = 512;

/// `op(x)` of a bfloat16 or float16 buffer (raw bits) into `out` (same length): each
/// value widened exactly to `f32`, the `f32` function, one rounding to nearest even
/// (nan stays nan), on the pool when large (Note [Unary math in one pass]).
pub fn map_half(bits: &[u16], format: Half16, out: &mut [u16], op: F32Op) {
    assert_eq!(bits.len(), out.len());
    for_chunks(out, |start, os| {
        let xs = &bits[start..start + os.len()];
        match format {
            Half16::BF16 => bf16_chunk(xs, os, op),
            Half16::F16 => {
                // float16 widens and narrows with `half`'s slice conversions (F16C where the
                // CPU has it), a block at a time through a buffer in L1.
                let mut buf = [0.0f32; HALF_BLOCK];
                for (xb, ob) in xs.chunks(HALF_BLOCK).zip(os.chunks_mut(HALF_BLOCK)) {
                    let tmp = &mut buf[..xb.len()];
                    xb.reinterpret_cast::<half::f16>().convert_to_f32_slice(tmp);
                    apply_f32_in_place(tmp, op);
                    ob.reinterpret_cast_mut::<half::f16>()
                        .convert_from_f32_slice(tmp);
                }
            }
        }
    });
}

/// bfloat16 bits widened by a shift, `op` in `f32`, rounded by [`bf16_bits`]: one
/// branch-free loop the vectorizer takes.
#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn bf16_chunk(xs: &[u16], os: &mut [u16], op: F32Op) {
    let wide = |h: u16| f32::from_bits(u32::from(h) << 16);
    let it = os.iter_mut().zip(xs);
    match op {
        F32Op::Exp => it.for_each(|(o, &x)| *o = bf16_bits(exp_f32(wide(x)))),
        F32Op::Tanh => it.for_each(|(o, &x)| *o = bf16_bits(tanh_f32(wide(x)))),
    }
}

/// `op(x)` of a float64 buffer into `out` with the C library's function, on the pool
/// when large (Note [Unary math in one pass]).
pub fn map_f64_libm(x: &[f64], out: &mut [f64], op: F64Op) {
    assert_eq!(x.len(), out.len());
    for_chunks(out, |start, os| {
        let xs = &x[start..start + os.len()];
        match op {
            F64Op::Sin => os.iter_mut().zip(xs).for_each(|(o, &v)| *o = v.sin()),
            F64Op::Cos => os.iter_mut().zip(xs).for_each(|(o, &v)| *o = v.cos()),
        }
    });
}

/// The element types of [`addc`].
pub trait AddcElem: Copy + Send + Sync + 'static {
    fn addc(s: Self, a: Self, b: Self, value: Self, scale: bool, div: bool) -> Self;
}

macro_rules! addc_elem {
    ($($t:ty),*) => {$(
        impl AddcElem for $t {
            #[inline(always)]
            fn addc(s: Self, a: Self, b: Self, value: Self, scale: bool, div: bool) -> Self {
                let t = if div { a / b } else { a * b };
                let t = if scale { t * value } else { t };
                t + s
            }
        }
    )*};
}
addc_elem!(f32, f64);

/// `out = s + value * (a * b)` (`div == false`, addcmul) or `s + value * (a / b)`
/// (addcdiv) of four buffers of one length, as numpy computes it: `(a op b) * value
/// + s`, the product by `value` skipped when `scale` is false (`value == 1`).
pub fn addc<T: AddcElem>(
    s: &[T],
    a: &[T],
    b: &[T],
    value: T,
    scale: bool,
    div: bool,
    out: &mut [T],
) {
    assert!(s.len() == out.len() && a.len() == out.len() && b.len() == out.len());
    for_chunks(out, |start, os| {
        let end = start + os.len();
        addc_chunk(
            &s[start..end],
            &a[start..end],
            &b[start..end],
            value,
            scale,
            div,
            os,
        )
    });
}

#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn addc_chunk<T: AddcElem>(
    s: &[T],
    a: &[T],
    b: &[T],
    value: T,
    scale: bool,
    div: bool,
    os: &mut [T],
) {
    // One loop per case, so each is a plain loop the vectorizer takes.
    let it = os.iter_mut().zip(s.iter().zip(a.iter().zip(b)));
    match (div, scale) {
        (false, false) => {
            it.for_each(|(o, (&s, (&a, &b)))| *o = T::addc(s, a, b, value, false, false))
        }
        (false, true) => {
            it.for_each(|(o, (&s, (&a, &b)))| *o = T::addc(s, a, b, value, true, false))
        }
        (true, false) => {
            it.for_each(|(o, (&s, (&a, &b)))| *o = T::addc(s, a, b, value, false, true))
        }
        (true, true) => it.for_each(|(o, (&s, (&a, &b)))| *o = T::addc(s, a, b, value, true, true)),
    }
}
