"""torch's alias operators: ``arccos`` for ``acos``, ``clip`` for ``clamp``, ``fix`` for ``trunc``,
``greater``/``greater_equal``/``less``/``less_equal``/``not_equal`` for the comparisons,
``moveaxis`` for ``movedim``, ``swapaxes``/``swapdims`` for ``transpose``, ``row_stack`` for
``vstack``, ``ger`` for ``outer``, and their in-place forms. Each is an operator of its own with
torch's schema and a composite of the operator it names, as in torch (CompositeImplicitAutograd):
dispatch modes, ``make_fx`` and autograd see the named operator."""

from ._declare import OpTable

__all__ = ["OPS"]

OPS = OpTable()

# (alias, the operator it calls), as ``name.overload``.
_ALIASES = [(f"{a}{s}", f"{t}{s}") for a, t in (
    ("arccos", "acos"), ("arccosh", "acosh"), ("arcsin", "asin"), ("arcsinh", "asinh"),
    ("arctan", "atan"), ("arctanh", "atanh"), ("arctan2", "atan2"), ("fix", "trunc")) for s in ("", "_")]
_ALIASES += [(f"{a}{s}.{o}", f"{t}{s}.{o}") for a, t in (
    ("greater", "gt"), ("greater_equal", "ge"), ("less", "lt"), ("less_equal", "le"), ("not_equal", "ne"))
    for s in ("", "_") for o in ("Tensor", "Scalar")]
_ALIASES += [("clip", "clamp"), ("clip_", "clamp_"), ("clip.Tensor", "clamp.Tensor"),
             ("clip_.Tensor", "clamp_.Tensor"), ("moveaxis.int", "movedim.int"),
             ("moveaxis.intlist", "movedim.intlist"), ("swapaxes", "transpose.int"), ("swapaxes_", "Tensor.transpose_"),
             ("swapdims", "transpose.int"), ("swapdims_", "Tensor.transpose_"), ("row_stack", "vstack"), ("ger", "outer")]

# torch's schemas of the aliases (native_functions.yaml).
_SCHEMAS = {
    "arccos": "arccos(Tensor self) -> Tensor", "arccos_": "arccos_(Tensor(a!) self) -> Tensor(a!)",
    "arccosh": "arccosh(Tensor self) -> Tensor", "arccosh_": "arccosh_(Tensor(a!) self) -> Tensor(a!)",
    "arcsin": "arcsin(Tensor self) -> Tensor", "arcsin_": "arcsin_(Tensor(a!) self) -> Tensor(a!)",
    "arcsinh": "arcsinh(Tensor self) -> Tensor", "arcsinh_": "arcsinh_(Tensor(a!) self) -> Tensor(a!)",
    "arctan": "arctan(Tensor self) -> Tensor", "arctan_": "arctan_(Tensor(a!) self) -> Tensor(a!)",
    "arctanh": "arctanh(Tensor self) -> Tensor", "arctanh_": "arctanh_(Tensor(a!) self) -> Tensor(a!)",
    "arctan2": "arctan2(Tensor self, Tensor other) -> Tensor",
    "arctan2_": "arctan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)",
    "fix": "fix(Tensor self) -> Tensor", "fix_": "fix_(Tensor(a!) self) -> Tensor(a!)",
    **{f"{a}{s}.{o}": f"{a}{s}.{o}(Tensor{'(a!)' if s else ''} self, {o} other) -> Tensor{'(a!)' if s else ''}"
       for a in ("greater", "greater_equal", "less", "less_equal", "not_equal") for s in ("", "_")
       for o in ("Tensor", "Scalar")},
    "clip": "clip(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor",
    "clip_": "clip_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)",
    "clip.Tensor": "clip.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor",
    "clip_.Tensor": "clip_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)",
    "moveaxis.int": "moveaxis.int(Tensor(a) self, int source, int destination) -> Tensor(a)",
    "moveaxis.intlist": "moveaxis.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)",
    "swapaxes": "swapaxes(Tensor(a) self, int axis0, int axis1) -> Tensor(a)",
    "swapaxes_": "swapaxes_(Tensor(a!) self, int axis0, int axis1) -> Tensor(a!)",
    "swapdims": "swapdims(Tensor(a) self, int dim0, int dim1) -> Tensor(a)",
    "swapdims_": "swapdims_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)",
    "row_stack": "row_stack(Tensor[] tensors) -> Tensor",
    "ger": "ger(Tensor self, Tensor vec2) -> Tensor",
}


def _calling(alias, target):
    """The composite kernel of ``alias``: ``target`` (``name.overload``, or ``Tensor.<method>`` for the
    in-place transpose, a method of the autograd layer) with the same arguments, by position (the
    aliases' argument names may differ from the target's: ``swapaxes``' ``axis0``)."""
    packet, _, overload = target.partition(".")
    if packet == "Tensor":
        def kernel(self, *args):
            return getattr(self, overload)(*args)
    else:
        found = []

        def kernel(*args):
            if not found:
                from .._ops import ops
                found.append(getattr(getattr(ops.aten, packet), overload or "default"))
            return found[0](*args)
    kernel.__name__ = kernel.__qualname__ = alias.replace(".", "_")
    kernel.__doc__ = f"``aten::{alias}``: ``aten::{target}``."
    return kernel


for _alias, _target in _ALIASES:
    OPS.op(_SCHEMAS[_alias], kind="composite")(_calling(_alias, _target))
