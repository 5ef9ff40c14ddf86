//! The core's one error type. `src/python/errors.rs` maps each variant to a
//! specific Python exception class.

use crate::schema::SchemaError;

/// Result alias for the core.
pub type Result<T> = std::result::Result<T, Error>;

/// Everything the core can refuse, with messages in torch's voice.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The schema text does not parse.
    #[error(transparent)]
    Schema(#[from] SchemaError),
    /// A dispatch key name that does not exist: `could not parse dispatch key: X`.
    #[error("could not parse dispatch key: {0}")]
    UnknownKey(String),
    /// A `Library` kind other than DEF / IMPL / FRAGMENT.
    #[error("Unsupported kind: {0}. Expected one of 'DEF', 'IMPL', 'FRAGMENT'")]
    BadKind(String),
    /// A registration the rules forbid (duplicate def, namespace mismatch, ...).
    #[error("{0}")]
    Registration(String),
    /// An operator name that is not (or no longer) defined.
    #[error("{0}")]
    UnknownOp(String),
}
