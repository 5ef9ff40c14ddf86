"""What the conformance numbers leave out, each with its reason: OpInfo entries outside
opyard's scope (``EXCLUDED``) and deliberate differences from torch (``DELIBERATE``, at
most 20 entries, each a class of cases with the reason opyard differs on purpose)."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass

# OpInfo names outside the scope of a numpy-backed CPU package, by reason.
EXCLUDED_REASONS = {
    "sparse": "sparse layouts: opyard tensors are strided only",
    "jiterator": "CUDA jiterator: runtime-compiled CUDA kernels",
    "cuda": "no CPU kernel in torch (CUDA-only entries record no CPU samples)",
    "quantized": "quantized tensors and fake quantization",
    "triton": "kernels compiled by triton",
}

EXCLUDED_PATTERNS = [
    ("to_sparse", "sparse"), ("sparse.*", "sparse"), ("*sparse*", "sparse"),
    ("jiterator_*", "jiterator"),
    ("*fake_quantize*", "quantized"), ("*quantize*", "quantized"),
    ("torch.ops.aten._flash_attention_forward", "cuda"),
    ("torch.ops.aten._efficient_attention_forward", "cuda"),
]


def excluded(name: str, meta: dict | None = None) -> str | None:
    """The reason an OpInfo name is outside opyard's scope, or None."""
    for pattern, reason in EXCLUDED_PATTERNS:
        if fnmatch.fnmatchcase(name, pattern):
            return reason
    if meta is not None and not meta["dtypes"]:
        return "cuda"
    return None


# Results torch does not pin down, compared up to the freedom they have (not differences):
# "phase": eigenvectors and singular vectors are unique only up to a sign (real) or a phase
# (complex) per vector, and the columns of a full U past min(m, n) only up to a basis of
# their space; LAPACK builds differ in the choice. (output index, "cols" | "rows").
EQUIVALENCES = {
    "linalg.eigh": ("phase", ((1, "cols"),)),
    "linalg.eig": ("phase", ((1, "cols"),)),
    "linalg.svd": ("phase", ((0, "cols"), (2, "rows"))),
    "svd": ("phase", ((0, "cols"), (2, "cols"))),
}


@dataclass(frozen=True)
class Deliberate:
    """Cases where opyard differs from torch on purpose: entries (a glob, or a tuple of the
    entries of one class) and case ids (a glob) and the outcome kinds it covers."""

    entries: str | tuple
    cases: str
    kinds: tuple
    reason: str

    def covers(self, entry: str, case: str, kind: str) -> bool:
        names = (self.entries,) if isinstance(self.entries, str) else self.entries
        return (kind in self.kinds and any(fnmatch.fnmatchcase(entry, n) for n in names)
                and fnmatch.fnmatchcase(case, self.cases))


DELIBERATE: list[Deliberate] = [
    Deliberate(
        "nn.functional.scaled_dot_product_attention", "*:[2367]", ("value", "grad_value"),
        "the samples with dropout_p > 0: the dropped attention weights are drawn from torch's CPU generator "
        "(mt19937 feeding MKL's Bernoulli sampler), which opyard does not reproduce; opyard draws its own "
        "(shapes, dtypes and the kept weights' scaling agree, and the dropout-free samples agree in value)"),
    Deliberate(
        "nn.functional.grid_sample", "fwd:bfloat16:1[2-7]", ("value",),  # samples 12-17: mode="bicubic"
        "bicubic sampling in bfloat16: torch's CPU kernel rounds its cubic coefficients to bfloat16 in an order "
        "of its vectorised code that its result does not reveal (on a constant image its result is off by up "
        "to 3%, its own float32 result is not); opyard computes bfloat16 operation by operation in the scalar "
        "kernel's order, which agrees with torch for the bilinear and nearest modes and for half"),
    Deliberate(
        "as_strided_scatter", "*", ("grad_value", "vmap_returns"),
        "torch 2.15's gradient with respect to self is wrong: its backward keeps the gradient of the elements "
        "src overwrites and zeroes the others, the reverse of the derivative (torch's own gradcheck fails on it: "
        "'Jacobian mismatch for output 0 with respect to input 0'); opyard gives the true gradient (gradcheck "
        "passes) and, being a composite of index_put, also runs under vmap, where torch has no batching rule "
        "('requires special handling'); the gradient with respect to src and the forward values agree"),
    Deliberate(
        ("conj", "H", "mH"), "fwd:complex*", ("stride",),
        "the conjugate of a complex tensor is new memory, not a view: torch's conj is a lazy view whose conjugate "
        "bit every later operator resolves (its Conjugate dispatch key); opyard has no such bit, and with its "
        "tensors' memory read directly by numpy kernels, a view whose values differ from its memory would be "
        "misread wherever a reader forgets the bit. opyard's conjugate keeps the view's sizes and strides "
        "(a layout-preserving copy) and its values and gradients agree; it shares no memory with its input, "
        "so writing into it does not write into the input"),
    Deliberate(
        "matrix_exp", "fwd:*float16:*", ("value",),
        "half and bfloat16: torch 2.15's CPU kernel returns wrong values for every matrix past a norm of about "
        "1e-9 (exp([[0.5, 0.1], [0.2, 0.3]]) in float16 gives -2.1e4 on the diagonal, its float32 result 1.66; "
        "the recorded samples give nan); opyard computes in float32 and rounds once, which agrees with torch's "
        "float32 result rounded"),
]


def deliberate(entry: str, case: str, kind: str) -> Deliberate | None:
    for d in DELIBERATE:
        if d.covers(entry, case, kind):
            return d
    return None
