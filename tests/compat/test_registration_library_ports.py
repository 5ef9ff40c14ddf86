"""Registration helpers in the style of vision, sparse-ops and inference libraries, ported verbatim.

* vision-style: ops defined by a "C++" library (here a ``Library("...", "DEF")``
  standing in), Meta kernels through ``Library(ns, "IMPL", "Meta")`` keyed by
  ``OpOverload``, ``torch._prims_common.check``, and fake impls that make
  data-dependent sizes with ``torch._custom_ops.get_ctx().create_unbacked_symint()``.
* sparse-ops-style: ``torch.library.impl_abstract`` behind a helper that first
  asks ``torch._C._dispatch_has_kernel_for_dispatch_key(op, "Meta")``, and the
  older ``torch._custom_ops`` API (``custom_op`` / ``impl`` / ``impl_abstract``).
* inference-engine-style: ``direct_register_custom_op`` on a shared FRAGMENT
  library with ``infer_schema``, ``Library.impl(dispatch_key=...)``,
  ``Library._register_fake`` and ``tags=(torch._C.Tag.needs_fixed_stride_order,)``.
"""

import warnings

import pytest

import opyard as torch
from opyard.fake import FakeTensorMode, ShapeEnv
from opyard.library import Library, infer_schema

# --- vision-style -------------------------------------------------------------------------------------

_cxx = Library("compat_vision", "DEF")  # what the C++ extension would have defined
_cxx.define("roi_pool(Tensor input, Tensor rois, float spatial_scale, int pooled_h, int pooled_w) -> Tensor")
_cxx.define("nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
_cxx.impl("nms", lambda dets, scores, iou: scores.topk(max(1, dets.shape[0] // 2))[1], "CPU")

vision = torch.ops.compat_vision
_meta_lib = Library("compat_vision", "IMPL", "Meta")


def register_meta(op):
    def wrapper(fn):
        _meta_lib.impl(op, fn)
        return fn
    return wrapper


@register_meta(vision.roi_pool.default)
def meta_roi_pool(input, rois, spatial_scale, pooled_h, pooled_w):
    from opyard._prims_common import check

    check(rois.size(1) == 5, lambda: "rois must have shape as Tensor[K, 5]")
    check(input.dtype == rois.dtype, lambda: (
        "Expected tensor for input to have the same type as tensor for rois; "
        f"but type {input.dtype} does not equal {rois.dtype}"))
    return input.new_empty((rois.size(0), input.size(1), pooled_h, pooled_w))


@torch.library.register_fake("compat_vision::nms")
def meta_nms(dets, scores, iou_threshold):
    torch._check(dets.dim() == 2, lambda: f"boxes should be a 2d tensor, got {dets.dim()}D")
    torch._check(dets.size(1) == 4, lambda: f"boxes should have 4 elements in dimension 1, got {dets.size(1)}")
    torch._check(scores.dim() == 1, lambda: f"scores should be a 1d tensor, got {scores.dim()}")
    ctx = torch._custom_ops.get_ctx()
    num_to_keep = ctx.create_unbacked_symint()
    return dets.new_empty(num_to_keep, dtype=torch.long)


def test_vision_meta_kernels_keyed_by_overload():
    with FakeTensorMode():
        out = vision.roi_pool(torch.empty(1, 3, 8, 8), torch.empty(4, 5), 0.5, 2, 2)
        assert tuple(out.shape) == (4, 3, 2, 2)
        with pytest.raises(RuntimeError, match=r"rois must have shape as Tensor\[K, 5\]"):
            vision.roi_pool(torch.empty(1, 3, 8, 8), torch.empty(4, 4), 0.5, 2, 2)
    assert vision.roi_pool.default.has_kernel_for_dispatch_key(torch._C.DispatchKey.Meta)


def test_vision_fake_nms_has_an_unbacked_size():
    with FakeTensorMode(shape_env=ShapeEnv(allow_dynamic_output_shape_ops=True)):
        with pytest.warns(FutureWarning, match="`create_unbacked_symint` is deprecated"):
            keep = vision.nms(torch.empty(10, 4), torch.empty(10), 0.5)
        (n,) = keep.shape
        assert isinstance(n, torch.SymInt) and str(n).startswith("u")
        assert n.value_range() == (2, None)  # the deprecated spelling's lower bound, as in torch
        assert keep.dtype == torch.long
        with pytest.raises(RuntimeError, match="boxes should have 4 elements in dimension 1, got 3"):
            vision.nms(torch.empty(10, 3), torch.empty(10), 0.5)
    keep = vision.nms(torch.rand(6, 4), torch.tensor([0.1, 0.9, 0.3, 0.8, 0.2, 0.7]), 0.5)
    assert keep.tolist() == [1, 3, 5]


# --- sparse-ops-style ----------------------------------------------------------------------------------

def impl_abstract(op_name, fn):
    # The helper registers a fake impl only where the C++ library brought no Meta kernel.
    if not torch._C._dispatch_has_kernel_for_dispatch_key(op_name, "Meta"):
        torch.library.impl_abstract(op_name)(fn)


_sparse = Library("compat_sparse", "DEF")
_sparse.define("complete_cumsum(Tensor t_in) -> Tensor")
_sparse.define("segment_sum(Tensor values, Tensor lengths) -> Tensor")
_sparse.impl("complete_cumsum", lambda t: torch.cat([torch.zeros(1, dtype=t.dtype), t.cumsum(0)]), "CPU")
_sparse.impl("segment_sum", lambda v, lengths: torch.zeros(lengths.shape[0], dtype=v.dtype), "Meta")


def complete_cumsum_abstract(t_in):
    torch._check(t_in.dim() == 1, lambda: f"expected a 1D tensor, got {t_in.dim()}D")
    return t_in.new_empty(t_in.shape[0] + 1)


def segment_sum_abstract(values, lengths):
    raise AssertionError("the library's own Meta kernel must be kept")


def test_impl_abstract_warns_forwards_and_respects_existing_meta_kernels():
    with pytest.warns(FutureWarning, match="`opyard.library.impl_abstract` was renamed to "
                                           "`opyard.library.register_fake`"):
        impl_abstract("compat_sparse::complete_cumsum", complete_cumsum_abstract)
    impl_abstract("compat_sparse::segment_sum", segment_sum_abstract)  # skipped: has Meta
    assert torch._C._dispatch_has_kernel_for_dispatch_key("compat_sparse::complete_cumsum", "Meta")
    with FakeTensorMode():
        assert tuple(torch.ops.compat_sparse.complete_cumsum(torch.empty(5)).shape) == (6,)
        assert tuple(torch.ops.compat_sparse.segment_sum(torch.empty(9), torch.empty(3)).shape) == (3,)
        with pytest.raises(RuntimeError, match="expected a 1D tensor, got 2D"):
            torch.ops.compat_sparse.complete_cumsum(torch.empty(2, 2))
    assert torch.ops.compat_sparse.complete_cumsum(torch.tensor([1, 2, 3])).tolist() == [0, 1, 3, 6]


def test_legacy_custom_ops_api_declare_impl_fake_destroy():
    torch._custom_ops.custom_op("compat_legacy::jagged_sum", "(Tensor values, int n) -> Tensor")
    try:
        @torch._custom_ops.impl("compat_legacy::jagged_sum", device_types="cpu")
        def jagged_sum_cpu(values, n):
            return values.view(n, -1).sum(dim=1)

        @torch._custom_ops.impl_abstract("compat_legacy::jagged_sum")
        def jagged_sum_fake(values, n):
            torch._check(values.numel() % n == 0, lambda: f"{values.numel()} values do not split into {n} rows")
            return values.new_empty(n)

        op = torch.ops.compat_legacy.jagged_sum
        assert op(torch.arange(6.0), 2).tolist() == [3.0, 12.0]
        with FakeTensorMode():
            assert tuple(op(torch.empty(6), 3).shape) == (3,)
            with pytest.raises(RuntimeError, match="7 values do not split into 2 rows"):
                op(torch.empty(7), 2)
    finally:
        torch._custom_ops._destroy("compat_legacy::jagged_sum")
    with pytest.raises(AttributeError, match="no operator compat_legacy::jagged_sum is defined"):
        torch.ops.compat_legacy.jagged_sum
    assert "compat_legacy::jagged_sum" not in torch.library.find_dangling_impls()


def test_legacy_custom_op_declared_from_a_signature():
    @torch._custom_ops.custom_op("compat_legacy::scale")
    def scale(x: torch.Tensor, k: float) -> torch.Tensor:
        raise NotImplementedError  # a declaration: the body is not a kernel
    try:
        torch._custom_ops.impl("compat_legacy::scale", func=lambda x, k: x * k)  # cpu and cuda
        assert str(torch.ops.compat_legacy.scale.default._schema) == "compat_legacy::scale(Tensor x, float k) -> Tensor"
        assert torch.ops.compat_legacy.scale(torch.ones(2), 3.0).tolist() == [3.0, 3.0]
        assert torch.ops.compat_legacy.scale.default.has_kernel_for_dispatch_key("CUDA")
    finally:
        torch._custom_ops._destroy("compat_legacy::scale")


@pytest.mark.parametrize("qualname, fn, exc, match", [
    ("compat_legacy::other", lambda x: x, ValueError, "expected `func` to have name 'other' but got '<lambda>'"),
    ("compat_legacy::f", len, ValueError, "Expected `func` to be a Python function"),
    ("compat_legacy", None, ValueError, "expected a name like"),
])
def test_legacy_custom_op_errors(qualname, fn, exc, match):
    with pytest.raises(exc, match=match):
        torch._custom_ops.custom_op(qualname, fn) if fn is not None else torch._custom_ops.custom_op(qualname, "(Tensor x) -> Tensor")


def test_legacy_destroy_of_an_unknown_op():
    with pytest.raises(RuntimeError, match=r"_destroy\('compat_legacy::ghost'\): no operator of that name"):
        torch._custom_ops._destroy("compat_legacy::ghost")


# --- inference-engine-style ----------------------------------------------------------------------------

engine_lib = Library("compat_engine", "FRAGMENT")


def direct_register_custom_op(op_name, op_func, mutates_args=None, fake_impl=None, target_lib=None,
                              dispatch_key="CPU", tags=()):
    schema_str = infer_schema(op_func, mutates_args=mutates_args or [])
    my_lib = target_lib or engine_lib
    my_lib.define(op_name + schema_str, tags=tags)
    my_lib.impl(op_name, op_func, dispatch_key=dispatch_key)
    if fake_impl is not None:
        my_lib._register_fake(op_name, fake_impl)


def silu_and_mul(out: torch.Tensor, x: torch.Tensor) -> None:
    d = x.shape[-1] // 2
    gate, up = x[..., :d], x[..., d:]
    out.copy_(gate * gate.sigmoid() * up)


def silu_and_mul_fake(out: torch.Tensor, x: torch.Tensor) -> None:
    torch._check(out.shape[-1] * 2 == x.shape[-1], lambda: "out must be half as wide as x")


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    return x * (x.pow(2).mean(dim=-1, keepdim=True) + eps).rsqrt() * weight


direct_register_custom_op("silu_and_mul", silu_and_mul, mutates_args=["out"], fake_impl=silu_and_mul_fake,
                          tags=(torch._C.Tag.needs_fixed_stride_order,))
direct_register_custom_op("rms_norm", rms_norm, fake_impl=lambda x, weight, eps: torch.empty_like(x),
                          dispatch_key="default")


def test_direct_registration_schema_tags_and_call():
    op = torch.ops.compat_engine.silu_and_mul.default
    assert str(op._schema) == "compat_engine::silu_and_mul(Tensor(a0!) out, Tensor x) -> ()"
    assert op.tags == [torch.Tag.needs_fixed_stride_order]
    x = torch.tensor([[1.0, 2.0, 3.0, 4.0]])
    out = torch.empty(1, 2)
    assert torch.ops.compat_engine.silu_and_mul(out, x) is None
    expected = torch.tensor([1.0, 2.0]) * torch.tensor([1.0, 2.0]).sigmoid() * torch.tensor([3.0, 4.0])
    assert torch.allclose(out[0], expected)


def test_direct_registration_fake_impls_through_library_register_fake():
    with FakeTensorMode():
        torch.ops.compat_engine.silu_and_mul(torch.empty(3, 4), torch.empty(3, 8))
        with pytest.raises(RuntimeError, match="out must be half as wide as x"):
            torch.ops.compat_engine.silu_and_mul(torch.empty(3, 3), torch.empty(3, 8))
        y = torch.ops.compat_engine.rms_norm(torch.empty(2, 8), torch.empty(8), 1e-6)
        assert tuple(y.shape) == (2, 8)
    assert torch.ops.compat_engine.rms_norm.default.has_kernel_for_dispatch_key("CompositeExplicitAutograd")
    assert torch.ops.compat_engine.rms_norm.default.has_kernel_for_dispatch_key("Meta")


def test_register_fake_on_an_undefined_name_names_it():
    with pytest.raises(RuntimeError, match="no operator named 'compat_engine::nope' is defined"):
        engine_lib._register_fake("nope", lambda x: x)


def test_version_gate_written_for_torch_ports_to_torch_api():
    registered = []
    if torch.version.torch_api >= "2.4":
        registered.append("register_fake path")
    assert registered == ["register_fake path"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        legacy_gate = torch.__version__ >= "2.3.99"  # the unported gate: False, and says so
    assert legacy_gate is False
    assert any("looks like a torch version gate" in str(w.message) for w in caught)
