//! The dispatcher's Python face: operators and packets (the call path),
//! binding arguments to a schema, key sets, thread-local guards, the
//! registration entry points (`Library`, bulk tables, operators defined on
//! first use), custom ops, and the Python protocols on the call path.

pub mod binder;
pub mod bulk;
pub mod custom_op;
pub mod function_protocol;
pub mod keys;
pub mod lazy;
pub mod library;
pub mod operator;
pub mod operator_protocol;
pub mod packet;
pub mod tls;

use pyo3::prelude::*;

/// Add this area's classes and functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<keys::PyDispatchKeySet>()?;
    m.add_class::<operator::PyOpOverload>()?;
    m.add_class::<operator::PyOpOverloadPacket>()?;
    m.add_class::<custom_op::PyCustomOpBase>()?;
    custom_op::install_call_slot(m.py());
    m.add_function(wrap_pyfunction!(custom_op::_outputs_alias, m)?)?;
    m.add_class::<tls::PyKeyGuard>()?;
    crate::python::ffi::call_slot::install_packet_call_slots(m.py());
    m.add_class::<tls::PySetKeysGuard>()?;
    m.add_function(wrap_pyfunction!(keys::_key_names, m)?)?;
    m.add_function(wrap_pyfunction!(keys::_backend_table, m)?)?;
    m.add_function(wrap_pyfunction!(lazy::_defer_definitions, m)?)?;
    m.add_function(wrap_pyfunction!(lazy::_defined_lazily, m)?)?;
    m.add_function(wrap_pyfunction!(lazy::_is_pending, m)?)?;
    m.add_function(wrap_pyfunction!(lazy::_pending_definitions, m)?)?;
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
    m.add_function(wrap_pyfunction!(operator_protocol::_operator_packet, m)?)?;
    m.add_function(wrap_pyfunction!(packet::_tuple_packet, m)?)?;
    m.add_function(wrap_pyfunction!(library::_dangling_impls, m)?)?;
    m.add_function(wrap_pyfunction!(library::_check_invariants, m)?)?;
    m.add_function(wrap_pyfunction!(library::_dump, m)?)?;
    m.add_function(wrap_pyfunction!(library::_table_entries, m)?)?;
    m.add_function(wrap_pyfunction!(library::_what_if, m)?)?;
    m.add_function(wrap_pyfunction!(library::_explain, m)?)?;
    m.add_function(wrap_pyfunction!(binder::_register_plain_tensor_type, m)?)?;
    m.add_function(wrap_pyfunction!(tls::_function_state, m)?)?;
    m.add_function(wrap_pyfunction!(tls::_set_function_state, m)?)?;
    m.add_function(wrap_pyfunction!(tls::_set_python_key_included, m)?)?;
    m.add_function(wrap_pyfunction!(tls::_exclude_above_python, m)?)?;
    m.add_function(wrap_pyfunction!(tls::_restore_keysets, m)?)?;
    m.add_function(wrap_pyfunction!(
        function_protocol::_handle_function_protocol,
        m
    )?)?;
    Ok(())
}
