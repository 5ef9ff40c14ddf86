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


def tensors(T):
    """``{"T": T, name: tensor}`` for the tensors of ``TENSORS``."""
    return {"T": T, **{name: eval(expr, {"T": T}) for name, expr in TENSORS.items()}}  # noqa: S307


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
