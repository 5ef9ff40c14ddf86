//! The vectorised math against `f64` references, and the fused kernels against
//! naive `f64` formulas, with 1 and several threads (bit-identical).

use super::fused::{
    gelu, gelu_backward, norm, norm_backward, silu, silu_backward, softmax, softmax_backward,
};
use super::parallel::set_num_threads;
use super::vmath::{erf_f32, exp_f32, exp_f32_with, tanh_f32};

/// A reproducible pseudo-random sequence in `[lo, hi)` (xorshift).
fn values(n: usize, lo: f64, hi: f64, seed: u64) -> Vec<f64> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            lo + (hi - lo) * ((s >> 11) as f64 / (1u64 << 53) as f64)
        })
        .collect()
}

fn ulps(a: f32, b: f32) -> i64 {
    (a.to_bits() as i64 - b.to_bits() as i64).abs()
}

/// The largest distance in ulps between `f(x)` and `f64`'s `exp` rounded to `f32`, over
/// every 257th `f32` between -104 and 89 (the whole range where `exp` is neither 0 nor
/// inf; subnormal results included) and both signs of zero.
fn exp_max_ulps(f: impl Fn(f32) -> f32) -> i64 {
    let mut worst = 0;
    let bits = (0u32..0x42B2_0000)
        .step_by(257)
        .chain((0x8000_0000u32..0xC2D0_0000).step_by(257));
    for b in bits {
        let x = f32::from_bits(b);
        let want = (x as f64).exp() as f32;
        let got = f(x);
        let d = ulps(got, want);
        assert!(d <= 2, "exp({x:e}) = {got:e} want {want:e}");
        worst = worst.max(d);
    }
    worst
}

#[test]
fn exp_is_within_two_ulp_over_its_range() {
    // Measured: at most 1 ulp from the correctly rounded value, with and without FMA.
    assert!(exp_max_ulps(exp_f32) <= 1);
    assert!(exp_max_ulps(exp_f32_with::<true>) <= 1);
    assert_eq!(exp_f32(0.0), 1.0);
    assert_eq!(exp_f32(89.0), f32::INFINITY);
    assert_eq!(exp_f32(88.8), f32::INFINITY);
    assert_eq!(exp_f32(f32::INFINITY), f32::INFINITY);
    assert_eq!(exp_f32(-104.0), 0.0);
    assert_eq!(exp_f32(-1e30), 0.0);
    assert_eq!(exp_f32(f32::NEG_INFINITY), 0.0);
    assert!(exp_f32(f32::NAN).is_nan() && exp_f32_with::<true>(f32::NAN).is_nan());
    assert!(exp_f32(88.72).is_finite());
    // subnormal results: rounded once from the true value (1.4e-45 is the smallest)
    assert_eq!(exp_f32(-90.0), (-90.0f64).exp() as f32);
    assert_eq!(exp_f32(-103.0), (-103.0f64).exp() as f32);
}

#[test]
fn erf_and_tanh_are_close_to_f64() {
    for x in values(200_000, -10.0, 10.0, 2) {
        let xf = x as f32;
        let xd = xf as f64;
        let (e, want) = (erf_f32(xf) as f64, libm::erf(xd));
        assert!(
            (e - want).abs() < 3e-7 && (e - want).abs() <= 1e-6 * want.abs().max(1e-2),
            "erf({xf}) = {e} want {want}"
        );
        let t = tanh_f32(xf) as f64;
        let want = xd.tanh();
        assert!(
            (t - want).abs() <= 1e-6 * want.abs().max(1e-3) + 1e-9,
            "tanh({xf}) = {t} want {want}"
        );
    }
    assert_eq!(erf_f32(f32::INFINITY), 1.0);
    assert_eq!(erf_f32(f32::NEG_INFINITY), -1.0);
    assert!(erf_f32(f32::NAN).is_nan() && tanh_f32(f32::NAN).is_nan());
    assert_eq!(tanh_f32(-0.0).to_bits(), (-0.0f32).to_bits());
}

fn softmax_ref(x: &[f64], n: usize, inner: usize, log: bool) -> Vec<f64> {
    let mut out = vec![0.0; x.len()];
    for o in 0..x.len() / (n * inner) {
        for i in 0..inner {
            let at = |j: usize| o * n * inner + j * inner + i;
            let m = (0..n).map(|j| x[at(j)]).fold(f64::NEG_INFINITY, f64::max);
            let s: f64 = (0..n).map(|j| (x[at(j)] - m).exp()).sum();
            for j in 0..n {
                out[at(j)] = if log {
                    x[at(j)] - m - s.ln()
                } else {
                    (x[at(j)] - m).exp() / s
                };
            }
        }
    }
    out
}

fn close(a: &[f32], b: &[f64], rtol: f64, atol: f64) {
    assert_eq!(a.len(), b.len());
    for (k, (&x, &y)) in a.iter().zip(b).enumerate() {
        assert!(
            (x as f64 - y).abs() <= atol + rtol * y.abs(),
            "element {k}: {x} vs {y}"
        );
    }
}

/// Runs `f` with 1 and with 3 threads and checks both give the same bits.
fn both_thread_counts(f: impl Fn() -> Vec<f32>) -> Vec<f32> {
    let _serial = super::parallel::thread_count_guard();
    set_num_threads(1);
    let one = f();
    set_num_threads(3);
    let many = f();
    assert_eq!(
        one.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        many.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
    );
    one
}

#[test]
fn softmax_matches_f64_along_every_layout() {
    for &(outer, n, inner) in &[(700, 129, 1), (3, 50, 7), (40, 1000, 3), (1, 5, 1)] {
        let x64 = values(outer * n * inner, -20.0, 20.0, 3);
        let x: Vec<f32> = x64.iter().map(|&v| v as f32).collect();
        let xd: Vec<f64> = x.iter().map(|&v| v as f64).collect();
        for log in [false, true] {
            let got = both_thread_counts(|| {
                let mut out = vec![0.0f32; x.len()];
                softmax(&x, n, inner, &mut out, log);
                out
            });
            close(&got, &softmax_ref(&xd, n, inner, log), 2e-6, 1e-6);
        }
    }
}

#[test]
fn softmax_propagates_nan_and_all_minus_inf_rows() {
    let x = [
        1.0f32,
        f32::NAN,
        2.0,
        f32::NEG_INFINITY,
        f32::NEG_INFINITY,
        f32::NEG_INFINITY,
    ];
    let mut out = [0.0f32; 6];
    softmax(&x, 3, 1, &mut out, false);
    assert!(out.iter().all(|v| v.is_nan()));
}

#[test]
fn softmax_backward_matches_f64() {
    let (rows, n) = (300, 257);
    let x: Vec<f32> = values(rows * n, -5.0, 5.0, 4)
        .iter()
        .map(|&v| v as f32)
        .collect();
    let g: Vec<f32> = values(rows * n, -1.0, 1.0, 5)
        .iter()
        .map(|&v| v as f32)
        .collect();
    for log in [false, true] {
        let mut y = vec![0.0f32; x.len()];
        softmax(&x, n, 1, &mut y, log);
        let got = both_thread_counts(|| {
            let mut out = vec![0.0f32; x.len()];
            softmax_backward(&g, &y, n, 1, &mut out, log);
            out
        });
        let mut want = vec![0.0f64; x.len()];
        for r in 0..rows {
            let row = r * n..(r + 1) * n;
            let (gr, yr) = (&g[row.clone()], &y[row.clone()]);
            let s: f64 = if log {
                gr.iter().map(|&v| v as f64).sum()
            } else {
                gr.iter().zip(yr).map(|(&a, &b)| a as f64 * b as f64).sum()
            };
            for j in 0..n {
                let (gv, yv) = (gr[j] as f64, yr[j] as f64);
                want[r * n + j] = if log {
                    gv - yv.exp() * s
                } else {
                    yv * (gv - s)
                };
            }
        }
        close(&got, &want, 1e-5, 1e-6);
    }
}

#[test]
fn norms_and_their_gradients_match_f64() {
    let (rows, cols) = (200, 300);
    let x: Vec<f32> = values(rows * cols, -3.0, 7.0, 6)
        .iter()
        .map(|&v| v as f32)
        .collect();
    let w: Vec<f32> = values(cols, 0.5, 1.5, 7)
        .iter()
        .map(|&v| v as f32)
        .collect();
    let b: Vec<f32> = values(cols, -1.0, 1.0, 8)
        .iter()
        .map(|&v| v as f32)
        .collect();
    let g: Vec<f32> = values(rows * cols, -1.0, 1.0, 9)
        .iter()
        .map(|&v| v as f32)
        .collect();
    let eps = 1e-5;
    for center in [true, false] {
        let mut stats = vec![0.0f32; 2 * rows];
        let y = both_thread_counts(|| {
            let mut out = vec![0.0f32; x.len()];
            let mut s = vec![0.0f32; 2 * rows];
            norm(
                &x,
                cols,
                Some(&w),
                center.then_some(&b[..]),
                eps,
                center,
                &mut out,
                &mut s,
            );
            out
        });
        let mut unused = vec![0.0f32; x.len()];
        norm(
            &x,
            cols,
            Some(&w),
            center.then_some(&b[..]),
            eps,
            center,
            &mut unused,
            &mut stats,
        );
        let mut want = vec![0.0f64; x.len()];
        let (mut dxw, mut dww, mut dbw) = (
            vec![0.0f64; x.len()],
            vec![0.0f64; cols],
            vec![0.0f64; cols],
        );
        for r in 0..rows {
            let row: Vec<f64> = x[r * cols..(r + 1) * cols]
                .iter()
                .map(|&v| v as f64)
                .collect();
            let mean = if center {
                row.iter().sum::<f64>() / cols as f64
            } else {
                0.0
            };
            let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / cols as f64;
            let rstd = 1.0 / (var + eps).sqrt();
            let xhat: Vec<f64> = row.iter().map(|v| (v - mean) * rstd).collect();
            let d: Vec<f64> = (0..cols)
                .map(|j| g[r * cols + j] as f64 * w[j] as f64)
                .collect();
            let md = if center {
                d.iter().sum::<f64>() / cols as f64
            } else {
                0.0
            };
            let mdx = d.iter().zip(&xhat).map(|(a, b)| a * b).sum::<f64>() / cols as f64;
            for j in 0..cols {
                want[r * cols + j] = xhat[j] * w[j] as f64 + if center { b[j] as f64 } else { 0.0 };
                dxw[r * cols + j] = rstd * (d[j] - md - xhat[j] * mdx);
                dww[j] += g[r * cols + j] as f64 * xhat[j];
                dbw[j] += g[r * cols + j] as f64;
            }
        }
        close(&y, &want, 1e-5, 1e-5);
        let all = both_thread_counts(|| {
            let mut dx = vec![0.0f32; x.len()];
            let (mut dw, mut db) = (vec![0.0f32; cols], vec![0.0f32; cols]);
            norm_backward(
                &g,
                &x,
                &stats,
                Some(&w),
                cols,
                center,
                Some(&mut dx),
                Some(&mut dw),
                Some(&mut db),
            );
            [dx, dw, db].concat()
        });
        let (dx, rest) = all.split_at(x.len());
        let (dw, db) = rest.split_at(cols);
        close(dx, &dxw, 1e-4, 1e-5);
        close(dw, &dww, 1e-4, 1e-4);
        // the parameter gradients alone (no input gradient) are the same values
        let (mut dw2, mut db2) = (vec![0.0f32; cols], vec![0.0f32; cols]);
        norm_backward(
            &g,
            &x,
            &stats,
            Some(&w),
            cols,
            center,
            None,
            Some(&mut dw2),
            Some(&mut db2),
        );
        assert_eq!(dw, &dw2[..]);
        assert_eq!(db, &db2[..]);
        close(db, &dbw, 1e-5, 1e-5);
    }
}

#[test]
fn gelu_and_silu_match_f64_with_their_gradients() {
    let x: Vec<f32> = values(100_000, -12.0, 12.0, 10)
        .iter()
        .map(|&v| v as f32)
        .collect();
    let g: Vec<f32> = values(100_000, -1.0, 1.0, 11)
        .iter()
        .map(|&v| v as f32)
        .collect();
    let phi = |v: f64| 0.5 * (1.0 + libm::erf(v / std::f64::consts::SQRT_2));
    let pdf = |v: f64| (-0.5 * v * v).exp() / (2.0 * std::f64::consts::PI).sqrt();
    let k = (2.0 / std::f64::consts::PI).sqrt();
    for tanh in [false, true] {
        let y = both_thread_counts(|| {
            let mut out = vec![0.0f32; x.len()];
            gelu(&x, &mut out, tanh);
            out
        });
        let dy = both_thread_counts(|| {
            let mut out = vec![0.0f32; x.len()];
            gelu_backward(&g, &x, &mut out, tanh);
            out
        });
        let (want, dwant): (Vec<f64>, Vec<f64>) = x
            .iter()
            .zip(&g)
            .map(|(&v, &gv)| {
                let (v, gv) = (v as f64, gv as f64);
                if tanh {
                    let t = (k * (v + 0.044715 * v * v * v)).tanh();
                    let dt = (1.0 - t * t) * k * (1.0 + 3.0 * 0.044715 * v * v);
                    (0.5 * v * (1.0 + t), gv * (0.5 * (1.0 + t) + 0.5 * v * dt))
                } else {
                    (v * phi(v), gv * (phi(v) + v * pdf(v)))
                }
            })
            .unzip();
        close(&y, &want, 1e-5, 2e-6);
        close(&dy, &dwant, 1e-5, 2e-6);
    }
    let mut y = vec![0.0f32; x.len()];
    silu(&x, &mut y);
    let mut dy = vec![0.0f32; x.len()];
    silu_backward(&g, &x, &mut dy);
    let sig = |v: f64| 1.0 / (1.0 + (-v).exp());
    let want: Vec<f64> = x.iter().map(|&v| v as f64 * sig(v as f64)).collect();
    let dwant: Vec<f64> = x
        .iter()
        .zip(&g)
        .map(|(&v, &gv)| {
            let (v, s) = (v as f64, sig(v as f64));
            gv as f64 * s * (1.0 + v * (1.0 - s))
        })
        .collect();
    close(&y, &want, 1e-6, 1e-7);
    close(&dy, &dwant, 1e-5, 1e-7);
}
