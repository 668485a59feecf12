//! The error type of the JSON layer.

use core::fmt;

/// What was wrong with a JSON text, without where. See [`JsonError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum JsonErrorKind {
    /// The input ended where more was needed. Every proper prefix of a valid
    /// JSON text that is not itself valid fails with this kind, so it tells a
    /// truncated text from a malformed one.
    Eof,
    /// A byte that cannot start a value, where a value was expected.
    ExpectedValue,
    /// An object member did not start with a string key.
    ExpectedKey,
    /// An object key was not followed by `:`.
    ExpectedColon,
    /// An object member was followed by something other than `,` or `}`.
    ExpectedCommaOrObjectEnd,
    /// An array element was followed by something other than `,` or `]`.
    ExpectedCommaOrArrayEnd,
    /// A `,` directly before the `}` or `]` that closes an object or array.
    TrailingComma,
    /// Something other than whitespace after the value.
    TrailingCharacters,
    /// A misspelled `true`, `false` or `null`.
    InvalidLiteral,
    /// A number that breaks the JSON grammar (`01`, `1.`, `-`, `1e`, …).
    InvalidNumber,
    /// A backslash in a string not followed by one of `"\/bfnrt` or by `u`
    /// and four hex digits.
    InvalidEscape,
    /// An unescaped control character (U+0000 to U+001F) in a string.
    ControlCharacter,
    /// A `\uXXXX` escape of one half of a UTF-16 surrogate pair without the
    /// other half next to it (`"\ud800"`), which encodes no character.
    /// Reported at the escape's backslash.
    LoneSurrogate,
    /// A number whose value is too large for an `f64` (`1e400`), which
    /// `serde_json` rejects (JavaScript reads it as `Infinity`). Reported at the
    /// number's first byte.
    NumberOutOfRange,
    /// Objects and arrays nested deeper than [`MAX_DEPTH`](super::MAX_DEPTH).
    TooDeep,
    /// The text is valid JSON but not an object, where an object was required.
    ExpectedObject,
    /// The text is valid JSON but not an array, where an array was required.
    ExpectedArray,
    /// The text is valid JSON but not a string, where a string was required.
    ExpectedString,
}

impl JsonErrorKind {
    fn message(self) -> &'static str {
        match self {
            Self::Eof => "unexpected end of input",
            Self::ExpectedValue => "expected a value",
            Self::ExpectedKey => "expected a string key",
            Self::ExpectedColon => "expected `:`",
            Self::ExpectedCommaOrObjectEnd => "expected `,` or `}`",
            Self::ExpectedCommaOrArrayEnd => "expected `,` or `]`",
            Self::TrailingComma => "trailing comma",
            Self::TrailingCharacters => "trailing characters",
            Self::InvalidLiteral => "invalid literal",
            Self::InvalidNumber => "invalid number",
            Self::InvalidEscape => "invalid escape",
            Self::ControlCharacter => "control character in string",
            Self::LoneSurrogate => "unpaired surrogate in \\u escape",
            Self::NumberOutOfRange => "number out of range",
            Self::TooDeep => "nesting too deep",
            Self::ExpectedObject => "expected an object",
            Self::ExpectedArray => "expected an array",
            Self::ExpectedString => "expected a string",
        }
    }
}

/// A JSON text that the scanner rejected: a [`JsonErrorKind`] and the byte
/// offset, in the text given to the parsing function, where it was detected.
///
/// The error is two words, so results carrying it stay small.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonError {
    kind: JsonErrorKind,
    offset: usize,
}

impl JsonError {
    #[cold]
    #[inline(never)]
    pub(crate) fn new(kind: JsonErrorKind, offset: usize) -> Self {
        Self { kind, offset }
    }

    /// What was wrong.
    pub fn kind(&self) -> JsonErrorKind {
        self.kind
    }

    /// Byte offset of the offending byte in the text that was parsed (for
    /// [`JsonErrorKind::Eof`], the length of that text).
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Whether the text was cut short ([`JsonErrorKind::Eof`]) rather than
    /// malformed: more input could still make it valid.
    pub fn is_eof(&self) -> bool {
        self.kind == JsonErrorKind::Eof
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind.message(), self.offset)
    }
}

impl core::error::Error for JsonError {}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn display_is_terse_and_positioned() {
        let e = JsonError::new(JsonErrorKind::ExpectedColon, 7);
        assert_eq!(e.to_string(), "expected `:` at byte 7");
        assert!(!e.is_eof());
        let e = JsonError::new(JsonErrorKind::Eof, 3);
        assert_eq!(e.to_string(), "unexpected end of input at byte 3");
        assert!(e.is_eof());
        assert_eq!(e.kind(), JsonErrorKind::Eof);
        assert_eq!(e.offset(), 3);
    }

    #[test]
    fn error_is_two_words() {
        assert_eq!(
            core::mem::size_of::<JsonError>(),
            2 * core::mem::size_of::<usize>()
        );
    }
}
