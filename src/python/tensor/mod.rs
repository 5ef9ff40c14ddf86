//! The tensor's state in Rust: `TensorBase` (the base class of
//! `opyard.Tensor`), its slots, attributes and autograd fields, the version
//! counter, `device`, and the methods written in Rust.

pub mod attrs;
pub mod base;
pub mod device;
pub mod dtype_flags;
pub mod fields;
pub mod getsets;
pub mod grad;
pub mod init;
pub mod slots;
pub mod version;
pub mod view_method;
