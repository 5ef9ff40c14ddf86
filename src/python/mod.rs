//! The extension module `opyard._core`: the only pyo3 code.

// pyo3 0.22's #[pymethods] expansion converts `PyErr` into itself for every
// fallible method; newer clippy flags each one.
#![allow(clippy::useless_conversion)]

mod accumulate;
mod ag_apply;
mod ag_apply_api;
mod ag_apply_saved;
mod ag_kernel;
mod ag_kernel_api;
mod ag_output;
mod ag_saved;
mod ag_slots;
mod autograd;
mod backward_entry;
mod binder;
mod bulk;
mod call_slot;
mod custom_op;
mod device;
mod dtype_flags;
mod errors;
mod fake_cache;
mod fake_fields;
mod fake_key;
mod final_callbacks;
mod function;
mod function_apply;
mod function_backward;
mod function_outputs;
mod function_protocol;
mod kernels;
mod keys;
mod lazy;
mod library;
mod ndarray;
mod node;
mod node_ctx;
mod node_extras;
mod node_shapes;
mod operator_protocol;
mod ops;
mod packet;
mod record;
mod saved_fast;
mod saved_hooks;
mod schema;
pub mod tensor;
mod tensor_attrs;
mod tensor_fields;
mod tensor_getsets;
mod tensor_grad;
mod tensor_init;
pub mod tensor_slots;
mod tls;
mod type_slots;
pub mod version;
mod view_method;
mod view_replay;

use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    schema::register(m)?;
    m.add(
        "SchemaError",
        m.py().get_type_bound::<errors::SchemaError>(),
    )?;
    m.add_class::<keys::PyDispatchKeySet>()?;
    m.add_class::<tensor::PyTensorBase>()?;
    m.add_class::<tensor::PyDevice>()?;
    m.add_class::<version::PyVersionCounter>()?;
    tensor_init::init(m)?;
    m.add_function(wrap_pyfunction!(tensor_init::_set_tensor_types, m)?)?;
    m.add_function(wrap_pyfunction!(tensor_grad::_set_grad_check, m)?)?;
    m.add_function(wrap_pyfunction!(tensor_grad::_set_requires_grad_hook, m)?)?;
    m.add_function(wrap_pyfunction!(tensor_init::_share_state, m)?)?;
    m.add_function(wrap_pyfunction!(tensor_init::_slot_alias, m)?)?;
    m.add_class::<ops::PyOpOverload>()?;
    m.add_class::<ops::PyOpOverloadPacket>()?;
    m.add_class::<custom_op::PyCustomOpBase>()?;
    m.add_function(wrap_pyfunction!(custom_op::_outputs_alias, m)?)?;
    m.add_class::<tls::PyKeyGuard>()?;
    m.add_class::<kernels::PyRustKernel>()?;
    call_slot::install_packet_call_slots(m.py());
    kernels::install_call_slot(m.py());
    m.add_function(wrap_pyfunction!(kernels::_kernel_setup, m)?)?;
    m.add_function(wrap_pyfunction!(kernels::_kernel_plain_type, m)?)?;
    m.add_class::<tls::PySetKeysGuard>()?;
    m.add_function(wrap_pyfunction!(keys::_key_names, m)?)?;
    m.add_function(wrap_pyfunction!(lazy::_defer_definitions, m)?)?;
    m.add_function(wrap_pyfunction!(lazy::_defined_lazily, m)?)?;
    m.add_function(wrap_pyfunction!(lazy::_is_pending, m)?)?;
    m.add_function(wrap_pyfunction!(lazy::_pending_definitions, m)?)?;
    m.add_function(wrap_pyfunction!(keys::_set_key_enum, m)?)?;
    m.add_function(wrap_pyfunction!(binder::_register_types, m)?)?;
    m.add_function(wrap_pyfunction!(tensor::_rename_privateuse1_backend, m)?)?;
    m.add_function(wrap_pyfunction!(tls::_local_keysets, m)?)?;
    m.add_function(wrap_pyfunction!(tls::_is_excluded, m)?)?;
    m.add_function(wrap_pyfunction!(tls::_is_included, m)?)?;
    m.add_function(wrap_pyfunction!(library::_new_library, m)?)?;
    m.add_function(wrap_pyfunction!(library::_destroy_library, m)?)?;
    m.add_function(wrap_pyfunction!(library::_define, m)?)?;
    m.add_function(wrap_pyfunction!(library::_impl, m)?)?;
    m.add_function(wrap_pyfunction!(library::_fallback, m)?)?;
    m.add_function(wrap_pyfunction!(bulk::_define_many, m)?)?;
    m.add_function(wrap_pyfunction!(bulk::_impl_many, m)?)?;
    m.add_function(wrap_pyfunction!(bulk::_replace_kernel, m)?)?;
    m.add_function(wrap_pyfunction!(library::_find_op, m)?)?;
    m.add_function(wrap_pyfunction!(library::_packet, m)?)?;
    m.add_function(wrap_pyfunction!(packet::_set_packet_resolver, m)?)?;
    m.add_function(wrap_pyfunction!(operator_protocol::_operator_packet, m)?)?;
    m.add_function(wrap_pyfunction!(library::_dangling_impls, m)?)?;
    m.add_function(wrap_pyfunction!(library::_check_invariants, m)?)?;
    m.add_function(wrap_pyfunction!(library::_dump, m)?)?;
    m.add_function(wrap_pyfunction!(library::_table_entries, m)?)?;
    m.add_function(wrap_pyfunction!(library::_what_if, m)?)?;
    m.add_function(wrap_pyfunction!(library::_explain, m)?)?;
    m.add_function(wrap_pyfunction!(
        function_protocol::_set_override_handler,
        m
    )?)?;
    m.add_function(wrap_pyfunction!(binder::_register_plain_tensor_type, m)?)?;
    m.add_function(wrap_pyfunction!(binder::_set_protocol_lookup, m)?)?;
    m.add_function(wrap_pyfunction!(tls::_function_state, m)?)?;
    m.add_function(wrap_pyfunction!(tls::_set_function_state, m)?)?;
    m.add_function(wrap_pyfunction!(tls::_set_python_key_included, m)?)?;
    m.add_class::<node::PyNodeBase>()?;
    m.add_function(wrap_pyfunction!(node::_next_sequence_nr, m)?)?;
    m.add_function(wrap_pyfunction!(record::_set_sink_type, m)?)?;
    m.add_function(wrap_pyfunction!(record::_grad_accumulator, m)?)?;
    m.add_function(wrap_pyfunction!(record::_record_node, m)?)?;
    m.add_class::<ag_kernel::PyPlainAutogradKernel>()?;
    m.add_class::<view_replay::PyViewReplay>()?;
    m.add_class::<view_method::PySizesMethod>()?;
    ag_kernel::install_call_slot(m.py());
    m.add_class::<ag_apply::PyNodeApply>()?;
    ag_apply_api::install_call_slot(m.py());
    m.add_function(wrap_pyfunction!(ag_saved::_clear_meta_cache, m)?)?;
    m.add_class::<function::PyFunctionSpec>()?;
    function::install_call_slot(m.py());
    m.add_class::<function::PyApplyDescriptor>()?;
    m.add_function(wrap_pyfunction!(function::_function_init, m)?)?;
    m.add_function(wrap_pyfunction!(function::_function_apply, m)?)?;
    m.add_function(wrap_pyfunction!(function::_set_forward_ad_active, m)?)?;
    m.add_function(wrap_pyfunction!(autograd::_engine_init, m)?)?;
    m.add_function(wrap_pyfunction!(autograd::_run_backward, m)?)?;
    m.add_function(wrap_pyfunction!(final_callbacks::_queue_final_callback, m)?)?;
    m.add_function(wrap_pyfunction!(final_callbacks::_checkpoint_valid, m)?)?;
    m.add_function(wrap_pyfunction!(saved_hooks::_push_saved_tensors_hooks, m)?)?;
    m.add_function(wrap_pyfunction!(saved_hooks::_pop_saved_tensors_hooks, m)?)?;
    m.add_function(wrap_pyfunction!(saved_hooks::_current_saved_tensors_hooks, m)?)?;
    m.add_function(wrap_pyfunction!(backward_entry::_backward_method, m)?)?;
    m.add_class::<fake_cache::PyFakeFallback>()?;
    m.add_function(wrap_pyfunction!(fake_key::_fake_mode, m)?)?;
    m.add_function(wrap_pyfunction!(fake_key::_fake_mode_swap, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
