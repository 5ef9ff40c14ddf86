//! `SchemaError`: what went wrong, where, and the offending line with a caret.

use std::borrow::Cow;
use std::fmt;

/// Characters of the input line shown on each side of the caret. A schema
/// can be megabytes on one line; the message quotes a window, not the line.
const CONTEXT: usize = 60;

/// Characters of a token (a name, a number, a default) quoted in a message.
const QUOTED: usize = 40;

/// A schema that does not parse.
///
/// `Display` shows the message, then the source line and a caret under the
/// offending token:
///
/// ```text
/// unknown type specifier 'Tenser'. ... (line 1, column 3):
///   f(Tenser x) -> Tensor
///     ^
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct SchemaError {
    /// What is wrong, in torch's voice, with the fix when there is one.
    pub message: String,
    /// Byte offset of the offending token in the input.
    pub offset: usize,
    /// 1-based line of `offset`.
    pub line: usize,
    /// 1-based column of `offset`, counted in characters.
    pub column: usize,
    /// The line holding the error, or a window of it around the caret.
    source_line: String,
    /// Characters of `source_line` before the caret.
    caret: usize,
}

/// `s` as a message quotes it: whole when short, else its first characters
/// and `...`, so that no message carries more than a few dozen characters of
/// any one piece of input.
pub(crate) fn clip(s: &str) -> Cow<'_, str> {
    match s.char_indices().nth(QUOTED) {
        None => Cow::Borrowed(s),
        Some((cut, _)) => Cow::Owned(format!("{}...", s.get(..cut).unwrap_or(s))),
    }
}

impl SchemaError {
    /// An error at byte `offset` of `src`; line, column and the quoted line are derived.
    pub fn at(src: &str, offset: usize, message: String) -> Self {
        let mut offset = offset.min(src.len());
        // Offsets always come from token starts, which sit on char boundaries;
        // stepping back keeps slicing safe should that ever change.
        while !src.is_char_boundary(offset) {
            offset -= 1;
        }
        let (before, after) = src.split_at_checked(offset).unwrap_or((src, ""));
        let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let head = before.get(line_start..).unwrap_or("");
        let tail = after.lines().next().unwrap_or("");
        let column = head.chars().count() + 1;
        let (source_line, caret) = window(head, tail);
        SchemaError {
            message,
            offset,
            line,
            column,
            source_line,
            caret,
        }
    }

    /// The input line holding the error; a long line is cut to a window of
    /// `CONTEXT` characters on each side of the error, marked with `...`.
    pub fn source_line(&self) -> &str {
        &self.source_line
    }
}

/// The text around the caret: up to `CONTEXT` characters of `head` (the line
/// before the error) and of `tail` (from the error to the end of the line),
/// and how many characters precede the caret.
fn window(head: &str, tail: &str) -> (String, usize) {
    let start = head
        .char_indices()
        .rev()
        .nth(CONTEXT - 1)
        .map_or(0, |(i, _)| i);
    let end = tail
        .char_indices()
        .nth(CONTEXT)
        .map_or(tail.len(), |(i, _)| i);
    let mut out = String::with_capacity(2 * CONTEXT + 6);
    if start > 0 {
        out.push_str("...");
    }
    // `start` and `end` come from `char_indices`: both are char boundaries.
    out.push_str(head.get(start..).unwrap_or(head));
    let caret = out.chars().count();
    out.push_str(tail.get(..end).unwrap_or(tail));
    if end < tail.len() {
        out.push_str("...");
    }
    (out, caret)
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Tabs before the caret are kept so the caret lines up in a terminal.
        let pad: String = self
            .source_line
            .chars()
            .take(self.caret)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        write!(
            f,
            "{} (line {}, column {}):\n  {}\n  {pad}^",
            self.message, self.line, self.column, self.source_line
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lines_are_quoted_whole() {
        let e = SchemaError::at("f(Tenser x) -> ()", 2, "m".into());
        assert_eq!(
            (e.line, e.column, e.source_line()),
            (1, 3, "f(Tenser x) -> ()")
        );
        assert_eq!(
            e.to_string(),
            "m (line 1, column 3):\n  f(Tenser x) -> ()\n    ^"
        );
    }

    #[test]
    fn long_lines_are_cut_around_the_caret() {
        let src = format!("{}@{}", "a".repeat(100_000), "b".repeat(100_000));
        let e = SchemaError::at(&src, 100_000, "m".into());
        assert_eq!(e.column, 100_001);
        let want = format!("...{}@{}...", "a".repeat(60), "b".repeat(59));
        assert_eq!(e.source_line(), want);
        let caret_line = e.to_string().lines().last().unwrap_or("").to_string();
        assert_eq!(caret_line.len(), 2 + 63 + 1, "caret under '@'");
    }

    #[test]
    fn windows_respect_multibyte_characters() {
        let src = format!("{}é{}", "é".repeat(70), "ü".repeat(70));
        let at = 70 * 2;
        let e = SchemaError::at(&src, at, "m".into());
        assert_eq!(e.column, 71);
        assert!(e.source_line().starts_with("...é") && e.source_line().ends_with("ü..."));
        // An offset inside a character steps back to its start.
        assert_eq!(SchemaError::at("é", 1, "m".into()).offset, 0);
    }

    #[test]
    fn clip_keeps_short_text_and_cuts_long_text() {
        assert_eq!(clip("Tensor"), "Tensor");
        let long = "x".repeat(1000);
        assert_eq!(clip(&long), format!("{}...", "x".repeat(QUOTED)));
        assert_eq!(clip(&"é".repeat(50)).chars().count(), QUOTED + 3);
    }
}
