//! Recursive-descent parser for torch's schema grammar.
//!
//! `parse_schema` never panics: every token access goes through `peek`/`bump`,
//! which stop at the final `Eof`.

use super::lexer::{tokenize, Tok, Token};
use super::types::{Argument, FunctionSchema};
use std::fmt;

/// A schema that does not parse: the message, where, and the offending line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct SchemaError {
    pub message: String,
    /// Byte offset of the offending token.
    pub offset: usize,
    /// 1-based line and column.
    pub line: usize,
    pub column: usize,
    source_line: String,
}

impl SchemaError {
    fn at(src: &str, offset: usize, message: String) -> Self {
        let offset = offset.min(src.len());
        let before = src.get(..offset).unwrap_or("");
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        let source_line = src[line_start..].lines().next().unwrap_or("").to_string();
        SchemaError {
            message,
            offset,
            line,
            column,
            source_line,
        }
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (line {}, column {}):\n  {}\n  {}^",
            self.message,
            self.line,
            self.column,
            self.source_line,
            " ".repeat(self.column.saturating_sub(1))
        )
    }
}

/// Parse one schema such as `ns::op.overload(Tensor self, *, int dim=0) -> Tensor`.
pub fn parse_schema(src: &str) -> Result<FunctionSchema, SchemaError> {
    let toks = tokenize(src).map_err(|e| SchemaError::at(src, e.offset, e.message))?;
    let mut p = Parser {
        src,
        toks,
        pos: 0,
        fresh: 0,
    };
    p.schema().map_err(|e| *e)
}

/// Words torch's lexer reserves (Python keywords; `from` and `to` are allowed).
fn is_reserved(s: &str) -> bool {
    matches!(
        s,
        "and"
            | "as"
            | "assert"
            | "break"
            | "class"
            | "continue"
            | "def"
            | "del"
            | "elif"
            | "else"
            | "except"
            | "finally"
            | "for"
            | "global"
            | "if"
            | "import"
            | "in"
            | "is"
            | "lambda"
            | "nonlocal"
            | "not"
            | "or"
            | "pass"
            | "raise"
            | "return"
            | "try"
            | "while"
            | "with"
            | "yield"
            | "None"
            | "True"
            | "False"
            | "async"
    )
}

const COMMON_TYPES: &str = "Tensor, int, SymInt, float, bool, str, Scalar, ScalarType, Layout, \
     MemoryFormat, Device, Generator, Dimname, T[], T[N], T?, (T1, T2), Dict(K, V)";

// Boxed inside the parser: every `?` moves a `Result`, and a pointer-sized
// error keeps the happy path's values small.
type PResult<T> = Result<T, Box<SchemaError>>;

struct Parser<'a> {
    src: &'a str,
    toks: Vec<Token<'a>>,
    pos: usize,
    fresh: usize,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Token<'a> {
        self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn peek_at(&self, n: usize) -> Tok<'a> {
        self.toks[(self.pos + n).min(self.toks.len() - 1)].tok
    }

    fn bump(&mut self) -> Token<'a> {
        let t = self.peek();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn is(&self, p: &str) -> bool {
        matches!(self.peek().tok, Tok::Punct(q) if q == p)
    }

    fn eat(&mut self, p: &str) -> bool {
        let hit = self.is(p);
        if hit {
            self.bump();
        }
        hit
    }

    fn err<T>(&self, tok: Token<'_>, msg: impl Into<String>) -> PResult<T> {
        Err(Box::new(SchemaError::at(self.src, tok.start, msg.into())))
    }

    fn describe(t: Tok<'_>) -> String {
        match t {
            Tok::Ident(s) | Tok::Number(s) => format!("'{s}'"),
            Tok::Str(s) => format!("string \"{s}\""),
            Tok::Punct(p) => format!("'{p}'"),
            Tok::Eof => "end of input".into(),
        }
    }

    fn expect(&mut self, p: &str, what: &str) -> PResult<()> {
        if self.eat(p) {
            Ok(())
        } else {
            let t = self.peek();
            self.err(
                t,
                format!("expected '{p}' {what} but found {}", Self::describe(t.tok)),
            )
        }
    }

    fn ident(&mut self, what: &str) -> PResult<&'a str> {
        match self.peek().tok {
            Tok::Ident(s) => {
                self.bump();
                Ok(s)
            }
            t => {
                let tok = self.peek();
                self.err(
                    tok,
                    format!("expected {what} but found {}", Self::describe(t)),
                )
            }
        }
    }

    fn schema(&mut self) -> PResult<FunctionSchema> {
        if self.peek().tok == Tok::Eof {
            let t = self.peek();
            return self.err(t, "empty schema: expected 'name(args) -> returns'");
        }
        let (name, overload_name) = self.name()?;
        self.expect("(", "to open the argument list")?;
        let (arguments, is_vararg) = self.arguments()?;
        if !self.is("->") {
            let t = self.peek();
            return self.err(
                t,
                format!(
                    "expected '->' after the argument list but found {}",
                    Self::describe(t.tok)
                ),
            );
        }
        self.bump();
        let (returns, is_varret) = self.returns()?;
        if self.peek().tok != Tok::Eof {
            let t = self.peek();
            return self.err(
                t,
                format!(
                    "unexpected {} after the returns (trailing input)",
                    Self::describe(t.tok)
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

    fn name(&mut self) -> PResult<(String, String)> {
        let mut name = self.ident("an operator name")?.to_string();
        if self.eat("::") {
            let op = self.ident("an operator name after '::'")?;
            name = format!("{name}::{op}");
        }
        let mut overload = String::new();
        if self.eat(".") {
            let t = self.peek();
            overload = self.ident("an overload name after '.'")?.to_string();
            if overload == "default" {
                return self.err(t, "overload name 'default' is reserved for the unnamed overload; pick another name");
            }
            if overload.starts_with("__") {
                return self.err(
                    t,
                    format!("overload name '{overload}' must not start with '__'"),
                );
            }
        }
        Ok((name, overload))
    }

    fn arguments(&mut self) -> PResult<(Vec<Argument>, bool)> {
        let mut args: Vec<Argument> = Vec::with_capacity(8);
        let mut kwarg_only = false;
        let mut vararg = false;
        let mut seen_default = false;
        if self.eat(")") {
            return Ok((args, false));
        }
        loop {
            let t = self.peek();
            if vararg {
                return self.err(t, "'...' must be the last argument");
            }
            if self.eat("*") {
                if kwarg_only {
                    return self.err(t, "the kwarg-only marker '*' appears twice");
                }
                kwarg_only = true;
            } else if self.eat("...") {
                vararg = true;
            } else {
                let arg = self.argument(kwarg_only, false)?;
                if arg.default.is_some() {
                    seen_default = true;
                } else if seen_default && !kwarg_only {
                    return self.err(t, format!(
                        "positional argument '{}' without a default follows an argument with a default; \
                         give it a default or move it after '*'", arg.name));
                }
                args.push(arg);
            }
            if self.eat(")") {
                return Ok((args, vararg));
            }
            self.expect(",", "between arguments (or ')' to close them)")?;
        }
    }

    fn returns(&mut self) -> PResult<(Vec<Argument>, bool)> {
        if self.eat("...") {
            return Ok((Vec::new(), true));
        }
        if !self.is("(") {
            return Ok((vec![self.argument(false, true)?], false));
        }
        // `(` opens either the return list or a tuple type in a single return:
        // torch reads it as the list.
        self.bump();
        let mut rets = Vec::new();
        if self.eat(")") {
            return Ok((rets, false));
        }
        loop {
            let t = self.peek();
            if self.eat("...") {
                if !self.is(")") {
                    return self.err(t, "'...' must be the last return");
                }
                self.bump();
                return Ok((rets, true));
            }
            rets.push(self.argument(false, true)?);
            if self.eat(")") {
                return Ok((rets, false));
            }
            self.expect(",", "between returns (or ')' to close them)")?;
        }
    }

    fn argument(&mut self, kwarg_only: bool, is_return: bool) -> PResult<Argument> {
        let (ty, alias_info, n) = self.ty()?;
        let mut name = String::new();
        if let Tok::Ident(s) = self.peek().tok {
            let t = self.bump();
            if s.starts_with('$') {
                return self.err(t, format!("'{s}' is not a valid argument name"));
            }
            if is_reserved(s) {
                return self.err(
                    t,
                    format!("'{s}' is a reserved word and cannot name an argument"),
                );
            }
            name = s.to_string();
        } else if !is_return {
            let t = self.peek();
            return self.err(
                t,
                format!(
                    "expected an argument name after the type but found {}",
                    Self::describe(t.tok)
                ),
            );
        }
        let mut default = None;
        if !is_return && self.eat("=") {
            default = Some(self.default(&ty, n)?);
        }
        Ok(Argument {
            name,
            ty,
            n,
            default,
            kwarg_only,
            alias_info,
        })
    }
}

mod types_and_defaults;
