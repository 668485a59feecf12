//! Text the parser has checked once as UTF-8, read as `&str` without a
//! second check.
//!
//! One of the crate's two modules with `unsafe` code (the other is
//! `simd`, the byte kernels). It reads checked text without a second check
//! (`from_utf8_unchecked`, in [`Utf8Bytes::as_str`], [`CheckedChunk::str`]
//! and [`LineBuf::lent`]): `Frame::data()` is the hottest call of a client,
//! and checking the data a second time there cost about a fifth of the
//! framing time. And it makes the first check cheap: where the CPU runs the
//! clean-byte scans of `simd::CleanScan`, one pass finds a line's end and
//! sees that its bytes are ASCII at once, and a long line gathered across
//! reads is copied and seen to be ASCII in one pass.
//!
//! The soundness argument is local to this file (and to the `simd`
//! functions it names, whose results it relies on). [`Utf8Bytes`] has one
//! private field, and every function here that makes one proves that its
//! bytes are UTF-8:
//!
//! * from a `&'static str` or a `String` (UTF-8 by their own invariant);
//! * from `Bytes` after a full check ([`Utf8Bytes::from_bytes`]);
//! * from a slice of a [`CheckedChunk`] ([`CheckedChunk::utf8`],
//!   [`CheckedChunk::utf8_range`]), whose `valid` span was checked (by
//!   `simdutf8`, or found to be ASCII, which is UTF-8, by `simd::is_ascii`:
//!   both in `utf8_prefix`; or by `simd::CleanScan::first_unclean` in
//!   [`CheckedChunk::line_end`], which sets it to a line whose bytes it saw
//!   all in 0x0e..=0x7f) and is reset whenever the chunk
//!   is replaced; `Bytes` never changes its bytes while any handle to them
//!   lives, and the chunk holds one, so the span stays checked. A range
//!   inside a checked span is UTF-8 when both of its ends are character
//!   boundaries, which is checked too;
//! * from a range of a [`LineBuf`] ([`LineBuf::take_text`]) that lies inside
//!   its `ascii` prefix: bytes this module saw below 0x80 (ASCII, which is
//!   UTF-8, and any range of ASCII is too): by `simd::is_ascii`, or copied
//!   by `simd::CleanScan::copy_clean`, which copies only bytes in
//!   0x0e..=0x7f. Only `LineBuf`'s methods here change its buffer, and each
//!   keeps `ascii` within bytes it saw: appending leaves the prefix as it
//!   was, `clear` and `take_text` reset it, and reserving room keeps the
//!   content (the same bytes in the same order, though they may move in
//!   memory).
//!
//! [`LineBuf::lent`] reads the range that [`LineBuf::lend_text`] checked (a
//! UTF-8 check, or the `ascii` prefix) without a second check: `lend_text`
//! records the range in `lent`, and every method that changes the buffer
//! clears `lent` first, so a lent range is always bytes checked since the
//! last change.
//!
//! Nothing else in the crate can make a `Utf8Bytes` or change its bytes.
//! The module's tests run under Miri in CI (`cargo +nightly miri test --lib
//! frame::text`, and again with AVX2 enabled, which takes the vector
//! scans), and the `framing` fuzz target reads every frame's text through
//! it.
#![allow(unsafe_code)]

use super::reserve::reserve_within;
use crate::simd::{self, is_ascii, CleanScan};
use alloc::string::String;
use bytes::{Bytes, BytesMut};
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
        // The first 256 bytes of the new chunk are asked for before the old
        // one is dropped: dropping a shared `Bytes` is an atomic decrement,
        // which x86 lets no later load pass, so the chunk's first loads would
        // otherwise wait for it and then miss one after another. Measured
        // (alternated runs of the framing bench): a Chat event per read 10%
        // faster, a Responses event per read 6%; 4 KiB reads level (asking
        // for all of a 4 KiB read made them 8-13% slower: the requests crowd
        // out the loads that need their lines first). 256 bytes rather than
        // 512: fewer instructions, and a Chat / Responses / Anthropic event
        // per read 1.3% / 2.6% / 0.9% faster; 128 bytes: Responses 1% slower.
        simd::prefetch(&bytes[..bytes.len().min(256)]);
        self.bytes = bytes;
        self.valid = (0, 0);
    }

    /// [`replace`](Self::replace) without asking for the new chunk's bytes
    /// (for bytes just written, still in the cache).
    #[inline]
    pub(crate) fn set(&mut self, bytes: Bytes) {
        self.bytes = bytes;
        self.valid = (0, 0);
    }

    /// Takes the chunk out, leaving an empty one.
    #[inline]
    pub(crate) fn take(&mut self) -> Bytes {
        self.valid = (0, 0);
        core::mem::take(&mut self.bytes)
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
        if (start, end) == self.valid {
            // The checked span itself (a line that `line_end` found ASCII):
            // text, and its ends are boundaries.
            return true;
        }
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

    /// The end of the line that starts at `from`: the index of the first CR
    /// or LF at or after it, as `memchr2` finds it. Where the chunk is not
    /// checked at `from` yet (the first event of a read) and a vector kernel
    /// runs the clean scan ([`CleanScan`]: AVX2 on x86_64),
    /// one pass finds the first byte that is not in 0x0e..=0x7f: when that
    /// is the line's LF, every byte before it is ASCII, and the line becomes
    /// the checked span, so that its text needs no pass of its own (an
    /// event read alone costs one pass, not a search and a check).
    #[inline(always)]
    pub(crate) fn line_end(&mut self, from: usize) -> Option<usize> {
        let rest = self.bytes.get(from..)?;
        // Past the checked span only: a span that starts after `from` is
        // kept (the check that made it covers more than one line).
        if from >= self.valid.1 && rest.len() >= 32 {
            if let Some(scan) = CleanScan::get() {
                let i = scan.first_unclean(rest);
                match rest.get(i) {
                    Some(b'\n') => {
                        // `rest[..i]` is all in 0x0e..=0x7f: ASCII.
                        self.valid = (from, from + i);
                        return Some(from + i);
                    }
                    Some(b'\r') => return Some(from + i),
                    // A byte that is not ASCII, or a control: search on.
                    Some(_) => {}
                    None => return None,
                }
                return memchr::memchr2(b'\n', b'\r', &rest[i..]).map(|j| from + i + j);
            }
        }
        memchr::memchr2(b'\n', b'\r', rest).map(|i| from + i)
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
        let chunk: &[u8] = &self.bytes;
        // The checked span itself (a line `line_end` found ASCII) needs no
        // test: its ends are boundaries.
        if (start, end) != (lo, hi) {
            if start < lo || end > hi || start > end {
                return None;
            }
            if start == end {
                return Some("");
            }
            // The span's own ends are boundaries (the span is text); no load
            // for them.
            let boundary =
                |i: usize| i == lo || i == hi || chunk.get(i).is_some_and(|&b| !is_continuation(b));
            if !(boundary(start) && boundary(end)) {
                return None;
            }
        }
        let text = chunk.get(start..end)?;
        // SAFETY: `chunk[lo..hi]` was checked as UTF-8 when `valid` was set
        // (by `check` or `utf8`, or found all in 0x0e..=0x7f, ASCII, by
        // `line_end`'s clean scan; for these very bytes: `replace` resets
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

/// The buffer of a line that spans reads (a long data line, say), and how
/// much of it this module has seen to be ASCII: a line that is ASCII all
/// through, as JSON nearly always is, becomes text without a check of its
/// own (see [`take_text`](Self::take_text)). Read access is the buffer's;
/// every change goes through the methods here, which keep the `ascii` prefix
/// true (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct LineBuf {
    buf: BytesMut,
    /// `buf[..ascii]` was seen to be ASCII here.
    ascii: usize,
    /// A byte that is not ASCII was seen at `buf[ascii]` or after: the
    /// prefix stops there until the buffer is emptied.
    not_ascii: bool,
    /// `buf[lent.0..lent.1]` was checked as text by
    /// [`lend_text`](Self::lend_text), and the buffer has not changed since:
    /// every public method that changes it sets this to `None` first (the
    /// private ones, `append_long` and `copy_clean`, are called only from
    /// `append_to_line_end`, after it has).
    lent: Option<(usize, usize)>,
}

impl LineBuf {
    /// An empty buffer.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Empties the buffer, keeping its capacity.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.lent = None;
        self.buf.clear();
        self.ascii = 0;
        self.not_ascii = false;
    }

    /// Appends `piece`, unchecked: the ASCII prefix stays as it was.
    #[inline]
    pub(crate) fn extend_from_slice(&mut self, piece: &[u8]) {
        self.lent = None;
        simd::append_small(&mut self.buf, piece);
    }

    /// Makes room for `additional` more bytes without letting the capacity
    /// grow past `limit`; keeps the content (see [`reserve_within`]).
    #[inline]
    pub(crate) fn reserve_within(&mut self, additional: usize, limit: usize) {
        self.lent = None;
        reserve_within(&mut self.buf, additional, limit);
    }

    /// When the buffer is empty, starts it again at the front of its
    /// allocation if nothing else holds that (`BytesMut::try_reclaim`,
    /// which keeps the content).
    #[inline]
    pub(crate) fn reclaim_front(&mut self) {
        self.lent = None;
        let _ = self.buf.try_reclaim(self.buf.capacity() + 1);
    }

    /// Appends `src` up to its first CR or LF (all of it when it has none),
    /// and returns how many bytes that is; the capacity grows as
    /// [`reserve_within`](Self::reserve_within) lets it, up to `limit` (the
    /// caller has checked that the content fits).
    ///
    /// A line already [`FUSED_LINE`] bytes long (a long data line, most of
    /// which is still to come) is appended by one pass where a vector kernel
    /// runs the clean scan ([`CleanScan`]: AVX2 on x86_64):
    /// the line search, the copy and the ASCII check together, 64 bytes at a
    /// time, as long as every byte is between 0x0e and 0x7f (JSON text nearly
    /// always is); the rest, from the block where that ends, is searched by
    /// `memchr2`, copied and checked apart. The ASCII prefix then covers the
    /// line so far when it is ASCII (what came before is checked once, here),
    /// so the line becomes text with no pass of its own: a 40 KB event
    /// arriving in many reads costs little more than the copy it needs.
    /// Shorter lines (the end of an event that straddles two reads) are
    /// searched and appended as they are, unchecked.
    #[inline]
    pub(crate) fn append_to_line_end(&mut self, src: &[u8], limit: usize) -> usize {
        self.lent = None;
        if self.buf.len() < FUSED_LINE || src.len() < FUSED_MIN {
            let end = memchr::memchr2(b'\n', b'\r', src).unwrap_or(src.len());
            reserve_within(&mut self.buf, end, limit);
            self.buf.extend_from_slice(&src[..end]);
            return end;
        }
        self.append_long(src, limit)
    }

    /// [`append_to_line_end`](Self::append_to_line_end) of a long line.
    fn append_long(&mut self, src: &[u8], limit: usize) -> usize {
        // What came before the pass, checked once: each byte is looked at
        // here at most once (a failed check ends the prefix for good).
        if self.ascii < self.buf.len() && !self.not_ascii {
            if is_ascii(&self.buf[self.ascii..]) {
                self.ascii = self.buf.len();
            } else {
                self.not_ascii = true;
            }
        }
        let all_ascii = !self.not_ascii;
        // Into the room there is (a buffer that held a line this long before
        // has it); what does not fit is appended below, as before.
        let clean = self.copy_clean(src);
        let rest = &src[clean..];
        let end = memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len());
        reserve_within(&mut self.buf, end, limit);
        self.buf.extend_from_slice(&rest[..end]);
        if all_ascii && is_ascii(&rest[..end]) {
            self.ascii = self.buf.len();
        } else {
            self.not_ascii = true;
        }
        clean + end
    }

    /// Copies into the buffer's spare capacity (no more than that) a prefix
    /// of `src` whose bytes are all in 0x0e..=0x7f (ASCII, neither CR nor
    /// LF), and returns its length: 0 where no vector kernel runs the scan
    /// ([`CleanScan`]); else as [`CleanScan::copy_clean`] says.
    #[inline]
    fn copy_clean(&mut self, src: &[u8]) -> usize {
        CleanScan::get().map_or(0, |scan| scan.copy_clean(src, &mut self.buf))
    }

    /// Checks `buf[start..end]` as text (no pass within the ASCII prefix, a
    /// UTF-8 check otherwise) and, if it is, lends it: [`lent`](Self::lent)
    /// returns it, without a handle split off the buffer, until the buffer
    /// next changes. `false` (nothing lent) when it is not text or out of
    /// range.
    pub(crate) fn lend_text(&mut self, start: usize, end: usize) -> bool {
        let ok = self
            .buf
            .get(start..end)
            .is_some_and(|text| end <= self.ascii || utf8_prefix(text) == text.len());
        self.lent = ok.then_some((start, end));
        ok
    }

    /// The text lent by [`lend_text`](Self::lend_text), or `""` when
    /// nothing is lent.
    #[inline]
    pub(crate) fn lent(&self) -> &str {
        let Some((start, end)) = self.lent else {
            return "";
        };
        // `lend_text` checked the range (`get` found it in bounds).
        let text = &self.buf[start..end];
        // SAFETY: `lend_text` saw `buf[start..end]` to be UTF-8 (all of
        // it, or inside `buf[..ascii]`, which is ASCII), and set `lent`;
        // every method that changes `buf` clears `lent` first, and no other
        // code can change `buf` (read access only, through `Deref`). So
        // these are the same bytes, still UTF-8.
        unsafe { core::str::from_utf8_unchecked(text) }
    }

    /// Whether a text is lent (see [`lend_text`](Self::lend_text)).
    #[inline]
    pub(crate) fn is_lent(&self) -> bool {
        self.lent.is_some()
    }

    /// Takes the whole buffer out and returns its `start..end` (a range of
    /// it) as text when the range lies in the ASCII prefix, else as bytes to
    /// check (`Err`). The buffer is left empty.
    pub(crate) fn take_text(&mut self, start: usize, end: usize) -> Result<Utf8Bytes, Bytes> {
        self.lent = None;
        let ascii = core::mem::take(&mut self.ascii);
        self.not_ascii = false;
        let mut line = self.buf.split();
        line.truncate(end);
        let _ = line.split_to(start.min(line.len()));
        let value = line.freeze();
        if start <= end && end <= ascii {
            // `value` is `buf[start..end]`, inside `buf[..ascii]`, which this
            // module saw to be ASCII: text.
            Ok(Utf8Bytes(value))
        } else {
            Err(value)
        }
    }
}

impl Deref for LineBuf {
    type Target = BytesMut;

    #[inline]
    fn deref(&self) -> &BytesMut {
        &self.buf
    }
}

/// The shortest read that [`LineBuf::append_to_line_end`] copies by the
/// fused pass (one 64-byte step; below it, the plain search).
const FUSED_MIN: usize = 64;

/// The length a line must have reached for [`LineBuf::append_to_line_end`]
/// to take the fused pass: below it, the line is most likely an ordinary
/// event cut by a read boundary, whose end is near, and the plain search
/// costs less than the pass and the ASCII bookkeeping.
const FUSED_LINE: usize = 512;

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
    fn appending_to_the_line_end_is_search_copy_and_check() {
        let long = b"data: ".repeat(FUSED_LINE / 6 + 1);
        let mut long_utf8 = long.clone();
        long_utf8[7..9].copy_from_slice("é".as_bytes());
        for (len, at) in lens_and_places(&[0, 31, 32, 63, 64, 65, 96, 130], 200) {
            for special in [b'\n', b'\r', b'\t', 0x0d, 0x0e, 0x7f, 0x80, 0xc3] {
                let mut src: Vec<u8> = (0..len).map(|i| b"{\"a\": [1, 2.5e3]}"[i % 17]).collect();
                if at < len {
                    src[at] = special;
                }
                for (prefix, room) in [
                    (&b"data: "[..], 0),
                    (&long, 0),
                    (&long, 33),
                    (&long, 64),
                    (&long, 1000),
                    (&long_utf8, 1000),
                ] {
                    let mut line = LineBuf::new();
                    line.extend_from_slice(prefix);
                    // Spare room for the one pass to copy into (`room`
                    // 0: none, as after an exact reservation).
                    line.reserve_within(room, usize::MAX);
                    let n = line.append_to_line_end(&src, usize::MAX);
                    let want = src.iter().position(|&b| b == b'\n' || b == b'\r');
                    assert_eq!(n, want.unwrap_or(len), "{len} {at} {special}");
                    let mut whole = prefix.to_vec();
                    whole.extend_from_slice(&src[..n]);
                    assert_eq!(&line[..], &whole[..], "{len} {at} {special}");
                    let text = line.take_text(2, whole.len());
                    // Text only when it is ASCII; and a long ASCII line
                    // after a read long enough for the one pass is.
                    assert!(text.is_err() || whole.is_ascii(), "{len} {at} {special}");
                    let fused = prefix.len() >= FUSED_LINE && len >= FUSED_MIN;
                    if fused && whole.is_ascii() {
                        assert!(text.is_ok(), "{len} {at} {special}");
                    }
                    match text {
                        Ok(t) => assert_eq!(t.as_str().as_bytes(), &whole[2..]),
                        Err(b) => assert_eq!(b, &whole[2..]),
                    }
                    assert!(line.is_empty());
                }
            }
        }
    }

    #[test]
    fn the_ascii_prefix_covers_only_what_was_checked() {
        let long = "a".repeat(FUSED_LINE);
        let tail = "b".repeat(100) + "\n";
        let mut line = LineBuf::new();
        // A long line: checked once it goes on, then text.
        line.extend_from_slice(long.as_bytes());
        assert_eq!(line.append_to_line_end(tail.as_bytes(), usize::MAX), 100);
        let whole = long.clone() + &tail[..100];
        assert_eq!(line.take_text(0, whole.len()).unwrap().as_str(), whole);
        // Not ASCII: bytes to check.
        line.extend_from_slice("é".as_bytes());
        line.extend_from_slice(long.as_bytes());
        assert_eq!(line.append_to_line_end(tail.as_bytes(), usize::MAX), 100);
        assert!(line.take_text(0, whole.len() + 2).is_err());
        // A short line stays unchecked; clearing forgets the prefix.
        line.extend_from_slice(long.as_bytes());
        line.append_to_line_end(tail.as_bytes(), usize::MAX);
        line.clear();
        line.extend_from_slice(b"ok");
        line.append_to_line_end(tail.as_bytes(), usize::MAX);
        assert!(line.take_text(0, 2).is_err());
        // Less room than the read: the one pass stops at the room, the rest
        // is appended as usual.
        for room in [0, 40, 100, 10_000] {
            let mut line = LineBuf::new();
            line.extend_from_slice(long.as_bytes());
            line.reserve_within(room, usize::MAX);
            let src = [b'c'; 300];
            assert_eq!(line.append_to_line_end(&src, usize::MAX), 300);
            let want = long.clone() + &"c".repeat(300);
            assert_eq!(line.take_text(0, want.len()).unwrap().as_str(), want);
        }
    }

    /// The one pass runs where AVX2 is (the tests above would pass without
    /// it): under Miri, when the build enables AVX2 (`.ci/run`'s second Miri
    /// run), and natively on a machine that has it.
    #[test]
    fn the_one_pass_runs_where_avx2_is() {
        let mut line = LineBuf::new();
        line.reserve_within(256, usize::MAX);
        let copied = line.copy_clean(&[b'x'; 200]);
        if CleanScan::get().is_some() {
            assert_eq!(copied, 200);
            assert_eq!(&line[..], &[b'x'; 200][..]);
            // Up to the block with the first byte that is not clean.
            line.clear();
            let mut src = [b'x'; 200];
            src[100] = b'\n';
            // The blocks start at the buffer's first 32-byte boundary, so
            // where the pass stops depends on the buffer's address: at the
            // start of the 32-byte block that holds byte 100.
            let copied = line.copy_clean(&src);
            assert!((100 - 31..=100).contains(&copied), "{copied}");
            assert_eq!(&line[..], &src[..copied]);
            // After every length of content, each store lands where it
            // should, and a pass that starts off a boundary still copies a
            // clean source whole.
            for before in 0..64 {
                for len in [63, 64, 65, 96, 127, 128, 200] {
                    let mut line = LineBuf::new();
                    line.reserve_within(512, usize::MAX);
                    let head: Vec<u8> = (0..before).map(|i| b'a' + (i % 26) as u8).collect();
                    line.extend_from_slice(&head);
                    let src: Vec<u8> = (0..len).map(|i| b'A' + (i % 26) as u8).collect();
                    assert_eq!(line.copy_clean(&src), len, "{before} + {len}");
                    assert_eq!(&line[..before], &head[..]);
                    assert_eq!(&line[before..], &src[..]);
                    // A byte that is not clean: the pass stops in the
                    // 32-byte block that holds it, having copied only the
                    // clean bytes before it.
                    for dirty in [0, 1, 31, 32, 33, 63, len / 2, len - 1]
                        .into_iter()
                        .filter(|&d| d < len)
                    {
                        let mut line = LineBuf::new();
                        line.reserve_within(512, usize::MAX);
                        line.extend_from_slice(&head);
                        let mut src = src.clone();
                        src[dirty] = b'\n';
                        let copied = line.copy_clean(&src);
                        assert!(
                            copied <= dirty && dirty - copied < 32,
                            "{before} + {len}, dirty at {dirty}: {copied}"
                        );
                        assert_eq!(&line[..before], &head[..]);
                        assert_eq!(&line[before..], &src[..copied]);
                    }
                }
            }
            return;
        }
        if cfg!(all(target_feature = "avx2", not(ssekit_disable_simd))) {
            panic!("the build enables AVX2, but the vector scan is not taken");
        }
        std::eprintln!("note: no vector clean scan here: the one pass of LineBuf is not taken");
        assert_eq!(copied, 0);
    }

    /// `line_end` finds what `memchr2` finds, for every length around the
    /// 32-byte steps, every place of a byte that ends the one pass, and
    /// with or without an earlier check; the text it leaves checked is what
    /// std reads.
    #[test]
    fn line_ends_are_the_first_cr_or_lf() {
        for (len, at) in lens_and_places(&[0, 31, 32, 33, 64, 70], 140) {
            for special in [b'\n', b'\r', b'\t', 0x0e, 0x80, 0xc3] {
                let mut bytes: Vec<u8> = (0..len).map(|i| b"data: {\"k\": 1}"[i % 14]).collect();
                if at < len {
                    bytes[at] = special;
                }
                if len > 3 {
                    bytes[len - 2] = b'\n';
                }
                let bytes = Bytes::from(bytes);
                for from in [0, 1, 5] {
                    for pre_checked in [false, true] {
                        let mut c = CheckedChunk::new();
                        c.replace(bytes.clone());
                        if pre_checked {
                            let _ = c.check(0, bytes.len());
                        }
                        let want = bytes
                            .get(from..)
                            .and_then(|r| memchr::memchr2(b'\n', b'\r', r))
                            .map(|i| from + i);
                        let got = c.line_end(from);
                        assert_eq!(got, want, "{len} {at} {special} {from}");
                        let end = got.unwrap_or(len).max(from.min(len));
                        let std = core::str::from_utf8(&bytes[from.min(len)..end]).ok();
                        if c.check(from.min(len), end) {
                            assert_eq!(c.str(from.min(len), end), std);
                        } else {
                            assert_eq!(std, None);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn lent_text_is_the_checked_range_until_the_buffer_changes() {
        let fresh = || {
            let mut line = LineBuf::new();
            line.extend_from_slice("data: h\u{e9}llo".as_bytes());
            line
        };
        let mut line = fresh();
        assert!(!line.is_lent());
        assert_eq!(line.lent(), "");
        assert!(line.lend_text(6, 12));
        assert_eq!(line.lent(), "h\u{e9}llo");
        // Out of range, cutting a character, reversed: refused, nothing lent.
        for (a, b) in [(6, 13), (8, 12), (6, 8), (7, 6)] {
            assert!(!line.lend_text(a, b), "{a}..{b}");
            assert!(!line.is_lent());
            assert_eq!(line.lent(), "");
        }
        let mut bad = LineBuf::new();
        bad.extend_from_slice(b"data: a\xffb");
        assert!(!bad.lend_text(6, 9));
        assert!(bad.lend_text(6, 7));
        assert_eq!(bad.lent(), "a");
        // A long ASCII line, gathered by `append_to_line_end`, lends from
        // its ASCII prefix; a byte after it that is not ASCII is checked.
        let mut long = LineBuf::new();
        long.extend_from_slice(&[b'a'; 600]);
        let mut piece = alloc::vec![b'b'; 700];
        piece.extend_from_slice("\u{e9}\n".as_bytes());
        assert_eq!(long.append_to_line_end(&piece, 1 << 20), 702);
        assert!(long.lend_text(0, 1300));
        assert_eq!(long.lent().len(), 1300);
        assert!(long.lend_text(1, 1302));
        assert!(long.lent().ends_with('\u{e9}'));
        assert!(!long.lend_text(1, 1301));
        // Every change ends the loan.
        let changes: [fn(&mut LineBuf); 6] = [
            |l| l.clear(),
            |l| l.extend_from_slice(b"x"),
            |l| l.reserve_within(64, 1 << 20),
            |l| l.reclaim_front(),
            |l| {
                l.append_to_line_end(b"y", 1 << 20);
            },
            |l| {
                let _ = l.take_text(0, 1);
            },
        ];
        for change in changes {
            let mut line = fresh();
            assert!(line.lend_text(6, 12));
            change(&mut line);
            assert!(!line.is_lent());
            assert_eq!(line.lent(), "");
        }
    }

    /// `max`, or under Miri (slow) three places of each of `miri_lens`.
    fn lens_and_places(miri_lens: &[usize], max: usize) -> Vec<(usize, usize)> {
        let lens: Vec<usize> = if cfg!(miri) {
            miri_lens.to_vec()
        } else {
            (0..max).collect()
        };
        lens.into_iter()
            .flat_map(|len| {
                let places: Vec<usize> = if cfg!(miri) {
                    alloc::vec![0, len / 2, len.saturating_sub(1)]
                } else {
                    (0..len).collect()
                };
                places.into_iter().map(move |at| (len, at))
            })
            .collect()
    }

    #[test]
    fn debug_shows_the_text() {
        assert_eq!(
            alloc::format!("{:?}", Utf8Bytes::from_static("a\"")),
            "\"a\\\"\""
        );
    }
}
