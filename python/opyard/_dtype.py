"""opyard dtypes: torch's names and ScalarType codes over numpy dtypes, and
torch's type-promotion rules (which differ from numpy's: categories first,
and Python scalars are weaker than tensors)."""

import builtins

import numpy as np

__all__ = [
    "dtype", "float16", "half", "float32", "float", "float64", "double", "int8", "int16", "short",
    "int32", "int", "int64", "long", "uint8", "bool", "complex64", "cfloat", "complex128",
    "cdouble", "promote_types", "result_type", "get_default_dtype", "set_default_dtype",
]


class dtype:
    """A tensor element type (``opyard.float32``, ...)."""

    __slots__ = ("name", "np", "_code", "is_floating_point", "is_complex", "is_signed", "itemsize", "_cat")

    def __init__(self, name, np_dtype, code, cat, itemsize=None):
        self.name = name
        self._code = code
        self._cat = cat  # 0 bool, 1 integer, 2 floating, 3 complex
        self.is_floating_point = cat == 2
        self.is_complex = cat == 3
        if np_dtype is None:  # an extended dtype: see Note [Extended dtypes on first use]
            self.is_signed = True
            self.itemsize = itemsize
            return
        self.np = np.dtype(np_dtype)
        self.is_signed = self.np.kind != "u" and cat != 0
        self.itemsize = self.np.itemsize

    def __getattr__(self, name):
        # Reached only for an unset slot: ``np`` of an extended dtype before ml_dtypes loads.
        if name == "np" and name not in _LOADING:
            load_extended()
            return self.np
        raise AttributeError(f"'opyard.dtype' object has no attribute '{name}'")

    def __repr__(self):
        return f"opyard.{self.name}"

    def __reduce__(self):
        return (_by_name, (self.name,))

    def to_complex(self):
        return complex128 if self is float64 else complex64

    def to_real(self):
        return float64 if self is complex128 else float32


uint8 = dtype("uint8", np.uint8, 0, 1)
int8 = dtype("int8", np.int8, 1, 1)
int16 = short = dtype("int16", np.int16, 2, 1)
int32 = dtype("int32", np.int32, 3, 1)
int64 = long = dtype("int64", np.int64, 4, 1)
float16 = half = dtype("float16", np.float16, 5, 2)
float32 = dtype("float32", np.float32, 6, 2)
float64 = double = dtype("float64", np.float64, 7, 2)
complex64 = cfloat = dtype("complex64", np.complex64, 9, 3)
complex128 = cdouble = dtype("complex128", np.complex128, 10, 3)
bool = dtype("bool", np.bool_, 11, 0)  # noqa: A001 (torch.bool)
int = int32  # noqa: A001 (torch.int)
float = float32  # noqa: A001 (torch.float)

ALL = (uint8, int8, int16, int32, int64, float16, float32, float64, complex64, complex128, bool)


# Note [Extended dtypes on first use]: bfloat16 and the float8 formats are ml_dtypes' numpy types,
# and importing ml_dtypes costs about a tenth of ``import numpy``. Their opyard dtypes exist from
# the start (names, codes, promotion need no numpy type); ``dtype.np`` of one of them, or a lookup
# of a numpy dtype opyard does not know yet, imports ml_dtypes (``load_extended``), which also adds
# them to every table keyed by numpy dtype (``by_np``). A bfloat16 numpy array can only exist once
# ml_dtypes is imported, and it reaches opyard through ``from_np`` / ``FROM_NP``, which load it.
_TABLES = []  # (table, make): dicts {numpy dtype: make(dtype)} kept complete by load_extended
_LOADING = set()  # "np" while load_extended runs: __getattr__ must not recurse
_EXTENDED = []  # the extended dtypes (filled below)
_ml = None  # the ml_dtypes module, once loaded


def by_np(make, table=None):
    """``{d.np: make(d)}`` over every dtype, the extended ones included from when ml_dtypes loads.

    See Note [Extended dtypes on first use]. ``table`` (a dict, or a set when ``make`` returns
    None for dtypes to leave out) is filled and returned."""
    table = {} if table is None else table
    _TABLES.append((table, make))
    _fill(table, make, [d for d in ALL if _ml is not None or d not in _EXTENDED])
    return table


def _fill(table, make, dtypes):
    for d in dtypes:
        if isinstance(table, set):
            if make(d):
                table.add(d.np)
        else:
            table[d.np] = make(d)


def load_extended():
    """Import ml_dtypes (once) and give the extended dtypes their numpy types; returns ml_dtypes."""
    global _ml
    if _ml is None:
        import ml_dtypes
        _LOADING.add("np")
        try:
            for d in _EXTENDED:
                d.np = np.dtype(getattr(ml_dtypes, d.name))
        finally:
            _LOADING.discard("np")
        _ml = ml_dtypes
        for table, make in _TABLES:
            _fill(table, make, _EXTENDED)
    return _ml


class _FromNp(dict):
    """``FROM_NP``: a numpy dtype not known yet may be an extended one (load ml_dtypes, look again)."""

    __slots__ = ()

    def __missing__(self, key):
        if _ml is None:
            load_extended()
            return self[key]
        raise KeyError(key)


FROM_NP = by_np(lambda d: d, _FromNp())
FROM_CODE = {d._code: d for d in ALL}
_NAMES = {d.name: d for d in ALL}


def _by_name(name):
    return _NAMES[name]


def from_np(np_dtype):
    """The opyard dtype of a numpy dtype (raises for unsupported ones)."""
    d = FROM_NP.get(np_dtype)
    if d is None:
        if _ml is None:  # perhaps an extended type (Note [Extended dtypes on first use])
            load_extended()
        d = FROM_NP.get(np.dtype(np_dtype))
        if d is None:
            raise TypeError(f"numpy dtype {np_dtype} has no opyard equivalent; supported: "
                            f"{', '.join(x.name for x in ALL)}")
    return d


class _Default:
    value = float32


def get_default_dtype():
    """The dtype of tensors made from Python floats (``float32`` unless changed)."""
    return _Default.value


def set_default_dtype(d):
    """Set the default floating dtype (``float32`` or ``float64``)."""
    if not isinstance(d, dtype) or not d.is_floating_point:
        # Quote a dtype, name any other type (its repr could be huge).
        got = repr(d) if isinstance(d, dtype) else type(d).__name__
        raise TypeError(f"set_default_dtype: expected a floating dtype, got {got} (only "
                        f"floating-point types are supported as the default type)")
    _Default.value = d


def expect_dtype(value, api, arg, position=None, optional=True):
    """Raise torch's ``TypeError`` unless ``value`` is a dtype (or ``None`` for an optional one)."""
    if isinstance(value, dtype) or (optional and value is None):
        return
    where = "" if position is None else f" (position {position})"
    raise TypeError(f"{api}(): argument '{arg}'{where} must be opyard.dtype, "
                    f"not {type(value).__name__}")


def promote_types(a, b):
    """torch.promote_types: the smallest dtype both ``a`` and ``b`` convert to safely."""
    if not (isinstance(a, dtype) and isinstance(b, dtype)):
        expect_dtype(a, "promote_types", "type1", 1, optional=False)
        expect_dtype(b, "promote_types", "type2", 2, optional=False)
    if a is b:
        return a
    if a in _NO_IMPLICIT or b in _NO_IMPLICIT or a is bfloat16 or b is bfloat16:
        return _promote_ext(a, b)
    if a._cat != b._cat:
        hi, lo = (a, b) if a._cat > b._cat else (b, a)
        if hi.is_complex and lo is float64:
            return complex128
        return hi
    return from_np(np.promote_types(a.np, b.np))


def _scalar_cat(v):
    if isinstance(v, builtins.bool):
        return 0
    if isinstance(v, builtins.int):
        return 1
    if isinstance(v, builtins.float):
        return 2
    if isinstance(v, builtins.complex):
        return 3
    raise TypeError(f"expected a Python number, got {type(v).__name__}")


def scalar_dtype(v):
    """The dtype a Python number gets on its own (``tensor(v)``)."""
    return (bool, int64, get_default_dtype(), complex64 if get_default_dtype() is float32 else complex128)[_scalar_cat(v)]


def result_type(tensor_dtypes, scalars=()):
    """torch's result type: tensors' promoted dtype, raised to a scalar's category if higher."""
    out = tensor_dtypes[0]
    for d in tensor_dtypes[1:]:
        out = promote_types(out, d)
    for s in scalars:
        cat = _scalar_cat(s)
        if cat > out._cat:
            if cat == 3:
                out = complex128 if out is float64 else scalar_dtype(s) if out._cat < 2 else out.to_complex()
            else:
                out = scalar_dtype(s)
    return out


def wrapped_scalar_dtype(v):
    """The dtype a Python number takes part in promotion with: bool, int64, the default float or
    the default complex (ATen's wrapped numbers)."""
    return scalar_dtype(v)


def combine_categories(higher, lower):
    """ATen's ``combine_categories``: ``lower`` (a weaker group: zero-dim tensors or wrapped numbers)
    changes ``higher`` only when it is of a higher category. ``None`` is an empty group.
    (torch's complex32 for float16 + complex does not exist here: complex64 stands in.)"""
    if higher is None:
        return lower
    if lower is None:
        return higher
    if higher.is_complex:
        return higher
    if lower.is_complex:
        return higher.to_complex() if higher.is_floating_point else lower
    if higher.is_floating_point:
        return higher
    if higher is bool or lower.is_floating_point:
        return promote_types(higher, lower)
    return higher


# --- extended dtypes (begin) ---
# bfloat16 and the float8 formats come from ml_dtypes (numpy has none); uint16/32/64 are numpy's.
# Codes are torch's ScalarType numbers, so schema defaults (``ScalarType? dtype=bfloat16``) and
# the binder's code -> dtype conversion resolve to them.
# Their numpy types come with ml_dtypes, on first use: see Note [Extended dtypes on first use].
bfloat16 = dtype("bfloat16", None, 15, 2, itemsize=2)
float8_e5m2 = dtype("float8_e5m2", None, 23, 2, itemsize=1)
float8_e4m3fn = dtype("float8_e4m3fn", None, 24, 2, itemsize=1)
float8_e5m2fnuz = dtype("float8_e5m2fnuz", None, 25, 2, itemsize=1)
float8_e4m3fnuz = dtype("float8_e4m3fnuz", None, 26, 2, itemsize=1)
_EXTENDED.extend((bfloat16, float8_e5m2, float8_e4m3fn, float8_e5m2fnuz, float8_e4m3fnuz))
uint16 = dtype("uint16", np.uint16, 27, 1)
uint32 = dtype("uint32", np.uint32, 28, 1)
uint64 = dtype("uint64", np.uint64, 29, 1)

FLOAT8 = (float8_e5m2, float8_e4m3fn, float8_e5m2fnuz, float8_e4m3fnuz)
_BIG_UNSIGNED = (uint16, uint32, uint64)
# Types torch never promotes implicitly (promote_types raises unless both are the same).
_NO_IMPLICIT = frozenset(FLOAT8 + _BIG_UNSIGNED)

ALL = ALL + (bfloat16,) + FLOAT8 + _BIG_UNSIGNED
_fill(FROM_NP, lambda d: d, _BIG_UNSIGNED)
FROM_CODE.update({d._code: d for d in ALL})
_NAMES.update({d.name: d for d in ALL})
__all__ += ["bfloat16", "float8_e5m2", "float8_e4m3fn", "float8_e5m2fnuz", "float8_e4m3fnuz",
            "uint16", "uint32", "uint64", "finfo", "iinfo"]

# c10's ScalarType names: what torch's messages print (``Float``, ``BFloat16``, ...).
LEGACY_NAMES = {
    "uint8": "Byte", "int8": "Char", "int16": "Short", "int32": "Int", "int64": "Long",
    "float16": "Half", "float32": "Float", "float64": "Double", "complex64": "ComplexFloat",
    "complex128": "ComplexDouble", "bool": "Bool", "bfloat16": "BFloat16",
    "float8_e5m2": "Float8_e5m2", "float8_e4m3fn": "Float8_e4m3fn",
    "float8_e5m2fnuz": "Float8_e5m2fnuz", "float8_e4m3fnuz": "Float8_e4m3fnuz",
    "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64",
}


def legacy_name(d):
    """The name torch's messages give ``d`` (``Float`` for float32)."""
    return LEGACY_NAMES[d.name]


# The C++ element type names torch's checks print (``expected dtype float for `end` ...``).
C_TYPE_NAMES = {
    "float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
    "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
    "bool": "bool", "complex64": "c10::complex<float>", "complex128": "c10::complex<double>",
}


def c_type_name(d):
    """The C++ type name torch's checks print for ``d`` (``long int`` for int64)."""
    return C_TYPE_NAMES.get(d.name, d.name)


def _promote_ext(a, b):
    """torch's promotion for the types numpy's table does not know: float8 never promotes,
    uint16/32/64 only towards a floating type, and bfloat16 + float16 meet at float32."""
    if a in FLOAT8 or b in FLOAT8:
        raise RuntimeError(f"Promotion for Float8 Types is not supported, attempted to promote "
                           f"{legacy_name(a)} and {legacy_name(b)}")
    if a in _BIG_UNSIGNED or b in _BIG_UNSIGNED:
        other = b if a in _BIG_UNSIGNED else a
        if other.is_floating_point:
            return other
        raise RuntimeError(f"Promotion for uint16, uint32, uint64 types is not supported, attempted "
                           f"to promote {legacy_name(a)} and {legacy_name(b)}")
    other = b if a is bfloat16 else a
    if other._cat != 2:
        return bfloat16 if other._cat < 2 else (complex128 if other is complex128 else complex64)
    return float32 if other is float16 else other if other is not bfloat16 else bfloat16


class finfo:
    """Machine limits of a floating dtype (``torch.finfo``): ``bits``, ``eps``, ``max``, ``min``,
    ``tiny`` (= ``smallest_normal``), ``resolution``, ``dtype``."""

    def __init__(self, type=None):
        d = get_default_dtype() if type is None else type
        if not isinstance(d, dtype) or d._cat < 2:
            raise TypeError(f"torch.finfo() requires a floating point input type. Use torch.iinfo to "
                            f"handle '{d!r}'")
        info = load_extended().finfo(d.to_real().np if d.is_complex else d.np)
        self.bits = info.bits
        self.eps = builtins.float(info.eps)
        self.max = builtins.float(info.max)
        self.min = builtins.float(info.min)
        self.tiny = self.smallest_normal = builtins.float(info.smallest_normal)
        # torch's resolution is 10 ** -precision, precision = floor(-log10(eps)).
        self.resolution = 10.0 ** -builtins.int(-np.log10(self.eps))
        self.dtype = d.to_real().name if d.is_complex else d.name

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, "
                f"dtype={self.dtype})")


class iinfo:
    """Machine limits of an integral dtype (``torch.iinfo``): ``bits``, ``min``, ``max``, ``dtype``."""

    def __init__(self, type):
        if not isinstance(type, dtype) or type._cat > 1:
            raise TypeError(f"torch.iinfo() requires an integer input type. Use torch.finfo to handle "
                            f"'{type!r}'")
        info = np.iinfo(type.np) if type is not bool else None
        self.bits = type.itemsize * 8
        self.min = builtins.int(info.min) if info is not None else 0
        self.max = builtins.int(info.max) if info is not None else 1
        self.dtype = type.name

    def __repr__(self):
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype})"


def saturate_for(arr, d):
    """Values about to be cast to ``d``: torch's float8_e4m3fn conversion saturates finite and
    infinite values at +-448 (ml_dtypes would give NaN); other types convert as numpy does."""
    if d is float8_e4m3fn and arr.dtype.kind in "fiuV" and arr.dtype != d.np:
        return np.clip(arr.astype(np.float32), -448.0, 448.0)
    return arr
# --- extended dtypes (end) ---
