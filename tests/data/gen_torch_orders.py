"""Writes ``torch_orders.npz``: torch 2.15's ``topk``, ``sort`` (not stable, both directions),
``kthvalue`` and ``mode`` of rows with many equal values (and nan, and plain random rows), so the
tests can check which of several equal values opyard picks and in which order, index for index.
torch runs the C++ library's partial sort (``64 * k <= n``) or selection for ``topk``, its sort for
``sort`` and ``mode``, and a quickselect of its own for ``kthvalue``, none of them stable; the cases
cover each algorithm's branches, ``sorted=False``, every dtype torch's CPU kernels take, rows along
the last dim and along a strided dim.

Run with a Python that has torch (``make orders-expect``; the tests read only the npz)::

    python tests/data/gen_torch_orders.py

Case ``i`` is stored as ``x{i}`` (the input, as int8, float32 or float64, the first that holds it
exactly), ``v{i}``/``n{i}`` (topk's values as float64, its indices), for inputs of at most 1200
elements ``s{i}``/``d{i}`` (the indices of ``sort`` ascending/descending), ``k{i}`` (``kthvalue``'s
index, with k = the case's ``max(k, 1)``), ``m{i}`` (``mode``'s index), for float data with nan
``u{i}`` (``unique``'s inverse indices: each nan is its own value), and one row of ``meta``:
dtype number (into ``DTYPES``), dim, k, largest, sorted.
"""

import os

import numpy as np
import torch

DTYPES = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8"]
# (shape, dim, k): single rows of each length around the algorithms' switches (64 * k <= n; the
# insertion sort of 16; selection of 3 or fewer), rows of a matrix, columns, a middle dim.
SHAPES = [((5,), 0, 2), ((16,), 0, 16), ((17,), 0, 9), ((40,), 0, 3), ((64,), 0, 1), ((65,), 0, 1),
          ((65,), 0, 2), ((300,), 0, 4), ((300,), 0, 5), ((1000,), 0, 100), ((5000,), 0, 78),
          ((5000,), 0, 1200), ((1 << 16,), 0, 100), ((6, 130), 1, 2), ((6, 130), 1, 70),
          ((130, 5), 0, 3), ((4, 90, 3), 1, 30), ((2, 3000), -1, 1)]
KINDS = ["ties", "constant", "nan", "random", "sorted", "reversed"]


def data(rng, kind, shape, dtype):
    x = rng.normal(size=shape)
    if kind in ("ties", "nan"):
        x = np.round(x * 3)
    elif kind == "constant":
        x = np.full(shape, 2.0)
    elif kind == "sorted":
        x = np.sort(np.round(x * 20), axis=None).reshape(shape)
    elif kind == "reversed":
        x = np.sort(np.round(x * 20), axis=None)[::-1].reshape(shape).copy()
    if dtype == "uint8":
        x = np.abs(x)
    if kind == "nan" and dtype.startswith(("float", "bfloat")):
        x.flat[rng.integers(0, x.size, max(2, x.size // 7))] = np.nan
    return x


def main():
    rng = np.random.default_rng(2015)
    arrays, meta = {}, []
    for shape, dim, k in SHAPES:
        for kind in KINDS:
            if shape[0] > 10000 and kind in ("random", "sorted", "reversed"):
                continue  # incompressible data; the long rows are about ties
            for largest in (True, False):
                dtype = DTYPES[len(meta) % len(DTYPES)]
                srt = len(meta) % 3 != 2
                x = data(rng, kind, shape, dtype)
                t = torch.tensor(x).to(getattr(torch, dtype))
                v, i = torch.topk(t, k, dim, largest=largest, sorted=srt)
                c = len(meta)
                xs = t.double().numpy()
                arrays[f"x{c}"] = next(xs.astype(d) for d in (np.int8, np.float32, np.float64)
                                       if (xs.astype(d) == xs).all() or d == np.float64)
                arrays[f"v{c}"] = v.double().numpy()
                arrays[f"n{c}"] = i.numpy()
                if t.numel() <= 1200:  # a sort's indices do not compress
                    arrays[f"s{c}"] = torch.sort(t, dim).indices.numpy().astype(np.int16)
                    arrays[f"d{c}"] = torch.sort(t, dim, descending=True).indices.numpy().astype(np.int16)
                arrays[f"k{c}"] = torch.kthvalue(t, max(k, 1), dim).indices.numpy()
                arrays[f"m{c}"] = torch.mode(t, dim).indices.numpy()
                if kind == "nan" and t.is_floating_point():  # each nan its own value, in sort order
                    arrays[f"u{c}"] = torch.unique(t, return_inverse=True)[1].numpy().astype(np.int32)
                meta.append((DTYPES.index(dtype), dim, k, int(largest), int(srt)))
    arrays["meta"] = np.array(meta, dtype=np.int64)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "torch_orders.npz")
    np.savez_compressed(path, **arrays)
    print(f"wrote {len(meta)} cases to {path}")


if __name__ == "__main__":
    main()
