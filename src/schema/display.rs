//! The canonical printer: `str(torch._C.parse_schema(s))`.

use super::types::{AliasInfo, Argument, BaseType, DefaultValue, FunctionSchema, Type};
use std::fmt::{self, Write};

fn base_name(b: BaseType) -> &'static str {
    use BaseType::*;
    match b {
        Tensor => "Tensor",
        Int => "int",
        SymInt => "SymInt",
        Float => "float",
        Bool => "bool",
        Str => "str",
        Scalar => "Scalar",
        ScalarType => "ScalarType",
        Layout => "Layout",
        MemoryFormat => "MemoryFormat",
        Device => "Device",
        // torch stores DeviceIndex as int and prints it so.
        DeviceIndex => "int",
        Stream => "Stream",
        Storage => "Storage",
        Generator => "Generator",
        Complex => "complex",
        SymBool => "SymBool",
        QScheme => "QScheme",
        Dimname => "Dimname",
        Any => "Any",
        AnyClassType => "AnyClassType",
        AnyEnumType => "AnyEnumType",
        NoneType => "NoneType",
    }
}

/// A type in schema syntax (`int[]`, `Tensor?`, `(int, str)`, `Dict(str, Tensor)`).
pub fn type_text(t: &Type) -> String {
    match t {
        Type::Base(b) => base_name(*b).to_string(),
        Type::Var(v) => v.clone(),
        Type::Class(c) => c.clone(),
        Type::List(e) => format!("{}[]", type_text(e)),
        Type::Optional(e) => format!("{}?", type_text(e)),
        Type::Tuple(es) => format!(
            "({})",
            es.iter().map(type_text).collect::<Vec<_>>().join(", ")
        ),
        Type::Dict(k, v) => format!("Dict({}, {})", type_text(k), type_text(v)),
        Type::Future(e) => format!("Future({})", type_text(e)),
        Type::RRef(e) => format!("RRef({})", type_text(e)),
        Type::Await(e) => format!("Await({})", type_text(e)),
    }
}

/// torch's float printing: whole values as `1.`, otherwise 17 significant digits (`%.17g`).
pub fn float_text(d: f64) -> String {
    if d.is_finite() && d.abs() < 1e10 && d == d.trunc() {
        let sign = if d == 0.0 && d.is_sign_negative() {
            "-"
        } else {
            ""
        };
        return format!("{sign}{}.", d as i64);
    }
    if !d.is_finite() {
        return if d.is_nan() {
            "nan".into()
        } else if d > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    let sci = format!("{d:.16e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..17).contains(&exp) {
        let m = trim_zeros(mantissa);
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{m}e{sign}{:02}", exp.abs())
    } else {
        let decimals = (16 - exp).max(0) as usize;
        trim_zeros(&format!("{d:.decimals$}")).to_string()
    }
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn join<T>(items: &[T], f: impl Fn(&T) -> String) -> String {
    format!("[{}]", items.iter().map(f).collect::<Vec<_>>().join(", "))
}

fn complex_text(re: f64, im: f64) -> String {
    let sign = if im >= 0.0 { '+' } else { '-' };
    format!("{}{sign}{}j", float_text(re), float_text(im.abs()))
}

/// A default value as torch prints it. `ty` (the argument's type) enables the
/// `int[N]` compaction of all-equal lists.
pub fn default_text(v: &DefaultValue, ty: Option<&Type>) -> String {
    match v {
        DefaultValue::None => "None".into(),
        DefaultValue::Bool(b) => (if *b { "True" } else { "False" }).into(),
        DefaultValue::Int(i) => i.to_string(),
        DefaultValue::Float(f) => float_text(*f),
        DefaultValue::Complex(r, i) => complex_text(*r, *i),
        DefaultValue::Str(s) => quoted(s),
        DefaultValue::IntList(l) => {
            let int_list =
                matches!(ty, Some(Type::List(e)) if matches!(**e, Type::Base(BaseType::Int)));
            if int_list && l.len() > 1 && l.iter().all(|x| *x == l[0]) {
                l[0].to_string()
            } else {
                join(l, |x| x.to_string())
            }
        }
        DefaultValue::FloatList(l) => join(l, |x| float_text(*x)),
        DefaultValue::BoolList(l) => join(l, |x| (if *x { "True" } else { "False" }).to_string()),
        DefaultValue::ComplexList(l) => join(l, |(r, i)| complex_text(*r, *i)),
        DefaultValue::EmptyList => "[]".into(),
    }
}

impl fmt::Display for AliasInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}", self.before_set.join("|"))?;
        if self.is_write {
            f.write_char('!')?;
        }
        if self.before_set != self.after_set {
            write!(f, " -> {}", self.after_set.join("|"))?;
        }
        f.write_char(')')
    }
}

impl fmt::Display for Argument {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (is_opt, inner) = match &self.ty {
            Type::Optional(t) => (true, &**t),
            t => (false, t),
        };
        match inner {
            Type::List(elem) => {
                f.write_str(&type_text(elem))?;
                if let Some(c) = self.alias_info.as_ref().and_then(|a| a.contained.first()) {
                    write!(f, "{c}")?;
                }
                match self.n {
                    Some(n) => write!(f, "[{n}]")?,
                    None => f.write_str("[]")?,
                }
            }
            t => f.write_str(&type_text(t))?,
        }
        if let Some(a) = self
            .alias_info
            .as_ref()
            .filter(|a| !a.before_set.is_empty())
        {
            write!(f, "{a}")?;
        }
        if is_opt {
            f.write_char('?')?;
        }
        if !self.name.is_empty() {
            write!(f, " {}", self.name)?;
        }
        if let Some(d) = &self.default {
            write!(f, "={}", default_text(d, Some(&self.ty)))?;
        }
        Ok(())
    }
}

impl fmt::Display for FunctionSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if !self.overload_name.is_empty() {
            write!(f, ".{}", self.overload_name)?;
        }
        f.write_char('(')?;
        let mut seen_kw = false;
        for (i, a) in self.arguments.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            if a.kwarg_only && !seen_kw {
                seen_kw = true;
                f.write_str("*, ")?;
            }
            write!(f, "{a}")?;
        }
        if self.is_vararg {
            f.write_str(if self.arguments.is_empty() {
                "..."
            } else {
                ", ..."
            })?;
        }
        f.write_str(") -> ")?;
        let rets = &self.returns;
        let mut paren =
            !((rets.len() == 1 && !self.is_varret) || (rets.is_empty() && self.is_varret));
        let single = (rets.len() == 1 && !paren).then(|| rets[0].to_string());
        if single.as_deref().is_some_and(|s| s.starts_with('(')) {
            paren = true;
        }
        if !paren {
            return f.write_str(single.as_deref().unwrap_or("..."));
        }
        f.write_char('(')?;
        for (i, r) in rets.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{r}")?;
        }
        if self.is_varret {
            f.write_str(if rets.is_empty() { "..." } else { ", ..." })?;
        }
        f.write_char(')')
    }
}
