//! Branch-free `f32` transcendental functions that the compiler vectorises.
//!
//! Note [Vector math]: `f32::exp` and friends call the C library one element at
//! a time; the fused kernels (`fused.rs`) apply exp/erf/tanh to every element of
//! large buffers, so they use these instead: range reduction and a polynomial
//! written with plain arithmetic and selects only, which LLVM turns into SIMD
//! code for whole loops (SSE2 on every x86_64, 4 lanes; AVX2 and AVX-512 in the
//! kernels' clones for those CPUs). Each comes in two forms, `F = true` with
//! fused multiply-adds (the kernels' clones for CPUs with FMA select it with
//! `multiversion`'s `selected_target!`) and `F = false` with separate products and
//! sums (the baseline clone, where `mul_add` would be a library call): the values
//! may differ in the last bit between the two. Accuracy (tested against `f64`):
//! `exp` within 2 ulp on its whole range (Cephes' `expf` polynomial), subnormal
//! results rounded once; `erf` within 3e-7 absolute (an erfc fit times this `exp`, a
//! series near 0), inside the tolerance torch's own vectorised float kernels are
//! tested with. `f64` kernels call the C library (`f64::exp`, `libm::erf`): their
//! results must be exact to ~1e-15.

/// `exp` saturates beyond these: above `EXP_HI` the result overflows to inf, below
/// `EXP_LO` it rounds to 0 (the scaling below is exact up to its last multiplication).
const EXP_HI: f32 = 89.0;
const EXP_LO: f32 = -104.0;
const LOG2E: f32 = std::f32::consts::LOG2_E;
/// `ln 2` in two parts: the first has 9 significant bits, so `k * LN2_HI` is exact.
const LN2_HI: f32 = 0.693_359_4;
const LN2_LO: f32 = -2.121_944_4e-4;
/// 1.5 * 2^23: adding it rounds a float of magnitude < 2^22 to an integer.
const ROUND_MAGIC: f32 = 12_582_912.0;

/// `a * b + c`: one fused multiply-add where the compiled code has FMA (`F`), else two
/// roundings. The kernels pick `F` per CPU (Note [Vector math]).
#[inline(always)]
pub fn mad<const F: bool>(a: f32, b: f32, c: f32) -> f32 {
    if F {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

/// `e^x` (see Note [Vector math]) without fused multiply-adds.
#[inline(always)]
pub fn exp_f32(x: f32) -> f32 {
    exp_f32_with::<false>(x)
}

/// `e^x`, with fused multiply-adds when `F`: nan stays nan, ±inf give inf and 0, the
/// subnormal results rounded once. Branch-free: the clamps keep a nan (a comparison
/// with nan is false), and past the clamps the result overflows or underflows by itself.
#[inline(always)]
pub fn exp_f32_with<const F: bool>(x: f32) -> f32 {
    let xc = if x < EXP_LO { EXP_LO } else { x };
    let xc = if xc > EXP_HI { EXP_HI } else { xc };
    let t = mad::<F>(xc, LOG2E, ROUND_MAGIC);
    let k = t - ROUND_MAGIC;
    let r = mad::<F>(-k, LN2_HI, xc);
    let r = mad::<F>(-k, LN2_LO, r);
    // Cephes' degree-5 polynomial by Estrin's scheme (three independent pairs, then two
    // levels) rather than a chain of five dependent multiply-adds.
    let r2 = r * r;
    let a0 = mad::<F>(1.666_666_5e-1, r, 0.5);
    let a1 = mad::<F>(8.333_452e-3, r, 4.166_579_6e-2);
    let a2 = mad::<F>(1.987_569_1e-4, r, 1.398_199_9e-3);
    let p = mad::<F>(mad::<F>(a2, r2, a1), r2, a0);
    let poly = mad::<F>(p, r2, r) + 1.0;
    // 2^k as two factors built in the exponent field: k is in [-150, 128] after the
    // clamps, each half in [-75, 64], so both are normal numbers and only the last
    // product rounds (to inf, a subnormal or 0 at the ends of the range).
    let ki = (t.to_bits() as i32).wrapping_sub(0x4B40_0000);
    let half = ki >> 1;
    let scale_a = f32::from_bits(((half + 127) as u32) << 23);
    let scale_b = f32::from_bits(((ki - half + 127) as u32) << 23);
    poly * scale_a * scale_b
}

/// `erf(x)` for `f32` (see Note [Vector math]), without fused multiply-adds.
#[inline(always)]
pub fn erf_f32(x: f32) -> f32 {
    erf_f32_with::<false>(x)
}

/// `erfc(a)` for `a >= 0`: `t e^(-a²) Q(t)` with `t = 2 / (2 + a)` and `Q` a degree-8
/// polynomial fitted to `erfcx(a) / t` over the clamped range by relative least squares
/// (relative error 5.1e-8 in exact arithmetic; in `f32` the rounding of `a²` in the
/// exponent dominates far out, a few 1e-6 near the clamp). `e^(-a²)` does not wait on
/// the polynomial, so the two chains run side by side (Numerical Recipes' fit puts its
/// polynomial inside the exponent: one chain twice as long, which bounds the kernels'
/// loops). `Q` by Estrin's scheme. The callers clamp `a` to 10.5, where `e^(-a²)` is
/// exactly 0 (so `x * erfc` of an infinite `x` is nan, as torch's).
#[inline(always)]
fn erfc_pos<const F: bool>(a: f32) -> f32 {
    let t = 2.0 / (2.0 + a);
    let t2 = t * t;
    let t4 = t2 * t2;
    let q0 = mad::<F>(0.282_462_4, t, 0.282_081_9);
    let q1 = mad::<F>(0.205_632_85, t, 0.242_413_65);
    let q2 = mad::<F>(0.289_526_97, t, -0.034_070_43);
    let q3 = mad::<F>(0.289_900_96, t, -0.497_743_96);
    let r0 = mad::<F>(q1, t2, q0);
    let r1 = mad::<F>(q3, t2, q2);
    let s = mad::<F>(r1, t4, r0);
    let q = mad::<F>(-0.060_204_413 * t4, t4, s);
    t * q * exp_f32_with::<F>(-(a * a))
}

/// `erf(x)` for `f32`: `1 - erfc(|x|)` with the sign, and the Maclaurin series below
/// 0.5, where `1 - erfc` would cancel.
#[inline(always)]
pub fn erf_f32_with<const F: bool>(x: f32) -> f32 {
    let a = x.abs();
    let far = 1.0 - erfc_pos::<F>(a.min(10.5));
    let x2 = a * a;
    let c = std::f32::consts::FRAC_2_SQRT_PI;
    let mut s = -1.0 / 1320.0;
    for k in [1.0 / 216.0, -1.0 / 42.0, 0.1, -1.0 / 3.0, 1.0] {
        s = mad::<F>(s, x2, k);
    }
    let near = c * a * s;
    let y = if a < 0.5 { near } else { far };
    let y = if x.is_nan() { x } else { y };
    y.copysign(x)
}

/// `1 + erf(x)` for `f32` without cancellation: `2 - erfc(x)` for `x >= 0`, `erfc(-x)`
/// below (gelu's `2 Φ(x √2)`, accurate relative to itself in the negative tail too).
#[inline(always)]
pub fn one_plus_erf_f32_with<const F: bool>(x: f32) -> f32 {
    let e = erfc_pos::<F>(x.abs().min(10.5));
    let y = if x < 0.0 { e } else { 2.0 - e };
    if x.is_nan() {
        x
    } else {
        y
    }
}

/// `tanh(x)` for `f32`, without fused multiply-adds.
#[inline(always)]
pub fn tanh_f32(x: f32) -> f32 {
    tanh_f32_with::<false>(x)
}

/// `tanh(x)` for `f32`: `x * p(x²)` near 0, `1 - 2 / (e^{2|x|} + 1)` beyond, with the sign.
#[inline(always)]
pub fn tanh_f32_with<const F: bool>(x: f32) -> f32 {
    let a = x.abs();
    let e = exp_f32_with::<F>(2.0 * a.min(20.0));
    let far = 1.0 - 2.0 / (e + 1.0);
    // Below 0.3 the subtraction above loses bits: the Taylor series to x^11 is exact there.
    let x2 = x * x;
    let mut s = -1382.0 / 155_925.0;
    for k in [62.0 / 2835.0, -17.0 / 315.0, 2.0 / 15.0, -1.0 / 3.0, 1.0] {
        s = mad::<F>(s, x2, k);
    }
    let near = x * s;
    let y = if a < 0.3 { near } else { far.copysign(x) };
    if x.is_nan() {
        x
    } else {
        y
    }
}

/// The operations the fused kernels need of an element type, computed in that type.
pub trait Real: Copy + Send + Sync + PartialOrd + std::fmt::Debug + 'static {
    const ZERO: Self;
    const ONE: Self;
    const NEG_INFINITY: Self;
    fn from_f64(v: f64) -> Self;
    fn to_f64(self) -> f64;
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn div(self, o: Self) -> Self;
    fn max(self, o: Self) -> Self;
    /// `e^self`; `F`: the code may use fused multiply-adds (Note [Vector math]).
    fn exp<const F: bool>(self) -> Self;
    fn ln(self) -> Self;
    fn sqrt(self) -> Self;
    fn erf<const F: bool>(self) -> Self;
    /// `1 + erf(self)`, without cancellation for negative values.
    fn one_plus_erf<const F: bool>(self) -> Self;
    fn tanh<const F: bool>(self) -> Self;
    fn is_nan(self) -> bool;
}

macro_rules! real_common {
    () => {
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            self + o
        }
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            self - o
        }
        #[inline(always)]
        fn mul(self, o: Self) -> Self {
            self * o
        }
        #[inline(always)]
        fn div(self, o: Self) -> Self {
            self / o
        }
        /// nan-propagating maximum (torch's `max` and softmax see a nan).
        #[inline(always)]
        fn max(self, o: Self) -> Self {
            if self > o || self.is_nan() {
                self
            } else {
                o
            }
        }
        #[inline(always)]
        fn ln(self) -> Self {
            <Self>::ln(self)
        }
        #[inline(always)]
        fn sqrt(self) -> Self {
            <Self>::sqrt(self)
        }
        #[inline(always)]
        fn is_nan(self) -> bool {
            <Self>::is_nan(self)
        }
    };
}

impl Real for f32 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    const NEG_INFINITY: Self = f32::NEG_INFINITY;
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self as f64
    }
    real_common!();
    #[inline(always)]
    fn exp<const F: bool>(self) -> Self {
        exp_f32_with::<F>(self)
    }
    #[inline(always)]
    fn erf<const F: bool>(self) -> Self {
        erf_f32_with::<F>(self)
    }
    #[inline(always)]
    fn one_plus_erf<const F: bool>(self) -> Self {
        one_plus_erf_f32_with::<F>(self)
    }
    #[inline(always)]
    fn tanh<const F: bool>(self) -> Self {
        tanh_f32_with::<F>(self)
    }
}

impl Real for f64 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    const NEG_INFINITY: Self = f64::NEG_INFINITY;
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        v
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self
    }
    real_common!();
    #[inline(always)]
    fn exp<const F: bool>(self) -> Self {
        f64::exp(self)
    }
    #[inline(always)]
    fn erf<const F: bool>(self) -> Self {
        libm::erf(self)
    }
    #[inline(always)]
    fn one_plus_erf<const F: bool>(self) -> Self {
        libm::erfc(-self)
    }
    #[inline(always)]
    fn tanh<const F: bool>(self) -> Self {
        f64::tanh(self)
    }
}
