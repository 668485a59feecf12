//! The member scanner: [`ObjectScanner`], which validates an object and
//! hands out its members in one pass, and [`MemberSource`], the walk over
//! an object's members that the views' decoder reads (keys compared in
//! place by [`KeyPattern`], values scanned only when asked).

use core::iter::FusedIterator;

use super::error::{JsonError, JsonErrorKind};
use super::raw::RawNumber;
use super::scan::{self, skip_ws, sub};
use super::string::JsonStr;
use super::value::{ArrayView, ObjectView, Value};

/// Walks an object's members *while* validating it: one pass over the text
/// instead of the two of [`ObjectView::parse`] followed by
/// [`ObjectView::members`]. Meant for decoders that visit every member.
///
/// Each item is a member, or the first error in the text, after which the
/// iterator ends. Member values are validated before they are yielded, so
/// walking them is infallible as usual. The text is only known to be valid
/// once the iterator has returned `None` without an error: a decoder that
/// stops early has not checked the rest (trailing characters included).
///
/// The members and errors are exactly those of `ObjectView::parse(src)` and
/// its members: the same first error, at the same offset.
///
/// # Example
///
/// ```
/// use ssekit::json::{JsonErrorKind, ObjectScanner};
///
/// let mut delta = None;
/// for member in ObjectScanner::new(r#"{"type":"response.output_text.delta","delta":"Hi"}"#) {
///     let (key, value) = member?;
///     if key == "delta" {
///         delta = value.as_json_str();
///     }
/// }
/// assert_eq!(delta.unwrap(), "Hi");
///
/// let mut bad = ObjectScanner::new(r#"{"a":1,"b":tru}"#);
/// assert!(bad.next().unwrap().is_ok());
/// assert_eq!(bad.next().unwrap().unwrap_err().kind(), JsonErrorKind::InvalidLiteral);
/// assert!(bad.next().is_none());
/// # Ok::<(), ssekit::json::JsonError>(())
/// ```
#[derive(Debug, Clone)]
pub struct ObjectScanner<'a> {
    src: &'a str,
    pos: usize,
    state: ScanState,
    /// Where the object's `{` is (once found).
    open: usize,
    /// How many levels of objects and arrays the members' values may
    /// hold, as [`scan::validate_value`] counts them.
    depth: usize,
    /// Whether the object is nested in a text that goes on after it: the
    /// scanner stops at its closing brace instead of checking that only
    /// whitespace follows.
    nested: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ScanState {
    /// Before the opening brace.
    Start,
    /// After the opening brace or a member.
    Members,
    /// After the closing brace or an error.
    Done,
}

impl<'a> ObjectScanner<'a> {
    /// A scanner over `src`, which should be one JSON object (whitespace
    /// around it allowed). Nothing is read until the first call to `next`.
    #[inline]
    pub fn new(src: &'a str) -> Self {
        Self {
            src,
            pos: 0,
            state: ScanState::Start,
            open: 0,
            depth: super::MAX_DEPTH - 1,
            nested: false,
        }
    }

    /// A scanner over the object at `at` in `src` (its `{`), which stops at
    /// the object's closing brace; for text validated before.
    #[inline]
    pub(crate) fn nested_at(src: &'a str, at: usize) -> Self {
        Self {
            src,
            pos: at,
            state: ScanState::Start,
            open: at,
            depth: super::MAX_DEPTH - 1,
            nested: true,
        }
    }

    /// Where the scanner is in its text.
    #[inline]
    pub(crate) fn position(&self) -> usize {
        self.pos
    }

    /// The object's text, braces included, once the scanner is done with
    /// it (before that, what was read of it).
    #[inline]
    pub(crate) fn object_text(&self) -> &'a str {
        sub(self.src, self.open, self.pos)
    }

    /// At a member value that is an array whose first element is an
    /// object, has `decode` decode that element (with a scanner over it,
    /// which validates it as it goes) and validates the rest of the array,
    /// in one pass when the element is the only one. Returns the array and
    /// where the element ends (an index in the array's text), and moves
    /// past the array.
    ///
    /// `None`, with nothing consumed, in every other case: the value is not
    /// an array, it is empty, its first element is not an object, `decode`
    /// fails on it (returns `false`: an element that does not fit, or
    /// invalid JSON), the array is nested too deep or is invalid after the
    /// element (after `decode` succeeded). The caller then reads the value
    /// the ordinary way, which reports the same errors as it would have
    /// without this attempt.
    #[inline(always)]
    pub(crate) fn array_head(
        &mut self,
        decode: impl FnOnce(&mut ObjectScanner<'a>) -> bool,
    ) -> Option<(ArrayView<'a>, usize)> {
        let b = self.src.as_bytes();
        let at = self.pos;
        // The array is one level, its object element a second one.
        if b.get(at) != Some(&b'[') || self.depth < 2 {
            return None;
        }
        let first = skip_ws(b, at + 1);
        if b.get(first) != Some(&b'{') {
            return None;
        }
        let mut inner = ObjectScanner {
            src: self.src,
            pos: first,
            state: ScanState::Start,
            open: first,
            depth: self.depth - 2,
            nested: true,
        };
        if !decode(&mut inner) {
            return None;
        }
        let head_end = inner.pos;
        let close = skip_ws(b, head_end);
        let end = if b.get(close) == Some(&b']') {
            close + 1
        } else {
            // More elements (or invalid text): the whole array again, by
            // the validator.
            scan::validate_value(b, at, self.depth).ok()?.end
        };
        self.pos = end;
        Some((
            ArrayView {
                raw: sub(self.src, at, end),
            },
            head_end - at,
        ))
    }

    #[cold]
    fn fail_value(&mut self, e: JsonError) -> JsonError {
        self.state = ScanState::Done;
        e
    }

    #[cold]
    fn fail<T>(&mut self, e: JsonError) -> Option<Result<T, JsonError>> {
        self.state = ScanState::Done;
        Some(Err(e))
    }

    /// The object closed just before `i`: only whitespace may follow.
    fn finish<T>(&mut self, i: usize) -> Option<Result<T, JsonError>> {
        self.state = ScanState::Done;
        if self.nested {
            self.pos = i;
            return None;
        }
        let after = skip_ws(self.src.as_bytes(), i);
        if after < self.src.len() {
            return self.fail(JsonError::new(JsonErrorKind::TrailingCharacters, after));
        }
        None
    }
}

impl<'a> Iterator for ObjectScanner<'a> {
    type Item = Result<(JsonStr<'a>, Value<'a>), JsonError>;

    // Inlined into the decoders, so that the member is not passed through
    // memory.
    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        let key = match self.next_key()? {
            Ok(key) => key,
            Err(e) => return Some(Err(e)),
        };
        Some(self.value().map(|value| (key.json_str(), value)))
    }
}

impl<'a> MemberSource<'a> for ObjectScanner<'a> {
    const IN_PLACE: bool = true;

    #[inline(always)]
    fn next_key(&mut self) -> Option<Result<Key<'a>, JsonError>> {
        match self.start_member()? {
            Ok(()) => Some(self.scan_key()),
            Err(e) => Some(Err(e)),
        }
    }

    #[inline(always)]
    fn start_member(&mut self) -> Option<Result<(), JsonError>> {
        let b = self.src.as_bytes();
        let mut i = self.pos;
        if self.state == ScanState::Members && b.get(i) == Some(&b',') {
            // Compact text: the next key right after the comma.
            i += 1;
            if b.get(i) != Some(&b'"') {
                i = skip_ws(b, i);
            }
        } else {
            i = skip_ws(b, i);
            match self.state {
                ScanState::Done => return None,
                ScanState::Start => {
                    if b.get(i) != Some(&b'{') {
                        debug_assert!(!self.nested, "a nested scanner starts at a brace");
                        // Report what the validator would: its error, or that
                        // valid JSON is not an object.
                        let e = match scan::validate(self.src) {
                            Err(e) => e,
                            Ok(_) => JsonError::new(JsonErrorKind::ExpectedObject, i),
                        };
                        return self.fail(e);
                    }
                    self.open = i;
                    i = skip_ws(b, i + 1);
                    if b.get(i) == Some(&b'}') {
                        return self.finish(i + 1);
                    }
                    self.state = ScanState::Members;
                }
                ScanState::Members => match b.get(i) {
                    Some(b',') => i = skip_ws(b, i + 1),
                    Some(b'}') => return self.finish(i + 1),
                    Some(_) => {
                        return self
                            .fail(JsonError::new(JsonErrorKind::ExpectedCommaOrObjectEnd, i))
                    }
                    None => return self.fail(JsonError::new(JsonErrorKind::Eof, i)),
                },
            }
        }
        if b.get(i) != Some(&b'"') {
            if let Err(e) = scan::key_error::<()>(b, i) {
                return self.fail(e);
            }
        }
        self.pos = i;
        Some(Ok(()))
    }

    #[inline(always)]
    fn key_word(&self) -> Option<KeyWord> {
        let b = self.src.as_bytes();
        let w = b.get(self.pos + 1..)?.first_chunk::<16>()?;
        Some(KeyWord::new(w))
    }

    #[inline(always)]
    fn key_tail_is(&self, name: &[u8]) -> bool {
        let b = self.src.as_bytes();
        let i = self.pos + 1;
        b.get(i + 16..i + name.len()) == name.get(16..) && b.get(i + name.len()) == Some(&b'"')
    }

    #[inline(always)]
    fn take_key(&mut self, len: usize) -> Result<(), JsonError> {
        let close = self.pos + 1 + len;
        match scan::after_key(self.src.as_bytes(), close) {
            Ok(at) => {
                self.pos = at;
                Ok(())
            }
            Err(e) => Err(self.fail_value(e)),
        }
    }

    #[inline(always)]
    fn scan_key(&mut self) -> Result<Key<'a>, JsonError> {
        let b = self.src.as_bytes();
        let i = self.pos;
        let (close, escaped, at) = match scan::validate_member_key(b, i) {
            Ok(key) => key,
            Err(e) => return Err(self.fail_value(e)),
        };
        self.pos = at;
        Ok(Key {
            src: self.src,
            start: i,
            close,
            escaped,
        })
    }

    #[inline(always)]
    fn value(&mut self) -> Result<Value<'a>, JsonError> {
        let b = self.src.as_bytes();
        let at = self.pos;
        // Strings and numbers, the common values, are validated here; the
        // rest by the general validator. The object itself is one level.
        let value = match b.get(at) {
            Some(b'"') => match scan::validate_string(b, at + 1) {
                Ok((close, escaped)) => {
                    self.pos = close + 1;
                    Value::String(JsonStr::new(sub(self.src, at, close + 1), escaped))
                }
                Err(e) => return Err(self.fail_value(e)),
            },
            Some(b'-' | b'0'..=b'9') => match scan::validate_number(b, at, false) {
                Ok(end) => {
                    self.pos = end;
                    Value::Number(RawNumber::new(sub(self.src, at, end)))
                }
                Err(e) => return Err(self.fail_value(e)),
            },
            // So are `null`s (`"finish_reason":null`) and empty arrays
            // (`"logprobs":[]`): neither needs the general validator.
            Some(b'n') if b.get(at..at + 4) == Some(b"null") => {
                self.pos = at + 4;
                Value::Null
            }
            Some(b'[') if b.get(at + 1) == Some(&b']') => {
                self.pos = at + 2;
                Value::Array(ArrayView {
                    raw: sub(self.src, at, at + 2),
                })
            }
            _ => match scan::validate_value(b, at, self.depth) {
                Ok(span) => {
                    self.pos = span.end;
                    Value::from_validated(self.src, span)
                }
                Err(e) => return Err(self.fail_value(e)),
            },
        };
        Ok(value)
    }

    #[inline(always)]
    fn value_u64(&mut self) -> Option<u64> {
        // One pass over the digits, validating and adding them up: a
        // non-negative integer of 1 to 19 digits without a leading zero,
        // not followed by a fraction or exponent. Anything else is left to
        // `value`.
        let b = self.src.as_bytes();
        let at = self.pos;
        let mut i = at;
        let mut n = 0u64;
        while let Some(&c) = b.get(i) {
            let d = c.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            n = n.wrapping_mul(10).wrapping_add(u64::from(d));
            i += 1;
        }
        let digits = i - at;
        if digits == 0
            || digits > 19
            || (digits > 1 && b.get(at) == Some(&b'0'))
            || matches!(b.get(i), Some(b'.' | b'e' | b'E'))
        {
            return None;
        }
        self.pos = i;
        Some(n)
    }

    #[inline(always)]
    fn value_is_str(&mut self, text: &[u8]) -> bool {
        let b = self.src.as_bytes();
        let at = self.pos;
        let end = at + text.len() + 2;
        let found = b.get(at) == Some(&b'"')
            && b.get(at + 1..end - 1) == Some(text)
            && b.get(end - 1) == Some(&b'"');
        if found {
            self.pos = end;
        }
        found
    }

    #[inline(always)]
    fn object_text(&self) -> &'a str {
        ObjectScanner::object_text(self)
    }

    #[inline(always)]
    fn value_is_null(&mut self) -> bool {
        // What follows is checked with the next member (as after any value).
        let b = self.src.as_bytes();
        let found =
            b.get(self.pos) == Some(&b'n') && b.get(self.pos..self.pos + 4) == Some(b"null");
        if found {
            self.pos += 4;
        }
        found
    }

    #[inline(always)]
    fn with_scanner(&mut self, f: impl FnOnce(&mut ObjectScanner<'a>) -> bool) -> bool {
        f(self)
    }

    #[inline(always)]
    fn nested_object<T, E>(
        &mut self,
        decode: impl FnOnce(&mut ObjectScanner<'a>) -> Result<T, E>,
    ) -> Option<Result<T, E>> {
        // At the depth limit, `value` reports the nesting error.
        if self.src.as_bytes().get(self.pos) != Some(&b'{') || self.depth == 0 {
            return None;
        }
        let mut inner = ObjectScanner {
            src: self.src,
            pos: self.pos,
            state: ScanState::Start,
            open: self.pos,
            depth: self.depth - 1,
            nested: true,
        };
        let result = decode(&mut inner);
        match result {
            Ok(_) => self.pos = inner.pos,
            Err(_) => self.state = ScanState::Done,
        }
        Some(result)
    }
}

impl FusedIterator for ObjectScanner<'_> {}

/// The key of an object member, as scanned: where it lies in the text.
#[derive(Clone, Copy)]
pub(crate) struct Key<'a> {
    pub(super) src: &'a str,
    /// The opening quote.
    pub(super) start: usize,
    /// The closing quote.
    pub(super) close: usize,
    pub(super) escaped: bool,
}

impl<'a> Key<'a> {
    /// The raw bytes between the quotes (escapes as written): for matching
    /// names without slicing a `str`.
    #[inline(always)]
    pub(crate) fn bytes(&self) -> &'a [u8] {
        self.src
            .as_bytes()
            .get(self.start + 1..self.close)
            .unwrap_or_default()
    }

    /// Whether the key holds escapes.
    #[inline(always)]
    pub(crate) fn has_escapes(&self) -> bool {
        self.escaped
    }

    /// The key as a [`JsonStr`].
    #[inline]
    pub(crate) fn json_str(&self) -> JsonStr<'a> {
        JsonStr::new(sub(self.src, self.start, self.close + 1), self.escaped)
    }

    /// Whether the key is `name` (compared unescaped).
    #[inline]
    pub(crate) fn is(&self, name: &str) -> bool {
        if self.escaped {
            self.json_str() == name
        } else {
            self.bytes() == name.as_bytes()
        }
    }
}

/// The sixteen bytes after a key's opening quote, as two little-endian
/// words: made once per key, then compared with each [`KeyPattern`] in a
/// few instructions.
#[derive(Clone, Copy)]
pub(crate) struct KeyWord {
    lo: u64,
    hi: u64,
}

impl KeyWord {
    #[inline(always)]
    fn new(w: &[u8; 16]) -> Self {
        let (lo, hi) = w.split_at(8);
        Self {
            lo: u64::from_le_bytes(lo.try_into().unwrap_or([0; 8])),
            hi: u64::from_le_bytes(hi.try_into().unwrap_or([0; 8])),
        }
    }
}

/// A member key as written followed by its closing quote, as the words
/// and masks that [`KeyPattern::matches`] compares a [`KeyWord`] with.
/// Built at compile time.
#[derive(Clone, Copy)]
pub(crate) struct KeyPattern {
    lo: u64,
    hi: u64,
    mask_lo: u64,
    mask_hi: u64,
    /// The key's length.
    len: usize,
    /// Whether the key and its quote fit in sixteen bytes; else the word
    /// holds the key's first sixteen bytes, and the rest is compared with
    /// [`MemberSource::key_tail_is`].
    fits: bool,
}

impl KeyPattern {
    /// The pattern of `name`, which must hold no `"`, `\\` or control
    /// character.
    pub(crate) const fn new(name: &str) -> Self {
        let b = name.as_bytes();
        let mut bytes = [0u8; 16];
        let mut mask = [0u8; 16];
        let mut i = 0;
        while i <= b.len() && i < 16 {
            bytes[i] = if i < b.len() { b[i] } else { b'"' };
            mask[i] = 0xff;
            i += 1;
        }
        let mut p = Self {
            lo: 0,
            hi: 0,
            mask_lo: 0,
            mask_hi: 0,
            len: b.len(),
            fits: b.len() < 16,
        };
        let mut i = 0;
        while i < 8 {
            p.lo |= (bytes[i] as u64) << (8 * i);
            p.hi |= (bytes[i + 8] as u64) << (8 * i);
            p.mask_lo |= (mask[i] as u64) << (8 * i);
            p.mask_hi |= (mask[i + 8] as u64) << (8 * i);
            i += 1;
        }
        p
    }

    /// The key's length in bytes.
    #[inline(always)]
    pub(crate) const fn len(self) -> usize {
        self.len
    }

    /// Whether the key is too long for a [`KeyWord`] (see
    /// [`matches`](Self::matches)).
    #[inline(always)]
    pub(crate) const fn is_long(self) -> bool {
        !self.fits
    }

    /// Whether the key at hand, as its [`KeyWord`], is this pattern's key
    /// as written, with its closing quote; for a key too long for a word,
    /// whether it starts as the pattern's does (then
    /// [`MemberSource::key_tail_is`] compares the rest).
    #[inline(always)]
    pub(crate) const fn matches(self, w: KeyWord) -> bool {
        if !self.fits {
            w.lo == self.lo && w.hi == self.hi
        } else if self.len < 8 {
            (w.lo ^ self.lo) & self.mask_lo == 0
        } else {
            w.lo == self.lo && (w.hi ^ self.hi) & self.mask_hi == 0
        }
    }
}

/// What the view decoders read an object's members from: a key, then its
/// value. [`ObjectScanner`] validates as it goes; [`Members`] walks text
/// already validated; [`IterMembers`] adapts any iterator of members.
pub(crate) trait MemberSource<'a> {
    /// The next member's key; `None` after the last member. After an
    /// error, the source is done.
    fn next_key(&mut self) -> Option<Result<Key<'a>, JsonError>>;

    /// The value of the member whose key was just read.
    fn value(&mut self) -> Result<Value<'a>, JsonError>;

    /// Whether this source matches keys in place: [`start_member`],
    /// [`key_word`], [`take_key`] and [`scan_key`] instead of [`next_key`].
    ///
    /// [`start_member`]: Self::start_member
    /// [`key_word`]: Self::key_word
    /// [`take_key`]: Self::take_key
    /// [`scan_key`]: Self::scan_key
    /// [`next_key`]: Self::next_key
    const IN_PLACE: bool = false;

    /// (In place only.) The text of the object walked, braces included,
    /// once the walk is done: see [`ObjectScanner::object_text`].
    #[inline(always)]
    fn object_text(&self) -> &'a str {
        debug_assert!(!Self::IN_PLACE, "an in-place source knows its text");
        ""
    }

    /// (In place only.) When the value at hand is an object, hands `decode`
    /// a scanner over it (nested: it stops at the object's closing brace)
    /// and moves past the object when `decode` succeeds; `None` (nothing
    /// consumed) when the value is not an object, when the object would be
    /// nested too deep (then [`value`](Self::value) reports the error), or
    /// when the source cannot.
    /// `decode` must walk the scanner to its end on success: a nested view
    /// decoder does.
    #[inline(always)]
    fn nested_object<T, E>(
        &mut self,
        decode: impl FnOnce(&mut ObjectScanner<'a>) -> Result<T, E>,
    ) -> Option<Result<T, E>> {
        let _ = decode;
        None
    }

    /// (In place only.) Hands `f` the scanner itself, at the value of the
    /// member whose key was just read: `f` either reads the value and
    /// returns `true`, or consumes nothing and returns `false` (then
    /// [`value`](Self::value) reads it). `false` when the source is not a
    /// scanner.
    #[inline(always)]
    fn with_scanner(&mut self, f: impl FnOnce(&mut ObjectScanner<'a>) -> bool) -> bool {
        let _ = f;
        false
    }

    /// (In place only.) Moves to the next member's key; `None` after the
    /// last member. After an error, the source is done.
    #[inline(always)]
    fn start_member(&mut self) -> Option<Result<(), JsonError>> {
        None
    }

    /// (In place only.) The sixteen bytes after the opening quote of the
    /// key at hand, for [`KeyPattern::matches`];
    /// `None` when fewer are left.
    #[inline(always)]
    fn key_word(&self) -> Option<KeyWord> {
        None
    }

    /// (In place only.) Whether the key at hand, whose first sixteen bytes
    /// are those of `name` (a key too long for a [`KeyWord`]), is `name`
    /// as written, closing quote included. Consumes nothing.
    #[inline(always)]
    fn key_tail_is(&self, name: &[u8]) -> bool {
        debug_assert!(!Self::IN_PLACE, "an in-place source compares key tails");
        let _ = name;
        false
    }

    /// (In place only.) Consumes the key at hand, of `len` bytes, which its
    /// [`key_word`](Self::key_word) showed to be a key without escapes that
    /// some [`KeyPattern`] matches, and its colon.
    #[inline(always)]
    fn take_key(&mut self, len: usize) -> Result<(), JsonError> {
        debug_assert!(!Self::IN_PLACE, "an in-place source consumes its keys");
        let _ = len;
        Ok(())
    }

    /// (In place only.) Reads the key at hand, which no [`KeyPattern`]
    /// matched.
    #[inline(always)]
    fn scan_key(&mut self) -> Result<Key<'a>, JsonError> {
        Err(JsonError::new(JsonErrorKind::Eof, 0))
    }

    /// The value of the member whose key was just read, if it is a
    /// non-negative integer of at most 19 digits; if so, it is consumed
    /// (else nothing is, and [`value`](Self::value) reads it).
    #[inline(always)]
    fn value_u64(&mut self) -> Option<u64> {
        None
    }

    /// Whether the value of the member whose key was just read is `null`;
    /// if so, it is consumed (else nothing is). Spares the caller a
    /// [`Value`] for the commonest optional value.
    #[inline(always)]
    fn value_is_null(&mut self) -> bool {
        false
    }

    /// Whether the value of the member whose key was just read is the string
    /// `text` as written, without escapes; if so, it is consumed (else
    /// nothing is). `text` must hold no `"`, `\\` or control character.
    #[inline(always)]
    fn value_is_str(&mut self, text: &[u8]) -> bool {
        let _ = text;
        false
    }
}

impl<'a, M: MemberSource<'a>> MemberSource<'a> for &mut M {
    const IN_PLACE: bool = M::IN_PLACE;

    #[inline(always)]
    fn start_member(&mut self) -> Option<Result<(), JsonError>> {
        (**self).start_member()
    }
    #[inline(always)]
    fn key_word(&self) -> Option<KeyWord> {
        (**self).key_word()
    }
    #[inline(always)]
    fn take_key(&mut self, len: usize) -> Result<(), JsonError> {
        (**self).take_key(len)
    }
    #[inline(always)]
    fn key_tail_is(&self, name: &[u8]) -> bool {
        (**self).key_tail_is(name)
    }
    #[inline(always)]
    fn scan_key(&mut self) -> Result<Key<'a>, JsonError> {
        (**self).scan_key()
    }
    #[inline(always)]
    fn next_key(&mut self) -> Option<Result<Key<'a>, JsonError>> {
        (**self).next_key()
    }
    #[inline(always)]
    fn value(&mut self) -> Result<Value<'a>, JsonError> {
        (**self).value()
    }
    #[inline(always)]
    fn value_u64(&mut self) -> Option<u64> {
        (**self).value_u64()
    }
    #[inline(always)]
    fn value_is_str(&mut self, text: &[u8]) -> bool {
        (**self).value_is_str(text)
    }
    #[inline(always)]
    fn value_is_null(&mut self) -> bool {
        (**self).value_is_null()
    }
    #[inline(always)]
    fn nested_object<T, E>(
        &mut self,
        decode: impl FnOnce(&mut ObjectScanner<'a>) -> Result<T, E>,
    ) -> Option<Result<T, E>> {
        (**self).nested_object(decode)
    }
    #[inline(always)]
    fn with_scanner(&mut self, f: impl FnOnce(&mut ObjectScanner<'a>) -> bool) -> bool {
        (**self).with_scanner(f)
    }
    #[inline(always)]
    fn object_text(&self) -> &'a str {
        (**self).object_text()
    }
}

/// A [`MemberSource`] that forwards to `inner` and watches one key the
/// decoder does not match (the Chat and Gemini `error` member): after the
/// walk, [`seen`](Self::seen) tells whether a member with that key (as
/// written, unescaped) had a value other than `null`. Keys the decoder
/// matches in place never reach it, so `key` must not be a field of the
/// view decoded.
pub(crate) struct WatchKey<'k, M> {
    inner: M,
    key: &'k str,
    /// The key just scanned is the watched one.
    pending: bool,
    seen: bool,
}

impl<'k, M> WatchKey<'k, M> {
    pub(crate) fn new(inner: M, key: &'k str) -> Self {
        Self {
            inner,
            key,
            pending: false,
            seen: false,
        }
    }

    /// Whether the watched key had a non-null value. The view decoded must
    /// not have a field with that key (its decoder would match it in
    /// place, unseen): the callers check this at compile time.
    pub(crate) fn seen(&self) -> bool {
        self.seen
    }
}

impl<'a, M: MemberSource<'a>> MemberSource<'a> for WatchKey<'_, M> {
    const IN_PLACE: bool = M::IN_PLACE;

    #[inline(always)]
    fn start_member(&mut self) -> Option<Result<(), JsonError>> {
        // A watched key read by another path than `value` is not carried
        // over to the next member.
        self.pending = false;
        self.inner.start_member()
    }
    #[inline(always)]
    fn key_word(&self) -> Option<KeyWord> {
        self.inner.key_word()
    }
    #[inline(always)]
    fn take_key(&mut self, len: usize) -> Result<(), JsonError> {
        self.inner.take_key(len)
    }
    #[inline(always)]
    fn key_tail_is(&self, name: &[u8]) -> bool {
        self.inner.key_tail_is(name)
    }
    #[inline(always)]
    fn scan_key(&mut self) -> Result<Key<'a>, JsonError> {
        let key = self.inner.scan_key()?;
        self.pending = key.is(self.key);
        Ok(key)
    }
    #[inline(always)]
    fn next_key(&mut self) -> Option<Result<Key<'a>, JsonError>> {
        let key = self.inner.next_key()?;
        if let Ok(key) = &key {
            self.pending = key.is(self.key);
        }
        Some(key)
    }
    #[inline(always)]
    fn value(&mut self) -> Result<Value<'a>, JsonError> {
        let value = self.inner.value()?;
        if core::mem::take(&mut self.pending) && !value.is_null() {
            self.seen = true;
        }
        Ok(value)
    }
    #[inline(always)]
    fn value_u64(&mut self) -> Option<u64> {
        self.inner.value_u64()
    }
    #[inline(always)]
    fn value_is_str(&mut self, text: &[u8]) -> bool {
        self.inner.value_is_str(text)
    }
    #[inline(always)]
    fn value_is_null(&mut self) -> bool {
        self.inner.value_is_null()
    }
    #[inline(always)]
    fn nested_object<T, E>(
        &mut self,
        decode: impl FnOnce(&mut ObjectScanner<'a>) -> Result<T, E>,
    ) -> Option<Result<T, E>> {
        self.inner.nested_object(decode)
    }
    #[inline(always)]
    fn with_scanner(&mut self, f: impl FnOnce(&mut ObjectScanner<'a>) -> bool) -> bool {
        self.inner.with_scanner(f)
    }
    #[inline(always)]
    fn object_text(&self) -> &'a str {
        self.inner.object_text()
    }
}

/// Validates `obj` as a JSON object and returns the value of its last
/// top-level member named `key` (compared unescaped), if there is one: with
/// duplicate keys the last wins, as in `serde_json::Value`.
///
/// This is the dispatch helper: `find_key(data, "type")` reads an event's
/// type without decoding anything else. The whole text is validated (one
/// pass, no allocation), then its members are walked, nested values skipped
/// (a second pass, no allocation). To decode more members
/// after dispatching, parse once with [`ObjectView::parse`] and call
/// [`ObjectView::get`] instead.
///
/// # Errors
///
/// Any [`JsonError`] for malformed text; [`JsonErrorKind::ExpectedObject`]
/// for valid JSON that is not an object.
///
/// # Example
///
/// ```
/// use ssekit::json::find_key;
///
/// let data = r#"{"type":"response.output_text.delta","delta":"Hi"}"#;
/// let ty = find_key(data, "type")?.and_then(|v| v.as_json_str()).unwrap();
/// assert_eq!(ty.as_str(), Some("response.output_text.delta"));
/// assert!(find_key(data, "missing")?.is_none());
/// assert!(find_key("[1]", "type").is_err());
/// # Ok::<(), ssekit::json::JsonError>(())
/// ```
pub fn find_key<'a>(obj: &'a str, key: &str) -> Result<Option<Value<'a>>, JsonError> {
    Ok(ObjectView::parse(obj)?.get(key))
}
