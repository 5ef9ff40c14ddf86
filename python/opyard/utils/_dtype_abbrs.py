"""``dtype_abbrs``: the short names of dtypes in logs and traces (``f32``, ``i64``, ``bf16``), as
torch's ``torch.utils._dtype_abbrs``."""

from .. import _dtype as D

__all__ = ["dtype_abbrs"]

_ABBRS = {
    "uint8": "u8", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "float16": "f16",
    "float32": "f32", "float64": "f64", "complex32": "c32", "complex64": "c64", "complex128": "c128",
    "bool": "b8", "bfloat16": "bf16", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "float8_e5m2": "f8e5m2", "float8_e4m3fn": "f8e4m3fn", "float8_e5m2fnuz": "f8e5m2fnuz",
    "float8_e4m3fnuz": "f8e4m3fnuz",
}

dtype_abbrs = {getattr(D, name): abbr for name, abbr in _ABBRS.items() if hasattr(D, name)}
