//! opyard's core: PyTorch's function-schema grammar and dispatcher in plain Rust.
//!
//! `autograd` holds the backward graph and engine (generic over the gradient
//! type). `schema` parses and prints operator schemas, `dispatch` holds dispatch keys,
//! key sets, thread-local include/exclude sets and the dispatch-table rules,
//! `registry` keeps operators, kernels, fallbacks and libraries; `kernels`
//! holds the loops of the hottest built-in kernels. The Python
//! extension module `opyard._core` lives in `python` behind the `python`
//! feature, so `cargo test` and `cargo bench` need no interpreter.

pub mod autograd;
pub mod dispatch;
pub mod error;
pub mod kernels;
pub mod registry;
pub mod schema;

#[cfg(feature = "python")]
mod python;

pub use dispatch::{DispatchKey, DispatchKeySet};
pub use error::{Error, Result};
pub use registry::Registry;
pub use schema::{parse_schema, FunctionSchema, SchemaError};
