//! The engine on Rust graphs with `f64` and `Vec<f64>` gradients.

use std::sync::Arc;

use parking_lot::Mutex;

use super::*;

mod errors;

type Log = Arc<Mutex<Vec<String>>>;

/// Multiplies its gradient by a saved factor per edge; the factor is the
/// saved state `release` frees.
struct Scale {
    name: String,
    factors: Option<Vec<f64>>,
    log: Log,
    saw_create_graph: Arc<Mutex<Option<bool>>>,
}

impl Function<f64> for Scale {
    fn name(&self) -> &str {
        &self.name
    }
    fn apply(
        &mut self,
        grads: Vec<Option<f64>>,
        create_graph: bool,
    ) -> Result<Vec<Option<f64>>, AutogradError> {
        self.log.lock().push(self.name.clone());
        *self.saw_create_graph.lock() = Some(create_graph);
        let factors = self.factors.as_ref().ok_or(AutogradError::Released)?;
        let g: f64 = grads.iter().flatten().sum();
        Ok(factors.iter().map(|f| Some(f * g)).collect())
    }
    fn release(&mut self) {
        self.factors = None;
    }
}

/// A leaf's sink: adds into its `grad`.
struct Accumulate {
    grad: Arc<Mutex<Option<f64>>>,
    log: Log,
    name: String,
}

impl Function<f64> for Accumulate {
    fn name(&self) -> &str {
        &self.name
    }
    fn apply(
        &mut self,
        grads: Vec<Option<f64>>,
        _create_graph: bool,
    ) -> Result<Vec<Option<f64>>, AutogradError> {
        self.log.lock().push(self.name.clone());
        if let Some(g) = grads[0] {
            let mut slot = self.grad.lock();
            *slot = Some(slot.unwrap_or(0.0) + g);
        }
        Ok(Vec::new())
    }
}

struct Graph {
    log: Log,
    create_graph: Arc<Mutex<Option<bool>>>,
}

type Leaf = (NodeRef<f64>, Arc<Mutex<Option<f64>>>);

impl Graph {
    fn new() -> Self {
        Graph {
            log: Log::default(),
            create_graph: Arc::default(),
        }
    }
    fn leaf(&self, name: &str) -> Leaf {
        let grad = Arc::new(Mutex::new(None));
        let f = Accumulate {
            grad: grad.clone(),
            log: self.log.clone(),
            name: name.to_owned(),
        };
        (Node::sink(Box::new(f)), grad)
    }
    /// A node with one output whose inputs are `edges`, scaled by `factors`.
    fn op(&self, name: &str, edges: &[&NodeRef<f64>], factors: &[f64]) -> NodeRef<f64> {
        let f = Scale {
            name: name.to_owned(),
            factors: Some(factors.to_vec()),
            log: self.log.clone(),
            saw_create_graph: self.create_graph.clone(),
        };
        let edges = edges.iter().map(|n| (Some(Arc::clone(n)), 0)).collect();
        Node::new(Box::new(f), 1, edges)
    }
    fn ran(&self) -> Vec<String> {
        self.log.lock().clone()
    }
}

fn backward(roots: &[(&NodeRef<f64>, f64)], retain_graph: bool) -> Result<(), AutogradError> {
    let roots = roots
        .iter()
        .map(|(n, g)| ((Some(Arc::clone(n)), 0), *g))
        .collect();
    let opts = BackwardOptions {
        retain_graph,
        create_graph: false,
        accumulate: true,
    };
    run_backward(roots, None, opts).map(|_| ())
}

fn grad_of(
    root: &NodeRef<f64>,
    inputs: &[&NodeRef<f64>],
    accumulate: bool,
) -> Result<Vec<Option<f64>>, AutogradError> {
    let targets = inputs.iter().map(|n| (Some(Arc::clone(n)), 0)).collect();
    let opts = BackwardOptions {
        retain_graph: true,
        create_graph: false,
        accumulate,
    };
    run_backward(vec![((Some(root.clone()), 0), 1.0)], Some(targets), opts)
}

#[test]
fn chain_multiplies_the_factors() {
    let g = Graph::new();
    let (x, xg) = g.leaf("x");
    let a = g.op("A", &[&x], &[3.0]);
    let b = g.op("B", &[&a], &[2.0]);
    backward(&[(&b, 1.5)], false).unwrap();
    assert_eq!(*xg.lock(), Some(9.0));
    assert_eq!(g.ran(), ["B", "A", "x"]);
}

#[test]
fn diamond_accumulates_before_running_the_join() {
    let g = Graph::new();
    let (x, xg) = g.leaf("x");
    let root = g.op("Root", &[&x], &[1.0]);
    let left = g.op("Left", &[&root], &[2.0]);
    let right = g.op("Right", &[&root], &[5.0]);
    let y = g.op("Sum", &[&left, &right], &[1.0, 1.0]);
    backward(&[(&y, 1.0)], false).unwrap();
    assert_eq!(*xg.lock(), Some(7.0));
    // Newest first among ready nodes; Root only once both branches fed it.
    assert_eq!(g.ran(), ["Sum", "Right", "Left", "Root", "x"]);
}

#[test]
fn sinks_run_before_other_ready_nodes() {
    let g = Graph::new();
    let (x, _) = g.leaf("x");
    let (w, _) = g.leaf("w");
    let a = g.op("A", &[&w], &[1.0]);
    let y = g.op("Y", &[&x, &a], &[1.0, 1.0]);
    backward(&[(&y, 1.0)], false).unwrap();
    assert_eq!(g.ran(), ["Y", "x", "A", "w"]);
}

#[test]
fn duplicate_leaf_roots_accumulate_both_gradients() {
    let g = Graph::new();
    let (x, xg) = g.leaf("x");
    backward(&[(&x, 2.0), (&x, 2.0)], false).unwrap();
    assert_eq!(*xg.lock(), Some(4.0));
    assert_eq!(g.ran(), ["x"]);
}

#[test]
fn duplicate_interior_roots_count_edges_once() {
    let g = Graph::new();
    let (x, xg) = g.leaf("x");
    let y = g.op("Y", &[&x], &[2.0]);
    backward(&[(&y, 1.0), (&y, 1.0)], false).unwrap();
    assert_eq!(*xg.lock(), Some(4.0));
    assert_eq!(g.ran(), ["Y", "x"]);
}

#[test]
fn root_that_is_also_reached_waits_for_its_producer() {
    let g = Graph::new();
    let (x, xg) = g.leaf("x");
    let y = g.op("Y", &[&x], &[2.0]);
    let z = g.op("Z", &[&y], &[3.0]);
    backward(&[(&y, 1.0), (&z, 1.0)], false).unwrap();
    assert_eq!(*xg.lock(), Some(2.0 + 6.0));
    assert_eq!(g.ran(), ["Z", "Y", "x"]);
}

#[test]
fn inputs_restrict_the_pass_to_their_part_of_the_graph() {
    let g = Graph::new();
    let (a, ag) = g.leaf("a");
    let (b, bg) = g.leaf("b");
    let fa = g.op("FA", &[&a], &[2.0]);
    let fb = g.op("FB", &[&b], &[3.0]);
    let y = g.op("Y", &[&fa, &fb], &[1.0, 1.0]);
    let grads = grad_of(&y, &[&a], false).unwrap();
    assert_eq!(grads, [Some(2.0)]);
    assert_eq!(*ag.lock(), None, "grad() accumulates nothing");
    assert_eq!(*bg.lock(), None);
    assert_eq!(g.ran(), ["Y", "FA"], "the unused branch never runs");
}

#[test]
fn inputs_with_accumulation_run_the_targets_sinks() {
    let g = Graph::new();
    let (a, ag) = g.leaf("a");
    let (b, bg) = g.leaf("b");
    let y = g.op("Y", &[&a, &b], &[2.0, 3.0]);
    let grads = grad_of(&y, &[&b], true).unwrap();
    assert_eq!(grads, [Some(3.0)]);
    assert_eq!((*ag.lock(), *bg.lock()), (None, Some(3.0)));
}

#[test]
fn interior_inputs_capture_without_running_below() {
    let g = Graph::new();
    let (x, _) = g.leaf("x");
    let h = g.op("H", &[&x], &[4.0]);
    let y = g.op("Y", &[&h], &[5.0]);
    let unreachable = g.op("U", &[&x], &[1.0]);
    let grads = grad_of(&y, &[&h, &unreachable], false).unwrap();
    assert_eq!(grads, [Some(5.0), None]);
    assert_eq!(g.ran(), ["Y"]);
}

/// Note [Captured gradients]: a node the pass does not run is captured without
/// its pre-hooks (they do not run: only its tensors' hooks would); one it runs
/// is captured before them by `grad()` (its call runs them) and after them by
/// `backward(inputs=)`.
#[test]
fn captured_gradients_are_taken_where_torch_takes_them() {
    let g = Graph::new();
    let (x, _) = g.leaf("x");
    let h = g.op("H", &[&x], &[4.0]);
    let y = g.op("Y", &[&h], &[5.0]);
    h.register_prehook(Box::new(|grads| {
        grads[0] = grads[0].map(|v| v * 10.0);
        Ok(())
    }));
    assert_eq!(grad_of(&y, &[&h], false).unwrap(), [Some(5.0)]);
    assert_eq!(g.ran(), ["Y"]);
    assert_eq!(
        grad_of(&y, &[&h, &x], false).unwrap(),
        [Some(5.0), Some(200.0)]
    );
    assert_eq!(grad_of(&y, &[&h], true).unwrap(), [Some(5.0)]);
    assert_eq!(
        grad_of(&y, &[&h, &x], true).unwrap(),
        [Some(50.0), Some(200.0)]
    );
}

#[test]
fn retain_graph_keeps_state_for_another_pass() {
    let g = Graph::new();
    let (x, xg) = g.leaf("x");
    let y = g.op("Y", &[&x], &[2.0]);
    backward(&[(&y, 1.0)], true).unwrap();
    backward(&[(&y, 1.0)], false).unwrap();
    assert_eq!(*xg.lock(), Some(4.0));
}

#[test]
fn create_graph_reaches_the_nodes() {
    let g = Graph::new();
    let (x, _) = g.leaf("x");
    let y = g.op("Y", &[&x], &[2.0]);
    let opts = BackwardOptions {
        retain_graph: true,
        create_graph: true,
        accumulate: true,
    };
    run_backward(vec![((Some(y.clone()), 0), 1.0)], None, opts).unwrap();
    assert_eq!(*g.create_graph.lock(), Some(true));
}

#[test]
fn hooks_replace_gradients_and_outputs() {
    let g = Graph::new();
    let (x, xg) = g.leaf("x");
    let y = g.op("Y", &[&x], &[2.0]);
    y.register_prehook(Box::new(|grads| {
        grads[0] = grads[0].map(|v| v * 10.0);
        Ok(())
    }));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let seen2 = seen.clone();
    y.register_hook(Box::new(move |outs, grads| {
        seen2.lock().push((outs[0], grads[0]));
        outs[0] = outs[0].map(|v| v + 1.0);
        Ok(())
    }));
    backward(&[(&y, 1.0)], true).unwrap();
    assert_eq!(*seen.lock(), [(Some(20.0), Some(10.0))]);
    assert_eq!(*xg.lock(), Some(21.0));
}

#[test]
fn long_chains_run_and_drop_without_recursion() {
    let g = Graph::new();
    let (x, xg) = g.leaf("x");
    let mut y = x;
    for _ in 0..100_000 {
        y = g.op("Id", &[&y], &[1.0]);
    }
    backward(&[(&y, 1.0)], false).unwrap();
    assert_eq!(*xg.lock(), Some(1.0));
    drop(y);
}

#[test]
fn a_unary_node_stays_small() {
    // Node + Arc counts + one edge: the per-node budget of a unary op's graph
    // is 200 bytes, and the engine's own part must leave room for the tensor.
    let node = std::mem::size_of::<Node<f64>>() + 2 * std::mem::size_of::<usize>();
    let edge = std::mem::size_of::<Edge<NodeRef<f64>>>();
    assert!(node + edge <= 160, "{node} + {edge} bytes");
}
