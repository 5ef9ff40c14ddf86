//! A numpy array of any strides seen from the in-place kernels: the operand
//! of `grad.add_(g)` is often a view (`SumBackward0`'s gradient is a ones
//! expanded with zero strides; a transpose; a reversed slice), which
//! `ArrayRef::read` declines. `StridedRef::read` takes it as it is and hands
//! `crate::kernels::strided` a slice covering every byte it addresses.

use super::numpy::{fast_array, Dt, Elem, MAX_DIMS};
use crate::kernels::strided::Strided;
use numpy::npyffi;
use pyo3::prelude::*;
use std::marker::PhantomData;

/// An aligned, native-order numpy array of a fast-path dtype with any strides
/// that are whole elements, borrowed for one kernel call.
pub struct StridedRef<'a, 'py> {
    _obj: PhantomData<&'a Bound<'py, PyAny>>,
    pub dt: Dt,
    /// The lowest byte any element occupies, and one past the highest.
    lo: usize,
    hi: usize,
    /// The first element's element index from `lo`.
    offset: usize,
    dims: [usize; MAX_DIMS],
    strides: [isize; MAX_DIMS],
    nd: usize,
}

impl<'a, 'py> StridedRef<'a, 'py> {
    /// `obj` as a strided fast-path array, or `None` (not an exact ndarray,
    /// misaligned, byte-swapped, another dtype, more than `MAX_DIMS`
    /// dimensions, a stride that is not a multiple of the item size, empty).
    pub fn read(obj: &'a Bound<'py, PyAny>) -> Option<Self> {
        let (arr, dt, nd) = fast_array(obj, npyffi::NPY_ARRAY_ALIGNED)?;
        let item = dt.itemsize() as isize;
        let mut out = StridedRef {
            _obj: PhantomData,
            dt,
            lo: 0,
            hi: 0,
            offset: 0,
            dims: [0; MAX_DIMS],
            strides: [0; MAX_DIMS],
            nd,
        };
        // Byte offsets from the first element to the lowest and highest one.
        let (mut below, mut above) = (0isize, 0isize);
        for d in 0..nd {
            // SAFETY: an ndarray's `dimensions` and `strides` hold `nd` values.
            let (size, stride) = unsafe { (*arr.dimensions.add(d), *arr.strides.add(d)) };
            if size == 0 || stride % item != 0 {
                return None;
            }
            let reach = stride.checked_mul(size - 1)?;
            if reach < 0 {
                below += reach;
            } else {
                above += reach;
            }
            out.dims[d] = size as usize;
            out.strides[d] = stride / item;
        }
        let first = arr.data as usize;
        out.lo = first.checked_sub(below.unsigned_abs())?;
        out.hi = first.checked_add(above as usize + item as usize)?;
        out.offset = below.unsigned_abs() / item as usize;
        Some(out)
    }

    /// Whether every element is the same one (all strides 0: a value expanded).
    pub fn one_value(&self) -> bool {
        self.strides[..self.nd].iter().all(|&s| s == 0)
    }

    /// The element count.
    pub fn len(&self) -> usize {
        self.dims().iter().product()
    }

    pub fn dims(&self) -> &[usize] {
        &self.dims[..self.nd]
    }

    /// Whether any byte this array addresses lies in `[start, end)`.
    pub fn touches(&self, (start, end): (usize, usize)) -> bool {
        self.lo < end && start < self.hi
    }

    /// The elements as a `Strided` operand over `T`. Panics when `T` is not
    /// this array's element type (a bug of the caller's dtype arm). See Note
    /// [Array memory from Rust] in `numpy.rs`.
    pub fn operand<T: Elem>(&self) -> Strided<'_, T> {
        assert_eq!(T::DT, self.dt, "a {:?} array read as {:?}", self.dt, T::DT);
        let len = (self.hi - self.lo) / self.dt.itemsize();
        Strided {
            // SAFETY: numpy guarantees every element of the view lies in its
            // buffer, so the `len` aligned `T`s (its dtype, just checked) from
            // `lo` (the lowest element) to `hi` (past the highest) are all
            // inside it; see Note [Array memory from Rust].
            data: unsafe { std::slice::from_raw_parts(self.lo as *const T, len) },
            offset: self.offset,
            dims: &self.dims[..self.nd],
            strides: &self.strides[..self.nd],
        }
    }
}
