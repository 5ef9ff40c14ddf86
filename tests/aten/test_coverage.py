"""Inventory of the aten operators with a direct numpy equivalent: for each, the forms torch
has (functional, Tensor method, in-place variant, ``out=`` overload), a Meta kernel checked
against CPU (``test_meta_kernels``) and, for differentiable ones, a derivative formula that is
gradchecked (``test_gradcheck``).

The forms torch has come from ``tests/data/native_functions.tsv`` (in-place and ``out``
overloads) and from the table below (Python spellings). ``KNOWN_GAPS`` lists what opyard
still lacks; the test fails both when a form is missing that is not listed and when a
listed gap has been filled (so the list only shrinks, and honestly).
"""

from pathlib import Path

import numpy as np
import pytest

import opyard
from opyard import _core
from opyard.autograd.derivatives import FORMULAS, NON_DIFFERENTIABLE, OUT_OPS

from meta_samples import DATA_DEPENDENT as META_DATA_DEPENDENT
from meta_samples import SAMPLES as META_SAMPLES
from grad_samples import COMPOSITE_SAMPLES, INPLACE_SAMPLES
from grad_samples import SAMPLES as GRAD_SAMPLES

_ROWS = [line.split("\t") for line in (Path(__file__).parents[1] / "data" / "native_functions.tsv")
         .read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
NATIVE = [row[0] for row in _ROWS]
CANONICAL = {row[0].split("(")[0]: row[1] for row in _ROWS}  # str(schema) as torch prints it
NATIVE_NAMES = {s.split("(")[0] for s in NATIVE}


def _base(name):
    return name.split(".")[0]


# aten base name -> (functional spelling or None, Tensor method or None, differentiable)
OPS = {
    # pointwise
    "abs": ("abs", "abs", True), "neg": ("neg", "neg", True), "exp": ("exp", "exp", True),
    "log": ("log", "log", True), "sin": ("sin", "sin", True), "cos": ("cos", "cos", True),
    "tan": ("tan", "tan", True), "tanh": ("tanh", "tanh", True), "sigmoid": ("sigmoid", "sigmoid", True),
    "sqrt": ("sqrt", "sqrt", True), "rsqrt": ("rsqrt", "rsqrt", True),
    "reciprocal": ("reciprocal", "reciprocal", True), "square": ("square", "square", True),
    "floor": ("floor", "floor", True), "ceil": ("ceil", "ceil", True), "round": ("round", "round", True),
    "trunc": ("trunc", "trunc", True), "frac": ("frac", "frac", True), "sign": ("sign", "sign", True),
    "sgn": ("sgn", "sgn", True), "log2": ("log2", "log2", True), "log10": ("log10", "log10", True),
    "log1p": ("log1p", "log1p", True), "expm1": ("expm1", "expm1", True), "exp2": ("exp2", "exp2", True),
    "erf": ("erf", "erf", True), "sinc": ("sinc", "sinc", True),
    "add": ("add", "add", True), "sub": ("sub", "sub", True), "mul": ("mul", "mul", True),
    "div": ("div", "div", True), "pow": ("pow", "pow", True), "remainder": ("remainder", "remainder", True),
    "fmod": ("fmod", "fmod", True), "maximum": ("maximum", "maximum", True),
    "minimum": ("minimum", "minimum", True), "atan2": ("atan2", "atan2", True),
    "hypot": ("hypot", "hypot", True), "logaddexp": ("logaddexp", "logaddexp", True),
    "logaddexp2": ("logaddexp2", "logaddexp2", True),
    "copysign": ("copysign", "copysign", True), "heaviside": ("heaviside", "heaviside", False),
    "xlogy": ("xlogy", "xlogy", True), "lerp": ("lerp", "lerp", True),
    "nan_to_num": ("nan_to_num", "nan_to_num", True), "clamp": ("clamp", "clamp", True),
    "clamp_min": ("clamp_min", "clamp_min", True), "clamp_max": ("clamp_max", "clamp_max", True),
    "where": ("where", "where", True),
    "asin": ("asin", "asin", True), "acos": ("acos", "acos", True), "atan": ("atan", "atan", True),
    "sinh": ("sinh", "sinh", True), "cosh": ("cosh", "cosh", True), "asinh": ("asinh", "asinh", True),
    "acosh": ("acosh", "acosh", True), "atanh": ("atanh", "atanh", True),
    "deg2rad": ("deg2rad", "deg2rad", True), "rad2deg": ("rad2deg", "rad2deg", True),
    "logit": ("logit", "logit", True), "fmax": ("fmax", "fmax", True), "fmin": ("fmin", "fmin", True),
    "signbit": ("signbit", "signbit", False), "isposinf": ("isposinf", "isposinf", False),
    "isneginf": ("isneginf", "isneginf", False),
    # reductions
    "sum": ("sum", "sum", True), "mean": ("mean", "mean", True), "nansum": ("nansum", "nansum", True),
    "nanmean": ("nanmean", "nanmean", True), "var": ("var", "var", True), "std": ("std", "std", True),
    "var_mean": ("var_mean", None, True), "std_mean": ("std_mean", None, True), "prod": ("prod", "prod", True),
    "amax": ("amax", "amax", True), "amin": ("amin", "amin", True), "aminmax": ("aminmax", "aminmax", True),
    "max": ("max", "max", True), "min": ("min", "min", True), "argmax": ("argmax", "argmax", False),
    "argmin": ("argmin", "argmin", False), "logsumexp": ("logsumexp", "logsumexp", True),
    "cumsum": ("cumsum", "cumsum", True), "cumprod": ("cumprod", "cumprod", True),
    "cummax": ("cummax", "cummax", True), "cummin": ("cummin", "cummin", True),
    "median": ("median", "median", True), "mode": ("mode", "mode", True),
    "count_nonzero": ("count_nonzero", "count_nonzero", False),
    # views
    "as_strided": ("as_strided", "as_strided", True), "unfold": (None, "unfold", True),
    "diagonal": ("diagonal", "diagonal", True), "movedim": ("movedim", "movedim", True),
    "narrow": ("narrow", "narrow", True), "unbind": ("unbind", "unbind", True), "chunk": ("chunk", "chunk", True),
    "tensor_split": ("tensor_split", "tensor_split", True), "detach": ("detach", "detach", False),
    # sorting
    "sort": ("sort", "sort", True), "topk": ("topk", "topk", True), "argsort": ("argsort", "argsort", False),
    # indexing
    "scatter": ("scatter", "scatter", True), "scatter_add": ("scatter_add", "scatter_add", True),
    "scatter_reduce": ("scatter_reduce", "scatter_reduce", True), "gather": ("gather", "gather", True),
    "index_select": ("index_select", "index_select", True), "index_copy": ("index_copy", "index_copy", True),
    "index_fill": ("index_fill", "index_fill", True), "take": ("take", "take", True),
    "take_along_dim": ("take_along_dim", "take_along_dim", True),
    "masked_select": ("masked_select", "masked_select", True),
    # linear algebra
    "linalg_det": ("linalg.det", None, True), "det": ("det", "det", True), "linalg_inv": ("linalg.inv", None, True),
    "inverse": ("inverse", "inverse", True), "linalg_solve": ("linalg.solve", None, True),
    "linalg_vector_norm": ("linalg.vector_norm", None, True), "norm": ("norm", "norm", True),
    "linalg_cholesky": ("linalg.cholesky", None, True), "cholesky": ("cholesky", "cholesky", True),
    "linalg_qr": ("linalg.qr", None, True), "linalg_svd": ("linalg.svd", None, True),
    "linalg_eigh": ("linalg.eigh", None, True), "matrix_power": ("matrix_power", "matrix_power", True),
    "linalg_matrix_power": ("linalg.matrix_power", None, True), "linalg_cross": ("linalg.cross", None, True),
    "cross": ("cross", "cross", True), "outer": ("outer", "outer", True), "kron": ("kron", "kron", True),
    "trace": ("trace", "trace", True), "tril": ("tril", "tril", True), "triu": ("triu", "triu", True),
}

# (aten base name, form) -> why it is still missing. Forms: functional, method, inplace, out, meta, derivative.
KNOWN_GAPS = {
    ("as_strided", "inplace"): "as_strided_ rewrites a tensor's geometry in place; opyard tensors keep theirs",
    ("masked_select", "out"): "the result size depends on the data, which the out= kernel's Meta run lacks",
}


def _defined(base):
    """The overloads opyard defines for ``base`` (``name.overload`` strings)."""
    packet = getattr(opyard.ops.aten, base, None)
    if packet is None:
        return []
    return [base if o == "default" else f"{base}.{o}" for o in packet.overloads()]


def _is_out(name):
    """An ``out=`` overload: a functional name whose schema writes to an argument."""
    return not _base(name).endswith("_") and "!)" in CANONICAL.get(name, "").split(" -> ")[0]


def _resolve(path):
    obj = opyard
    for part in path.split("."):
        obj = getattr(obj, part, None)
    return obj


def _composite(name):
    return "\nCompositeImplicitAutograd[alias]:" in _core._dump("aten::" + name)


def _gaps():
    gaps = set()
    for base, (functional, method, differentiable) in OPS.items():
        defined = _defined(base)
        if functional and _resolve(functional) is None:
            gaps.add((base, "functional"))
        if method and not hasattr(opyard.Tensor, method):
            gaps.add((base, "method"))
        if any(_base(n) == base + "_" for n in NATIVE_NAMES) and not hasattr(opyard.Tensor, base + "_"):
            gaps.add((base, "inplace"))
        torch_out = [n for n in NATIVE_NAMES if _base(n) == base and _is_out(n)]
        if torch_out and not any(_is_out(n) for n in defined):
            gaps.add((base, "out"))
        if not defined:
            gaps.add((base, "meta"))
        for name in defined:
            if name not in META_SAMPLES and name not in META_DATA_DEPENDENT and not _composite(name):
                gaps.add((base, "meta"))
        if differentiable:
            functional_overloads = [n for n in defined if not _is_out(n) and name_is_functional(n)]
            for name in functional_overloads:
                q = "aten::" + name
                if _composite(name) or q in NON_DIFFERENTIABLE:
                    continue
                if q not in FORMULAS or not (q in GRAD_SAMPLES or q in COMPOSITE_SAMPLES):
                    gaps.add((base, "derivative"))
    return gaps


def name_is_functional(name):
    return not _base(name).endswith("_")


def test_inventory_matches_known_gaps():
    gaps = _gaps()
    assert sorted(gaps - set(KNOWN_GAPS)) == [], "missing forms not listed in KNOWN_GAPS"
    assert sorted(set(KNOWN_GAPS) - gaps) == [], "filled gaps still listed in KNOWN_GAPS"


def test_inventory_schemas_are_verbatim():
    """Every overload of the inventory that opyard defines has torch's schema text."""
    for base in OPS:
        for name in _defined(base):
            op = getattr(getattr(opyard.ops.aten, base), name.partition(".")[2] or "default")
            assert str(op._schema) == CANONICAL[name], name


def test_out_overloads_refuse_inputs_that_require_grad():
    assert {"atan2.out", "linalg_det.out", "nansum.out"} <= set(OUT_OPS)
    x = opyard.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="atan2.*out=.*don't support automatic differentiation"):
        opyard.atan2(x, x, out=opyard.empty(2))


def test_inplace_samples_cover_new_inplace_rows():
    assert {"aten::atan2_", "aten::cumprod_", "aten::lerp_.Tensor"} <= set(INPLACE_SAMPLES)


# --- numerics against numpy and torch's error messages (begin) ---

_rng = np.random.default_rng(3)
_X = _rng.standard_normal((3, 4))
_Y = _rng.standard_normal((3, 4))
_P = np.abs(_Y) + 0.5
_SPD = _X[:, :3].T @ _X[:, :3] + np.eye(3)


def _t(a, **kw):
    return opyard.tensor(a, dtype=opyard.float64, **kw)


def _product(q, r):
    return q @ r


NUMERICS = [
    ("atan2", lambda: opyard.atan2(_t(_X), _t(_Y)), np.arctan2(_X, _Y)),
    ("hypot", lambda: opyard.hypot(_t(_X), _t(_Y)), np.hypot(_X, _Y)),
    ("logaddexp", lambda: opyard.logaddexp(_t(_X), _t(_Y)), np.logaddexp(_X, _Y)),
    ("logaddexp2", lambda: opyard.logaddexp2(_t(_X), _t(_Y)), np.logaddexp2(_X, _Y)),
    ("copysign", lambda: opyard.copysign(_t(_X), _t(_Y)), np.copysign(_X, _Y)),
    ("heaviside", lambda: opyard.heaviside(_t([-1.0, 0.0, 2.0]), _t([5.0, 5.0, 5.0])), [0.0, 5.0, 1.0]),
    ("sinc", lambda: opyard.sinc(_t([0.0, 0.5, 1.5])), np.sinc([0.0, 0.5, 1.5])),
    ("xlogy", lambda: opyard.xlogy(_t([0.0, 1.0, 2.0]), _t([0.0, 2.0, 3.0])), [0.0, np.log(2), 2 * np.log(3)]),
    ("frac", lambda: opyard.frac(_t([1.5, -1.5, 2.0])), [0.5, -0.5, 0.0]),
    ("asin", lambda: opyard.asin(_t(_X / 4)), np.arcsin(_X / 4)),
    ("acosh", lambda: opyard.acosh(_t(_P + 1)), np.arccosh(_P + 1)),
    ("atanh_", lambda: _t(_X / 4).atanh_(), np.arctanh(_X / 4)),
    ("deg2rad of ints (default float)", lambda: opyard.deg2rad(opyard.tensor([180, 90])), np.float32([np.pi, np.pi / 2])),
    ("logit eps", lambda: opyard.logit(_t([0.0, 0.5, 1.0]), 0.25), [np.log(1 / 3), 0.0, np.log(3)]),
    ("signbit", lambda: opyard.signbit(_t([-0.0, 0.0, -2.0])), [1, 0, 1]),
    ("fmax nan", lambda: opyard.fmax(_t([np.nan, 1.0]), _t([2.0, np.nan])), [2.0, 1.0]),
    ("isneginf", lambda: opyard.isneginf(_t([-np.inf, np.inf, 0.0])), [1, 0, 0]),
    ("sgn", lambda: opyard.sgn(_t(_X)), np.sign(_X)),
    ("lerp.Tensor", lambda: opyard.lerp(_t(_X), _t(_Y), _t(_P)), _X + _P * (_Y - _X)),
    ("nansum", lambda: opyard.nansum(_t([1.0, np.nan, 2.0])), 3.0),
    ("nanmean", lambda: opyard.nanmean(_t([[1.0, np.nan], [3.0, 5.0]]), 1), [1.0, 4.0]),
    ("var_mean", lambda: opyard.var_mean(_t(_X), 1)[0], np.var(_X, 1, ddof=1)),
    ("std_mean", lambda: opyard.std_mean(_t(_X), 0, unbiased=False)[1], np.mean(_X, 0)),
    ("median (lower middle)", lambda: opyard.median(_t([1.0, 4.0, 2.0, 3.0])), 2.0),
    ("median.dim", lambda: opyard.median(_t(_X), 1).values, np.sort(_X, 1)[:, 1]),
    ("mode", lambda: opyard.mode(opyard.tensor([1, 2, 2, 3, 3])).indices, 2),
    ("cummax", lambda: opyard.cummax(_t([1.0, np.nan, 0.0]), 0).indices, [0, 1, 1]),
    ("cummin", lambda: opyard.cummin(_t(_X), 1).values, np.minimum.accumulate(_X, 1)),
    ("cumprod_", lambda: _t(_X).cumprod_(1), np.cumprod(_X, 1)),
    ("det", lambda: opyard.linalg.det(_t(_SPD)), np.linalg.det(_SPD)),
    ("inv", lambda: opyard.linalg.inv(_t(_SPD)), np.linalg.inv(_SPD)),
    ("solve", lambda: opyard.linalg.solve(_t(_SPD), _t(_X[:, :3])), np.linalg.solve(_SPD, _X[:, :3])),
    ("cholesky", lambda: opyard.linalg.cholesky(_t(_SPD)), np.linalg.cholesky(_SPD)),
    ("eigh", lambda: opyard.linalg.eigh(_t(_SPD))[0], np.linalg.eigvalsh(_SPD)),
    ("svd", lambda: opyard.linalg.svd(_t(_X), full_matrices=False)[1], np.linalg.svd(_X, compute_uv=False)),
    ("svdvals", lambda: opyard.linalg.svdvals(_t(_X)), np.linalg.svd(_X, compute_uv=False)),
    ("eigvalsh", lambda: opyard.linalg.eigvalsh(_t(_SPD)), np.linalg.eigvalsh(_SPD)),
    ("qr", lambda: _product(*opyard.linalg.qr(_t(_X))), _X),
    ("matrix_power", lambda: opyard.linalg.matrix_power(_t(_SPD), -2), np.linalg.matrix_power(_SPD, -2)),
    ("cross", lambda: opyard.linalg.cross(_t(_X[:, :3]), _t(_Y[:, :3])), np.cross(_X[:, :3], _Y[:, :3])),
    ("kron", lambda: opyard.kron(_t(_X[:2, :2]), _t(_Y)), np.kron(_X[:2, :2], _Y)),
    ("trace", lambda: opyard.trace(_t(_X)), np.trace(_X)),
    ("take", lambda: opyard.take(_t(_X), opyard.tensor([0, 11, -1])), _X.reshape(-1)[[0, 11, -1]]),
    ("take_along_dim", lambda: opyard.take_along_dim(_t(_X), opyard.tensor([[0], [3], [1]]), 1),
     np.take_along_axis(_X, np.array([[0], [3], [1]]), 1)),
    ("index_copy", lambda: opyard.index_copy(_t(_X), 0, opyard.tensor([2, 0]), _t(_Y[:2])),
     np.stack([_Y[1], _X[1], _Y[0]])),
    ("index_fill", lambda: opyard.index_fill(_t(_X), 1, opyard.tensor([0, 3]), -1.0),
     np.where(np.isin(np.arange(4), [0, 3]), -1.0, _X)),
    ("scatter_reduce amax", lambda: opyard.scatter_reduce(_t([0.0, 0, 0]), 0, opyard.tensor([0, 0, 2]),
                                                          _t([1.0, 2, -3]), "amax", include_self=False), [2, 0, -3]),
    ("scatter_reduce mean", lambda: opyard.scatter_reduce(_t([4.0, 0, 0]), 0, opyard.tensor([0, 0, 2]),
                                                          _t([1.0, 1, 3]), "mean"), [2, 0, 1.5]),
    ("unfold", lambda: _t(np.arange(5.0)).unfold(0, 2, 2), [[0.0, 1.0], [2.0, 3.0]]),
    ("tensor_split", lambda: [p.shape[0] for p in opyard.tensor_split(_t(np.arange(7.0)), 3)], [3, 2, 2]),
]


@pytest.mark.parametrize("name, fn, expected", NUMERICS, ids=[n[0] for n in NUMERICS])
def test_numerics_match_numpy(name, fn, expected):
    got = fn()
    got = got.numpy() if isinstance(got, opyard.Tensor) else got
    np.testing.assert_allclose(np.asarray(got, dtype=np.float64), np.asarray(expected, dtype=np.float64),
                               rtol=1e-10, atol=1e-12)


ERRORS = [
    (lambda: opyard.heaviside(opyard.ones(2), opyard.ones(2, dtype=opyard.int64)), RuntimeError,
     r"^heaviside is not yet implemented for tensors with different dtypes\.$"),
    (lambda: opyard.frac(opyard.ones(2, dtype=opyard.int64)), NotImplementedError,
     "\"frac_cpu\" not implemented for 'Long'"),
    (lambda: opyard.nanmean(opyard.ones(2, dtype=opyard.int64)), NotImplementedError,
     "nanmean\\(\\): expected input to have floating point or complex dtype but got Long"),
    (lambda: opyard.lerp(opyard.ones(2), opyard.ones(2), opyard.ones(2, dtype=opyard.float64)), RuntimeError,
     "expected dtype float for `weight` but got dtype double"),
    (lambda: opyard.linalg.inv(opyard.zeros(2, 2)), opyard.linalg.LinAlgError,
     ("linalg.inv: The diagonal element 1 is zero, the inversion could not be completed because the input "
      "matrix is singular.")),
    (lambda: opyard.linalg.inv(opyard.zeros(2, 3)), RuntimeError,
     "linalg.inv: A must be batches of square matrices, but they are 2 by 3 matrices"),
    (lambda: opyard.linalg.det(opyard.zeros(3)), RuntimeError,
     "linalg.det: The input tensor A must have at least 2 dimensions."),
    (lambda: opyard.linalg.inv(opyard.zeros(2, 2, dtype=opyard.int64)), NotImplementedError,
     "linalg.inv: Expected a floating point or complex tensor as input. Got Long"),
    (lambda: opyard.linalg.cholesky(-opyard.eye(2)), opyard.linalg.LinAlgError,
     r"the leading minor of order 1 is not positive-definite\)\."),
    (lambda: opyard.linalg.solve(opyard.zeros(2, 2), opyard.ones(2)), opyard.linalg.LinAlgError,
     "torch.linalg.solve: The solver failed because the input matrix is singular."),
    (lambda: opyard.linalg.solve(opyard.eye(2), opyard.ones(3)), RuntimeError,
     r"linalg.solve: Incompatible shapes of A and B for the equation AX = B \(2x2 and 3x1\)"),
    (lambda: opyard.trace(opyard.ones(2, 2, 2)), RuntimeError, "trace: expected a matrix, but got tensor with dim 3"),
    (lambda: opyard.linalg.cross(opyard.ones(2, 2), opyard.ones(2, 2)), RuntimeError,
     "linalg.cross: inputs dimension -1 must have length 3. Got 2 and 2"),
    (lambda: opyard.take(opyard.ones(2, 3), opyard.tensor([6])), IndexError,
     r"out of range: tried to access index 6 on a tensor of 6 elements\."),
    (lambda: opyard.ones(5).unfold(0, 6, 1), RuntimeError, "maximum size for tensor at dimension 0 is 5 but size is 6"),
    (lambda: opyard.ones(5).unfold(0, 2, 0), RuntimeError, "step is 0 but must be > 0"),
    (lambda: opyard.linalg.eigh(opyard.ones(2, 3)), RuntimeError,
     "linalg.eigh: A must be batches of square matrices, but they are 2 by 3 matrices"),
    (lambda: opyard.linalg.eigh(opyard.eye(2), UPLO="X"), RuntimeError,
     "Expected UPLO argument to be 'L' or 'U', but got X"),
    (lambda: opyard.linalg.qr(opyard.eye(2), mode="x"), RuntimeError, "qr received unrecognized mode 'x'"),
    (lambda: opyard.scatter_reduce(opyard.ones(3), 0, opyard.tensor([0]), opyard.ones(1), "foo"), RuntimeError,
     "reduce argument must be either sum, prod, mean, amax or amin, got foo"),
    (lambda: opyard.index_fill(opyard.ones(3), 0, opyard.tensor([5]), 1.0), IndexError,
     "index 5 is out of bounds for dimension 0 with size 3"),
    (lambda: opyard.index_fill(opyard.ones(3), 0, opyard.tensor([0]), opyard.ones(2)), RuntimeError,
     r"index_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension\(s\)\."),
    (lambda: opyard.index_copy(opyard.ones(3), 0, opyard.tensor([0, 1]), opyard.ones(3)), IndexError,
     r"index_copy_\(\): Number of indices \(2\) should be equal to source.size\(dim\) \(3\)"),
    (lambda: opyard.take_along_dim(opyard.ones(2, 3), opyard.zeros(3, dtype=opyard.int64), 1), RuntimeError,
     "input and indices should have the same number of dimensions, but got 2 dimensions for input, and 1"),
    (lambda: opyard.tensor_split(opyard.ones(3), 0), RuntimeError, "number of sections must be larger than 0, got 0"),
    (lambda: opyard.sort(opyard.ones(3), 0) and opyard.ops.aten.sort.values(
        opyard.ones(3), values=opyard.empty(0), indices=opyard.empty(0)), RuntimeError,
     "Expected out tensor to have dtype long int, but got float instead"),
]


@pytest.mark.parametrize("fn, exc, match", ERRORS, ids=[e[2][:40] for e in ERRORS])
def test_errors_are_torchs(fn, exc, match):
    with pytest.raises(exc, match=match):
        fn()


@pytest.mark.parametrize("fn, strides", [
    (lambda a, b: opyard.linalg.inv(a), (9, 1, 3)),
    (lambda a, b: opyard.linalg.solve(a, b), (9, 1, 3)),
    (lambda a, b: opyard.linalg.solve(a, b[:, 0]), (1, 2)),
    (lambda a, b: opyard.linalg.solve(a, b.mT, left=False), (9, 3, 1)),
    (lambda a, b: opyard.linalg.cholesky(a @ a.mT + opyard.eye(3, device=a.device)), (9, 1, 3)),
    (lambda a, b: opyard.linalg.qr(a)[1], (9, 1, 3)),
    (lambda a, b: opyard.linalg.svd(a)[2], (9, 1, 3)),
    (lambda a, b: opyard.linalg.eigh(a)[1], (9, 1, 3)),
])
@pytest.mark.parametrize("device", ["cpu", "meta"])
def test_linalg_results_are_column_major_as_torchs(fn, strides, device):
    a = opyard.randn(2, 3, 3, device=device) if device == "meta" else opyard.tensor(_SPD, dtype=opyard.float32).expand(2, 3, 3) * 1
    b = opyard.randn(2, 3, 3, device=device)
    assert fn(a, b).stride() == strides


def test_solve_from_the_right_names_the_equation():
    with pytest.raises(RuntimeError, match=r"equation XA = B \(3x3 and 3x1\)"):
        opyard.linalg.solve(opyard.eye(3), opyard.ones(3), left=False)
    with pytest.raises(RuntimeError, match=r"equation XA = B \(3x3 and 2x4\)"):
        opyard.linalg.solve(opyard.eye(3), opyard.ones(2, 4), left=False)


def test_linalg_error_is_a_runtime_error():
    assert issubclass(opyard.linalg.LinAlgError, RuntimeError)
# --- numerics against numpy and torch's error messages (end) ---
