//! `Value`, and the lazily walked `ObjectView` and `ArrayView` (the
//! member scanner that decodes objects in one pass is in `members.rs`).

use core::fmt;
use core::iter::FusedIterator;

use super::error::{JsonError, JsonErrorKind};
use super::members::{Key, MemberSource};
use super::raw::{RawJson, RawNumber};
use super::scan::{self, skip_ws, sub};
use super::string::JsonStr;

/// A JSON value, borrowed from validated text.
///
/// Scalars are decoded (or, for numbers and strings, delimited) when the
/// value is made; objects and arrays are only delimited, and are walked when
/// iterated. Nothing here allocates.
#[derive(Debug, Clone, Copy)]
#[allow(clippy::exhaustive_enums)] // JSON has exactly these six kinds of value
pub enum Value<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as written.
    Number(RawNumber<'a>),
    /// A string, escapes and all: see [`JsonStr`].
    String(JsonStr<'a>),
    /// An object, walked on demand.
    Object(ObjectView<'a>),
    /// An array, walked on demand.
    Array(ArrayView<'a>),
}

impl<'a> Value<'a> {
    /// Validates `src` as one JSON text (whitespace around the value allowed)
    /// and returns its value.
    ///
    /// This is the one fallible step: the whole text is checked here, in one
    /// pass that neither recurses nor allocates, so everything reached from
    /// the value afterwards is known to be well formed.
    ///
    /// # Errors
    ///
    /// A [`JsonError`] if `src` is not exactly one valid JSON value, or nests
    /// deeper than [`MAX_DEPTH`](super::MAX_DEPTH).
    pub fn parse(src: &'a str) -> Result<Self, JsonError> {
        let span = scan::validate(src)?;
        Ok(Self::from_validated(src, span))
    }

    /// The value `span` of validated `src`.
    #[inline]
    pub(crate) fn from_validated(src: &'a str, span: scan::Span) -> Self {
        let text = sub(src, span.start, span.end);
        if text.starts_with('"') {
            Self::String(JsonStr::new(text, span.escaped))
        } else {
            Self::from_span(text)
        }
    }

    /// `span` is exactly one validated value.
    pub(crate) fn from_span(span: &'a str) -> Self {
        let b = span.as_bytes();
        match b.first() {
            Some(b'"') => {
                let body = sub(span, 1, span.len().saturating_sub(1));
                Self::String(JsonStr::new(span, scan::has_backslash(body)))
            }
            Some(b'{') => Self::Object(ObjectView { raw: span }),
            Some(b'[') => Self::Array(ArrayView { raw: span }),
            Some(b't') => Self::Bool(true),
            Some(b'f') => Self::Bool(false),
            Some(b'n') => Self::Null,
            _ => Self::Number(RawNumber::new(span)),
        }
    }

    /// The value that starts at `i` in validated `src`, and the index just
    /// past it. Finds the end of a string or container without checking it.
    #[inline]
    pub(crate) fn walk(src: &'a str, i: usize) -> (Self, usize) {
        let b = src.as_bytes();
        match b.get(i) {
            Some(b'"') => {
                let (close, escaped) = scan::string_end(b, i + 1);
                let end = close + 1;
                (Self::String(JsonStr::new(sub(src, i, end), escaped)), end)
            }
            Some(b'{') => {
                let end = scan::container_end(b, i);
                (
                    Self::Object(ObjectView {
                        raw: sub(src, i, end),
                    }),
                    end,
                )
            }
            Some(b'[') => {
                let end = scan::container_end(b, i);
                (
                    Self::Array(ArrayView {
                        raw: sub(src, i, end),
                    }),
                    end,
                )
            }
            Some(b't') => (Self::Bool(true), i + 4),
            Some(b'f') => (Self::Bool(false), i + 5),
            Some(b'n') => (Self::Null, i + 4),
            _ => {
                let end = scan::number_end(b, i);
                (Self::Number(RawNumber::new(sub(src, i, end))), end)
            }
        }
    }

    /// The value's JSON text. For `null` and booleans this is a static
    /// string, not a span of the input.
    pub fn as_raw_json(&self) -> RawJson<'a> {
        match self {
            Self::Null => RawJson::new("null"),
            Self::Bool(true) => RawJson::new("true"),
            Self::Bool(false) => RawJson::new("false"),
            Self::Number(n) => n.as_raw_json(),
            Self::String(s) => s.as_raw_json(),
            Self::Object(o) => o.as_raw_json(),
            Self::Array(a) => a.as_raw_json(),
        }
    }

    /// Whether the value is `null`.
    #[inline]
    pub fn is_null(&self) -> bool {
        matches!(self, Self::Null)
    }

    /// The boolean, if the value is one.
    #[inline]
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Self::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The number, if the value is one.
    #[inline]
    pub fn as_number(&self) -> Option<RawNumber<'a>> {
        match *self {
            Self::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The string, if the value is one. It may hold escapes: see [`JsonStr`].
    #[inline]
    pub fn as_json_str(&self) -> Option<JsonStr<'a>> {
        match *self {
            Self::String(s) => Some(s),
            _ => None,
        }
    }

    /// The object, if the value is one.
    #[inline]
    pub fn as_object(&self) -> Option<ObjectView<'a>> {
        match *self {
            Self::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The array, if the value is one.
    #[inline]
    pub fn as_array(&self) -> Option<ArrayView<'a>> {
        match *self {
            Self::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The number as a `u64`; see [`RawNumber::as_u64`].
    #[inline]
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number()?.as_u64()
    }

    /// The number as an `i64`; see [`RawNumber::as_i64`].
    #[inline]
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number()?.as_i64()
    }

    /// The number as an `f64`; see [`RawNumber::as_f64`].
    #[inline]
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number()?.as_f64()
    }

    /// The first member named `key`, if the value is an object; see
    /// [`ObjectView::get`].
    #[inline]
    pub fn get(&self, key: &str) -> Option<Value<'a>> {
        self.as_object()?.get(key)
    }
}

/// A JSON object, validated but not yet walked: its members are found as
/// they are iterated, without allocating.
///
/// Each walk over the members reads the object's text again, nested values
/// included (they are skipped, not walked). Member order and duplicate keys
/// are kept as written.
#[derive(Clone, Copy)]
pub struct ObjectView<'a> {
    /// `{` to `}`, validated.
    raw: &'a str,
}

impl<'a> ObjectView<'a> {
    /// The empty object.
    pub(crate) const EMPTY: ObjectView<'static> = ObjectView { raw: "{}" };

    /// Validates `src` as one JSON text that is an object.
    ///
    /// # Errors
    ///
    /// Any [`JsonError`] for malformed text; [`JsonErrorKind::ExpectedObject`]
    /// (at the value's offset) for valid JSON that is not an object.
    pub fn parse(src: &'a str) -> Result<Self, JsonError> {
        match Value::parse(src)? {
            Value::Object(o) => Ok(o),
            _ => Err(JsonError::new(
                JsonErrorKind::ExpectedObject,
                skip_ws(src.as_bytes(), 0),
            )),
        }
    }

    /// The object's JSON text, braces included.
    #[inline]
    pub fn as_raw_json(&self) -> RawJson<'a> {
        RawJson::new(self.raw)
    }

    /// An iterator over the members, in order, as `(key, value)` pairs.
    /// Nested objects and arrays are skipped over, not walked, until asked.
    #[inline]
    pub fn members(&self) -> Members<'a> {
        Members {
            src: self.raw,
            pos: 1,
        }
    }

    /// The value of the last member whose (unescaped) key is `key`: with
    /// duplicate keys the last one wins, as in `serde_json::Value`,
    /// JavaScript's `JSON.parse` and Python's `json`. Walks every member
    /// (nested values are skipped, not walked).
    pub fn get(&self, key: &str) -> Option<Value<'a>> {
        self.members()
            .filter_map(|(k, v)| (k == key).then_some(v))
            .last()
    }

    /// Whether the object has no members. O(1) for compact text.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.members().next().is_none()
    }
}

impl fmt::Debug for ObjectView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ObjectView({})", self.raw)
    }
}

impl<'a> IntoIterator for ObjectView<'a> {
    type Item = (JsonStr<'a>, Value<'a>);
    type IntoIter = Members<'a>;

    fn into_iter(self) -> Members<'a> {
        self.members()
    }
}

/// Iterator over the members of an [`ObjectView`], made by
/// [`ObjectView::members`].
#[derive(Debug, Clone)]
pub struct Members<'a> {
    src: &'a str,
    pos: usize,
}

impl<'a> Iterator for Members<'a> {
    type Item = (JsonStr<'a>, Value<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        let key = self.key()?;
        Some((key.json_str(), self.walk_value()))
    }
}

impl<'a> Members<'a> {
    /// The next key; `pos` is then at its value.
    #[inline]
    fn key(&mut self) -> Option<Key<'a>> {
        let b = self.src.as_bytes();
        let mut i = skip_ws(b, self.pos);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b'"') => {}
            _ => {
                self.pos = b.len();
                return None;
            }
        }
        let (close, escaped) = scan::string_end(b, i + 1);
        // Past the key, the colon and whitespace; compact text has none.
        self.pos = skip_ws(b, skip_ws(b, close + 1) + 1);
        Some(Key {
            src: self.src,
            start: i,
            close,
            escaped,
        })
    }

    /// The value at `pos`.
    #[inline]
    fn walk_value(&mut self) -> Value<'a> {
        let (value, end) = Value::walk(self.src, self.pos);
        self.pos = end;
        value
    }
}

impl<'a> MemberSource<'a> for Members<'a> {
    #[inline]
    fn next_key(&mut self) -> Option<Result<Key<'a>, JsonError>> {
        self.key().map(Ok)
    }
    #[inline]
    fn value(&mut self) -> Result<Value<'a>, JsonError> {
        Ok(self.walk_value())
    }
}

impl FusedIterator for Members<'_> {}

/// A JSON array, validated but not yet walked: its elements are found as
/// they are iterated, without allocating.
#[derive(Clone, Copy)]
pub struct ArrayView<'a> {
    /// `[` to `]`, validated.
    pub(super) raw: &'a str,
}

impl ArrayView<'static> {
    /// `[]`.
    pub(crate) const EMPTY: Self = Self { raw: "[]" };
}

impl<'a> ArrayView<'a> {
    /// Validates `src` as one JSON text that is an array.
    ///
    /// # Errors
    ///
    /// Any [`JsonError`] for malformed text; [`JsonErrorKind::ExpectedArray`]
    /// (at the value's offset) for valid JSON that is not an array.
    pub fn parse(src: &'a str) -> Result<Self, JsonError> {
        match Value::parse(src)? {
            Value::Array(a) => Ok(a),
            _ => Err(JsonError::new(
                JsonErrorKind::ExpectedArray,
                skip_ws(src.as_bytes(), 0),
            )),
        }
    }

    /// The array's JSON text, brackets included.
    #[inline]
    pub fn as_raw_json(&self) -> RawJson<'a> {
        RawJson::new(self.raw)
    }

    /// An iterator over the elements, in order. Nested objects and arrays
    /// are skipped over, not walked, until asked.
    #[inline]
    pub fn iter(&self) -> Elements<'a> {
        Elements {
            src: self.raw,
            pos: 1,
        }
    }

    /// Whether the array has no elements. O(1) for compact text.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }
}

impl fmt::Debug for ArrayView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ArrayView({})", self.raw)
    }
}

impl<'a> IntoIterator for ArrayView<'a> {
    type Item = Value<'a>;
    type IntoIter = Elements<'a>;

    fn into_iter(self) -> Elements<'a> {
        self.iter()
    }
}

/// Iterator over the elements of an [`ArrayView`], made by
/// [`ArrayView::iter`].
#[derive(Debug, Clone)]
pub struct Elements<'a> {
    src: &'a str,
    pos: usize,
}

impl<'a> Elements<'a> {
    /// The array's text (a slice of the text it was validated in).
    #[inline]
    pub(crate) fn src(&self) -> &'a str {
        self.src
    }

    /// Moves to the next element without walking it: its index in
    /// [`src`](Self::src), or `None` after the last one. The caller must
    /// then call [`resume`](Self::resume) past the element.
    #[inline]
    pub(crate) fn next_start(&mut self) -> Option<usize> {
        let b = self.src.as_bytes();
        let mut i = skip_ws(b, self.pos);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b']') | None => {
                self.pos = b.len();
                return None;
            }
            Some(_) => {}
        }
        self.pos = i;
        Some(i)
    }

    /// Goes on after an element that ends just before `end` (an index in
    /// [`src`](Self::src)).
    #[inline]
    pub(crate) fn resume(&mut self, end: usize) {
        // Never stall, even on text that broke the invariant.
        self.pos = end.max(self.pos + 1);
    }
}

impl<'a> Iterator for Elements<'a> {
    type Item = Value<'a>;

    fn next(&mut self) -> Option<Value<'a>> {
        let i = self.next_start()?;
        let (value, end) = Value::walk(self.src, i);
        // Never stall, even on text that broke the invariant.
        self.pos = end.max(i + 1);
        Some(value)
    }
}

impl FusedIterator for Elements<'_> {}

#[cfg(test)]
mod tests {
    use super::super::members::*;
    use super::super::MAX_DEPTH;
    use super::*;
    use alloc::string::ToString;
    use alloc::vec::Vec;

    #[test]
    fn members_in_order_with_nested_values_skipped() {
        let src = r#" { "a" : 1 , "b\n" : { "x" : [ 1 , "}" ] } , "c":[],"d":"\"","e":true,"f":false,"g":null } "#;
        let o = ObjectView::parse(src).unwrap();
        let m: Vec<_> = o.members().collect();
        assert_eq!(m.len(), 7);
        let keys: Vec<_> = m.iter().map(|(k, _)| k.unescape()).collect();
        assert_eq!(keys, ["a", "b\n", "c", "d", "e", "f", "g"]);
        assert_eq!(m[0].1.as_u64(), Some(1));
        let b = m[1].1.as_object().unwrap();
        assert_eq!(b.as_raw_json().get(), r#"{ "x" : [ 1 , "}" ] }"#);
        let x: Vec<_> = b.get("x").unwrap().as_array().unwrap().iter().collect();
        assert_eq!(x.len(), 2);
        assert_eq!(x[1].as_json_str().unwrap(), "}");
        assert!(m[2].1.as_array().unwrap().is_empty());
        assert_eq!(m[3].1.as_json_str().unwrap(), "\"");
        assert_eq!(m[4].1.as_bool(), Some(true));
        assert_eq!(m[5].1.as_bool(), Some(false));
        assert!(m[6].1.is_null());
        assert_eq!(o.get("b\n").unwrap().as_raw_json(), b.as_raw_json());
        assert!(o.get("b").is_none());
        let mut it = o.members();
        it.by_ref().for_each(drop);
        assert!(it.next().is_none());
    }

    #[test]
    fn get_returns_the_last_duplicate_as_serde_json_does() {
        let o = ObjectView::parse(r#"{"a":1,"a":2}"#).unwrap();
        assert_eq!(o.get("a").unwrap().as_u64(), Some(2));
        assert_eq!(o.members().count(), 2);
    }

    #[test]
    fn get_compares_unescaped_keys() {
        let o = ObjectView::parse(r#"{"\u0074ype":"x"}"#).unwrap();
        assert_eq!(o.get("type").unwrap().as_json_str().unwrap(), "x");
        assert!(find_key(r#"{"\u0074ype":"x"}"#, "type").unwrap().is_some());
    }

    #[test]
    fn arrays() {
        let a = ArrayView::parse("[ 1 , -2.5 , \"s\" , [ ] , { } , null ]").unwrap();
        let v: Vec<_> = a.iter().map(|v| v.as_raw_json().get()).collect();
        assert_eq!(v, ["1", "-2.5", "\"s\"", "[ ]", "{ }", "null"]);
        assert!(ArrayView::parse("[]").unwrap().is_empty());
        assert!(ArrayView::parse("[ ]").unwrap().is_empty());
        assert!(!a.is_empty());
        assert_eq!(a.into_iter().count(), 6);
    }

    #[test]
    fn empty_objects() {
        assert!(ObjectView::parse("{}").unwrap().is_empty());
        assert!(ObjectView::parse("{ \n }").unwrap().is_empty());
        assert!(!ObjectView::parse(r#"{"":0}"#).unwrap().is_empty());
    }

    #[test]
    fn wrong_kinds() {
        let e = ObjectView::parse(" [1]").unwrap_err();
        assert_eq!((e.kind(), e.offset()), (JsonErrorKind::ExpectedObject, 1));
        let e = ArrayView::parse("{}").unwrap_err();
        assert_eq!((e.kind(), e.offset()), (JsonErrorKind::ExpectedArray, 0));
        assert_eq!(
            find_key("\"type\"", "type").unwrap_err().kind(),
            JsonErrorKind::ExpectedObject
        );
        assert_eq!(
            find_key(r#"{"type":"x",}"#, "type").unwrap_err().kind(),
            JsonErrorKind::TrailingComma
        );
    }

    #[test]
    fn scalars_and_their_raw_json() {
        for (src, raw) in [
            (" null ", "null"),
            ("true", "true"),
            ("false", "false"),
            ("-0.0", "-0.0"),
            (r#""a\tb""#, r#""a\tb""#),
        ] {
            assert_eq!(Value::parse(src).unwrap().as_raw_json().get(), raw);
        }
        let v = Value::parse(r#"{"n":5}"#).unwrap();
        assert_eq!(v.get("n").and_then(|n| n.as_i64()), Some(5));
        assert_eq!(v.get("n").and_then(|n| n.as_f64()), Some(5.0));
        assert!(Value::parse("5").unwrap().get("n").is_none());
        assert!(Value::parse("5").unwrap().as_object().is_none());
        assert!(Value::parse("5").unwrap().as_array().is_none());
        assert!(Value::parse("5").unwrap().as_json_str().is_none());
        assert!(Value::parse("5").unwrap().as_bool().is_none());
        assert!(!Value::parse("5").unwrap().is_null());
    }

    #[test]
    fn object_scanner_validates_as_it_goes() {
        let all = |src| {
            ObjectScanner::new(src)
                .map(|m| m.map(|(k, v)| (k.raw(), v.as_raw_json().get())))
                .collect::<Vec<_>>()
        };
        let err = |kind, offset| Err(JsonError::new(kind, offset));
        assert_eq!(all(" {} "), []);
        assert_eq!(
            all(r#"{ "a" : [1] , "b\"":"x" }"#),
            [Ok(("a", "[1]")), Ok((r#"b\""#, r#""x""#))]
        );
        assert_eq!(
            all(r#"{"a":1}x"#),
            [Ok(("a", "1")), err(JsonErrorKind::TrailingCharacters, 7)]
        );
        assert_eq!(
            all(r#"{"a":1,}"#),
            [Ok(("a", "1")), err(JsonErrorKind::TrailingComma, 7)]
        );
        assert_eq!(
            all(r#"{"a":1 "b""#),
            [
                Ok(("a", "1")),
                err(JsonErrorKind::ExpectedCommaOrObjectEnd, 7)
            ]
        );
        assert_eq!(
            all(r#"{"a":1"#),
            [Ok(("a", "1")), err(JsonErrorKind::Eof, 6)]
        );
        assert_eq!(all(r#"{"a":[}"#), [err(JsonErrorKind::ExpectedValue, 6)]);
        assert_eq!(all("[1]"), [err(JsonErrorKind::ExpectedObject, 0)]);
        assert_eq!(all(" [1,]"), [err(JsonErrorKind::TrailingComma, 4)]);
        assert_eq!(all(""), [err(JsonErrorKind::Eof, 0)]);
        let deepest =
            r#"{"a":"#.to_string() + &"[".repeat(MAX_DEPTH - 1) + &"]".repeat(MAX_DEPTH - 1) + "}";
        assert!(all(&deepest).iter().all(Result::is_ok));
        let deeper = r#"{"a":"#.to_string() + &"[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH) + "}";
        assert_eq!(
            all(&deeper),
            [err(JsonErrorKind::TooDeep, 5 + MAX_DEPTH - 1)]
        );
        let mut s = ObjectScanner::new("{");
        assert!(s.next().unwrap().is_err());
        assert!(s.next().is_none());
    }

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn views_are_small_and_shareable() {
        use core::mem::size_of;
        fn send_sync<T: Send + Sync>() {}
        send_sync::<Value<'_>>();
        send_sync::<ObjectScanner<'_>>();
        send_sync::<JsonError>();
        assert_eq!(size_of::<JsonStr<'_>>(), 24);
        assert_eq!(size_of::<Value<'_>>(), 24);
        assert_eq!(size_of::<ObjectView<'_>>(), 16);
        assert_eq!(size_of::<Option<(JsonStr<'_>, Value<'_>)>>(), 48);
    }

    #[test]
    fn walking_unvalidated_text_never_panics_or_stalls() {
        for raw in [
            "{", "{\"", "{\"a", "{\"a\"", "{\"a\":", "[", "[,", "[\"", "{,,}", "[1,,]",
        ] {
            let o = ObjectView { raw };
            assert!(o.members().count() <= raw.len());
            let a = ArrayView { raw };
            assert!(a.iter().count() <= raw.len());
        }
    }
}
