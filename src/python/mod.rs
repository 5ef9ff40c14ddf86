//! The extension module `opyard._core`: the only pyo3 code.

// pyo3 0.22's #[pymethods] expansion converts `PyErr` into itself for every
// fallible method; newer clippy flags each one.
#![allow(clippy::useless_conversion)]

mod autograd;
mod dispatch;
mod errors;
mod fake;
mod ffi;
mod kernels_py;
mod schema;
mod tensor;

use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    schema::register(m)?;
    m.add(
        "SchemaError",
        m.py().get_type_bound::<errors::SchemaError>(),
    )?;
    m.add_class::<dispatch::keys::PyDispatchKeySet>()?;
    m.add_class::<tensor::base::PyTensorBase>()?;
    m.add_class::<tensor::base::PyDevice>()?;
    m.add_class::<tensor::version::PyVersionCounter>()?;
    tensor::init::init(m)?;
    m.add_function(wrap_pyfunction!(tensor::init::_set_tensor_types, m)?)?;
    m.add_function(wrap_pyfunction!(tensor::grad::_set_grad_check, m)?)?;
    m.add_function(wrap_pyfunction!(tensor::grad::_set_requires_grad_hook, m)?)?;
    m.add_function(wrap_pyfunction!(tensor::init::_share_state, m)?)?;
    m.add_function(wrap_pyfunction!(tensor::init::_slot_alias, m)?)?;
    m.add_class::<dispatch::operator::PyOpOverload>()?;
    m.add_class::<dispatch::operator::PyOpOverloadPacket>()?;
    m.add_class::<dispatch::custom_op::PyCustomOpBase>()?;
    m.add_function(wrap_pyfunction!(dispatch::custom_op::_outputs_alias, m)?)?;
    m.add_class::<dispatch::tls::PyKeyGuard>()?;
    m.add_class::<kernels_py::PyRustKernel>()?;
    ffi::call_slot::install_packet_call_slots(m.py());
    kernels_py::install_call_slot(m.py());
    m.add_function(wrap_pyfunction!(kernels_py::_kernel_setup, m)?)?;
    m.add_function(wrap_pyfunction!(kernels_py::_kernel_plain_type, m)?)?;
    m.add_class::<dispatch::tls::PySetKeysGuard>()?;
    m.add_function(wrap_pyfunction!(dispatch::keys::_key_names, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::lazy::_defer_definitions, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::lazy::_defined_lazily, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::lazy::_is_pending, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::lazy::_pending_definitions, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::keys::_set_key_enum, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::binder::_register_types, m)?)?;
    m.add_function(wrap_pyfunction!(
        tensor::base::_rename_privateuse1_backend,
        m
    )?)?;
    m.add_function(wrap_pyfunction!(dispatch::tls::_local_keysets, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::tls::_is_excluded, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::tls::_is_included, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::library::_new_library, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::library::_destroy_library, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::library::_define, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::library::_impl, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::library::_fallback, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::bulk::_define_many, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::bulk::_impl_many, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::bulk::_replace_kernel, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::library::_find_op, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::library::_packet, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::packet::_set_packet_resolver, m)?)?;
    m.add_function(wrap_pyfunction!(
        dispatch::operator_protocol::_operator_packet,
        m
    )?)?;
    m.add_function(wrap_pyfunction!(dispatch::library::_dangling_impls, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::library::_check_invariants, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::library::_dump, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::library::_table_entries, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::library::_what_if, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::library::_explain, m)?)?;
    m.add_function(wrap_pyfunction!(
        dispatch::function_protocol::_set_override_handler,
        m
    )?)?;
    m.add_function(wrap_pyfunction!(
        dispatch::binder::_register_plain_tensor_type,
        m
    )?)?;
    m.add_function(wrap_pyfunction!(dispatch::binder::_set_protocol_lookup, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::tls::_function_state, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::tls::_set_function_state, m)?)?;
    m.add_function(wrap_pyfunction!(
        dispatch::tls::_set_python_key_included,
        m
    )?)?;
    m.add_class::<autograd::node::PyNodeBase>()?;
    m.add_function(wrap_pyfunction!(autograd::node::_next_sequence_nr, m)?)?;
    m.add_function(wrap_pyfunction!(autograd::record::_set_sink_type, m)?)?;
    m.add_function(wrap_pyfunction!(autograd::record::_grad_accumulator, m)?)?;
    m.add_function(wrap_pyfunction!(autograd::record::_record_node, m)?)?;
    m.add_class::<autograd::kernel::PyPlainAutogradKernel>()?;
    m.add_class::<autograd::view_replay::PyViewReplay>()?;
    m.add_class::<tensor::view_method::PySizesMethod>()?;
    autograd::kernel::install_call_slot(m.py());
    m.add_class::<autograd::formulas::PyNodeApply>()?;
    autograd::formulas::api::install_call_slot(m.py());
    m.add_function(wrap_pyfunction!(autograd::saved::_clear_meta_cache, m)?)?;
    m.add_class::<autograd::function::PyFunctionSpec>()?;
    autograd::function::install_call_slot(m.py());
    m.add_class::<autograd::function::PyApplyDescriptor>()?;
    m.add_function(wrap_pyfunction!(autograd::function::_function_init, m)?)?;
    m.add_function(wrap_pyfunction!(autograd::function::_function_apply, m)?)?;
    m.add_function(wrap_pyfunction!(
        autograd::function::_set_forward_ad_active,
        m
    )?)?;
    m.add_function(wrap_pyfunction!(autograd::engine::_engine_init, m)?)?;
    m.add_function(wrap_pyfunction!(autograd::engine::_run_backward, m)?)?;
    m.add_function(wrap_pyfunction!(
        autograd::backward_entry::_backward_method,
        m
    )?)?;
    m.add_class::<fake::cache::PyFakeFallback>()?;
    m.add_function(wrap_pyfunction!(fake::key::_fake_mode, m)?)?;
    m.add_function(wrap_pyfunction!(fake::key::_fake_mode_swap, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
