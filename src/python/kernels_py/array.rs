//! numpy arrays seen from the Rust kernels: which arrays the fast path reads
//! (`ArrayRef::read`) and fresh C-contiguous results (`alloc`), through
//! numpy's C API (no Python call).

use numpy::npyffi::{self, NpyTypes, NPY_TYPES, PY_ARRAY_API};
use pyo3::ffi;
use pyo3::prelude::*;
use std::marker::PhantomData;
use std::os::raw::c_int;

/// Element types of the fast path (others fall back to the Python kernel).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dt {
    F32,
    F64,
    I32,
    I64,
}

impl Dt {
    /// numpy's type number for this dtype (int64 is `long` where that is 64 bits).
    fn type_num(self) -> c_int {
        match self {
            Dt::F32 => NPY_TYPES::NPY_FLOAT as c_int,
            Dt::F64 => NPY_TYPES::NPY_DOUBLE as c_int,
            Dt::I32 => NPY_TYPES::NPY_INT as c_int,
            Dt::I64 if std::mem::size_of::<std::os::raw::c_long>() == 8 => {
                NPY_TYPES::NPY_LONG as c_int
            }
            Dt::I64 => NPY_TYPES::NPY_LONGLONG as c_int,
        }
    }

    pub(super) fn itemsize(self) -> usize {
        match self {
            Dt::F32 | Dt::I32 => 4,
            Dt::F64 | Dt::I64 => 8,
        }
    }

    pub(super) fn from_type_num(n: c_int) -> Option<Dt> {
        [Dt::F32, Dt::F64, Dt::I32, Dt::I64]
            .into_iter()
            .find(|d| d.type_num() == n)
    }
}

/// The most dimensions a fast-path array may have (numpy allows 64).
pub const MAX_DIMS: usize = 16;

/// `obj` as an exact ndarray (no subclass) of a fast-path dtype in native
/// byte order with every bit of `flags` set and at most `MAX_DIMS`
/// dimensions: the array struct, its dtype and its dimension count.
pub(super) fn fast_array<'a>(
    obj: &'a Bound<'_, PyAny>,
    flags: c_int,
) -> Option<(&'a npyffi::PyArrayObject, Dt, usize)> {
    let ptr = obj.as_ptr();
    // SAFETY: the GIL is held (`obj`); PY_ARRAY_API imports numpy's API
    // table once, and the type object it returns lives as long as numpy.
    let array_type = unsafe { PY_ARRAY_API.get_type_object(obj.py(), NpyTypes::PyArray_Type) };
    // SAFETY: `ptr` is a live object (borrowed by `obj`).
    if unsafe { ffi::Py_TYPE(ptr) } != array_type {
        return None;
    }
    // SAFETY: the exact type is ndarray, so `ptr` points to a PyArrayObject,
    // whose `descr` is never null; both outlive the borrow of `obj`.
    let (arr, descr) = unsafe {
        let arr = &*(ptr as *const npyffi::PyArrayObject);
        (arr, &*arr.descr)
    };
    let swapped = if cfg!(target_endian = "little") {
        b'>'
    } else {
        b'<'
    };
    if arr.flags & flags != flags || descr.byteorder as u8 == swapped {
        return None;
    }
    let dt = Dt::from_type_num(descr.type_num)?;
    let nd = usize::try_from(arr.nd).ok().filter(|&n| n <= MAX_DIMS)?;
    Some((arr, dt, nd))
}

/// A C-contiguous, aligned, native-order numpy array of a fast-path dtype,
/// borrowed for the duration of one kernel call.
pub struct ArrayRef<'a, 'py> {
    /// Ties the borrow to the array object, which keeps the buffer alive.
    _obj: PhantomData<&'a Bound<'py, PyAny>>,
    pub dt: Dt,
    data: *const u8,
    dims: &'a [ffi::Py_ssize_t],
    pub len: usize,
    writeable: bool,
}

impl<'a, 'py> ArrayRef<'a, 'py> {
    /// `obj` as a fast-path array, or `None` (another type, a subclass of
    /// ndarray, a strided or byte-swapped or misaligned array, another dtype).
    pub fn read(obj: &'a Bound<'py, PyAny>) -> Option<Self> {
        let wanted = npyffi::NPY_ARRAY_C_CONTIGUOUS | npyffi::NPY_ARRAY_ALIGNED;
        let (arr, dt, nd) = fast_array(obj, wanted)?;
        let dims: &[ffi::Py_ssize_t] = if nd == 0 {
            &[]
        } else {
            // SAFETY: an ndarray's `dimensions` holds `nd` sizes, alive as long as it.
            unsafe { std::slice::from_raw_parts(arr.dimensions, nd) }
        };
        let len = dims.iter().map(|&d| d as usize).product();
        Some(ArrayRef {
            _obj: PhantomData,
            dt,
            data: arr.data as *const u8,
            dims,
            len,
            writeable: arr.flags & npyffi::NPY_ARRAY_WRITEABLE != 0,
        })
    }

    pub fn dims(&self) -> &'a [ffi::Py_ssize_t] {
        self.dims
    }

    pub fn writeable(&self) -> bool {
        self.writeable
    }

    /// The bytes `[start, end)` of the buffer.
    pub fn byte_range(&self) -> (usize, usize) {
        let start = self.data as usize;
        (start, start + self.len * self.dt.itemsize())
    }

    /// Whether the two arrays' buffers share any byte.
    pub fn overlaps(&self, other: &ArrayRef<'_, '_>) -> bool {
        let end = |a: &ArrayRef<'_, '_>| a.data as usize + a.len * a.dt.itemsize();
        (self.data as usize) < end(other) && (other.data as usize) < end(self)
    }

    /// The elements as a mutable `T` slice, for an in-place kernel.
    ///
    /// # Safety
    /// `T` must match `self.dt`, the array must be writeable, and no other
    /// slice of its memory may be alive while this one is (see `overlaps`).
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn slice_mut<T>(&self) -> &'a mut [T] {
        if self.len == 0 {
            return &mut [];
        }
        std::slice::from_raw_parts_mut(self.data as *mut T, self.len)
    }

    /// The elements, as `T` (which must be this array's element type).
    ///
    /// # Safety
    /// `T` must match `self.dt`. The returned slice aliases the array's memory:
    /// numpy code in another thread writing to it at the same time would race
    /// with this read, exactly as it would with numpy's own loops (the GIL is
    /// held here, so no Python code runs meanwhile).
    pub unsafe fn slice<T>(&self) -> &'a [T] {
        if self.len == 0 {
            return &[];
        }
        // SAFETY (for the caller's contract above): the array is C-contiguous
        // and aligned with `len` elements of `T` at `data` (checked in `read`).
        std::slice::from_raw_parts(self.data as *const T, self.len)
    }
}

/// A new C-contiguous array of `dt` with shape `dims` and its data pointer
/// (uninitialized memory: the caller writes every element before the array
/// is seen by Python).
pub fn alloc<'py>(
    py: Python<'py>,
    dt: Dt,
    dims: &[ffi::Py_ssize_t],
) -> PyResult<(Bound<'py, PyAny>, *mut u8)> {
    debug_assert!(dims.len() <= MAX_DIMS);
    // SAFETY: the GIL is held. `PyArray_DescrFromType` returns a new reference
    // to a builtin descr, which `PyArray_NewFromDescr` steals; `dims` holds
    // `dims.len()` (≤ MAX_DIMS, from an `ArrayRef`) sizes, which numpy only
    // reads and copies (its `npy_intp` is `Py_ssize_t`; the `*mut` of the C
    // signature is historical). Null strides and data ask numpy for a fresh
    // C-contiguous buffer.
    unsafe {
        let array_type = PY_ARRAY_API.get_type_object(py, NpyTypes::PyArray_Type);
        let descr = PY_ARRAY_API.PyArray_DescrFromType(py, dt.type_num());
        if descr.is_null() {
            return Err(PyErr::fetch(py));
        }
        let obj = PY_ARRAY_API.PyArray_NewFromDescr(
            py,
            array_type,
            descr,
            dims.len() as c_int,
            dims.as_ptr() as *mut npyffi::npy_intp,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            0,
            std::ptr::null_mut(),
        );
        let obj = Bound::from_owned_ptr_or_err(py, obj)?;
        let data = (*(obj.as_ptr() as *const npyffi::PyArrayObject)).data as *mut u8;
        Ok((obj, data))
    }
}

/// The `len` elements of a fresh array from [`alloc`] as a mutable `T` slice.
///
/// # Safety
/// `data` must come from `alloc` with `T` matching its dtype and `len` its
/// element count, and the array must not yet be visible to any other code.
pub unsafe fn out_slice<'o, T>(data: *mut u8, len: usize) -> &'o mut [T] {
    if len == 0 {
        return &mut [];
    }
    std::slice::from_raw_parts_mut(data as *mut T, len)
}

/// The header of any exact numpy array (any dtype, any strides), for views.
pub struct Header<'a> {
    arr: &'a npyffi::PyArrayObject,
}

impl<'a> Header<'a> {
    /// `obj`'s header when its type is exactly `numpy.ndarray`.
    pub fn read(obj: &'a Bound<'_, PyAny>) -> Option<Self> {
        // SAFETY: as in `ArrayRef::read`: GIL held, numpy's type object, live `obj`.
        let array_type = unsafe { PY_ARRAY_API.get_type_object(obj.py(), NpyTypes::PyArray_Type) };
        if unsafe { ffi::Py_TYPE(obj.as_ptr()) } != array_type {
            return None;
        }
        // SAFETY: an exact ndarray starts with `PyArrayObject`; it outlives `'a`.
        let arr = unsafe { &*(obj.as_ptr() as *const npyffi::PyArrayObject) };
        (0..=MAX_DIMS as c_int)
            .contains(&arr.nd)
            .then_some(Header { arr })
    }

    fn dims_and_strides(&self) -> (&'a [ffi::Py_ssize_t], &'a [ffi::Py_ssize_t]) {
        let nd = self.arr.nd as usize;
        if nd == 0 {
            return (&[], &[]);
        }
        // SAFETY: numpy keeps `nd` sizes and strides alive with the array.
        unsafe {
            (
                std::slice::from_raw_parts(self.arr.dimensions, nd),
                std::slice::from_raw_parts(self.arr.strides, nd),
            )
        }
    }

    pub fn dims(&self) -> &'a [ffi::Py_ssize_t] {
        self.dims_and_strides().0
    }

    pub fn strides(&self) -> &'a [ffi::Py_ssize_t] {
        self.dims_and_strides().1
    }
}

/// `src[...]` for an exact ndarray `src` (see [`Header`]): a view of all of
/// it with its dtype, shape, strides and writeability, `src` as its base.
pub fn whole_view<'py>(src: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = src.py();
    // SAFETY: GIL held; `src` is an exact ndarray (the caller read its
    // `Header`). `PyArray_View` with NULL dtype and type keeps both, takes
    // its own reference to `src` as the view's base and returns a new
    // reference or NULL with an exception set.
    unsafe {
        let view = PY_ARRAY_API.PyArray_View(
            py,
            src.as_ptr() as *mut npyffi::PyArrayObject,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        );
        Bound::from_owned_ptr_or_err(py, view)
    }
}

/// A read-only view of `src` (an exact ndarray, see [`Header`]) with shape
/// `dims` and byte strides `strides`, keeping `src` alive as its base: what
/// `np.broadcast_to` returns. The caller guarantees every index of the view
/// addresses an element of `src` (broadcast dimensions have stride 0).
pub fn strided_view<'py>(
    src: &Bound<'py, PyAny>,
    dims: &[ffi::Py_ssize_t],
    strides: &[ffi::Py_ssize_t],
) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: the caller's guarantee above; offset 0 is `src`'s first byte.
    unsafe { view_of(src, dims, strides, 0, false) }
}

/// A view of `src` (an exact ndarray) with shape `dims`, byte strides
/// `strides`, starting `offset` bytes into `src`'s data, writeable only when
/// `writeable` and `src` is; `src` is kept alive as its base.
///
/// # Safety
/// `src` is an exact ndarray (the caller read its [`Header`]), and every
/// index of the view addresses an element of `src` (`offset` inside its
/// buffer, or the start of an empty view as numpy's own slicing makes).
pub unsafe fn view_of<'py>(
    src: &Bound<'py, PyAny>,
    dims: &[ffi::Py_ssize_t],
    strides: &[ffi::Py_ssize_t],
    offset: isize,
    writeable: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let py = src.py();
    let mut shape = [0 as npyffi::npy_intp; MAX_DIMS];
    let mut steps = [0 as npyffi::npy_intp; MAX_DIMS];
    shape[..dims.len()].copy_from_slice(dims);
    steps[..strides.len()].copy_from_slice(strides);
    // SAFETY: GIL held; by the contract `descr` and `data + offset` are
    // valid; `PyArray_NewFromDescr` steals the descr reference we add,
    // copies `shape`/`steps` and computes the contiguity and alignment flags
    // (flags 0 make the view read-only, as `np.broadcast_to`'s).
    // `PyArray_SetBaseObject` steals the reference to `src` we add, which
    // keeps the memory alive.
    let arr = &*(src.as_ptr() as *const npyffi::PyArrayObject);
    let array_type = PY_ARRAY_API.get_type_object(py, NpyTypes::PyArray_Type);
    ffi::Py_INCREF(arr.descr as *mut ffi::PyObject);
    let flags = if writeable {
        arr.flags & npyffi::NPY_ARRAY_WRITEABLE
    } else {
        0
    };
    let view = PY_ARRAY_API.PyArray_NewFromDescr(
        py,
        array_type,
        arr.descr,
        dims.len() as c_int,
        shape.as_mut_ptr(),
        steps.as_mut_ptr(),
        arr.data.offset(offset) as *mut std::ffi::c_void,
        flags,
        std::ptr::null_mut(),
    );
    let view = Bound::from_owned_ptr_or_err(py, view)?;
    ffi::Py_INCREF(src.as_ptr());
    let rc = PY_ARRAY_API.PyArray_SetBaseObject(
        py,
        view.as_ptr() as *mut npyffi::PyArrayObject,
        src.as_ptr(),
    );
    if rc < 0 {
        return Err(PyErr::fetch(py));
    }
    Ok(view)
}
