//! The backward engine: dependency counting over the reachable graph, a ready
//! queue by sequence number, input buffers per node.
//!
//! A node runs once every node that feeds it a gradient has run; among ready
//! nodes the most recently created runs first (highest sequence number; sinks
//! such as `AccumulateGrad` carry the highest of all, so a leaf's gradient is
//! accumulated as soon as it is complete), as in torch's engine. With
//! `inputs` given, only the part of the graph that leads to them runs and
//! their incoming gradients are captured.

use smallvec::SmallVec;

use super::pass_state::{ReadyQueue, SlotIndex};
use super::Grad;

/// A gradient's destination: input slot `input_nr` of `node`, or nowhere.
pub type Edge<N> = (Option<N>, usize);

/// The edges of one node as `next_edges` appends them (inline for up to
/// four: See Note [Inline pass state]).
pub type EdgeBuf<N> = SmallVec<[Edge<N>; 4]>;

/// An error the engine itself raises (not a node's), in torch's words.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineError(pub String);

/// What the engine needs from one node of a graph. Cloning is cheap (a
/// reference count); `key` is the node's identity for the pass.
pub trait GraphNode<G: Grad>: Clone {
    /// What node callbacks and accumulation report.
    type Error: From<EngineError> + From<G::Error>;
    /// The node's identity (e.g. its address) while the pass runs.
    fn key(&self) -> usize;
    /// Creation order; higher runs first among ready nodes.
    fn sequence_nr(&self) -> u64;
    /// The node's name for messages, e.g. `MulBackward0`.
    fn name(&self) -> String;
    /// The number of gradient slots (outputs of the forward call).
    fn num_inputs(&self) -> Result<usize, Self::Error>;
    /// Appends the edges towards the forward call's inputs to `out`, one per
    /// gradient `apply` returns (`out` is reused across nodes: no allocation).
    fn next_edges(&self, out: &mut EdgeBuf<Self>) -> Result<(), Self::Error>;
    /// Whether this is a sink (a leaf's `AccumulateGrad`): with `inputs=` and
    /// accumulation it runs although nothing lies beyond it.
    fn is_sink(&self) -> bool;
    /// Whether `pre_hooks` has anything to do (skips a call per node otherwise).
    fn has_pre_hooks(&self) -> bool {
        false
    }
    /// Runs before `apply` on the incoming gradients; may replace them.
    fn pre_hooks(&self, grads: Vec<Option<G>>) -> Result<Vec<Option<G>>, Self::Error> {
        Ok(grads)
    }
    /// The hooks of the tensors whose gradients arrive here (a leaf's own, for
    /// its sink) and `retain_grad`'s, without the node's pre-hooks: what runs
    /// for a node whose gradients `grad()` captures but that does not run
    /// (See Note [Captured gradients]).
    fn tensor_pre_hooks(&self, grads: Vec<Option<G>>) -> Result<Vec<Option<G>>, Self::Error> {
        Ok(grads)
    }
    /// Whether `post_hooks` has anything to do.
    fn has_post_hooks(&self) -> bool {
        false
    }
    /// Runs after `apply` with its outputs and inputs; may replace the outputs.
    fn post_hooks(
        &self,
        outputs: Vec<Option<G>>,
        _grads: Vec<Option<G>>,
    ) -> Result<Vec<Option<G>>, Self::Error> {
        Ok(outputs)
    }
    /// The backward computation: one gradient (or `None`) per edge.
    fn apply(
        &self,
        grads: Vec<Option<G>>,
        create_graph: bool,
    ) -> Result<Vec<Option<G>>, Self::Error>;
    /// Frees saved state after a pass without `retain_graph`.
    fn release(&self) -> Result<(), Self::Error>;
    /// Checks (or adapts, e.g. sums a broadcast) gradient `i` of `producer`
    /// before it enters input slot `input_nr` of `self`.
    fn check_incoming(
        &self,
        _producer: &Self,
        _i: usize,
        _input_nr: usize,
        grad: G,
    ) -> Result<G, Self::Error> {
        Ok(grad)
    }
}

/// The flags of one backward pass.
#[derive(Debug, Clone, Copy, Default)]
pub struct BackwardOptions {
    /// Keep saved state for another pass (otherwise each node releases it after running).
    pub retain_graph: bool,
    /// Passed to each node: build a graph of the backward computation itself.
    pub create_graph: bool,
    /// `backward()` (sinks accumulate) rather than `grad()` (only capture).
    pub accumulate: bool,
}

/// One reachable node and its bookkeeping for the pass.
struct Slot<N, G> {
    node: N,
    /// The node's sequence number, read once (a Python node's is an attribute).
    seq: u64,
    /// This node's edges, resolved to slot indices: `GraphTask::edges[start..end]`
    /// (u32 keeps a slot small; a pass over 4G edges is refused in `discover`).
    edges: (u32, u32),
    /// Gradients still to arrive (edges from other reachable nodes).
    deps: u32,
    num_inputs: u32,
    /// Whether `GraphTask::captures` names this node.
    captured: bool,
    /// With `inputs=`: whether the node must run.
    needed: bool,
    buffer: Option<Vec<Option<G>>>,
}

fn range((start, end): (u32, u32)) -> std::ops::Range<usize> {
    start as usize..end as usize
}

/// A count or index as the u32 a slot stores.
fn span(n: usize) -> Result<u32, EngineError> {
    u32::try_from(n).map_err(|_| {
        EngineError(format!(
            "backward: the graph is too large ({n} edges or inputs per pass)"
        ))
    })
}

/// One backward pass over the graph reachable from `roots`. Its containers
/// hold a small graph inline: See Note [Inline pass state].
struct GraphTask<N, G> {
    slots: SmallVec<[Slot<N, G>; 4]>,
    /// Every node's edges `(slot index, input_nr)`, read from the node once,
    /// in one vector (no allocation per node).
    edges: SmallVec<[(Option<usize>, usize); 8]>,
    /// `inputs=`: `(slot, input_nr, result index)` per captured gradient.
    captures: Vec<(usize, usize, usize)>,
    index: SlotIndex,
    results: Vec<Option<G>>,
    restricted: bool,
}

/// Runs backward from `roots` (each an edge with its gradient) and returns
/// the gradients captured for `inputs` (empty without `inputs`).
pub fn run_backward<G: Grad, N: GraphNode<G>>(
    roots: Vec<(Edge<N>, G)>,
    inputs: Option<Vec<Edge<N>>>,
    opts: BackwardOptions,
) -> Result<Vec<Option<G>>, N::Error> {
    let mut task = GraphTask::discover(&roots)?;
    if let Some(targets) = inputs {
        task.restrict(targets, opts.accumulate);
    }
    let mut ready = ReadyQueue::default();
    for ((node, nr), g) in roots {
        let Some(node) = node else { continue };
        let idx = task
            .index
            .get(node.key())
            .expect("discover interned every root");
        let slot = &mut task.slots[idx];
        if slot.buffer.is_none() && slot.deps == 0 {
            ready.push((slot.seq, usize::MAX - idx));
        }
        task.add_to_buffer(idx, nr, g)?;
    }
    while let Some((_, rev)) = ready.pop() {
        task.run_node(usize::MAX - rev, opts, &mut ready)?;
    }
    Ok(task.results)
}

impl<G: Grad, N: GraphNode<G>> GraphTask<N, G> {
    /// Finds every node reachable from the roots and counts, per node, the
    /// edges that point at it. Each node is expanded once, even when it is
    /// several roots (duplicate roots must not count its edges twice).
    fn discover(roots: &[(Edge<N>, G)]) -> Result<Self, N::Error> {
        let mut task = GraphTask {
            slots: SmallVec::new(),
            edges: SmallVec::new(),
            captures: Vec::new(),
            index: SlotIndex::default(),
            results: Vec::new(),
            restricted: false,
        };
        let mut stack: SmallVec<[usize; 8]> = SmallVec::new();
        for ((node, _), _) in roots {
            if let Some(node) = node {
                if let Ok(idx) = task.intern(node)? {
                    stack.push(idx);
                }
            }
        }
        let mut scratch = EdgeBuf::new();
        while let Some(idx) = stack.pop() {
            task.slots[idx].node.next_edges(&mut scratch)?;
            let start = task.edges.len();
            for (next, nr) in scratch.drain(..) {
                let Some(next) = next else {
                    task.edges.push((None, nr));
                    continue;
                };
                let next_idx = match task.intern(&next)? {
                    Ok(new) => {
                        stack.push(new);
                        new
                    }
                    Err(known) => known,
                };
                task.slots[next_idx].deps += 1;
                task.edges.push((Some(next_idx), nr));
            }
            task.slots[idx].edges = (span(start)?, span(task.edges.len())?);
        }
        Ok(task)
    }

    /// `Ok(index)` of a newly seen node, `Err(index)` of a known one.
    fn intern(&mut self, node: &N) -> Result<Result<usize, usize>, N::Error> {
        let idx = self.slots.len();
        if let Err(known) = self.index.insert_new(node.key(), idx) {
            return Ok(Err(known));
        }
        let num_inputs = span(node.num_inputs()?)?;
        self.slots.push(Slot {
            seq: node.sequence_nr(),
            node: node.clone(),
            edges: (0, 0),
            deps: 0,
            num_inputs,
            captured: false,
            needed: true,
            buffer: None,
        });
        Ok(Ok(idx))
    }

    /// `inputs=`: capture the gradients flowing into `targets`, and run only
    /// nodes with an edge to a node from which a target is reachable (plus the
    /// targets' sinks when accumulating).
    fn restrict(&mut self, targets: Vec<Edge<N>>, accumulate: bool) {
        self.restricted = true;
        self.results = (0..targets.len()).map(|_| None).collect();
        for (i, (node, nr)) in targets.into_iter().enumerate() {
            let Some(node) = node else { continue };
            if let Some(idx) = self.index.get(node.key()) {
                self.slots[idx].captured = true;
                self.captures.push((idx, nr, i));
            }
        }
        let mut leads: Vec<bool> = self.slots.iter().map(|s| s.captured).collect();
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); self.slots.len()];
        for (idx, slot) in self.slots.iter().enumerate() {
            for &(next, _) in &self.edges[range(slot.edges)] {
                if let Some(next) = next {
                    preds[next].push(idx);
                }
            }
        }
        let mut stack: Vec<usize> = (0..leads.len()).filter(|&i| leads[i]).collect();
        while let Some(idx) = stack.pop() {
            for &p in &preds[idx] {
                if !leads[p] {
                    leads[p] = true;
                    stack.push(p);
                }
            }
        }
        for slot in &mut self.slots {
            let edges = &self.edges[range(slot.edges)];
            let feeds_target = edges.iter().any(|&(n, _)| n.is_some_and(|n| leads[n]));
            let own_sink = accumulate && slot.captured && slot.node.is_sink();
            slot.needed = feeds_target || own_sink;
        }
    }

    fn add_to_buffer(&mut self, idx: usize, nr: usize, g: G) -> Result<(), N::Error> {
        let slot = &mut self.slots[idx];
        let n = slot.num_inputs as usize;
        let buffer = slot
            .buffer
            .get_or_insert_with(|| (0..n).map(|_| None).collect());
        let Some(entry) = buffer.get_mut(nr) else {
            return Err(EngineError(format!(
                "Function {} has {} input(s) but a gradient arrived for input {}",
                slot.node.name(),
                n,
                nr
            ))
            .into());
        };
        *entry = Some(match entry.take() {
            None => g,
            Some(prev) => prev.add(g)?,
        });
        Ok(())
    }

    fn run_node(
        &mut self,
        idx: usize,
        opts: BackwardOptions,
        ready: &mut ReadyQueue,
    ) -> Result<(), N::Error> {
        let slot = &mut self.slots[idx];
        let node = slot.node.clone();
        let mut grads = slot.buffer.take().unwrap_or_default();
        let (captured, runs) = (slot.captured, !self.restricted || slot.needed);
        // Note [Captured gradients]: as torch's engine, `grad()` captures the
        // gradients of a node it does not run after the hooks of their tensors
        // (not the node's pre-hooks), and those of a node it runs as they
        // arrive, before any hook (its call runs them). `backward(inputs=)`
        // captures after every pre-hook, as `retain_grad` sees them.
        if captured && !runs {
            let grads = node.tensor_pre_hooks(grads)?;
            return self.capture(idx, &grads);
        }
        if captured && !opts.accumulate {
            self.capture(idx, &grads)?;
        }
        if node.has_pre_hooks() {
            grads = node.pre_hooks(grads)?;
        }
        if captured && opts.accumulate {
            self.capture(idx, &grads)?;
        }
        if !runs {
            return Ok(());
        }
        let saved = node.has_post_hooks().then(|| grads.clone());
        let mut outputs = node.apply(grads, opts.create_graph)?;
        if let Some(grads) = saved {
            outputs = node.post_hooks(outputs, grads)?;
        }
        if !opts.retain_graph {
            node.release()?;
        }
        let edges = range(self.slots[idx].edges);
        if outputs.len() > edges.len() {
            return Err(EngineError(format!(
                "function {} returned an incorrect number of gradients (expected {}, got {})",
                node.name(),
                edges.len(),
                outputs.len()
            ))
            .into());
        }
        outputs.resize_with(edges.len(), || None);
        for (i, (g, e)) in outputs.into_iter().zip(edges).enumerate() {
            let (next, nr) = self.edges[e];
            let Some(next) = next else { continue };
            if let Some(g) = g {
                let g = self.slots[next].node.check_incoming(&node, i, nr, g)?;
                self.add_to_buffer(next, nr, g)?;
            } else if self.slots[next].buffer.is_none() {
                let n = self.slots[next].num_inputs as usize;
                self.slots[next].buffer = Some((0..n).map(|_| None).collect());
            }
            let slot = &mut self.slots[next];
            slot.deps -= 1;
            if slot.deps == 0 && (!self.restricted || slot.needed || slot.captured) {
                ready.push((slot.seq, usize::MAX - next));
            }
        }
        Ok(())
    }

    fn capture(&mut self, idx: usize, grads: &[Option<G>]) -> Result<(), N::Error> {
        for k in 0..self.captures.len() {
            let (slot, nr, i) = self.captures[k];
            if slot != idx {
                continue;
            }
            let Some(Some(g)) = grads.get(nr) else {
                continue;
            };
            let g = g.clone();
            self.results[i] = Some(match self.results[i].take() {
                None => g,
                Some(prev) => prev.add(g)?,
            });
        }
        Ok(())
    }
}
