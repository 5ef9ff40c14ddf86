"""Tensors whose ``repr`` torch 2.15 recorded (``gen_torch_reprs.py``) and opyard must match
(``tests/tensor/test_repr_as_torch.py``); each expression runs with ``T`` bound to the library."""

CASES = [
    "T.tensor(1+2j)", "T.tensor([1+2j, 3.5-1j])", "T.tensor([1+2j], dtype=T.complex128)",
    "T.tensor([0.1+1e-5j, 100+2j])", "T.tensor([1e10+1j])", "T.zeros(2, dtype=T.complex64)",
    "T.tensor([[1+1j, 2-2j], [3j, -4]])", "T.tensor([1+0j, 2+0j])", "T.tensor([0.5j])", "T.tensor([123456.789+0.5j])",
    "T.tensor([1.5, 2.25])", "T.tensor([1e-8, 1.0])", "T.tensor([1e8, 1.0])", "T.tensor([1e9, 1.0])",
    "T.tensor([1, 2], dtype=T.int32)", "T.tensor([True, False])", "T.tensor([1.5], dtype=T.float16)",
    "T.tensor([1.5], dtype=T.bfloat16)", "T.tensor(2.5, dtype=T.float64)", "T.tensor(3.0)", "T.tensor(-7)",
    "T.arange(30.)", "T.arange(1200)", "T.arange(2000.)", "T.arange(30).reshape(5, 6) * 1000",
    "T.arange(1430.).reshape(10, 11, 13)",
    "T.linspace(-1, 1, 17)", "T.linspace(0, 1e-3, 5)", "T.tensor([float('nan'), 1.0, float('inf'), -float('inf')])",
    "T.tensor([0.0, -0.0, 2.0])", "T.tensor([1.0, 1000.0])", "T.tensor([1.0, 1001.0])", "T.tensor([0.0, 0.0])",
    "T.tensor([[1e-5, 1.0], [2.0, 3.0]])", "T.ones(2, 3, requires_grad=True)", "T.ones(3) * 2**40",
    "T.arange(100.).reshape(4, 25)", "T.arange(12.).reshape(2, 2, 3)", "T.tensor([-1.5, 22.25, 333.125])",
    "T.arange(1100, dtype=T.float64) / 7", "T.arange(40, dtype=T.int64) * 123456789",
    "T.tensor([1.0, 2.0, 3.0], dtype=T.float64) / 3", "T.arange(26.).reshape(2, 13) + 0.5",
    "T.tensor([[True, False, True]] * 3)", "T.arange(10, dtype=T.uint8)", "T.ones(1, 1, 1)",
    "T.arange(1005, dtype=T.float32).reshape(3, 335)", "T.arange(2000).reshape(2, 1000)",
]
