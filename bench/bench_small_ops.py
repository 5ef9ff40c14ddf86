"""Common ops on small inputs, per call, beside torch in the same run.

The per-call goals (``bench_per_call.py``) time a handful of calls; this table times ~130 everyday
statements at the sizes where the call, not the loop, is the cost: vectors of 64 elements, 16x16
matrices. Each row is the median nanoseconds per call of one statement, for opyard and, when torch is
importable (``make bench-peers``), for torch on the same inputs; the ratio is opyard / torch. The
summary gives the geometric mean per family and overall, and the rows where opyard is the slower.

Run: ``PYTHONPATH=python target/peers-venv/bin/python bench/bench_small_ops.py [--filter TEXT]``.
Without torch the last column is the ratio to a plain Python call.
"""

import math
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import opyard  # noqa: E402
from _harness import machine, per_call_ns, try_import_torch  # noqa: E402

# (family, statement): the statements see the names `inputs` makes and `lib` (the library); the
# in-place rows write to `u` only.
ROWS = [
    ("pointwise", "v + 1"), ("pointwise", "v * 2.5"), ("pointwise", "v / 3"), ("pointwise", "1 / p"),
    ("pointwise", "v - v"), ("pointwise", "v * v"), ("pointwise", "v / p"), ("pointwise", "v // p"),
    ("pointwise", "v % p"), ("pointwise", "v ** 2"), ("pointwise", "v ** 3"), ("pointwise", "v ** 0.5"),
    ("pointwise", "2 ** v"), ("pointwise", "v.pow(2)"), ("pointwise", "-v"), ("pointwise", "v.abs()"),
    ("pointwise", "v.exp()"), ("pointwise", "p.log()"), ("pointwise", "v.log1p()"), ("pointwise", "p.sqrt()"),
    ("pointwise", "v.sin()"), ("pointwise", "v.tanh()"), ("pointwise", "v.sigmoid()"), ("pointwise", "v.relu()"),
    ("pointwise", "v.round()"), ("pointwise", "v.floor()"), ("pointwise", "v.sign()"),
    ("pointwise", "v.clamp(-1, 1)"), ("pointwise", "v.clamp(min=0)"), ("pointwise", "lib.clip(v, -1, 1)"),
    ("pointwise", "lib.maximum(v, v)"), ("pointwise", "lib.where(v > 0, v, 0.0)"),
    ("pointwise", "v.masked_fill(v > 0, 0.0)"), ("pointwise", "v.lerp(v, 0.5)"),
    ("pointwise", "lib.addcmul(v, v, v)"), ("pointwise", "v.nan_to_num()"), ("pointwise", "v > 0"),
    ("pointwise", "v == v"), ("pointwise", "v.isnan()"), ("pointwise", "lib.equal(v, v)"),
    ("pointwise", "lib.allclose(v, v)"),
    ("in place", "u.add_(0)"), ("in place", "u.mul_(1)"), ("in place", "u.fill_(1.0)"),
    ("in place", "u.copy_(v)"),
    ("reduction", "v.sum()"), ("reduction", "v.mean()"), ("reduction", "f.mean()"), ("reduction", "v.prod()"),
    ("reduction", "v.amax()"), ("reduction", "v.max()"), ("reduction", "v.min()"), ("reduction", "v.argmax()"),
    ("reduction", "v.var()"), ("reduction", "v.std()"), ("reduction", "v.norm()"), ("reduction", "m.sum(0)"),
    ("reduction", "m.sum(1)"), ("reduction", "m.mean(0)"), ("reduction", "m.mean(dim=1, keepdim=True)"),
    ("reduction", "(v > 0).any()"), ("reduction", "(v > 0).all()"), ("reduction", "v.cumsum(0)"),
    ("reduction", "v.sum().item()"),
    ("sorting", "v.sort()"), ("sorting", "v.topk(3)"), ("sorting", "v.unique()"),
    ("nn", "m.softmax(-1)"), ("nn", "m.log_softmax(-1)"), ("nn", "lib.nn.functional.gelu(m)"),
    ("nn", "lib.nn.functional.relu(m)"), ("nn", "lib.nn.functional.layer_norm(m, (16,))"),
    ("nn", "lib.nn.functional.linear(m, m)"), ("nn", "lib.nn.functional.mse_loss(v, v)"),
    ("nn", "lib.nn.functional.cross_entropy(m, t16)"),
    ("linear algebra", "m @ m"), ("linear algebra", "x @ w"), ("linear algebra", "m.mm(m)"),
    ("linear algebra", "b.bmm(b)"), ("linear algebra", "lib.dot(v, v)"), ("linear algebra", "lib.outer(w, w)"),
    ("linear algebra", "lib.einsum('ij,j->i', x, w)"),
    ("shape", "m.t()"), ("shape", "m.transpose(0, 1)"), ("shape", "m.permute(1, 0)"), ("shape", "m.reshape(256)"),
    ("shape", "m.view(-1)"), ("shape", "m.flatten()"), ("shape", "m.unsqueeze(0)"), ("shape", "m.squeeze()"),
    ("shape", "m.contiguous()"), ("shape", "v.expand(2, 64)"), ("shape", "v.repeat(2)"), ("shape", "v.flip(0)"),
    ("shape", "v.roll(1)"), ("shape", "lib.cat([v, v])"), ("shape", "lib.stack([v, v])"),
    ("indexing", "m[0]"), ("indexing", "m[:, 0]"), ("indexing", "m[1:3]"), ("indexing", "v[idx]"),
    ("indexing", "f[mask]"), ("indexing", "v[v > 0]"), ("indexing", "m.index_select(0, idx)"),
    ("conversion", "v.clone()"), ("conversion", "v.detach()"), ("conversion", "v.to(lib.float32)"),
    ("conversion", "v.float()"), ("conversion", "i.float()"), ("conversion", "v.tolist()"),
    ("conversion", "v[0].item()"),
    ("factory", "lib.zeros(64)"), ("factory", "lib.ones(16, 16)"), ("factory", "lib.empty(64)"),
    ("factory", "lib.zeros_like(v)"), ("factory", "lib.ones_like(v)"), ("factory", "lib.full((4, 4), 2.0)"),
    ("factory", "lib.arange(64)"), ("factory", "lib.linspace(0, 1, 64)"), ("factory", "lib.randn(64)"),
    ("factory", "lib.rand(64)"), ("factory", "lib.tensor([1.0, 2.0, 3.0])"), ("factory", "lib.eye(4)"),
]


def inputs(lib):
    """The operands every statement sees, made the same way for each library."""
    lib.manual_seed(0)
    f = lib.randn(64)
    return {
        "lib": lib, "v": lib.randn(64, dtype=lib.float64), "u": lib.randn(64, dtype=lib.float64), "f": f, "m": lib.randn(16, 16),
        "x": lib.randn(64, 16, dtype=lib.float64), "w": lib.randn(16, dtype=lib.float64),
        "b": lib.randn(8, 4, 4), "i": lib.arange(64), "p": lib.rand(64) + 0.5,
        "idx": lib.tensor([0, 3, 5]), "mask": f > 0, "t16": lib.arange(16) % 16,
    }


def time_rows(lib, rows):
    env = inputs(lib)
    out = {}
    for _, stmt in rows:
        fn = eval("lambda: " + stmt, env)  # one lambda frame per call, the same for both libraries
        fn()
        out[stmt] = per_call_ns(fn, repeat=7)
    return out


def geomean(values):
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main():
    text = sys.argv[sys.argv.index("--filter") + 1] if "--filter" in sys.argv else ""
    rows = [r for r in ROWS if text in r[1] or text == r[0]]
    torch = try_import_torch()
    mine = time_rows(opyard, rows)
    theirs = time_rows(torch, rows) if torch is not None else None
    plain = per_call_ns(lambda: None)
    peer = f"torch {torch.__version__}" if torch is not None else "a plain call"
    print(f"\nCommon ops on small inputs, per call, opyard beside {peer}  ({machine()})")
    print(f"  {'statement':<46} {'opyard ns':>10} {'torch ns':>10} {'ratio':>7}")
    ratios = {}
    for family, stmt in rows:
        ref = theirs[stmt] if theirs is not None else plain
        ratios[stmt] = mine[stmt] / ref
        shown = f"{theirs[stmt]:>10.0f}" if theirs is not None else f"{'':>10}"
        print(f"  {stmt:<46} {mine[stmt]:>10.0f} {shown} {ratios[stmt]:>7.2f}")
    print("\n  geometric mean of the ratios, per family:")
    for family in dict.fromkeys(f for f, _ in rows):
        print(f"    {family:<16} {geomean(ratios[s] for f, s in rows if f == family):5.2f}")
    print(f"    {'all ' + str(len(rows)) + ' rows':<16} {geomean(ratios.values()):5.2f}")
    if theirs is not None:
        slower = sorted((r, s) for s, r in ratios.items() if r > 1.0)
        print(f"  rows where opyard is the slower: {len(slower)}"
              + "".join(f"\n    {s:<46} {r:5.2f}" for r, s in reversed(slower)))


if __name__ == "__main__":
    main()
