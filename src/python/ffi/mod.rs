//! Raw CPython and numpy access behind safe functions.

pub mod buffer_pool;
pub mod call_slot;
pub mod fastcall;
pub mod getset;
pub mod gil;
pub mod instance_slots;
pub mod members;
pub mod ndarray;
pub mod numpy;
pub mod numpy_strided;
pub mod object;
pub mod type_slots;
pub mod vectorcall;
