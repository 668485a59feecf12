//! Text the parser has checked once as UTF-8, read as `&str` without a
//! second check.
//!
//! BE ADVISED: this is the crate's one module with `unsafe` code: one
//! `from_utf8_unchecked` in [`Utf8Bytes::as_str`]. It exists because
//! `Frame::data()` is the hottest call of a client, and checking the data a
//! second time there cost about a fifth of the framing time (see
//! `benches/RESULTS-framing.md`).
//!
//! The soundness argument is local to this file. [`Utf8Bytes`] has one
//! private field, and every function here that makes one proves that its
//! bytes are UTF-8:
//!
//! * from a `&'static str` or a `String` (UTF-8 by their own invariant);
//! * from `Bytes` after a full check ([`Utf8Bytes::from_bytes`]);
//! * from a slice of a [`CheckedChunk`] ([`CheckedChunk::utf8`],
//!   [`CheckedChunk::utf8_range`]), whose `valid` span was checked (by
//!   `simdutf8`, or found to be ASCII, which is UTF-8, by `is_ascii` here:
//!   both in `utf8_prefix`) and is reset whenever the chunk
//!   is replaced; `Bytes` never changes its bytes while any handle to them
//!   lives, and the chunk holds one, so the span stays checked. A range
//!   inside a checked span is UTF-8 when both of its ends are character
//!   boundaries, which is checked too.
//!
//! Nothing else in the crate can make a `Utf8Bytes` or change its bytes.
//! The module's tests run under Miri in CI (`cargo +nightly miri test --lib
//! frame::text`), and the `framing` fuzz target reads every frame's text
//! through it.
#![allow(unsafe_code)]

use alloc::string::String;
use bytes::Bytes;
use core::ops::Deref;

/// A `Bytes` handle whose bytes are valid UTF-8.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub(crate) struct Utf8Bytes(Bytes);

impl Utf8Bytes {
    /// No text.
    pub(crate) const fn new() -> Self {
        Self(Bytes::new())
    }

    /// A static string, without copying it.
    pub(crate) const fn from_static(s: &'static str) -> Self {
        // UTF-8: it is a `str`.
        Self(Bytes::from_static(s.as_bytes()))
    }

    /// An owned string, without copying it.
    pub(crate) fn from_string(s: String) -> Self {
        // UTF-8: it is a `String`.
        Self(Bytes::from(s))
    }

    /// `bytes` if they are UTF-8 (checked here), else `bytes` back.
    pub(crate) fn from_bytes(bytes: Bytes) -> Result<Self, Bytes> {
        // Short texts (names, ids) are nearly always ASCII: the plain check
        // is quicker than setting up the SIMD one, which is several times
        // quicker on long ones (a 40 KiB data line gathered across chunks).
        let short = bytes.len() <= SHORT_TEXT && is_ascii(&bytes);
        if short || simdutf8::basic::from_utf8(&bytes).is_ok() {
            Ok(Self(bytes))
        } else {
            Err(bytes)
        }
    }

    /// The text.
    #[inline]
    pub(crate) fn as_str(&self) -> &str {
        // SAFETY: every constructor of `Utf8Bytes` (all in this module, the
        // field is private) proves that the bytes are UTF-8, and `Bytes`
        // never changes the bytes of a handle (see the module docs).
        unsafe { core::str::from_utf8_unchecked(&self.0) }
    }

    /// The bytes, as a handle to pass on without copying.
    #[inline]
    pub(crate) fn as_bytes(&self) -> &Bytes {
        &self.0
    }

    /// The bytes, as a handle.
    #[inline]
    pub(crate) fn into_bytes(self) -> Bytes {
        self.0
    }

    /// Whether there is no text.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl core::fmt::Debug for Utf8Bytes {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Debug::fmt(self.as_str(), f)
    }
}

/// An input chunk and the span of it known to be UTF-8, checked once and
/// extended as far as it goes, so that every event inside it can be handed
/// out as text without a check of its own.
#[derive(Debug, Clone, Default)]
pub(crate) struct CheckedChunk {
    bytes: Bytes,
    /// `bytes[valid.0..valid.1]` was checked as UTF-8 (empty at first).
    valid: (usize, usize),
}

impl CheckedChunk {
    /// An empty chunk.
    pub(crate) const fn new() -> Self {
        Self {
            bytes: Bytes::new(),
            valid: (0, 0),
        }
    }

    /// Makes `bytes` the chunk, forgetting what was checked of the last one.
    #[inline]
    pub(crate) fn replace(&mut self, bytes: Bytes) {
        self.bytes = bytes;
        self.valid = (0, 0);
    }

    /// `value`, if it is UTF-8, as text; `Err(value)` if not.
    ///
    /// When `value` lies inside this chunk, the chunk is checked from the
    /// start of `value` to the end (or to its first invalid byte), once: the
    /// values after it in the chunk then need no check of their own. A value
    /// that lies elsewhere is checked alone.
    #[inline]
    pub(crate) fn utf8(&mut self, value: Bytes) -> Result<Utf8Bytes, Bytes> {
        let len = self.bytes.len();
        let base = self.bytes.as_ptr() as usize;
        let start = (value.as_ptr() as usize).wrapping_sub(base);
        let inside = start <= len && value.len() <= len - start;
        if !inside {
            return Utf8Bytes::from_bytes(value);
        }
        let end = start + value.len();
        if start < self.valid.0 || end > self.valid.1 {
            self.check_from(start);
            if end > self.valid.1 {
                return Err(value);
            }
        }
        let chunk: &[u8] = &self.bytes;
        // `chunk[valid.0..valid.1]` is UTF-8, and `start..end` lies inside
        // it. A sub-range of UTF-8 text is UTF-8 when both ends are
        // character boundaries: the end of the span, or a byte that does not
        // continue a character. (`value`'s bytes are `chunk[start..end]`: the
        // same memory, which no `Bytes` handle ever changes.)
        let boundary =
            |i: usize| i == self.valid.1 || chunk.get(i).is_some_and(|&b| !is_continuation(b));
        if boundary(start) && boundary(end) {
            Ok(Utf8Bytes(value))
        } else {
            Utf8Bytes::from_bytes(value)
        }
    }
}

impl CheckedChunk {
    /// Whether `self[start..end]` is UTF-8, extending the checked span as
    /// [`utf8`](Self::utf8) does (so a later [`str`](Self::str) of the range
    /// needs no check).
    #[inline(always)]
    pub(crate) fn check(&mut self, start: usize, end: usize) -> bool {
        if start < self.valid.0 || end > self.valid.1 {
            if start > end || end > self.bytes.len() {
                return false;
            }
            self.check_from(start);
        }
        self.str(start, end).is_some()
    }

    /// `self[start..end]` as a text handle, if it is UTF-8 (checked as
    /// [`check`](Self::check) does), else `None`.
    #[inline(always)]
    pub(crate) fn utf8_range(&mut self, start: usize, end: usize) -> Option<Utf8Bytes> {
        // `check` found the range inside the checked span, on character
        // boundaries: UTF-8 (see `str`).
        self.check(start, end)
            .then(|| Utf8Bytes(self.bytes.slice(start..end)))
    }

    /// Checks the chunk from `start` (at most its length) to the end, or to
    /// its first invalid byte: the new checked span.
    #[inline(never)]
    fn check_from(&mut self, start: usize) {
        let rest = self.bytes.get(start..).unwrap_or_default();
        self.valid = (start, start + utf8_prefix(rest));
    }

    /// `self[start..end]` as text, if it lies inside the checked span with
    /// both ends on character boundaries (else `None`: call
    /// [`check`](Self::check) first).
    #[inline]
    pub(crate) fn str(&self, start: usize, end: usize) -> Option<&str> {
        let (lo, hi) = self.valid;
        if start < lo || end > hi || start > end {
            return None;
        }
        if start == end {
            return Some("");
        }
        let chunk: &[u8] = &self.bytes;
        let boundary = |i: usize| i == hi || chunk.get(i).is_some_and(|&b| !is_continuation(b));
        if !(boundary(start) && boundary(end)) {
            return None;
        }
        let text = chunk.get(start..end)?;
        // SAFETY: `chunk[lo..hi]` was checked as UTF-8 when `valid` was set
        // (by `check` or `utf8`, for these very bytes: `replace` resets
        // `valid`, and `Bytes` never changes its bytes), `start..end` lies
        // inside it, and both ends are character boundaries, so the range
        // is UTF-8 too.
        Some(unsafe { core::str::from_utf8_unchecked(text) })
    }
}

impl Deref for CheckedChunk {
    type Target = Bytes;

    #[inline]
    fn deref(&self) -> &Bytes {
        &self.bytes
    }
}

/// The length of the longest prefix of `b` that is UTF-8 (all of it, when
/// it is text).
#[inline]
fn utf8_prefix(b: &[u8]) -> usize {
    // A short rest (one event per read) is nearly always ASCII, and the
    // plain check is several times quicker there than setting up the SIMD
    // one; a long one (a 4 KiB read) is checked by SIMD at once.
    if b.len() <= SHORT_TEXT && is_ascii(b) {
        return b.len();
    }
    match simdutf8::compat::from_utf8(b) {
        Ok(_) => b.len(),
        Err(e) => e.valid_up_to(),
    }
}

/// Whether `b` is ASCII: the OR of all its bytes, taken 32 at a time into
/// a 32-byte accumulator (which the compiler turns into a few vector ORs per
/// block, with no early exit), the last 32 bytes as one more block. For
/// short texts `<[u8]>::is_ascii`'s head and tail cost more than the check.
#[inline]
fn is_ascii(b: &[u8]) -> bool {
    let mut acc = [0u8; 32];
    let mut blocks = b.chunks_exact(32);
    for block in &mut blocks {
        for (a, &c) in acc.iter_mut().zip(block) {
            *a |= c;
        }
    }
    match b.len().checked_sub(32) {
        Some(last) => {
            for (a, &c) in acc.iter_mut().zip(&b[last..]) {
                *a |= c;
            }
        }
        None => {
            for &c in blocks.remainder() {
                acc[0] |= c;
            }
        }
    }
    acc.iter().fold(0u8, |x, &c| x | c) < 0x80
}

/// The longest rest of a chunk that [`utf8_prefix`] tries as ASCII first.
const SHORT_TEXT: usize = 1024;

/// Whether `b` is a UTF-8 continuation byte (`10xxxxxx`).
#[inline]
fn is_continuation(b: u8) -> bool {
    (b as i8) < -0x40
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn chunk(bytes: &'static [u8]) -> CheckedChunk {
        let mut c = CheckedChunk::new();
        c.replace(Bytes::from_static(bytes));
        c
    }

    #[test]
    fn constructors_keep_the_text() {
        assert_eq!(Utf8Bytes::new().as_str(), "");
        assert_eq!(Utf8Bytes::from_static("héllo").as_str(), "héllo");
        assert_eq!(Utf8Bytes::from_string("añb".into()).as_str(), "añb");
        assert_eq!(
            Utf8Bytes::from_bytes(Bytes::from_static("€".as_bytes()))
                .unwrap()
                .as_str(),
            "€"
        );
        assert!(Utf8Bytes::from_bytes(Bytes::from_static(b"\xff")).is_err());
        assert!(Utf8Bytes::from_bytes(Bytes::from_static(b"a\xe2\x82")).is_err());
    }

    #[test]
    fn slices_of_a_checked_chunk_are_text_only_on_boundaries() {
        let mut c = chunk(b"data: \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\ndata: x\xff\n");
        let whole = c.slice(0..c.len());
        // Every range of the chunk: text exactly when std says so.
        for a in 0..=c.len() {
            for b in a..=c.len() {
                let want = core::str::from_utf8(&whole[a..b]).ok();
                let got = c.utf8(whole.slice(a..b));
                assert_eq!(got.as_ref().ok().map(Utf8Bytes::as_str), want, "{a}..{b}");
            }
        }
        // In every order of asking, too (the span moves and shrinks).
        for a in (0..=c.len()).rev() {
            let want = core::str::from_utf8(&whole[a..]).ok();
            let got = c.utf8(whole.slice(a..));
            assert_eq!(got.as_ref().ok().map(Utf8Bytes::as_str), want, "{a}..");
        }
    }

    #[test]
    fn borrowed_ranges_are_text_only_when_checked_and_on_boundaries() {
        let mut c = chunk(b"event: \xc3\xa9\ndata: \xe2\x82\xac x\xff");
        let whole = c.slice(0..c.len());
        // Nothing is text before a check.
        assert_eq!(c.str(0, 5), None);
        for a in 0..=c.len() {
            for b in a..=c.len() {
                let want = core::str::from_utf8(&whole[a..b]).ok();
                assert_eq!(c.check(a, b), want.is_some(), "{a}..{b}");
                if want.is_some() {
                    assert_eq!(c.str(a, b), want, "{a}..{b}");
                }
            }
        }
        assert!(!c.check(3, 2));
        assert!(!c.check(0, c.len() + 1));
        assert_eq!(c.str(0, c.len() + 1), None);
    }

    #[test]
    fn range_handles_are_text_only_when_std_says_so() {
        let mut c = chunk(b"id: \xc3\xa9\ndata: \xe2\x82\xac x\xff\n");
        let whole = c.slice(0..c.len());
        for a in 0..=c.len() {
            for b in a..=c.len() {
                let want = core::str::from_utf8(&whole[a..b]).ok();
                let got = c.utf8_range(a, b);
                assert_eq!(got.as_ref().map(Utf8Bytes::as_str), want, "{a}..{b}");
            }
        }
        assert!(c.utf8_range(3, 2).is_none());
        assert!(c.utf8_range(0, c.len() + 1).is_none());
    }

    #[test]
    fn values_from_elsewhere_are_checked_alone() {
        let mut c = chunk(b"abc");
        let other = Bytes::from(Vec::from(&b"x\xc3\xa9"[..]));
        assert_eq!(c.utf8(other).unwrap().as_str(), "xé");
        assert!(c.utf8(Bytes::from(Vec::from(&b"\xc3"[..]))).is_err());
        // An empty value just past the chunk's end is inside it, and text.
        let end = c.slice(3..);
        assert_eq!(c.utf8(end).unwrap().as_str(), "");
    }

    #[test]
    fn replacing_the_chunk_forgets_the_span() {
        let mut c = chunk(b"ok ok");
        let first = c.slice(0..2);
        assert_eq!(c.utf8(first).unwrap().as_str(), "ok");
        c.replace(Bytes::from_static(b"\xff\xfe"));
        let bad = c.slice(0..2);
        assert!(c.utf8(bad).is_err());
    }

    #[test]
    fn the_ascii_check_sees_every_byte() {
        for len in 0..100 {
            for at in 0..len {
                let mut b = alloc::vec![b'a'; len];
                assert!(is_ascii(&b), "{len}");
                b[at] = 0x80;
                assert!(!is_ascii(&b), "{len} {at}");
            }
        }
    }

    #[test]
    fn debug_shows_the_text() {
        assert_eq!(
            alloc::format!("{:?}", Utf8Bytes::from_static("a\"")),
            "\"a\\\"\""
        );
    }
}
