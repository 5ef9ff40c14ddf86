"""Writes ``torch_nn_family.json``: what torch 2.15 gives for the normalization, activation,
loss, dropout, distance and attention functions beyond the OpInfo samples (running statistics
after a training call, mixed parameter dtypes, special values, class weights with ignored
targets and label smoothing, ctc's own gradient, the fused CPU attention with masks and shared
key heads, multi-head attention's values, error messages).

Run with a Python that has torch (``make nn-expect``); the tests (``tests/test_nn_family_torch.py``)
only read the JSON.

Each case is an expression over ``T`` (the ``torch``/``opyard`` module), ``F`` (its
``nn.functional``), ``A`` (``T.ops.aten``) and named inputs. Inputs are made here (seeded), stored
with the case, and rebuilt the same way by the test; the JSON keeps the result (each tensor's
dtype, shape and values), the gradients of ``sum(result * w)`` (``w`` fixed weights) w.r.t. the
inputs that require grad, the inputs the call changes in place (``after``), or the exception's
class and message. Non-finite floats are stored as the strings "nan"/"inf"/"-inf".
"""

import json
import math
import os

import numpy as np
import torch
import torch.nn.functional as F

A = torch.ops.aten
rng = np.random.default_rng(2015)
CASES = []


def _enc(x):
    if isinstance(x, float) and not math.isfinite(x):
        return repr(x) if not math.isnan(x) else "nan"
    if isinstance(x, list):
        return [_enc(v) for v in x]
    return x


def tensor_rec(t):
    t = t.detach()
    values = t.to(torch.float64).tolist() if not t.dtype.is_complex else None
    return {"dtype": str(t.dtype).removeprefix("torch."), "shape": list(t.shape), "values": _enc(values)}


def inp(shape, dtype="float64", kind="normal", grad=False, low=0, high=4, values=None):
    """An input spec: the data is drawn here and stored (as float64 / int lists)."""
    if values is None:
        if kind == "normal":
            values = rng.standard_normal(shape)
        elif kind == "unit":
            values = rng.uniform(0.05, 0.95, shape)
        elif kind == "positive":
            values = np.abs(rng.standard_normal(shape)) + 0.5
        elif kind == "int":
            values = rng.integers(low, high, shape)
        elif kind == "sign":
            values = rng.choice([-1.0, 1.0], shape)
        elif kind == "bool":
            values = rng.random(shape) > 0.5
        values = np.asarray(values).tolist()
    spec = {"shape": list(shape), "dtype": dtype, "values": values, "grad": grad}
    t = build(spec)  # rounded to the dtype: store what the tensor holds
    spec["values"] = _enc(t.detach().to(torch.float64).tolist()) if t.dtype != torch.bool else t.tolist()
    return spec


def build(spec):
    def dec(v):
        if isinstance(v, list):
            return [dec(x) for x in v]
        return float(v) if isinstance(v, str) else v
    dtype = getattr(torch, spec["dtype"])
    t = torch.tensor(dec(spec["values"]), dtype=torch.float64 if dtype.is_floating_point else None)
    t = t.to(dtype).reshape(spec["shape"])
    return t.requires_grad_() if spec["grad"] else t


def case(expr, name=None, mutated=(), **inputs):
    """Record ``expr`` evaluated on ``inputs`` (name -> spec); ``mutated``: inputs to keep after."""
    tensors = {k: build(v) for k, v in inputs.items()}
    env = {"T": torch, "F": F, "A": A, "math": math, **tensors}
    rec = {"name": name or expr, "expr": expr, "inputs": inputs, "mutated": list(mutated)}
    try:
        out = eval(expr, env)  # noqa: S307 - the expressions are this file's own
    except Exception as exc:  # noqa: BLE001 - torch's answer
        rec["raises"] = type(exc).__name__
        rec["mro"] = [c.__name__ for c in type(exc).__mro__]
        rec["message"] = str(exc).split("\n")[0][:300]
        CASES.append(rec)
        return
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    rec["out"] = [tensor_rec(o) if isinstance(o, torch.Tensor) else (None if o is None else _enc(o)) for o in outs]
    leaves = [k for k, v in inputs.items() if v["grad"]]
    diff = [o for o in outs if isinstance(o, torch.Tensor) and o.requires_grad]
    if leaves and diff:
        loss = sum((o.to(torch.float64) * torch.from_numpy(np.cos(np.arange(o.numel()) * 0.7 + i)).reshape(o.shape))
                   .sum() for i, o in enumerate(diff))
        grads = torch.autograd.grad(loss, [tensors[k] for k in leaves], allow_unused=True)
        rec["grads"] = {k: None if g is None else tensor_rec(g) for k, g in zip(leaves, grads)}
    rec["after"] = {k: tensor_rec(tensors[k]) for k in mutated}
    CASES.append(rec)


def normalization():
    for dt in ("float64", "float32", "bfloat16", "float16"):
        x = inp([4, 3, 5], dt, grad=dt == "float64")
        for momentum in (0.1, 0.7):
            case("F.batch_norm(x, rm, rv, w, b, training=True, momentum=%s, eps=1e-3)" % momentum, mutated=("rm", "rv"),
                 x=x, rm=inp([3], dt), rv=inp([3], dt, "positive"), w=inp([3], dt, grad=dt == "float64"),
                 b=inp([3], dt, grad=dt == "float64"))
        case("F.batch_norm(x, rm, rv, w, None, training=False)", x=x, rm=inp([3], dt), rv=inp([3], dt, "positive"),
             w=inp([3], dt, grad=dt == "float64"))
        case("F.instance_norm(x, rm, rv, w, b, momentum=0.3)", mutated=("rm", "rv"), x=x, rm=inp([3], dt),
             rv=inp([3], dt, "positive"), w=inp([3], dt, grad=dt == "float64"), b=inp([3], dt))
        case("F.group_norm(x, 3, w, b, eps=1e-4)", x=inp([2, 6, 5], dt, grad=dt == "float64"),
             w=inp([6], dt, grad=dt == "float64"), b=inp([6], dt))
        case("F.layer_norm(x, [3, 5], w, b)", x=x, w=inp([3, 5], dt, grad=dt == "float64"), b=inp([3, 5], dt))
        case("F.rms_norm(x, [5], w)", x=inp([4, 3, 5], dt, grad=dt == "float64") if dt == "float64" else x,
             w=inp([5], dt))
        case("F.local_response_norm(x, 3, alpha=0.1, beta=0.6, k=2.0)", x=inp([2, 5, 4, 3], dt, grad=dt == "float64"))
    # statistics next to parameters of another dtype
    case("A.native_batch_norm(x, w, b, rm, rv, True, 0.2, 1e-5)", mutated=("rm", "rv"), x=inp([4, 3, 2], "bfloat16"),
         w=inp([3], "float32"), b=inp([3], "float32"), rm=inp([3], "float32"), rv=inp([3], "float32", "positive"))
    case("A.native_layer_norm(x, [2], w, None, 1e-5)", x=inp([4, 3, 2], "float16"), w=inp([2], "float32"))
    case("A.native_group_norm(x, w, None, 4, 3, 2, 3, 1e-5)", x=inp([4, 3, 2], "bfloat16"), w=inp([3], "float32"))
    for dt_x, dt_w in (("float32", "float64"), ("float64", "float32"), ("float32", "bfloat16")):
        case("A.native_batch_norm(x, w, None, None, None, True, 0.1, 1e-5)", x=inp([4, 3], dt_x), w=inp([3], dt_w))
        case("A.native_layer_norm(x, [3], w, None, 1e-5)", x=inp([4, 3], dt_x), w=inp([3], dt_w))
    case("A.native_batch_norm(x, w, b, None, None, True, 0.1, 1e-5)", x=inp([4, 3], "float32"), w=inp([3], "float32"),
         b=inp([3], "float64"))
    # group norm's mean and rstd outputs are differentiable
    case("A.native_group_norm(x, w, b, 2, 4, 3, 2, 1e-5)", x=inp([2, 4, 3], grad=True), w=inp([4], grad=True),
         b=inp([4], grad=True))
    case("F.local_response_norm(x, 2)", x=inp([2, 3, 4], "int64", "int", low=-3, high=4))
    case("F.local_response_norm(x, 4)", x=inp([1, 5, 2, 2, 2], grad=True))
    # errors
    for expr in ("F.batch_norm(x, None, None, training=True)", "A.native_batch_norm(x, None, None, None, None, False, 0.1, 1e-5)",
                 "F.group_norm(x, 3)", "F.instance_norm(x)", "F.local_response_norm(x[0], 2)",
                 "A.native_group_norm(x, None, None, 1, 4, 2, 3, 1e-5)", "F.layer_norm(x, [3])",
                 "A.native_batch_norm(x.long(), None, None, None, None, True, 0.1, 1e-5)",
                 "T.batch_norm(x, w, None, None, None, True, 0.1, 1e-5, False)",
                 "F.group_norm(x, 2, w)", "F.batch_norm(x, None, None, training=True, eps=0.0)"):
        case(expr, x=inp([1, 4, 2]), w=inp([3]))


ACTIVATIONS = ["F.celu(x, 0.7)", "F.selu(x)", "F.hardshrink(x, 0.6)", "F.softshrink(x, 0.6)", "F.hardsigmoid(x)",
               "F.hardswish(x)", "F.logsigmoid(x)", "F.mish(x)", "F.threshold(x, 0.5, -2.0)", "F.softsign(x)",
               "F.tanhshrink(x)", "F.rrelu(x, 0.1, 0.3, training=False)", "F.glu(x, 0)", "F.softmin(x, 0)",
               "F.elu(x, 0.5)", "F.prelu(x, w)"]


def activations():
    special = [0.0, -0.0, 0.6, -0.6, 3.0, -3.0, 2.9, -2.9, 25.0, -25.0, 1e-4, -7.5, math.inf, -math.inf, math.nan, 1.0]
    # A nan input's gradient depends on whether torch's kernel reaches it vectorized or not (its
    # branch tests differ for nan): the gradients are checked at the other special points.
    finite = [v if not math.isnan(v) else 0.25 for v in special]
    for dt in ("float64", "float32", "bfloat16", "float16"):
        for expr in ACTIVATIONS:
            case(expr, x=inp([16], dt, values=finite if dt == "float64" else special, grad=dt == "float64"),
                 w=inp([1], dt, values=[0.25]))
            case(expr, x=inp([4, 6], dt, grad=dt == "float64"), w=inp([1], dt, grad=dt == "float64"))
    case("F.prelu(x, w)", x=inp([2, 3, 4], grad=True), w=inp([3], grad=True))
    case("F.threshold(x, 1.5, 7)", x=inp([6], "int64", "int", low=-3, high=4))
    case("F.threshold(x, -0.5, 9)", x=inp([6], "int32", "int", low=-3, high=4))
    for expr in ("F.softshrink(x, -0.5)", "F.celu(x, 0.0)", "F.glu(x, 1)", "F.glu(x[0, 0])", "F.hardshrink(x.long())",
                 "F.rrelu(x, 0.5, 0.2)", "F.prelu(x, w)", "F.mish(x.int())", "F.threshold(x.bool(), 0, 1)"):
        case(expr, x=inp([2, 3]), w=inp([2]))


def losses():
    dt_all = ("float64", "float32", "bfloat16", "float16")
    for dt in dt_all:
        g = dt == "float64"
        logits = inp([5, 4], dt, grad=g)
        target = inp([5], "int64", "int", high=4)
        weight = inp([4], dt, "positive")
        for red in ("mean", "sum", "none"):
            case(f"F.cross_entropy(x, t, weight=w, ignore_index=2, label_smoothing=0.2, reduction='{red}')", x=logits,
                 t=target, w=weight)
            case(f"F.cross_entropy(x, p, weight=w, label_smoothing=0.1, reduction='{red}')", x=logits,
                 p=inp([5, 4], dt, "unit", grad=g), w=weight)
            case(f"F.nll_loss(x, t, weight=w, ignore_index=1, reduction='{red}')", x=inp([2, 4, 3, 2], dt, grad=g),
                 t=inp([2, 3, 2], "int64", "int", high=4), w=weight)
            case(f"F.kl_div(x, y, reduction='{red}', log_target=True)", x=inp([3, 4], dt, grad=g),
                 y=inp([3, 4], dt, grad=g))
            case(f"F.binary_cross_entropy(x, y, w, reduction='{red}')", x=inp([3, 4], dt, "unit", grad=g),
                 y=inp([3, 4], dt, "unit", grad=g), w=inp([4], dt, "positive"))
            case(f"F.binary_cross_entropy_with_logits(x, y, w, reduction='{red}', pos_weight=p)",
                 x=inp([3, 4], dt, grad=g), y=inp([3, 4], dt, "unit", grad=g), w=inp([3, 1], dt, "positive"),
                 p=inp([4], dt, "positive"))
            case(f"F.smooth_l1_loss(x, y, reduction='{red}', beta=0.5)", x=inp([3, 4], dt, grad=g),
                 y=inp([3, 4], dt, grad=g))
            case(f"F.huber_loss(x, y, reduction='{red}', delta=0.7)", x=inp([3, 4], dt, grad=g), y=inp([3, 4], dt, grad=g))
            case(f"F.mse_loss(x, y, reduction='{red}')", x=inp([3, 4], dt, grad=g), y=inp([4], dt, grad=g))
            case(f"F.soft_margin_loss(x, y, reduction='{red}')", x=inp([3, 4], dt, grad=g), y=inp([3, 4], dt, "sign"))
            case(f"F.poisson_nll_loss(x, y, log_input=False, full=True, reduction='{red}')",
                 x=inp([3, 4], dt, "positive", grad=g), y=inp([3, 4], dt, "positive"))
            case(f"F.gaussian_nll_loss(x, y, v, full=True, reduction='{red}')", x=inp([3, 4], dt, grad=g),
                 y=inp([3, 4], dt), v=inp([3, 1], dt, "positive", grad=g))
            case(f"F.multi_margin_loss(x, t, p=2, margin=0.7, weight=w, reduction='{red}')",
                 x=inp([5, 4], dt, grad=g), t=target, w=weight)
            case(f"F.multilabel_margin_loss(x, t, reduction='{red}')", x=inp([3, 4], dt, grad=g),
                 t=inp([3, 4], "int64", values=[[3, 3, 0, -1], [1, -1, 2, 2], [0, 1, 2, 3]]))
            case(f"F.hinge_embedding_loss(x, y, margin=0.5, reduction='{red}')", x=inp([3, 4], dt, grad=g),
                 y=inp([3, 4], dt, "sign"))
            case(f"F.cosine_embedding_loss(a, b, y, margin=0.2, reduction='{red}')", a=inp([3, 4], dt, grad=g),
                 b=inp([3, 4], dt, grad=g), y=inp([3], dt, "sign"))
            case(f"F.triplet_margin_loss(a, p, n, p=1.5, swap=True, reduction='{red}')", a=inp([3, 4], dt, grad=g),
                 p=inp([3, 4], dt, grad=g), n=inp([3, 4], dt, grad=g))
            case(f"F.multilabel_soft_margin_loss(x, y, weight=w, reduction='{red}')", x=inp([3, 4], dt, grad=g),
                 y=inp([3, 4], dt, "unit"), w=inp([4], dt, "positive"))
    # every target ignored: a nan mean, as torch
    case("F.cross_entropy(x, t, ignore_index=1)", x=inp([2, 3], grad=True), t=inp([2], "int64", values=[1, 1]))
    case("F.kl_div(x, y, reduction='batchmean')", x=inp([3, 4], grad=True), y=inp([3, 4], "float64", "unit"))
    case("F.l1_loss(x, y, weight=w)", x=inp([3, 4], grad=True), y=inp([3, 4]), w=inp([3, 4], kind="positive"))
    case("F.huber_loss(x, y, weight=w, reduction='sum')", x=inp([3, 4], grad=True), y=inp([3, 4]),
         w=inp([3, 4], kind="positive"))
    case("F.linear_cross_entropy(x, w, t, linear_bias=b)", x=inp([3, 4], grad=True), w=inp([5, 4], grad=True),
         t=inp([3], "int64", "int", high=5), b=inp([5], grad=True))
    # ctc: padded and concatenated targets, empty inputs and targets, zero_infinity; the gradient of
    # _ctc_loss itself (torch's formula, not the true gradient of its inputs)
    for red in ("none", "mean", "sum"):
        for zi in (False, True):
            case(f"F.ctc_loss(lp, t, [6, 4, 1, 0], [3, 1, 2, 0], blank=1, reduction='{red}', zero_infinity={zi})",
                 lp=inp([6, 4, 5], grad=True), t=inp([4, 3], "int64", values=[[0, 2, 2], [3, 0, 0], [4, 4, 0],
                                                                               [0, 0, 0]]))  # no blank (1) in a target
    case("F.ctc_loss(lp, t, il, tl)", lp=inp([5, 2, 4], grad=True), t=inp([4], "int64", values=[1, 2, 2, 3]),
         il=inp([2], "int64", values=[5, 3]), tl=inp([2], "int64", values=[3, 1]))
    case("F.ctc_loss(lp, t, [5], [2], reduction='sum')", lp=inp([5, 4], "float32", grad=True),
         t=inp([2], "int64", values=[1, 3]))
    # (log_alpha past an input's length or an example's extended target is memory torch leaves unset:
    # full lengths here)
    case("A._ctc_loss(lp, t, [6, 6], [3, 3], 0, False)", lp=inp([6, 2, 4], grad=True),
         t=inp([2, 3], "int64", values=[[1, 2, 3], [3, 3, 1]]))
    for expr in ("F.cross_entropy(x, p, ignore_index=0)", "F.cross_entropy(x, t, label_smoothing=1.5)",
                 "F.cross_entropy(x, t, weight=w[:3])", "F.nll_loss(x, t + 4)", "F.nll_loss(x, t.int())",
                 "F.nll_loss(x[0, 0], t)", "F.binary_cross_entropy(x, p)", "F.binary_cross_entropy(p, p[0])",
                 "F.huber_loss(x, p, delta=0.0)", "F.smooth_l1_loss(x, p, beta=-1.0)", "F.multi_margin_loss(x, t, p=3)",
                 "F.kl_div(t, t)", "F.mse_loss(x.long(), x.long())", "F.ctc_loss(x, t, [2], [1])",
                 "F.cross_entropy(x, t, reduction='avg')", "F.gaussian_nll_loss(x, p, -1.0)",
                 "F.triplet_margin_loss(x, x, x, margin=0.0)", "F.margin_ranking_loss(x, p, t)"):
        case(expr, x=inp([3, 4]), p=inp([3, 4], kind="unit"), t=inp([3], "int64", "int", high=4), w=inp([4]))


def distances():
    for p in (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, math.inf):
        for mode in ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist"):
            case(f"T.cdist(a, b, {p!r}, '{mode}')".replace("inf", "math.inf"), a=inp([2, 3, 4], grad=True),
                 b=inp([5, 4], grad=True))
        case(f"F.pdist(a, {p!r})".replace("inf", "math.inf"), a=inp([5, 3], grad=True))
        case(f"F.pairwise_distance(a, b, {p!r}, 1e-3, True)".replace("inf", "math.inf"), a=inp([3, 4], grad=True),
             b=inp([4], grad=True))
    case("T.cdist(a, b)", a=inp([30, 3], "float32", grad=True), b=inp([27, 3], "float32", grad=True))
    case("T.cdist(a, b)", a=inp([3, 2]), b=inp([3, 2], "float64", values=[[0.0, 0.0], [1.0, 1.0], [0.0, 0.0]]))
    case("F.cosine_similarity(a, b, -1, 0.3)", a=inp([2, 1, 4], grad=True), b=inp([3, 4], grad=True))
    case("F.cosine_similarity(a, b)", a=inp([2, 3], "int64", "int", high=3), b=inp([2, 3], "float32"))
    case("F.bilinear(a, b, w, c)", a=inp([2, 3, 2], grad=True), b=inp([2, 3, 4], grad=True), w=inp([5, 2, 4], grad=True),
         c=inp([5], grad=True))
    for mode in ("sum", "mean", "max"):
        case(f"F.embedding_bag(i, w, o, mode='{mode}', padding_idx=3)", i=inp([7], "int64", values=[1, 3, 0, 2, 2, 4, 3]),
             w=inp([5, 3], grad=True), o=inp([4], "int64", values=[0, 3, 3, 5]))
        case(f"F.embedding_bag(i, w, o, mode='{mode}', include_last_offset=True)",
             i=inp([6], "int64", values=[1, 0, 4, 2, 2, 4]), w=inp([5, 3], grad=True), o=inp([3], "int64", values=[0, 2, 6]))
    case("F.embedding_bag(i, w, mode='sum', per_sample_weights=p)", i=inp([2, 3], "int64", values=[[1, 0, 4], [2, 2, 3]]),
         w=inp([5, 3], grad=True), p=inp([2, 3], grad=True))
    case("F.embedding_bag(i, w, o, max_norm=1.0, norm_type=1.5)", mutated=("w",), i=inp([4], "int64", values=[0, 2, 2, 4]),
         w=inp([5, 3]), o=inp([2], "int64", values=[0, 1]))
    case("F.embedding(i, w, max_norm=0.8)", mutated=("w",), i=inp([3], "int64", values=[1, 1, 3]), w=inp([4, 3]))
    # the backward kernels: reduced precision, counts, empty bags, a sum's empty offset2bag
    bag_idx = inp([7], "int64", values=[1, 3, 0, 3, 2, 4, 3])
    for dt in ("float64", "float32", "bfloat16", "float16"):
        for mode, o2b, sizes in ((0, [], [0, 0, 0]), (1, [0, 0, 0, 2, 2, 2, 2], [3, 0, 4]),
                                 (0, [0, 0, 0, 2, 2, 2, 2], [0, 0, 0])):
            for freq in (False, True):
                case(f"A._embedding_bag_backward(g, i, o, b, s, m, 6, {freq}, {mode}, False, "
                     f"{'p' if o2b and mode == 0 else 'None'}, 3)", g=inp([3, 4], dt), i=bag_idx,
                     o=inp([3], "int64", values=[0, 3, 3]), b=inp([len(o2b)], "int64", values=o2b),
                     s=inp([3], "int64", values=sizes), m=inp([3], "int64", values=[0, 0, 0]), p=inp([7], dt))
        case("A._embedding_bag_dense_backward(g, i, b, s, m, 5, False, 2, None)", g=inp([3, 4], dt),
             i=inp([5], "int64", values=[1, 3, 0, 3, 2]), b=inp([5], "int64", values=[0, 0, 0, 2, 2]),
             s=inp([3], "int64", values=[3, 0, 2]), m=inp([3, 4], "int64", values=[[1, 3, 1, 0], [0, 0, 0, 0],
                                                                                      [3, 2, 2, 3]]))
        case("A._embedding_bag_per_sample_weights_backward(g, w, i, o, b, 0, 3)", g=inp([3, 4], dt),
             w=inp([6, 4], dt), i=bag_idx, o=inp([3], "int64", values=[0, 3, 3]), b=inp([0], "int64", values=[]))
    case("A._embedding_bag_per_sample_weights_backward(g, w, i, o, b, 1)", g=inp([3, 4]), w=inp([6, 4]), i=bag_idx,
         o=inp([3], "int64", values=[0, 3, 3]), b=inp([0], "int64", values=[]))
    for expr in ("T.cdist(a, a[0])", "T.cdist(a, b)", "F.pdist(a[0])", "F.pdist(a, -1.0)", "F.bilinear(a, a, b)",
                 "F.embedding_bag(i, a, i)", "F.embedding_bag(i.float(), a, i)", "T.cdist(a.long(), a.long())"):
        case(expr, a=inp([3, 4]), b=inp([3, 5]), i=inp([2], "int64", values=[0, 1]))


def dropout_and_attention():
    for dt in ("float64", "bool", "int64", "float16"):
        case("A.native_dropout_backward(g, m, 2.5)", g=inp([6], dt, "int" if dt != "float64" else "normal", high=3),
             m=inp([6], "bool", "bool"))
    for expr in ("F.dropout(x, 0.0)", "F.dropout(x, 1.0)", "F.alpha_dropout(x, 1.0, True)", "F.dropout(x, 0.5, False)",
                 "F.feature_alpha_dropout(x, 1.0, True)", "F.dropout2d(x, 1.0)", "A.native_dropout(x, 0.5, False)",
                 "F.dropout(x, 1.5)", "F.dropout1d(x[0, 0])", "F.feature_alpha_dropout(x[0, 0, 0], 0.5, True)"):
        case(expr, x=inp([2, 3, 4], grad=True))
    for dt in ("float64", "float32", "bfloat16", "float16"):
        g = dt == "float64"
        q, k, v = inp([2, 4, 3, 8], dt, grad=g), inp([2, 2, 5, 8], dt, grad=g), inp([2, 2, 5, 8], dt, grad=g)
        case("A._scaled_dot_product_flash_attention_for_cpu(q, k, v, is_causal=True)", q=q, k=k, v=v)
        case("A._scaled_dot_product_flash_attention_for_cpu(q, k, v, attn_mask=m, scale=0.3)", q=q, k=k, v=v,
             m=inp([3, 5], dt))
        case("F.scaled_dot_product_attention(q, k, v, m, enable_gqa=True)", q=q, k=k, v=v,
             m=inp([3, 5], "bool", "bool"))
        case("F.scaled_dot_product_attention(q, k, v[..., :6], is_causal=True, scale=-0.2, enable_gqa=True)", q=q, k=k,
             v=v)
        case("A._safe_softmax(x, 1)", x=inp([3, 4], dt, values=[[0.5, -1.0, 2.0, 0.0], ["-inf"] * 4, [1.0, "-inf", 2.0,
                                                                                                        3.0]]))
    case("A._softmax_backward_data(g, y, 1, T.float32)", g=inp([3, 4], "float32", grad=True),
         y=inp([3, 4], "float32", "unit", grad=True))
    case("A._log_softmax_backward_data(g, y, 0, T.float64)", g=inp([3, 4], grad=True), y=inp([3, 4], grad=True))
    for need_weights in (True, False):
        case(f"F.multi_head_attention_forward(q, k, v, 4, 2, w, b, bk, bv, True, 0.0, ow, ob, training=True, "
             f"key_padding_mask=kp, need_weights={need_weights}, attn_mask=am)",
             q=inp([3, 2, 4], grad=True), k=inp([5, 2, 4], grad=True), v=inp([5, 2, 4], grad=True),
             w=inp([12, 4], grad=True), b=inp([12], grad=True), bk=inp([1, 1, 4], grad=True), bv=inp([1, 1, 4]),
             ow=inp([4, 4], grad=True), ob=inp([4]), kp=inp([2, 5], "bool", values=[[False] * 4 + [True], [False] * 5]),
             am=inp([3, 5], "float64", values=[[0.0] * 5] * 2 + [[0.0, -1.0, 0.0, 0.0, 0.0]]))
    case("F.multi_head_attention_forward(q, q, q, 4, 1, w, None, None, None, False, 0.0, ow, None, need_weights=True, "
         "average_attn_weights=False)", q=inp([3, 4], grad=True), w=inp([12, 4], grad=True), ow=inp([4, 4]))
    case("F.multi_head_attention_forward(q, k, k, 4, 2, None, b, None, None, False, 0.0, ow, ob, "
         "use_separate_proj_weight=True, q_proj_weight=wq, k_proj_weight=wk, v_proj_weight=wv)",
         q=inp([3, 1, 4], grad=True), k=inp([2, 1, 3], grad=True), b=inp([12]), ow=inp([4, 4]), ob=inp([4]),
         wq=inp([4, 4], grad=True), wk=inp([4, 3], grad=True), wv=inp([4, 3]))
    for expr in ("A._scaled_dot_product_flash_attention_for_cpu(q, q, q, 0.5)",
                 "A._scaled_dot_product_flash_attention_for_cpu(q[0], q[0], q[0])",
                 "F.scaled_dot_product_attention(q, q, q, m, is_causal=True)",
                 "F.multi_head_attention_forward(q[0], q[0], q[0], 5, 2, None, None, None, None, False, 0.0, q, None)"):
        case(expr, q=inp([1, 2, 3, 4]), m=inp([3, 3], "bool", "bool"))


def main():
    torch.manual_seed(0)
    normalization()
    activations()
    losses()
    distances()
    dropout_and_attention()
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "torch_nn_family.json")
    with open(path, "w") as f:
        json.dump({"torch": torch.__version__, "cases": CASES}, f, separators=(",", ":"))
    print(f"wrote {len(CASES)} cases to {path}")


if __name__ == "__main__":
    main()
