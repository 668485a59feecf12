//! `JsonStr`: a JSON string as it stands in the buffer, unescaped on demand.

use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt::{self, Write as _};
use core::iter::FusedIterator;

use memchr::memchr;

use super::error::{JsonError, JsonErrorKind};
use super::raw::RawJson;
use super::scan;

/// A JSON string as it stands in the input: the escaped text between the
/// quotes, borrowed, unescaped only when asked.
///
/// Whether the string holds any escape is recorded when it is scanned, so
/// [`as_str`](Self::as_str) and [`unescape`](Self::unescape) know at once
/// whether the raw text already *is* the value.
///
/// A `JsonStr` is only made from text the scanner has validated, so every
/// method here is infallible.
///
/// # Lone surrogates
///
/// The scanner rejects an escaped UTF-16 surrogate that has no partner
/// (`"\ud800"`), as `serde_json` does, so a `JsonStr` never holds one. (The
/// decoder would still turn one into U+FFFD REPLACEMENT CHARACTER, as
/// `String::from_utf16_lossy` does, rather than fail.)
///
/// # Example
///
/// ```
/// use ssekit::json::JsonStr;
///
/// let s = JsonStr::parse(r#""line\none \u00e9""#)?;
/// assert_eq!(s.raw(), r"line\none \u00e9");
/// assert!(s.has_escapes());
/// assert_eq!(s.as_str(), None); // the raw text is not the value
/// assert_eq!(s, "line\none é"); // compared without allocating
/// assert_eq!(s.unescape(), "line\none é");
///
/// let plain = JsonStr::parse(r#""hello""#)?;
/// assert_eq!(plain.as_str(), Some("hello")); // a slice of the input
/// # Ok::<(), ssekit::json::JsonError>(())
/// ```
#[derive(Clone, Copy)]
pub struct JsonStr<'a> {
    /// The string with its quotes, so that it can also be handed on as JSON.
    quoted: &'a str,
    escaped: Escapes,
}

/// Whether a [`JsonStr`] holds escapes, in a word of its own: the views'
/// enums keep their tags in its spare values, and a word is copied whole
/// (a `bool` and its padding were copied as overlapping partial words,
/// which stalled store-to-load forwarding on every decoded string).
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u64)]
enum Escapes {
    No = 0,
    Yes = 1,
}

impl<'a> JsonStr<'a> {
    /// `quoted` is a validated string literal, quotes included.
    #[inline]
    pub(crate) fn new(quoted: &'a str, escaped: bool) -> Self {
        let escaped = if escaped { Escapes::Yes } else { Escapes::No };
        Self { quoted, escaped }
    }

    /// Parses a JSON text that is a single string (whitespace around it is
    /// allowed).
    ///
    /// # Errors
    ///
    /// Any [`JsonError`] for malformed text; [`JsonErrorKind::ExpectedString`]
    /// (at the value's offset) for valid JSON that is not a string.
    pub fn parse(src: &'a str) -> Result<Self, JsonError> {
        let scan::Span {
            start,
            end,
            escaped,
        } = scan::validate(src)?;
        let quoted = scan::sub(src, start, end);
        if !quoted.starts_with('"') {
            return Err(JsonError::new(JsonErrorKind::ExpectedString, start));
        }
        Ok(Self::new(quoted, escaped))
    }

    /// The text between the quotes, escapes and all, as it stands in the input.
    ///
    /// This is the value itself only if [`has_escapes`](Self::has_escapes) is
    /// false; use [`as_str`](Self::as_str) to get it only in that case.
    #[inline]
    pub fn raw(&self) -> &'a str {
        scan::sub(self.quoted, 1, self.quoted.len().saturating_sub(1))
    }

    /// The string as a JSON text, quotes included: a string literal that can
    /// be copied verbatim into other JSON.
    #[inline]
    pub fn as_raw_json(&self) -> RawJson<'a> {
        RawJson::new(self.quoted)
    }

    /// Whether the raw text holds at least one escape sequence. This was
    /// recorded when the string was scanned: the call is O(1).
    #[inline]
    pub fn has_escapes(&self) -> bool {
        self.escaped == Escapes::Yes
    }

    /// The value as a slice of the input, if it has no escapes; `None` if it
    /// must be unescaped first.
    #[inline]
    pub fn as_str(&self) -> Option<&'a str> {
        if self.escaped == Escapes::Yes {
            None
        } else {
            Some(self.raw())
        }
    }

    /// The unescaped value: borrowed from the input when there are no
    /// escapes, otherwise decoded into a new `String` (one allocation).
    pub fn unescape(&self) -> Cow<'a, str> {
        if self.escaped == Escapes::Yes {
            let mut out = String::new();
            self.unescape_into(&mut out);
            Cow::Owned(out)
        } else {
            Cow::Borrowed(self.raw())
        }
    }

    /// Appends the unescaped value to `out`, reserving room for it first (at
    /// most [`len_hint`](Self::len_hint) bytes), so a reused `out` allocates
    /// nothing once it is large enough.
    pub fn unescape_into(&self, out: &mut String) {
        let raw = self.raw();
        out.reserve(raw.len());
        if self.escaped == Escapes::No {
            out.push_str(raw);
            return;
        }
        for piece in Pieces::new(raw) {
            match piece {
                Piece::Str(s) => out.push_str(s),
                Piece::Char(c) => out.push(c),
            }
        }
    }

    /// The characters of the unescaped value, decoded as they are read,
    /// without allocating.
    #[inline]
    pub fn chars(&self) -> Chars<'a> {
        Chars { rest: self.raw() }
    }

    /// An upper bound on the length in bytes of the unescaped value: the
    /// length of the raw text. Exact when there are no escapes (an escape is
    /// never shorter than what it decodes to).
    #[inline]
    pub fn len_hint(&self) -> usize {
        self.raw().len()
    }

    /// Whether the value is the empty string.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.quoted.len() <= 2
    }
}

impl Default for JsonStr<'_> {
    /// The empty string.
    fn default() -> Self {
        Self::new("\"\"", false)
    }
}

impl fmt::Debug for JsonStr<'_> {
    /// The raw JSON literal, escapes as they stand: `JsonStr("a\nb")`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JsonStr({})", self.quoted)
    }
}

impl fmt::Display for JsonStr<'_> {
    /// Writes the unescaped value, piece by piece, without allocating.
    /// Width and precision flags are ignored.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for piece in Pieces::new(self.raw()) {
            match piece {
                Piece::Str(s) => f.write_str(s)?,
                Piece::Char(c) => f.write_char(c)?,
            }
        }
        Ok(())
    }
}

impl PartialEq<str> for JsonStr<'_> {
    /// Compares the unescaped value with `other`, without allocating.
    #[inline]
    fn eq(&self, other: &str) -> bool {
        if self.escaped == Escapes::No {
            return self.raw() == other;
        }
        self.eq_escaped(other)
    }
}

impl JsonStr<'_> {
    /// `==` for a string with escapes (kept out of line: ids and keys
    /// rarely have any).
    #[inline(never)]
    fn eq_escaped(&self, other: &str) -> bool {
        let raw = self.raw();
        if other.len() > raw.len() {
            return false; // unescaping never lengthens
        }
        let mut rest = other.as_bytes();
        let mut buf = [0u8; 4];
        for piece in Pieces::new(raw) {
            let bytes = match piece {
                Piece::Str(s) => s.as_bytes(),
                Piece::Char(c) => c.encode_utf8(&mut buf).as_bytes(),
            };
            match rest.strip_prefix(bytes) {
                Some(r) => rest = r,
                None => return false,
            }
        }
        rest.is_empty()
    }
}

impl PartialEq<&str> for JsonStr<'_> {
    /// Compares the unescaped value with `other`, without allocating.
    #[inline]
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl PartialEq<JsonStr<'_>> for str {
    #[inline]
    fn eq(&self, other: &JsonStr<'_>) -> bool {
        *other == *self
    }
}

impl PartialEq<JsonStr<'_>> for &str {
    #[inline]
    fn eq(&self, other: &JsonStr<'_>) -> bool {
        *other == **self
    }
}

impl PartialEq for JsonStr<'_> {
    /// Compares the unescaped values: `"\u0041"` equals `"A"`.
    fn eq(&self, other: &JsonStr<'_>) -> bool {
        match (self.as_str(), other.as_str()) {
            (Some(a), Some(b)) => a == b,
            (Some(a), None) => *other == *a,
            (None, Some(b)) => *self == *b,
            (None, None) => self.chars().eq(other.chars()),
        }
    }
}

impl Eq for JsonStr<'_> {}

/// Iterator over the characters of a [`JsonStr`]'s unescaped value, made by
/// [`JsonStr::chars`].
#[derive(Debug, Clone)]
pub struct Chars<'a> {
    rest: &'a str,
}

impl Iterator for Chars<'_> {
    type Item = char;

    #[inline]
    fn next(&mut self) -> Option<char> {
        let first = *self.rest.as_bytes().first()?;
        if first == b'\\' {
            let (c, n) = decode_escape(self.rest.as_bytes());
            self.rest = self.rest.get(n..).unwrap_or_default();
            Some(c)
        } else {
            let c = self.rest.chars().next()?;
            self.rest = self.rest.get(c.len_utf8()..).unwrap_or_default();
            Some(c)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // A character takes 1 to 12 bytes of raw text (a surrogate pair).
        let n = self.rest.len();
        (n.div_ceil(12), Some(n))
    }
}

impl FusedIterator for Chars<'_> {}

/// A run of raw text that needs no decoding, or one decoded escape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Piece<'a> {
    Str(&'a str),
    Char(char),
}

/// The unescaped value of a validated string body, in pieces: each run
/// without backslashes is one borrowed piece, found with `memchr`.
#[derive(Debug, Clone)]
struct Pieces<'a> {
    rest: &'a str,
}

impl<'a> Pieces<'a> {
    #[inline]
    fn new(raw: &'a str) -> Self {
        Self { rest: raw }
    }
}

impl<'a> Iterator for Pieces<'a> {
    type Item = Piece<'a>;

    #[inline]
    fn next(&mut self) -> Option<Piece<'a>> {
        let bytes = self.rest.as_bytes();
        match memchr(b'\\', bytes) {
            Some(0) => {
                let (c, n) = decode_escape(bytes);
                self.rest = self.rest.get(n..).unwrap_or_default();
                Some(Piece::Char(c))
            }
            _ if bytes.is_empty() => None,
            found => {
                let n = found.unwrap_or(bytes.len());
                let (run, rest) = self.rest.split_at_checked(n).unwrap_or((self.rest, ""));
                self.rest = rest;
                Some(Piece::Str(run))
            }
        }
    }
}

/// Four hex digits as a number.
#[inline]
fn hex4(digits: Option<&[u8]>) -> Option<u32> {
    digits?
        .iter()
        .try_fold(0u32, |n, &d| Some((n << 4) | char::from(d).to_digit(16)?))
}

/// Decodes the escape at the start of `b` (which starts with a backslash)
/// into a character and the number of bytes it takes (at least 1, so callers
/// always advance, even on text that was not validated).
#[inline]
fn decode_escape(b: &[u8]) -> (char, usize) {
    let c = match b.get(1) {
        Some(b'"') => '"',
        Some(b'\\') => '\\',
        Some(b'/') => '/',
        Some(b'b') => '\u{8}',
        Some(b'f') => '\u{c}',
        Some(b'n') => '\n',
        Some(b'r') => '\r',
        Some(b't') => '\t',
        Some(b'u') => return decode_unicode_escape(b),
        _ => char::REPLACEMENT_CHARACTER,
    };
    (c, b.len().min(2))
}

#[inline]
fn decode_unicode_escape(b: &[u8]) -> (char, usize) {
    let Some(n) = hex4(b.get(2..6)) else {
        return (char::REPLACEMENT_CHARACTER, 2);
    };
    match n {
        0xD800..=0xDBFF => {
            if b.get(6..8) == Some(b"\\u") {
                if let Some(lo @ 0xDC00..=0xDFFF) = hex4(b.get(8..12)) {
                    let c = 0x10000 + ((n - 0xD800) << 10) + (lo - 0xDC00);
                    return (char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER), 12);
                }
            }
            (char::REPLACEMENT_CHARACTER, 6)
        }
        // A trailing surrogate with no leading one, and (via from_u32) nothing else.
        _ => (char::from_u32(n).unwrap_or(char::REPLACEMENT_CHARACTER), 6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec::Vec;

    fn js(src: &str) -> JsonStr<'_> {
        JsonStr::parse(src).unwrap()
    }

    #[test]
    fn unescape_table() {
        let table: &[(&str, &str)] = &[
            (r#""""#, ""),
            (r#""plain""#, "plain"),
            (r#""\"""#, "\""),
            (r#""\\""#, "\\"),
            (r#""\/""#, "/"),
            (r#""\b\f\n\r\t""#, "\u{8}\u{c}\n\r\t"),
            (r#""\u0000\u001f""#, "\0\u{1f}"),
            (r#""\u00e9\u00E9""#, "éé"),
            (r#""\u20AC""#, "€"),
            (r#""\uD83D\uDE00""#, "😀"),
            (r#""\ud83d\ude00x""#, "😀x"),
            (r#""a\\nb""#, "a\\nb"),
            (r#""\\\"""#, "\\\""),
            ("\"é😀\\n\"", "é😀\n"),
            // Lone surrogates (which the scanner rejects, so only built by
            // hand here) become U+FFFD; what follows is decoded normally.
            (r#""\ud800""#, "\u{fffd}"),
            (r#""\udc00""#, "\u{fffd}"),
            (r#""\ud800x""#, "\u{fffd}x"),
            (r#""\ud800\n""#, "\u{fffd}\n"),
            (r#""\ud800\u0041""#, "\u{fffd}A"),
            (r#""\ud800\ud800\udc00""#, "\u{fffd}\u{10000}"),
            (r#""\udc00\ud800""#, "\u{fffd}\u{fffd}"),
            (r#""\uDBFF\uDFFF""#, "\u{10ffff}"),
        ];
        for &(src, want) in table {
            let s = if want.contains('\u{fffd}') {
                assert!(JsonStr::parse(src).is_err(), "{src}");
                JsonStr::new(src, true)
            } else {
                js(src)
            };
            assert_eq!(s.unescape(), want, "{src}");
            assert_eq!(s.chars().collect::<String>(), want, "{src}");
            assert_eq!(s.to_string(), want, "{src}");
            assert_eq!(s, want, "{src}");
            assert_eq!(want, s, "{src}");
            assert!(s.len_hint() >= want.len(), "{src}");
            assert_eq!(s.is_empty(), want.is_empty(), "{src}");
            let mut out = String::from(">");
            s.unescape_into(&mut out);
            assert_eq!(out, alloc::format!(">{want}"));
            assert_eq!(s.has_escapes(), s.raw().contains('\\'));
            assert_eq!(s.as_str().is_some(), !s.has_escapes());
            assert_eq!(s.as_raw_json().get(), src);
        }
    }

    #[test]
    fn borrowed_when_no_escapes() {
        let src = r#""hello""#;
        let s = js(src);
        assert!(matches!(s.unescape(), Cow::Borrowed("hello")));
        assert_eq!(s.as_str(), Some("hello"));
        assert_eq!(s.raw().as_ptr(), src[1..].as_ptr());
        assert!(matches!(js(r#""a\nb""#).unescape(), Cow::Owned(_)));
        assert_eq!(s.len_hint(), 5);
    }

    #[test]
    fn comparisons() {
        assert_eq!(js(r#""\u0041b""#), js(r#""Ab""#));
        assert_eq!(js(r#""\u0041b""#), js(r#""\u0041\u0062""#));
        assert_ne!(js(r#""\u0041b""#), js(r#""Ac""#));
        assert_ne!(js(r#""a\n""#), "a");
        assert_ne!(js(r#""a\n""#), "a\nb");
        assert_ne!(js(r#""a\n""#), "a\r");
        assert_ne!(js(r#""\u00e9""#), "e");
        assert_ne!(js(r#""\u00e9""#), "éé");
        assert_eq!(js(r#""\/""#), "/");
        assert_ne!(js(r#""plain""#), "plan");
        assert!(*"x" == js(r#""\u0078""#));
    }

    #[test]
    fn parse_requires_a_string() {
        assert_eq!(
            JsonStr::parse(" 1").unwrap_err().kind(),
            JsonErrorKind::ExpectedString
        );
        assert_eq!(JsonStr::parse(" 1").unwrap_err().offset(), 1);
        assert_eq!(
            JsonStr::parse("\"a").unwrap_err().kind(),
            JsonErrorKind::Eof
        );
        assert_eq!(js(" \"a\" ").raw(), "a");
    }

    #[test]
    fn debug_and_default() {
        assert_eq!(
            alloc::format!("{:?}", js(r#""a\nb""#)),
            r#"JsonStr("a\nb")"#
        );
        let d = JsonStr::default();
        assert!(d.is_empty());
        assert_eq!(d, "");
        assert_eq!(d.raw(), "");
    }

    #[test]
    fn pieces_split_at_escapes() {
        let p: Vec<Piece<'_>> = Pieces::new(r"ab\ncd\u00e9").collect();
        assert_eq!(
            p,
            [
                Piece::Str("ab"),
                Piece::Char('\n'),
                Piece::Str("cd"),
                Piece::Char('é')
            ]
        );
    }

    #[test]
    fn decoding_unvalidated_text_never_panics_or_stalls() {
        for raw in [
            r"\",
            r"\u",
            r"\u12",
            r"\uD800\u",
            r"\q",
            "\\\u{e9}",
            r"\uZZZZ",
        ] {
            let n = Pieces::new(raw).count();
            assert!(n <= raw.len());
            let c = Chars { rest: raw }.count();
            assert!(c <= raw.len());
        }
    }

    #[test]
    fn chars_size_hint() {
        let s = js(r#""\uD83D\uDE00""#);
        let (lo, hi) = s.chars().size_hint();
        assert!(lo <= 1 && hi >= Some(1));
    }
}
