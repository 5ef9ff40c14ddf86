"""The expressions ``gen_torch_op_rules.py`` records torch 2.15's outcome of and
``tests/aten/test_op_rules.py`` replays with opyard, by section (one rule of a family each).

Each expression is evaluated with ``T`` bound to the module (``torch`` or ``opyard``) and the
tensors of ``TENSORS`` (expressions over ``T`` themselves, made afresh for every case).
``outcome`` is the recorded picture of the result or of the exception.
"""

TENSORS = {
    "u8": "T.tensor([0, 1, 5, 200], dtype=T.uint8)",
    "i8": "T.tensor([0, 1, -5, 100], dtype=T.int8)",
    "i16": "T.tensor([0, 1, -5, 100], dtype=T.int16)",
    "i32": "T.tensor([0, 1, -5, 100], dtype=T.int32)",
    "i64": "T.tensor([0, 1, -5, 100], dtype=T.int64)",
    "b": "T.tensor([True, False, True, False])",
    "h": "T.tensor([0.0, 1.0, -5.0, 100.0], dtype=T.float16)",
    "bf": "T.tensor([0.0, 1.0, -5.0, 100.0], dtype=T.bfloat16)",
    "f": "T.tensor([0.0, 1.0, -5.0, 100.0])",
    "d": "T.tensor([0.0, 1.0, -5.0, 100.0], dtype=T.float64)",
    "m": "T.tensor([True, False, True, False])",
    # Leaves for the autograd sections, and a real loss weighting the real and imaginary parts.
    "xc": "T.tensor([1 + 2j, -0.5 + 1j, 3 - 1j], dtype=T.complex128, requires_grad=True)",
    "yc": "T.tensor([2 - 1j, 1 + 1j, -1 + 0.5j], dtype=T.complex128, requires_grad=True)",
    "xr": "T.tensor([1.5, -2.0, 0.5], dtype=T.float64, requires_grad=True)",
    "a32": "T.tensor([1.5, -2.0, 0.5], dtype=T.float32, requires_grad=True)",
    "b64": "T.tensor([0.25, 3.0, -1.0], dtype=T.float64, requires_grad=True)",
    "h16": "T.tensor([1.5, -2.0, 0.5], dtype=T.float16, requires_grad=True)",
    "L": "lambda o: ((o.real * T.tensor([0.3, -1.1, 0.7], dtype=T.float64)).sum()"
         " + (o.imag * T.tensor([1.3, 0.2, -0.4], dtype=T.float64)).sum()) if o.is_complex() else"
         " (o * T.tensor([0.3, -1.1, 0.7], dtype=o.dtype)).sum()",
    "G": "lambda o, ins: T.autograd.grad(L(o), ins, allow_unused=True)",
    "O": "lambda *s, dt=None: T.ones(*s, dtype=dt or T.float32)",
    "N": "lambda *s: T.full(s, float('nan'))",
}

SECTIONS = {}


def _cases(section, exprs):
    SECTIONS.setdefault(section, []).extend(exprs)


# --- how a Python number meets an element type (_aten/scalars.py) ------------------------------------
_INT_TENSORS = ("u8", "i8", "i32")
_NUMBERS = ("-1", "-2", "300", "-300", "2**40", "1e6", "2.5", "float('nan')", "float('inf')")
_cases("scalars", [f"T.{op}({x}, {v})" for op in ("eq", "ne", "lt", "le", "gt", "ge")
                   for x in _INT_TENSORS + ("h", "bf") for v in ("-2", "256", "1000", "2**40", "1.5", "65520")])
_cases("scalars", [f"T.{op}({x}, {v})" for op in ("add", "sub", "mul", "remainder", "fmod", "bitwise_and",
                                                  "floor_divide")
                   for x in _INT_TENSORS for v in ("-1", "1000", "-1000", "2**63", "259")
                   if not (op == "fmod" and v == "2**63") and not (op == "floor_divide" and v == "2**63")])
_cases("scalars", [f"T.clamp({x}, {lo}, {hi})" for x in _INT_TENSORS + ("b",)
                   for lo, hi in (("-1", "1"), ("-1", "300"), ("5", "1"), ("300", "1"), ("1", "-1"), ("None", "-2"),
                                  ("-2", "None"), ("None", "300"), ("300", "None"), ("-2**40", "None"),
                                  ("None", "2**40"), ("1.5", "3.5"), ("float('nan')", "None"))])
_cases("scalars", [f"T.clamp_min({x}, {v})" for x in _INT_TENSORS for v in ("-2", "300", "2**40", "-2**40")]
       + [f"T.clamp_max({x}, {v})" for x in _INT_TENSORS for v in ("-2", "300", "2**40", "-2**40")]
       + [f"{x}.clone().clamp_({lo}, {hi})" for x in ("u8", "i8") for lo, hi in (("-1", "1"), ("None", "-1"),
                                                                                 ("1.5", "None"))]
       + [f"{x}.clone().clamp_min_({v})" for x in ("u8", "i8") for v in ("-1", "300")]
       + [f"T.clamp({x}, {lo}, {hi})" for x in ("h", "bf", "f")
          for lo, hi in (("-1e6", "None"), ("None", "1e6"), ("-1e39", "None"), ("float('-inf')", "float('inf')"),
                         ("float('nan')", "1"), ("0", "float('nan')"))])
_cases("scalars", [f"T.where(m, {x}, {v})" for x in ("u8", "i8", "i32", "h", "bf", "f", "b")
                   for v in ("-1", "300", "-129", "2**40", "1e6", "1e39", "2.5", "float('nan')", "True")]
       + [f"T.where(m, {v}, {x})" for x in ("u8", "h") for v in ("-1", "300", "1e6")])
_cases("scalars", [f"{x}.clone().fill_({v})" for x in ("u8", "i8", "h", "b") for v in _NUMBERS + ("-255", "-256")]
       + [f"T.full_like({x}, {v})" for x in ("u8", "i8", "h") for v in ("-1", "300", "1e6")]
       + [f"{x}.masked_fill(m, {v})" for x in ("u8", "i8", "h") for v in ("-1", "300", "1e6", "2.5")]
       + [f"{x}.index_fill(0, T.tensor([1]), {v})" for x in ("u8", "i8", "h") for v in ("-1", "300", "1e6")])
_cases("scalars", [f"T.pow({x}, {v})" for x in ("u8", "i8", "h") for v in ("-1", "300", "2", "1e6")]
       + [f"T.pow({v}, {x})" for x in ("u8", "i8", "h") for v in ("-1", "300", "2", "1e6")]
       + ["T.pow(T.tensor([2, 1, -1, 0]), T.tensor([-1, -2, -3, -1]))", "T.pow(2, T.tensor([-1, -2, 0, 3]))",
          "T.pow(-1, T.tensor([-1, -2, 0, 3]))"])
# Half data is computed in float32; a number meets it in float32 for add/sub/mul/div and in the half
# type for the other ops.
_cases("scalars", [f"T.{op}({x}, {v})" for op in ("mul", "div", "floor_divide", "remainder", "fmod", "xlogy",
                                                  "rsub", "copysign")
                   for x in ("h", "bf") for v in ("1e6", "-1e6", "1e-8", "70000.0", "2.5", "-1", "float('inf')")]
       + ["T.div(h, 1e6, rounding_mode='floor')", "T.div(h, 1e6, rounding_mode='trunc')",
          "T.div(bf, -1e-8, rounding_mode='floor')", "h * 1e-8 * 1e8", "(h * 655).lt(65510)",
          "(h * 655).ge(65510)", "bf.mul(656).gt(65535)", "T.pow(1e6, h * 1e-3)", "T.add(h, h, alpha=-1.5)"])

# --- half-precision data computed and accumulated in float32, rounded once (_aten/precision.py) ------
_HALF = {"hx": "T.full((64,), 0.1, dtype={dt})", "hn": "T.linspace(-3, 3, 50, dtype={dt})",
         "hb": "T.full((3000,), 1.0, dtype={dt})", "hm": "T.linspace(-2, 2, 36, dtype={dt}).reshape(6, 6)"}
_REDUCTIONS = ["{hx}.sum()", "{hx}.mean()", "{hx}.nansum()", "{hx}.nanmean()", "{hx}.cumsum(0)", "{hb}.sum()",
               "{hb}.cumsum(0)", "{hb}.mean()", "({hx} + 1).prod()", "({hx} + 1).cumprod(0)", "{hn}.std()",
               "{hn}.var()", "T.std_mean({hn})", "T.var_mean({hn})", "{hn}.norm()", "T.linalg.vector_norm({hn})",
               "{hn}.softmax(0)", "{hn}.log_softmax(0)", "T.logsumexp({hn}, 0)", "{hm} @ {hm}", "T.mm({hm}, {hm})",
               "T.mv({hm}, {hm}[0])", "T.dot({hn}, {hn})", "T.bmm({hm}[None], {hm}[None])",
               "{hm}.sum(0)", "{hm}.mean(1)", "{hm}.sum(0, dtype=T.float32)", "{hb}.sum(dtype=T.float16)",
               "T.addcmul({hn}, {hn}, {hn}, value=0.3)", "T.addcdiv({hn}, {hn}, {hn} + 5, value=0.3)",
               "T.lerp({hn}, {hn} * 3, 0.3)", "{hn}.sort().values", "T.cat([{hn}, T.tensor([float('nan')], dtype={hn}.dtype)]).sort()",
               "T.addmm({hm}, {hm}, {hm}, beta=0.5, alpha=2)", "T.baddbmm({hm}[None], {hm}[None], {hm}[None])"]
_cases("precision", [e.format(**{k: v.format(dt=dt) for k, v in _HALF.items()})
                     for dt in ("T.float16", "T.bfloat16") for e in _REDUCTIONS])

# --- the scaled sums: BLAS-like ops and addcmul/addcdiv/lerp (_aten/scaled_ops.py) -----------------
_cases("blas", [
    'T.addmm(N(2, 2), O(2, 3), O(3, 2), beta=0)',
    'T.addmm(N(2, 2), O(2, 3), O(3, 2), beta=0, alpha=0)',
    "T.addmm(T.ones(2,2), O(2, 3)*float('nan'), O(3, 2), alpha=0)",
    "T.addmm(T.ones(2,2), O(2, 3)*float('inf'), O(3, 2), alpha=0)",
    'T.addmm(T.ones(2), O(2, 3), O(3, 2))',
    "T.addmm(T.full((1,2), float('nan')), O(2, 3), O(3, 2), beta=0)",
    'T.addmm(O(2, 2, dt=T.int64), O(2, 3, dt=T.int64), O(3, 2, dt=T.int64), beta=2, alpha=3)',
    'T.addmm(O(2, 2, dt=T.int64), O(2, 3, dt=T.int64), O(3, 2, dt=T.int64), beta=0.5)',
    'T.addmm(O(2, 2, dt=T.int64), O(2, 3, dt=T.int64), O(3, 2, dt=T.int64), alpha=0.5)',
    'T.addmm(O(2, 2, dt=T.int64), O(2, 3), O(3, 2))',
    'T.addmm(N(2, 2), O(2, 3, dt=T.int64), O(3, 2, dt=T.int64))',
    'T.addmm(N(2, 2).double(), O(2, 3), O(3, 2))',
    'T.addmm(O(2, 2, dt=T.int64).bool(), O(2, 3, dt=T.int64).bool(), O(3, 2, dt=T.int64).bool())',
    'N(2, 2).clone().addmm_(O(2, 3), O(3, 2), beta=0)',
    'T.addmm(N(2, 2), O(2, 3), O(3, 2), beta=1j)',
    'T.addmv(N(2), O(2, 3), O(3), beta=0)',
    'T.addmv(T.ones(2), O(2, 3), O(3), beta=2, alpha=3)',
    'T.addmv(T.ones(2, dtype=T.int64), O(2, 3, dt=T.int64), T.ones(3, dtype=T.int64), beta=2)',
    'T.addmv(T.ones(1), O(2, 3), O(3))',
    'N(2).clone().addmv_(O(2, 3), O(3), beta=0)',
    "T.addr(T.full((2,3), float('nan')), T.ones(2), T.ones(3), beta=0)",
    'T.addr(T.ones(2,3), T.arange(2.), T.arange(3.), beta=2, alpha=3)',
    'T.addr(T.ones(2,3, dtype=T.int64), T.arange(2), T.arange(3), beta=2, alpha=3)',
    'T.addr(T.ones(2,3, dtype=T.bool), T.tensor([True,False]), T.tensor([True,False,True]))',
    'T.addr(T.ones(2,3, dtype=T.bool), T.tensor([True,False]), T.tensor([True,False,True]), beta=2)',
    'T.addr(T.ones(2,3, dtype=T.int64), T.arange(2), T.arange(3), beta=0.5)',
    'T.addr(T.ones(2,3, dtype=T.bool), T.tensor([True,False]), T.tensor([True,False,True]), beta=False)',
    "T.addbmm(T.full((2,2), float('nan')), T.ones(4,2,3), T.ones(4,3,2), beta=0)",
    'T.addbmm(T.ones(2,2), T.ones(4,2,3), T.ones(4,3,2), beta=2, alpha=0.5)',
    'T.addbmm(T.ones(2,2,dtype=T.int64), T.ones(4,2,3,dtype=T.int64), T.ones(4,3,2,dtype=T.int64))',
    "T.baddbmm(T.full((4,2,2), float('nan')), T.ones(4,2,3), T.ones(4,3,2), beta=0)",
    'T.baddbmm(T.ones(4,2,2,dtype=T.int16), T.ones(4,2,3,dtype=T.int16), T.ones(4,3,2,dtype=T.int16), beta=2)',
    'T.baddbmm(T.ones(4,2,2,dtype=T.int16), T.ones(4,2,3,dtype=T.int16), T.ones(4,3,2,dtype=T.int16), alpha=0.5)',
    'T.baddbmm(T.ones(2), T.ones(4,2,3), T.ones(4,3,2))',
    'T.baddbmm(T.ones(4,2,2,dtype=T.float64), T.ones(4,2,3), T.ones(4,3,2))',
    'T.addbmm(T.ones(2,2), T.ones(4,2,3), T.ones(3,3,2))',
    'T.addmm(T.ones(2,2), O(2, 3), T.ones(2,2))',
    'T.addmm(T.ones(3,3), O(2, 3), O(3, 2))',
    'T.addmv(T.ones(2), O(2, 3), T.ones(2))',
    'T.addr(T.ones(2,3), T.ones(2,2), T.ones(3))',
    'T.mm(O(2, 3, dt=T.int64), O(3, 2, dt=T.int64))',
    'T.mm(O(2, 3, dt=T.int64), O(3, 2))',
    'T.mm(O(2, 3, dt=T.int64).bool(), O(3, 2, dt=T.int64).bool())',
    'T.mv(O(2, 3, dt=T.int64).to(T.int8), T.ones(3, dtype=T.int8)*100)',
    'T.addmm(T.ones(2,2,dtype=T.float16)*1000, T.full((2,3), 300., dtype=T.float16), T.full((3,2), 300., dtype=T.float16), beta=0.001, alpha=0.001)',
    '(lambda s: (T.addmm(s, O(2, 3), O(3, 2), beta=0).sum().backward(), s.grad)[1])(T.ones(2,2, requires_grad=True))',
    'T.addmm(T.ones(2,2, requires_grad=True), O(2, 3), O(3, 2)).grad_fn.name()',
    'T.addmv(T.ones(2, requires_grad=True), O(2, 3), O(3)).grad_fn.name()',
    'T.addr(T.ones(2,3, requires_grad=True), T.ones(2), T.ones(3)).grad_fn.name()',
    'T.addbmm(T.ones(2,2, requires_grad=True), T.ones(4,2,3), T.ones(4,3,2)).grad_fn.name()',
    'T.baddbmm(T.ones(4,2,2, requires_grad=True), T.ones(4,2,3), T.ones(4,3,2)).grad_fn.name()',
    'T.addmm(O(2,2), O(2,3,dt=T.int64), O(3,2))',
    'T.addmm(O(2,2), O(2,3), O(3,2,dt=T.int64))',
    'T.addmv(O(2,dt=T.int64), O(2,3), O(3))',
    'T.addmv(O(2), O(2,3,dt=T.int64), O(3))',
    'T.addmv(O(2), O(2,3), O(3,dt=T.int64))',
    'T.addr(O(2,3,dt=T.int64), O(2), O(3))',
    'T.addr(O(2,3), O(2,dt=T.int64), O(3))',
    'T.addr(O(2,3), O(2), O(3,dt=T.float64))',
    'T.addbmm(O(2,2,dt=T.int64), O(4,2,3), O(4,3,2))',
    'T.addbmm(O(2,2), O(4,2,3,dt=T.int64), O(4,3,2))',
    'T.baddbmm(O(4,2,2), O(4,2,3,dt=T.int64), O(4,3,2))',
    'T.bmm(O(4,2,3,dt=T.int64), O(4,3,2))',
    'T.mv(O(2,3,dt=T.int64), O(3))',
    'T.dot(O(3,dt=T.int64), O(3))',
    'T.mm(O(2,2,dt=T.bool), O(2,2,dt=T.bool))',
    'T.bmm(O(1,2,2,dt=T.bool), O(1,2,2,dt=T.bool))',
    'T.mv(O(2,2,dt=T.bool), O(2,dt=T.bool))',
    'T.dot(O(2,dt=T.bool), O(2,dt=T.bool))',
    'T.addmv(O(2,dt=T.bool), O(2,2,dt=T.bool), O(2,dt=T.bool))',
    'T.addbmm(O(2,2,dt=T.bool), O(1,2,2,dt=T.bool), O(1,2,2,dt=T.bool))',
    'T.baddbmm(O(1,2,2,dt=T.bool), O(1,2,2,dt=T.bool), O(1,2,2,dt=T.bool))',
    'T.addmm(O(2,2), O(3), O(3,2))',
    'T.addmv(O(2), O(2,3), O(3,1))',
    'T.addbmm(O(2,2), O(2,3), O(3,2))',
    'T.baddbmm(O(4,2,2), O(4,2,3), O(4,2,2))',
    'T.baddbmm(O(3,2,2), O(4,2,3), O(4,3,2))',
    'T.addbmm(O(3,3), O(4,2,3), O(4,3,2))',
    'T.addmv(O(3), O(2,3), O(3))',
    'T.addr(O(3,3), O(2), O(3))',
    'T.addmm(O(2,2,dt=T.int64), O(2,3,dt=T.int64), O(3,2,dt=T.int64), beta=0.5)',
    'T.addmv(O(2,dt=T.int64), O(2,3,dt=T.int64), O(3,dt=T.int64), alpha=0.5)',
    'T.addbmm(O(2,2,dt=T.int64), O(1,2,3,dt=T.int64), O(1,3,2,dt=T.int64), alpha=1.5)',
    'T.addmm(O(2,2,dt=T.int64), O(2,3,dt=T.int64), O(3,2,dt=T.int64), beta=True)',
    'T.addr(O(2,3,dt=T.bool), O(2,dt=T.bool), O(3,dt=T.bool), alpha=2)',
    'T.addr(O(2,3,dt=T.bool), O(2,dt=T.bool), O(3,dt=T.bool), alpha=0.5)',
    'T.addr(O(2,3,dt=T.int64), O(2,dt=T.int64), O(3,dt=T.int64), beta=True)',
    'T.addr(O(2,3), O(2), O(3), beta=1j)',
    'T.addr(O(2,3,dt=T.uint8), O(2,dt=T.uint8), O(3,dt=T.uint8), beta=-1)',
    'T.addmm(O(2,2,dt=T.uint8), O(2,3,dt=T.uint8), O(3,2,dt=T.uint8), beta=-1)',
    'T.addmm(O(2,2,dt=T.uint8), O(2,3,dt=T.uint8), O(3,2,dt=T.uint8), beta=300)',
    'T.addmm(T.tensor(2.), O(2,3), O(3,2))',
    'T.addr(O(0,3), O(0), O(3), beta=0)',
    "T.addmm(T.full((2,2), float('nan')), O(2,0), O(0,2), beta=0)",
    'T.addmm(T.full((2,2), 5.), O(2,0), O(0,2), beta=2)',
    'O(2).addmm_(O(2,3), O(3,2))',
    'T.addmm(O(2,2), O(2,3), O(3,2), out=T.empty(2,2,dtype=T.float64))',
])
_cases("addc", [f"T.addcmul({x}, {x}, {x}, value={v})" for x in ("u8", "i8", "i32", "i64", "b") for v in ("0.5", "2", "True")]
       + [f"T.addcdiv({x}.float(), {x}, {x}, value=2)" for x in ("u8", "i64", "b")] + [
    'T.addcmul(T.ones(3, dtype=T.int64), T.ones(3), T.ones(3, dtype=T.float64), value=0.5)',
    'T.addcmul(T.ones(3, dtype=T.int64), T.ones(3), T.ones(3), value=0.5)',
    'T.addcdiv(T.ones(3), T.ones(3, dtype=T.int64), T.ones(3, dtype=T.int64))',
    'T.addcdiv(T.ones(3), T.ones(3, dtype=T.int64), T.ones(3))',
    'T.addcmul(T.ones(1), T.ones(2,1), T.ones(3))',
    'T.addcmul(T.ones(3, requires_grad=True), T.ones(3), T.ones(3)).grad_fn.name()',
    'T.addcdiv(T.ones(3, requires_grad=True), T.ones(3), T.ones(3)).grad_fn.name()',
    'T.addcmul(T.ones(3), T.ones(3), T.ones(3), value=1j)',
    'T.ones(1).addcmul_(T.ones(2), T.ones(2))',
    'T.ones(2, dtype=T.int64).addcmul_(T.ones(2), T.ones(2))',
    'T.ones(2).addcdiv_(T.ones(2), T.ones(2)*4, value=2)',
    'T.addcmul(T.tensor([60000.], dtype=T.float16), T.tensor([300.], dtype=T.float16), T.tensor([300.], dtype=T.float16), value=-0.6)',
    'T.addcdiv(T.ones(2), T.ones(2), T.zeros(2), value=0)',
    "T.addcmul(T.ones(2), T.full((2,), float('nan')), T.ones(2), value=0)",
    'T.lerp(T.ones(2, dtype=T.int64), T.ones(2, dtype=T.int64), 0.5)',
    'T.lerp(T.tensor([1.], dtype=T.float16), T.tensor([60000.], dtype=T.float16), 0.99)',
    'T.lerp(T.ones(2), T.ones(2, dtype=T.float64), 0.5)',
    'T.lerp(T.ones(2), T.ones(2), T.ones(2, dtype=T.float64))',
    'T.lerp(T.ones(1), T.ones(3), 0.5)',
])

# --- gradients take their input's dtype (the engine casts; src/python/autograd.rs) -----------------
_cases("grad_dtype", [
    "T.autograd.grad((a32 + b64).sum(), [a32, b64])",
    "T.autograd.grad((a32 * b64).sum(), [a32, b64])",
    "T.autograd.grad(((a32 * 1) + b64).sum(), [a32, b64])",
    "T.autograd.grad((a32.double() * b64).sum(), [a32])",
    "T.autograd.grad((h16 + b64).sum(), [h16, b64])",
    "T.autograd.grad((a32 + b64[:1]).sum(), [a32, b64])",
    "T.autograd.grad((a32.unsqueeze(1) * b64).sum(), [a32, b64])",
    "[(lambda c: ((c + b64).sum().backward(), c.grad)[1])((lambda c: (c.retain_grad(), c)[1])(a32 * 2))]",
    "[((a32 * b64).sum().backward(), a32.grad, b64.grad)[1:]]",
    "T.autograd.grad((xr * xc).abs().sum(), [xr])",
])

# --- complex results record autograd, with the conjugate Wirtinger convention ----------------------
_COMPLEX_FNS = ["xc * yc", "xc * xr", "xr * xc", "xc / yc", "xr / xc", "xc + xr", "xc - yc", "xc.exp()", "xc.log()",
                "xc.sin()", "xc.cos()", "xc.tanh()", "xc.sigmoid()", "xc.sqrt()", "xc.rsqrt()", "xc.reciprocal()",
                "xc ** 2", "xc ** 2.5", "xc ** yc", "2 ** xc", "-xc", "xc.abs()", "xc.angle()", "xc.real", "xc.imag",
                "xc.conj()", "xc.conj_physical()", "xc.sgn()", "xc.sum()", "xc.mean()", "xc.prod()", "xc.cumsum(0)",
                "xc.cumprod(0)", "xc.reshape(3, 1) @ yc.reshape(1, 3)", "T.mv(xc.reshape(3, 1) * yc, xc)",
                "T.dot(xc, yc)", "T.outer(xc, yc)", "xc.tan()", "xc.asin()", "xc.sinh()", "xc.log2()", "xc.log1p()",
                "xc.expm1()", "xc.var()", "xc.std()", "T.view_as_real(xc)",
                "T.view_as_complex(T.view_as_real(xc) * 2)", "T.lerp(xc, yc, 0.3)",
                "T.where(T.tensor([True, False, True]), xc, yc)", "xc * (1 + 2j)", "xc / (1 - 2j)",
                "T.add(xc, yc, alpha=2j)", "xc.abs() * xr", "T.view_as_complex(T.stack([xr, xr * 2], -1))"]
_cases("complex_autograd", [f"({f}).requires_grad" for f in ("xc * yc", "xr * T.tensor([1 + 1j, 2j, 1])",
                                                             "T.view_as_complex(T.stack([xr, xr], -1))",
                                                             "xr.angle()", "xc.angle()")]
       + [f"G({f}, [xc, yc, xr])" for f in _COMPLEX_FNS])
_cases("complex_autograd", [
    "xr.real is xr", "xr.conj() is xr", "xr.conj_physical() is xr", "xr.angle()", "T.tensor([1, -2]).angle()",
    "T.tensor([float('nan'), -0.0, 0.0, -1.0]).angle()", "xr.imag", "T.tensor([1, 2]).imag",
    "T.view_as_real(T.ones(2))", "T.view_as_complex(T.ones(3, 3))", "T.view_as_complex(T.ones(3, 4)[:, 1:3])",
    "T.view_as_complex(T.ones(3, 3)[:, :2])", "T.view_as_complex(T.ones(4, 2)[1:])", "T.view_as_complex(T.ones(2))",
    "T.view_as_complex(T.ones(()))", "T.view_as_complex(T.ones(3, 2, dtype=T.int32))",
    "T.view_as_real(T.tensor(1 + 2j))", "T.view_as_real(xc).stride()", "T.view_as_real(xc)._base is xc",
    "xc.real._base is xc", "xc.real.stride()", "xc.imag.grad_fn.name()", "xc.real.grad_fn.next_functions[0][0].name()",
    "(lambda z: (z.real.mul_(2), z)[1])(T.tensor([1 + 1j, 2 - 2j]))",
    "(lambda z: (setattr(z, 'imag', T.tensor([5.0, 6.0])), z)[1])(T.tensor([1 + 1j, 2 - 2j]))",
])

# --- einsum as torch composes it: dtypes of sums and contractions, errors (_aten/linalg.py) ---------
_EI = {"a8": "T.full((2, 3), 100, dtype=T.int8)", "b8": "T.ones(3, 2, dtype=T.int8)",
       "sq": "T.arange(9, dtype=T.int16).reshape(3, 3)", "fa": "T.linspace(-1, 1, 6).reshape(2, 3)",
       "fb": "T.linspace(0, 2, 6).reshape(3, 2)"}
_cases("einsum", [e.format(**_EI) for e in (
    "T.einsum('ij,jk->ik', {a8}, {b8})", "T.einsum('ij,jk->i', {a8}, {b8})", "T.einsum('ij,jk->', {a8}, {b8})",
    "T.einsum('ij,ij->', {a8}, {a8})", "T.einsum('ij->i', {a8})", "T.einsum('ij->ij', {a8})",
    "T.einsum('ij,jk->ijk', {a8}, {b8})", "T.einsum('ii->i', {sq})", "T.einsum('ii', {sq})",
    "T.einsum('iji->j', T.ones(1, 3, 1, dtype=T.int32))", "T.einsum('i,i->', T.ones(2, dtype=T.int32), T.ones(2))",
    "T.einsum('i,j->ij', T.ones(2, dtype=T.int32), T.ones(2))", "T.einsum('i,i->', T.ones(2, dtype=T.bool), "
    "T.ones(2, dtype=T.bool))", "T.einsum('i,j->ij', T.ones(2, dtype=T.bool), T.ones(3, dtype=T.bool))",
    "T.einsum('ij->i', T.ones(2, 2, dtype=T.bool))", "T.einsum('ij,jk', {fa}, {fb})",
    "T.einsum('...ij,...jk->...ik', T.ones(4, 2, 3), {fb})", "T.einsum('ij->...', {fa})",
    "T.einsum('bij,bjk->bik', {fa}[None].to(T.float16), {fb}[None].to(T.float16))",
    "T.einsum('ij,ij->i', T.full((2, 300), 0.1, dtype=T.bfloat16), T.full((2, 300), 0.1, dtype=T.bfloat16))",
    "T.einsum('ij,jk', {fa})", "T.einsum('ij', {fa}, {fb})", "T.einsum('i1,jk', {fa}, {fb})",
    "T.einsum('ij,jk->ii', {fa}, {fb})", "T.einsum('ij,jk->l', {fa}, {fb})", "T.einsum('ijk,jk', {fa}, {fb})",
    "T.einsum('ij,kj', {fa}, {fb})", "T.einsum('i.j', {fa})", "T.einsum('ij,jk->i', T.ones(2, 0), T.ones(0, 3))",
    "T.einsum('ij,jk->ik', T.ones(2, 0, dtype=T.int8), T.ones(0, 3, dtype=T.int8))",
    "G(T.einsum('ij,j->i', T.stack([xr, xr * 2, xr - 1]), xr), [xr])")])

# --- edge shapes and result dtypes of the everyday ops ---------------------------------------------
_cases("edges", [
    "T.index_select(T.tensor(3.), 0, T.tensor(0))", "T.index_select(T.tensor(3.), 0, T.tensor([0]))",
    "T.index_select(T.tensor(3.), 0, T.tensor([0, 0]))", "T.index_select(T.tensor(3.), 0, T.tensor(1))",
    "T.index_select(O(2, 3), 0, T.tensor(1))", "T.index_select(O(2, 3), 0, T.tensor([-1]))",
    "T.index_select(O(2, 3), 0, T.tensor([2]))", "T.index_select(O(2, 3), 0, T.tensor([1.]))",
    "T.index_select(O(2, 3), 0, T.tensor([1], dtype=T.int8))", "T.index_select(O(2, 3), 0, T.tensor([[1]]))",
    "T.index_select(O(2, 3), 1, T.tensor([0, 1], dtype=T.int32))",
    "G(T.index_select(xr[0], 0, T.tensor(0)) * T.ones(3, dtype=T.float64), [xr])",
    "T.diff(f, n=0)", "T.diff(f, n=0, prepend=f)", "T.diff(f, n=2, prepend=f[:1], append=f[:2])",
    "T.all(u8)", "T.any(u8)", "T.all(u8.reshape(2, 2), 0)", "T.any(u8.reshape(2, 2), dim=1, keepdim=True)",
    "T.all(i8)", "T.any(b)", "T.logsumexp(u8, 0)", "T.logsumexp(i64, 0)", "T.logsumexp(b, 0)",
    "T.logsumexp(i8.reshape(2, 2), 1)",
    "T.index_select(T.ones(3, 6), 1, T.tensor([0, 1]), out=T.empty(1, 6).expand(2, 6))",
    "T.add(f, f, out=T.empty(1).expand(4))", "T.add(f, f, out=T.empty(1, 4).expand(2, 4))",
    "T.cat([f, f], out=T.empty(1).expand(8))", "T.cat([f, f], out=T.empty(1).expand(3))",
    "T.mm(O(2, 3), O(3, 2), out=T.empty(1, 2).expand(2, 2))", "T.sum(O(2, 3), 1, out=T.empty(1).expand(2))",
    "T.take(f, T.tensor([0, 1]), out=T.empty(1).expand(2))",
])

# --- the BLAS ops on half data: torch's order of rounding ------------------------------------------
_HB = {dt: {"s": f"T.linspace(-3, 3, 12, dtype={dt}).reshape(3, 4)",
            "v1": f"T.linspace(-2, 1.7, 3, dtype={dt})", "v2": f"T.linspace(0.3, 2.9, 4, dtype={dt})",
            "b1": f"T.linspace(-1.3, 2.1, 60, dtype={dt}).reshape(5, 3, 4)",
            "b2": f"T.linspace(-0.7, 1.9, 80, dtype={dt}).reshape(5, 4, 4)"} for dt in ("T.float16", "T.bfloat16")}
_cases("blas_half", [e.format(**v) for v in _HB.values() for e in (
    "T.addr({s}, {v1}, {v2})", "T.addr({s}, {v1}, {v2}, beta=0.2, alpha=0.6)", "T.addr({s}, {v1}, {v2}, beta=0, "
    "alpha=0.3)", "T.addbmm({s}, {b1}, {b2})", "T.addbmm({s}, {b1}, {b2}, beta=0.5, alpha=1.5)",
    "T.baddbmm({b1}[:, :, :1], {b1}, {b2}, alpha=0.3)")] + [
    "T.addr(O(1, 1), T.tensor([float('nan')]), T.tensor([float('nan')]), beta=0, alpha=0)",
    "T.addr(T.full((1, 1), float('nan')), O(1), O(1), beta=0, alpha=0)",
    "(lambda s: (s.addbmm_(O(3, 2, 4, dt=T.float64), O(3, 4, 5, dt=T.float64), beta=0.5), s)[1])"
    "(T.tensor([2.], dtype=T.float64))",
    "T.tensor(2., dtype=T.float64).addbmm_(O(3, 2, 4, dt=T.float64), O(3, 4, 5, dt=T.float64)).stride()",
    "T.tensor([2.]).baddbmm_(O(3, 2, 4), O(3, 4, 5))", "T.tensor([2.]).addmm_(O(2, 4), O(4, 5))",
])


# --- index tensors of gather/scatter/index_add: dtypes, scalars, bounds, reductions ------------------
_cases("index_args", [
    "T.gather(f, 0, T.tensor([1, 0], dtype=T.int32))", "T.gather(f, 0, T.tensor([1], dtype=T.int16))",
    "T.gather(f, 0, T.tensor([1.]))", "T.gather(f, 0, T.tensor([], dtype=T.uint8))",
    "T.gather(f, 0, T.zeros(2, 0, dtype=T.uint8))", "T.gather(T.tensor(2.), 0, T.tensor([0, 0]))",
    "T.gather(T.tensor(2.), 0, T.tensor(0))", "T.gather(T.tensor(2.), 0, T.tensor([[0]]))",
    "T.gather(f, 0, T.tensor([4]))", "T.gather(f, 0, T.tensor([-1]))",
    "T.gather(O(1, 1), 1, T.zeros(2, 2, dtype=T.long))", "T.gather(O(3, 3), 1, T.zeros(2, 2, dtype=T.long))",
    "G(T.gather(xr[0], 0, T.tensor([0, 0, 0])), [xr])",
    "T.scatter(f, 0, T.tensor([0], dtype=T.int32), T.tensor([9.]))", "T.scatter(f, 0, T.tensor([0]), d[:1])",
    "T.scatter(f, 0, T.tensor([9]), T.tensor([9.]))", "T.scatter(f, 0, T.tensor([[0]]), T.tensor([9.]))",
    "T.scatter(T.tensor(2.), 0, T.tensor(0), T.tensor(5.))", "T.scatter(T.tensor(2.), 0, T.tensor(0), 5.)",
    "T.scatter(f, 0, T.tensor([0, 0]), T.tensor([2., 3.]), reduce='multiply')",
    "T.scatter(f, 0, T.tensor([0, 0]), T.tensor([2., 3.]), reduce='add')",
    "T.scatter(f, 0, T.tensor([0]), T.tensor([2.]), reduce='max')",
    "T.scatter(i64, 0, T.tensor([0, 0]), 2.5, reduce='add')", "T.scatter(b, 0, T.tensor([1]), T.tensor([True]), "
    "reduce='add')", "f.clone().scatter_(0, T.tensor([1, 1]), 3.0, reduce='multiply')",
    "G(T.scatter(xr, 0, T.tensor([0]), T.tensor([2.], dtype=T.float64), reduce='add'), [xr])",
    "T.scatter_add(T.tensor(2.), 0, T.tensor(0), T.tensor(5.))",
    "T.scatter_add(O(3, 5), 0, T.tensor([[0, 1]]), O(2, 5))",
    "T.index_add(T.tensor(2.), 0, T.tensor([0]), T.tensor(5.), alpha=2)",
    "T.index_add(u8[:2], 0, T.tensor([0]), T.tensor([5], dtype=T.uint8), alpha=-1)",
    "T.index_add(u8[:2], 0, T.tensor([0]), T.tensor([5], dtype=T.uint8), alpha=1.5)",
    "T.index_add(u8[:2], 0, T.tensor([0]), T.tensor([5], dtype=T.uint8), alpha=300)",
    "T.index_add(O(3, 2), 0, T.tensor([0, 1]), O(2))",
    "T.isclose(f, f, rtol=-0.4)", "T.isclose(f, f, atol=-1)", "T.isclose(f, d)",
    "f.clone().round_(decimals=1)", "T.copysign(xr, xr.detach() * -1)",
    "G(T.copysign(xr, b64), [xr, b64])",
    "T.div((T.arange(41) * 1.5 - 30).to(T.float16), (T.arange(41) * 0.16 - 3.3).to(T.float16), rounding_mode='trunc')",
    "T.div((T.arange(41) * 1.5 - 30).to(T.bfloat16), (T.arange(41) * 0.16 - 3.3).to(T.bfloat16), rounding_mode='trunc')",
    "T.div((T.arange(41) * 1.5 - 30).to(T.float16), 3.7, rounding_mode='trunc')",
])


# --- index tensors of getitem/setitem/index/index_put: masks, dtypes, nested lists ------------------
_X = "T.arange(12.).reshape(3, 4)"
_cases("index_tensors", [e.replace("X", _X) for e in (
    "X[T.tensor([1, 0, 1], dtype=T.uint8)]", "X[T.tensor([2, 0], dtype=T.int32)]",
    "X[T.tensor([2, 0], dtype=T.int16)]", "X[T.tensor([2, 0], dtype=T.int8)]", "X[T.tensor([1.])]",
    "X[[[0, 1], [2, 0]]]", "X[[0, 1], [2, 0]]", "X[[True, False, True]]", "X[T.tensor(True)]",
    "X[T.tensor(False)]", "T.tensor(3.)[T.tensor(True)]", "T.tensor(3.)[T.tensor(False)]",
    "X[T.tensor(1, dtype=T.uint8)]", "X[[0, 1], 1:]", "X[T.tensor([[True, False, True, False]] * 3)]",
    "X[T.tensor([5])]", "X[:, [True, False]]",
    "T.ops.aten.index.Tensor(X, [T.tensor([1, 0, 1], dtype=T.uint8)])" if False else "X.index_select(0, T.tensor([0]))",
    "(lambda y: (y.__setitem__(T.tensor([0]), T.tensor([1, 2, 3, 4], dtype=T.int64)), y)[1])(X.clone())",
    "(lambda y: (y.__setitem__(0, T.tensor([1, 2, 3, 4], dtype=T.float64)), y)[1])(X.clone())",
    "(lambda y: (y.__setitem__([[0, 1], [1, 2]], 7.), y)[1])(X.clone())",
    "X.clone().index_put_([T.tensor([0], dtype=T.int32)], T.tensor(1.))",
    "X.clone().index_put_([T.tensor([0.])], T.tensor(1.))",
    "X.clone().index_put_([T.tensor([0])], T.tensor(1, dtype=T.int64))",
    "X.clone().index_put_([T.tensor([1, 0, 1], dtype=T.uint8)], T.tensor(1.))",
    "X.clone().index_put_([T.tensor([0, 0])], T.tensor(1.), accumulate=True)",
    "G(T.masked_select(xr[0], T.tensor(True)) * T.ones(1, dtype=T.float64), [xr])",
    "G(T.index_fill(T.stack([xr, xr, xr]), 0, T.tensor([2, 0, 0]), xr[1]), [xr])",
)])



# --- factories: arange's range checks and integral values, eye's sizes (_aten/factory.py) -----------
_cases("factory_checks", [f"T.arange({a})" for a in (
    "0, float('inf'), 2", "float('-inf'), 1, 2", "0, float('nan')", "float('nan'), 1", "0, 1, float('inf')",
    "0, 10, float('nan')", "0, 5, 0", "float('nan'), 1, 0", "5, 0, 1", "0, 1e20, 1e-10", "0, 3.5", "0, 1, 1/3",
    "2.1, -2.9, -1.0, dtype=T.uint8", "2.1, -2.9, -1.0, dtype=T.int8", "5, 0, -0.5, dtype=T.int32",
    "0.5, 3.7, 0.9", "0.5, 3.7, 0.9, dtype=T.int64", "-1.5, 3, 1.5, dtype=T.int8", "1, 2.5, 0.5, dtype=T.uint8",
    "0, 1, 0.1, dtype=T.float16", "0, 1, 0.1, dtype=T.bfloat16", "0, 300, dtype=T.uint8", "0, 3, dtype=T.bool",
    "10, dtype=T.float64", "-3, 4, 2")] + ["T.arange(5, device='meta').shape", "str(T.arange(0, 1, 0.25, device='meta').dtype).split('.')[1]"]
    + [f"T.eye({a})" for a in ("-1", "-7, 42", "0, -3", "3, 0", "2, 3, dtype=T.int32")])

# --- reductions without an identity over empty dims; out= dtypes of amax/amin/argmax (_aten/reduction.py)
_Z = "T.zeros(5, 0, 5)"
_cases("reduction_checks", [e.replace("Z", _Z) for e in (
    "T.amax(Z, 0)", "T.amax(Z, 1)", "T.amax(Z, (0, -2))", "T.amin(Z, (0, 1))", "T.amax(Z)", "T.amin(Z, 2, True)",
    "T.argmax(Z)", "T.argmax(Z, 0)", "T.argmin(Z, 1)", "T.argmin(Z, -2, True)", "T.aminmax(Z)",
    "T.aminmax(Z, dim=0)", "T.aminmax(Z, dim=1)", "T.aminmax(Z, dim=-2, keepdim=True)", "T.max(Z)", "T.max(Z, 0)",
    "T.max(Z, 1)", "T.min(Z, -2)", "T.amax(T.tensor([]), 0)", "T.amax(T.tensor(3.), 0)", "T.amax(Z, 5)",
    "T.mean(T.zeros(3, dtype=T.long))", "T.mean(T.zeros(3), dtype=T.long)", "T.mean(T.zeros(3, dtype=T.bool), 0)",
    "T.mean(T.zeros(2, 3, dtype=T.int32), (0, 1))", "T.nanmean(T.zeros(3, dtype=T.long))",
    "T.amax(O(4, 4), 0, out=O(4, dt=T.float64))", "T.amin(O(4, 4), 0, out=O(4, dt=T.float16))",
    "T.amax(O(4, 4), 0, out=O(4))", "T.argmax(O(4, 4), 0, out=O(4, dt=T.int32))",
    "T.argmin(O(4, 4), 0, out=O(4, dt=T.int64))", "T.sum(O(4, 4), 0, out=O(4, dt=T.float64))",
)])

# --- the checks of the random fills (_aten/factory.py) -------------------------------------------------
_cases("random_checks", [f"T.zeros(3, dtype=T.{dt}).{call}" for dt in ("float32", "float64", "float16", "bfloat16",
                                                                       "int64", "complex64")
                         for call in ("uniform_(3, -1)", "uniform_(float('-inf'), 0)",
                                      "uniform_(0, float('nan'))", "uniform_(-1e5, 1e5).shape", "uniform_(-3e38, 3e38).shape",
                                      "uniform_(0.5, 0.5)", "normal_(0, -1)", "normal_(0, float('nan'))",
                                      "normal_(0, 1.5).shape")]
       + ["(lambda t: (t.real.min() >= 0.25, t.imag.min() >= 0.25, t.real.max() < 0.5, t.imag.max() < 0.5))("
          "T.zeros(1000, dtype=T.complex64).uniform_(0.25, 0.5))",
          "(lambda t: (abs(t.real.std() - 0.5 / 2 ** 0.5) < 0.05, abs(t.imag.std() - 0.5 / 2 ** 0.5) < 0.05))("
          "T.zeros(4000, dtype=T.complex128).normal_(0, 0.5))"])

# --- the checks of nn.functional wrappers ----------------------------------------------------------
_cases("functional_checks", [
    "T.nn.functional.hardtanh(f, 0.5, -0.5)", "T.nn.functional.hardtanh(f, 0.5, 0.5)",
    "T.nn.functional.hardtanh(f.clone(), 1.5, -0.5, inplace=True)", "T.nn.functional.hardtanh(f, -0.5, 0.5)",
])

# --- tensor lists: empty lists, cat's legacy empty tensors in the backward (_aten/shape.py) -----------
_cases("tensor_lists", [
    "T.cat([], dim=1)", "T.cat(())", "T.ops.aten.cat.default([])", "T.cat([], out=O(1))", "T.stack([])",
    "T.ops.aten.stack.default([])", "T.hstack([])", "T.vstack([])", "T.block_diag()", "T.broadcast_tensors()",
    "G(T.cat([xr[:0], xr]), [xr])",
    "(lambda a, b: T.autograd.grad(T.cat([a, b], 1).sum(), [a, b]))(T.zeros(0, dtype=T.float64, requires_grad=True), "
    "T.ones(2, 2, dtype=T.float64, requires_grad=True))",
    "(lambda a, b: T.autograd.grad((T.cat([a, b], 0) * 2).sum(), [a, b]))(T.zeros(0, dtype=T.float64, "
    "requires_grad=True), T.zeros(0, dtype=T.float64, requires_grad=True))",
])

# --- out= into memory from outside (from_numpy, as_tensor of an array): torch cannot grow it ----------
_cases("out_storage", [
    "T.cat([O(2), O(3)], out=T.from_numpy(O(0).numpy()))", "T.cat([O(2), O(3)], out=T.from_numpy(O(6).numpy()))",
    "T.cat([O(2), O(3)], out=T.from_numpy(O(5).numpy()))", "T.cat([O(2), O(3)], out=T.from_numpy(O(2, 3).numpy()))",
    "T.add(O(4), O(4), out=T.from_numpy(O(3).numpy()))", "T.add(O(2), O(2), out=T.from_numpy(O(6).numpy()))",
    "T.add(O(2), O(2), out=T.from_numpy(O(6).numpy())[:0])", "T.add(O(2), O(2), out=T.from_numpy(O(6).numpy())[5:])",
    "T.add(O(2), O(2), out=T.from_numpy(O(6).numpy())[4:])", "T.add(O(2), O(2), out=T.from_numpy(O(6).numpy()).detach())",
    "T.gather(T.arange(3), 0, T.tensor([0, 1]), out=T.from_numpy(T.tensor([2]).numpy()))",
    "T.gather(T.arange(3), 0, T.tensor([0, 1]), out=T.as_tensor(T.tensor([2, 3, 4]).numpy()))",
    "T.mm(O(2, 3), O(3, 2), out=T.from_numpy(O(3).numpy()))", "T.cat([O(2), O(3)], out=T.zeros(0))",
    "T.sum(O(4, 4), 0, out=T.from_numpy(O(2).numpy()))",
])

# --- vmap of reductions over every dim of a 0-dim example ---------------------------------------------
_cases("vmap_reductions", [f"T.vmap(lambda t: {e})(T.tensor([1.5, -2.0], dtype=T.float64))" for e in (
    "t.sum(dim=())", "t.amax(dim=())", "t.amin(())", "t.mean(dim=(), keepdim=True)", "t.sum(dim=None)",
    "t.sum()", "t.amax(dim=(), keepdim=True)", "T.var(t, dim=(), correction=0)", "t.std(dim=None, correction=0)",
)] + ["T.vmap(lambda t: t.sum(dim=()))(O(2, 3))", "T.vmap(lambda t: t.amax(dim=(), keepdim=True))(O(2, 3))"])


# --- a Python number (or a 0-d tensor) meeting half-precision data, compared bit for bit
# (_aten/scalars.py ``operand``): converted to the half type for add/sub/rsub (and alpha), pow, atan2,
# fmod, ...; kept in float32 by mul, div and the rounding divisions; the scalar parameters of leaky_relu
# and threshold read in float32; logit rounds each operation to the half type, xlogy/xlog1py their log.
_HX = "(T.arange(25, dtype=T.float32) * 0.37 - 4.1).to(T.{dt})"
_HALF_SCALAR_EXPRS = (
    "X + {s}", "{s} + X", "X - {s}", "{s} - X", "X * {s}", "{s} * X", "X / {s}", "X // {s}", "{s} // X",
    "T.fmod(X, {s})", "T.remainder(X, {s})", "X.abs() ** {s}", "abs({s}) ** X", "T.add(X, X, alpha={s})",
    "T.sub(X, X * 0.5, alpha={s})", "T.add(X, 0.7, alpha={s})", "T.rsub(X, X, alpha={s})", "X + T.tensor({s})",
    "X - T.tensor({s}, dtype=T.float64)", "X * T.tensor({s})", "X / T.tensor({s}, dtype=T.float64)",
    "T.atan2(X, T.tensor({s}))", "T.hypot(X, T.tensor({s}))", "T.logaddexp(X, T.tensor({s}))",
    "T.nn.functional.leaky_relu(X, {s})", "T.nn.functional.threshold(X, {s}, 7.0)", "T.logit(X.abs() / 10)",
    "T.logit(X.abs() / 10, {s} / 4)", "T.xlogy(X, abs({s}))", "X.clone().add_({s})", "X.clone().sub_(X, alpha={s})",
    "X.clone().mul_({s})", "T.div(X, {s}, rounding_mode='floor')", "T.div(X, {s}, rounding_mode='trunc')",
    "T.nn.functional.smooth_l1_loss(X, X.flip(0) * 0.3, reduction='none', beta={s})",
    "T.nn.functional.huber_loss(X, X.flip(0) * 0.3, reduction='none', delta={s})",
    "T.nn.functional.smooth_l1_loss(X, X.flip(0) * 0.3, beta={s})", "T.nn.functional.huber_loss(X, X.flip(0) * 0.3, delta={s})",
    "T.special.xlog1py(X, {s})", "T.special.xlog1py(X, X.abs())", "T.xlogy(X, X.abs())", "T.lerp(X, X * 0 + 1, {s})", "T.lerp(X, X * 2, -{s})", "T.lerp(X, X.flip(0), {s} / 4)",
)
_cases("half_scalars", [e.replace("X", _HX.format(dt=dt)).format(s=v) for dt in ("float16", "bfloat16")
                        for v in ("0.1", "2.7", "(1 / 3)") for e in _HALF_SCALAR_EXPRS])


# --- circular padding with negative pads: crop first, then wrap what is left (_aten/composite_nn.py) --
_cases("pad_circular", [f"T.nn.functional.pad(T.arange(16.).reshape(1, 1, 4, 4), {p}, mode='circular')" for p in (
    "(-1, 1, -2, 1)", "(1, -1, 0, 0)", "(-1, -1, 0, 0)", "(2, -1, -1, 2)", "(0, 0, -3, 3)", "(-2, 2, 0, 0)",
    "(1, 1, 1, 1)", "(4, 0, 0, 4)", "(5, 0, 0, 0)")]
    + [f"T.nn.functional.pad(T.arange(5.).reshape(1, 1, 5), {p}, mode='circular')" for p in (
        "(-1, 1)", "(1, -1)", "(-2, 3)", "(3, -2)", "(-4, 0)", "(-5, 0)", "(-6, 1)", "(-3, -3)", "(6, 0)", "(5, 0)",
        "(-3, 2)", "(2, -3)", "(-3, 3)")]
    + ["T.nn.functional.pad(T.arange(27.).reshape(1, 1, 3, 3, 3), (-1, 1, 1, -1, 0, 1), mode='circular')",
       "G(T.nn.functional.pad(xr[None, None], (-1, 2), mode='circular')[0, 0, :3], [xr])",
       "G(T.nn.functional.pad(xr[None, None], (2, -1), mode='circular')[0, 0, 1:4], [xr])"])


# --- the conjugate keeps the layout of torch's conjugate view (_aten/complex_views.py) ---------------
_CX = "(T.arange(24, dtype=T.float32).reshape(2, 3, 4) * (1 + 2j))"
_cases("conj_layout", [f"{e}{a}" for e in (
    f"{_CX}.conj()", f"{_CX}.transpose(0, 2).conj()", f"{_CX}[:, ::2].conj()", f"{_CX}.permute(2, 0, 1).conj()",
    f"{_CX}[:, :1].expand(2, 3, 4).conj()", f"{_CX}[1].conj()", f"{_CX}.mH", f"{_CX}[:, ::2].mH",
    f"{_CX}[:, :1].expand(2, 3, 4).mH", f"{_CX}[0].H", f"{_CX}[0, ::2].adjoint()", f"{_CX}[0, 0, 1].conj()")
    for a in (".stride()", "")] + [f"{_CX}[:, :1].expand(2, 3, 4).conj().add_(1)",
                                                f"({_CX}[:, ::2].conj() * 2).stride()"])
# --- statistics: unique, bincount, histograms, nanmedian, quantile, cov, integration, gradient, ------
# --- logcumsumexp, renorm, dist, segment_reduce (_aten/statistics.py) --------------------------------
_NANS = "T.tensor([3., float('nan'), 1., float('nan'), 3., 2.])"
_M = "T.tensor([[2., 1., 2.], [0., 1., 0.], [2., 1., 2.], [1., 1., 1.]])"
_cases("statistics", [e.replace("NANS", _NANS).replace("MM", _M) for e in (
    # unique family: sorted values, each nan its own value, inverse/counts, dims, dtypes refused
    "T.unique(NANS)", "T.unique(NANS, return_inverse=True, return_counts=True)",
    "T.unique(NANS, sorted=False, return_counts=True)", "T.unique(T.tensor(2.), return_inverse=True, return_counts=True)",
    "T.unique(MM, dim=0, return_inverse=True, return_counts=True)", "T.unique(MM, dim=1, return_inverse=True)",
    "T.unique(MM, dim=-1, return_counts=True)", "T.unique(T.zeros(0, 2), dim=1)", "T.unique(T.zeros(0, 2), dim=0)",
    "T.unique(T.tensor(1.), dim=0)", "T.unique(T.tensor([1j]))", "T.unique(b, return_counts=True)",
    "T.unique(u8)", "T.unique(h, return_inverse=True)", "T.unique(bf)", "T.unique(T.tensor([], dtype=T.int64), return_counts=True)",
    "T.unique(MM.to(T.bfloat16), dim=0)", "MM.unique(dim=0)", "f.unique(return_counts=True)",
    "T.unique_consecutive(NANS, return_inverse=True, return_counts=True)",
    "T.unique_consecutive(T.tensor([1, 1, 2, 2, 3, 1, 1, 2]), return_inverse=True, return_counts=True)",
    "T.unique_consecutive(T.tensor(2.), return_inverse=True, return_counts=True)",
    "T.unique_consecutive(T.tensor(2.), dim=0)", "T.unique_consecutive(T.tensor([1j]))",
    "T.unique_consecutive(b, return_counts=True)", "T.unique_consecutive(MM, dim=0, return_inverse=True, return_counts=True)",
    "T.unique_consecutive(MM, dim=1)", "T.ops.aten._unique(NANS, True, True)", "T.ops.aten._unique2(f)",
    "T.ops.aten.unique_dim(MM, 0)",
    "FR(lambda x: T.unique(x), f)", "FR(lambda x: T.unique_consecutive(x), f)", "FR(lambda x: T.unique(x, dim=0), MM)",
    "FRD(lambda x: [T.unique(x), T.unique(x, return_inverse=True, return_counts=True)], MM)",
    "FRD(lambda x: [T.unique(x, dim=1), T.unique(x, dim=0, return_counts=True), T.unique_consecutive(x, dim=0)], MM)",
    "FRD(lambda x: T.unique_consecutive(x, return_counts=True), f)", "FRD(lambda x: T.unique(x), T.ones(0))",
    "FRD(lambda x: [T.bincount(x), T.bincount(x, T.ones(4)), T.bincount(x, T.ones(4, dtype=T.float16))], i64.abs())",
    "FRD(lambda x: T.bincount(x, minlength=3), T.ones(0, dtype=T.int64))",
    # bincount: integral 1-d non-negative input, weights' dtypes, minlength
    "T.bincount(T.tensor([1, 5, 1]))", "T.bincount(T.tensor([1, 5, 1]), minlength=8)",
    "T.bincount(T.tensor([1, 5, 1], dtype=T.uint8), T.tensor([0.5, 2., 0.25]))",
    "T.bincount(T.tensor([1, 5, 1], dtype=T.int8), T.tensor([0.5, 2., 0.25], dtype=T.float64))",
    "T.bincount(T.tensor([1, 2]), T.tensor([1, 2]))", "T.bincount(T.tensor([1, 2]), T.tensor([1, 2]).half())",
    "T.bincount(T.tensor([1, 2]), T.tensor([1, 2], dtype=T.float16))", "T.bincount(T.tensor([], dtype=T.int64), minlength=2)",
    "T.bincount(T.tensor([], dtype=T.int64), T.tensor([]), minlength=2)", "T.bincount(T.tensor([[1, 2]]))",
    "T.bincount(T.tensor([-1, 2]))", "T.bincount(T.tensor([1., 2]))", "T.bincount(b)", "T.bincount(T.tensor(1))",
    "T.bincount(T.tensor([1]), minlength=-1)", "T.bincount(T.tensor([1, 2]), T.tensor([1.]))",
    "T.bincount(T.tensor([1, 2], dtype=T.int16))", "FR(lambda x: T.bincount(x), T.tensor([1, 2]))",
    # histc: the data's range when min == max, bins computed in the element type
    "T.histc(f, 4)", "T.histc(f, 3, min=-1, max=1)", "T.histc(f, 3, min=2, max=2)", "T.histc(T.tensor([1., 2.]), 3, min=3, max=1)",
    "T.histc(NANS, 3)", "T.histc(T.tensor([1., float('inf')]), 3)", "T.histc(T.tensor([]), 3)", "T.histc(MM, 3)",
    "T.histc(f, 0)", "T.histc(i64, 3)", "T.histc(h, 7)", "T.histc(bf, 7)", "T.histc(T.linspace(0, 1, 50, dtype=T.bfloat16), 7)",
    "T.histc(T.linspace(0, 1, 50, dtype=T.float16), 7)", "T.histc(T.linspace(-3, 5, 101), 9)", "T.histc(d, 5, min=-5, max=0)",
    "f.histc(2)", "FR(lambda x: T.histc(x, 5), f)", "FR(lambda x: T.histogram(x, 3), f)", "FR(lambda x: T.histogram(x, T.tensor([0., 1., 2.])), f)", "FR(lambda x: T.histogramdd(x, [2, 3, 1]), MM)",
    # histogram / histogramdd: bin edges, weights, density, the checks
    "T.histogram(f, 3)", "T.histogram(d, 3, weight=T.tensor([1., 2., 0.5, 1.], dtype=T.float64), density=True)",
    "T.histogram(f, 4, range=(-2., 2.))", "T.histogram(f, T.tensor([-5., 0., 0.5, 200.]))",
    "T.histogram(f, T.tensor([-5., 0., 0.5, 200.]), density=True)", "T.histogram(T.tensor(1.), 3)",
    "T.histogram(T.tensor([]), 3)", "T.histogram(i64, 3)", "T.histogram(h, 3)", "T.histogram(f, 0)",
    "T.histogram(f, 3, range=(2., 1.))", "T.histogram(NANS, 3)", "T.histogram(f, 3, weight=T.tensor([1., 2.]))",
    "T.histogram(f, 3, weight=d)", "T.histogram(f, T.tensor([0., 1., 2.], dtype=T.float64))",
    "T.histogram(f, T.tensor([[0., 1., 2.]]))", "T.histogram(f, T.tensor([]))",
    "T.histogramdd(MM, [2, 3, 2])", "T.histogramdd(MM, 2, weight=T.tensor([1., 2., 3., 4.]), density=True)",
    "T.histogramdd(MM, [2, 1, 2], range=[0., 2., 0., 2., -1., 3.])", "T.histogramdd(MM, [T.tensor([0., 1., 2.]), "
    "T.tensor([0., 2.]), T.tensor([-1., 1.5, 2.])])", "T.histogramdd(f, [3])", "T.histogramdd(MM, [0, 2, 2])",
    "T.histogramdd(MM, [2, 2])", "T.histogramdd(MM, [2, 2, 2], range=[0., 1.])", "T.histogramdd(MM.double(), [2, 2, 2], "
    "weight=T.ones(4))", "T.histogramdd(MM, [2, 2, 2], weight=T.ones(3))", "T.histogramdd(MM.to(T.int64), [2, 2, 2])",
    "T.ops.aten._histogramdd_bin_edges(MM, [2, 2, 3])", "T.ops.aten._histogramdd_from_bin_cts(MM, [2, 2, 3], density=True)",
    # nanmedian: the lower median of the non-nan values, torch's index
    "T.nanmedian(NANS)", "T.nanmedian(T.tensor([float('nan'), float('nan')]))", "T.nanmedian(T.tensor([]))",
    "T.nanmedian(T.tensor([[float('nan'), float('nan')], [1., float('nan')], [4., 2.]]), 1)",
    "T.nanmedian(MM, 0, keepdim=True)", "T.nanmedian(T.tensor(3.), 0)", "T.nanmedian(T.zeros(0, 3), 0)",
    "T.nanmedian(i64)", "T.nanmedian(i8, 0)", "T.nanmedian(b)", "T.nanmedian(T.tensor([1j]))", "T.nanmedian(h)",
    "T.nanmedian(bf, 0)", "T.nanmedian(MM, 5)", "NANS.nanmedian()",
    "G(T.nanmedian(T.stack([xr, xr * 2]), 0).values, [xr])", "G(T.nanmedian(xr) * T.ones(3, dtype=T.float64), [xr])",
    "T.nanmedian(xr).grad_fn.name()", "T.nanmedian(xr, 0).values.grad_fn.name()",
    # quantile / nanquantile
    "T.quantile(f, 0.3)", "T.quantile(MM, T.tensor([0.2, 0.5, 1.]), dim=1, keepdim=True)",
    "T.quantile(MM, 0.5, dim=0, interpolation='lower')", "T.quantile(MM, 0.4, interpolation='higher')",
    "T.quantile(MM, 0.4, dim=1, interpolation='nearest')", "T.quantile(MM, 0.3, dim=1, interpolation='midpoint')",
    "T.quantile(NANS, 0.5)", "T.nanquantile(NANS, 0.5)", "T.nanquantile(T.tensor([[float('nan')] * 3, [1., 2., 3.]]), "
    "T.tensor([0.25, 0.75]), dim=1)", "T.quantile(f, 0.5, keepdim=True)", "T.quantile(T.tensor(2.), 0.5, dim=0)",
    "T.quantile(i64, 0.5)", "T.quantile(f, 1.5)", "T.quantile(f, T.tensor([1.5]))", "T.quantile(f, T.tensor([0.5], "
    "dtype=T.float64))", "T.quantile(T.tensor([]), 0.5)", "T.quantile(f, 0.5, interpolation='foo')",
    "T.quantile(f, T.tensor([[0.5]]))", "T.quantile(h, 0.5)", "FR(lambda x: T.quantile(x, 0.3, dim=0), MM)", "FR(lambda x: T.nanquantile(x, T.tensor([0.2, 0.5]), dim=1, keepdim=True), MM)", "FR(lambda x: T.nanmedian(x, 1), MM)",
    "G(T.quantile(xr, T.tensor([0.1, 0.5, 0.9], dtype=T.float64)), [xr])",
    "G(T.nanquantile(xr, 0.3) * T.ones(3, dtype=T.float64), [xr])",
    # msort
    "T.msort(MM)", "T.msort(T.tensor(1.))", "T.msort(b)", "MM.msort()",
    # cov / corrcoef
    "T.cov(MM)", "T.cov(MM, correction=0)", "T.cov(MM.T, fweights=T.tensor([1, 2, 1, 3]))",
    "T.cov(MM.T, aweights=T.tensor([0.5, 1., 2., 1.]))", "T.cov(MM.T, correction=2, fweights=T.tensor([1, 2, 1, 3]), "
    "aweights=T.tensor([0.5, 1., 2., 1.]))", "T.cov(f)", "T.cov(i64)", "T.cov(T.tensor([[1 + 2j, 3 - 1j, 0.5j]]))",
    "T.cov(T.tensor([1.]))", "T.cov(b)", "T.cov(T.zeros(2, 2, 2))", "T.cov(MM.T, fweights=T.tensor([[1, 2, 1, 3]]))",
    "T.cov(MM.T, fweights=T.tensor([1., 2., 1., 3.]))", "T.cov(MM.T, aweights=T.tensor([1, 2, 1, 3]))",
    "T.cov(MM.T, fweights=T.tensor([1, 2]))", "T.cov(MM.T, fweights=T.tensor([1, -2, 1, 3]))",
    "T.cov(MM.T, aweights=T.tensor([1., -2., 1., 3.]))", "T.cov(MM.T, fweights=T.tensor([0, 0, 0, 0]))",
    "T.cov(h.reshape(2, 2))", "T.cov(bf.reshape(2, 2))",
    "T.corrcoef(MM)", "T.corrcoef(f)", "T.corrcoef(T.tensor([[1 + 2j, 3 - 1j, 0.5j], [1., 2j, -1.]]))",
    "T.corrcoef(T.zeros(2, 2, 2))", "T.corrcoef(i64.reshape(2, 2))", "FR(lambda x: T.corrcoef(x), MM)", "FR(lambda x: T.cov(x), MM)", "FR(lambda x: T.gradient(x), MM)", "FR(lambda x: T.gradient(x, spacing=(T.tensor([0., 1., 3., 4.]),), dim=0), MM)", "FR(lambda x: T.trapezoid(x), MM)", "FR(lambda x: T.cumulative_trapezoid(x, dim=0), MM)", "FR(lambda x: T.msort(x), MM)", "FR(lambda x: T.logcumsumexp(x, 0), MM)", "FR(lambda x: T.renorm(x, 2, 0, 1), MM)", "FR(lambda x, y: T.dist(x, y), MM, f[:3])",
    "G(T.cov(T.stack([xr, b64])).sum() * T.ones(3, dtype=T.float64), [xr, b64])",
    "G(T.corrcoef(T.stack([xr, b64, xr * b64]))[0], [xr, b64])",
    # trapezoid / trapz / cumulative_trapezoid
    "T.trapezoid(MM)", "T.trapezoid(MM, dim=0)", "T.trapezoid(MM, dx=0.5)", "T.trapezoid(MM, T.tensor([0., 1., 3.]))",
    "T.trapezoid(MM, MM)", "T.trapezoid(MM, T.tensor([[0., 1., 3.]]))", "T.trapezoid(i64)", "T.trapezoid(i64, dx=2)",
    "T.trapezoid(T.zeros(2, 0))", "T.trapezoid(b)", "T.trapezoid(f, dx=1j)", "T.trapezoid(f, T.tensor([1., 2., 3.]))",
    "T.trapezoid(h)", "T.trapezoid(bf, dx=0.3)", "T.trapz(MM, dx=0.5)", "T.trapz(MM, T.tensor([0., 1., 3.]))",
    "T.cumulative_trapezoid(MM)", "T.cumulative_trapezoid(MM, dx=0.5, dim=0)", "T.cumulative_trapezoid(MM, T.tensor([0., 1., 3.]))",
    "T.cumulative_trapezoid(i64)", "T.cumulative_trapezoid(f, T.tensor([1., 2., 3.]))", "T.cumulative_trapezoid(b)",
    "G(T.trapezoid(T.stack([xr, b64]), dim=0), [xr, b64])", "G(T.cumulative_trapezoid(xr, b64) * T.ones(3, dtype=T.float64)[:2], [xr, b64])",
    # gradient
    "T.gradient(MM)", "T.gradient(MM, spacing=2.)", "T.gradient(MM, spacing=[2., 0.5])", "T.gradient(MM, dim=1)",
    "T.gradient(MM, dim=[1, 0], edge_order=2)", "T.gradient(MM, spacing=(T.tensor([0., 1., 3., 4.]), T.tensor([0., 2., 3.])))",
    "T.gradient(MM, spacing=(T.tensor([0., 1., 3., 4.]),), dim=0, edge_order=2)", "T.gradient(i64)",
    "T.gradient(u8)", "T.gradient(MM, spacing=[1.])", "T.gradient(MM, spacing=[1., 2.], dim=1)",
    "T.gradient(MM, edge_order=3)", "T.gradient(MM, dim=[1, 1])", "T.gradient(MM, dim=2)",
    "T.gradient(T.ones(2, 2), edge_order=2)", "T.gradient(MM, spacing=(T.ones(3, 3),), dim=0)", "T.gradient(h)",
    "T.gradient(T.tensor([1 + 1j, 2j, 3.]))",
    "G(T.gradient(xr)[0], [xr])", "G(T.gradient(xr, spacing=(b64,))[0], [xr, b64])",
    # logcumsumexp
    "T.logcumsumexp(MM, 1)", "T.logcumsumexp(f, 0)", "T.logcumsumexp(T.tensor([-float('inf'), float('inf'), 1., float('nan')]), 0)",
    "T.logcumsumexp(T.tensor([-float('inf'), -float('inf'), 1.]), 0)", "T.logcumsumexp(T.tensor([float('inf'), float('inf')]), 0)",
    "T.logcumsumexp(T.tensor([1 + 2j, -1j, 3 + 0.5j]), 0)", "T.logcumsumexp(T.tensor([complex(float('-inf'), 0), 1j, "
    "complex(float('inf'), 1.)]), 0)", "T.logcumsumexp(h, 0)", "T.logcumsumexp(bf, 0)",
    "T.logcumsumexp(T.tensor([100., 100.5, -100.]), 0)", "T.logcumsumexp(T.tensor(1.), 0)", "T.logcumsumexp(T.zeros(0, 2), 0)",
    "T.logcumsumexp(i64, 0)", "T.logcumsumexp(b, 0)", "T.logcumsumexp(MM, 2)", "MM.logcumsumexp(0)",
    "G(T.logcumsumexp(xr, 0), [xr])", "G(T.logcumsumexp(xc, 0), [xc])", "T.logcumsumexp(xr, 0).grad_fn.name()",
    # renorm
    "T.renorm(MM, 2, 0, 1.5)", "T.renorm(MM, 1, 1, 2)", "T.renorm(MM, float('inf'), 0, 1)", "T.renorm(MM.half(), 2, 0, 1.5)",
    "T.renorm(MM.bfloat16(), 3, 1, 1)", "T.renorm(MM * (1 + 1j), 2, 0, 1.5)", "T.renorm(MM, 0, 0, 1)",
    "T.renorm(MM, 2, 0, -1)", "T.renorm(MM.long(), 2, 0, 1)", "T.renorm(f, 2, 0, 1)", "T.renorm(MM, 2, 2, 1)",
    "MM.clone().renorm_(2, 0, 1.5)", "MM.renorm(2, 1, 1)",
    "G(T.renorm(T.stack([xr, xr * 3]), 2, 0, 2.5), [xr])", "G(T.renorm(T.stack([xr, b64]), 1.5, 1, 0.5), [xr, b64])",
    "T.renorm(T.stack([xr, xr]), 2, 0, 1).grad_fn.name()",
    # dist
    "T.dist(f, d)", "T.dist(MM, MM.flip(0), 1)", "T.dist(MM, MM.flip(0), 0)", "T.dist(MM, MM.flip(0), float('inf'))",
    "T.dist(MM, MM.flip(0), 0.5)", "T.dist(bf, bf * 2, 3)", "T.dist(h, h * 2)", "T.dist(T.tensor([1., 2j]), f[:2])",
    "T.dist(i64, i64)", "T.dist(T.ones(2, 3), T.ones(4, 3))", "T.dist(MM, T.zeros(3))", "MM.dist(MM * 2)",
    "G(T.dist(xr, b64) * T.ones(3, dtype=T.float64), [xr, b64])", "G(T.dist(xr, b64, 3) * T.ones(3, dtype=T.float64), "
    "[xr, b64])", "G(T.dist(xr, xr.detach()) * T.ones(3, dtype=T.float64), [xr])", "T.dist(xr, b64).grad_fn.name()",
    "G(T.dist(xc, yc) * T.ones(3, dtype=T.float64), [xc, yc])",
    # segment_reduce
    "T._segment_reduce(T.arange(6.), 'sum', lengths=T.tensor([1, 0, 3, 2]))",
    "T._segment_reduce(T.arange(6.), 'mean', lengths=T.tensor([1, 0, 3, 2]))",
    "T._segment_reduce(T.arange(6.), 'mean', lengths=T.tensor([1, 0, 3, 2]), initial=2.)",
    "T._segment_reduce(T.arange(6.) - 2, 'prod', lengths=T.tensor([2, 4]))",
    "T._segment_reduce(T.tensor([1., float('nan'), 2., 3.]), 'max', lengths=T.tensor([2, 2]))",
    "T._segment_reduce(T.tensor([1., float('nan'), 2., 3.]), 'amin', lengths=T.tensor([2, 0, 2]))",
    "T._segment_reduce(MM, 'sum', lengths=T.tensor([1, 3]))",
    "T._segment_reduce(MM, 'max', lengths=T.tensor([[1, 2], [3, 0], [0, 3], [2, 1]]), axis=1)",
    "T._segment_reduce(MM, 'sum', offsets=T.tensor([0, 1, 4]))",
    "T._segment_reduce(T.arange(6.).half(), 'sum', lengths=T.tensor([4, 2]))",
    "T._segment_reduce(T.arange(6.).bfloat16(), 'mean', lengths=T.tensor([4, 2]))",
    "T._segment_reduce(T.ones(3), 'foo', lengths=T.tensor([3]))", "T._segment_reduce(T.ones(3), 'sum', lengths=T.tensor([2]))",
    "T._segment_reduce(T.ones(3), 'sum')", "T._segment_reduce(T.ones(3, dtype=T.long), 'sum', lengths=T.tensor([3]))",
    "T._segment_reduce(T.ones(3), 'sum', lengths=T.tensor([2]), unsafe=True)",
    "T._segment_reduce(MM, 'sum', lengths=T.tensor([4]), indices=T.tensor([0]))",
    "T._segment_reduce(MM, 'sum', lengths=T.tensor([5, -1]))", "T._segment_reduce(MM, 'sum', lengths=T.tensor([4]), axis=1)",
    "T._segment_reduce(MM, 'sum', offsets=T.tensor([0, 4]), axis=1)", "T._segment_reduce(MM, 'sum', offsets=T.tensor([0, 2]))",
    "T._segment_reduce(MM, 'sum', lengths=T.tensor([4.]))", "T._segment_reduce(MM, 'sum', lengths=T.tensor([4], dtype=T.int32))",
    "T._segment_reduce(MM, 'sum', lengths=T.tensor([4]), offsets=T.tensor([0, 1, 4]))",
    "T._segment_reduce(MM, 'sum', lengths=T.tensor([[4]]), axis=1)", "T._segment_reduce(MM, 'sum', lengths=T.tensor([4]), axis=-2)",
    "T._segment_reduce(MM, 'sum', lengths=T.tensor([4]), axis=2)", "T._segment_reduce(MM, 'max', lengths=T.tensor([4, 0]), initial=-1)",
    "T._segment_reduce(T.tensor(1.), 'sum', lengths=T.tensor([1]))",
    "T._segment_reduce(MM, 'sum', offsets=T.tensor([1, 3]))", "T._segment_reduce(MM, 'mean', offsets=T.tensor([[0, 1], [1, 3], [0, 0], [2, 3]]), axis=1)",
    "FR(lambda x: T._segment_reduce(x, 'sum', lengths=T.tensor([1, 3])), MM)",
    "G(T._segment_reduce(T.cat([xr, b64]), 'prod', lengths=T.tensor([1, 2, 3])), [xr, b64])",
    "G(T._segment_reduce(T.cat([xr, xr]), 'max', lengths=T.tensor([3, 2, 1])), [xr])",
    "G(T._segment_reduce(T.cat([xr, b64]), 'mean', lengths=T.tensor([2, 4, 0])), [xr, b64])",
    "T._segment_reduce(xr, 'sum', lengths=T.tensor([3])).grad_fn.name()",
    # out= forms
    "(lambda o: (T.histc(f, 3, out=o), o)[1])(T.empty(3))", "(lambda o: (T.logcumsumexp(MM, 0, out=o), o)[1])(T.empty(4, 3))",
    "(lambda o: (T.renorm(MM, 2, 0, 1, out=o), o)[1])(T.empty(4, 3))", "(lambda o: (T.msort(MM, out=o), o)[1])(T.empty(4, 3))",
    "(lambda o: (T.quantile(MM, 0.3, dim=0, out=o), o)[1])(T.empty(3))",
    "(lambda o: (T.nanquantile(MM, T.tensor([0.3]), out=o), o)[1])(T.empty(1))",
    "T.histc(f, 3, out=T.empty(3, dtype=T.float64))", "T.quantile(f, 0.3, out=T.empty((), dtype=T.float64))",
    # values on bin edges: the edges are torch's linspace (one fused multiply-add each)
    "T.histogram(T.tensor([-3., -2., -1., 0., 1., 2., 3.] * 3), 36)",
    "T.histogram(T.tensor([-3., -2., -1., 0., 1., 2., 3.] * 3, dtype=T.float64), 36)",
    "T.histogramdd(T.tensor([[-1., 0.], [0., 1.], [1., 2.], [-1., 2.]]), [12, 36])",
    "T.linspace(-3, 3, 37)[12] == -1", "T.linspace(-2.5, 7.1, 101, dtype=T.float64)[30:40]",
    # histc counts in the element type, one range of elements per thread (2 threads here)
    *[f"(lambda n: (T.set_num_threads(2), T.histc(T.zeros({k}, dtype=T.{dt}), 3), T.set_num_threads(n))[1])"
      "(T.get_num_threads())" for k in (258, 513, 1000, 5000) for dt in ("bfloat16", "float16")],
    "(lambda n: (T.set_num_threads(1), T.histc(T.zeros(1000, dtype=T.bfloat16), 3), T.set_num_threads(n))[1])"
    "(T.get_num_threads())",
)])

# Edge shapes and values of the statistics operators.
_cases("statistics_edges", [
    "T.cov(T.zeros(2, 0))", "T.cov(T.zeros(0, 3))", "T.cov(T.zeros(0))", "T.corrcoef(T.ones(1, 1))", "T.corrcoef(T.ones(2, 3))",
    "T.cov(T.ones(3, 1))", "T.cov(T.tensor(2.))", "T.corrcoef(T.tensor([1., 2.]))",
    "T.quantile(T.ones(3, 1), 0.5, dim=1)", "T.quantile(T.ones(0, 2), 0.5, dim=1)", "T.quantile(T.tensor(2.), T.tensor([0.5]))",
    "T.nanquantile(T.full((2, 3), float('nan')), 0.5, dim=1, keepdim=True)", "T.quantile(T.tensor([1., float('inf')]), 0.5)",
    "T.trapezoid(T.tensor(2.))", "T.trapezoid(T.ones(1))", "T.trapezoid(T.ones(3), dx=0)", "T.cumulative_trapezoid(T.ones(1))",
    "T.cumulative_trapezoid(T.ones(2, 0))", "T.trapezoid(T.ones(3, 4), T.ones(5, 4), dim=0)",
    "T.gradient(T.tensor(2.))", "T.gradient(T.ones(2), edge_order=1)", "T.gradient(T.ones(3, 0))",
    "T.gradient(T.arange(5.), spacing=0.)", "T.gradient(T.arange(5.), spacing=(T.tensor([0., 1., 1., 2., 3.]),))",
    "T.logcumsumexp(T.zeros(2, 0), 1)", "T.logcumsumexp(T.full((3,), -float('inf')), 0)",
    "T.renorm(T.zeros(2, 3), 2, 0, 1)", "T.renorm(T.ones(0, 3), 2, 0, 1)", "T.renorm(T.ones(2, 3), 2, -1, 0)",
    "T.dist(T.ones(0), T.ones(0))", "T.dist(T.ones(0), T.ones(0), float('inf'))", "T.dist(T.ones(0), T.ones(0), -1)",
    "T.dist(T.ones(3), T.ones(3) * 2, -1)", "T.dist(T.ones(3), T.ones(3) * 2, -float('inf'))",
    "T.histc(T.ones(4), 3)", "T.histc(T.ones(4), 3, min=1, max=1)", "T.histc(T.tensor([1e30, -1e30]), 2)",
    "T.histc(T.tensor([0., 1.]), 2, min=0.5, max=0.5)", "T.histc(T.tensor([0., 1.]), 2, min=float('nan'), max=1)",
    "T.histogram(T.ones(4), 3)", "T.histogram(T.ones(4), 3, range=(1., 1.))", "T.histogram(T.ones(4), 3, range=(0., float('inf')))",
    "T.histogram(T.ones(4), T.tensor([2., 1., 0.]))", "T.histogram(T.ones(4), T.tensor([1.]))",
    "T.histogramdd(T.ones(0, 2), [2, 2])", "T.histogramdd(T.ones(3, 0), [])", "T.histogramdd(T.ones(3, 2), [2, 2], density=True, weight=T.zeros(3))",
    "T.msort(T.ones(0, 3))", "T.msort(T.tensor([3., float('nan'), 1.]))", "T.nanmedian(T.ones(3, 1), 1, keepdim=True)",
    "T.nanmedian(T.tensor([[1., 2.]]), -1)", "T.nanmedian(T.ones(2, 3), 2)",
    "T.unique(T.ones(0, 3), dim=1)", "T.unique(T.ones(2, 0, 3), dim=1)", "T.unique_consecutive(T.ones(0))",
    "T.unique(T.tensor([-0., 0.]), return_counts=True)", "T.unique(T.tensor([float('inf'), -float('inf'), float('inf')]))",
    "T.bincount(T.tensor([0, 0]), minlength=0)", "T.bincount(T.tensor([3]), T.tensor([2.], dtype=T.float64), 5)",
    "T._segment_reduce(T.ones(0, 2), 'sum', lengths=T.tensor([0, 0]))", "T._segment_reduce(T.ones(3), 'prod', lengths=T.tensor([]).long())",
    "T._segment_reduce(T.tensor([float('nan'), 1.]), 'min', lengths=T.tensor([2]))",
    "T._segment_reduce(T.tensor([2., 0., 3.]), 'prod', lengths=T.tensor([3]), initial=2)",
])

# Which element types each statistics operator takes (torch's CPU kernels), one call per type.
_STAT_TYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64", "float16", "bfloat16",
               "float32", "float64", "complex64", "complex128")
_STAT_CALLS = (
    "T.unique(X)", "T.unique(X.reshape(2, 2), dim=0)", "T.unique_consecutive(X)", "T.bincount(X)",
    "T.bincount(T.tensor([0, 1, 1, 2]), X)", "T.histc(X, 3)", "T.histogram(X, 3)", "T.histogramdd(X.reshape(2, 2), 2)",
    "T.nanmedian(X)", "T.nanmedian(X, 0)", "T.quantile(X, 0.5)", "T.msort(X)", "T.cov(X.reshape(2, 2))",
    "T.corrcoef(X.reshape(2, 2))", "T.trapezoid(X)", "T.cumulative_trapezoid(X)", "T.gradient(X)",
    "T.logcumsumexp(X, 0)", "T.renorm(X.reshape(2, 2), 2, 0, 1)", "T.dist(X, X.flip(0))",
    "T._segment_reduce(X, 'sum', lengths=T.tensor([1, 3]))",
)
_cases("statistics_dtypes", [c.replace("X", f"T.tensor([1, 0, 1, 1]).to(T.{dt})")
                             for c in _STAT_CALLS for dt in _STAT_TYPES])


# A 0-d tensor meets the ops that take a dim: torch wraps its dim as if it had one (``[-1, 0]``), then
# each op decides: most treat it as one element, some refuse it ("Dimension specified as 0 but tensor has
# no dimensions", "split expects at least a 1-dimensional tensor"), and the index ops compare their
# operands' shapes by torch's own rule for a 0-d self, index or source.
_Z0 = "T.tensor(3.5)"
_ZERO_DIM_CALLS = (
    "Z.flip(0)", "Z.flip(-1)", "Z.flip((0, -1))", "Z.roll(1, 0)", "Z.roll(1, -1)", "Z.roll(2, 1)", "Z.roll(1)",
    "Z.roll((1, 1), (0, 0))", "Z.movedim(0, -1)", "Z.movedim(1, 0)", "Z.movedim([0], [0])", "Z.select(0, 0)",
    "Z.select(-1, 0)", "Z.select(1, 5)", "Z.unbind(0)", "Z.unbind(-1)", "Z.unbind(1)", "Z.chunk(2, 0)",
    "Z.chunk(0, 0)", "Z.chunk(2, -1)", "Z.split(1, 0)", "Z.split(1, -1)", "Z.split([1], 0)", "Z.split(0, 0)",
    "Z.tensor_split(2)", "Z.unflatten(0, (1,))", "Z.unflatten(-1, (1, 1))", "Z.unflatten(1, (1,))",
    "T.cat([Z, Z])", "T.cat([T.ones(2), Z])", "T.cat([Z, T.ones(2)])", "T.cat([T.zeros(0), Z])",
    "T.stack([Z, Z])", "T.stack([Z, Z], -1)", "Z.narrow(0, 0, 1)", "Z.cumsum(0)", "Z.cumprod(-1)",
    "Z.cummax(0)", "Z.logcumsumexp(0)", "Z.sum(0)", "Z.amax(0)", "Z.argmax(0)", "Z.max(0)", "Z.sort(0)",
    "Z.topk(1, 0)", "Z.kthvalue(1, 0)", "Z.median(0)", "Z.mode(0)", "Z.softmax(0)", "Z.logsumexp(0)",
    "Z.var(0)", "Z.norm(dim=0)", "Z.all(0)", "Z.count_nonzero(0)", "Z.unsqueeze(0)", "Z.squeeze(0)",
    "Z.transpose(0, 0)", "Z.transpose(0, -1)", "Z.diff(dim=0)", "Z.flatten(0)", "Z.expand(3)",
    "Z.gather(0, T.tensor(0))", "Z.gather(0, T.tensor([0]))", "Z.index_select(0, T.tensor(0))",
    "Z.index_select(0, T.tensor([0, 0]))", "T.take_along_dim(Z, T.tensor(0), 0)",
    "T.take_along_dim(Z, T.tensor(0), -1)", "T.take_along_dim(Z, T.tensor(0))", "T.take_along_dim(Z, T.tensor([0]))",
    "T.take_along_dim(T.arange(6.).reshape(2, 3), T.tensor([[0, 2]]))",
    "Z.scatter(0, T.tensor(0), 1.0)", "Z.scatter_add(0, T.tensor(0), Z)", "Z.index_fill(0, T.tensor(0), 1.0)",
    "Z.index_fill(0, T.tensor([0]), 2.0)", "Z.repeat_interleave(2, 0)", "Z.repeat_interleave(2, -1)",
    "Z.repeat_interleave(2)", "Z.repeat_interleave(T.tensor([2]), 0)", "Z.repeat_interleave(T.tensor(2))",
    "T.cumulative_trapezoid(Z)", "T.trapezoid(Z)", "Z.renorm(2, 0, 1.0)", "Z.repeat_interleave(2, 1)",
    "Z.repeat_interleave(2, -2)", "Z.repeat_interleave(T.tensor([2]), -1)", "Z.repeat_interleave(T.tensor([2]))",
    "Z.repeat_interleave(2, 0, output_size=2)", "T.cumulative_trapezoid(Z, dim=0)",
    "T.cumulative_trapezoid(Z, T.tensor(1.))", "T.trapezoid(Z, dim=0)",
)
_cases("zero_dim", [c.replace("Z", _Z0) for c in _ZERO_DIM_CALLS])
# index_add / index_copy over 0-d and 1-d operands: self (), (3,); index (), (1,), (2,); source (), (1,), (2,).
_SELF = {"()": "T.tensor(0.5)", "(3,)": "T.arange(3.)"}
_INDEX = {"()": "T.tensor(0)", "(1,)": "T.tensor([0])", "(2,)": "T.tensor([0, {second}])"}
_SOURCE = {"()": "T.tensor(10.)", "(1,)": "T.tensor([10.])", "(2,)": "T.tensor([10., 20.])"}
_cases("zero_dim", [f"{s}.{op}({d}, {i.format(second=0 if op == 'index_add' else 1)}, {src})"
                    for op in ("index_add", "index_copy") for s in _SELF.values() for i in _INDEX.values()
                    for src in _SOURCE.values() for d in (0, -1)])
# The checks of index_add and index_copy beyond the operands' dims, in torch's order and words.
_cases("zero_dim", [
    f"{base}.{op}({args})" for op in ("index_add", "index_copy") for base, args in (
        ("T.arange(3.)", "0, T.tensor([[0]]), T.tensor([1.])"), ("T.arange(3.)", "0, T.tensor([0.]), T.tensor([1.])"),
        ("T.arange(3.)", "0, T.tensor([0]), T.tensor([1.], dtype=T.float64)"),
        ("T.arange(3.)", "0, T.tensor([0], dtype=T.int32), T.tensor([1.])"),
        ("T.arange(3.)", "0, T.tensor([0], dtype=T.int16), T.tensor([1.])"),
        ("T.zeros(2, 3)", "1, T.tensor([0]), T.ones(2)"), ("T.zeros(2, 3)", "1, T.tensor([0]), T.ones(3, 1)"),
        ("T.zeros(2, 3)", "1, T.tensor([0, 1]), T.ones(2, 1)"), ("T.zeros(2, 3, 4)", "1, T.tensor([0]), T.ones(3, 1, 5)"),
        ("T.zeros(2, 3)", "0, T.tensor([0]), T.ones(1, 4)"), ("T.zeros(3)", "0, T.tensor([0]), T.ones(1, 1)"),
        ("T.arange(3.)", "0, T.tensor([5]), T.tensor([1.])"), ("T.arange(3.)", "-1, T.tensor([-1, 0]), T.tensor([1., 2.])"),
        ("T.zeros(2, 3)", "1, T.tensor([2, 0]), T.ones(2, 2)"), ("T.zeros(2, 3)", "-1, T.tensor(1), T.ones(2, 1)"),
        ("T.zeros(2, 3)", "1, T.tensor([-1]), T.ones(2, 1)"), ("T.zeros(2, 3)", "1, T.tensor([3]), T.ones(2, 1)"),
        ("T.arange(3.)", "0, T.tensor([3]), T.ones(1)"),
    )])
# take_along_dim: indices from the end along a dim, none without one (a gather of the flattened data).
_cases("zero_dim", ["T.take_along_dim(T.arange(3.), T.tensor([-1]))", "T.take_along_dim(T.arange(3.), T.tensor(-1))",
                    "T.take_along_dim(T.arange(3.), T.tensor([-1]), 0)",
                    "T.take_along_dim(T.arange(6.).reshape(2, 3), T.tensor([[-1, 0]]), 1)",
                    "T.take_along_dim(T.arange(6.).reshape(2, 3), T.tensor([[-1, 0]]))",
                    "T.take_along_dim(T.arange(6.).reshape(2, 3), T.tensor([[7, 0]]))",
                    "T.take_along_dim(T.arange(6.).reshape(2, 3), T.tensor([[5, 0]]))"])


def _shapes(r):
    if hasattr(r, "shape"):
        return [str(r.dtype).split(".")[-1], [str(n) for n in r.shape]]
    return [_shapes(v) for v in r]


def _fake_run(T, fn, *xs, dynamic=False):
    """The dtypes and shapes of ``fn``'s results on fake copies of ``xs``, inside one FakeTensorMode (the
    tensors ``fn`` makes are fake too); ``dynamic``: with a ShapeEnv allowing data-dependent shapes."""
    import importlib

    env = None
    if dynamic:
        shapes = importlib.import_module(T.__name__ + ".fx.experimental.symbolic_shapes")
        env = shapes.ShapeEnv(allow_dynamic_output_shape_ops=True)
    with T._subclasses.fake_tensor.FakeTensorMode(shape_env=env) as mode:
        return _shapes(fn(*[mode.from_tensor(x) for x in xs]))


def tensors(T):
    """``{"T": T, name: tensor}`` for the tensors (and helpers) of ``TENSORS``; ``FR(fn, *tensors)``
    runs ``fn`` under a FakeTensorMode, ``FRD(fn, *tensors)`` under one with a ShapeEnv."""
    env = {"T": T, "FR": lambda fn, *xs: _fake_run(T, fn, *xs),
           "FRD": lambda fn, *xs: _fake_run(T, fn, *xs, dynamic=True)}
    for name, expr in TENSORS.items():
        env[name] = eval(expr, env)  # noqa: S307 -- the expressions of this module
    return env


def picture(x):
    """A JSON-able picture of a result: tensors by dtype, shape, values (as strings) and requires_grad;
    containers by element; Python values by type and repr."""
    if hasattr(x, "dtype") and hasattr(x, "requires_grad") and hasattr(x, "shape"):
        t = x.detach()
        values = [str(v) for v in t.reshape(-1).tolist()]
        return {"dtype": str(x.dtype).split(".")[-1], "shape": list(x.shape), "values": values,
                "requires_grad": bool(x.requires_grad)}
    if isinstance(x, (list, tuple)):
        return {"items": [picture(v) for v in x]}
    return {"py": [type(x).__name__, repr(x)]}


# A Python number on either side of a binary operator, in every spelling (operator, reflected operator,
# function, method, in-place method, alias): the result and the autograd node it records, and what its
# backward does (NotImplemented nodes raise torch's "derivative ... is not implemented").
_SPELLINGS = (
    "xr * 2", "2 * xr", "xr + 1", "1 + xr", "xr - 1", "1 - xr", "xr / 2", "2 / xr", "xr % 2", "2 % xr",
    "xr // 2", "2 // xr", "xr ** 2", "2 ** xr", "xr.mul(2)", "T.mul(xr, 2)", "xr.add(1, alpha=2)", "xr.sub(1)",
    "xr.div(2, rounding_mode='floor')", "xr.div(2, rounding_mode='trunc')", "xr.true_divide(2)", "xr.divide(2)",
    "xr.divide(2, rounding_mode='floor')", "xr.multiply(2)", "xr.subtract(1, alpha=2)", "T.true_divide(xr, 2)",
    "xr.remainder(2)", "T.remainder(2, xr)", "T.remainder(xr, 2)", "xr.fmod(2)", "xr.pow(2)", "T.pow(2, xr)",
    "T.rsub(xr, 1)", "xr.xlogy(2)", "T.xlogy(2, xr)", "xr.copysign(2)", "T.floor_divide(xr, 2)",
    "xr.clone().mul_(2)", "xr.clone().add_(1)", "xr.clone().sub_(1)", "xr.clone().div_(2)",
    "xr.clone().div_(2, rounding_mode='floor')", "xr.clone().div_(2, rounding_mode='trunc')",
    "xr.clone().true_divide_(2)", "xr.clone().divide_(2)", "xr.clone().multiply_(2)", "xr.clone().subtract_(1)",
    "xr.clone().remainder_(2)", "xr.clone().fmod_(2)", "xr.clone().pow_(2)", "xr.clone().floor_divide_(2)",
    "xr.clone().floor_divide_(T.tensor(2.0, dtype=T.float64))", "xr.negative()", "xr.absolute()",
    "xr.clone().negative_()", "xr.clone().absolute_()",
)
_cases("scalar_operand_forms", [e for f in _SPELLINGS for e in (
    f"{f}", f"type(({f}).grad_fn).__name__", f"({f}).grad_fn.name()", f"T.autograd.grad(({f}).sum(), xr)")])
_cases("scalar_operand_forms", [f"{x} {op} {v}" for x in ("i32", "u8", "h", "bf", "b") for op in ("%", "//")
                                for v in ("7", "-7", "2.5")] + [
    f"{v} % {x}" for x in ("i32", "u8", "h", "bf", "b", "d") for v in ("7", "-7", "2.5", "True")] + [
    f"{x}.clone().remainder_({v})" for x in ("i32", "u8", "h", "d", "b") for v in ("7", "2.5")] + [
    f"{x}.clone().div_({v}, rounding_mode='{m}')" for x in ("i32", "h", "d") for v in ("2", "0.5") for m in ("floor", "trunc")] + [
    f"{x}.clone().floor_divide_({v})" for x in ("i32", "u8", "h", "d") for v in ("3", "-2.5")] + [
    "3 % T.tensor([0, 2])", "T.tensor([1.0, 2.0]).remainder_(T.tensor(0.0))", "T.tensor([4, 5]).floor_divide_(0)"])


def outcome(expr, env):
    """``{"result": picture}`` of evaluating ``expr`` in ``env``, or ``{"error": [type, first line]}``."""
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = eval(expr, env)  # noqa: S307 -- the expressions of this module
    except Exception as e:  # noqa: BLE001 -- recorded, whatever it is
        return {"error": [type(e).__name__, str(e).strip().split("\n")[0]]}
    return {"result": picture(r)}
