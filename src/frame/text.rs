//! Text the parser has checked once as UTF-8, read as `&str` without a
//! second check.
//!
//! BE ADVISED: this is the crate's one module with `unsafe` code:
//! `from_utf8_unchecked` in [`Utf8Bytes::as_str`] and [`CheckedChunk::str`],
//! and (on x86_64) the call of the SSE2 line search, `sse2::first_special`.
//! The first exists because `Frame::data()` is the hottest call of a
//! client, and checking the data a second time there cost about a fifth of
//! the framing time; the second because one pass that finds a line's end
//! and checks it as ASCII costs half of a line search and a check (see
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
//!   both in `utf8_prefix`; or found to be ASCII by the line search,
//!   [`CheckedChunk::line_end`], which marks only bytes it saw below 0x80)
//!   and is reset whenever the chunk
//!   is replaced; `Bytes` never changes its bytes while any handle to them
//!   lives, and the chunk holds one, so the span stays checked. A range
//!   inside a checked span is UTF-8 when both of its ends are character
//!   boundaries, which is checked too.
//!
//! The SSE2 code is compiled only where SSE2 is enabled for the whole build
//! (every x86_64 target has it); it reads the input through safe slices
//! only, and its tests compare it with a plain loop on every length and
//! position, under Miri too. Other targets use a portable word-at-a-time
//! version.
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
        // The ends of the span are boundaries (`lo`: a non-empty UTF-8 text
        // starts with one; an empty range returned above).
        let boundary =
            |i: usize| i == lo || i == hi || chunk.get(i).is_some_and(|&b| !is_continuation(b));
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

impl CheckedChunk {
    /// The first LF or CR at or after `start`, if any: where the line that
    /// goes on at `start` ends. The search checks the bytes it passes as
    /// ASCII on the way (one pass, [`first_special`]), so that a line of
    /// ASCII needs no check of its own afterwards: the line (without its
    /// end) becomes the checked span, unless it lies in it already. Past a first stretch
    /// of [`SCAN_AHEAD`] bytes (a long data line), or past a byte that is
    /// not ASCII, it is a plain search (`memchr2`, quicker on long lines),
    /// and the line is left to the UTF-8 check.
    #[inline(always)]
    pub(crate) fn line_end(&mut self, start: usize) -> Option<usize> {
        let rest = self.bytes.get(start..)?;
        let head = rest.get(..SCAN_AHEAD).unwrap_or(rest);
        let i = first_special(head);
        let from = match head.get(i) {
            Some(b'\n' | b'\r') => {
                // `rest[..i]` is ASCII (every byte below 0x80), so text: the
                // new checked span, unless the line lies in the old one.
                let end = start + i;
                let (lo, hi) = self.valid;
                if start < lo || end > hi {
                    self.valid = (start, end);
                }
                return Some(end);
            }
            // Not ASCII: the rest is searched.
            Some(_) => i,
            // No line end in the first stretch: the rest is searched.
            None => head.len(),
        };
        memchr::memchr2(b'\n', b'\r', rest.get(from..)?).map(|j| start + from + j)
    }
}

/// How far [`CheckedChunk::line_end`] searches and checks in one pass.
const SCAN_AHEAD: usize = 512;

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

/// The index of the first byte of `b` that is LF, CR or not ASCII
/// (`b.len()` when there is none): the line search and the ASCII check in
/// one pass.
#[inline(always)]
fn first_special(b: &[u8]) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        // SAFETY: `sse2::first_special` is safe code that needs SSE2, and
        // this is compiled only where SSE2 is enabled for the whole build
        // (the x86_64 baseline), so every CPU that runs it has SSE2.
        unsafe { sse2::first_special(b) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        first_special_words(b)
    }
}

/// [`first_special`] eight bytes at a time, in plain integer arithmetic
/// (the portable version). In each byte: `x & 0x7f` plus `0x7f` sets the
/// high bit unless the low seven bits are zero, with no carry out of the
/// byte, so after `^ LF` (`^ CR`) it marks the bytes that are not LF (CR);
/// a byte is special when it is marked by neither or its own high bit is
/// set. Exact in every byte (no borrow crosses bytes).
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline]
fn first_special_words(b: &[u8]) -> usize {
    const LOWS: u64 = u64::from_le_bytes([0x7f; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    const LF: u64 = u64::from_le_bytes([b'\n'; 8]);
    const CR: u64 = u64::from_le_bytes([b'\r'; 8]);
    let mut at = 0;
    let mut words = b;
    while let Some((word, rest)) = words.split_first_chunk::<8>() {
        let x = u64::from_le_bytes(*word);
        let low = x & LOWS;
        let not_lf = (low ^ LF).wrapping_add(LOWS);
        let not_cr = (low ^ CR).wrapping_add(LOWS);
        let special = (x | !(not_lf & not_cr)) & HIGHS;
        if special != 0 {
            return at + (special.trailing_zeros() / 8) as usize;
        }
        at += 8;
        words = rest;
    }
    at + words
        .iter()
        .position(|&c| is_special(c))
        .unwrap_or(words.len())
}

/// Whether `c` is LF, CR or not ASCII.
#[inline]
fn is_special(c: u8) -> bool {
    c == b'\n' || c == b'\r' || c >= 0x80
}

/// [`first_special`] with SSE2, 16 bytes to a vector.
///
/// The functions are `unsafe fn` with `#[target_feature]` (not safe ones)
/// for the 1.85 toolchain the crate supports, where the intrinsics are
/// unsafe to call; their bodies use no raw pointer and index no slice
/// unchecked: all they need is SSE2.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
        _mm_set_epi64x,
    };

    /// 16 bytes as a vector. Two plain loads, which the compiler joins
    /// into one unaligned vector load.
    #[target_feature(enable = "sse2")]
    #[inline]
    unsafe fn load(b: &[u8; 16]) -> __m128i {
        let (lo, hi) = b.split_at(8);
        let lo = i64::from_le_bytes(lo.try_into().unwrap_or_default());
        let hi = i64::from_le_bytes(hi.try_into().unwrap_or_default());
        _mm_set_epi64x(hi, lo)
    }

    /// A bit per byte of `v`: set for LF, CR and bytes not ASCII. Exact.
    #[target_feature(enable = "sse2")]
    #[inline]
    unsafe fn special(v: __m128i) -> u32 {
        let lf = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\n' as i8));
        let cr = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\r' as i8));
        // The high bit of a byte not ASCII is its own mark.
        _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(lf, cr), v)) as u32
    }

    /// All ones in the bytes of `v` that are surely not special: as signed
    /// bytes, above `cr` (CR, 0x0d). Bytes not ASCII are negative; LF and
    /// CR are not above CR; nor are the other controls from NUL to 0x0c
    /// (tab among them), which make a block be looked at again, exactly.
    #[target_feature(enable = "sse2")]
    #[inline]
    unsafe fn plain(v: __m128i, cr: __m128i) -> __m128i {
        _mm_cmpgt_epi8(v, cr)
    }

    /// A bit per byte of 64 bytes: set for the bytes that [`plain`] does
    /// not find plain (the special ones among them).
    #[target_feature(enable = "sse2")]
    #[inline]
    unsafe fn candidates(b: &[u8], cr: __m128i) -> u64 {
        let mut m = 0;
        for (k, v) in b.chunks_exact(16).take(4).enumerate() {
            if let Ok(v) = v.try_into() {
                m |= u64::from(_mm_movemask_epi8(plain(load(v), cr)) as u16) << (16 * k);
            }
        }
        !m
    }

    /// The first special byte of `b` among the `candidates` (bits).
    #[inline]
    fn first_of(b: &[u8], mut candidates: u64) -> Option<usize> {
        while candidates != 0 {
            let i = candidates.trailing_zeros() as usize;
            if b.get(i).is_some_and(|&c| super::is_special(c)) {
                return Some(i);
            }
            candidates &= candidates - 1;
        }
        None
    }

    /// See [`super::first_special`].
    #[target_feature(enable = "sse2")]
    #[inline]
    pub(super) unsafe fn first_special(b: &[u8]) -> usize {
        let len = b.len();
        if len < 64 {
            return short(b);
        }
        // CR in every byte, hidden from the optimiser: it would turn
        // `v > 0x0d` into `0x0e > v`, which costs a copy per vector.
        let cr = core::hint::black_box(_mm_set1_epi8(b'\r' as i8));
        let mut at = 0;
        let mut blocks = b.chunks_exact(64);
        for block in &mut blocks {
            let m = candidates(block, cr);
            if m != 0 {
                if let Some(i) = first_of(block, m) {
                    return at + i;
                }
            }
            at += 64;
        }
        if blocks.remainder().is_empty() {
            return len;
        }
        // The last 64 bytes: those before `at` among them were seen not to
        // be special, so the first special one is at or after `at`.
        let last = b.get(len - 64..).unwrap_or_default();
        match first_of(last, candidates(last, cr)) {
            Some(i) => len - 64 + i,
            None => len,
        }
    }

    /// [`first_special`] for fewer than 64 bytes, 16 at a time.
    #[target_feature(enable = "sse2")]
    #[inline]
    unsafe fn short(b: &[u8]) -> usize {
        let mut at = 0;
        let mut rest = b;
        while let Some((v, after)) = rest.split_first_chunk::<16>() {
            let m = special(load(v));
            if m != 0 {
                return at + m.trailing_zeros() as usize;
            }
            at += 16;
            rest = after;
        }
        if rest.is_empty() {
            return at;
        }
        // The last 16 bytes, if there are that many: those before `at`
        // among them were seen not to be special.
        if let Some(last) = b.last_chunk::<16>() {
            return match special(load(last)) {
                0 => b.len(),
                m => b.len() - 16 + m.trailing_zeros() as usize,
            };
        }
        at + rest
            .iter()
            .position(|&c| super::is_special(c))
            .unwrap_or(rest.len())
    }
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

    /// `first_special` the plain way: the oracle.
    fn first_special_plain(b: &[u8]) -> usize {
        b.iter().position(|&c| is_special(c)).unwrap_or(b.len())
    }

    #[test]
    fn the_one_pass_scan_finds_the_first_special_byte() {
        // Every length up to past three 64-byte blocks, a special byte (or
        // a plain control, which the SIMD filter looks at twice) at every
        // position, alone and before a second one; both scans agree with
        // the plain loop. Under Miri, the lengths around the block sizes
        // (it is slow).
        let lens: Vec<usize> = if cfg!(miri) {
            (0..18)
                .chain([31, 32, 33, 63, 64, 65, 66, 127, 128, 129])
                .collect()
        } else {
            (0..200).collect()
        };
        let all = [
            b'\n', b'\r', 0x80, 0xc3, 0xff, b'\t', 0x00, 0x0c, 0x0e, 0x7f,
        ];
        let bytes = if cfg!(miri) { &all[..3] } else { &all[..] };
        for len in lens {
            let mut b = alloc::vec![b'a'; len];
            assert_eq!(first_special(&b), len, "{len}");
            assert_eq!(first_special_words(&b), len, "{len}");
            for at in 0..len {
                for &c in bytes {
                    b[at] = c;
                    let want = first_special_plain(&b);
                    assert_eq!(first_special(&b), want, "{len} {at} {c:#x}");
                    assert_eq!(first_special_words(&b), want, "{len} {at} {c:#x}");
                    if at + 1 < len {
                        b[len - 1] = b'\n';
                        let want = first_special_plain(&b);
                        assert_eq!(first_special(&b), want, "{len} {at} {c:#x} +LF");
                        assert_eq!(first_special_words(&b), want, "{len} {at} {c:#x} +LF");
                        b[len - 1] = b'a';
                    }
                    b[at] = b'a';
                }
            }
        }
    }

    #[test]
    fn the_one_pass_scan_reads_only_its_slice() {
        // Slices at every offset of a buffer full of specials around them:
        // nothing outside the slice may be seen (Miri checks the reads).
        let mut buf = alloc::vec![b'\n'; 300];
        for b in &mut buf[100..200] {
            *b = b'x';
        }
        let step = if cfg!(miri) { 5 } else { 1 };
        for start in (90..110).step_by(step) {
            for end in (start..210).step_by(step) {
                let s = &buf[start..end];
                assert_eq!(first_special(s), first_special_plain(s), "{start}..{end}");
                assert_eq!(
                    first_special_words(s),
                    first_special_plain(s),
                    "{start}..{end}"
                );
            }
        }
    }

    #[test]
    fn line_ends_are_found_and_checked_only_when_ascii() {
        // Lines of every length, ASCII or not, at every start: the line end
        // is memchr2's, and what the search marks checked reads as text.
        let max = if cfg!(miri) { 70 } else { 150 };
        for len in (0..max).step_by(if cfg!(miri) { 7 } else { 1 }) {
            for &c in &[b'a', 0xc3, 0xff] {
                let mut line = alloc::vec![b'a'; len];
                if len > 3 {
                    line[len / 2] = c;
                    if c == 0xc3 {
                        line[len / 2 + 1] = 0xa9;
                    }
                }
                line.extend_from_slice(b"\n\nrest\r\n");
                let bytes = Bytes::from(line);
                for start in 0..bytes.len() {
                    let mut ch = CheckedChunk::new();
                    ch.replace(bytes.clone());
                    let want = memchr::memchr2(b'\n', b'\r', &bytes[start..]).map(|i| start + i);
                    assert_eq!(ch.line_end(start), want, "{len} {start}");
                    if let Some(end) = want {
                        let ok = core::str::from_utf8(&bytes[start..end]).is_ok();
                        assert_eq!(ch.check(start, end), ok, "{len} {start}");
                        if ok {
                            assert_eq!(
                                ch.str(start, end).map(str::as_bytes),
                                Some(&bytes[start..end])
                            );
                        }
                    }
                    let (lo, hi) = ch.valid;
                    assert!(
                        core::str::from_utf8(&bytes[lo..hi]).is_ok(),
                        "{len} {start}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_line_search_marks_its_line_or_keeps_the_span() {
        let mut c = chunk(b"ab\ncd\r\xc3\xa9\n");
        assert_eq!(c.line_end(0), Some(2));
        assert_eq!(c.valid, (0, 2));
        assert_eq!(c.str(0, 2), Some("ab"));
        // The next line: a span of its own.
        assert_eq!(c.line_end(3), Some(5));
        assert_eq!(c.valid, (3, 5));
        assert_eq!(c.str(3, 5), Some("cd"));
        // A line that is not ASCII is searched, not marked.
        assert_eq!(c.line_end(6), Some(8));
        assert_eq!(c.valid, (3, 5));
        assert_eq!(c.str(6, 8), None);
        assert!(c.check(6, 8));
        assert_eq!(c.str(6, 8), Some("\u{e9}"));
        // Searched inside the span: it stays.
        assert!(c.check(0, 2));
        assert_eq!(c.valid, (0, 9));
        assert_eq!(c.line_end(3), Some(5));
        assert_eq!(c.valid, (0, 9));
    }

    #[test]
    fn debug_shows_the_text() {
        assert_eq!(
            alloc::format!("{:?}", Utf8Bytes::from_static("a\"")),
            "\"a\\\"\""
        );
    }
}
