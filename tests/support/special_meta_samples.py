"""Meta samples of the special functions, the number-representation ops, the complex parts and
logspace and linspace (the rows ``meta_samples`` merges): most are made from the schema (a ``Tensor`` argument is
a positive float32 tensor, a ``Scalar`` one 2, an ``out`` an empty tensor of the result's dtype);
the rest are written out where the function needs particular arguments."""

import opyard
from opyard._aten import OP_NAMES

A = opyard.ops.aten
f32, f64, c64, i64 = opyard.float32, opyard.float64, opyard.complex64, opyard.int64

_FAMILY = ("special_", "digamma", "lgamma", "erfc", "erfinv", "i0", "igamma", "polygamma", "mvlgamma", "gcd",
           "lcm", "ldexp", "frexp", "nextafter", "logaddexp2", "float_power", "angle", "real", "imag", "complex",
           "polar", "view_as_real", "view_as_complex", "conj", "_conj", "resolve_conj", "resolve_neg", "isreal",
           "positive", "logspace", "linspace")

# Overloads whose arguments the schema does not say enough about.
_WRITTEN = {
    "gcd": lambda m: ((m(2, 3, dtype=i64), m(2, 3, dtype=i64)), {}),
    "lcm": lambda m: ((m(2, 3, dtype=i64), m(2, 3, dtype=i64)), {}),
    "gcd_": lambda m: ((m(2, 3, dtype=i64), m(2, 3, dtype=i64)), {}),
    "lcm_": lambda m: ((m(2, 3, dtype=i64), m(2, 3, dtype=i64)), {}),
    "float_power_.Tensor": lambda m: ((m(2, 3, dtype=f64, positive=True), m(3, dtype=f64)), {}),
    "float_power_.Scalar": lambda m: ((m(2, 3, dtype=f64, positive=True), 1.5), {}),
    "logspace.out": lambda m: ((0.0, 2.0, 5), {"out": opyard.empty(0, device=m.device)}),
    "logspace.Tensor_Tensor_out": lambda m: ((m(), m(), 4), {"out": opyard.empty(0, device=m.device)}),
    "logspace.Tensor_Scalar_out": lambda m: ((m(), 2.0, 4), {"out": opyard.empty(0, device=m.device)}),
    "logspace.Scalar_Tensor_out": lambda m: ((0.5, m(), 4), {"out": opyard.empty(0, device=m.device)}),
    "special_logsumexp.out": lambda m: ((m(2, 3), [1]), {"out": opyard.empty(0, device=m.device)}),
    "ldexp.Tensor": lambda m: ((m(2, 3), m(3, dtype=i64)), {}),
    "polygamma": lambda m: ((2, m(2, 3, positive=True)), {}),
    "special_polygamma": lambda m: ((1, m(2, 3, positive=True)), {}),
    "polygamma_": lambda m: ((m(2, 3, positive=True), 1), {}),
    "mvlgamma": lambda m: ((m(2, 3, positive=True) + 2, 3), {}),
    "special_multigammaln": lambda m: ((m(2, 3, positive=True) + 2, 3), {}),
    "mvlgamma_": lambda m: ((m(2, 3, positive=True) + 2, 3), {}),
    "view_as_real": lambda m: ((m(2, 3, dtype=c64),), {}),
    "view_as_complex": lambda m: ((m(3, 2),), {}),
    "imag": lambda m: ((m(2, 3, dtype=c64),), {}),
    "real": lambda m: ((m(2, 3, dtype=c64),), {}),
    "conj": lambda m: ((m(2, 3, dtype=c64),), {}),
    "_conj": lambda m: ((m(2, 3, dtype=c64),), {}),
    "conj_physical_": lambda m: ((m(2, 3, dtype=c64),), {}),
    "isreal": lambda m: ((m(2, 3, dtype=c64),), {}),
    "special_log_softmax": lambda m: ((m(2, 3), 1), {}),
    "special_softmax": lambda m: ((m(2, 3), 1), {}),
    "special_logsumexp": lambda m: ((m(2, 3), [1]), {}),
    "logspace": lambda m: ((0.0, 2.0, 5), {"device": m.device}),
    "logspace.Tensor_Tensor": lambda m: ((m(), m(), 4), {"device": m.device}),
    "logspace.Tensor_Scalar": lambda m: ((m(), 2.0, 4), {"device": m.device}),
    "logspace.Scalar_Tensor": lambda m: ((0.5, m(), 4), {"device": m.device}),
    "linspace.Tensor_Tensor": lambda m: ((m(), m(), 4), {"device": m.device}),
    "linspace.Tensor_Scalar": lambda m: ((m(), 2.0, 4), {"device": m.device}),
    "linspace.Scalar_Tensor": lambda m: ((0.5, m(), 4), {"device": m.device}),
    "frexp.Tensor_out": None,
}
_OUT_DTYPE = {"gcd": i64, "lcm": i64, "isreal": opyard.bool, "view_as_real": f32, "angle": f32,
              "float_power": f64, "complex": c64, "polar": c64, "conj_physical": c64}


def _from_schema(name):
    op = getattr(getattr(A, name.partition(".")[0]), name.partition(".")[2] or "default")
    args, kwargs = [], {}
    for a in op._schema.arguments:
        t = str(a.type)
        if a.kwarg_only:
            if a.name == "out":
                kwargs["out"] = "out"
            continue
        if a.has_default_value:
            break
        if t.startswith("Tensor"):
            args.append("t")
        elif t in ("Scalar", "number", "float"):
            args.append(2.0 if "polynomial" not in name else 3)
        elif t == "int":
            args.append(1)
        else:
            return None
    return args, kwargs


def _sample(name):
    base = name.partition(".")[0]
    functional = base.rstrip("_")
    written = _WRITTEN.get(name, _WRITTEN.get(base))
    if name in _WRITTEN:
        return written
    if name.endswith("out") and "." in name:
        src = _WRITTEN.get(functional) or _WRITTEN.get(name.rsplit("_out", 1)[0].replace(".out", ""))
        shaped = _from_schema(name)
        if shaped is None:
            return None
        dtype = _OUT_DTYPE.get(functional, f32)

        def sample(m, src=src, shaped=shaped, dtype=dtype):
            if src is not None and not name.startswith("logspace"):
                args, kwargs = src(m)
            else:
                args = tuple(m(2, 3, positive=True) if a == "t" else a for a in shaped[0])
                kwargs = {}
                if name.startswith("logspace"):
                    args = tuple(m() if a == "t" else a for a in shaped[0])
                    if len(args) == 2:
                        args = args + (4,)
            return args, {**kwargs, "out": opyard.empty(0, dtype=dtype, device=m.device)}
        return sample
    if written is not None:
        return written
    shaped = _from_schema(name)
    if shaped is None:
        return None
    complex_in = functional in ("conj_physical", "_conj_physical", "angle", "resolve_conj", "resolve_neg")
    return lambda m, s=shaped: (tuple((m(2, 3, dtype=c64) if complex_in else m(2, 3, positive=True))
                                      if a == "t" else a for a in s[0]), {})


SPECIAL_META_SAMPLES = {}
for _name in OP_NAMES:
    if _name.startswith(_FAMILY) or _name.partition(".")[0].rstrip("_") in _FAMILY:
        _s = _sample(_name)
        if _s is not None:
            SPECIAL_META_SAMPLES[_name] = _s
