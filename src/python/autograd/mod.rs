//! Autograd from Python: graph nodes (`node/`), the built-in ops' Autograd
//! kernel (`kernel/`) and what their nodes save (`saved/`), the Rust
//! backward formulas (`formulas/`), `Function.apply` (`function/`), the
//! engine glue, gradient accumulation, `Tensor.backward` and recording.

pub mod accumulate;
pub mod backward_entry;
pub mod engine;
pub mod formulas;
pub mod function;
pub mod kernel;
pub mod node;
pub mod record;
pub mod saved;
pub mod view_replay;
