//! The numpy side of the shape views (`view_shape.rs`): a view as sizes,
//! byte strides and an offset (`Layout`) made into an array the way numpy's
//! basic indexing makes one (`sub_view`), and numpy's own reshape and squeeze
//! called through its C API. See Note [Shape views as numpy makes them].

pub use crate::python::ffi::numpy::{newshape, same_data};
use crate::python::ffi::numpy::{squeeze_all as squeeze, view_of, Header, MAX_DIMS};
use pyo3::prelude::*;

type Dims = [isize; MAX_DIMS];

/// A view as sizes, byte strides and a byte offset into the input's data.
pub struct Layout {
    pub n: usize,
    pub dims: Dims,
    pub strides: Dims,
    pub offset: isize,
}

impl Layout {
    /// The whole input: its sizes and strides, offset 0.
    pub fn of(head: &Header<'_>) -> Layout {
        let (d, s) = (head.dims(), head.strides());
        let mut l = Layout {
            n: d.len(),
            dims: [0; MAX_DIMS],
            strides: [0; MAX_DIMS],
            offset: 0,
        };
        l.dims[..l.n].copy_from_slice(d);
        l.strides[..l.n].copy_from_slice(s);
        l
    }

    /// Without axis `d` (sizes and strides of the others unchanged).
    pub fn drop_axis(mut self, d: usize) -> Layout {
        self.dims.copy_within(d + 1..self.n, d);
        self.strides.copy_within(d + 1..self.n, d);
        self.n -= 1;
        self
    }

    /// Axes reordered: axis `i` of the result is axis `order[i]` of `self`.
    pub fn permuted(&self, order: &[usize]) -> Layout {
        let mut l = Layout {
            n: order.len(),
            dims: [0; MAX_DIMS],
            strides: [0; MAX_DIMS],
            offset: self.offset,
        };
        for (i, &a) in order.iter().enumerate() {
            l.dims[i] = self.dims[a];
            l.strides[i] = self.strides[a];
        }
        l
    }
}

/// `np.squeeze(x)`: numpy's own function (it hands back `x` itself when no axis has size 1).
pub fn squeeze_all<'py>(data: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    squeeze(data).map(Some)
}

/// A view of `src` (an exact ndarray) with layout `l`, writeable when `src`
/// is, `src` as its base: what numpy's basic indexing returns. Every index
/// of the layout addresses an element of `src` (the callers derive it from
/// `src`'s own sizes and strides by dropping, permuting or clipping axes).
pub fn sub_view<'py>(src: &Bound<'py, PyAny>, l: &Layout) -> PyResult<Bound<'py, PyAny>> {
    view_of(src, &l.dims[..l.n], &l.strides[..l.n], l.offset, true)
}
