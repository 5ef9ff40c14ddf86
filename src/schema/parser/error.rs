//! `SchemaError`: what went wrong, where, and the offending line with a caret.

use std::fmt;

/// A schema that does not parse.
///
/// `Display` shows the message, then the source line and a caret under the
/// offending token:
///
/// ```text
/// unknown type 'Tenser'; ... (line 1, column 3):
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
    source_line: String,
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
        let before = &src[..offset];
        let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = src[line_start..offset].chars().count() + 1;
        let source_line = src[line_start..].lines().next().unwrap_or("").to_string();
        SchemaError {
            message,
            offset,
            line,
            column,
            source_line,
        }
    }

    /// The input line holding the error.
    pub fn source_line(&self) -> &str {
        &self.source_line
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Tabs before the caret are kept so the caret lines up in a terminal.
        let pad: String = self
            .source_line
            .chars()
            .take(self.column.saturating_sub(1))
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        write!(
            f,
            "{} (line {}, column {}):\n  {}\n  {pad}^",
            self.message, self.line, self.column, self.source_line
        )
    }
}
