//! The columns of a 2-D convolution (`im2col`) of contiguous NCHW data.
//!
//! Note [Columns in Rust]: a convolution is one matrix product of its weight with
//! the columns of its input's windows, `(C, kh, kw) x (N, oh, ow)` (`conv_array`,
//! `_aten/conv_ops.py`). numpy made them as a strided copy of a six-dimensional
//! window view, one thread walking the input nine times over in a cache-hostile
//! order (35 ms of a 90 ms convolution of 32x64x56x56). Here each `oh x ow` block
//! (one image, channel and kernel offset) is written by one task, row by row from
//! the input row it reads (a slice copy when the stride is 1), the padding as
//! zeros; the blocks are split over the intra-op team. Either order of the blocks
//! is made: kernel offsets outermost (`(C, kh, kw, N, oh, ow)`, one product over the
//! whole batch) or the image outermost (`(N, C, kh, kw, oh, ow)`). Every element
//! is copied, never computed, so the result equals numpy's bit for bit.

use super::parallel::map_chunks_mut;
use super::pool::Pool2d;

/// The order of the blocks of [`im2col`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Columns {
    /// `(C, kh, kw, N, oh, ow)`: one matrix product over the batch.
    KernelMajor,
    /// `(N, C, kh, kw, oh, ow)`: one product per image.
    ImageMajor,
}

/// The columns of `x` (`n` images of `c` planes of `g.input`, contiguous) into
/// `out` (`n * c * kh * kw * oh * ow` elements, every one written) in `order`,
/// windows outside the input reading zeros.
pub fn im2col<T: Copy + Default + Send + Sync>(
    x: &[T],
    n: usize,
    c: usize,
    g: &Pool2d,
    order: Columns,
    out: &mut [T],
) {
    let (h, w) = g.input;
    let (oh, ow) = g.output;
    let (kh, kw) = g.kernel;
    let block = oh * ow;
    assert_eq!(x.len(), n * c * h * w, "im2col: input size");
    assert_eq!(out.len(), n * c * kh * kw * block, "im2col: output size");
    if block == 0 {
        return;
    }
    let cols = |b: usize| match order {
        Columns::KernelMajor => {
            // b = ((ci * kh + i) * kw + j) * n + img
            let (rest, img) = (b / n, b % n);
            (img, rest / (kh * kw), (rest / kw) % kh, rest % kw)
        }
        Columns::ImageMajor => {
            // b = ((img * c + ci) * kh + i) * kw + j
            let (rest, j) = (b / kw, b % kw);
            let (rest, i) = (rest / kh, rest % kh);
            (rest / c, rest % c, i, j)
        }
    };
    map_chunks_mut(out, block, out.len(), |b, piece| {
        let (img, ci, i, j) = cols(b);
        let plane = &x[(img * c + ci) * h * w..][..h * w];
        block_of(plane, g, i, j, piece);
    });
}

/// One `oh x ow` block: kernel offset `(i, j)` of every window of `plane`.
fn block_of<T: Copy + Default>(plane: &[T], g: &Pool2d, i: usize, j: usize, out: &mut [T]) {
    let (h, w) = g.input;
    let (_, ow) = g.output;
    let (sh, sw) = g.stride;
    let (ph, pw) = g.padding;
    let (dh, dw) = g.dilation;
    // Input column of output column `x`: `x * sw + off`; the range of `x` inside the input.
    let off = (j * dw) as isize - pw as isize;
    let first = if off >= 0 {
        0
    } else {
        ((-off) as usize).div_ceil(sw)
    };
    let end = if (w as isize) <= off {
        0
    } else {
        ((w as isize - off) as usize).div_ceil(sw)
    };
    let (first, end) = (first.min(ow), end.min(ow).max(first.min(ow)));
    for (y, row) in out.chunks_exact_mut(ow).enumerate() {
        let iy = (y * sh + i * dh) as isize - ph as isize;
        if iy < 0 || iy as usize >= h {
            row.fill(T::default());
            continue;
        }
        let line = &plane[iy as usize * w..][..w];
        row[..first].fill(T::default());
        row[end..].fill(T::default());
        let start = (first * sw) as isize + off;
        let inside = &mut row[first..end];
        if sw == 1 {
            inside.copy_from_slice(&line[start as usize..][..inside.len()]);
        } else {
            for (k, o) in inside.iter_mut().enumerate() {
                *o = line[start as usize + k * sw];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The columns by their definition, one element at a time.
    fn reference(x: &[f32], n: usize, c: usize, g: &Pool2d, order: Columns) -> Vec<f32> {
        let (h, w) = g.input;
        let (oh, ow) = g.output;
        let (kh, kw) = g.kernel;
        let mut out = vec![0.0; n * c * kh * kw * oh * ow];
        for img in 0..n {
            for ci in 0..c {
                for i in 0..kh {
                    for j in 0..kw {
                        for y in 0..oh {
                            for xo in 0..ow {
                                let iy = (y * g.stride.0 + i * g.dilation.0) as isize
                                    - g.padding.0 as isize;
                                let ix = (xo * g.stride.1 + j * g.dilation.1) as isize
                                    - g.padding.1 as isize;
                                let v =
                                    if iy >= 0 && ix >= 0 && (iy as usize) < h && (ix as usize) < w
                                    {
                                        x[((img * c + ci) * h + iy as usize) * w + ix as usize]
                                    } else {
                                        0.0
                                    };
                                let b = match order {
                                    Columns::KernelMajor => ((ci * kh + i) * kw + j) * n + img,
                                    Columns::ImageMajor => ((img * c + ci) * kh + i) * kw + j,
                                };
                                out[(b * oh + y) * ow + xo] = v;
                            }
                        }
                    }
                }
            }
        }
        out
    }

    #[test]
    fn columns_match_their_definition_for_every_geometry_and_thread_count() {
        let _serial = crate::kernels::parallel::thread_count_guard();
        let (n, c) = (3, 5);
        // (input, kernel, stride, padding, dilation)
        let cases = [
            ((9, 11), (3, 3), (1, 1), (1, 1), (1, 1)),
            ((9, 11), (3, 2), (2, 3), (0, 2), (1, 1)),
            ((8, 8), (2, 3), (1, 2), (3, 1), (2, 3)),
            ((5, 4), (5, 4), (1, 1), (0, 0), (1, 1)),
            ((3, 3), (1, 1), (2, 2), (4, 4), (1, 1)),
            ((64, 96), (3, 3), (1, 1), (1, 1), (1, 1)),
        ];
        for (input, kernel, stride, padding, dilation) in cases {
            let out_size = |size: usize, k: usize, s: usize, p: usize, d: usize| {
                (size + 2 * p - d * (k - 1) - 1) / s + 1
            };
            let g = Pool2d {
                input,
                output: (
                    out_size(input.0, kernel.0, stride.0, padding.0, dilation.0),
                    out_size(input.1, kernel.1, stride.1, padding.1, dilation.1),
                ),
                kernel,
                stride,
                padding,
                dilation,
            };
            let x: Vec<f32> = (0..n * c * input.0 * input.1)
                .map(|k| (k % 97) as f32 - 40.5)
                .collect();
            for order in [Columns::KernelMajor, Columns::ImageMajor] {
                let want = reference(&x, n, c, &g, order);
                for threads in [1, 2, 3] {
                    crate::kernels::parallel::set_num_threads(threads);
                    let mut got = vec![f32::NAN; want.len()];
                    im2col(&x, n, c, &g, order, &mut got);
                    assert_eq!(got, want, "{g:?} {order:?} at {threads} threads");
                }
            }
        }
        crate::kernels::parallel::set_num_threads(1);
    }
}
