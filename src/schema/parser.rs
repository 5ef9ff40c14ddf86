//! Recursive-descent parser for torch's function-schema grammar
//! (`torch/csrc/jit/frontend/function_schema_parser.cpp` is the reference).
//!
//! ```text
//! schema    := name '(' [param (',' param)*] ')' '->' returns
//! name      := IDENT ['::' IDENT] ['.' IDENT]
//! param     := '*' | '...' | argument
//! returns   := '...' | '(' [ret (',' ret)*] ')' | ret        (ret may be '...' last)
//! argument  := type ['[' N ']' [alias] ['?']] IDENT ['=' default]
//! type      := (tuple | Tensor [alias] | Dict(K, V) [alias] | Future(T) | RRef(T)
//!              | Await(T) | __torch__.torch.classes.ns.Cls | base [alias]) ('[]' [alias] | '?')*
//! alias     := '!' | '(' set ['!'] ['->' set] ')'     set := ('*' | IDENT) ('|' ...)*
//! ```
//!
//! `parse_schema` never panics: the lexer only reads through `get`, tokens are
//! produced one at a time past the end (`Eof` repeats), and every slice of the
//! input is taken at token boundaries, which are ASCII bytes. Its recursion is
//! bounded by `MAX_NESTING` (see Note [Nesting limit]), every step consumes a
//! token or fails, and no step rescans more than a constant number of tokens,
//! so any input is parsed in time linear in its length.
//!
//! No `unwrap`, `expect` or slice indexing in this module and its children
//! can be reached by input: slices go through `get`, and the few remaining
//! arithmetic steps carry a comment saying why they cannot overflow.

mod alias;
mod defaults;
mod error;
mod type_expr;

pub use error::SchemaError;

use super::lexer::{is_reserved, lex, lex_error, Kind, Token};
use super::types::{Argument, FunctionSchema, Type};
use error::clip;

/// Errors are boxed inside the parser: results move around constantly and a
/// pointer-sized error keeps them small.
type PResult<T> = Result<T, Box<SchemaError>>;

/// Parse one schema such as `ns::op.overload(Tensor self, *, int dim=0) -> Tensor`.
///
/// The namespace is optional; the result prints back (`to_string()`) exactly
/// as `str(torch._C.parse_schema(s))` does.
pub fn parse_schema(src: &str) -> Result<FunctionSchema, SchemaError> {
    parse_schema_with(src, true)
}

/// `parse_schema`, choosing whether an unknown lowercase name is a type
/// variable (`t`, as `torch._C.parse_schema` reads it) or an unknown type (as
/// torch reads the schema of an operator definition, `allow_typevars=False`).
pub fn parse_schema_with(src: &str, allow_typevars: bool) -> Result<FunctionSchema, SchemaError> {
    if u32::try_from(src.len()).is_err() {
        return Err(SchemaError::at(
            src,
            0,
            "schema text is too long (4 GiB or more)".into(),
        ));
    }
    let mut p = Parser {
        src,
        cur: lex(src, 0),
        fresh: 0,
        repeated: 0,
        allow_typevars,
    };
    p.schema().map_err(|e| *e)
}

pub(super) struct Parser<'a> {
    src: &'a str,
    /// The current (not yet consumed) token.
    cur: Token,
    /// Counter for the fresh alias sets of bare `!` annotations (`$0`, `$1`, ...).
    fresh: usize,
    /// Elements materialised so far for `T[N] x=v` defaults; see `MAX_REPEAT`.
    repeated: usize,
    /// An unknown lowercase type name is a type variable.
    allow_typevars: bool,
}

impl<'a> Parser<'a> {
    /// Consume the current token and lex the next one.
    ///
    /// Never fails: unreadable input becomes an `Error` token, which matches
    /// nothing, so the parser stops there and `err` reports the lexing error.
    fn bump(&mut self) -> Token {
        let t = self.cur;
        self.cur = lex(self.src, t.end);
        t
    }

    /// The kind of the token after the current one.
    fn peek2(&self) -> Kind {
        lex(self.src, self.cur.end).kind
    }

    fn eat(&mut self, kind: Kind) -> bool {
        let hit = self.cur.kind == kind;
        if hit {
            self.bump();
        }
        hit
    }

    fn text(&self, t: Token) -> &'a str {
        self.src.get(t.at()..t.end as usize).unwrap_or("")
    }

    /// An error at `offset`, unless the current token is unreadable input:
    /// then that is the error (the parser stopped because of it).
    #[cold]
    fn err<T>(&self, offset: usize, message: impl Into<String>) -> PResult<T> {
        let e = if self.cur.kind == Kind::Error {
            SchemaError::at(self.src, self.cur.at(), lex_error(self.src, self.cur))
        } else {
            SchemaError::at(self.src, offset, message.into())
        };
        Err(Box::new(e))
    }

    /// How a token reads in a message: `'('`, `'Tensor'`, `end of input`.
    fn describe(&self, t: Token) -> String {
        match t.kind {
            Kind::Eof => "end of input".into(),
            Kind::Str => format!("string {}", clip(self.text(t))),
            _ => format!("'{}'", clip(self.text(t))),
        }
    }

    fn expect(&mut self, kind: Kind, what: &str) -> PResult<Token> {
        if self.cur.kind == kind {
            return Ok(self.bump());
        }
        self.expected(what)
    }

    /// `expected <what> but found <current token>`.
    #[cold]
    fn expected<T>(&self, what: &str) -> PResult<T> {
        self.err(
            self.cur.at(),
            format!("expected {what} but found {}", self.describe(self.cur)),
        )
    }

    /// An identifier that is not a reserved word, for `what` (a name).
    fn name_ident(&mut self, what: &str) -> PResult<&'a str> {
        let t = self.cur;
        let s = self.text(t);
        if t.kind != Kind::Ident {
            return self.err(
                t.at(),
                format!("expected {what} but found {}", self.describe(t)),
            );
        }
        if is_reserved(s) {
            // A reserved word is short: it is quoted whole.
            return self.err(
                t.at(),
                format!("'{s}' is a reserved word and cannot be {what}"),
            );
        }
        if s.starts_with('$') {
            return self.err(
                t.at(),
                format!("'{}' is not a valid name for {what}", clip(s)),
            );
        }
        self.bump();
        Ok(s)
    }

    fn schema(&mut self) -> PResult<FunctionSchema> {
        if self.cur.kind == Kind::Eof {
            return self.err(
                0,
                "empty schema: expected 'ns::name.overload(arguments) -> returns'",
            );
        }
        let (name, overload_name) = self.name()?;
        if self.cur.kind != Kind::LParen {
            return self.err(
                self.cur.at(),
                format!(
                    "expected '(' to open the argument list of '{}' but found {} \
                     (a schema needs '(arguments) -> returns' after the name)",
                    clip(&name),
                    self.describe(self.cur)
                ),
            );
        }
        let (arguments, is_vararg) = self.arguments()?;
        self.expect(Kind::Arrow, "'->' after the argument list")?;
        let (returns, is_varret) = self.returns()?;
        if self.cur.kind != Kind::Eof {
            return self.err(
                self.cur.at(),
                format!(
                    "unexpected {} after the returns (trailing input)",
                    self.describe(self.cur)
                ),
            );
        }
        Ok(FunctionSchema {
            name,
            overload_name,
            arguments,
            returns,
            is_vararg,
            is_varret,
        })
    }

    /// `op`, `ns::op`, `ns::op.overload`.
    fn name(&mut self) -> PResult<(String, String)> {
        let first = self.name_ident("an operator name")?;
        let name = match self.cur.kind {
            Kind::ColonColon => {
                self.bump();
                let op = self.name_ident("an operator name after '::'")?;
                let mut name = String::with_capacity(first.len() + 2 + op.len());
                name.push_str(first);
                name.push_str("::");
                name.push_str(op);
                name
            }
            Kind::Colon => {
                return self.err(
                    self.cur.at(),
                    "expected '::' between the namespace and the operator name",
                );
            }
            _ => first.to_string(),
        };
        if !self.eat(Kind::Dot) {
            return Ok((name, String::new()));
        }
        let at = self.cur.at();
        let overload = self.name_ident("an overload name after '.'")?;
        // `default` is the attribute an overload packet uses for the unnamed
        // overload, and dunder names would shadow Python attributes.
        if overload == "default" {
            return self.err(at, "'default' is not a legal overload name: it is reserved for the overload without a name (`ops.ns.op.default`); pick another name");
        }
        if overload.starts_with("__") {
            return self.err(
                at,
                format!(
                    "'{}' is not a legal overload name: overload names must not start with '__'",
                    clip(overload)
                ),
            );
        }
        Ok((name, overload.to_string()))
    }

    /// `( ... )` of the arguments, with the `*` marker and a trailing `...`.
    fn arguments(&mut self) -> PResult<(Vec<Argument>, bool)> {
        self.bump(); // '('
        let mut args = Vec::new();
        let (mut kwarg_only, mut vararg) = (false, false);
        let mut first_default = None;
        let mut starts = Vec::new(); // where each argument begins, for the repeated-name error
        if self.eat(Kind::RParen) {
            return Ok((args, false));
        }
        loop {
            let at = self.cur.at();
            if vararg {
                return self.err(at, "'...' must be the last element of the argument list");
            }
            if self.eat(Kind::Star) {
                if kwarg_only {
                    return self.err(at, "the kwarg-only marker '*' appears twice");
                }
                kwarg_only = true;
            } else if self.eat(Kind::Dots) {
                vararg = true;
            } else {
                self.argument(kwarg_only, false, &mut args)?;
                if let Some(arg) = args.last() {
                    self.check_default_order(arg, at, &mut first_default)?;
                    self.check_sized_default(arg, at)?;
                }
                starts.push(at);
            }
            if self.eat(Kind::RParen) {
                break;
            }
            self.expect(Kind::Comma, "',' between arguments (or ')' to close them)")?;
        }
        self.check_unique_names(&args, &starts)?;
        if let (true, Some(at)) = (vararg, first_default) {
            return self.err(
                at,
                "schemas with varargs ('...') can't have arguments with default values",
            );
        }
        Ok((args, vararg))
    }

    /// torch's `FunctionSchema::checkSchema`: a positional argument without a
    /// default may not follow one with a default, except list types (torch
    /// serialised broadcasting lists that way and keeps accepting them).
    fn check_default_order(
        &self,
        arg: &Argument,
        at: usize,
        first: &mut Option<usize>,
    ) -> PResult<()> {
        if arg.default.is_some() {
            first.get_or_insert(at);
        } else if first.is_some() && !arg.kwarg_only && !matches!(arg.ty, Type::List(_)) {
            return self.err(
                at,
                format!(
                    "non-default positional argument '{}' follows an argument with a default; \
                 give it a default or make it keyword-only (after '*')",
                    clip(&arg.name)
                ),
            );
        }
        Ok(())
    }

    fn returns(&mut self) -> PResult<(Vec<Argument>, bool)> {
        if self.eat(Kind::Dots) {
            return Ok((Vec::new(), true));
        }
        if self.cur.kind != Kind::LParen {
            let mut rets = Vec::with_capacity(1);
            self.argument(false, true, &mut rets)?;
            return Ok((rets, false));
        }
        // `(` opens the return list, never a tuple type: a single tuple return
        // is written `((int, int))`, as torch prints it.
        self.bump();
        let mut rets = Vec::new();
        let mut varret = false;
        if self.eat(Kind::RParen) {
            return Ok((rets, false));
        }
        loop {
            if varret {
                return self.err(
                    self.cur.at(),
                    "'...' must be the last element of the return list",
                );
            }
            if self.eat(Kind::Dots) {
                varret = true;
            } else {
                self.argument(false, true, &mut rets)?;
            }
            if self.eat(Kind::RParen) {
                return Ok((rets, varret));
            }
            self.expect(Kind::Comma, "',' between returns (or ')' to close them)")?;
        }
    }

    /// Parse one argument or return and push it onto `out` (building it in
    /// place rather than moving the large `Argument` through a `Result`).
    fn argument(
        &mut self,
        kwarg_only: bool,
        is_return: bool,
        out: &mut Vec<Argument>,
    ) -> PResult<()> {
        let mut alias_info = None;
        let (mut ty, mut depth) = self.type_expr(&mut alias_info, 0)?;
        let mut n = None;
        if self.cur.kind == Kind::LBracket {
            // A size hint `T[N]` exists only at the argument level, as in torch.
            depth = self.one_level_deeper(0, depth)?;
            self.bump();
            n = Some(self.list_size()?);
            self.expect(Kind::RBracket, "']' after the list size")?;
            ty = Type::List(Box::new(ty));
            self.container_alias(&mut alias_info)?;
            if self.cur.kind == Kind::Question {
                self.one_level_deeper(0, depth)?;
                self.bump();
                ty = Type::Optional(Box::new(ty));
            }
        }
        let name = if is_return && self.cur.kind != Kind::Ident {
            String::new()
        } else if self.cur.kind == Kind::LParen {
            return self.err(
                self.cur.at(),
                "expected a name after the type but found '('; an alias annotation goes right \
                 after the type it annotates and before '[]'/'?', as in 'Tensor(a!)?'",
            );
        } else {
            let what = if is_return {
                "a return name"
            } else {
                "an argument name"
            };
            self.name_ident(what)?.to_string()
        };
        let default = if !is_return && self.eat(Kind::Equals) {
            Some(self.default_value(&ty, n)?)
        } else {
            None
        };
        out.push(Argument {
            name,
            ty,
            n,
            default,
            kwarg_only,
            alias_info,
        });
        Ok(())
    }

    /// The `N` of `T[N]`: a non-negative integer that fits torch's `int32_t`.
    fn list_size(&mut self) -> PResult<i64> {
        let t = self.cur;
        let text = self.text(t);
        match text.parse::<i32>() {
            Ok(v) if t.kind == Kind::Number && v >= 0 => {
                self.bump();
                Ok(i64::from(v))
            }
            _ => self.err(
                t.at(),
                format!(
                    "expected a list size (a non-negative integer) or ']' but found {}",
                    self.describe(t)
                ),
            ),
        }
    }
}

impl Parser<'_> {
    /// Refuse an argument named like an earlier one: torch accepts `f(Tensor x, Tensor x)`, but no
    /// call can pass both by keyword and a kernel's parameters cannot repeat a name (a deliberate
    /// difference, listed in tests/data/torch_schema_divergences.json). Sorting keeps it
    /// O(n log n) for schemas of any size; the error points at the second occurrence.
    fn check_unique_names(&self, args: &[Argument], starts: &[usize]) -> PResult<()> {
        let mut names: Vec<(&str, usize)> = args.iter().map(|a| a.name.as_str()).zip(0..).collect();
        names.sort_unstable();
        let repeated = names
            .windows(2)
            .filter_map(|w| match w {
                [(a, _), (b, i)] if a == b => Some((*b, *i)),
                _ => None,
            })
            .min_by_key(|&(_, i)| i);
        match repeated {
            None => Ok(()),
            Some((name, i)) => self.err(
                starts.get(i).copied().unwrap_or(0),
                format!(
                    "argument name '{}' appears twice; every argument needs its own name",
                    clip(name)
                ),
            ),
        }
    }
}
