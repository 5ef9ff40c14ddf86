use super::elementwise::{arith, divide, divide_as, float_binary, negate, scaled, BinOp, Operand};
use super::reduce::{sum_float, sum_float_blocked, sum_half_blocked, sum_int, Half, SUM_BLOCK};
use super::row_sum::row_sums;

use Operand::{Scalar, Slice};

fn bits32(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn float_ops_follow_ieee() {
    let a = [1.0f32, -0.0, f32::INFINITY, f32::NAN, 0.0, -1.0];
    let b = [2.0f32, 0.0, f32::INFINITY, 1.0, 0.0, 0.0];
    let mut out = [0.0f32; 6];
    float_binary(BinOp::Add, Slice(&a), Slice(&b), &mut out);
    assert_eq!(out[0], 3.0);
    assert_eq!(out[1].to_bits(), 0.0f32.to_bits()); // -0 + 0 = +0
    assert_eq!(out[2], f32::INFINITY);
    assert!(out[3].is_nan());
    float_binary(BinOp::Sub, Slice(&a), Slice(&b), &mut out);
    assert!(out[2].is_nan()); // inf - inf
    assert_eq!(out[1].to_bits(), (-0.0f32).to_bits()); // -0 - 0 = -0
    float_binary(BinOp::Div, Slice(&a), Slice(&b), &mut out);
    assert_eq!(out[0], 0.5);
    assert!(out[1].is_nan() && out[4].is_nan()); // 0/0
    assert_eq!(out[5], f32::NEG_INFINITY); // -1/0
    float_binary(BinOp::Mul, Slice(&a), Scalar(-1.0), &mut out);
    assert_eq!(out[4].to_bits(), (-0.0f32).to_bits());
}

#[test]
fn scalar_operands_keep_their_side() {
    let a = [1.0f64, 2.0, 4.0];
    let mut out = [0.0f64; 3];
    float_binary(BinOp::Sub, Scalar(10.0), Slice(&a), &mut out);
    assert_eq!(out, [9.0, 8.0, 6.0]);
    float_binary(BinOp::Div, Slice(&a), Scalar(2.0), &mut out);
    assert_eq!(out, [0.5, 1.0, 2.0]);
    divide(Scalar(1.0), Slice(&a), &mut out);
    assert_eq!(out, [1.0, 0.5, 0.25]);
    float_binary(BinOp::Add, Scalar(1.0), Scalar(2.0), &mut out);
    assert_eq!(out, [3.0; 3]);
}

#[test]
fn integers_wrap() {
    let a = [i64::MAX, i64::MIN, 3];
    let mut out = [0i64; 3];
    arith(BinOp::Add, Slice(&a), Scalar(1), &mut out);
    assert_eq!(out, [i64::MIN, i64::MIN + 1, 4]);
    arith(BinOp::Mul, Slice(&a), Slice(&a), &mut out);
    assert_eq!(out, [1, 0, 9]);
    negate(&a, &mut out);
    assert_eq!(out, [-i64::MAX, i64::MIN, -3]);
    let c = [i32::MIN, 5];
    let mut o32 = [0i32; 2];
    arith(BinOp::Sub, Slice(&c), Scalar(1), &mut o32);
    assert_eq!(o32, [i32::MAX, 4]);
}

#[test]
#[should_panic(expected = "division needs")]
fn integer_arith_refuses_division() {
    arith(BinOp::Div, Scalar(1i32), Scalar(2), &mut [0i32; 1]);
}

#[test]
fn integer_true_division_converts_first() {
    let a = [7i64, -1, 0, 1 << 40];
    let b = [2i64, 0, 0, 3];
    let mut out = [0.0f32; 4];
    divide_as(Slice(&a), Slice(&b), &mut out, |v| v as f32);
    assert_eq!(out[0], 3.5);
    assert_eq!(out[1], f32::NEG_INFINITY);
    assert!(out[2].is_nan());
    assert_eq!(out[3], (1u64 << 40) as f32 / 3.0);
}

#[test]
fn alpha_scales_the_second_operand() {
    let a = [1.0f32, 2.0];
    let b = [0.1f32, 0.2];
    let mut out = [0.0f32; 2];
    scaled(false, Slice(&a), Slice(&b), 3.0, &mut out);
    // Rounded product, then the sum: two roundings (no fused multiply-add).
    assert_eq!(
        bits32(&out),
        bits32(&[1.0 + 0.1f32 * 3.0, 2.0 + 0.2f32 * 3.0])
    );
    scaled(true, Slice(&a), Scalar(1.0), 2.0, &mut out);
    assert_eq!(out, [-1.0, 0.0]);
    let mut oi = [0i64; 1];
    scaled(false, Scalar(i64::MAX), Scalar(2), 2, &mut oi);
    assert_eq!(oi, [i64::MAX.wrapping_add(4)]);
}

/// A transcription of numpy's pairwise sum with explicit indices, to check
/// the slice-based one against (see Note [Pairwise sum]).
fn reference_pairwise(x: &[f32], start: usize, n: usize) -> f32 {
    if n < 8 {
        return (0..n).fold(0.0f32, |r, i| r + x[start + i]);
    }
    if n <= 128 {
        let mut r: Vec<f32> = (0..8).map(|j| x[start + j]).collect();
        let mut i = 8;
        while i < n - n % 8 {
            for j in 0..8 {
                r[j] += x[start + i + j];
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        while i < n {
            res += x[start + i];
            i += 1;
        }
        return res;
    }
    let n2 = n / 2 - (n / 2) % 8;
    reference_pairwise(x, start, n2) + reference_pairwise(x, start + n2, n - n2)
}

/// `n` values of a deterministic spread of magnitudes (1e-3 to 1e3, both signs), so
/// that the order of a summation shows in its rounding.
fn spread(n: usize, mut seed: u64) -> Vec<f32> {
    (0..n)
        .map(|_| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = ((seed >> 33) as f32 / (1u64 << 31) as f32) - 0.5;
            m * 10f32.powi(((seed >> 20) % 7) as i32 - 3)
        })
        .collect()
}

#[test]
fn float_sum_is_numpys_pairwise_sum() {
    let x = spread(5000, 12345);
    for n in [0, 1, 7, 8, 9, 15, 16, 127, 128, 129, 255, 1000, 4097, 5000] {
        let got = sum_float(&x[..n]);
        let want = 0.0f32 + reference_pairwise(&x, 0, n);
        assert_eq!(got.to_bits(), want.to_bits(), "n = {n}");
    }
    assert_eq!(sum_float(&[-0.0f64]).to_bits(), 0.0f64.to_bits());
    assert!(sum_float(&[1.0f64, f64::NAN]).is_nan());
    assert_eq!(sum_float(&[f32::INFINITY, 1.0]), f32::INFINITY);
}

#[test]
fn row_sums_are_numpys_pairwise_sum_of_each_row() {
    // Four rows at a time and the rows left over, on every leaf shape of the tree.
    let x = spread(9 * 4097, 777);
    for n in [
        1, 7, 8, 9, 15, 16, 127, 128, 129, 255, 256, 1000, 4096, 4097,
    ] {
        for rows in [1, 3, 4, 5, 8, 9] {
            let mut out = vec![f32::NAN; rows];
            row_sums(&x[..rows * n], n, &mut out);
            for (r, got) in out.iter().enumerate() {
                let want = 0.0f32 + reference_pairwise(&x, r * n, n);
                assert_eq!(got.to_bits(), want.to_bits(), "n = {n}, row {r} of {rows}");
            }
        }
    }
    let xd: Vec<f64> = x.iter().map(|&v| v as f64 * 1.000_000_1).collect();
    for n in [5, 200, 3001] {
        let mut out = vec![0.0f64; 6];
        row_sums(&xd[..6 * n], n, &mut out);
        for (r, got) in out.iter().enumerate() {
            assert_eq!(
                got.to_bits(),
                sum_float(&xd[r * n..(r + 1) * n]).to_bits(),
                "f64 n = {n}"
            );
        }
    }
    let mut out = [1.0f64; 4];
    row_sums(
        &[-0.0, -0.0, f64::NAN, 1.0, f64::INFINITY, 1.0, 2.0, 3.0],
        2,
        &mut out,
    );
    assert_eq!(out[0].to_bits(), 0.0f64.to_bits());
    assert!(out[1].is_nan());
    assert_eq!(out[2], f64::INFINITY);
    assert_eq!(out[3], 5.0);
}

#[test]
fn pairwise_sum_beats_sequential_rounding() {
    // 2^24 + 1 + 1 + ... is stuck at 2^24 when added in order in f32.
    let mut x = vec![1.0f32; 1024];
    x[0] = 16_777_216.0;
    let sequential = x.iter().fold(0.0f32, |acc, &v| acc + v);
    assert_eq!(sequential, 16_777_216.0);
    // Only the partial sum holding 2^24 loses its ones (1 in 8 of them).
    assert!(sum_float(&x) >= 16_777_216.0 + 800.0, "{}", sum_float(&x));
}

#[test]
fn blocked_sum_is_pairwise_close_and_thread_independent() {
    use super::parallel::set_num_threads;
    let n = 5 * SUM_BLOCK + 12_345;
    let mut seed = 99u64;
    let x: Vec<f32> = (0..n)
        .map(|_| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 40) as f32 / (1u64 << 24) as f32) + 0.25
        })
        .collect();
    let exact: f64 = x.iter().map(|&v| v as f64).sum();
    let mut got = Vec::new();
    let _serial = super::parallel::thread_count_guard();
    for threads in [1, 2, 4] {
        set_num_threads(threads);
        got.push(sum_float_blocked(&x).to_bits());
    }
    assert!(got.iter().all(|&b| b == got[0]), "{got:?}");
    let v = f32::from_bits(got[0]) as f64;
    // Pairwise: a few ulp of the result, where a running f32 sum is off by far more.
    assert!(
        (v - exact).abs() / exact < 4.0 * f32::EPSILON as f64,
        "{v} vs {exact}"
    );
    let running = x.iter().fold(0.0f32, |a, &v| a + v) as f64;
    assert!((running - exact).abs() > (v - exact).abs());
    // Small buffers are numpy's pairwise sum exactly.
    assert_eq!(
        sum_float_blocked(&x[..1000]).to_bits(),
        sum_float(&x[..1000]).to_bits()
    );
    assert!(sum_float_blocked(&[f64::NAN; 300_000]).is_nan());
}

#[test]
fn bfloat16_sum_widens_exactly() {
    // 1.5 is 0x3FC0 in bfloat16; -2.0 is 0xC000.
    let mut bits = vec![0x3FC0u16; 3 * SUM_BLOCK + 5];
    bits[7] = 0xC000;
    let want = 1.5f64 * (bits.len() - 1) as f64 - 2.0;
    assert_eq!(sum_half_blocked(&bits, Half::BF16) as f64, want);
    // As accurate as a float32 pairwise sum of the widened values.
    let mut seed = 7u64;
    let vals: Vec<u16> = (0..2 * SUM_BLOCK + 999)
        .map(|_| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            0x3F80 | ((seed >> 57) as u16) // 1.0 to 1.99 in bfloat16
        })
        .collect();
    let x: Vec<f32> = vals
        .iter()
        .map(|&h| f32::from_bits((h as u32) << 16))
        .collect();
    let exact: f64 = x.iter().map(|&v| v as f64).sum();
    let got = sum_half_blocked(&vals, Half::BF16) as f64;
    assert!(
        (got - exact).abs() / exact < 4.0 * f32::EPSILON as f64,
        "{got} vs {exact}"
    );
}

#[test]
fn float16_sum_widens_exactly() {
    // 1.5 is 0x3E00 in float16; -2.0 is 0xC000; 0x0001 the smallest subnormal.
    let mut bits = vec![0x3E00u16; 3 * SUM_BLOCK + 5];
    bits[7] = 0xC000;
    let want = 1.5f64 * (bits.len() - 1) as f64 - 2.0;
    assert_eq!(sum_half_blocked(&bits, Half::F16) as f64, want);
    let tiny = vec![0x0001u16; SUM_BLOCK + 1];
    let want = (SUM_BLOCK + 1) as f64 * 2f64.powi(-24);
    assert_eq!(sum_half_blocked(&tiny, Half::F16) as f64, want);
    assert!(sum_half_blocked(&[0x7E00u16; 300_000], Half::F16).is_nan());
    assert_eq!(
        sum_half_blocked(&[0x7C00u16; 300_000], Half::F16),
        f32::INFINITY
    );
    // The same roundings whatever the thread count.
    let vals: Vec<u16> = (0..2 * SUM_BLOCK as u32 + 999)
        .map(|i| 0x3C00 | (i.wrapping_mul(2654435761) >> 22) as u16)
        .collect();
    let _serial = crate::kernels::parallel::thread_count_guard();
    crate::kernels::parallel::set_num_threads(1);
    let one = sum_half_blocked(&vals, Half::F16);
    crate::kernels::parallel::set_num_threads(2);
    assert_eq!(sum_half_blocked(&vals, Half::F16).to_bits(), one.to_bits());
    let exact: f64 = vals.iter().map(|&h| half::f16::from_bits(h).to_f64()).sum();
    assert!((one as f64 - exact).abs() / exact < 4.0 * f32::EPSILON as f64);
}

#[test]
fn integer_sum_is_int64_and_wraps() {
    assert_eq!(sum_int(&[i32::MAX, i32::MAX]), 2 * i32::MAX as i64);
    assert_eq!(sum_int(&[i64::MAX, 1]), i64::MIN);
    assert_eq!(sum_int::<i64>(&[]), 0);
}

#[test]
fn in_place_arithmetic() {
    use super::elementwise::arith_inplace;
    let mut x = [1.0f32, -0.0, f32::INFINITY];
    arith_inplace(BinOp::Add, &mut x, Slice(&[2.0, 0.0, f32::NEG_INFINITY]));
    assert_eq!(x[0], 3.0);
    assert_eq!(x[1].to_bits(), 0.0f32.to_bits());
    assert!(x[2].is_nan());
    let mut i = [i32::MAX, 2];
    arith_inplace(BinOp::Add, &mut i, Scalar(1));
    assert_eq!(i, [i32::MIN, 3]);
    arith_inplace(BinOp::Mul, &mut i, Slice(&[2, 2]));
    assert_eq!(i, [0, 6]);
}
