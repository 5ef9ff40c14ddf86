//! numpy arrays seen from the Rust kernels, through numpy's C API (no Python
//! call): which arrays the fast path reads (`ArrayRef::read`, typed slices of
//! their elements), fresh C-contiguous results (`alloc`), in-place updates
//! (`ArrayRef::update`), and views (`Header`, `view_of`, numpy's reshape and
//! squeeze).
//!
//! Note [Array memory from Rust]: a slice of an array's elements aliases
//! numpy's buffer. It is handed out only while the GIL is held and for one
//! kernel call (its lifetime is the borrow of the array object); numpy code
//! in another thread writing to the same memory at the same time would race
//! with it exactly as with numpy's own loops. A mutable slice is handed out
//! only for a writeable array whose buffer shares no byte with the other
//! operand (checked here), and a fresh result's only while no other code has
//! seen the array.

use super::numpy_strided::StridedRef;
use crate::kernels::strided::Strided;
use numpy::npyffi::{self, NpyTypes, NPY_ORDER, NPY_TYPES, PY_ARRAY_API};
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

    pub fn itemsize(self) -> usize {
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

/// The element types of the fast path: `T::DT` is the array dtype holding `T`s.
pub trait Elem: Copy + private::Sealed {
    const DT: Dt;
}

mod private {
    pub trait Sealed {}
}

macro_rules! elem {
    ($($t:ty => $dt:ident),*) => {$(
        impl private::Sealed for $t {}
        impl Elem for $t {
            const DT: Dt = Dt::$dt;
        }
    )*};
}
elem!(f32 => F32, f64 => F64, i32 => I32, i64 => I64);

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
    if obj.get_type_ptr() != array_type {
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
    dims: &'a [isize],
    pub len: usize,
    writeable: bool,
}

impl<'a, 'py> ArrayRef<'a, 'py> {
    /// `obj` as a fast-path array, or `None` (another type, a subclass of
    /// ndarray, a strided or byte-swapped or misaligned array, another dtype).
    pub fn read(obj: &'a Bound<'py, PyAny>) -> Option<Self> {
        let wanted = npyffi::NPY_ARRAY_C_CONTIGUOUS | npyffi::NPY_ARRAY_ALIGNED;
        let (arr, dt, nd) = fast_array(obj, wanted)?;
        let dims: &[isize] = if nd == 0 {
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

    pub fn dims(&self) -> &'a [isize] {
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

    /// The elements, as `T`. Panics when `T` is not this array's element
    /// type (a kernel's dtype arm and its `T` disagree: a bug). See Note
    /// [Array memory from Rust].
    pub fn slice<T: Elem>(&self) -> &'a [T] {
        assert_eq!(T::DT, self.dt, "a {:?} array read as {:?}", self.dt, T::DT);
        if self.len == 0 {
            return &[];
        }
        // SAFETY: the array is C-contiguous and aligned with `len` elements of
        // `T` (its dtype, just checked) at `data` (checked in `read`), kept
        // alive by the borrowed array object; see Note [Array memory from Rust].
        unsafe { std::slice::from_raw_parts(self.data as *const T, self.len) }
    }

    /// `f(elements, other's elements)` with this array's elements writeable,
    /// or `None` (nothing run) when this array is read-only or shares memory
    /// with `other`. Panics as [`ArrayRef::slice`] for a `T` of another dtype.
    pub fn update<T: Elem, R>(
        &self,
        other: &ArrayRef<'_, '_>,
        f: impl FnOnce(&mut [T], &[T]) -> R,
    ) -> Option<R> {
        if !self.writeable || self.overlaps(other) {
            return None;
        }
        let ys = other.slice::<T>();
        Some(f(self.slice_mut::<T>(), ys))
    }

    /// `f(elements)` with this array's elements writeable (an update by a
    /// number), or `None` (nothing run) when this array is read-only.
    /// Panics as [`ArrayRef::slice`] for a `T` of another dtype.
    pub fn update_alone<T: Elem, R>(&self, f: impl FnOnce(&mut [T]) -> R) -> Option<R> {
        if !self.writeable {
            return None;
        }
        Some(f(self.slice_mut::<T>()))
    }

    /// `f(elements, other)` with this array's elements writeable and `other`
    /// a strided operand, or `None` (nothing run) when this array is
    /// read-only or `other` addresses any byte of it.
    pub fn update_strided<T: Elem, R>(
        &self,
        other: &StridedRef<'_, '_>,
        f: impl FnOnce(&mut [T], &Strided<'_, T>) -> R,
    ) -> Option<R> {
        if !self.writeable || other.touches(self.byte_range()) {
            return None;
        }
        let operand = other.operand::<T>();
        Some(f(self.slice_mut::<T>(), &operand))
    }

    /// The elements as a mutable slice: only for the `update*` methods, which checked
    /// that the array is writeable and no other slice of its memory is alive.
    #[allow(clippy::mut_from_ref)]
    fn slice_mut<T: Elem>(&self) -> &'a mut [T] {
        assert_eq!(
            T::DT,
            self.dt,
            "a {:?} array written as {:?}",
            self.dt,
            T::DT
        );
        if self.len == 0 {
            return &mut [];
        }
        // SAFETY: as in `slice`; the callers (`update*`) checked that the
        // array is writeable and that the other operand shares none of its
        // bytes, so this is the only slice of this memory while `f` runs.
        unsafe { std::slice::from_raw_parts_mut(self.data as *mut T, self.len) }
    }
}

/// A new C-contiguous array of `T`s with shape `dims` (at most `MAX_DIMS`),
/// its elements written by `fill` before any other code sees the array
/// (every `fill` given here writes each element: the loops of
/// `crate::kernels` assign, never read, their output).
pub fn alloc<'py, T: Elem>(
    py: Python<'py>,
    dims: &[isize],
    fill: impl FnOnce(&mut [T]),
) -> PyResult<Bound<'py, PyAny>> {
    if dims.len() > MAX_DIMS || dims.iter().any(|&d| d < 0) {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "alloc: bad dimensions",
        ));
    }
    let len: usize = dims.iter().map(|&d| d as usize).product();
    let obj =
        super::buffer_pool::result_array(py, T::DT.type_num(), dims, len, len * T::DT.itemsize())?;
    // SAFETY: `result_array` made an exact ndarray: its struct's `data` is a field read.
    let data = unsafe { (*(obj.as_ptr() as *const npyffi::PyArrayObject)).data as *mut T };
    let out: &mut [T] = if len == 0 {
        &mut []
    } else {
        // SAFETY: the fresh array holds `len` aligned `T`s at `data`, seen by
        // no other code until this function returns it.
        unsafe { std::slice::from_raw_parts_mut(data, len) }
    };
    fill(out);
    Ok(obj)
}

/// The header of any exact numpy array (any dtype, any strides), for views.
pub struct Header<'a> {
    arr: &'a npyffi::PyArrayObject,
}

impl<'a> Header<'a> {
    /// `obj`'s header when its type is exactly `numpy.ndarray`.
    pub fn read(obj: &'a Bound<'_, PyAny>) -> Option<Self> {
        // SAFETY: as in `fast_array`: GIL held, numpy's type object, live `obj`.
        let array_type = unsafe { PY_ARRAY_API.get_type_object(obj.py(), NpyTypes::PyArray_Type) };
        if obj.get_type_ptr() != array_type {
            return None;
        }
        // SAFETY: an exact ndarray starts with `PyArrayObject`; it outlives `'a`.
        let arr = unsafe { &*(obj.as_ptr() as *const npyffi::PyArrayObject) };
        (0..=MAX_DIMS as c_int)
            .contains(&arr.nd)
            .then_some(Header { arr })
    }

    fn dims_and_strides(&self) -> (&'a [isize], &'a [isize]) {
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

    pub fn dims(&self) -> &'a [isize] {
        self.dims_and_strides().0
    }

    pub fn strides(&self) -> &'a [isize] {
        self.dims_and_strides().1
    }
}

/// The bytes a view with sizes `dims` and byte strides `strides` reaches
/// from its first element: `(below, above)` with `below <= 0 <= above`,
/// `above` past the last element's first byte; `None` for an empty view or
/// an overflow.
fn reach(dims: &[isize], strides: &[isize]) -> Option<(isize, isize)> {
    let (mut below, mut above) = (0isize, 0isize);
    for (&n, &st) in dims.iter().zip(strides) {
        if n <= 0 {
            return None;
        }
        let r = st.checked_mul(n - 1)?;
        if r < 0 {
            below = below.checked_add(r)?;
        } else {
            above = above.checked_add(r)?;
        }
    }
    Some((below, above))
}

/// Whether a view of `src` (an exact ndarray) with sizes `dims`, byte
/// strides `strides`, starting `offset` bytes from `src`'s first element,
/// starts each of its elements (of `src`'s dtype) where one of `src`'s could
/// start, between its lowest and highest element (or is empty).
fn inside(src: &Header<'_>, dims: &[isize], strides: &[isize], offset: isize) -> bool {
    if dims.len() != strides.len() || dims.len() > MAX_DIMS {
        return false;
    }
    let Some((below, above)) = reach(dims, strides) else {
        // An empty view reads nothing (numpy's own slicing makes them at any offset).
        return dims.iter().all(|&n| n >= 0);
    };
    let Some((src_below, src_above)) = reach(src.dims(), src.strides()) else {
        return false;
    };
    // Both have `src`'s dtype, so comparing first bytes of elements suffices.
    match (offset.checked_add(below), offset.checked_add(above)) {
        (Some(lo), Some(hi)) => lo >= src_below && hi <= src_above,
        _ => false,
    }
}

/// `src[...]` for an exact ndarray `src`: a view of all of it with its
/// dtype, shape, strides and writeability, `src` as its base. A `src` of
/// another type is a `TypeError`.
pub fn whole_view<'py>(src: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = src.py();
    if Header::read(src).is_none() {
        return Err(not_an_array());
    }
    // SAFETY: GIL held; `src` is an exact ndarray (just checked).
    // `PyArray_View` with NULL dtype and type keeps both, takes its own
    // reference to `src` as the view's base and returns a new reference or
    // NULL with an exception set.
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

#[cold]
fn not_an_array() -> PyErr {
    pyo3::exceptions::PyTypeError::new_err("expected an exact numpy.ndarray")
}

/// A read-only view of `src` (an exact ndarray) with shape `dims` and byte
/// strides `strides`, keeping `src` alive as its base: what
/// `np.broadcast_to` returns (broadcast dimensions have stride 0).
pub fn strided_view<'py>(
    src: &Bound<'py, PyAny>,
    dims: &[isize],
    strides: &[isize],
) -> PyResult<Bound<'py, PyAny>> {
    view_of(src, dims, strides, 0, false)
}

/// A view of `src` (an exact ndarray) with shape `dims`, byte strides
/// `strides`, starting `offset` bytes into `src`'s data, writeable only when
/// `writeable` and `src` is; `src` is kept alive as its base. A `src` of
/// another type, or a view reaching a byte `src`'s elements do not span, is
/// an error.
pub fn view_of<'py>(
    src: &Bound<'py, PyAny>,
    dims: &[isize],
    strides: &[isize],
    offset: isize,
    writeable: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let head = Header::read(src).ok_or_else(not_an_array)?;
    if !inside(&head, dims, strides, offset) {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "view_of: the view reaches outside the array",
        ));
    }
    new_view(src, &head, dims, strides, offset, writeable)
}

/// `src[0]` for an exact ndarray `src` with at least one dimension of size > 0:
/// the first entry along dimension 0, a view (writeable when `src` is) that
/// keeps `src` alive. `None` for any other `src` (not an exact ndarray, 0-dim, empty).
pub fn first_entry<'py>(src: &Bound<'py, PyAny>) -> Option<PyResult<Bound<'py, PyAny>>> {
    let head = Header::read(src)?;
    let (dims, strides) = head.dims_and_strides();
    if dims.first().is_none_or(|&n| n <= 0) {
        return None;
    }
    // Entry 0 along a dimension of size > 0 lies inside `src`: no `inside` check needed.
    Some(new_view(src, &head, &dims[1..], &strides[1..], 0, true))
}

/// The view of [`view_of`], its bounds already known to lie inside `src`.
fn new_view<'py>(
    src: &Bound<'py, PyAny>,
    head: &Header<'_>,
    dims: &[isize],
    strides: &[isize],
    offset: isize,
    writeable: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let py = src.py();
    let mut shape = [0 as npyffi::npy_intp; MAX_DIMS];
    let mut steps = [0 as npyffi::npy_intp; MAX_DIMS];
    shape[..dims.len()].copy_from_slice(dims);
    steps[..strides.len()].copy_from_slice(strides);
    let arr = head.arr;
    // SAFETY: GIL held; `src` is an exact ndarray whose elements span every
    // byte of the view (checked above), so `data + offset` and the view's
    // strides address `src`'s memory; `PyArray_NewFromDescr` steals the descr
    // reference we add, copies `shape`/`steps` and computes the contiguity and
    // alignment flags (flags 0 make the view read-only, as
    // `np.broadcast_to`'s). `PyArray_SetBaseObject` steals the reference to
    // `src` we add, which keeps the memory alive.
    unsafe {
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
            arr.data.wrapping_offset(offset) as *mut std::ffi::c_void,
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
}

/// `np.squeeze(x)` for an exact ndarray `x`: numpy's own function (it hands
/// back `x` itself when no axis has size 1).
pub fn squeeze_all<'py>(data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = data.py();
    if Header::read(data).is_none() {
        return Err(not_an_array());
    }
    // SAFETY: GIL held; `data` is an exact ndarray (just checked).
    // `PyArray_Squeeze` returns a new reference or NULL with an exception set.
    unsafe {
        let r = PY_ARRAY_API.PyArray_Squeeze(py, data.as_ptr() as *mut npyffi::PyArrayObject);
        Bound::from_owned_ptr_or_err(py, r)
    }
}

/// `data.reshape(size)` for an exact ndarray `data` (C order, copying only
/// when no view can have `size`; numpy checks `size` against the array).
pub fn newshape<'py>(data: &Bound<'py, PyAny>, size: &[isize]) -> PyResult<Bound<'py, PyAny>> {
    let py = data.py();
    if Header::read(data).is_none() || size.len() > MAX_DIMS {
        return Err(not_an_array());
    }
    let mut dims = [0 as npyffi::npy_intp; MAX_DIMS];
    dims[..size.len()].copy_from_slice(size);
    let mut shape = npyffi::PyArray_Dims {
        ptr: dims.as_mut_ptr(),
        len: size.len() as c_int,
    };
    // SAFETY: GIL held; `data` is an exact ndarray (just checked); numpy only
    // reads `shape` (`len` ≤ MAX_DIMS sizes, which it checks against the
    // array's size) and returns a new reference or NULL with an exception set.
    unsafe {
        let r = PY_ARRAY_API.PyArray_Newshape(
            py,
            data.as_ptr() as *mut npyffi::PyArrayObject,
            &mut shape,
            NPY_ORDER::NPY_CORDER,
        );
        Bound::from_owned_ptr_or_err(py, r)
    }
}

/// Whether `a` and `b` are exact ndarrays starting at the same byte (numpy's
/// reshape made a view rather than a copy).
pub fn same_data(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> bool {
    match (Header::read(a), Header::read(b)) {
        (Some(x), Some(y)) => x.arr.data == y.arr.data,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::reach;

    #[test]
    fn reach_spans_every_element_from_the_first() {
        // A 2x3 float32 C array: the last element starts 20 bytes after the first.
        assert_eq!(reach(&[2, 3], &[12, 4]), Some((0, 20)));
        // Reversed rows: the lowest element starts 12 bytes before the first.
        assert_eq!(reach(&[2, 3], &[-12, 4]), Some((-12, 8)));
        // Broadcast dimensions reach nothing further.
        assert_eq!(reach(&[5, 3], &[0, 4]), Some((0, 8)));
        assert_eq!(reach(&[], &[]), Some((0, 0)));
        // Empty views reach nothing; overflowing strides are refused.
        assert_eq!(reach(&[0, 3], &[12, 4]), None);
        assert_eq!(reach(&[3], &[isize::MAX]), None);
    }
}
