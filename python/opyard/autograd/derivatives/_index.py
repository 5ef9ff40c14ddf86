"""Which module of the derivative table holds each formula: the table loads a module when an
operator with a formula in it is first differentiated (Note [Formula modules on first use],
``__init__.py``). ``tests/autograd/test_derivative_index.py`` checks it against the modules and prints the
table to paste here when a row is added or moved."""

# module -> the overload names of its FORMULAS, sorted (a name in two modules is the later one's)
BY_MODULE = {
    "pointwise": (
        "aten::abs", "aten::add.Scalar", "aten::add.Tensor", "aten::clamp", "aten::cos", "aten::div.Scalar",
        "aten::div.Tensor", "aten::exp", "aten::expm1", "aten::log", "aten::log1p", "aten::max.other",
        "aten::maximum", "aten::min.other", "aten::minimum", "aten::mul.Scalar", "aten::mul.Tensor",
        "aten::neg", "aten::pow.Tensor_Scalar", "aten::pow.Tensor_Tensor", "aten::reciprocal", "aten::relu",
        "aten::rsqrt", "aten::rsub.Scalar", "aten::rsub.Tensor", "aten::sigmoid", "aten::sin", "aten::sqrt",
        "aten::square", "aten::sub.Scalar", "aten::sub.Tensor", "aten::tanh", "aten::where.self",
    ),
    "reductions": (
        "aten::_log_softmax", "aten::_softmax", "aten::addmm", "aten::amax", "aten::amin", "aten::bmm",
        "aten::dot", "aten::log_softmax.int", "aten::max.dim", "aten::mean", "aten::mean.dim",
        "aten::min.dim", "aten::mm", "aten::mv", "aten::softmax.int", "aten::std.correction", "aten::std.dim",
        "aten::sum", "aten::sum.dim_IntList", "aten::var.correction", "aten::var.dim",
    ),
    "views": (
        "aten::_reshape_alias", "aten::_to_copy", "aten::_unsafe_view", "aten::alias", "aten::cat",
        "aten::clone", "aten::expand", "aten::narrow", "aten::permute", "aten::reshape", "aten::select.int",
        "aten::slice.Tensor", "aten::squeeze", "aten::squeeze.dim", "aten::squeeze.dims", "aten::stack",
        "aten::t", "aten::transpose.int", "aten::unsqueeze", "aten::view",
    ),
    "indexing": (
        "aten::ceil", "aten::chunk", "aten::copy_", "aten::cumsum", "aten::diagonal", "aten::div.Scalar_mode",
        "aten::div.Tensor_mode", "aten::fill_.Scalar", "aten::floor", "aten::gather", "aten::index.Tensor",
        "aten::index_put", "aten::index_select", "aten::masked_fill.Scalar", "aten::masked_fill.Tensor",
        "aten::max", "aten::min", "aten::normal_", "aten::outer", "aten::pow.Scalar", "aten::round",
        "aten::scatter.src", "aten::scatter.value", "aten::sign", "aten::split.Tensor", "aten::unbind.int",
        "aten::uniform_", "aten::zero_",
    ),
    "nn": (
        "aten::constant_pad_nd", "aten::elu", "aten::erf", "aten::exp2", "aten::fmod.Scalar",
        "aten::fmod.Tensor", "aten::gelu", "aten::hardtanh", "aten::index_add", "aten::kthvalue",
        "aten::nan_to_num", "aten::roll", "aten::round.decimals", "aten::softplus", "aten::sort",
        "aten::sort.stable", "aten::split.sizes", "aten::split_with_sizes", "aten::topk",
    ),
    "math": (
        "aten::atan2", "aten::clamp.Tensor", "aten::clamp_max", "aten::clamp_min", "aten::copysign.Scalar",
        "aten::copysign.Tensor", "aten::flip", "aten::frac", "aten::heaviside", "aten::hypot",
        "aten::lerp.Scalar", "aten::lerp.Tensor", "aten::log10", "aten::log2", "aten::logaddexp",
        "aten::remainder.Scalar", "aten::remainder.Tensor", "aten::sgn", "aten::sinc", "aten::tan",
        "aten::tril", "aten::triu", "aten::trunc", "aten::where.ScalarOther", "aten::where.ScalarSelf",
        "aten::xlogy.Scalar_Other", "aten::xlogy.Scalar_Self", "aten::xlogy.Tensor",
    ),
    "reduce_more": (
        "aten::aminmax", "aten::as_strided", "aten::cummax", "aten::cummin", "aten::cumprod",
        "aten::masked_select", "aten::median", "aten::median.dim", "aten::mode", "aten::nanmean",
        "aten::nansum", "aten::prod", "aten::prod.dim_int",
    ),
    "linalg": (
        "aten::index_copy", "aten::index_fill.int_Scalar", "aten::index_fill.int_Tensor",
        "aten::linalg_cholesky", "aten::linalg_cross", "aten::linalg_det", "aten::linalg_eigh",
        "aten::linalg_inv", "aten::linalg_solve", "aten::movedim.int", "aten::scatter_add",
        "aten::scatter_reduce.two", "aten::trace", "aten::unfold",
    ),
    "decompositions": (
        "aten::linalg_qr", "aten::linalg_svd",
    ),
    "trig": (
        "aten::acos", "aten::acosh", "aten::asin", "aten::asinh", "aten::atan", "aten::atanh", "aten::cosh",
        "aten::deg2rad", "aten::fmax", "aten::fmin", "aten::logit", "aten::rad2deg", "aten::sinh",
    ),
}
