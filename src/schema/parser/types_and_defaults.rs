//! Types (with alias annotations) and default values.

use super::{PResult, Parser, COMMON_TYPES};
use crate::schema::lexer::Tok;
use crate::schema::types::{AliasInfo, BaseType, DefaultValue, Type};

fn base_type(name: &str) -> Option<BaseType> {
    use BaseType::*;
    Some(match name {
        "Tensor" => Tensor,
        "int" => Int,
        "SymInt" => SymInt,
        "float" => Float,
        "bool" => Bool,
        "str" => Str,
        "Scalar" => Scalar,
        "ScalarType" => ScalarType,
        "Layout" => Layout,
        "MemoryFormat" => MemoryFormat,
        "Device" => Device,
        "DeviceIndex" => DeviceIndex,
        "Stream" => Stream,
        "Storage" => Storage,
        "Generator" => Generator,
        "complex" => Complex,
        "SymBool" => SymBool,
        "QScheme" => QScheme,
        "Dimname" => Dimname,
        "Any" => Any,
        "AnyClassType" => AnyClassType,
        "AnyEnumType" => AnyEnumType,
        "NoneType" => NoneType,
        _ => return None,
    })
}

/// Enum identifiers torch accepts as defaults, with the integers it stores.
fn enum_value(name: &str) -> Option<i64> {
    Some(match name {
        "contiguous_format" | "strided" | "per_tensor_affine" | "uint8" => 0,
        "preserve_format" | "sparse_coo" | "per_channel_affine" | "int8" | "Mean" => 1,
        "channels_last" | "sparse_csr" | "per_tensor_symmetric" | "int16" | "Sum" => 2,
        "channels_last_3d" | "per_channel_symmetric" | "int32" => 3,
        "long" | "int64" => 4,
        "half" | "float16" => 5,
        "float" | "float32" => 6,
        "double" | "float64" => 7,
        "complex32" => 8,
        "cfloat" | "complex64" => 9,
        "cdouble" | "complex128" => 10,
        "bool" => 11,
        "bfloat16" => 15,
        _ => return None,
    })
}

impl Parser<'_> {
    /// A type with its argument-level alias annotation and fixed list size.
    pub(super) fn ty(&mut self) -> PResult<(Type, Option<AliasInfo>, Option<i64>)> {
        let (mut ty, mut alias) = self.base()?;
        let mut n = None;
        loop {
            if self.is("[") {
                let open = self.bump();
                if let Tok::Number(s) = self.peek().tok {
                    let t = self.bump();
                    match s.parse::<i64>() {
                        Ok(v) if v >= 0 => n = Some(v),
                        _ => {
                            return self.err(
                                t,
                                format!("invalid list size '{s}': expected a non-negative integer"),
                            )
                        }
                    }
                }
                if !self.eat("]") {
                    let t = self.peek();
                    return self.err(
                        t,
                        format!(
                            "expected ']' to close the list type opened here at {} but found {}",
                            open.start,
                            Self::describe(t.tok)
                        ),
                    );
                }
                ty = Type::List(Box::new(ty));
                let container = self.alias_annotation()?;
                alias = match (alias, container) {
                    (Some(elem), Some(mut c)) => {
                        c.contained.push(elem);
                        Some(c)
                    }
                    (Some(elem), None) => Some(AliasInfo {
                        is_write: elem.is_write,
                        contained: vec![elem],
                        ..Default::default()
                    }),
                    (None, c) => c,
                };
            } else if self.eat("?") {
                ty = Type::Optional(Box::new(ty));
                if let Some(a) = self.alias_annotation()? {
                    alias = Some(a);
                }
            } else {
                return Ok((ty, alias, n));
            }
        }
    }

    fn base(&mut self) -> PResult<(Type, Option<AliasInfo>)> {
        let t = self.peek();
        let ty = match t.tok {
            Tok::Punct("(") => {
                self.bump();
                let mut elems = Vec::new();
                if !self.eat(")") {
                    loop {
                        elems.push(self.ty()?.0);
                        if self.eat(")") {
                            break;
                        }
                        self.expect(",", "between tuple element types")?;
                    }
                }
                Type::Tuple(elems)
            }
            Tok::Ident(name) => {
                self.bump();
                self.named_type(name, t)?
            }
            other => {
                return self.err(
                    t,
                    format!("expected a type but found {}", Self::describe(other)),
                )
            }
        };
        let alias = self.alias_annotation()?;
        Ok((ty, alias))
    }

    fn named_type(&mut self, name: &str, t: crate::schema::lexer::Token<'_>) -> PResult<Type> {
        if let Some(b) = base_type(name) {
            return Ok(Type::Base(b));
        }
        match name {
            "Dict" => {
                self.expect("(", "after Dict")?;
                let k = self.ty()?.0;
                self.expect(",", "between Dict key and value types")?;
                let v = self.ty()?.0;
                self.expect(")", "to close Dict(K, V)")?;
                Ok(Type::Dict(Box::new(k), Box::new(v)))
            }
            "Future" | "RRef" | "Await" => {
                self.expect("(", &format!("after {name}"))?;
                let inner = Box::new(self.ty()?.0);
                self.expect(")", &format!("to close {name}(T)"))?;
                Ok(match name {
                    "Future" => Type::Future(inner),
                    "RRef" => Type::RRef(inner),
                    _ => Type::Await(inner),
                })
            }
            "__torch__" => {
                let mut path = String::from(name);
                while self.eat(".") {
                    path.push('.');
                    path.push_str(self.ident("a class path component")?);
                }
                if !path.starts_with("__torch__.torch.classes.") || path.matches('.').count() < 4 {
                    return self.err(t, format!("invalid custom class '{path}': expected __torch__.torch.classes.<ns>.<Class>"));
                }
                Ok(Type::Class(path))
            }
            _ if name.starts_with(|c: char| c.is_ascii_lowercase()) => {
                Ok(Type::Var(name.to_string()))
            }
            _ => self.err(
                t,
                format!("unknown type '{name}'; common types are: {COMMON_TYPES}"),
            ),
        }
    }

    /// `(a)`, `(a!)`, `(a -> b|*)`, `(*)`, or a bare `!`; None if absent.
    fn alias_annotation(&mut self) -> PResult<Option<AliasInfo>> {
        if self.is("!") {
            self.bump();
            self.fresh += 1;
            let set = format!("${}", self.fresh - 1);
            return Ok(Some(AliasInfo {
                before_set: vec![set],
                after_set: vec![],
                is_write: true,
                contained: vec![],
            }));
        }
        let starts_annotation = self.is("(")
            && matches!(self.peek_at(1), Tok::Ident(_) | Tok::Punct("*"))
            && matches!(self.peek_at(2), Tok::Punct("!" | ")" | "|" | "->"));
        if !starts_annotation {
            return Ok(None);
        }
        self.bump();
        let before = self.alias_set()?;
        let is_write = self.eat("!");
        let after = if self.eat("->") {
            if self.is(")") {
                Vec::new()
            } else {
                self.alias_set()?
            }
        } else {
            before.clone()
        };
        self.expect(")", "to close the alias annotation")?;
        Ok(Some(AliasInfo {
            before_set: before,
            after_set: after,
            is_write,
            contained: vec![],
        }))
    }

    fn alias_set(&mut self) -> PResult<Vec<String>> {
        let mut set = Vec::new();
        loop {
            let t = self.peek();
            match t.tok {
                Tok::Punct("*") => set.push("*".to_string()),
                Tok::Ident(s) => set.push(s.to_string()),
                other => {
                    return self.err(
                        t,
                        format!(
                        "malformed alias annotation: expected an alias name or '*' but found {}",
                        Self::describe(other)
                    ),
                    )
                }
            }
            self.bump();
            if !self.eat("|") {
                return Ok(set);
            }
        }
    }

    /// A default value, checked against the argument's type.
    pub(super) fn default(&mut self, ty: &Type, n: Option<i64>) -> PResult<DefaultValue> {
        let t = self.peek();
        let inner = ty.unwrap_optional();
        let value = self.literal(inner)?;
        let bad = |p: &Self, what: &str| {
            p.err(
                t,
                format!(
                    "invalid default {what} for an argument of type {}",
                    type_name(ty)
                ),
            )
        };
        match (&value, inner) {
            (DefaultValue::None, _)
                if matches!(ty, Type::Optional(_))
                    || matches!(inner, Type::Base(BaseType::NoneType | BaseType::Any)) =>
            {
                Ok(value)
            }
            (DefaultValue::None, _) => {
                bad(self, "None (only optional types, 'T?', default to None)")
            }
            (DefaultValue::Int(v), Type::List(elem))
                if matches!(**elem, Type::Base(BaseType::Int | BaseType::SymInt)) =>
            {
                match n {
                    Some(n) => Ok(DefaultValue::IntList(vec![*v; n as usize])),
                    None => bad(
                        self,
                        "integer (a list type without a size needs a list default)",
                    ),
                }
            }
            (DefaultValue::Float(v), Type::List(elem))
                if matches!(**elem, Type::Base(BaseType::Float)) && n.is_some() =>
            {
                Ok(DefaultValue::FloatList(vec![*v; n.unwrap_or(0) as usize]))
            }
            (DefaultValue::Bool(v), Type::List(elem))
                if matches!(**elem, Type::Base(BaseType::Bool)) && n.is_some() =>
            {
                Ok(DefaultValue::BoolList(vec![*v; n.unwrap_or(0) as usize]))
            }
            (_, Type::List(elem)) => self.list_default(value, elem, t),
            (
                DefaultValue::Int(_),
                Type::Base(
                    BaseType::Int
                    | BaseType::SymInt
                    | BaseType::Scalar
                    | BaseType::DeviceIndex
                    | BaseType::ScalarType
                    | BaseType::Layout
                    | BaseType::MemoryFormat
                    | BaseType::QScheme,
                ),
            ) => Ok(value),
            (DefaultValue::Int(v), Type::Base(BaseType::Float)) => {
                Ok(DefaultValue::Float(*v as f64))
            }
            (DefaultValue::Float(_), Type::Base(BaseType::Float | BaseType::Scalar)) => Ok(value),
            (
                DefaultValue::Bool(_),
                Type::Base(BaseType::Bool | BaseType::Scalar | BaseType::SymBool),
            ) => Ok(value),
            (DefaultValue::Str(_), Type::Base(BaseType::Str | BaseType::Device)) => Ok(value),
            (DefaultValue::Complex(..), Type::Base(BaseType::Complex | BaseType::Scalar)) => {
                Ok(value)
            }
            (DefaultValue::Int(v), Type::Base(BaseType::Complex)) => {
                Ok(DefaultValue::Complex(*v as f64, 0.0))
            }
            (DefaultValue::Float(v), Type::Base(BaseType::Complex)) => {
                Ok(DefaultValue::Complex(*v, 0.0))
            }
            (_, Type::Base(BaseType::Any) | Type::Var(_)) => Ok(value),
            (v, _) => bad(self, &format!("'{}'", literal_text(v))),
        }
    }

    fn list_default(
        &self,
        value: DefaultValue,
        elem: &Type,
        t: crate::schema::lexer::Token<'_>,
    ) -> PResult<DefaultValue> {
        let ok = match (&value, elem.unwrap_optional()) {
            (DefaultValue::EmptyList, Type::Base(BaseType::Int | BaseType::SymInt)) => {
                return Ok(DefaultValue::IntList(vec![]))
            }
            (DefaultValue::EmptyList, Type::Base(BaseType::Float)) => {
                return Ok(DefaultValue::FloatList(vec![]))
            }
            (DefaultValue::EmptyList, Type::Base(BaseType::Bool)) => {
                return Ok(DefaultValue::BoolList(vec![]))
            }
            (DefaultValue::IntList(_), Type::Base(BaseType::Int | BaseType::SymInt)) => true,
            (DefaultValue::IntList(v), Type::Base(BaseType::Float)) => {
                return Ok(DefaultValue::FloatList(
                    v.iter().map(|x| *x as f64).collect(),
                ))
            }
            (DefaultValue::FloatList(_), Type::Base(BaseType::Float)) => true,
            (DefaultValue::BoolList(_), Type::Base(BaseType::Bool)) => true,
            (DefaultValue::ComplexList(_), Type::Base(BaseType::Complex)) => true,
            _ => false,
        };
        if ok {
            Ok(value)
        } else {
            self.err(t, format!(
                "invalid default '{}' for an argument of type {}[]: list defaults are only allowed for int, SymInt, float, bool and complex lists",
                literal_text(&value), type_name(elem)))
        }
    }

    fn literal(&mut self, ty: &Type) -> PResult<DefaultValue> {
        let t = self.bump();
        match t.tok {
            Tok::Ident("None") => Ok(DefaultValue::None),
            Tok::Ident("True") => Ok(DefaultValue::Bool(true)),
            Tok::Ident("False") => Ok(DefaultValue::Bool(false)),
            Tok::Ident(s @ ("inf" | "nan" | "infinity")) => self.err(
                t,
                format!("invalid default '{s}': non-finite floats cannot be defaults"),
            ),
            Tok::Ident(s) => match enum_value(s) {
                Some(v) if matches!(ty, Type::Base(_)) => Ok(DefaultValue::Int(v)),
                _ => self.err(
                    t,
                    format!("invalid default '{s}': not a literal or a known enum value"),
                ),
            },
            Tok::Number(s) => self.number(s, t),
            Tok::Str(s) => Ok(DefaultValue::Str(unescape(s))),
            Tok::Punct("[") => self.list_literal(),
            other => self.err(
                t,
                format!(
                    "expected a default value but found {}",
                    Self::describe(other)
                ),
            ),
        }
    }

    fn number(&self, s: &str, t: crate::schema::lexer::Token<'_>) -> PResult<DefaultValue> {
        if let Some(body) = s.strip_suffix('j') {
            let split = body
                .char_indices()
                .skip(1)
                .filter(|(i, c)| (*c == '+' || *c == '-') && !body[..*i].ends_with(['e', 'E']))
                .last();
            let (re, im) = match split {
                Some((i, _)) => (&body[..i], &body[i..]),
                None => ("0", body),
            };
            return match (re.parse::<f64>(), im.parse::<f64>()) {
                (Ok(r), Ok(i)) if r.is_finite() && i.is_finite() => Ok(DefaultValue::Complex(r, i)),
                _ => self.err(t, format!("invalid complex number '{s}'")),
            };
        }
        if !s.contains(['.', 'e', 'E']) {
            return s
                .parse::<i64>()
                .map(DefaultValue::Int)
                .or_else(|_| self.err(t, format!("invalid integer '{s}'")));
        }
        match s.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(DefaultValue::Float(v)),
            _ => self.err(t, format!("invalid number '{s}'")),
        }
    }

    fn list_literal(&mut self) -> PResult<DefaultValue> {
        let mut items = Vec::new();
        if !self.eat("]") {
            loop {
                let t = self.peek();
                let v = self.literal(&Type::Base(BaseType::Any))?;
                if !matches!(
                    v,
                    DefaultValue::Int(_)
                        | DefaultValue::Float(_)
                        | DefaultValue::Bool(_)
                        | DefaultValue::Complex(..)
                ) {
                    return self.err(
                        t,
                        "invalid list default: elements must be numbers or booleans",
                    );
                }
                items.push(v);
                if self.eat("]") {
                    break;
                }
                self.expect(",", "between list elements")?;
            }
        }
        Ok(collect_list(items))
    }
}

fn collect_list(items: Vec<DefaultValue>) -> DefaultValue {
    use DefaultValue as D;
    if items.is_empty() {
        return D::EmptyList;
    }
    if items.iter().all(|v| matches!(v, D::Int(_))) {
        return D::IntList(
            items
                .iter()
                .map(|v| if let D::Int(i) = v { *i } else { 0 })
                .collect(),
        );
    }
    if items.iter().all(|v| matches!(v, D::Bool(_))) {
        return D::BoolList(items.iter().map(|v| matches!(v, D::Bool(true))).collect());
    }
    if items.iter().all(|v| matches!(v, D::Int(_) | D::Float(_))) {
        return D::FloatList(
            items
                .iter()
                .map(|v| match v {
                    D::Int(i) => *i as f64,
                    D::Float(f) => *f,
                    _ => 0.0,
                })
                .collect(),
        );
    }
    D::ComplexList(
        items
            .iter()
            .map(|v| match v {
                D::Int(i) => (*i as f64, 0.0),
                D::Float(f) => (*f, 0.0),
                D::Complex(r, i) => (*r, *i),
                _ => (0.0, 0.0),
            })
            .collect(),
    )
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

fn literal_text(v: &DefaultValue) -> String {
    crate::schema::display::default_text(v, None)
}

fn type_name(t: &Type) -> String {
    crate::schema::display::type_text(t)
}
