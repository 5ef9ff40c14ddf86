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
use super::vmath::{exp_f32_with, tanh_f32_with};
use half::slice::{HalfBitsSliceExt, HalfFloatSliceExt};
use multiversion::{multiversion, target::selected_target};

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
    if selected_target!().supports_feature_str("fma") {
        apply_f32_with::<true>(xs, os, op)
    } else {
        apply_f32_with::<false>(xs, os, op)
    }
}

#[inline(always)]
fn apply_f32_with<const F: bool>(xs: &[f32], os: &mut [f32], op: F32Op) {
    let it = os.iter_mut().zip(xs);
    match op {
        F32Op::Exp => it.for_each(|(o, &v)| *o = exp_f32_with::<F>(v)),
        F32Op::Tanh => it.for_each(|(o, &v)| *o = tanh_f32_with::<F>(v)),
    }
}

#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn apply_f32_in_place(xs: &mut [f32], op: F32Op) {
    if selected_target!().supports_feature_str("fma") {
        apply_in_place_with::<true>(xs, op)
    } else {
        apply_in_place_with::<false>(xs, op)
    }
}

#[inline(always)]
fn apply_in_place_with<const F: bool>(xs: &mut [f32], op: F32Op) {
    match op {
        F32Op::Exp => xs.iter_mut().for_each(|v| *v = exp_f32_with::<F>(*v)),
        F32Op::Tanh => xs.iter_mut().for_each(|v| *v = tanh_f32_with::<F>(*v)),
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
    if selected_target!().supports_feature_str("fma") {
        bf16_with::<true>(xs, os, op)
    } else {
        bf16_with::<false>(xs, os, op)
    }
}

#[inline(always)]
fn bf16_with<const F: bool>(xs: &[u16], os: &mut [u16], op: F32Op) {
    let wide = |h: u16| f32::from_bits(u32::from(h) << 16);
    let it = os.iter_mut().zip(xs);
    match op {
        F32Op::Exp => it.for_each(|(o, &x)| *o = bf16_bits(exp_f32_with::<F>(wide(x)))),
        F32Op::Tanh => it.for_each(|(o, &x)| *o = bf16_bits(tanh_f32_with::<F>(wide(x)))),
    }
}

/// `op(x)` of a float64 buffer into `out`, on the pool when large: the vectorised
/// [`sin_cos_f64`] where `|x| < SIN_COS_MEDIUM`, the C library's function (numpy's) for
/// larger, infinite and nan values (Note [Vectorised sin and cos]).
pub fn map_f64_libm(x: &[f64], out: &mut [f64], op: F64Op) {
    assert_eq!(x.len(), out.len());
    for_chunks(out, |start, os| {
        let xs = &x[start..start + os.len()];
        sin_cos_chunk(xs, os, op == F64Op::Cos);
        for (o, &v) in os.iter_mut().zip(xs) {
            if v.is_nan() || v.abs() >= SIN_COS_MEDIUM {
                *o = if op == F64Op::Cos { v.cos() } else { v.sin() };
            }
        }
    });
}

#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn sin_cos_chunk(xs: &[f64], os: &mut [f64], cos: bool) {
    if cos {
        for (o, &v) in os.iter_mut().zip(xs) {
            *o = sin_cos_f64(v, true);
        }
    } else {
        for (o, &v) in os.iter_mut().zip(xs) {
            *o = sin_cos_f64(v, false);
        }
    }
}

// Note [Vectorised sin and cos]: float64 `sin`/`cos` as fdlibm computes them (the
// algorithm of musl's `sin`/`cos`, within 1 ulp of the true value; glibc's, which numpy
// calls, is correctly rounded in practice, so the two differ by at most 1 ulp), written
// without branches so whole loops vectorise: `x = n * pi/2 + (y0 + y1)` by the three-step
// Cody-Waite reduction of fdlibm's `__rem_pio2` (exact for `|x| < 2^20 * pi/2`), both
// kernel polynomials on the reduced argument and the quadrant's one selected. Arguments
// at or beyond `SIN_COS_MEDIUM` (and inf, nan) take the C library's functions instead.
// No fused multiply-add, so every CPU gives the same bits.

// The constants are fdlibm's decimal spellings (more digits than a double holds; each
// parses to the double fdlibm uses), kept verbatim so they can be checked against it.

/// `2^20 * pi/2` rounded down: the reduction below is exact under it.
pub const SIN_COS_MEDIUM: f64 = 1_647_099.0;
const INV_PIO2: f64 = std::f64::consts::FRAC_2_PI;
#[allow(clippy::excessive_precision)]
const PIO2_1: f64 = 1.570_796_326_734_125_614_17;
#[allow(clippy::excessive_precision)]
const PIO2_2: f64 = 6.077_100_506_303_965_976_6e-11;
#[allow(clippy::excessive_precision)]
const PIO2_3: f64 = 2.022_266_248_711_166_455_8e-21;
#[allow(clippy::excessive_precision)]
const PIO2_3T: f64 = 8.478_427_660_368_899_569_97e-32;
/// `1.5 * 2^52`: adding it rounds to an integer held in the low mantissa bits.
const TOINT: f64 = 6_755_399_441_055_744.0;

/// fdlibm's `__kernel_sin(x, y, 1)`: `sin(x + y)` for `|x| <= pi/4`, `y` the tail of `x`.
#[inline(always)]
#[allow(clippy::excessive_precision)]
fn kernel_sin(x: f64, y: f64) -> f64 {
    const S1: f64 = -1.666_666_666_666_663_243_48e-1;
    const S2: f64 = 8.333_333_333_322_489_461_24e-3;
    const S3: f64 = -1.984_126_982_985_794_931_34e-4;
    const S4: f64 = 2.755_731_370_707_006_767_89e-6;
    const S5: f64 = -2.505_076_025_340_686_341_95e-8;
    const S6: f64 = 1.589_690_995_211_550_102_21e-10;
    let z = x * x;
    let w = z * z;
    let r = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6);
    let v = z * x;
    x - ((z * (0.5 * y - v * r) - y) - v * S1)
}

/// fdlibm's `__kernel_cos(x, y)`: `cos(x + y)` for `|x| <= pi/4`.
#[inline(always)]
#[allow(clippy::excessive_precision)]
fn kernel_cos(x: f64, y: f64) -> f64 {
    const C1: f64 = 4.166_666_666_666_660_190_37e-2;
    const C2: f64 = -1.388_888_888_887_410_957_49e-3;
    const C3: f64 = 2.480_158_728_947_672_941_78e-5;
    const C4: f64 = -2.755_731_435_139_066_330_35e-7;
    const C5: f64 = 2.087_572_321_298_174_827_9e-9;
    const C6: f64 = -1.135_964_755_778_819_482_65e-11;
    let z = x * x;
    let w = z * z;
    let r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
    let hz = 0.5 * z;
    let w = 1.0 - hz;
    w + (((1.0 - w) - hz) + (z * r - x * y))
}

/// `sin(x)` (`cos == false`) or `cos(x)` for `|x| < SIN_COS_MEDIUM`, branch-free (Note
/// [Vectorised sin and cos]); other `x` give an unspecified value.
#[inline(always)]
pub fn sin_cos_f64(x: f64, cos: bool) -> f64 {
    let t = x * INV_PIO2 + TOINT;
    let n = t - TOINT;
    let quadrant = t.to_bits();
    // fdlibm's three steps (x - n * (PIO2_1 + PIO2_2 + PIO2_3 + PIO2_3T), the error of each
    // subtraction carried in `w`), good to 151 bits; fdlibm stops after the first or
    // second when no cancellation happened, and taking all three then changes nothing
    // but the last bits of the tail.
    let r1 = x - n * PIO2_1;
    let w2 = n * PIO2_2;
    let r2 = r1 - w2;
    let w3 = n * PIO2_3;
    let r3 = r2 - w3;
    let w3 = n * PIO2_3T - ((r2 - r3) - w3);
    let y0 = r3 - w3;
    let y1 = (r3 - y0) - w3;
    let s = kernel_sin(y0, y1);
    let c = kernel_cos(y0, y1);
    // sin: quadrant 0 sin, 1 cos, 2 -sin, 3 -cos; cos is sin a quadrant on.
    let q = if cos {
        quadrant.wrapping_add(1)
    } else {
        quadrant
    };
    let v = if q & 1 == 1 { c } else { s };
    f64::from_bits(v.to_bits() ^ ((q & 2) << 62))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::parallel::{set_num_threads, thread_count_guard};

    #[test]
    // The expected values spell torch's rule out rather than call `f32::clamp`.
    #[allow(clippy::manual_clamp)]
    fn clamp_keeps_values_equal_to_a_bound_and_spreads_a_nan_bound_on_any_thread_count() {
        let _serial = thread_count_guard();
        let x: Vec<f32> = (0..300_001)
            .map(|i| match i % 5 {
                0 => -0.0,
                1 => f32::NAN,
                _ => (i % 17) as f32 - 8.0,
            })
            .collect();
        for threads in [1, 2] {
            set_num_threads(threads);
            let mut out = vec![1.0f32; x.len()];
            clamp(&x, Some(0.0), Some(4.0), &mut out);
            for (&v, &o) in x.iter().zip(&out) {
                let want = if v < 0.0 {
                    0.0
                } else if v > 4.0 {
                    4.0
                } else {
                    v
                };
                assert_eq!(o.to_bits(), want.to_bits(), "{v} on {threads}");
            }
            clamp(&x, Some(5.0), Some(2.0), &mut out);
            assert!(out.iter().zip(&x).all(|(&o, &v)| o == 2.0 || v.is_nan()));
            clamp(&x, None, Some(f32::NAN), &mut out);
            assert!(out.iter().all(|o| o.is_nan()));
        }
    }

    /// The distance in ulps between two finite `f64`s of one sign (or both zero).
    fn ulps(a: f64, b: f64) -> u64 {
        if a == b {
            return 0;
        }
        let key = |v: f64| {
            let i = v.to_bits() as i64;
            if i < 0 {
                i64::MIN - i
            } else {
                i
            }
        };
        key(a).abs_diff(key(b))
    }

    fn spread(n: usize, lo: f64, hi: f64, seed: u64) -> Vec<f64> {
        let mut s = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                lo + (hi - lo) * ((s >> 11) as f64 / (1u64 << 53) as f64)
            })
            .collect()
    }

    #[test]
    fn sin_cos_f64_within_one_ulp_of_the_c_library() {
        let _serial = thread_count_guard();
        // every range of the reduction, multiples of pi/2 (the hardest cancellations),
        // tiny values, the medium limit and what lies beyond it
        let mut x = Vec::new();
        for &(lo, hi) in &[
            (-1.0, 1.0),
            (-10.0, 10.0),
            (-1e3, 1e3),
            (-1.6e6, 1.6e6),
            (-1e9, 1e9),
        ] {
            x.extend(spread(200_000, lo, hi, x.len() as u64));
        }
        for k in (-2000i32..2000).filter(|&k| k != 0) {
            let m = f64::from(k) * std::f64::consts::FRAC_PI_2;
            x.extend([
                m,
                f64::from_bits(m.to_bits() + 1),
                f64::from_bits(m.to_bits() - 1),
            ]);
        }
        x.extend([
            0.0,
            -0.0,
            1e-300,
            -1e-300,
            5e-324,
            1e-9,
            SIN_COS_MEDIUM,
            -SIN_COS_MEDIUM,
        ]);
        x.extend([f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 1e300, f64::MAX]);
        for threads in [1, 2] {
            set_num_threads(threads);
            for (op, f) in [
                (F64Op::Sin, f64::sin as fn(f64) -> f64),
                (F64Op::Cos, f64::cos),
            ] {
                let mut out = vec![0.0; x.len()];
                map_f64_libm(&x, &mut out, op);
                let mut worst = 0;
                for (&v, &got) in x.iter().zip(&out) {
                    let want = f(v);
                    if want.is_nan() {
                        assert!(got.is_nan(), "{op:?}({v:e}) = {got:e}, want nan");
                        continue;
                    }
                    assert_eq!(
                        got.is_sign_negative(),
                        want.is_sign_negative(),
                        "{op:?}({v:e})"
                    );
                    let d = ulps(got, want);
                    assert!(d <= 1, "{op:?}({v:e}) = {got:e}, the C library's {want:e}");
                    worst = worst.max(d);
                }
                assert!(worst <= 1);
            }
        }
    }
}

/// `clamp(x, lo, hi)` of a float buffer with scalar bounds, as torch computes it: `x`
/// below `lo` becomes `lo`, then above `hi` becomes `hi` (so `lo > hi` gives `hi`
/// everywhere, a nan `x` stays nan, and an `x` equal to a bound is kept: `-0.0` stays
/// `-0.0` under a bound of `0.0`); a nan bound makes every element nan. `None` bounds
/// nothing. On the pool when large.
pub fn clamp<T: AddcElem + PartialOrd + num_like::Float>(
    x: &[T],
    lo: Option<T>,
    hi: Option<T>,
    out: &mut [T],
) {
    assert_eq!(x.len(), out.len());
    if lo.is_some_and(T::is_nan) || hi.is_some_and(T::is_nan) {
        out.fill(T::NAN);
        return;
    }
    let (lo, hi) = (lo.unwrap_or(T::NEG_INFINITY), hi.unwrap_or(T::INFINITY));
    for_chunks(out, |start, os| {
        clamp_chunk(&x[start..start + os.len()], lo, hi, os)
    });
}

#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn clamp_chunk<T: AddcElem + PartialOrd>(x: &[T], lo: T, hi: T, out: &mut [T]) {
    for (o, &v) in out.iter_mut().zip(x) {
        let r = if v < lo { lo } else { v };
        *o = if r > hi { hi } else { r };
    }
}

/// The float constants [`clamp`] needs.
pub mod num_like {
    pub trait Float: Copy {
        const NAN: Self;
        const INFINITY: Self;
        const NEG_INFINITY: Self;
        fn is_nan(self) -> bool;
    }
    macro_rules! float {
        ($($t:ident),*) => {$(
            impl Float for $t {
                const NAN: Self = $t::NAN;
                const INFINITY: Self = $t::INFINITY;
                const NEG_INFINITY: Self = $t::NEG_INFINITY;
                #[inline(always)]
                fn is_nan(self) -> bool {
                    $t::is_nan(self)
                }
            }
        )*};
    }
    float!(f32, f64);
}
