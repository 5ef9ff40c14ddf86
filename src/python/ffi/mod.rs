//! Raw CPython and numpy access behind safe functions.

pub mod call_slot;
pub mod ndarray;
