//! Tokens with byte spans.

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok<'a> {
    Ident(&'a str),
    Number(&'a str),
    /// A quoted string, without its quotes (escapes still in place).
    Str(&'a str),
    Punct(&'static str),
    Eof,
}

/// A token and the bytes it covers.
#[derive(Clone, Copy, Debug)]
pub struct Token<'a> {
    pub tok: Tok<'a>,
    pub start: usize,
}

/// Why lexing stopped.
#[derive(Debug)]
pub struct LexError {
    pub offset: usize,
    pub message: String,
}

/// The punctuation at the start of `b`, longest match first.
fn punct(b: &[u8]) -> Option<&'static str> {
    Some(match b {
        [b'.', b'.', b'.', ..] => "...",
        [b'-', b'>', ..] => "->",
        [b':', b':', ..] => "::",
        [b'(', ..] => "(",
        [b')', ..] => ")",
        [b'[', ..] => "[",
        [b']', ..] => "]",
        [b',', ..] => ",",
        [b'*', ..] => "*",
        [b'!', ..] => "!",
        [b'?', ..] => "?",
        [b'|', ..] => "|",
        [b'=', ..] => "=",
        [b'.', ..] => ".",
        [b':', ..] => ":",
        [b'-', ..] => "-",
        _ => return None,
    })
}

/// Split `src` into tokens; the last one is `Eof`.
pub fn tokenize(src: &str) -> Result<Vec<Token<'_>>, LexError> {
    let bytes = src.as_bytes();
    let mut out = Vec::with_capacity(src.len() / 4 + 2);
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        // `$` starts the fresh alias sets the printer writes for a bare `!` (`$0`).
        let fresh_alias = c == b'$' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
        let tok = if c.is_ascii_alphabetic() || c == b'_' || fresh_alias {
            i += 1;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            Tok::Ident(&src[start..i])
        } else if c.is_ascii_digit()
            || (c == b'-' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            i = number_end(bytes, i);
            Tok::Number(&src[start..i])
        } else if c == b'"' || c == b'\'' {
            i = string_end(bytes, i)?;
            Tok::Str(&src[start + 1..i - 1])
        } else {
            let p = punct(&bytes[i..]).ok_or_else(|| LexError {
                offset: i,
                message: format!(
                    "unexpected character '{}'",
                    src[i..].chars().next().unwrap_or('?')
                ),
            })?;
            i += p.len();
            Tok::Punct(p)
        };
        out.push(Token { tok, start });
    }
    out.push(Token {
        tok: Tok::Eof,
        start: src.len(),
    });
    Ok(out)
}

fn number_end(b: &[u8], i: usize) -> usize {
    let end = real_end(b, i);
    // A complex literal as torch prints it: `1.+2.j`, `0.-1.5j`.
    if end < b.len()
        && (b[end] == b'+' || b[end] == b'-')
        && b.get(end + 1).is_some_and(u8::is_ascii_digit)
    {
        let imag = real_end(b, end + 1);
        if imag < b.len() && b[imag] == b'j' {
            return imag + 1;
        }
    }
    if end < b.len() && b[end] == b'j' {
        return end + 1; // imaginary literal
    }
    end
}

fn real_end(b: &[u8], mut i: usize) -> usize {
    if b[i] == b'-' {
        i += 1;
    }
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
        i += 1;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'-' || b[j] == b'+') {
            j += 1;
        }
        if j < b.len() && b[j].is_ascii_digit() {
            i = j;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        }
    }
    i
}

fn string_end(b: &[u8], start: usize) -> Result<usize, LexError> {
    let quote = b[start];
    let mut i = start + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            c if c == quote => return Ok(i + 1),
            _ => i += 1,
        }
    }
    Err(LexError {
        offset: start,
        message: "unterminated string literal".into(),
    })
}
