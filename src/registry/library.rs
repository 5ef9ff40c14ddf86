//! Library records and the rules of torch's DEF / IMPL / FRAGMENT kinds.

use super::names::OpName;
use crate::dispatch::DispatchKey;
use crate::error::{Error, Result};
use crate::schema::FunctionSchema;
use std::sync::Arc;

/// What a library may do: define (DEF once per namespace, FRAGMENT any number
/// of times) and implement (all kinds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LibraryKind {
    Def,
    Impl,
    Fragment,
}

impl LibraryKind {
    /// Parse `"DEF"`, `"IMPL"` or `"FRAGMENT"`.
    pub fn parse(s: &str) -> Result<Self> {
        match s {
            "DEF" => Ok(LibraryKind::Def),
            "IMPL" => Ok(LibraryKind::Impl),
            "FRAGMENT" => Ok(LibraryKind::Fragment),
            other => Err(Error::BadKind(other.to_string())),
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            LibraryKind::Def => "DEF",
            LibraryKind::Impl => "IMPL",
            LibraryKind::Fragment => "FRAGMENT",
        }
    }
}

/// One open library.
#[derive(Clone, Debug)]
pub struct LibraryInfo {
    pub ns: String,
    pub kind: LibraryKind,
    pub dispatch_key: Option<DispatchKey>,
    pub provenance: Arc<str>,
}

impl LibraryInfo {
    pub fn new(ns: &str, kind: LibraryKind, key: Option<DispatchKey>, provenance: &str) -> Self {
        LibraryInfo {
            ns: ns.to_string(),
            kind,
            dispatch_key: key,
            provenance: Arc::from(provenance),
        }
    }
}

pub fn duplicate_def_library(ns: &str, prev: &str, new: &str) -> Error {
    Error::Registration(format!(
        "Only a single Library(\"{ns}\", \"DEF\") can be used to register the namespace {ns}; \
         please put all of your definitions in a single DEF library, or use \
         Library(\"{ns}\", \"FRAGMENT\") to add to it. If you were trying to specify \
         implementations, use Library(\"{ns}\", \"IMPL\"). Previous registration of the DEF \
         library was at {prev}; latest registration was at {new}"
    ))
}

/// A library may define into its own namespace unless it is IMPL; a schema
/// without a namespace gets the library's.
pub fn check_can_define(info: &LibraryInfo, schema: &mut FunctionSchema) -> Result<()> {
    if info.kind == LibraryKind::Impl {
        return Err(Error::Registration(format!(
            "Library.define: cannot define '{}' in an IMPL library of namespace '{}': IMPL \
             libraries only register kernels; use Library(\"{}\", \"FRAGMENT\") or \"DEF\"",
            schema.name, info.ns, info.ns
        )));
    }
    match schema.name.split_once("::") {
        None => schema.name = format!("{}::{}", info.ns, schema.name),
        Some((ns, _)) if ns != info.ns => {
            return Err(Error::Registration(format!(
                "Library.define: the schema's namespace '{ns}' (in '{}') does not match the \
                 Library's namespace '{}'; define it in Library(\"{ns}\", ...) or drop the \
                 namespace from the schema",
                schema.name, info.ns
            )))
        }
        Some(_) => {}
    }
    if schema.overload_name == "default" {
        return Err(Error::Registration(format!(
            "Library.define: '{}': overload name 'default' is reserved for the unnamed overload",
            schema.name
        )));
    }
    Ok(())
}

pub fn duplicate_def(qualified: &str, prev: &str, new: &str) -> Error {
    Error::Registration(format!(
        "Tried to register an operator ({qualified}) with the same name and overload name \
         multiple times. Each overload's schema should only be registered with a single call \
         to define(). Duplicate registration: {new}. Original registration: {prev}"
    ))
}

/// The key an impl goes to: explicit, else the library's, else CompositeImplicitAutograd.
pub fn impl_key(
    info: &LibraryInfo,
    name: &OpName,
    key: Option<DispatchKey>,
) -> Result<DispatchKey> {
    let key = match (key, info.dispatch_key) {
        (Some(k), Some(lk)) if k != lk => {
            return Err(Error::Registration(format!(
                "Library.impl: explicitly provided dispatch key ({k}) for {} is inconsistent \
                 with the dispatch key of the enclosing Library ({lk}); drop one of them",
                name.qualified()
            )))
        }
        (Some(k), _) | (None, Some(k)) => k,
        (None, None) => DispatchKey::CompositeImplicitAutograd,
    };
    if key == DispatchKey::Undefined {
        return Err(Error::Registration(format!(
            "Library.impl: cannot register a kernel for {} at Undefined; use \
             CompositeExplicitAutograd for calls without tensor arguments",
            name.qualified()
        )));
    }
    Ok(key)
}

pub fn override_refused(qualified: &str, key: DispatchKey, prev: &str) -> Error {
    // torch's sentence first (code matches it), then where and what to do.
    let (ns, name) = qualified.split_once("::").unwrap_or(("", qualified));
    let name = name.split('.').next().unwrap_or(name);
    Error::Registration(format!(
        "This is not allowed since there's already a kernel registered from python overriding \
         {name}'s behavior for {key} dispatch key and {ns} namespace. (Library.impl of \
         {qualified}: the kernel at {key} registered at {prev}, and allow_override=False; pass \
         allow_override=True to override it, or destroy the library that registered it)"
    ))
}

/// Fallbacks live in the global namespace `_` and need a key.
pub fn fallback_key(info: &LibraryInfo, key: Option<DispatchKey>) -> Result<DispatchKey> {
    if info.ns != "_" {
        return Err(Error::Registration(format!(
            "Library.fallback: fallbacks can only be registered with a library of the global \
             namespace \"_\" (e.g. Library(\"_\", \"IMPL\")), but this library's namespace \
             is \"{}\"",
            info.ns
        )));
    }
    match key.or(info.dispatch_key) {
        Some(DispatchKey::Undefined) | None => Err(Error::Registration(
            "Library.fallback: a dispatch key is required, e.g. fallback(fn, \"CPU\")".into(),
        )),
        Some(k) => Ok(k),
    }
}
