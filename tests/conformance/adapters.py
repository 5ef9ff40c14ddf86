"""Calls for the OpInfo entries whose callable is a lambda: what the entry calls, written
against opyard (the recording marks these entries ``adapter:<entry>``)."""

import opyard

F = opyard.nn.functional


def _method(name):
    """``x.<name>(*args, **kwargs)``."""
    def call(x, *args, **kwargs):
        return getattr(x, name)(*args, **kwargs)
    call.__name__ = name
    return call


def _on_copy(name):
    """``x.clone().<name>(*args, **kwargs)``: an in-place method on a copy of the input."""
    def call(x, *args, **kwargs):
        return getattr(x.clone(), name)(*args, **kwargs)
    return call


ADAPTERS = {
    name: _method(name) for name in (
        "contiguous", "sum_to_size", "expand", "expand_as", "to", "reshape_as", "view", "view_as",
        "bfloat16", "bool", "byte", "char", "double", "float", "half", "int", "long", "short",
        "chalf", "new_zeros", "new_ones", "new_empty", "new_empty_strided", "new_full", "unfold",
        "repeat", "item", "to_sparse",
    )
}
ADAPTERS.update({
    "einsum": lambda tensors, equation: opyard.einsum(equation, tensors),
    "svd_lowrank": lambda a, b, **kw: opyard.svd_lowrank(a @ b.mT, **kw),
    "pca_lowrank": lambda a, b, **kw: opyard.pca_lowrank(a @ b.mT, **kw),
    "resize_": lambda x, shape: x.clone().resize_(shape),
    "resize_as_": lambda x, other: opyard.resize_as_(x.clone(), other),
    "zero_": lambda x: opyard.zero_(x.clone()),
    "T": lambda x: x.T,
    "H": lambda x: x.H,
    "mT": lambda x: x.mT,
    "mH": lambda x: x.mH,
    "where": lambda self, condition, other, **kw: opyard.where(condition, self, other, **kw),
    "nn.functional.embedding": lambda weight, idx, **kw: F.embedding(idx, weight, **kw),
    "nn.functional.embedding_bag": lambda weight, idx, **kw: F.embedding_bag(idx, weight, **kw),
    "linalg.lstsq.grad_oriented": lambda a, b, driver: opyard.linalg.lstsq(a, b, driver=driver)[:2],
    "linalg.pinv.singular": lambda a, b: opyard.linalg.pinv(a @ b.mT),
    "special.polygamma.special_polygamma_n_0":
        lambda x, n, **kw: opyard.special.polygamma(n, x, **kw),
    "normal.number_mean": lambda std, mean, *args, **kw: opyard.normal(mean, std, *args, **kw),
})


def _max_pool2d_backward(x, kernel_size=(), stride=(), padding=(0,), dilation=(1,), ceil_mode=False, **kwargs):
    """The entry's call: max_pool2d_with_indices, then its backward kernel on a gradient of ones."""
    out, indices = F.max_pool2d_with_indices(x, kernel_size=kernel_size, stride=stride, padding=padding,
                                             dilation=dilation, ceil_mode=ceil_mode, return_indices=True)
    stride = kernel_size if stride is None else stride
    return opyard.ops.aten.max_pool2d_with_indices_backward.default(
        opyard.ones_like(out), x, kernel_size, stride, padding, dilation, ceil_mode, indices)


ADAPTERS["max_pool2d_with_indices_backward"] = _max_pool2d_backward
for _n in range(5):
    ADAPTERS[f"polygamma.polygamma_n_{_n}"] = lambda x, n, **kw: opyard.polygamma(n, x, **kw)
