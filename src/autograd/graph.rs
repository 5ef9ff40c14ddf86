//! A graph of Rust nodes: `Arc<Node<G>>` with edges `(node, input_nr)`,
//! sequence numbers and hooks; what a node computes is a [`Function`].

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use parking_lot::Mutex;

use super::engine::{Edge, EdgeBuf, GraphNode};
use super::{AutogradError, Grad};

/// A shared reference to a node (the graph's edges hold these).
pub type NodeRef<G> = Arc<Node<G>>;

/// What a node computes in backward.
pub trait Function<G>: Send {
    /// The node's name, e.g. `MulBackward0`.
    fn name(&self) -> &str;
    /// One gradient (or `None`) per edge of the node, from one gradient (or
    /// `None`) per output of the forward call.
    fn apply(
        &mut self,
        grads: Vec<Option<G>>,
        create_graph: bool,
    ) -> Result<Vec<Option<G>>, AutogradError>;
    /// Frees saved state; a later `apply` should fail with
    /// [`AutogradError::Released`] if it needed that state.
    fn release(&mut self) {}
}

/// `fn(grads)` before the node runs; may change the gradients in place.
pub type PreHook<G> = Box<dyn FnMut(&mut Vec<Option<G>>) -> Result<(), AutogradError> + Send>;
/// `fn(outputs, grads)` after the node ran; may change its outputs in place.
pub type PostHook<G> =
    Box<dyn FnMut(&mut Vec<Option<G>>, &[Option<G>]) -> Result<(), AutogradError> + Send>;

struct Hooks<G> {
    pre: Vec<PreHook<G>>,
    post: Vec<PostHook<G>>,
}

// Not derived: a derive would demand `G: Default`.
impl<G> Default for Hooks<G> {
    fn default() -> Self {
        Hooks {
            pre: Vec::new(),
            post: Vec::new(),
        }
    }
}

/// One node of the backward graph.
pub struct Node<G> {
    sequence_nr: u64,
    num_inputs: usize,
    sink: bool,
    edges: Vec<Edge<NodeRef<G>>>,
    function: Mutex<Box<dyn Function<G>>>,
    /// Boxed and optional: most nodes never get a hook, so they pay one word.
    hooks: Mutex<Option<Box<Hooks<G>>>>,
    /// Set once a pre-hook is registered: the engine asks per node, without locking.
    has_pre: AtomicBool,
    /// Set once a post-hook is registered.
    has_post: AtomicBool,
}

static NEXT_SEQUENCE_NR: AtomicU64 = AtomicU64::new(0);

impl<G> Node<G> {
    /// A node for a forward call with `num_inputs` outputs (gradient slots) and
    /// `edges` towards its inputs; it gets the next sequence number.
    pub fn new(
        function: Box<dyn Function<G>>,
        num_inputs: usize,
        edges: Vec<Edge<NodeRef<G>>>,
    ) -> NodeRef<G> {
        let sequence_nr = NEXT_SEQUENCE_NR.fetch_add(1, Ordering::Relaxed);
        Self::build(function, num_inputs, edges, sequence_nr, false)
    }

    /// A sink (a leaf's `AccumulateGrad`): one input, no edges, and the
    /// highest priority, so it runs as soon as its gradient is complete.
    pub fn sink(function: Box<dyn Function<G>>) -> NodeRef<G> {
        Self::build(function, 1, Vec::new(), u64::MAX, true)
    }

    fn build(
        function: Box<dyn Function<G>>,
        num_inputs: usize,
        edges: Vec<Edge<NodeRef<G>>>,
        sequence_nr: u64,
        sink: bool,
    ) -> NodeRef<G> {
        Arc::new(Node {
            sequence_nr,
            num_inputs,
            sink,
            edges,
            function: Mutex::new(function),
            hooks: Mutex::new(None),
            has_pre: AtomicBool::new(false),
            has_post: AtomicBool::new(false),
        })
    }

    /// Creation order (`u64::MAX` for sinks).
    pub fn sequence_nr(&self) -> u64 {
        self.sequence_nr
    }

    /// The edges towards the forward call's inputs.
    pub fn next_functions(&self) -> &[Edge<NodeRef<G>>] {
        &self.edges
    }

    /// The node's name, from its function.
    pub fn name(&self) -> String {
        self.function.lock().name().to_owned()
    }

    /// Adds a hook that runs before the node, on its incoming gradients.
    pub fn register_prehook(&self, hook: PreHook<G>) {
        self.hooks
            .lock()
            .get_or_insert_with(Default::default)
            .pre
            .push(hook);
        self.has_pre.store(true, Ordering::Release);
    }

    /// Adds a hook that runs after the node, on its outputs.
    pub fn register_hook(&self, hook: PostHook<G>) {
        self.hooks
            .lock()
            .get_or_insert_with(Default::default)
            .post
            .push(hook);
        self.has_post.store(true, Ordering::Release);
    }

    fn in_node(&self, e: AutogradError) -> AutogradError {
        match e {
            AutogradError::InNode { .. } => e,
            other => AutogradError::InNode {
                node: self.name(),
                source: Box::new(other),
            },
        }
    }
}

/// Dropping a long chain recursively would overflow the stack (100k nodes is
/// an ordinary training graph): unlink the edges of uniquely owned nodes
/// into a work list instead.
impl<G> Drop for Node<G> {
    fn drop(&mut self) {
        let mut pending: Vec<NodeRef<G>> = self.edges.drain(..).filter_map(|(n, _)| n).collect();
        while let Some(node) = pending.pop() {
            if let Ok(mut inner) = Arc::try_unwrap(node) {
                pending.extend(inner.edges.drain(..).filter_map(|(n, _)| n));
            }
        }
    }
}

impl<G: Grad> GraphNode<G> for NodeRef<G>
where
    AutogradError: From<G::Error>,
{
    type Error = AutogradError;

    fn key(&self) -> usize {
        Arc::as_ptr(self) as usize
    }
    fn sequence_nr(&self) -> u64 {
        self.sequence_nr
    }
    fn name(&self) -> String {
        Node::name(self)
    }
    fn num_inputs(&self) -> Result<usize, AutogradError> {
        Ok(self.num_inputs)
    }
    fn next_edges(&self, out: &mut EdgeBuf<Self>) -> Result<(), AutogradError> {
        out.extend(self.edges.iter().cloned());
        Ok(())
    }
    fn is_sink(&self) -> bool {
        self.sink
    }
    fn has_pre_hooks(&self) -> bool {
        self.has_pre.load(Ordering::Acquire)
    }
    fn pre_hooks(&self, mut grads: Vec<Option<G>>) -> Result<Vec<Option<G>>, AutogradError> {
        // Taken out of the lock while they run: a hook may register another.
        let mut hooks = self.hooks.lock().take().unwrap_or_default();
        let result = hooks.pre.iter_mut().try_for_each(|h| h(&mut grads));
        self.restore_hooks(hooks);
        result.map(|()| grads).map_err(|e| self.in_node(e))
    }
    fn has_post_hooks(&self) -> bool {
        self.has_post.load(Ordering::Acquire)
    }
    fn post_hooks(
        &self,
        mut outputs: Vec<Option<G>>,
        grads: Vec<Option<G>>,
    ) -> Result<Vec<Option<G>>, AutogradError> {
        let mut hooks = self.hooks.lock().take().unwrap_or_default();
        let result = hooks
            .post
            .iter_mut()
            .try_for_each(|h| h(&mut outputs, &grads));
        self.restore_hooks(hooks);
        result.map(|()| outputs).map_err(|e| self.in_node(e))
    }
    fn apply(
        &self,
        grads: Vec<Option<G>>,
        create_graph: bool,
    ) -> Result<Vec<Option<G>>, AutogradError> {
        let result = self.function.lock().apply(grads, create_graph);
        result.map_err(|e| self.in_node(e))
    }
    fn release(&self) -> Result<(), AutogradError> {
        self.function.lock().release();
        Ok(())
    }
}

impl<G> Node<G> {
    /// Puts hooks back after they ran, keeping any registered meanwhile.
    fn restore_hooks(&self, mut ran: Box<Hooks<G>>) {
        let mut slot = self.hooks.lock();
        if let Some(added) = slot.take() {
            let Hooks { pre, post } = *added;
            ran.pre.extend(pre);
            ran.post.extend(post);
        }
        *slot = Some(ran);
    }
}
