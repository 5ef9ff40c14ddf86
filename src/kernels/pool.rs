//! 2-D max pooling over the planes of contiguous NCHW data, and its backward.
//!
//! Note [Max pool scan]: torch's CPU kernel for contiguous data: each output
//! scans its window row by row from the first offset inside the input (the
//! start moved past the padding by whole dilation steps), the running value
//! starting at -inf and the index at that first position; a value replaces it
//! when strictly larger or nan, so ties keep the first, a nan takes over and a
//! later nan takes over again (the index of the last nan). The index is the
//! flat position `h * width + w` within the plane. The output size (padding,
//! dilation, `ceil_mode`) is the caller's, checked before.

use super::parallel::{for_row_blocks, for_row_blocks_aux};
use super::reduce_dim::DimElem;

/// The geometry of one 2-D max pool: input and output plane sizes and the
/// kernel, stride, padding and dilation, each `(height, width)`.
#[derive(Clone, Copy, Debug)]
pub struct Pool2d {
    pub input: (usize, usize),
    pub output: (usize, usize),
    pub kernel: (usize, usize),
    pub stride: (usize, usize),
    pub padding: (usize, usize),
    pub dilation: (usize, usize),
}

impl Pool2d {
    /// The window of output position `o` along one axis: the first offset
    /// inside the input and the end (exclusive), in input coordinates.
    #[inline(always)]
    fn window(o: usize, size: usize, k: usize, s: usize, p: usize, d: usize) -> (usize, usize) {
        let start = (o * s) as isize - p as isize;
        let end = (start + ((k - 1) * d) as isize + 1).min(size as isize);
        let mut first = start;
        if first < 0 {
            first += ((-first) as usize).div_ceil(d) as isize * d as isize;
        }
        (first as usize, end.max(0) as usize)
    }
}

/// Max pool forward of `planes` planes of `x` (each `input.0 * input.1`
/// values) into `values` and `indices` (each `output.0 * output.1` per plane),
/// as Note [Max pool scan]; the planes on the pool.
pub fn max_pool2d<T: DimElem>(x: &[T], g: &Pool2d, values: &mut [T], indices: &mut [i64]) {
    let (ih, iw) = g.input;
    let (oh, ow) = g.output;
    let plane_in = ih * iw;
    let plane_out = oh * ow;
    if plane_out == 0 {
        return;
    }
    let rows: Vec<(usize, usize)> = (0..oh)
        .map(|o| Pool2d::window(o, ih, g.kernel.0, g.stride.0, g.padding.0, g.dilation.0))
        .collect();
    let cols: Vec<(usize, usize)> = (0..ow)
        .map(|o| Pool2d::window(o, iw, g.kernel.1, g.stride.1, g.padding.1, g.dilation.1))
        .collect();
    let (dh, dw) = g.dilation;
    let pin = plane_in.max(1);
    for_row_blocks_aux(
        x,
        pin,
        values,
        plane_out,
        indices,
        plane_out,
        |xs, vs, is| {
            let planes = xs
                .chunks(pin)
                .zip(vs.chunks_mut(plane_out).zip(is.chunks_mut(plane_out)));
            for (xp, (vp, ip)) in planes {
                for (r, &(h0, h1)) in rows.iter().enumerate() {
                    let vrow = &mut vp[r * ow..(r + 1) * ow];
                    let irow = &mut ip[r * ow..(r + 1) * ow];
                    for ((v, i), &(w0, w1)) in vrow.iter_mut().zip(irow.iter_mut()).zip(&cols) {
                        let mut best = T::NEG_INF;
                        let mut at = h0 * iw + w0;
                        let mut h = h0;
                        while h < h1 {
                            let line = &xp[h * iw..(h + 1) * iw];
                            let mut w = w0;
                            while w < w1 {
                                let x = line[w];
                                if x > best || x.is_nan() {
                                    best = x;
                                    at = h * iw + w;
                                }
                                w += dw;
                            }
                            h += dh;
                        }
                        *v = best;
                        *i = at as i64;
                    }
                }
            }
        },
    );
}

/// Max pool backward: the gradient of each plane's input (`plane_in` values,
/// zeroed here) gets each output's gradient added at its index, in output
/// order (torch's CPU kernel: sums in the element type). `Err(index)` for an
/// index outside the plane, before anything is returned.
pub fn max_pool2d_backward<T: DimElem>(
    grad_out: &[T],
    indices: &[i64],
    plane_out: usize,
    plane_in: usize,
    grad_in: &mut [T],
) -> Result<(), i64> {
    if let Some(&bad) = indices.iter().find(|&&i| i < 0 || i as usize >= plane_in) {
        return Err(bad);
    }
    grad_in.fill(T::ZERO);
    if plane_out == 0 {
        return Ok(());
    }
    for_row_blocks(
        grad_out,
        plane_out,
        grad_in,
        plane_in.max(1),
        |first, gs, os| {
            let is = &indices[first * plane_out..first * plane_out + gs.len()];
            let planes = gs.chunks(plane_out).zip(is.chunks(plane_out));
            for ((gp, ip), op) in planes.zip(os.chunks_mut(plane_in.max(1))) {
                for (&g, &i) in gp.iter().zip(ip) {
                    let slot = &mut op[i as usize];
                    *slot = slot.add(g);
                }
            }
        },
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_start_past_the_padding_by_dilation_steps() {
        // start -3 with dilation 2: offsets -3, -1, 1, 3 -> the first inside is 1
        assert_eq!(Pool2d::window(0, 10, 4, 1, 3, 2), (1, 4));
        // a window reaching past the end stops at the size
        assert_eq!(Pool2d::window(4, 10, 3, 2, 0, 1), (8, 10));
    }

    #[test]
    fn nan_takes_over_and_ties_keep_the_first() {
        let g = Pool2d {
            input: (2, 3),
            output: (1, 2),
            kernel: (2, 2),
            stride: (1, 1),
            padding: (0, 0),
            dilation: (1, 1),
        };
        let x = [1.0f32, 5.0, f32::NAN, 5.0, 2.0, f32::NAN];
        let mut v = [0.0f32; 2];
        let mut i = [0i64; 2];
        max_pool2d(&x, &g, &mut v, &mut i);
        assert_eq!((v[0], i[0]), (5.0, 1)); // 5.0 at 1 and at 3: the first
        assert!(v[1].is_nan());
        assert_eq!(i[1], 5); // the last nan of the window (2 and 5)
    }
}
