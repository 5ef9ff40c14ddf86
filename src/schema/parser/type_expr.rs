//! Types and their alias annotations (`schema_type_parser.cpp` is the reference).

use super::{PResult, Parser};
use crate::schema::lexer::{is_reserved, Kind, Token};
use crate::schema::types::{AliasInfo, BaseType, Type};

/// What the message for an unknown type suggests.
const COMMON_TYPES: &str = "Tensor, SymInt, int, float, bool, str, Scalar, ScalarType, Layout, \
     MemoryFormat, Device, Generator, Dimname, T[], T[N], T?, (T1, T2), Dict(K, V)";

/// The named scalar and object types. `ConstQuantizerPtr` is torch's alias of
/// `int`. Keyed on (length, first byte, last byte), unique for these names, so
/// a lookup is one jump and one comparison.
fn base_type(name: &str) -> Option<BaseType> {
    use BaseType::*;
    let b = name.as_bytes();
    let (&first, &last) = (b.first()?, b.last()?);
    let (text, ty) = match (b.len(), first, last) {
        (6, b'T', b'r') => ("Tensor", Tensor),
        (3, b'i', b't') => ("int", Int),
        (17, b'C', b'r') => ("ConstQuantizerPtr", Int),
        (6, b'S', b't') => ("SymInt", SymInt),
        (5, b'f', b't') => ("float", Float),
        (4, b'b', b'l') => ("bool", Bool),
        (3, b's', b'r') => ("str", Str),
        (6, b'S', b'r') => ("Scalar", Scalar),
        (10, b'S', b'e') => ("ScalarType", ScalarType),
        (6, b'L', b't') => ("Layout", Layout),
        (12, b'M', b't') => ("MemoryFormat", MemoryFormat),
        (6, b'D', b'e') => ("Device", Device),
        (11, b'D', b'x') => ("DeviceIndex", DeviceIndex),
        (6, b'S', b'm') => ("Stream", Stream),
        (7, b'S', b'e') => ("Storage", Storage),
        (9, b'G', b'r') => ("Generator", Generator),
        (7, b'c', b'x') => ("complex", Complex),
        (7, b'S', b'l') => ("SymBool", SymBool),
        (7, b'Q', b'e') => ("QScheme", QScheme),
        (9, b'Q', b'r') => ("Quantizer", Quantizer),
        (7, b'C', b'e') => ("Capsule", Capsule),
        (7, b'D', b'e') => ("Dimname", Dimname),
        (3, b'A', b'y') => ("Any", Any),
        (12, b'A', b'e') => ("AnyClassType", AnyClassType),
        (11, b'A', b'e') => ("AnyEnumType", AnyEnumType),
        (4, b'N', b'e') => ("None", NoneType),
        (8, b'N', b'e') => ("NoneType", NoneType),
        _ => return None,
    };
    (name == text).then_some(ty)
}

impl Parser<'_> {
    /// A type; the alias annotation torch attaches to the argument goes to
    /// `alias` (an out-parameter: results stay small, see `argument`).
    pub(super) fn type_expr(&mut self, alias: &mut Option<AliasInfo>) -> PResult<Type> {
        let t = self.cur;
        let mut ty = match t.kind {
            Kind::LParen => self.tuple()?,
            Kind::Ident => self.named_type(t, alias)?,
            _ => {
                return self.err(
                    t.at(),
                    format!("expected a type but found {}", self.describe(t)),
                )
            }
        };
        loop {
            match self.cur.kind {
                // `[` followed by a number is a sized list, handled by the argument.
                Kind::LBracket if self.peek2() == Kind::RBracket => {
                    self.bump();
                    self.bump();
                    ty = Type::List(Box::new(ty));
                    self.container_alias(alias)?;
                }
                Kind::Question => {
                    self.bump();
                    ty = Type::Optional(Box::new(ty));
                    if alias.is_none() {
                        self.annotation_after_optional(alias)?;
                    }
                }
                _ => return Ok(ty),
            }
        }
    }

    /// `(T1, T2, ...)`; element annotations are dropped, as torch drops them.
    fn tuple(&mut self) -> PResult<Type> {
        self.bump();
        let mut elems = Vec::new();
        if !self.eat(Kind::RParen) {
            loop {
                elems.push(self.type_expr(&mut None)?);
                if self.eat(Kind::RParen) {
                    break;
                }
                self.expect(
                    Kind::Comma,
                    "',' between tuple element types (or ')' to close the tuple)",
                )?;
            }
        }
        Ok(Type::Tuple(elems))
    }

    fn named_type(&mut self, t: Token, alias: &mut Option<AliasInfo>) -> PResult<Type> {
        let name = self.text(t);
        self.bump();
        if let Some(b) = base_type(name) {
            self.annotation_into(alias)?;
            return Ok(Type::Base(b));
        }
        let ty = match name {
            "Dict" => {
                self.expect(Kind::LParen, "'(' after Dict")?;
                let k = self.type_expr(&mut None)?;
                self.expect(
                    Kind::Comma,
                    "',' between the key and value types of Dict(K, V)",
                )?;
                let v = self.type_expr(&mut None)?;
                self.expect(Kind::RParen, "')' to close Dict(K, V)")?;
                Type::Dict(Box::new(k), Box::new(v))
            }
            "Future" | "RRef" | "Await" => return self.wrapper(name),
            "__torch__" => return self.class_path(t),
            _ => self.type_var(name, t)?,
        };
        self.annotation_into(alias)?;
        Ok(ty)
    }

    /// `Future(T)`, `RRef(T)`, `Await(T)`.
    fn wrapper(&mut self, name: &str) -> PResult<Type> {
        self.expect(Kind::LParen, &format!("'(' after {name}"))?;
        let inner = Box::new(self.type_expr(&mut None)?);
        self.expect(Kind::RParen, &format!("')' to close {name}(T)"))?;
        Ok(match name {
            "Future" => Type::Future(inner),
            "RRef" => Type::RRef(inner),
            _ => Type::Await(inner),
        })
    }

    /// `__torch__.torch.classes.<ns>.<Class>` (the `__torch__` token is consumed).
    fn class_path(&mut self, t: Token) -> PResult<Type> {
        let mut path = String::from("__torch__");
        let parts = [
            (Some("torch"), "'torch'"),
            (Some("classes"), "'classes'"),
            (None, "the namespace"),
            (None, "the class name"),
        ];
        for (want, what) in parts {
            self.expect(
                Kind::Dot,
                "'.' in a custom class path __torch__.torch.classes.<ns>.<Class>",
            )?;
            let part = self.cur;
            let text = self.text(part);
            if part.kind != Kind::Ident || want.is_some_and(|w| w != text) {
                return self.err(
                    part.at(),
                    format!(
                    "expected {what} in custom class path __torch__.torch.classes.<ns>.<Class> \
                     (started at column {}) but found {}", t.at() + 1, self.describe(part)),
                );
            }
            self.bump();
            path.push('.');
            path.push_str(text);
        }
        Ok(Type::Class(path))
    }

    /// A lowercase identifier torch does not know is a type variable (`t`).
    fn type_var(&self, name: &str, t: Token) -> PResult<Type> {
        if is_reserved(name) {
            return self.err(t.at(), format!("'{name}' is a reserved word, not a type"));
        }
        match name {
            "double" => self.err(
                t.at(),
                "Use `float` instead of `double` in an operator's schema string. \
                 `float` in schema corresponds to the double type in C++",
            ),
            "int64_t" => self.err(
                t.at(),
                "Use `SymInt` or `int` instead of `int64_t` in an operator's \
                 schema string. `SymInt` corresponds to c10::SymInt in C++ while `int` in schema \
                 corresponds to the int64_t type in C++.",
            ),
            _ if name.starts_with(|c: char| c.is_ascii_lowercase()) => {
                Ok(Type::Var(name.to_string()))
            }
            _ => self.err(
                t.at(),
                format!("unknown type '{name}'; common valid schema types are: {COMMON_TYPES}"),
            ),
        }
    }

    /// After `[]` or `[N]`: an element annotation becomes the `contained` of the
    /// list's own (possibly empty) annotation, which copies its `is_write`.
    pub(super) fn container_alias(&mut self, alias: &mut Option<AliasInfo>) -> PResult<()> {
        let container = match self.empty_annotation_before_list() {
            Some(empty) => Some(empty),
            None if alias.is_none() => return self.annotation_into(alias),
            None => self.alias_annotation()?,
        };
        *alias = match (alias.take(), container) {
            (Some(e), Some(mut c)) => {
                c.contained.push(e);
                Some(c)
            }
            (Some(e), None) => Some(AliasInfo {
                is_write: e.is_write,
                contained: vec![e],
                ..AliasInfo::default()
            }),
            (None, c) => c,
        };
        Ok(())
    }

    /// `(a)`, `(a!)`, `(a -> b|*)`, `(*)`, or a bare `!`; None if absent.
    /// torch prints the element annotation of a nested list such as
    /// `Tensor(a)[][]` as an empty annotation, `Tensor[]()[]` (the inner list's
    /// own annotation has no sets), which its parser cannot read. `()` and
    /// `(!)` are read where that printed form puts them: right before a `[`.
    fn empty_annotation_before_list(&mut self) -> Option<AliasInfo> {
        if self.cur.kind != Kind::LParen {
            return None;
        }
        let saved = self.cur;
        self.bump();
        let is_write = self.eat(Kind::Bang);
        if self.eat(Kind::RParen) && self.cur.kind == Kind::LBracket {
            return Some(AliasInfo {
                is_write,
                ..AliasInfo::default()
            });
        }
        self.cur = saved;
        None
    }

    /// torch prints an annotated optional list element as `Tensor?(a!)[]`
    /// (its printer writes the element type, then the element's annotation)
    /// and a doubly optional one as `Tensor?(a!)?`, although its parser reads
    /// neither. Reading those printed forms (an annotation after `?` that a
    /// `[` or `?` follows) keeps printing a fixed point; anywhere else an
    /// annotation after `?` stays an error, as in torch. Lexing is stateless,
    /// so trying and backing off is just restoring the current token.
    fn annotation_after_optional(&mut self, alias: &mut Option<AliasInfo>) -> PResult<()> {
        if !matches!(self.cur.kind, Kind::Bang | Kind::LParen) {
            return Ok(());
        }
        if let Some(empty) = self.empty_annotation_before_list() {
            *alias = Some(empty);
            return Ok(());
        }
        let (cur, fresh) = (self.cur, self.fresh);
        match self.alias_annotation() {
            Ok(Some(a)) if matches!(self.cur.kind, Kind::LBracket | Kind::Question) => {
                *alias = Some(a)
            }
            _ => (self.cur, self.fresh) = (cur, fresh),
        }
        Ok(())
    }

    /// `alias_annotation` into `out`, touching it only when an annotation is
    /// present (the common case has none and costs one comparison).
    #[inline]
    fn annotation_into(&mut self, out: &mut Option<AliasInfo>) -> PResult<()> {
        if matches!(self.cur.kind, Kind::Bang | Kind::LParen) {
            *out = self.alias_annotation()?;
        }
        Ok(())
    }

    fn alias_annotation(&mut self) -> PResult<Option<AliasInfo>> {
        match self.cur.kind {
            Kind::Bang => {
                self.bump();
                // torch names the fresh set `$<n>`; its after-set stays empty,
                // which is why `Tensor!` prints as `Tensor($0! -> )`.
                let set = format!("${}", self.fresh);
                self.fresh += 1;
                Ok(Some(AliasInfo {
                    before_set: vec![set],
                    is_write: true,
                    ..AliasInfo::default()
                }))
            }
            Kind::LParen => {
                let open = self.bump();
                let before_set = self.alias_set(false)?;
                let is_write = self.eat(Kind::Bang);
                let after_set = if self.eat(Kind::Arrow) {
                    self.alias_set(true)?
                } else {
                    before_set.clone()
                };
                if self.cur.kind != Kind::RParen {
                    return self.err(
                        self.cur.at(),
                        format!(
                        "malformed alias annotation: expected ')' to close the alias annotation \
                         opened at column {} but found {}", open.at() + 1, self.describe(self.cur)),
                    );
                }
                self.bump();
                Ok(Some(AliasInfo {
                    before_set,
                    after_set,
                    is_write,
                    contained: Vec::new(),
                }))
            }
            _ => Ok(None),
        }
    }

    /// `a|b|*`; duplicates collapse (torch keeps sets). An empty set is allowed
    /// after `->` only, so the printed form of `Tensor!` reads back.
    fn alias_set(&mut self, allow_empty: bool) -> PResult<Vec<String>> {
        let mut set: Vec<String> = Vec::new();
        if allow_empty && self.cur.kind == Kind::RParen {
            return Ok(set);
        }
        loop {
            let t = self.cur;
            let name = match t.kind {
                Kind::Star => "*",
                Kind::Ident if !is_reserved(self.text(t)) => self.text(t),
                _ => {
                    return self.err(t.at(), format!(
                        "malformed alias annotation: expected an alias set name or '*' but found {}",
                        self.describe(t)))
                }
            };
            if name != "*" && set.iter().any(|s| s == "*") {
                return self.err(
                    t.at(),
                    format!(
                    "malformed alias annotation: '{name}' follows the wildcard '*', which already \
                     aliases every set"),
                );
            }
            self.bump();
            if !set.iter().any(|s| s == name) {
                set.push(name.to_string());
            }
            if !self.eat(Kind::Pipe) {
                return Ok(set);
            }
        }
    }
}
