"""Memory formats (``opyard.contiguous_format``, ``preserve_format``, ``channels_last``,
``channels_last_3d``) and torch's stride rules for them."""

__all__ = [
    "channels_last",
    "channels_last_3d",
    "check_memory_format_rank",
    "contiguous_format",
    "is_memory_format_strides",
    "is_strides_like_format",
    "memory_format",
    "memory_format_permutation",
    "preserve_format",
]


class memory_format:
    """A memory layout request (``opyard.contiguous_format``, ``opyard.preserve_format``)."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"opyard.{self.name}"


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
# A `MemoryFormat` argument also takes an int, torch's code of a format: its position here (torch's enum order).
MEMORY_FORMATS = (contiguous_format, preserve_format, channels_last, channels_last_3d)

# channels_last (NCHW stored as NHWC) and channels_last_3d (NCDHW as NDHWC): the order in which
# dimensions vary fastest, innermost first (torch's compute_channels_last_contiguous_{2,3}d).
_FASTEST_FIRST = {"channels_last": (1, 3, 2, 0), "channels_last_3d": (1, 4, 3, 2, 0)}


def check_memory_format_rank(fmt, ndim):
    """torch refuses channels_last for tensors of another rank."""
    order = _FASTEST_FIRST.get(fmt.name)
    if order is not None and ndim != len(order):
        raise RuntimeError(f"required rank {len(order)} tensor to use {fmt.name} format")


def memory_format_permutation(fmt, ndim):
    """The axes order (outermost first) that lays a C-contiguous buffer out in ``fmt``."""
    order = _FASTEST_FIRST.get(getattr(fmt, "name", ""))
    if order is None or ndim != len(order):
        return None
    return tuple(reversed(order))


def is_strides_like_format(shape, strides, fmt):
    """torch's ``is_channels_last_strides_{2,3}d``: the strides *look* like ``fmt`` (what
    ``suggest_memory_format`` and ``to(memory_format=)`` decide by); stricter than
    ``is_contiguous(memory_format=)`` for size-1 dimensions."""
    order = _FASTEST_FIRST.get(fmt.name)
    if order is None or len(shape) != len(order) or strides[1] == 0:
        return False
    low = 0
    for d in order:
        if shape[d] == 0 or strides[d] < low:
            return False
        if d == 0 and low == strides[1]:  # N111 tensors are ambiguous: not channels_last
            return False
        low = strides[d] * max(shape[d], 1)
    return True


def is_memory_format_strides(shape, strides, fmt):
    """Whether ``strides`` are channels_last(_3d)-contiguous for ``shape`` (size-1 dimensions are free)."""
    order = _FASTEST_FIRST[fmt.name]
    if len(shape) != len(order):
        return False
    expected = 1
    for d in order:
        if shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= shape[d]
    return True
