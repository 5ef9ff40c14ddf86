//! Default values: literals, checked against the argument's type and
//! normalised the way torch stores them (enum identifiers become integers,
//! `int[2] x=1` becomes `[1, 1]`).
//!
//! torch checks little here (its parser happily stores a string as the default
//! of an `int`); opyard rejects a default that the type cannot hold, but keeps
//! torch's representation wherever torch accepts the input: an optional type
//! keeps the literal as written (`float? x=1` stores the int 1), a list or a
//! `Tensor`/`Generator` may default to None.

use super::{clip, PResult, Parser};
use crate::schema::display::type_text;
use crate::schema::lexer::Kind;
use crate::schema::types::{Argument, BaseType, DefaultValue as D, Type};

mod literals;

/// A repeated `T[N] x=v` default is materialised as N elements (torch stores
/// it so). `N` may be up to 2^31 - 1, so this bounds the elements all such
/// defaults of one schema may materialise together: a schema of many `int[N]`
/// arguments must not turn a few kilobytes of text into gigabytes.
const MAX_REPEAT: usize = 1 << 16;

const LIST_ELEMS: &str =
    ": list defaults are only supported for int, float, bool and complex lists";

/// Element types whose lists take defaults (torch's `convertToList`).
fn list_elem_ok(elem: &Type) -> bool {
    use BaseType::*;
    matches!(elem, Type::Base(b) if is_int_like(*b) || matches!(b, Float | Bool | Complex))
}

fn is_int_like(b: BaseType) -> bool {
    use BaseType::*;
    matches!(
        b,
        Int | SymInt | ScalarType | Layout | MemoryFormat | DeviceIndex | QScheme
    )
}

impl Parser<'_> {
    /// The default after `=`, for an argument of type `ty` (size hint `n`).
    pub(super) fn default_value(&mut self, ty: &Type, n: Option<i64>) -> PResult<D> {
        let at = self.cur.at();
        let (inner, optional) = match ty {
            Type::Optional(inner) => (&**inner, true),
            other => (other, false),
        };
        let scalar_target = match inner {
            Type::List(elem) => &**elem,
            other => other,
        };
        if optional && self.cur.kind == Kind::LBracket {
            // torch reads the default of an optional type as one constant.
            return self.err(
                at,
                format!(
                    "invalid default for an argument of type {}: an optional type defaults to \
                     None or a single value, never a list literal (torch cannot read one here); \
                     drop the '?' to give a list default",
                    clip(&type_text(ty))
                ),
            );
        }
        let value = self.literal(scalar_target)?;
        if value == D::None && (optional || self.none_allowed(inner)) {
            return Ok(value);
        }
        if optional && matches!(inner, Type::Union(_)) {
            // torch stores the single constant of `Union(int, str)? x=1` as
            // written; the union's members decide nothing.
            return Ok(value);
        }
        match inner {
            Type::List(elem) => self.list_default(value, ty, elem, n, optional, at),
            _ => self.scalar_default(value, ty, inner, optional, at),
        }
    }

    /// torch parses `None` as the default of a Tensor, a Generator or a
    /// Quantizer even when the type is not optional (not of a list: it reads
    /// a list default as a list literal).
    fn none_allowed(&self, ty: &Type) -> bool {
        use BaseType::*;
        matches!(ty, Type::Base(Tensor | Generator | Quantizer))
    }

    fn invalid<T>(&self, at: usize, value: &D, ty: &Type, why: &str) -> PResult<T> {
        let shown = crate::schema::display::default_text(value, None);
        self.err(
            at,
            format!(
                "invalid default '{}' for an argument of type {}{why}",
                clip(&shown),
                clip(&type_text(ty))
            ),
        )
    }

    /// Check a single value against `target` (the type without its `?`).
    fn scalar_default(
        &self,
        value: D,
        ty: &Type,
        target: &Type,
        optional: bool,
        at: usize,
    ) -> PResult<D> {
        use BaseType::*;
        let Type::Base(b) = target else {
            return self.err(
                at,
                format!(
                    "an argument of type {} cannot have a default value",
                    clip(&type_text(ty))
                ),
            );
        };
        let ok = match (&value, *b) {
            // `Some(None)` keeps the value as written, `Some(Some(v))` converts it.
            (D::None, _) => {
                return self.invalid(
                    at,
                    &value,
                    ty,
                    ": only optional types ('T?') default to None",
                )
            }
            (D::Int(_), b) if is_int_like(b) => Some(None),
            (D::Int(_) | D::Float(_) | D::Bool(_) | D::Complex(..), Scalar) => Some(None),
            (D::Int(v), Float) if !optional => Some(Some(D::Float(*v as f64))),
            (D::Int(_) | D::Float(_), Float) => Some(None),
            (D::Int(v), Complex) if !optional => Some(Some(D::Complex(*v as f64, 0.0))),
            (D::Float(v), Complex) if !optional => Some(Some(D::Complex(*v, 0.0))),
            (D::Int(_) | D::Float(_) | D::Complex(..), Complex) => Some(None),
            (D::Bool(_), Bool | SymBool) => Some(None),
            (D::Str(_), Str) => Some(None),
            (D::Str(s), Device) => {
                return match literals::check_device(s) {
                    Ok(()) => Ok(value),
                    Err(m) => self.err(at, m),
                }
            }
            (_, Tensor | Generator | Quantizer) => {
                return self.invalid(
                    at,
                    &value,
                    ty,
                    &format!(": a {} can only default to None", type_text(target)),
                )
            }
            (_, Stream | Storage | Capsule | Any | AnyClassType | AnyEnumType | NoneType) => {
                return self.err(
                    at,
                    format!(
                        "an argument of type {} cannot have a default value",
                        clip(&type_text(ty))
                    ),
                )
            }
            _ => None,
        };
        match ok {
            Some(converted) => Ok(converted.unwrap_or(value)),
            None => self.invalid(at, &value, ty, ""),
        }
    }

    /// A list default: a literal list, or for `T[N]` one value repeated N times.
    fn list_default(
        &mut self,
        value: D,
        ty: &Type,
        elem: &Type,
        n: Option<i64>,
        optional: bool,
        at: usize,
    ) -> PResult<D> {
        let is_list = matches!(
            value,
            D::EmptyList | D::IntList(_) | D::FloatList(_) | D::BoolList(_) | D::ComplexList(_)
        );
        if is_list {
            return self.typed_list(value, ty, elem, at);
        }
        if value == D::None {
            return self.invalid(
                at,
                &value,
                ty,
                ": only optional types ('T[]?') default to None",
            );
        }
        let n = match n {
            Some(n) if !optional => n,
            // `int[]? x=1` stores the scalar as written, as torch does.
            _ if optional => return self.scalar_default(value, ty, elem, optional, at),
            _ => {
                return self.invalid(
                    at,
                    &value,
                    ty,
                    ": a list type without a size (T[N]) needs a list default such as [1, 2]",
                )
            }
        };
        if !list_elem_ok(elem) {
            return self.invalid(at, &value, ty, LIST_ELEMS);
        }
        let v = self.scalar_default(value, ty, elem, optional, at)?;
        let n = match usize::try_from(n) {
            Ok(n) if n <= MAX_REPEAT.saturating_sub(self.repeated) => n,
            _ => {
                return self.err(
                    at,
                    format!(
                        "list size {n} is too large for a repeated default: the repeated \
                         defaults of one schema hold at most {MAX_REPEAT} elements in all \
                         ({} used so far); write the default as a list literal",
                        self.repeated
                    ),
                )
            }
        };
        self.repeated += n;
        Ok(match v {
            D::Int(x) => D::IntList(vec![x; n]),
            D::Float(x) => D::FloatList(vec![x; n]),
            D::Bool(x) => D::BoolList(vec![x; n]),
            D::Complex(r, i) => D::ComplexList(vec![(r, i); n]),
            other => return self.invalid(at, &other, ty, ""),
        })
    }

    /// Give a literal list the element type of the argument (torch's `convertToList`).
    fn typed_list(&self, value: D, ty: &Type, elem: &Type, at: usize) -> PResult<D> {
        use BaseType::*;
        let b = match elem {
            Type::Base(b) => *b,
            _ => Tensor, // any non-base element type is refused below
        };
        let as_f64 = |v: &[i64]| v.iter().map(|x| *x as f64).collect::<Vec<_>>();
        let typed = match (value, b) {
            (D::EmptyList, b) if is_int_like(b) => D::IntList(Vec::new()),
            (D::EmptyList, Float) => D::FloatList(Vec::new()),
            (D::EmptyList, Bool) => D::BoolList(Vec::new()),
            (D::EmptyList, Complex) => D::ComplexList(Vec::new()),
            (v @ D::IntList(_), b) if is_int_like(b) => v,
            (D::IntList(v), Float) => D::FloatList(as_f64(&v)),
            (v @ D::FloatList(_), Float) => v,
            (v @ D::BoolList(_), Bool) => v,
            (D::IntList(v), Complex) => {
                D::ComplexList(as_f64(&v).into_iter().map(|x| (x, 0.0)).collect())
            }
            (D::FloatList(v), Complex) => D::ComplexList(v.into_iter().map(|x| (x, 0.0)).collect()),
            (v @ D::ComplexList(_), Complex) => v,
            (v, _) => {
                let why = if list_elem_ok(elem) { "" } else { LIST_ELEMS };
                return self.invalid(at, &v, ty, why);
            }
        };
        Ok(typed)
    }

    /// One literal; enum identifiers are resolved against `target`.
    fn literal(&mut self, target: &Type) -> PResult<D> {
        let t = self.cur;
        match t.kind {
            Kind::Ident => self.ident_literal(target),
            Kind::Number => {
                self.bump();
                literals::number(self.text(t)).or_else(|m| self.err(t.at(), m))
            }
            Kind::Minus => {
                // torch's lexer reads `- 1` as a minus and a number.
                self.bump();
                let num = self.expect(Kind::Number, "a number after '-'")?;
                if self.text(num).starts_with(['-', '+']) {
                    return self.err(
                        num.at(),
                        "expected a number after '-' but found a second sign",
                    );
                }
                literals::number(self.text(num))
                    .and_then(literals::negate)
                    .or_else(|m| self.err(t.at(), m))
            }
            Kind::Str => {
                self.bump();
                literals::unescape(self.text(t))
                    .map(D::Str)
                    .or_else(|m| self.err(t.at(), m))
            }
            Kind::LBracket => self.list_literal(target),
            _ => self.err(
                t.at(),
                format!("expected a default value but found {}", self.describe(t)),
            ),
        }
    }

    fn ident_literal(&mut self, target: &Type) -> PResult<D> {
        let t = self.bump();
        let s = self.text(t);
        match s {
            "None" => return Ok(D::None),
            "True" => return Ok(D::Bool(true)),
            "False" => return Ok(D::Bool(false)),
            // `s` is one of these three words, so it is quoted whole.
            "inf" | "nan" | "infinity" => {
                return self.err(t.at(), format!(
                    "invalid default '{s}': defaults must be finite numbers (torch cannot read inf or nan here)"));
            }
            _ => {}
        }
        if let Type::Base(BaseType::Device) = target {
            return self.device_ident(s);
        }
        let resolved = match target {
            Type::Base(b) if is_int_like(*b) || *b == BaseType::Scalar => {
                literals::enum_value(s, *b == BaseType::ScalarType)
            }
            _ => None,
        };
        resolved.map(D::Int).ok_or(()).or_else(|()| {
            self.err(
                t.at(),
                format!(
            "invalid default '{}' for an argument of type {}: not a literal (None, True, False, a \
             number, a string or a list) nor an enum value torch knows for this type \
             (contiguous_format, strided, Mean, long, float, complex, or a dtype name for ScalarType)", clip(s), clip(&type_text(target))),
            )
        })
    }

    /// `Device d=cpu` / `cuda:1`: how torch prints a device default, read back.
    fn device_ident(&mut self, first: &str) -> PResult<D> {
        let mut s = first.to_string();
        if self.cur.kind == Kind::Colon && self.peek2() == Kind::Number {
            self.bump();
            let idx = self.bump();
            s.push(':');
            s.push_str(self.text(idx));
        }
        Ok(D::Str(s))
    }

    /// `[a, b, ...]` of numbers or booleans.
    ///
    /// An element is never itself a list, and that is checked before reading
    /// it: `literal` and this function recurse at most once, however many
    /// `[` the input opens. See Note [Nesting limit].
    fn list_literal(&mut self, target: &Type) -> PResult<D> {
        let open = self.bump();
        let mut items = Vec::new();
        if !self.eat(Kind::RBracket) {
            loop {
                let at = self.cur.at();
                if self.cur.kind == Kind::LBracket {
                    return self.err(
                        at,
                        "invalid list default: elements must be numbers or booleans, not lists",
                    );
                }
                let v = self.literal(target)?;
                if matches!(v, D::None | D::Str(_)) || literals::is_list(&v) {
                    return self.err(
                        at,
                        "invalid list default: elements must be numbers or booleans",
                    );
                }
                items.push(v);
                if self.eat(Kind::RBracket) {
                    break;
                }
                self.expect(
                    Kind::Comma,
                    "',' between list elements (or ']' to close the list)",
                )?;
            }
        }
        literals::collect_list(items).or_else(|m| self.err(open.at(), m))
    }
}

// Note [Sized list defaults]: torch stores `int[2] x=[1, 2, 3]` as written, a
// default no call can pass through a kernel expecting two elements. opyard
// refuses a literal whose length is not N, naming the argument (a deliberate
// difference, listed in tests/data/torch_schema_divergences.json). Two
// spellings stay accepted because torch's own schemas rely on them: `[]` ("no
// value", e.g. `int[2] stride=[]`) and any length for `T[1]`, which
// native_functions.yaml uses for "one or more" (`int[1] dim=[-2, -1]`).

impl Parser<'_> {
    /// Refuse the list default of `T[N] name` whose length is not N. See Note [Sized list defaults].
    pub(super) fn check_sized_default(&self, arg: &Argument, at: usize) -> PResult<()> {
        let (Some(n), Type::List(elem), Some(value)) = (arg.n, &arg.ty, &arg.default) else {
            return Ok(());
        };
        let len = match value {
            D::IntList(v) => v.len(),
            D::FloatList(v) => v.len(),
            D::BoolList(v) => v.len(),
            D::ComplexList(v) => v.len(),
            _ => return Ok(()),
        };
        if n <= 1 || len == 0 || i64::try_from(len) == Ok(n) {
            return Ok(());
        }
        self.err(
            at,
            format!(
                "the default of argument '{}' has {len} elements but its type {}[{n}] holds {n}; \
                 give {n} values, one value to repeat ({}=1), or [] for none",
                clip(&arg.name),
                clip(&type_text(elem)),
                clip(&arg.name),
            ),
        )
    }
}
