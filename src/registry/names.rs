//! Operator names: `ns::name.overload` is parsed here and nowhere else.

use crate::error::{Error, Result};

/// A parsed operator name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpName {
    pub ns: String,
    pub name: String,
    /// `""` for the default overload.
    pub overload: String,
}

impl OpName {
    /// Parse `name`, `name.overload` or `ns::name.overload`; `lib_ns` fills in a
    /// missing namespace and must match an explicit one.
    pub fn parse(s: &str, lib_ns: &str) -> Result<Self> {
        let (ns, rest) = match s.split_once("::") {
            Some((ns, rest)) => (ns, rest),
            None => (lib_ns, s),
        };
        if ns != lib_ns && lib_ns != "_" {
            return Err(Error::Registration(format!(
                "Explicitly provided namespace ({ns}) in operator name '{s}' does not match \
                 the namespace of the enclosing Library ({lib_ns}); use Library('{ns}', ...) \
                 or drop the namespace from the name"
            )));
        }
        let (name, overload) = split_overload(rest);
        let overload = if overload == "default" { "" } else { overload };
        if !is_identifier(name) || !(overload.is_empty() || is_identifier(overload)) {
            return Err(Error::Registration(format!(
                "invalid operator name '{s}': expected 'name', 'name.overload' or 'ns::name.overload'"
            )));
        }
        Ok(OpName {
            ns: ns.to_string(),
            name: name.to_string(),
            overload: overload.to_string(),
        })
    }

    /// `ns::name` or `ns::name.overload`.
    pub fn qualified(&self) -> String {
        // Built by hand: `format!` costs as much as the rest of an `impl`'s name handling.
        let mut s =
            String::with_capacity(self.ns.len() + self.name.len() + self.overload.len() + 3);
        s.push_str(&self.ns);
        s.push_str("::");
        s.push_str(&self.name);
        if !self.overload.is_empty() {
            s.push('.');
            s.push_str(&self.overload);
        }
        s
    }
}

/// `ns::name.overload` → (`ns`, `name`, `overload`); the overload is `""` for the default.
pub fn split_qualified(s: &str) -> (&str, &str, &str) {
    let (ns, rest) = s.split_once("::").unwrap_or(("", s));
    let (name, overload) = split_overload(rest);
    (ns, name, overload)
}

/// Split `a.b` into (`a`, `b`); (`a`, ``) without a dot.
pub fn split_overload(s: &str) -> (&str, &str) {
    s.split_once('.').unwrap_or((s, ""))
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

/// A namespace must be a plain identifier.
pub fn check_namespace(ns: &str) -> Result<()> {
    if is_identifier(ns) {
        Ok(())
    } else {
        Err(Error::Registration(format!(
            "invalid Library namespace '{ns}': expected an identifier such as 'mylib'"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form() {
        let n = OpName::parse("add.Tensor", "aten").unwrap();
        assert_eq!(n.qualified(), "aten::add.Tensor");
        assert_eq!(
            OpName::parse("foo::bar", "foo").unwrap().qualified(),
            "foo::bar"
        );
        assert_eq!(
            OpName::parse("bar.default", "foo").unwrap().qualified(),
            "foo::bar"
        );
        assert_eq!(OpName::parse("x::bar", "_").unwrap().ns, "x");
    }

    #[test]
    fn rejects_mismatch_and_garbage() {
        assert!(OpName::parse("other::bar", "foo").is_err());
        assert!(OpName::parse("", "foo").is_err());
        assert!(OpName::parse("a b", "foo").is_err());
        assert!(check_namespace("my-lib").is_err());
    }
}
