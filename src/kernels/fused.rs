//! Single-pass kernels for the composites torch fuses: `softmax`/`log_softmax`
//! along a dim, `layer_norm`, `rms_norm`, `gelu` and `silu`, and their backward.
//!
//! Note [Fused layout]: a tensor reduced along one dim is seen as `(outer, n,
//! inner)` contiguous: `n` the reduced dim, `inner` the product of the dims after
//! it. With `inner == 1` each of the `outer` rows is `n` consecutive elements;
//! otherwise the reduction runs along a stride of `inner`, vectorised across the
//! `inner` lanes. The norms reduce over the trailing `cols` elements of each row.
//! Rows run on the intra-op pool when large (Note [Intra-op threads]); results do
//! not depend on the number of threads (each row is computed by one thread, in a
//! fixed order). Sums run in 8 lanes (so they vectorise) in the element type for
//! softmax, as torch's float kernels do, and in `f64` for the norms' statistics
//! (see `row_stats`).

use super::parallel::{for_chunks, for_row_blocks, for_row_blocks_aux, map_chunks_mut, GRAIN};
use multiversion::{multiversion, target::selected_target};

use super::vmath::Real;

const LANES: usize = 8;

#[inline(always)]
fn lane_max<T: Real>(x: &[T]) -> T {
    let mut m = [T::NEG_INFINITY; LANES];
    let mut chunks = x.chunks_exact(LANES);
    for c in &mut chunks {
        for i in 0..LANES {
            m[i] = m[i].max(c[i]);
        }
    }
    let mut r = chunks
        .remainder()
        .iter()
        .fold(T::NEG_INFINITY, |a, &v| a.max(v));
    for v in m {
        r = r.max(v);
    }
    r
}

/// Writes `e^(x - m)` into `out` and returns its sum. The exponentials are one plain
/// loop and the sum a second pass in 8 lanes over `out` (in L1 by then): the loop
/// vectorizer turns the first into SIMD `exp`, which it does not do for the same
/// work spread over the lanes of a fixed-size chunk.
#[inline(always)]
fn exp_shifted<T: Real, const F: bool>(x: &[T], m: T, out: &mut [T]) -> T {
    for (o, &v) in out.iter_mut().zip(x) {
        *o = v.sub(m).exp::<F>();
    }
    lane_sum(out)
}

/// The sum of `x` in 8 lanes, combined pairwise, then the remainder in order.
#[inline(always)]
fn lane_sum<T: Real>(x: &[T]) -> T {
    let mut s = [T::ZERO; LANES];
    let mut chunks = x.chunks_exact(LANES);
    for c in &mut chunks {
        for i in 0..LANES {
            s[i] = s[i].add(c[i]);
        }
    }
    let r = chunks.remainder().iter().fold(T::ZERO, |a, &v| a.add(v));
    let pairs = [
        s[0].add(s[1]),
        s[2].add(s[3]),
        s[4].add(s[5]),
        s[6].add(s[7]),
    ];
    pairs[0].add(pairs[1]).add(pairs[2].add(pairs[3])).add(r)
}

#[inline(always)]
fn softmax_row<T: Real, const F: bool>(x: &[T], out: &mut [T], log: bool) {
    let m = lane_max(x);
    let s = exp_shifted::<T, F>(x, m, out);
    if log {
        let shift = m.add(s.ln());
        for (o, &v) in out.iter_mut().zip(x) {
            *o = v.sub(shift);
        }
    } else {
        let inv = T::ONE.div(s);
        for o in out.iter_mut() {
            *o = o.mul(inv);
        }
    }
}

/// Softmax of one `(n, inner)` block along `n`, vectorised across `inner`.
#[inline(always)]
fn softmax_strided<T: Real, const F: bool>(
    x: &[T],
    n: usize,
    inner: usize,
    out: &mut [T],
    log: bool,
) {
    let mut m = vec![T::NEG_INFINITY; inner];
    for row in x.chunks_exact(inner) {
        for (a, &v) in m.iter_mut().zip(row) {
            *a = a.max(v);
        }
    }
    let mut s = vec![T::ZERO; inner];
    for (row, orow) in x.chunks_exact(inner).zip(out.chunks_exact_mut(inner)) {
        for i in 0..inner {
            let e = row[i].sub(m[i]).exp::<F>();
            orow[i] = e;
            s[i] = s[i].add(e);
        }
    }
    if log {
        let shift: Vec<T> = m.iter().zip(&s).map(|(&a, &b)| a.add(b.ln())).collect();
        for (row, orow) in x.chunks_exact(inner).zip(out.chunks_exact_mut(inner)) {
            for i in 0..inner {
                orow[i] = row[i].sub(shift[i]);
            }
        }
    } else {
        let inv: Vec<T> = s.iter().map(|&v| T::ONE.div(v)).collect();
        for orow in out.chunks_exact_mut(inner) {
            for i in 0..inner {
                orow[i] = orow[i].mul(inv[i]);
            }
        }
    }
    debug_assert_eq!(x.len(), n * inner);
}

/// `softmax` (or `log_softmax`) of `x` along the dim of length `n` with `inner`
/// elements after it (Note [Fused layout]); `out` has `x`'s length.
pub fn softmax<T: Real>(x: &[T], n: usize, inner: usize, out: &mut [T], log: bool) {
    assert_eq!(x.len(), out.len());
    if n == 0 || x.is_empty() {
        return;
    }
    let block = n * inner;
    for_row_blocks(x, block, out, block, |_, xs, os| {
        softmax_blocks(xs, n, inner, os, log)
    });
}

#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn softmax_blocks<T: Real>(xs: &[T], n: usize, inner: usize, os: &mut [T], log: bool) {
    if selected_target!().supports_feature_str("fma") {
        softmax_blocks_with::<T, true>(xs, n, inner, os, log)
    } else {
        softmax_blocks_with::<T, false>(xs, n, inner, os, log)
    }
}

#[inline(always)]
fn softmax_blocks_with<T: Real, const F: bool>(
    xs: &[T],
    n: usize,
    inner: usize,
    os: &mut [T],
    log: bool,
) {
    let block = n * inner;
    for (xb, ob) in xs.chunks_exact(block).zip(os.chunks_exact_mut(block)) {
        if inner == 1 {
            softmax_row::<T, F>(xb, ob, log);
        } else {
            softmax_strided::<T, F>(xb, n, inner, ob, log);
        }
    }
}

/// The gradient of `softmax` (`log == false`: `y * (g - sum(g * y))`) or of
/// `log_softmax` (`g - e^y * sum(g)`) along `n`, given the forward result `y`.
pub fn softmax_backward<T: Real>(
    g: &[T],
    y: &[T],
    n: usize,
    inner: usize,
    out: &mut [T],
    log: bool,
) {
    assert!(g.len() == y.len() && y.len() == out.len());
    if n == 0 || g.is_empty() {
        return;
    }
    let block = n * inner;
    for_row_blocks(g, block, out, block, |first, gs, os| {
        softmax_backward_blocks(
            gs,
            &y[first * block..first * block + gs.len()],
            n,
            inner,
            os,
            log,
        )
    });
}

#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn softmax_backward_blocks<T: Real>(
    gs: &[T],
    ys: &[T],
    n: usize,
    inner: usize,
    os: &mut [T],
    log: bool,
) {
    if selected_target!().supports_feature_str("fma") {
        softmax_backward_with::<T, true>(gs, ys, n, inner, os, log)
    } else {
        softmax_backward_with::<T, false>(gs, ys, n, inner, os, log)
    }
}

#[inline(always)]
fn softmax_backward_with<T: Real, const F: bool>(
    gs: &[T],
    ys: &[T],
    n: usize,
    inner: usize,
    os: &mut [T],
    log: bool,
) {
    let block = n * inner;
    {
        for ((gb, yb), ob) in gs
            .chunks_exact(block)
            .zip(ys.chunks_exact(block))
            .zip(os.chunks_exact_mut(block))
        {
            let mut sums = vec![T::ZERO; inner];
            for (grow, yrow) in gb.chunks_exact(inner).zip(yb.chunks_exact(inner)) {
                for i in 0..inner {
                    let term = if log { grow[i] } else { grow[i].mul(yrow[i]) };
                    sums[i] = sums[i].add(term);
                }
            }
            for ((grow, yrow), orow) in gb
                .chunks_exact(inner)
                .zip(yb.chunks_exact(inner))
                .zip(ob.chunks_exact_mut(inner))
            {
                for i in 0..inner {
                    orow[i] = if log {
                        grow[i].sub(yrow[i].exp::<F>().mul(sums[i]))
                    } else {
                        yrow[i].mul(grow[i].sub(sums[i]))
                    };
                }
            }
        }
    }
}

/// Lanes of [`runs_sum`]: four 8-lane (two 16-lane) vectors of independent sums.
const WIDE: usize = 32;
/// Chunks of `WIDE` values a lane adds in the element type before its run goes into
/// the `f64` total: each lane sums at most 64 values in `f32`.
const RUN_CHUNKS: usize = 64;

/// The sum of `f(x[i])` over a row: `WIDE` lanes in the element type, each lane's
/// run of at most `RUN_CHUNKS` values added into `f64` totals, the totals combined
/// pairwise. Vectorised the whole way (a conversion to `f64` per element is not: the
/// compiler turns it into scalar conversions, half the loop's time).
#[inline(always)]
fn runs_sum<T: Real>(x: &[T], f: impl Fn(T) -> T) -> f64 {
    let mut total = [0.0f64; WIDE];
    let mut chunks = x.chunks_exact(WIDE);
    loop {
        let mut run = [T::ZERO; WIDE];
        let mut any = false;
        for c in chunks.by_ref().take(RUN_CHUNKS) {
            any = true;
            for i in 0..WIDE {
                run[i] = run[i].add(f(c[i]));
            }
        }
        if !any {
            break;
        }
        add_run(&mut total, &run);
    }
    let mut rest = 0.0;
    for &v in chunks.remainder() {
        rest += f(v).to_f64();
    }
    super::reduce::halvings(&total) + rest
}

/// `total[i] += run[i]` in `f64`. Not inlined, nor is `reduce::halvings`: inlined, their
/// conversions and pairs of lanes set the vector shape of [`runs_sum`]'s loop, which
/// was then compiled two lanes wide instead of the widest vector.
#[inline(never)]
fn add_run<T: Real>(total: &mut [f64; WIDE], run: &[T; WIDE]) {
    for i in 0..WIDE {
        total[i] += run[i].to_f64();
    }
}

/// `(mean, 1 / sqrt(var + eps))` of a row; `center == false` gives rms_norm's
/// `(0, rstd)`. Two passes, the mean and then the squared deviations from it (robust
/// to a mean far from 0). A `f32` row is summed in `f32` runs of at most 64 values per
/// lane, the runs in `f64` ([`runs_sum`]: a relative error of a few `f32` ulp, torch's
/// float accumulation); a `f64` row in `f64`.
#[inline(always)]
fn row_stats<T: Real>(row: &[T], eps: f64, center: bool) -> (f64, f64) {
    let n = row.len() as f64;
    let mean = if center {
        runs_sum(row, |v| v) / n
    } else {
        0.0
    };
    let m = T::from_f64(mean);
    let var = runs_sum(row, |v| {
        let d = v.sub(m);
        d.mul(d)
    }) / n;
    (mean, 1.0 / (var + eps).sqrt())
}

/// `layer_norm` over the trailing `cols` of each row (`center == true`) or
/// `rms_norm` (`center == false`): `out = (x - mean) * rstd * w + b`; the per-row
/// `mean` and `rstd` are written to `stats` as pairs (torch's saved statistics).
#[allow(clippy::too_many_arguments)]
pub fn norm<T: Real>(
    x: &[T],
    cols: usize,
    w: Option<&[T]>,
    b: Option<&[T]>,
    eps: f64,
    center: bool,
    out: &mut [T],
    stats: &mut [T],
) {
    assert_eq!(x.len(), out.len());
    if cols == 0 || x.is_empty() {
        return;
    }
    assert_eq!(stats.len(), 2 * (x.len() / cols));
    for_row_blocks_aux(x, cols, out, cols, stats, 2, |xs, os, ss| {
        norm_rows(xs, cols, w, b, eps, center, os, ss)
    });
}

/// The per-row `(mean, rstd)` pairs of [`norm`] alone (the same values, bit for bit),
/// into `stats` (two per row): what a backward needs when the forward's were not kept.
pub fn norm_stats<T: Real>(x: &[T], cols: usize, eps: f64, center: bool, stats: &mut [T]) {
    if cols == 0 || x.is_empty() {
        return;
    }
    assert_eq!(stats.len(), 2 * (x.len() / cols));
    for_row_blocks(x, cols, stats, 2, |_, xs, ss| {
        norm_stats_rows(xs, cols, eps, center, ss)
    });
}

#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn norm_stats_rows<T: Real>(xs: &[T], cols: usize, eps: f64, center: bool, ss: &mut [T]) {
    for (row, s) in xs.chunks_exact(cols).zip(ss.chunks_exact_mut(2)) {
        let (mean, rstd) = row_stats(row, eps, center);
        s[0] = T::from_f64(mean);
        s[1] = T::from_f64(rstd);
    }
}

#[allow(clippy::too_many_arguments)]
#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn norm_rows<T: Real>(
    xs: &[T],
    cols: usize,
    w: Option<&[T]>,
    b: Option<&[T]>,
    eps: f64,
    center: bool,
    os: &mut [T],
    ss: &mut [T],
) {
    {
        for ((row, orow), s) in xs
            .chunks_exact(cols)
            .zip(os.chunks_exact_mut(cols))
            .zip(ss.chunks_exact_mut(2))
        {
            let (mean, rstd) = row_stats(row, eps, center);
            s[0] = T::from_f64(mean);
            s[1] = T::from_f64(rstd);
            // The row is in cache now: normalise in the element type, as torch does.
            let (mean, rstd) = (s[0], s[1]);
            // One loop per affine case, so each is a plain loop the vectorizer takes.
            let it = orow.iter_mut().zip(row);
            match (w, b) {
                (Some(w), Some(b)) => {
                    for (((o, &v), &wj), &bj) in it.zip(w).zip(b) {
                        *o = v.sub(mean).mul(rstd).mul(wj).add(bj);
                    }
                }
                (Some(w), None) => {
                    for ((o, &v), &wj) in it.zip(w) {
                        *o = v.sub(mean).mul(rstd).mul(wj);
                    }
                }
                (None, Some(b)) => {
                    for ((o, &v), &bj) in it.zip(b) {
                        *o = v.sub(mean).mul(rstd).add(bj);
                    }
                }
                (None, None) => {
                    for (o, &v) in it {
                        *o = v.sub(mean).mul(rstd);
                    }
                }
            }
        }
    }
}

/// The gradients of `norm` given the saved `stats`, in one pass over `g` and `x`:
/// with `xhat = (x - mean) * rstd` and `d = g * w`, the input's `dx = rstd * (d -
/// mean(d) - xhat * mean(d * xhat))` (layer_norm; rms_norm drops the `mean(d)` term),
/// and the weight's and bias's `dw[j] = sum_rows g * xhat`, `db[j] = sum_rows g`, each
/// written where its buffer is given. Rows run in blocks of a fixed number of rows on
/// the pool; each block sums its rows' parameter terms in row order (runs of
/// `PARAM_RUN` rows in the element type, as torch's float accumulation, the runs in
/// `f64`) and the blocks' sums are added in block order, so the values do not depend
/// on the number of threads.
#[allow(clippy::too_many_arguments)]
pub fn norm_backward<T: Real>(
    g: &[T],
    x: &[T],
    stats: &[T],
    w: Option<&[T]>,
    cols: usize,
    center: bool,
    dx: Option<&mut [T]>,
    dw: Option<&mut [T]>,
    db: Option<&mut [T]>,
) {
    assert_eq!(g.len(), x.len());
    let params = dw.is_some() || db.is_some();
    let mut acc_w = vec![0.0f64; if dw.is_some() { cols } else { 0 }];
    let mut acc_b = vec![0.0f64; if db.is_some() { cols } else { 0 }];
    if cols > 0 && !x.is_empty() {
        let rows = x.len() / cols;
        assert_eq!(stats.len(), 2 * rows);
        let per = (4 * GRAIN / cols).clamp(1, rows);
        let blocks = rows.div_ceil(per);
        let work = x.len() * if dx.is_some() { 3 } else { 2 };
        let (want_w, want_b) = (!acc_w.is_empty(), !acc_b.is_empty());
        let block = |i: usize, dxs: Option<&mut [T]>| {
            let (r0, r1) = (i * per, ((i + 1) * per).min(rows));
            let span = r0 * cols..r1 * cols;
            let mut pw = vec![0.0f64; if want_w { cols } else { 0 }];
            let mut pb = vec![0.0f64; if want_b { cols } else { 0 }];
            norm_backward_rows(
                &g[span.clone()],
                &x[span],
                &stats[2 * r0..2 * r1],
                w,
                cols,
                center,
                dxs,
                &mut pw,
                &mut pb,
            );
            (pw, pb)
        };
        let partial = match dx {
            Some(dx) => {
                assert_eq!(dx.len(), x.len());
                map_chunks_mut(dx, per * cols, work, |i, c| block(i, Some(c)))
            }
            None if params => {
                let mut ids = vec![(); blocks];
                map_chunks_mut(&mut ids, 1, work, |i, _| block(i, None))
            }
            None => Vec::new(),
        };
        for (pw, pb) in partial {
            for (a, v) in acc_w.iter_mut().zip(pw) {
                *a += v;
            }
            for (a, v) in acc_b.iter_mut().zip(pb) {
                *a += v;
            }
        }
    }
    if let Some(dw) = dw {
        for (o, &v) in dw.iter_mut().zip(&acc_w) {
            *o = T::from_f64(v);
        }
    }
    if let Some(db) = db {
        for (o, &v) in db.iter_mut().zip(&acc_b) {
            *o = T::from_f64(v);
        }
    }
}

/// Rows whose weight and bias terms are summed in the element type before the `f64` totals.
const PARAM_RUN: usize = 32;

/// [`norm_backward`] over a block of rows, compiled for AVX-512, AVX2+FMA and the
/// baseline: each row's `dx` (when `os` is given), and its parameter terms added to
/// `pw`/`pb` (when not empty). One loop per weight case, so each is a plain loop the
/// vectorizer takes (the arithmetic, in `f64`, is the same in every case).
#[allow(clippy::too_many_arguments)]
#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn norm_backward_rows<T: Real>(
    gs: &[T],
    xs: &[T],
    ss: &[T],
    w: Option<&[T]>,
    cols: usize,
    center: bool,
    mut os: Option<&mut [T]>,
    pw: &mut [f64],
    pb: &mut [f64],
) {
    // The parameter terms of up to `PARAM_RUN` rows add up in the element type (vectorised
    // as wide as the data), each run's sums then into the `f64` totals.
    let rows = gs.len() / cols;
    let mut tw = vec![T::ZERO; pw.len()];
    let mut tb = vec![T::ZERO; pb.len()];
    let flush = |t: &mut [T], total: &mut [f64]| {
        for (a, v) in total.iter_mut().zip(t.iter_mut()) {
            *a += v.to_f64();
            *v = T::ZERO;
        }
    };
    for (r, ((grow, xrow), s)) in gs
        .chunks_exact(cols)
        .zip(xs.chunks_exact(cols))
        .zip(ss.chunks_exact(2))
        .enumerate()
    {
        let (mean, rstd) = (s[0].to_f64(), s[1].to_f64());
        let n = cols as f64;
        if let Some(os) = os.as_deref_mut() {
            let orow = &mut os[r * cols..(r + 1) * cols];
            // The row's sums in f64; then, as torch's kernel, `dx = a * d + b * x + c` in the
            // element type with per-row constants `a = rstd`, `b = -rstd² mean(d xhat)`,
            // `c = -b * mean - rstd * mean(d)`.
            let (sd, sdx) = d_sums(grow, xrow, w, mean, rstd);
            let (md, mdx) = (if center { sd / n } else { 0.0 }, sdx / n);
            let b64 = -rstd * rstd * mdx;
            let (a, b, c) = (
                T::from_f64(rstd),
                T::from_f64(b64),
                T::from_f64(-b64 * mean - rstd * md),
            );
            match w {
                Some(w) => {
                    for (((o, &gv), &xv), &wv) in
                        orow.iter_mut().zip(grow).zip(xrow).zip(&w[..cols])
                    {
                        *o = a.mul(gv.mul(wv)).add(b.mul(xv)).add(c);
                    }
                }
                None => {
                    for ((o, &gv), &xv) in orow.iter_mut().zip(grow).zip(xrow) {
                        *o = a.mul(gv).add(b.mul(xv)).add(c);
                    }
                }
            }
        }
        if !pw.is_empty() {
            let (m, rs) = (T::from_f64(mean), T::from_f64(rstd));
            for ((a, &gv), &xv) in tw.iter_mut().zip(grow).zip(xrow) {
                *a = a.add(gv.mul(xv.sub(m).mul(rs)));
            }
        }
        if !pb.is_empty() {
            for (a, &gv) in tb.iter_mut().zip(grow) {
                *a = a.add(gv);
            }
        }
        if (r + 1) % PARAM_RUN == 0 || r + 1 == rows {
            flush(&mut tw, pw);
            flush(&mut tb, pb);
        }
    }
}

/// `(sum d, sum d * xhat)` of a row in one pass, `d = g * w` (`g` without a
/// weight) and `xhat = (x - mean) * rstd`, each in 8 `f64` lanes combined pairwise,
/// `((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7))`, then the tail.
#[inline(always)]
fn d_sums<T: Real>(g: &[T], x: &[T], w: Option<&[T]>, mean: f64, rstd: f64) -> (f64, f64) {
    let mut a = [0.0f64; LANES];
    let mut b = [0.0f64; LANES];
    let full = g.len() - g.len() % LANES;
    let (gc, xc) = (g[..full].chunks_exact(LANES), x[..full].chunks_exact(LANES));
    match w {
        Some(w) => {
            for ((gs, xs), ws) in gc.zip(xc).zip(w[..full].chunks_exact(LANES)) {
                for i in 0..LANES {
                    let d = gs[i].to_f64() * ws[i].to_f64();
                    a[i] += d;
                    b[i] += d * (xs[i].to_f64() - mean) * rstd;
                }
            }
        }
        None => {
            for (gs, xs) in gc.zip(xc) {
                for i in 0..LANES {
                    let d = gs[i].to_f64();
                    a[i] += d;
                    b[i] += d * (xs[i].to_f64() - mean) * rstd;
                }
            }
        }
    }
    let (mut ra, mut rb) = (0.0, 0.0);
    for j in full..g.len() {
        let d = g[j].to_f64() * w.map_or(1.0, |w| w[j].to_f64());
        ra += d;
        rb += d * (x[j].to_f64() - mean) * rstd;
    }
    let comb = |v: [f64; LANES]| ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
    (comb(a) + ra, comb(b) + rb)
}

/// `gelu(x)`: `x * Φ(x)` with the exact normal CDF, or torch's `approximate="tanh"`.
pub fn gelu<T: Real>(x: &[T], out: &mut [T], tanh_approx: bool) {
    for_chunks(out, |start, os| {
        gelu_chunk(&x[start..start + os.len()], os, tanh_approx)
    });
}

#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn gelu_chunk<T: Real>(xs: &[T], os: &mut [T], tanh_approx: bool) {
    if selected_target!().supports_feature_str("fma") {
        gelu_with::<T, true>(xs, os, tanh_approx)
    } else {
        gelu_with::<T, false>(xs, os, tanh_approx)
    }
}

#[inline(always)]
fn gelu_with<T: Real, const F: bool>(xs: &[T], os: &mut [T], tanh_approx: bool) {
    let (half, rsqrt2) = (
        T::from_f64(0.5),
        T::from_f64(std::f64::consts::FRAC_1_SQRT_2),
    );
    let (k, c) = (
        T::from_f64((2.0 / std::f64::consts::PI).sqrt()),
        T::from_f64(0.044715),
    );
    // One loop per form, so each is a plain loop the vectorizer takes.
    if tanh_approx {
        for (o, &v) in os.iter_mut().zip(xs) {
            let inner = k.mul(v.add(c.mul(v).mul(v).mul(v))).tanh::<F>();
            *o = half.mul(v).mul(T::ONE.add(inner));
        }
    } else {
        for (o, &v) in os.iter_mut().zip(xs) {
            *o = half.mul(v).mul(v.mul(rsqrt2).one_plus_erf::<F>());
        }
    }
}

/// The gradient of `gelu` at `x` times `g`.
pub fn gelu_backward<T: Real>(g: &[T], x: &[T], out: &mut [T], tanh_approx: bool) {
    for_chunks(out, |start, os| {
        let end = start + os.len();
        gelu_backward_chunk(&g[start..end], &x[start..end], os, tanh_approx)
    });
}

#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn gelu_backward_chunk<T: Real>(gs: &[T], xs: &[T], os: &mut [T], tanh_approx: bool) {
    if selected_target!().supports_feature_str("fma") {
        gelu_backward_with::<T, true>(gs, xs, os, tanh_approx)
    } else {
        gelu_backward_with::<T, false>(gs, xs, os, tanh_approx)
    }
}

#[inline(always)]
fn gelu_backward_with<T: Real, const F: bool>(gs: &[T], xs: &[T], os: &mut [T], tanh_approx: bool) {
    let (half, rsqrt2) = (
        T::from_f64(0.5),
        T::from_f64(std::f64::consts::FRAC_1_SQRT_2),
    );
    let pdf_k =
        T::from_f64(0.5 * std::f64::consts::FRAC_2_SQRT_PI * std::f64::consts::FRAC_1_SQRT_2);
    let (k, c) = (
        T::from_f64((2.0 / std::f64::consts::PI).sqrt()),
        T::from_f64(0.044715),
    );
    let c3 = T::from_f64(3.0 * 0.044715);
    for ((o, &gv), &v) in os.iter_mut().zip(gs).zip(xs) {
        let d = if tanh_approx {
            let t = k.mul(v.add(c.mul(v).mul(v).mul(v))).tanh::<F>();
            let dt = T::ONE
                .sub(t.mul(t))
                .mul(k)
                .mul(T::ONE.add(c3.mul(v).mul(v)));
            half.mul(T::ONE.add(t)).add(half.mul(v).mul(dt))
        } else {
            let cdf = half.mul(v.mul(rsqrt2).one_plus_erf::<F>());
            let pdf = pdf_k.mul(T::ZERO.sub(half.mul(v).mul(v)).exp::<F>());
            cdf.add(v.mul(pdf))
        };
        *o = gv.mul(d);
    }
}

#[inline(always)]
fn sigmoid<T: Real, const F: bool>(v: T) -> T {
    T::ONE.div(T::ONE.add(T::ZERO.sub(v).exp::<F>()))
}

/// `sigmoid(x) = 1 / (1 + exp(-x))`, one pass.
pub fn sigmoid_forward<T: Real>(x: &[T], out: &mut [T]) {
    for_chunks(out, |start, os| {
        sigmoid_chunk(&x[start..start + os.len()], os)
    });
}

#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn sigmoid_chunk<T: Real>(xs: &[T], os: &mut [T]) {
    if selected_target!().supports_feature_str("fma") {
        sigmoid_with::<T, true>(xs, os)
    } else {
        sigmoid_with::<T, false>(xs, os)
    }
}

#[inline(always)]
fn sigmoid_with<T: Real, const F: bool>(xs: &[T], os: &mut [T]) {
    for (o, &v) in os.iter_mut().zip(xs) {
        *o = sigmoid::<T, F>(v);
    }
}

/// `silu(x) = x * sigmoid(x)`.
pub fn silu<T: Real>(x: &[T], out: &mut [T]) {
    for_chunks(out, |start, os| silu_chunk(&x[start..start + os.len()], os));
}

#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn silu_chunk<T: Real>(xs: &[T], os: &mut [T]) {
    if selected_target!().supports_feature_str("fma") {
        silu_with::<T, true>(xs, os)
    } else {
        silu_with::<T, false>(xs, os)
    }
}

#[inline(always)]
fn silu_with<T: Real, const F: bool>(xs: &[T], os: &mut [T]) {
    for (o, &v) in os.iter_mut().zip(xs) {
        *o = v.mul(sigmoid::<T, F>(v));
    }
}

/// The gradient of `silu` at `x` times `g`: `g * s * (1 + x * (1 - s))`.
pub fn silu_backward<T: Real>(g: &[T], x: &[T], out: &mut [T]) {
    for_chunks(out, |start, os| {
        let end = start + os.len();
        silu_backward_chunk(&g[start..end], &x[start..end], os)
    });
}

#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn silu_backward_chunk<T: Real>(gs: &[T], xs: &[T], os: &mut [T]) {
    if selected_target!().supports_feature_str("fma") {
        silu_backward_with::<T, true>(gs, xs, os)
    } else {
        silu_backward_with::<T, false>(gs, xs, os)
    }
}

#[inline(always)]
fn silu_backward_with<T: Real, const F: bool>(gs: &[T], xs: &[T], os: &mut [T]) {
    for ((o, &gv), &v) in os.iter_mut().zip(gs).zip(xs) {
        let s = sigmoid::<T, F>(v);
        *o = gv.mul(s).mul(T::ONE.add(v.mul(T::ONE.sub(s))));
    }
}

/// `f32` to bfloat16 bits, nearest with ties to even; nan becomes torch's quiet nan `0x7fc0`.
#[inline(always)]
pub(crate) fn bf16_bits(v: f32) -> u16 {
    let b = v.to_bits();
    // No u32 overflow: the largest non-nan bits are -inf's, 0xff80_0000.
    let r = (b.wrapping_add(0x7fff + ((b >> 16) & 1)) >> 16) as u16;
    if v.is_nan() {
        0x7fc0
    } else {
        r
    }
}

/// `a op b` of two bfloat16 buffers (raw bits) of one length, each pair computed in `f32`
/// and rounded once (torch's bfloat16 arithmetic: float32 opmath, one rounding); `op` is
/// `+ - * /` as 0..=3. One pass, on the pool when large.
pub fn bf16_binary(a: &[u16], b: &[u16], op: u8, out: &mut [u16]) {
    for_chunks(out, |start, os| {
        let end = start + os.len();
        bf16_binary_chunk(&a[start..end], &b[start..end], op, os)
    });
}

#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn bf16_binary_chunk(a: &[u16], b: &[u16], op: u8, os: &mut [u16]) {
    let wide = |h: u16| f32::from_bits(u32::from(h) << 16);
    let it = os.iter_mut().zip(a.iter().zip(b));
    match op {
        0 => it.for_each(|(o, (&x, &y))| *o = bf16_bits(wide(x) + wide(y))),
        1 => it.for_each(|(o, (&x, &y))| *o = bf16_bits(wide(x) - wide(y))),
        2 => it.for_each(|(o, (&x, &y))| *o = bf16_bits(wide(x) * wide(y))),
        _ => it.for_each(|(o, (&x, &y))| *o = bf16_bits(wide(x) / wide(y))),
    }
}
