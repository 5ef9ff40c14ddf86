//! The output shapes a graph node keeps (See Note [Rust graph nodes] in
//! `autograd/node/mod.rs`): to check incoming gradients and materialize missing ones.

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use smallvec::SmallVec;

/// The shapes of the forward outputs: native ints, or the Python tuple as
/// given when a size is not a plain int (a `SymInt` under fake tensors).
///
/// Native shapes are one run of ints, each shape its rank followed by its
/// sizes (`[1, 5]` is one output of shape `(5,)`): a unary op's output of up
/// to three dimensions fits inline, without a heap allocation.
#[derive(Default)]
pub struct OutShapes {
    enc: SmallVec<[i64; 4]>,
    py: Option<PyObject>,
}

impl OutShapes {
    /// The shapes kept as a Python object (when not all sizes are ints).
    pub fn py(&self) -> Option<&PyObject> {
        self.py.as_ref()
    }

    /// The native shapes, in output order.
    pub fn iter(&self) -> impl Iterator<Item = &[i64]> {
        let mut rest = &self.enc[..];
        std::iter::from_fn(move || {
            let (&rank, tail) = rest.split_first()?;
            let (shape, tail) = tail.split_at((rank as usize).min(tail.len()));
            rest = tail;
            Some(shape)
        })
    }

    /// Drops the Python shapes (the GC's `tp_clear`).
    pub fn clear_py(&mut self) {
        self.py = None;
    }

    /// The native shape of output `nr`.
    pub fn native(&self, nr: usize) -> Option<&[i64]> {
        self.iter().nth(nr)
    }
}

/// The shapes of a node with one output of native sizes `dims`.
pub fn one_native_shape(dims: &[isize]) -> OutShapes {
    let mut enc: SmallVec<[i64; 4]> = SmallVec::with_capacity(dims.len() + 1);
    enc.push(dims.len() as i64);
    enc.extend(dims.iter().map(|&d| d as i64));
    OutShapes { enc, py: None }
}

/// Parses the shapes of the outputs (a sequence of sequences of sizes).
pub fn parse_shapes(obj: &Bound<'_, PyAny>) -> PyResult<OutShapes> {
    let mut enc = SmallVec::new();
    for shape in obj.iter()? {
        let shape = shape?;
        let at = enc.len();
        enc.push(0);
        for d in shape.iter()? {
            match d?.extract::<i64>() {
                Ok(d) => enc.push(d),
                Err(_) => {
                    return Ok(OutShapes {
                        enc: SmallVec::new(),
                        py: Some(obj.clone().unbind()),
                    })
                }
            }
        }
        enc[at] = (enc.len() - at - 1) as i64;
    }
    Ok(OutShapes { enc, py: None })
}

/// The shapes of a node with one output of shape `shape`.
pub fn parse_one_shape(shape: &Bound<'_, PyAny>) -> PyResult<OutShapes> {
    let mut enc: SmallVec<[i64; 4]> = SmallVec::new();
    enc.push(0);
    for d in shape.iter()? {
        match d?.extract::<i64>() {
            Ok(d) => enc.push(d),
            Err(_) => {
                let one = PyTuple::new_bound(shape.py(), [shape]);
                return parse_shapes(one.as_any());
            }
        }
    }
    enc[0] = (enc.len() - 1) as i64;
    Ok(OutShapes { enc, py: None })
}

impl OutShapes {
    /// One output of sizes `dims` (a tensor's own sizes, read natively).
    pub fn one(dims: &[isize]) -> Self {
        let mut enc: SmallVec<[i64; 4]> = SmallVec::with_capacity(dims.len() + 1);
        enc.push(dims.len() as i64);
        enc.extend(dims.iter().map(|&d| d as i64));
        OutShapes { enc, py: None }
    }
}

impl OutShapes {
    /// Appends one more output of sizes `dims` (a non-tensor output has `&[]`).
    pub fn push(&mut self, dims: &[isize]) {
        self.enc.push(dims.len() as i64);
        self.enc.extend(dims.iter().map(|&d| d as i64));
    }
}
