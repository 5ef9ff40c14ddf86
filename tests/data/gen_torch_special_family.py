"""Writes ``torch_special_family.json``: what torch 2.15 gives for the special functions and the
pointwise math beside them (``torch.special.*``, digamma, lgamma, erfc, erfinv, i0, igamma,
polygamma, mvlgamma, the orthogonal polynomials, gcd/lcm, ldexp, frexp, nextafter, logaddexp2,
float_power) beyond the OpInfo samples: special points (0, -0, +-inf, nan, poles, the branch
points of each approximation), every dtype the op takes, gradients in float64, and the errors.

Run with a Python that has torch (``make special-expect``; the tests read only the JSON)::

    python tests/data/gen_torch_special_family.py

Each case is an expression over ``T`` (``torch``/``opyard``), ``S`` (its ``special``) and the
inputs ``x``, ``y`` (tensors of the case's dtype, made from the listed values); the JSON keeps
the result's dtype and values, or the exception's class and first message line, and for float64
cases of differentiable expressions the gradient of the sum of the result w.r.t. each input.
Non-finite floats are the strings "nan", "inf" and "-inf".
"""

import json
import math
import os

import torch

S = torch.special
INF, NAN = math.inf, math.nan

# Points every unary function is evaluated at: signed zeros, the poles of the gamma family, the
# edges of the approximations' intervals (Bessel functions switch at 5 and 8, the modified ones at
# 2 and 8), tiny and huge magnitudes, and the non-finite values.
POINTS = [0.0, -0.0, 1e-300, 1e-10, 1e-5, 0.3, 0.5, 1.0, 1.4616, 1.5, 2.0, 2.5, 3.0, 4.9, 5.0, 5.1,
          5.4, 5.52, 5.6, 6.0, 7.5, 7.9, 8.0, 8.1, 10.0, 20.0, 26.5, 30.0, 50.0, 88.0, 100.0, 700.0,
          1e5, 1e10, 1e300, -1e-10, -0.3, -0.5, -1.0, -1.5, -2.0, -2.5, -3.0, -4.2, -5.52, -7.8,
          -10.0, -30.0, -1e5, INF, -INF, NAN]
# Arguments of the functions defined on (-1, 1) or (0, 1) (erfinv, ndtri, logit).
UNIT = [-1.0, -0.999999, -0.9, -0.5, -1e-10, -0.0, 0.0, 1e-300, 1e-10, 1e-5, 0.01, 0.1, 0.3, 0.5, 0.7,
        0.9, 0.99, 0.999999, 1.0, 1.5, -2.0, INF, -INF, NAN]
SMALL = [0.0, -0.0, 0.5, 1.0, 2.5, -1.0, -2.5, 10.0, INF, -INF, NAN]

UNARY = {
    "S.airy_ai(x)": POINTS, "S.bessel_j0(x)": POINTS, "S.bessel_j1(x)": POINTS, "S.bessel_y0(x)": POINTS,
    "S.bessel_y1(x)": POINTS, "S.modified_bessel_i0(x)": POINTS, "S.modified_bessel_i1(x)": POINTS,
    "S.modified_bessel_k0(x)": POINTS, "S.modified_bessel_k1(x)": POINTS,
    "S.scaled_modified_bessel_k0(x)": POINTS, "S.scaled_modified_bessel_k1(x)": POINTS,
    "S.spherical_bessel_j0(x)": POINTS, "S.entr(x)": POINTS, "S.erfcx(x)": POINTS, "S.i0e(x)": POINTS,
    "S.i1(x)": POINTS, "S.i1e(x)": POINTS, "S.log_ndtr(x)": POINTS, "S.ndtr(x)": POINTS,
    "S.ndtri(x)": UNIT, "T.digamma(x)": POINTS, "T.lgamma(x)": POINTS, "T.erfc(x)": POINTS,
    "T.erfinv(x)": UNIT, "T.i0(x)": POINTS, "T.sinc(x)": POINTS, "T.logit(x)": UNIT,
    "T.logit(x, 0.25)": UNIT, "S.psi(x)": SMALL, "S.gammaln(x)": SMALL, "S.erf(x)": SMALL,
    "S.erfc(x)": SMALL, "S.erfinv(x)": UNIT, "S.i0(x)": SMALL, "S.expit(x)": SMALL, "S.logit(x)": UNIT,
    "S.exp2(x)": SMALL, "S.expm1(x)": SMALL, "S.log1p(x)": SMALL, "S.round(x)": SMALL, "S.sinc(x)": SMALL,
    "S.digamma(x)": SMALL, "S.multigammaln(x + 3.0, 2)": SMALL,
}
for _n in range(6):
    UNARY[f"T.polygamma({_n}, x)"] = POINTS
    UNARY[f"S.polygamma({_n}, x)"] = SMALL
# mvlgamma is finite above (p - 1) / 2: the points above it, at it and below it.
_MVL = [0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.9, 7.5, 10.0, 30.0, 100.0, 1e5, 1e10, 0.0, -0.5, -2.0, INF, -INF, NAN]
for _p in range(1, 6):
    UNARY[f"T.mvlgamma(x, {_p})"] = _MVL
UNARY["T.frexp(x)"] = POINTS

# The dtypes each function is asked about: which it takes (result dtype) and which it refuses.
DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64", "float16", "bfloat16",
          "float32", "float64", "complex64", "complex128"]
DTYPE_VALUES = [0.0, 0.5, 1.0, 2.0, 3.0]

_PAIR_A = [0.0, -0.0, 0.5, 1.0, 2.5, 10.0, 100.0, 1e4, -1.0, INF, NAN]
_PAIR_X = [0.0, 0.1, 1.0, 2.5, 10.0, 120.0, 1e4, -1.0, INF, NAN]
_ZETA_X = [1.0, 1.5, 2.0, 3.0, 0.5, -1.0, 10.0, 60.0, INF, NAN]
_ZETA_Q = [1.0, 0.5, 2.0, -1.0, -1.5, 0.0, 10.0, 1e6, INF, NAN]
_XLOG = [0.0, -0.0, 1.0, -2.0, 0.5, INF, NAN]
_LOG1P_ARG = [-1.0, -2.0, -0.5, 0.0, 1e-10, 1.0, 100.0, INF, NAN]
_POLY_X = [-2.0, -1.0, -0.5, 0.0, 0.3, 0.5, 0.99, 1.0, 1.5, 2.0, 10.0, INF, -INF, NAN]
_POLY_N = [-1.0, 0.0, 1.0, 2.0, 3.0, 5.0, 6.0, 7.0, 10.0, 25.0, 2.5, NAN]
_NEXT = [0.0, -0.0, 1.0, -1.0, 2.0, 1e-300, 5e-324, 1e300, INF, -INF, NAN]
_LAE = [0.0, 1.0, -1.0, 100.0, -100.0, 1e4, INF, -INF, NAN]
_POW_B = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, INF, -INF, NAN]
_POW_E = [0.0, 1.0, 2.0, -1.0, -2.0, 0.5, -0.5, 3.0, INF, -INF, NAN]


def _grid(xs, ys):
    return [a for a in xs for _ in ys], [b for _ in xs for b in ys]


BINARY = {
    "T.igamma(x, y)": _grid(_PAIR_A, _PAIR_X), "T.igammac(x, y)": _grid(_PAIR_A, _PAIR_X),
    "S.gammainc(x, y)": _grid(_PAIR_A[:6], _PAIR_X[:6]), "S.gammaincc(x, y)": _grid(_PAIR_A[:6], _PAIR_X[:6]),
    "S.zeta(x, y)": _grid(_ZETA_X, _ZETA_Q), "S.xlog1py(x, y)": _grid(_XLOG, _LOG1P_ARG),
    "S.xlogy(x, y)": _grid(_XLOG, _LOG1P_ARG), "T.xlogy(x, y)": _grid(_XLOG, _LOG1P_ARG),
    "T.nextafter(x, y)": _grid(_NEXT, _NEXT), "T.logaddexp2(x, y)": _grid(_LAE, _LAE),
    "T.float_power(x, y)": _grid(_POW_B, _POW_E), "T.ldexp(x, y)": _grid(_POW_B, [0.0, 1.0, -1.0, 10.0, -1074.0,
                                                                                   1024.0, 3.5]),
    "T.copysign(x, y)": _grid(_XLOG, [1.0, -1.0, 0.0, -0.0, INF, -INF, NAN]),
    "T.lerp(x, y, 0.3)": _grid(_LAE[:5], _LAE[:5]),
    "T.lerp(x, y, 0.7)": _grid(_LAE[:5], _LAE[:5]),
}
for _name in ("chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w",
              "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
              "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
              "laguerre_polynomial_l", "legendre_polynomial_p"):
    BINARY[f"S.{_name}(x, y)"] = _grid(_POLY_X, _POLY_N)
    BINARY[f"S.{_name}(x, 3)"] = ([0.3, -0.7, 2.0, NAN], [0.0] * 4)
    BINARY[f"S.{_name}(0.4, y)"] = ([0.0] * 4, [0.0, 1.0, 4.0, 7.0])

# Integer-only ops: every integer dtype, negative values and the wrapping edges.
INTEGER = {
    "T.gcd(x, y)": _grid([0, 1, -4, 6, 12, -18, 127, -128], [0, 4, -6, 9, -128, 127]),
    "T.lcm(x, y)": _grid([0, 1, -4, 6, 12, -18, 127, -128], [0, 4, -6, 9, -128, 127]),
}
INT_DTYPES = ["uint8", "int8", "int16", "int32", "int64"]

# Mixed dtypes and scalars: the result dtype and values torch's promotion gives.
MIXED = [
    ("T.igamma(x, y)", "float32", "float64"), ("T.igamma(x, y)", "float16", "float32"),
    ("T.nextafter(x, y)", "float32", "float64"), ("T.ldexp(x, y)", "float32", "int64"),
    ("T.ldexp(x, y)", "int64", "int64"), ("T.ldexp(x, y)", "float16", "int32"), ("T.ldexp(x, y)", "bfloat16", "int8"),
    ("T.ldexp(x, y)", "int32", "float64"), ("T.ldexp(x, y)", "bool", "bool"),
    ("T.logaddexp2(x, y)", "float32", "float64"), ("T.float_power(x, y)", "int64", "int64"),
    ("T.float_power(x, y)", "float32", "complex64"), ("T.float_power(x, y)", "bool", "float16"),
    ("T.gcd(x, y)", "int8", "int64"), ("T.lcm(x, y)", "uint8", "int16"),
    ("S.xlog1py(x, y)", "int64", "float32"), ("S.xlog1py(x, y)", "bool", "bool"),
    ("S.zeta(x, y)", "int64", "int64"), ("S.zeta(x, y)", "float32", "float64"),
    ("S.chebyshev_polynomial_t(x, y)", "int64", "int64"), ("S.chebyshev_polynomial_t(x, y)", "float32", "float64"),
    ("S.hermite_polynomial_h(x, y)", "int32", "float32"),
]
MIXED_VALUES = ([0.5, 1.0, 2.0, 3.0], [1.0, 2.0, 0.0, 3.0])

SCALAR = [
    "S.xlog1py(2.0, x)", "S.xlog1py(x, 3)", "S.xlog1py(0, x)", "S.zeta(2.0, x)", "S.zeta(x, 2)", "T.float_power(x, 2)",
    "T.float_power(2, x)", "T.float_power(x, 2.5)", "T.float_power(x, -1)", "S.xlogy(2.0, x)", "S.xlogy(x, 3)",
    "S.chebyshev_polynomial_u(x, 4)", "S.legendre_polynomial_p(0.5, x)", "T.polygamma(1, x)",
    "T.mvlgamma(x + 5.0, 3)", "T.ldexp(x, T.tensor(3))",
]
SCALAR_DTYPES = ["int64", "float32", "float64", "bfloat16"]
SCALAR_VALUES = [0.5, 1.0, 2.0, 3.5]

ERRORS = [
    "T.polygamma(-1, T.tensor([1.0]))", "T.mvlgamma(T.tensor([0.5, 2.0]), 3)", "T.mvlgamma(T.tensor([2.0]), 0)",
    "T.mvlgamma(T.tensor([2, 3]), 1)", "T.gcd(T.tensor([1.0]), T.tensor([2.0]))", "T.lcm(T.tensor([True]), T.tensor([True]))",
    "T.gcd(T.tensor([2]), T.tensor([2.0]))", "T.nextafter(T.tensor([1.0]), T.tensor([2.0], dtype=T.float64))",
    "T.nextafter(T.tensor([1]), T.tensor([2]))", "T.igamma(T.tensor([1]), T.tensor([2]))",
    "T.igamma(T.tensor([1.0j]), T.tensor([2.0j]))", "T.frexp(T.tensor([1, 2]))",
    "T.frexp(T.tensor([1.0j]))", "S.zeta(T.tensor([1.0j]), T.tensor([1.0]))", "S.xlog1py(T.tensor([1.0j]), T.tensor([1.0]))",
    "S.chebyshev_polynomial_t(T.tensor([1.0j]), T.tensor([2.0]))", "S.entr(T.tensor([1.0j]))",
    "T.digamma(T.tensor([1.0j]))", "T.igammac(T.ones(2, 3), T.ones(4))", "T.ldexp(T.ones(2), T.ones(3))",
    "T.float_power(T.tensor([1.0]), T.tensor([1.0j]))", "S.bessel_j0(T.tensor([1.0], dtype=T.float16))",
    "T.erfinv(T.tensor([1.0j]))", "T.i0(T.tensor([1.0j]))", "S.multigammaln(T.tensor([0.2]), 2)",
    "T.polygamma(2, T.tensor([1.0j]))", "T.lgamma(T.tensor([1.0j]))",
]

# In-place forms: the result written into ``x`` (torch refuses results its dtype cannot hold).
INPLACE = [
    ("x.digamma_()", "float32"), ("x.digamma_()", "int64"), ("x.lgamma_()", "float64"), ("x.erfc_()", "float16"),
    ("x.erfinv_()", "float64"), ("x.i0_()", "bfloat16"), ("x.polygamma_(2)", "float64"), ("x.polygamma_(0)", "int32"),
    ("x.mvlgamma_(1)", "float32"), ("x.igamma_(y)", "float64"), ("x.igammac_(y)", "float32"),
    ("x.nextafter_(y)", "float64"), ("x.ldexp_(y)", "float32"), ("x.ldexp_(y)", "int64"), ("x.gcd_(y)", "int64"),
    ("x.lcm_(y)", "int16"), ("x.float_power_(y)", "float64"), ("x.float_power_(y)", "float32"),
    ("x.float_power_(2)", "float64"), ("x.sinc_()", "float32"), ("x.logit_(0.1)", "float64"),
    ("x.xlogy_(y)", "float64"), ("x.copysign_(y)", "float32"), ("x.lerp_(y, 0.4)", "float64"),
]
INPLACE_VALUES = ([0.5, 1.0, 2.0, 3.0], [1.0, 2.0, 4.0, 3.0])


def encode(v):
    if isinstance(v, list):
        return [encode(e) for e in v]
    if isinstance(v, bool):
        return v
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return v


def _values(t):
    if t.dtype.is_complex:
        return encode([[float(z.real), float(z.imag)] for z in t.reshape(-1).tolist()])
    if t.dtype in (torch.float16, torch.bfloat16, torch.float32):
        t = t.double()
    return encode(t.reshape(-1).tolist())


def _error(exc):
    return {"error": type(exc).__name__, "msg": str(exc).split("\n")[0]}


def _tensor(values, dtype, grad=False):
    t = torch.tensor(values, dtype=torch.float64).to(getattr(torch, dtype))
    return t.requires_grad_() if grad else t


def run(expr, dtype_x, values, dtype_y=None, grad=False):
    xs = values[0]
    x = _tensor(xs, dtype_x, grad)
    y = _tensor(values[1], dtype_y or dtype_x, grad) if len(values) > 1 else None
    env = {"T": torch, "S": S, "x": x, "y": y}
    try:
        r = eval(expr, env)
    except Exception as exc:  # noqa: BLE001 -- recorded: the test expects the same exception
        return _error(exc)
    if isinstance(r, tuple):
        return {"outs": [{"dtype": str(t.dtype)[6:], "values": _values(t.detach())} for t in r]}
    row = {"dtype": str(r.dtype)[6:], "values": _values(r.detach())}
    if grad and r.requires_grad:
        ins = [t for t in (x, y) if t is not None]
        try:
            grads = torch.autograd.grad(r.sum(), ins, allow_unused=True)
            row["grads"] = [None if g is None else _values(g) for g in grads]
        except Exception as exc:  # noqa: BLE001
            row["grad_error"] = _error(exc)
    return row


def cases():
    for expr, points in UNARY.items():
        for dt in ("float64", "float32"):
            yield {"expr": expr, "dtypes": [dt], "inputs": [points]}, dt == "float64"
        for dt in DTYPES:
            yield {"expr": expr, "dtypes": [dt], "inputs": [DTYPE_VALUES]}, False
    for expr, (xs, ys) in BINARY.items():
        for dt in ("float64", "float32"):
            yield {"expr": expr, "dtypes": [dt, dt], "inputs": [xs, ys]}, dt == "float64"
        for dt in ("bfloat16", "float16", "int64", "bool", "complex64"):
            yield {"expr": expr, "dtypes": [dt, dt], "inputs": [xs[:8], ys[:8]]}, False
    for expr, (xs, ys) in INTEGER.items():
        for dt in INT_DTYPES:
            vals = [[v for v in xs], [v for v in ys]]
            if dt == "uint8":
                vals = [[abs(v) % 256 for v in xs], [abs(v) % 256 for v in ys]]
            yield {"expr": expr, "dtypes": [dt, dt], "inputs": vals}, False
    for expr, dx, dy in MIXED:
        yield {"expr": expr, "dtypes": [dx, dy], "inputs": list(MIXED_VALUES)}, False
    for expr in SCALAR:
        for dt in SCALAR_DTYPES:
            yield {"expr": expr, "dtypes": [dt], "inputs": [SCALAR_VALUES]}, dt == "float64"
    for expr in ERRORS:
        yield {"expr": expr, "dtypes": ["float64"], "inputs": [[0.0]]}, False
    for expr, dt in INPLACE:
        yield {"expr": expr + " is x and x", "dtypes": [dt, dt], "inputs": list(INPLACE_VALUES)}, False


def main():
    out = []
    for case, grad in cases():
        dts = case["dtypes"]
        case.update(run(case["expr"], dts[0], case["inputs"], dts[1] if len(dts) > 1 else None, grad))
        case["inputs"] = [encode(v) for v in case["inputs"]]
        out.append(case)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "torch_special_family.json")
    with open(path, "w") as f:
        json.dump({"torch": torch.__version__, "cases": out}, f, separators=(",", ":"))
        f.write("\n")
    print(f"{len(out)} cases -> {path}")


if __name__ == "__main__":
    main()
