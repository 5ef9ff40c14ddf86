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
pub mod type_slots;
