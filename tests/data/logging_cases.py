"""Snippets run under torch's and opyard's logging helpers (``testing._internal.logging_tensor``):
``gen_torch_logging.py`` records the lines torch logs, ``tests/protocols/test_logging_tensor.py``
compares opyard's. Each snippet runs with ``T`` bound to the library, ``LT`` to ``LoggingTensor``,
``log_input`` to the helper; ``MODE`` snippets run under ``capture_logs_with_logging_tensor_mode``,
the others under ``capture_logs`` with their inputs logged first."""

# name -> (kind, source): kind "tensor" (LoggingTensor inputs) or "mode" (LoggingTensorMode).
CASES = {
    "mul": ("tensor", "x = LT(T.ones(2)); log_input('x', x); y = x * x"),
    "add_scalar": ("tensor", "x = LT(T.ones(2)); log_input('x', x); y = x + 1"),
    "chain": ("tensor", "x = LT(T.ones(2, 3)); log_input('x', x); y = (x.sin() * 2).sum(1)"),
    "views": ("tensor", "x = LT(T.ones(2, 3)); log_input('x', x); y = x.t(); z = x[0]; w = x.view(6); v = x.unsqueeze(0)"),
    "reshape": ("tensor", "x = LT(T.ones(2, 3)); log_input('x', x); y = x.reshape(3, 2); z = x.flatten()"),
    "softmax": ("tensor", "x = LT(T.ones(2, 3)); log_input('x', x); y = x.softmax(-1); z = T.log_softmax(x, 0)"),
    "inplace": ("tensor", "x = LT(T.ones(2)); log_input('x', x); x.add_(1); x.mul_(2)"),
    "backward": ("tensor", "x = LT(T.ones(2), requires_grad=True); log_input('x', x); (x * 3).sum().backward()"),
    "matmul": ("tensor", "a = LT(T.ones(2, 3)); b = LT(T.ones(3, 4)); log_input('a', a); log_input('b', b); y = a @ b"),
    "linear": ("tensor", "a = LT(T.ones(2, 3)); w = LT(T.ones(4, 3)); log_input('a', a); log_input('w', w); y = T.nn.functional.linear(a, w)"),
    "where": ("tensor", "x = LT(T.ones(2)); log_input('x', x); y = T.where(x > 0, x, 0.5)"),
    "cat": ("tensor", "a = LT(T.ones(2)); b = LT(T.zeros(2)); log_input('a', a); log_input('b', b); y = T.cat([a, b]); z = T.stack([a, b])"),
    "split": ("tensor", "x = LT(T.ones(4)); log_input('x', x); y = x.split(2); z = x.chunk(2)"),
    "reductions": ("tensor", "x = LT(T.ones(2, 3)); log_input('x', x); y = x.sum(); z = x.mean(0); w = x.var(1); v = x.amax(1)"),
    "clone_detach": ("tensor", "x = LT(T.ones(2)); log_input('x', x); y = x.clone(); z = x.detach()"),
    "to_dtype": ("tensor", "x = LT(T.ones(2)); log_input('x', x); y = x.double(); z = x.to(T.int64)"),
    "narrow_movedim": ("tensor", "x = LT(T.ones(2, 3)); log_input('x', x); y = x.narrow(1, 0, 2); z = x.movedim(0, 1)"),
    "mode_ops": ("mode", "a = T.ones(2, 3); b = a.exp().sum(0)"),
    "mode_factories": ("mode", "a = T.zeros(2); b = T.full((2,), 3.0); c = T.arange(3)"),
    "mode_softmax": ("mode", "a = T.ones(2, 3); b = a.softmax(-1)"),
    "mode_matmul": ("mode", "a = T.ones(4, 2, 3); b = T.ones(3, 5); c = a @ b"),
    "mode_backward": ("mode", "a = T.ones(2, requires_grad=True); (a * a).sum().backward()"),
    "mode_indexing": ("mode", "a = T.ones(3, 4); b = a[1:, :2]; c = a[0, 1]"),
}
