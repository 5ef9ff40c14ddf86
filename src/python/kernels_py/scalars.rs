//! Python numbers in the Rust kernels: which ones the fast path takes
//! (`Num::read`: exact ints and floats, not bools), `alpha`, and their
//! conversion into a tensor's element type (see Note [Fast binary promotion]).

use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyLong};

/// Integers up to this magnitude convert to float exactly.
pub const EXACT_INT: i64 = 1 << 53;

/// A Python number operand.
#[derive(Clone, Copy)]
pub enum Num {
    Int(i64),
    Float(f64),
}

impl Num {
    /// `obj` if it is exactly an int (not a bool) that fits i64, or exactly a float.
    pub fn read(obj: &Bound<'_, PyAny>) -> Option<Num> {
        if obj.is_exact_instance_of::<PyFloat>() {
            return obj.extract::<f64>().ok().map(Num::Float);
        }
        if obj.is_exact_instance_of::<PyLong>() {
            return obj.extract::<i64>().ok().map(Num::Int);
        }
        None
    }

    /// As a float of the result type (`None`: an int too large to convert exactly).
    pub fn float(self) -> Option<f64> {
        match self {
            Num::Float(f) => Some(f),
            Num::Int(i) if (-EXACT_INT..=EXACT_INT).contains(&i) => Some(i as f64),
            Num::Int(_) => None,
        }
    }
}

/// `alpha` as given (`None`: absent or 1, i.e. no scaling).
pub fn alpha_arg(obj: Option<Bound<'_, PyAny>>) -> Result<Option<Num>, ()> {
    let Some(obj) = obj else { return Ok(None) };
    match Num::read(&obj).ok_or(())? {
        Num::Int(1) => Ok(None),
        Num::Float(1.0) => Ok(None),
        n => Ok(Some(n)),
    }
}

/// A Python number as an element of a tensor's own dtype, when the Python
/// kernel would take it so without an error or a promotion: any exact
/// number for floats, an int in range for integers (a float `alpha` with an
/// integer tensor is an error the Python kernel raises).
pub trait FromNum: Sized {
    fn from_num(n: Num) -> Option<Self>;
}
impl FromNum for f32 {
    fn from_num(n: Num) -> Option<Self> {
        n.float().map(|f| f as f32)
    }
}
impl FromNum for f64 {
    fn from_num(n: Num) -> Option<Self> {
        n.float()
    }
}
impl FromNum for i32 {
    fn from_num(n: Num) -> Option<Self> {
        match n {
            Num::Int(i) => i32::try_from(i).ok(),
            Num::Float(_) => None,
        }
    }
}
impl FromNum for i64 {
    fn from_num(n: Num) -> Option<Self> {
        match n {
            Num::Int(i) => Some(i),
            Num::Float(_) => None,
        }
    }
}

/// Conversion of a Python float (already exact) into the result's float type.
pub trait FromF64 {
    fn from_f64(f: f64) -> Self;
}
impl FromF64 for f32 {
    fn from_f64(f: f64) -> Self {
        f as f32
    }
}
impl FromF64 for f64 {
    fn from_f64(f: f64) -> Self {
        f
    }
}

/// Integer to float conversion (round to nearest, as numpy's casts).
pub trait ToFloat: Copy {
    fn to_f32(self) -> f32;
    fn to_f64(self) -> f64;
}
impl ToFloat for i32 {
    fn to_f32(self) -> f32 {
        self as f32
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
}
impl ToFloat for i64 {
    fn to_f32(self) -> f32 {
        self as f32
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
}

/// Whether an int `alpha` of `op` can be taken in `T` as torch takes it:
/// `sub` is `add` with `-alpha`, so `-alpha` must fit too (int32's
/// `-2**31` and int64's `-2**63` do not: the Python kernel then raises
/// torch's overflow error).
pub fn alpha_fits<T: TryFrom<i64>>(op: crate::kernels::elementwise::BinOp, a: i64) -> bool {
    op != crate::kernels::elementwise::BinOp::Sub
        || a.checked_neg().is_some_and(|n| T::try_from(n).is_ok())
}
