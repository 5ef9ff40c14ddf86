//! Fake tensors from Rust: the `Fake` fallback's metadata cache, its call
//! keys and the thread's `FakeTensorMode`.

pub mod cache;
pub mod fields;
pub mod key;
