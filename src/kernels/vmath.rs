//! Branch-free `f32` transcendental functions that the compiler vectorises.
//!
//! Note [Vector math]: `f32::exp` and friends call the C library one element at
//! a time; the fused kernels (`fused.rs`) apply exp/erf/tanh to every element of
//! large buffers, so they use these instead: range reduction and a polynomial
//! written with plain arithmetic and selects only, which LLVM turns into SIMD
//! code for whole loops (SSE2 on every x86_64, 4 lanes). Accuracy: `exp` within
//! 2 ulp on its whole range (Cephes' `expf` polynomial); `erf` within 3e-7
//! absolute (an erfc fit on this `exp`, a series near 0), inside the tolerance
//! torch's own vectorised float kernels are tested with. `f64` kernels call the
//! C library (`f64::exp`, `libm::erf`): their results must be exact to ~1e-15.

/// Largest `x` whose `exp` is finite in `f32`.
const EXP_HI: f32 = 88.722_83;
/// Smallest `x` whose `exp` is a normal `f32`; below it the result is flushed to 0
/// (the true value is below 1.2e-38).
const EXP_LO: f32 = -87.336_55;
const LOG2E: f32 = std::f32::consts::LOG2_E;
const LN2_HI: f32 = 0.693_359_4;
const LN2_LO: f32 = -2.121_944_4e-4;
/// 1.5 * 2^23: adding it rounds a float of magnitude < 2^22 to an integer.
const ROUND_MAGIC: f32 = 12_582_912.0;

/// `e^x` (see Note [Vector math]); nan stays nan, ±inf give inf and 0.
#[inline(always)]
pub fn exp_f32(x: f32) -> f32 {
    let xc = x.clamp(EXP_LO, EXP_HI);
    let t = xc * LOG2E + ROUND_MAGIC;
    let k = t - ROUND_MAGIC;
    let r = xc - k * LN2_HI - k * LN2_LO;
    let mut p = 1.987_569_1e-4_f32;
    p = p * r + 1.398_199_9e-3;
    p = p * r + 8.333_452e-3;
    p = p * r + 4.166_579_6e-2;
    p = p * r + 1.666_666_5e-1;
    p = p * r + 0.5;
    let poly = p * r * r + r + 1.0;
    // 2^k by building the exponent field; k is in [-126, 128] after the clamp, and the
    // last step of the range splits 2^128 as 2^127 * 2.
    let ki = (t.to_bits() as i32).wrapping_sub(0x4B40_0000);
    let half = ki >> 1;
    let scale_a = f32::from_bits(((half + 127) as u32) << 23);
    let scale_b = f32::from_bits(((ki - half + 127) as u32) << 23);
    let y = poly * scale_a * scale_b;
    let y = if x > EXP_HI { f32::INFINITY } else { y };
    let y = if x < EXP_LO { 0.0 } else { y };
    if x.is_nan() {
        x
    } else {
        y
    }
}

/// `erf(x)` for `f32` (see Note [Vector math]): `1 - erfc(|x|)` with the sign,
/// erfc from the Chebyshev fit of Numerical Recipes (relative error < 1.2e-7), and
/// the Maclaurin series below 0.5, where `1 - erfc` would cancel.
#[inline(always)]
pub fn erf_f32(x: f32) -> f32 {
    let a = x.abs();
    let t = 2.0 / (2.0 + a);
    let mut p = 0.170_872_77_f32;
    for c in [
        -0.822_152_23,
        1.488_515_9,
        -1.135_204,
        0.278_868_07,
        -0.186_288_06,
        0.096_784_18,
        0.374_091_96,
        1.000_023_7,
    ] {
        p = p * t + c;
    }
    let erfc = t * exp_f32(-a * a - 1.265_512_2 + t * p);
    let far = 1.0 - erfc;
    let x2 = a * a;
    let c = std::f32::consts::FRAC_2_SQRT_PI;
    let near = c
        * a
        * (1.0
            + x2 * (-1.0 / 3.0
                + x2 * (0.1 + x2 * (-1.0 / 42.0 + x2 * (1.0 / 216.0 + x2 * (-1.0 / 1320.0))))));
    let y = if a < 0.5 { near } else { far };
    let y = if a > 9.0 { 1.0 } else { y };
    let y = if x.is_nan() { x } else { y };
    y.copysign(x)
}

/// `tanh(x)` for `f32`: `x * p(x²)` near 0, `1 - 2 / (e^{2|x|} + 1)` beyond, with the sign.
#[inline(always)]
pub fn tanh_f32(x: f32) -> f32 {
    let a = x.abs();
    let e = exp_f32(2.0 * a.min(20.0));
    let far = 1.0 - 2.0 / (e + 1.0);
    // Below 0.3 the subtraction above loses bits: the Taylor series to x^11 is exact there.
    let x2 = x * x;
    let near = x
        * (1.0
            + x2 * (-1.0 / 3.0
                + x2 * (2.0 / 15.0
                    + x2 * (-17.0 / 315.0 + x2 * (62.0 / 2835.0 + x2 * (-1382.0 / 155_925.0))))));
    let y = if a < 0.3 { near } else { far.copysign(x) };
    if x.is_nan() {
        x
    } else {
        y
    }
}

/// `1 / (1 + e^-x)` for `f32`.
#[inline(always)]
pub fn sigmoid_f32(x: f32) -> f32 {
    1.0 / (1.0 + exp_f32(-x))
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
    fn exp(self) -> Self;
    fn ln(self) -> Self;
    fn sqrt(self) -> Self;
    fn erf(self) -> Self;
    fn tanh(self) -> Self;
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
    fn exp(self) -> Self {
        exp_f32(self)
    }
    #[inline(always)]
    fn erf(self) -> Self {
        erf_f32(self)
    }
    #[inline(always)]
    fn tanh(self) -> Self {
        tanh_f32(self)
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
    fn exp(self) -> Self {
        f64::exp(self)
    }
    #[inline(always)]
    fn erf(self) -> Self {
        libm::erf(self)
    }
    #[inline(always)]
    fn tanh(self) -> Self {
        f64::tanh(self)
    }
}
