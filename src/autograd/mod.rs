//! The autograd graph and backward engine, in plain Rust.
//!
//! `graph` holds a concrete graph of `Arc<Node<G>>` whose behaviour is a
//! [`Function`] trait object; `engine` runs a backward pass over any graph
//! whose nodes implement [`GraphNode`] (the Rust graph here, the Python nodes
//! in `src/python/autograd/engine.rs`). Both are generic over the gradient type
//! ([`Grad`]), so `cargo test` and `cargo bench` drive them with `f64` and
//! `Vec<f64>` gradients and no interpreter.

pub mod engine;
pub mod graph;
mod pass_state;
#[cfg(test)]
mod tests;

pub use engine::{run_backward, BackwardOptions, Edge, GraphNode};
pub use graph::{Function, Node, NodeRef};

use std::convert::Infallible;

/// torch's message for a second backward through freed saved state.
pub const FREED_MESSAGE: &str = "Trying to backward through the graph a second time (or directly \
access saved tensors after they have already been freed). Saved intermediate values of the graph \
are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to \
backward through the graph a second time or if you need to access saved tensors after calling \
backward.";

/// A gradient value the engine can accumulate: several gradients flowing into
/// one node input are summed with `add`.
pub trait Grad: Clone {
    /// What a failed accumulation reports (shape mismatch, a Python error, ...).
    type Error;
    /// `self + other`, consuming both (a tensor implementation may reuse a buffer).
    fn add(self, other: Self) -> Result<Self, Self::Error>;
}

impl Grad for f64 {
    type Error = Infallible;
    fn add(self, other: Self) -> Result<Self, Infallible> {
        Ok(self + other)
    }
}

impl Grad for Vec<f64> {
    type Error = AutogradError;
    fn add(mut self, other: Self) -> Result<Self, AutogradError> {
        if self.len() != other.len() {
            return Err(AutogradError::Message(format!(
                "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton \
                 dimension 0",
                self.len(),
                other.len()
            )));
        }
        for (a, b) in self.iter_mut().zip(other) {
            *a += b;
        }
        Ok(self)
    }
}

/// The errors of the pure-Rust graph and engine, in torch's words.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AutogradError {
    /// Saved state was released by an earlier backward without `retain_graph`.
    #[error("{}", FREED_MESSAGE)]
    Released,
    /// Something a node, hook or accumulation refused.
    #[error("{0}")]
    Message(String),
    /// An error raised while running a node, with the node it came from
    /// (what torch's anomaly mode adds to a failing backward).
    #[error("{source}\n  (raised in backward of node {node})")]
    InNode {
        /// The node's name, e.g. `MulBackward0`.
        node: String,
        /// What the node raised.
        source: Box<AutogradError>,
    },
}

impl From<Infallible> for AutogradError {
    fn from(never: Infallible) -> Self {
        match never {}
    }
}

impl From<engine::EngineError> for AutogradError {
    fn from(e: engine::EngineError) -> Self {
        AutogradError::Message(e.0)
    }
}
