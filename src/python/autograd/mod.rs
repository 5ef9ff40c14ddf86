//! Autograd from Python: graph nodes (`node/`), the built-in ops' Autograd
//! kernel (`kernel/`) and what their nodes save (`saved/`), the Rust
//! backward formulas (`formulas/`), `Function.apply` (`function/`), the
//! engine glue, gradient accumulation, `Tensor.backward` and recording.

pub mod accumulate;
pub mod backward_entry;
pub mod engine;
pub mod final_callbacks;
pub mod formulas;
pub mod function;
pub mod kernel;
pub mod node;
pub mod record;
pub mod saved;
pub mod saved_hooks;
pub mod view_history;
pub mod view_replay;

use pyo3::prelude::*;

/// Add this area's classes and functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<node::PyNodeBase>()?;
    m.add_function(wrap_pyfunction!(node::_next_sequence_nr, m)?)?;
    m.add_function(wrap_pyfunction!(node::_graph_reaches, m)?)?;
    m.add_function(wrap_pyfunction!(record::_grad_accumulator, m)?)?;
    m.add_function(wrap_pyfunction!(record::_record_node, m)?)?;
    m.add_class::<kernel::PyPlainAutogradKernel>()?;
    m.add_class::<view_replay::PyViewReplay>()?;
    kernel::install_call_slot(m.py());
    m.add_class::<formulas::PyNodeApply>()?;
    formulas::api::install_call_slot(m.py());
    m.add_function(wrap_pyfunction!(saved::_clear_meta_cache, m)?)?;
    m.add_class::<function::PyFunctionSpec>()?;
    function::install_call_slot(m.py());
    m.add_class::<function::PyApplyDescriptor>()?;
    m.add_function(wrap_pyfunction!(function::_function_apply, m)?)?;
    m.add_function(wrap_pyfunction!(function::_set_forward_ad_active, m)?)?;
    m.add_function(wrap_pyfunction!(engine::_run_backward, m)?)?;
    m.add_function(wrap_pyfunction!(final_callbacks::_queue_final_callback, m)?)?;
    m.add_function(wrap_pyfunction!(final_callbacks::_checkpoint_valid, m)?)?;
    m.add_function(wrap_pyfunction!(saved_hooks::_push_saved_tensors_hooks, m)?)?;
    m.add_function(wrap_pyfunction!(saved_hooks::_pop_saved_tensors_hooks, m)?)?;
    m.add_function(wrap_pyfunction!(
        saved_hooks::_current_saved_tensors_hooks,
        m
    )?)?;
    m.add_function(wrap_pyfunction!(backward_entry::_backward_method, m)?)?;
    Ok(())
}
