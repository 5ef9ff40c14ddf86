//! Types and their alias annotations (`schema_type_parser.cpp` is the reference).

use super::{clip, PResult, Parser};
use crate::schema::display::type_text;
use crate::schema::lexer::{is_reserved, Kind, Token};
use crate::schema::types::{AliasInfo, BaseType, Type, MAX_NESTING};
use crate::schema::union::MAX_UNION_MEMBERS;

/// What the message for an unknown type suggests.
const COMMON_TYPES: &str = "Tensor, SymInt, int, float, bool, str, Scalar, ScalarType, Layout, \
     MemoryFormat, Device, Generator, T[], T[N], T?, (T1, T2), Dict(K, V)";

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
        (3, b'A', b'y') => ("Any", Any),
        (12, b'A', b'e') => ("AnyClassType", AnyClassType),
        (11, b'A', b'e') => ("AnyEnumType", AnyEnumType),
        (4, b'N', b'e') => ("None", NoneType),
        (8, b'N', b'e') => ("NoneType", NoneType),
        _ => return None,
    };
    (name == text).then_some(ty)
}

/// What a level of nesting is, for the message of the limit.
const NESTING: &str = "each tuple, Dict(K, V), Future(T), RRef(T), Await(T), '[]', '[N]' and '?' \
     adds a level; flatten the type";

impl<'a> Parser<'a> {
    /// A type nested inside `outer` enclosing type levels, and its own depth
    /// (`int` is 1, `int[]?` is 3). The alias annotation torch attaches to
    /// the argument goes to `alias` (an out-parameter: results stay small,
    /// see `argument`). `outer + depth` never exceeds `MAX_NESTING`, which
    /// also bounds this function's recursion; see Note [Nesting limit].
    pub(super) fn type_expr(
        &mut self,
        alias: &mut Option<AliasInfo>,
        outer: u32,
    ) -> PResult<(Type, u32)> {
        let t = self.cur;
        if outer >= MAX_NESTING {
            return self.too_deep(t.at());
        }
        let (mut ty, mut depth) = match t.kind {
            Kind::LParen => self.tuple(outer)?,
            Kind::Ident => self.named_type(t, alias, outer)?,
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
                    depth = self.one_level_deeper(outer, depth)?;
                    self.bump();
                    self.bump();
                    ty = Type::List(Box::new(ty));
                    self.container_alias(alias)?;
                }
                Kind::Question => {
                    depth = self.one_level_deeper(outer, depth)?;
                    self.bump();
                    ty = Type::Optional(Box::new(ty));
                    if alias.is_none() {
                        self.annotation_after_optional(alias)?;
                    }
                }
                _ => return Ok((ty, depth)),
            }
        }
    }

    /// The depth of a type of `depth` levels, nested inside `outer` levels,
    /// once the current token (a `[]`, `[N]` or `?`) wraps it in one more
    /// level; the nesting error if that exceeds the limit.
    pub(super) fn one_level_deeper(&self, outer: u32, depth: u32) -> PResult<u32> {
        if outer + depth >= MAX_NESTING {
            return self.too_deep(self.cur.at());
        }
        Ok(depth + 1)
    }

    /// The nesting-limit error at byte `at`. See Note [Nesting limit].
    #[cold]
    pub(super) fn too_deep<T>(&self, at: usize) -> PResult<T> {
        self.err(
            at,
            format!("type nesting exceeds the limit of {MAX_NESTING} levels ({NESTING})"),
        )
    }

    /// `(T1, T2, ...)`; element annotations are dropped, as torch drops them.
    fn tuple(&mut self, outer: u32) -> PResult<(Type, u32)> {
        self.bump();
        let mut elems = Vec::new();
        let mut deepest = 0;
        if !self.eat(Kind::RParen) {
            loop {
                let (elem, depth) = self.type_expr(&mut None, outer + 1)?;
                elems.push(elem);
                deepest = deepest.max(depth);
                if self.eat(Kind::RParen) {
                    break;
                }
                self.expect(
                    Kind::Comma,
                    "',' between tuple element types (or ')' to close the tuple)",
                )?;
            }
        }
        Ok((Type::Tuple(elems), deepest + 1))
    }

    fn named_type(
        &mut self,
        t: Token,
        alias: &mut Option<AliasInfo>,
        outer: u32,
    ) -> PResult<(Type, u32)> {
        let name = self.text(t);
        self.bump();
        if let Some(b) = base_type(name) {
            self.annotation_into(alias)?;
            return Ok((Type::Base(b), 1));
        }
        let (ty, depth) = match name {
            "Dict" => {
                self.expect(Kind::LParen, "'(' after Dict")?;
                let (k, dk) = self.type_expr(&mut None, outer + 1)?;
                self.expect(
                    Kind::Comma,
                    "',' between the key and value types of Dict(K, V)",
                )?;
                let (v, dv) = self.type_expr(&mut None, outer + 1)?;
                self.expect(Kind::RParen, "')' to close Dict(K, V)")?;
                (Type::Dict(Box::new(k), Box::new(v)), dk.max(dv) + 1)
            }
            "Future" | "RRef" | "Await" => return self.wrapper(name, outer),
            "Union" => self.union(t, outer)?,
            "__torch__" => return Ok((self.class_path(t)?, 1)),
            _ => (self.type_var(name, t)?, 1),
        };
        self.annotation_into(alias)?;
        Ok((ty, depth))
    }

    /// `Future(T)`, `RRef(T)`, `Await(T)`.
    fn wrapper(&mut self, name: &str, outer: u32) -> PResult<(Type, u32)> {
        // The expectations are formatted only when they fail: this runs once
        // per nesting level, and a formatted string per level is both time
        // and (in a debug build) stack.
        if !self.eat(Kind::LParen) {
            return self.expected(&format!("'(' after {name}"));
        }
        let (inner, depth) = self.type_expr(&mut None, outer + 1)?;
        let inner = Box::new(inner);
        if !self.eat(Kind::RParen) {
            return self.expected(&format!("')' to close {name}(T)"));
        }
        let ty = match name {
            "Future" => Type::Future(inner),
            "RRef" => Type::RRef(inner),
            _ => Type::Await(inner),
        };
        Ok((ty, depth + 1))
    }

    /// `Union(T1, T2, ...)` (the `Union` token `t` is consumed), standardized
    /// as torch does; a union that unifies into one type is refused.
    fn union(&mut self, t: Token, outer: u32) -> PResult<(Type, u32)> {
        self.expect(
            Kind::LParen,
            "'(' after Union (torch spells it Union(T1, T2))",
        )?;
        let mut members = Vec::new();
        let mut deepest = 0;
        loop {
            let (m, depth) = self.type_expr(&mut None, outer + 1)?;
            members.push(m);
            deepest = deepest.max(depth);
            if self.eat(Kind::RParen) {
                break;
            }
            self.expect(
                Kind::Comma,
                "',' between Union member types (or ')' to close the Union)",
            )?;
        }
        self.finish_union(t, members, deepest)
    }

    /// The standardized union, off the recursive path: its frame (sorting,
    /// hashing, messages) would otherwise sit on the stack once per nesting
    /// level. See Note [Nesting limit].
    #[inline(never)]
    fn finish_union(&self, t: Token, members: Vec<Type>, deepest: u32) -> PResult<(Type, u32)> {
        match crate::schema::union::standardize(members) {
            Ok(ty) => Ok((ty, deepest + 1)),
            Err(Ok(single)) => self.err(
                t.at(),
                format!(
                    "Union(...) holds the single type {} once its members are unified \
                     (duplicates merge, Any absorbs every type but None, ScalarType, Layout, \
                     MemoryFormat and SymInt are int); write that type instead of a Union",
                    clip(&type_text(&single))
                ),
            ),
            Err(Err(n)) => self.err(
                t.at(),
                format!(
                    "Union(...) has {n} member types once nested unions, optionals and Scalar \
                     are spelled out; at most {MAX_UNION_MEMBERS} are supported"
                ),
            ),
        }
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

    /// A lowercase identifier torch does not know is a type variable (`t`),
    /// where type variables are allowed (`parse_schema`; an operator
    /// definition allows none).
    fn type_var(&self, name: &str, t: Token) -> PResult<Type> {
        if is_reserved(name) {
            return self.err(t.at(), format!("'{name}' is a reserved word, not a type"));
        }
        if self.allow_typevars && name.starts_with(|c: char| c.is_ascii_lowercase()) {
            return Ok(Type::Var(name.to_string()));
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
            _ => self.err(
                t.at(),
                format!(
                    "unknown type specifier '{}'. Common valid schema types include: {COMMON_TYPES}",
                    clip(name)
                ),
            ),
        }
    }
}
