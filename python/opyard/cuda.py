"""``opyard.cuda``: CUDA tensors are served by cupy when it is installed."""

__all__ = ["is_available", "device_count", "to_device_array"]


def _cupy():
    try:
        import cupy
    except ImportError:
        return None
    try:
        return cupy if cupy.cuda.runtime.getDeviceCount() > 0 else None
    except Exception:  # no driver or no device: treated as unavailable
        return None


def is_available():
    """True when cupy and a CUDA device are usable."""
    return _cupy() is not None


def device_count():
    cp = _cupy()
    return 0 if cp is None else cp.cuda.runtime.getDeviceCount()


def _require():
    if not is_available():
        raise RuntimeError(
            "opyard: CUDA is not available: install cupy and a CUDA driver to create cuda tensors "
            "(opyard.cuda.is_available() is False)"
        )


def to_device_array(arr, dev):
    """``arr`` (numpy) copied to the CUDA device ``dev`` as a cupy array."""
    _require()
    cp = _cupy()
    with cp.cuda.Device(dev.index or 0):
        return cp.asarray(arr)
