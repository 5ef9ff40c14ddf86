"""The special functions (``opyard.special``, digamma, lgamma, erfc, erfinv, i0, polygamma, mvlgamma,
igamma), the number-representation ops (gcd, lcm, ldexp, frexp, nextafter, logaddexp2, float_power),
complex/polar, logspace and the signal windows: numerics against closed forms and independent
references (math, numpy, numpy.polynomial), gradients and second derivatives (gradcheck and
gradgradcheck in float64), vmap against per-example calls, Meta and fake tensors, and errors.
torch's own answers are in ``test_special_functions_torch.py`` and the conformance replay."""

import math
import sys
import warnings

import numpy as np
import pytest

import opyard
from opyard.autograd import gradcheck, gradgradcheck

pytest.importorskip("scipy")

S = opyard.special
A = opyard.ops.aten


def t(values, dtype=opyard.float64, grad=False):
    x = opyard.tensor(values, dtype=dtype)
    return x.requires_grad_() if grad else x


def close(actual, expected, rtol=1e-12, atol=1e-14):
    np.testing.assert_allclose(np.asarray(actual.detach().numpy(), dtype=np.float64), expected, rtol=rtol, atol=atol)


# --- closed forms and independent references --------------------------------------------------

EULER = 0.57721566490153286061


def test_gamma_family_closed_forms():
    n = np.arange(1, 12, dtype=np.float64)
    close(opyard.lgamma(t(n)), [math.lgamma(v) for v in n])
    close(opyard.digamma(t([1.0, 0.5, 2.0])), [-EULER, -EULER - 2 * math.log(2), 1 - EULER])
    # torch's trigamma (six recurrence steps, a short asymptotic series) is good to ~1e-9
    close(opyard.polygamma(1, t([1.0, 0.5])), [math.pi ** 2 / 6, math.pi ** 2 / 2], rtol=1e-8)
    # psi^(n)(1) = (-1)^(n+1) n! zeta(n + 1)
    close(opyard.polygamma(2, t([1.0])), [-2 * 1.2020569031595942], rtol=1e-12)
    close(S.zeta(t([2.0, 4.0]), t([1.0, 1.0])), [math.pi ** 2 / 6, math.pi ** 4 / 90])
    # Hurwitz: zeta(s, q) - zeta(s, q + 1) = q**-s
    q = t([0.3, 1.7, 5.5])
    close(S.zeta(t([3.0]), q) - S.zeta(t([3.0]), q + 1), q.numpy() ** -3.0, rtol=1e-12)
    x = t([3.0, 4.5])
    close(opyard.mvlgamma(x, 2), [0.5 * math.log(math.pi) + math.lgamma(v) + math.lgamma(v - 0.5) for v in (3.0, 4.5)])


def test_error_function_family_closed_forms():
    x = np.linspace(-3, 3, 13)
    close(opyard.erfc(t(x)), [math.erfc(v) for v in x])
    close(opyard.erfinv(opyard.erf(t(x / 4))), x / 4, rtol=1e-12, atol=1e-15)
    close(S.ndtr(t(x)), [0.5 * math.erfc(-v / math.sqrt(2)) for v in x], atol=1e-16)
    close(S.ndtri(S.ndtr(t(x))), x, rtol=1e-10, atol=1e-12)
    close(S.log_ndtr(t(x)), [math.log(0.5 * math.erfc(-v / math.sqrt(2))) for v in x], rtol=1e-12)
    close(S.erfcx(t(x)), [math.exp(v * v) * math.erfc(v) for v in x], rtol=1e-12)
    close(S.entr(t([0.0, 0.5, 2.0, -1.0])), [0.0, 0.5 * math.log(2), -2 * math.log(2), -math.inf])
    close(S.xlog1py(t([0.0, 2.0]), t([-1.0, 3.0])), [0.0, 2 * math.log(4)])


def _bessel_series(nu, x, sign):
    """``sum_k (sign x^2/4)^k (x/2)^nu / (k! (k + nu)!)``: J_nu (sign -1) and I_nu (sign 1)."""
    return sum((sign * x * x / 4) ** k * (x / 2) ** nu / (math.factorial(k) * math.factorial(k + nu)) for k in range(40))


def test_bessel_functions_against_their_series():
    x = [0.3, 1.0, 2.5, 4.0, 6.5, 9.0]
    close(S.bessel_j0(t(x)), [_bessel_series(0, v, -1) for v in x], rtol=1e-6, atol=1e-8)
    close(S.bessel_j1(t(x)), [_bessel_series(1, v, -1) for v in x], rtol=1e-6, atol=1e-8)
    for fn in (S.modified_bessel_i0, opyard.i0):
        close(fn(t(x)), [_bessel_series(0, v, 1) for v in x], rtol=1e-12)
    for fn in (S.modified_bessel_i1, S.i1):
        close(fn(t(x)), [_bessel_series(1, v, 1) for v in x], rtol=1e-12)
    close(S.i0e(t(x)), [_bessel_series(0, v, 1) * math.exp(-v) for v in x], rtol=1e-12)
    close(S.i1e(t(x)), [_bessel_series(1, v, 1) * math.exp(-v) for v in x], rtol=1e-12)
    close(S.spherical_bessel_j0(t([0.1, 2.0, 9.0])), [math.sin(v) / v for v in (0.1, 2.0, 9.0)])
    # the Wronskian J1 Y0 - J0 Y1 = 2 / (pi x)
    xs = t(x)
    w = S.bessel_j1(xs) * S.bessel_y0(xs) - S.bessel_j0(xs) * S.bessel_y1(xs)
    close(w, 2 / (math.pi * np.array(x)), rtol=1e-6)
    # the Wronskian I0 K1 + I1 K0 = 1 / x, and the scaled forms
    w = S.modified_bessel_i0(xs) * S.modified_bessel_k1(xs) + S.modified_bessel_i1(xs) * S.modified_bessel_k0(xs)
    close(w, 1 / np.array(x), rtol=1e-12)
    close(S.scaled_modified_bessel_k0(xs), S.modified_bessel_k0(xs).numpy() * np.exp(x), rtol=1e-12)
    close(S.scaled_modified_bessel_k1(xs), S.modified_bessel_k1(xs).numpy() * np.exp(x), rtol=1e-12)
    # Ai(0) = 1 / (3^(2/3) Gamma(2/3)), Ai'' = x Ai (second differences)
    close(S.airy_ai(t([0.0])), [1 / (3 ** (2 / 3) * math.gamma(2 / 3))])
    h = 1e-3
    for v in (-3.0, -1.0, 0.5, 3.0):
        a = S.airy_ai(t([v - h, v, v + h])).numpy()
        assert abs((a[0] - 2 * a[1] + a[2]) / h ** 2 - v * a[1]) < 1e-5


POLYS = [
    ("chebyshev_polynomial_t", lambda x, n: np.polynomial.chebyshev.chebval(x, [0] * n + [1])),
    ("chebyshev_polynomial_u", lambda x, n: np.sin((n + 1) * np.arccos(x)) / np.sin(np.arccos(x))),
    ("chebyshev_polynomial_v", lambda x, n: np.cos((n + 0.5) * np.arccos(x)) / np.cos(np.arccos(x) / 2)),
    ("chebyshev_polynomial_w", lambda x, n: np.sin((n + 0.5) * np.arccos(x)) / np.sin(np.arccos(x) / 2)),
    ("shifted_chebyshev_polynomial_t", lambda x, n: np.polynomial.chebyshev.chebval(2 * x - 1, [0] * n + [1])),
    ("hermite_polynomial_h", lambda x, n: np.polynomial.hermite.hermval(x, [0] * n + [1])),
    ("hermite_polynomial_he", lambda x, n: np.polynomial.hermite_e.hermeval(x, [0] * n + [1])),
    ("laguerre_polynomial_l", lambda x, n: np.polynomial.laguerre.lagval(x, [0] * n + [1])),
    ("legendre_polynomial_p", lambda x, n: np.polynomial.legendre.legval(x, [0] * n + [1])),
]


@pytest.mark.parametrize("name, reference", POLYS, ids=[p[0] for p in POLYS])
@pytest.mark.parametrize("n", [0, 1, 2, 5, 8, 12])
def test_polynomials_against_numpy(name, reference, n):
    x = np.linspace(-0.95, 0.95, 9)
    fn = getattr(S, name)
    close(fn(t(x), t([float(n)] * 9)), reference(x, n), rtol=1e-9, atol=1e-9)
    close(fn(t(x), n), reference(x, n), rtol=1e-9, atol=1e-9)  # the n_scalar overload
    assert fn(t(x), -1).abs().sum().item() == 0  # negative degrees are 0


def test_polynomials_take_a_degree_per_element():
    x = t([0.3, 0.3, 0.3, 2.0])
    n = t([0.0, 1.0, 4.0, 3.0])
    close(S.legendre_polynomial_p(x, n), [np.polynomial.legendre.legval(v, [0] * int(k) + [1])
                                          for v, k in zip(x.numpy(), n.numpy())], rtol=1e-12)
    close(S.hermite_polynomial_h(0.5, t([2.0, 3.0])), [4 * 0.25 - 2, 8 * 0.125 - 12 * 0.5])  # the x_scalar overload


def test_integer_and_representation_ops():
    a = np.array([0, 12, -18, 7, 100], dtype=np.int64)
    b = np.array([5, 8, 24, 0, -75], dtype=np.int64)
    assert opyard.gcd(t(a, opyard.int64), t(b, opyard.int64)).tolist() == [math.gcd(x, y) for x, y in zip(a, b)]
    assert opyard.lcm(t(a, opyard.int64), t(b, opyard.int64)).tolist() == [math.lcm(x, y) for x, y in zip(a, b)]
    x = [0.75, -3.5, 1e-310, 6.0]
    m, e = opyard.frexp(t(x))
    assert [math.frexp(v) for v in x] == list(zip(m.tolist(), e.tolist()))
    assert e.dtype is opyard.int32
    assert opyard.ldexp(t([0.75, 3.0]), t([3, -1], opyard.int64)).tolist() == [6.0, 1.5]
    assert opyard.ldexp(t([1e-30], opyard.float32), t([100], opyard.int64)).item() == pytest.approx(1e-30 * 2 ** 100)
    assert opyard.nextafter(t([1.0, 1.0]), t([2.0, 0.0])).tolist() == [math.nextafter(1, 2), math.nextafter(1, 0)]
    close(opyard.logaddexp2(t([1.0, -50.0]), t([3.0, -52.0])), np.logaddexp2([1.0, -50.0], [3.0, -52.0]))
    r = opyard.float_power(t([2, 3], opyard.int64), -1)
    assert r.dtype is opyard.float64 and r.tolist() == [0.5, 1 / 3]
    assert opyard.float_power(2, t([0.5], opyard.float32)).dtype is opyard.float64
    assert opyard.float_power(t([-1.0]), 0.5j).dtype is opyard.complex128


def test_complex_polar_isreal_positive():
    re, im = t([1.0, -2.0, 0.0]), t([0.5, 0.0, -3.0])
    z = opyard.complex(re, im)
    assert z.dtype is opyard.complex128
    assert z.numpy().tolist() == [1 + 0.5j, -2 + 0j, -3j]
    p = opyard.polar(t([2.0, 1.0]), t([math.pi / 2, math.pi]))
    np.testing.assert_allclose(p.numpy(), [2j, -1], atol=1e-15)
    assert opyard.complex(t([1.0], opyard.float32), t([1.0], opyard.float32)).dtype is opyard.complex64
    x = t([1.0, 2.0])
    assert opyard.positive(x) is x
    assert opyard.isreal(x).tolist() == [True, True]


def test_logspace():
    close(opyard.logspace(0, 3, 4), [1.0, 10.0, 100.0, 1000.0], rtol=1e-6)
    close(opyard.logspace(-1, 2, 7, base=2.0, dtype=opyard.float64), np.logspace(-1, 2, 7, base=2.0))
    assert opyard.logspace(0, 3, 4, dtype=opyard.int64).tolist() == [1, 10, 100, 1000]
    assert opyard.logspace(opyard.tensor(0.0), opyard.tensor(2.0), 3).tolist() == [1.0, 10.0, 100.0]
    assert opyard.logspace(0, 1, 0).shape == (0,)
    r = opyard.logspace(0, 1, 3, dtype=opyard.float64, requires_grad=True)
    assert r.requires_grad


WINDOWS = [
    ("hann", {}, lambda n, M: 0.5 - 0.5 * np.cos(2 * np.pi * n / (M - 1))),
    ("hamming", {}, lambda n, M: 0.54 - 0.46 * np.cos(2 * np.pi * n / (M - 1))),
    ("blackman", {}, lambda n, M: 0.42 - 0.5 * np.cos(2 * np.pi * n / (M - 1)) + 0.08 * np.cos(4 * np.pi * n / (M - 1))),
    ("bartlett", {}, lambda n, M: 1 - np.abs(2 * n / (M - 1) - 1)),
    ("cosine", {}, lambda n, M: np.sin(np.pi * (n + 0.5) / M)),
    ("gaussian", {"std": 2.0}, lambda n, M: np.exp(-((n - (M - 1) / 2) ** 2) / (2 * 4.0))),
    ("exponential", {"tau": 3.0}, lambda n, M: np.exp(-np.abs(n - (M - 1) / 2) / 3.0)),
    ("kaiser", {"beta": 5.0}, lambda n, M: np.i0(5.0 * np.sqrt(1 - (2 * n / (M - 1) - 1) ** 2)) / np.i0(5.0)),
]


@pytest.mark.parametrize("name, kwargs, formula", WINDOWS, ids=[w[0] for w in WINDOWS])
def test_windows_match_their_formulas(name, kwargs, formula):
    fn = getattr(opyard.signal.windows, name)
    for M in (2, 5, 8):
        close(fn(M, dtype=opyard.float64, **kwargs), formula(np.arange(M), M), rtol=1e-12, atol=1e-12)
    assert fn(0).shape == (0,) and fn(3).dtype is opyard.float32
    # periodic windows are the first M of the symmetric window of M + 1
    close(fn(6, sym=False, dtype=opyard.float64, **kwargs), fn(7, dtype=opyard.float64, **kwargs).numpy()[:6],
          rtol=1e-12, atol=1e-12)


# --- reduced precision and dtypes -------------------------------------------------------------

@pytest.mark.parametrize("fn", [opyard.digamma, opyard.lgamma, opyard.erfc, opyard.i0, S.i0e, S.i1, S.entr,
                                lambda x: opyard.polygamma(2, x), lambda x: opyard.mvlgamma(x, 2)])
@pytest.mark.parametrize("dtype", [opyard.float16, opyard.bfloat16])
def test_half_precision_is_float32_rounded_once(fn, dtype):
    x = t([0.7, 1.3, 2.9, 5.5], dtype)
    got = fn(x)
    assert got.dtype is dtype
    assert got.tolist() == fn(x.float()).to(dtype).tolist()


@pytest.mark.parametrize("fn", [S.bessel_j0, S.airy_ai, S.erfcx, S.ndtri, S.log_ndtr, S.spherical_bessel_j0])
def test_functions_without_half_kernels_refuse_half(fn):
    with pytest.raises(NotImplementedError, match="not implemented for 'Half'"):
        fn(t([0.5], opyard.float16))


def test_integral_inputs_compute_in_the_default_dtype():
    assert opyard.digamma(t([1, 2], opyard.int64)).dtype is opyard.float32
    assert S.bessel_y0(t([True], opyard.bool)).dtype is opyard.float32
    assert S.zeta(t([2], opyard.int64), t([1], opyard.int64)).dtype is opyard.float32
    assert S.chebyshev_polynomial_t(t([1], opyard.int32), 2).dtype is opyard.float32


# --- gradients --------------------------------------------------------------------------------

GRADS = [
    ("digamma", opyard.digamma, [0.7, 1.3, 4.2]),
    ("lgamma", opyard.lgamma, [0.7, 1.3, 4.2]),
    ("erfc", opyard.erfc, [-0.7, 0.3, 1.2]),
    ("erfinv", opyard.erfinv, [-0.7, 0.3, 0.6]),
    ("i0", opyard.i0, [-0.7, 0.3, 2.2]),
    ("i0e", S.i0e, [-0.7, 0.3, 2.2]),
    ("i1", S.i1, [-0.7, 0.3, 2.2]),
    ("i1e", S.i1e, [-0.7, 0.3, 2.2]),
    ("ndtri", S.ndtri, [0.1, 0.5, 0.8]),
    ("log_ndtr", S.log_ndtr, [-2.5, 0.3, 1.2]),
    ("ndtr", S.ndtr, [-2.5, 0.3, 1.2]),
    ("erfcx", S.erfcx, [-0.5, 0.3, 2.2]),
    ("entr", S.entr, [0.2, 1.3, 4.2]),
    ("bessel_j0", S.bessel_j0, [0.7, 3.3, 6.2]),
    ("bessel_j1", S.bessel_j1, [0.7, 3.3, 6.2]),
    ("bessel_y0", S.bessel_y0, [0.7, 3.3, 6.2]),
    ("bessel_y1", S.bessel_y1, [0.7, 3.3, 6.2]),
    ("modified_bessel_i0", S.modified_bessel_i0, [0.7, 3.3, 9.2]),
    ("modified_bessel_i1", S.modified_bessel_i1, [0.7, 3.3, 9.2]),
    ("modified_bessel_k0", S.modified_bessel_k0, [0.7, 3.3, 9.2]),
    ("modified_bessel_k1", S.modified_bessel_k1, [0.7, 3.3, 9.2]),
    ("polygamma2", lambda x: opyard.polygamma(2, x), [0.7, 1.3, 4.2]),
    ("mvlgamma", lambda x: opyard.mvlgamma(x, 3), [1.7, 2.3, 4.2]),
    ("logit", lambda x: opyard.logit(x, 0.1), [0.3, 0.5, 0.8]),
    ("sinc", opyard.sinc, [-0.7, 0.3, 2.2]),
]


@pytest.mark.parametrize("name, fn, values", GRADS, ids=[g[0] for g in GRADS])
def test_gradients(name, fn, values):
    x = t(values, grad=True)
    assert gradcheck(fn, (x,))
    assert gradgradcheck(fn, (x,))


# (name, function, first argument, second argument, which of them require grad)
BINARY_GRADS = [
    ("xlog1py", S.xlog1py, [0.3, 1.3, 2.0], [0.5, 2.0, 3.5], (True, True)),
    ("igamma other", opyard.igamma, [0.7, 1.3, 4.2], [0.5, 2.0, 3.5], (False, True)),
    ("igammac other", opyard.igammac, [0.7, 1.3, 4.2], [0.5, 2.0, 3.5], (False, True)),
    ("zeta other", S.zeta, [2.0, 3.5, 4.0], [0.5, 2.0, 3.5], (False, True)),
    ("ldexp", opyard.ldexp, [0.7, -1.3, 4.2], [0.5, 2.0, -1.5], (True, True)),
    ("logaddexp2", opyard.logaddexp2, [0.7, -1.3, 4.2], [0.5, 2.0, -1.5], (True, True)),
    ("nextafter", opyard.nextafter, [0.7, -1.3, 4.2], [0.5, 2.0, -1.5], (True, True)),
    ("lerp", lambda a, b: opyard.lerp(a, b, 0.3), [0.7, -1.3, 4.2], [0.5, 2.0, -1.5], (True, True)),
    ("xlogy", opyard.xlogy, [0.3, 1.3, 2.0], [0.5, 2.0, 3.5], (True, True)),
    ("copysign", opyard.copysign, [0.3, -1.3, 2.0], [0.5, 2.0, -3.5], (True, True)),
]


@pytest.mark.parametrize("name, fn, a, b, grads", BINARY_GRADS, ids=[g[0] for g in BINARY_GRADS])
def test_binary_gradients(name, fn, a, b, grads):
    x, y = t(a, grad=grads[0]), t(b, grad=grads[1])
    assert gradcheck(fn, (x, y))
    assert gradgradcheck(fn, (x, y))


def test_gradient_node_names_are_torchs():
    x = t([0.5, 1.5], grad=True)
    names = {
        "DigammaBackward0": opyard.digamma(x), "LgammaBackward0": opyard.lgamma(x), "I0Backward0": opyard.i0(x),
        "SpecialBesselJ1Backward0": S.bessel_j1(x), "SpecialI1EBackward0": S.i1e(x),
        "PolygammaBackward0": opyard.polygamma(3, x), "MvlgammaBackward0": opyard.mvlgamma(x + 2, 2),
        "SpecialXlog1PyBackward0": S.xlog1py(x, x), "SpecialXlog1PyBackward1": S.xlog1py(2.0, x),
        "IgammaBackward0": opyard.igamma(x, x), "LdexpBackward0": opyard.ldexp(x, x),
        "FrexpBackward0": opyard.frexp(x)[0], "NextafterBackward0": opyard.nextafter(x, x),
        "Logaddexp2Backward0": opyard.logaddexp2(x, x), "MulBackward1": S.ndtr(x),
        "DigammaBackward0 ": S.psi(x), "PowBackward1": opyard.float_power(x, x),
    }
    for name, r in names.items():
        assert type(r.grad_fn).__name__ == name.strip()
    # the functions torch gives no derivative record nothing
    for r in (S.airy_ai(x), S.spherical_bessel_j0(x), S.scaled_modified_bessel_k0(x),
              S.chebyshev_polynomial_t(x, 3), S.hermite_polynomial_h(x, x)):
        assert not r.requires_grad
    assert not opyard.frexp(x)[1].requires_grad


def test_not_implemented_derivatives_raise_torchs_error():
    a, x = t([1.5], grad=True), t([2.0], grad=True)
    with pytest.raises(NotImplementedError, match=r"the derivative for 'igamma: input' is not implemented\."):
        opyard.igamma(a, x).sum().backward()
    with pytest.raises(NotImplementedError, match=r"the derivative for 'zeta' is not implemented\."):
        S.zeta(a, x).sum().backward()


def test_gradients_at_the_singular_points():
    x = t([0.0, -0.0, 1e-300], grad=True)
    (g,) = opyard.autograd.grad(S.bessel_j1(x).sum(), [x])
    assert g.tolist() == [0.5, 0.5, 0.5]
    (g,) = opyard.autograd.grad(S.bessel_y1(x).sum(), [x])
    assert g.tolist() == [math.inf, math.inf, math.inf]


# --- vmap, Meta and fake tensors ----------------------------------------------------------------

VMAPS = [
    ("bessel_j0", S.bessel_j0, (0,), ((3, 4),)),
    ("digamma", opyard.digamma, (0,), ((3, 4),)),
    ("polygamma", lambda x: opyard.polygamma(2, x), (0,), ((3, 4),)),
    ("zeta", S.zeta, (0, None), ((3, 4), (4,))),
    ("igamma", opyard.igamma, (None, 0), ((4,), (3, 4))),
    ("chebyshev", S.chebyshev_polynomial_t, (0, 0), ((3, 4), (3, 4))),
    ("frexp", opyard.frexp, (0,), ((3, 4),)),
    ("ldexp", opyard.ldexp, (0, 0), ((3, 4), (3, 4))),
    ("mvlgamma", lambda x: opyard.mvlgamma(x, 2), (0,), ((3, 4),)),
]


@pytest.mark.parametrize("name, fn, in_dims, shapes", VMAPS, ids=[v[0] for v in VMAPS])
def test_vmap_matches_per_example_calls_without_the_fallback(name, fn, in_dims, shapes):
    rng = np.random.default_rng(0)
    args = [opyard.from_numpy(rng.uniform(1.0, 4.0, s)) for s in shapes]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the per-example fallback warns: every op here has a rule
        got = opyard.vmap(fn, in_dims=in_dims)(*args)
    size = next(a.shape[d] for a, d in zip(args, in_dims) if d is not None)
    per = [fn(*[a.select(d, i) if d is not None else a for a, d in zip(args, in_dims)]) for i in range(size)]
    outs = got if isinstance(got, tuple) else (got,)
    pers = [p if isinstance(p, tuple) else (p,) for p in per]
    for k, o in enumerate(outs):
        np.testing.assert_allclose(o.numpy(), opyard.stack([p[k] for p in pers]).numpy(), rtol=1e-12)


META = [
    (lambda m: S.bessel_j0(m(2, 3)), (2, 3), opyard.float64),
    (lambda m: S.zeta(m(2, 1), m(3)), (2, 3), opyard.float64),
    (lambda m: opyard.polygamma(1, m(4)), (4,), opyard.float64),
    (lambda m: opyard.mvlgamma(m(2, 5), 3), (2, 5), opyard.float64),
    (lambda m: opyard.frexp(m(2, 3))[1], (2, 3), opyard.int32),
    (lambda m: opyard.complex(m(2, 3), m(3)), (2, 3), opyard.complex128),
    (lambda m: S.legendre_polynomial_p(m(4, 1), m(5)), (4, 5), opyard.float64),
    (lambda m: opyard.float_power(m(3), 2), (3,), opyard.float64),
    (lambda m: opyard.logspace(0, 1, 7, device=m(1).device), (7,), opyard.float32),
]


@pytest.mark.parametrize("call, shape, dtype", META)
def test_meta_and_fake_shapes(call, shape, dtype):
    r = call(lambda *s: opyard.empty(*s, dtype=opyard.float64, device="meta"))
    assert (tuple(r.shape), r.dtype, r.device.type) == (shape, dtype, "meta")
    with opyard.fake.FakeTensorMode() as mode:
        r = call(lambda *s: mode.from_tensor(opyard.ones(*s, dtype=opyard.float64)))
    assert (tuple(r.shape), r.dtype) == (shape, dtype)


# --- errors -----------------------------------------------------------------------------------

ERRORS = [
    (lambda: opyard.polygamma(-1, t([1.0])), RuntimeError, r"polygamma\(n, x\) does not support negative n\."),
    (lambda: opyard.mvlgamma(t([2.0]), 0), RuntimeError, "p has to be greater than or equal to 1"),
    (lambda: opyard.mvlgamma(t([True], opyard.bool), 1), RuntimeError, "may not be a boolean tensor"),
    (lambda: opyard.gcd(t([1.0], opyard.float32), t([2.0], opyard.float32)), NotImplementedError,
     "\"gcd_cpu\" not implemented for 'Float'"),
    (lambda: opyard.igamma(t([1], opyard.int64), t([2], opyard.int64)), NotImplementedError,
     "\"igamma_cpu\" not implemented for 'Long'"),
    (lambda: opyard.nextafter(t([1], opyard.int64), t([2], opyard.int64)), NotImplementedError,
     "\"nextafter_cpu\" not implemented for 'Long'"),
    (lambda: opyard.frexp(t([1], opyard.int64)), RuntimeError, r"torch.frexp\(\) only supports floating-point"),
    (lambda: S.zeta(t([1.0]), t([1.0], opyard.complex64)), NotImplementedError, "\"zeta_cpu\" not implemented"),
    (lambda: opyard.complex(t([1], opyard.int64), t([1], opyard.int64)), NotImplementedError,
     "Expected both inputs to be Half, Float or Double tensors but got Long and Long"),
    (lambda: opyard.polar(t([1.0], opyard.float32), t([1.0])), RuntimeError,
     "Expected object of scalar type Float but got scalar type Double for second argument"),
    (lambda: opyard.complex(t([1.0], opyard.float16), t([1.0], opyard.float16)), NotImplementedError, "complex32"),
    (lambda: t([1.0], opyard.float32).float_power_(2), RuntimeError,
     "the base given to float_power_ has dtype Float but the operation's result requires dtype Double"),
    (lambda: t([1], opyard.int64).ldexp_(t([1], opyard.int64)), RuntimeError,
     "ldexp can't be cast to the desired output type Long"),
    (lambda: opyard.positive(t([True], opyard.bool)), NotImplementedError, "The `\\+` operator, on a bool tensor"),
    (lambda: opyard.logspace(0, 1, -1), RuntimeError, "number of steps must be non-negative"),
    (lambda: opyard.logspace(t([0.0, 1.0]), 1, 3), RuntimeError, "0-dimensional start and end tensors"),
    (lambda: opyard.igammac(opyard.ones(2, 3), opyard.ones(4)), RuntimeError, "must match the size of tensor b"),
    # hann is general_cosine's special case, and torch's message names general_cosine
    (lambda: opyard.signal.windows.hann(-1), ValueError, "general_cosine requires non-negative window length, got M=-1"),
    (lambda: opyard.signal.windows.kaiser(3, dtype=opyard.int64), ValueError, "kaiser expects float32 or float64"),
    (lambda: opyard.signal.windows.general_cosine(3, a=[]), ValueError, "Coefficients cannot be empty"),
    (lambda: opyard.signal.windows.exponential(3, center=1.0), ValueError, "Center must be None for symmetric"),
    (lambda: opyard.lerp(t([1], opyard.int64), t([2], opyard.int64), 0.5), NotImplementedError,
     "\"lerp_kernel_scalar\" not implemented for 'Long'"),
    (lambda: opyard.lerp(t([1.0], opyard.float32), t([2.0]), 0.5), RuntimeError,
     "expected dtype float for `end` but got dtype double"),
]


@pytest.mark.parametrize("call, error, match", ERRORS)
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_a_missing_scipy_is_named(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy.special", None)  # import scipy.special now raises ImportError
    with pytest.raises(ModuleNotFoundError, match=r"aten::lgamma: .*scipy.*pip install scipy"):
        opyard.lgamma(t([1.5]))
    # the functions torch's own algorithms compute need no scipy
    assert S.bessel_j0(t([0.0])).item() == 1.0
    assert opyard.digamma(t([1.0])).item() == pytest.approx(-EULER)


def test_special_namespace_is_the_packets():
    assert S.bessel_j0 is A.special_bessel_j0
    assert S.psi(t([1.0])).item() == pytest.approx(-EULER)
    assert S.gammaln(t([3.0])).item() == pytest.approx(math.log(2))
    assert S.multigammaln(t([3.0]), 1).item() == pytest.approx(math.log(2))
    assert S.logsumexp(t([[0.0, 0.0]]), [1]).item() == pytest.approx(math.log(2))
    assert S.round(t([1.26]), decimals=1).item() == pytest.approx(1.3)
