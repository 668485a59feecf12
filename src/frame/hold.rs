//! Small reads held back until they complete something.
//!
//! A stream read in tiny pieces (a proxy that flushes every few bytes, a
//! TLS record split, a fuzzer) costs the line-by-line path a visit per
//! piece: gather the piece, look for line ends, handle a line that spans
//! pieces. [`Held`] instead copies small reads into one buffer and hands
//! the parser a single chunk as soon as the held bytes complete a block
//! (a blank line), so the parser sees one chunk per event and takes it by
//! its whole-event path.
//!
//! Holding must never be visible in what the parser reports, so the held
//! bytes are handed over at once when they hold:
//! * a blank line (an event is dispatched there);
//! * a line that starts with `r` (a `retry` field takes effect when parsed,
//!   and `Parser::reconnection_time` can be read between reads);
//! * a CR (the line-by-line path handles CR and CRLF line ends).
//!
//! The parser hands everything over itself when it reaches a state where
//! holding would show (items requested, the end of the stream, strict UTF-8,
//! a limit that the held bytes could reach). So what is held is always an
//! incomplete block whose lines, once parsed, dispatch nothing and report
//! nothing: holding them changes when work is done, never what comes out.
//!
//! Each held byte is searched once here (for LF and CR) and once more by the
//! parser when handed over; [`Held::scanned`] counts the first search.
//!
//! A block is handed over as the buffer itself ([`Held::swap_out`]) when the
//! parser is at rest: the bytes held after it go to a second buffer, the one
//! the block before was parsed from, which the parser gives back
//! ([`Held::give_back`]) once nothing points into it. Two buffers take
//! turns, and no handle is split off (splitting one off and dropping it
//! changes a shared count twice, atomically: an Anthropic stream in 16-byte
//! reads takes about 6% longer that way). When a buffer cannot come back (a frame or the last
//! event ID keeps it), blocks are split off the buffer instead
//! ([`Held::take`]).

use crate::simd::{self, ByteMasks};
use bytes::{Bytes, BytesMut};

/// The largest read that is held (a larger one is parsed where it lies:
/// copying it would cost more than the visit it saves).
pub(super) const SMALL_READ: usize = 256;

/// The most bytes held at once; past it, they are handed over.
pub(super) const MAX_HELD: usize = 8 << 10;

/// The capacity the buffer is allocated with (twice [`MAX_HELD`], so that
/// handing over a block and moving the rest to the front never allocates
/// while the parser owns the buffer alone).
const CAPACITY: usize = 2 * MAX_HELD;

/// The cut points [`Held::split_point`] finds in a read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Split {
    /// The end of the first line that must be parsed now (0: none).
    pub(super) first: usize,
    /// The end of the last such line (0: none).
    pub(super) last: usize,
}

/// What [`Held::push_line_piece`] did with a read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Piece {
    /// Held.
    Held,
    /// Not held: it has cuts, found as [`Held::split_point`] finds them (its
    /// line state and count updated as by `split_point`). Only where the
    /// masks of a read of 16 to 32 bytes find cuts.
    Cut(Split),
    /// Not held, nothing changed: `split_point` must look at it.
    Other,
}

impl Split {
    /// The cuts of a read of at most 32 bytes, from their bits (bit `i`: a
    /// cut after byte `i`).
    #[inline(always)]
    fn of_bits(cuts: u32) -> Self {
        match cuts {
            0 => Split { first: 0, last: 0 },
            _ => Split {
                first: cuts.trailing_zeros() as usize + 1,
                last: 32 - cuts.leading_zeros() as usize,
            },
        }
    }
}

/// Small reads copied into one buffer, up to the point where they must be
/// parsed. The held bytes always start at a line start and follow every byte
/// the parser was handed.
#[derive(Debug, Default)]
pub(super) struct Held {
    buf: BytesMut,
    /// A second buffer for [`swap_out`](Self::swap_out), cleared.
    spare: BytesMut,
    /// The first byte of the line in progress at the end of `buf` (`None` at
    /// a line start).
    first: Option<u8>,
    /// Bytes searched by [`split_point`](Self::split_point).
    scanned: u64,
}

impl Held {
    /// Whether nothing is held.
    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The bytes held.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.buf.len()
    }

    /// Bytes searched for line ends on arrival (see the module docs).
    pub(super) fn scanned(&self) -> u64 {
        self.scanned
    }

    /// Where `read`, appended to what is held, must be cut: the ends of the
    /// first and of the last line in it that must be parsed now (see the
    /// module docs), as indexes into `read` (`0` when there is none). The
    /// bytes before the last cut must be parsed now; those after it may
    /// wait. `None` when `read` holds a CR: then everything must be parsed
    /// now. Updates the line state as if `read` were appended.
    #[inline]
    pub(super) fn split_point(&mut self, read: &[u8]) -> Option<Split> {
        if let Some((cuts, first)) =
            simd::byte_masks_16_to_32(read).and_then(|m| self.mask_cuts(read, m))
        {
            self.scanned += read.len() as u64;
            self.first = first;
            return Some(Split::of_bits(cuts));
        }
        self.scanned += read.len() as u64;
        let mut cuts = Cuts {
            split: Split { first: 0, last: 0 },
            first: self.first,
            line_start: 0,
        };
        let mut words = read.chunks_exact(8);
        let mut at = 0;
        for word in &mut words {
            let x = u64::from_le_bytes(word.try_into().unwrap_or_default());
            if may_hold_line_end(x) && !cuts.visit(read, at, x) {
                self.first = None;
                return None;
            }
            at += 8;
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            for (w, &b) in word.iter_mut().zip(rest) {
                *w = b;
            }
            if !cuts.visit(read, at, u64::from_le_bytes(word)) {
                self.first = None;
                return None;
            }
        }
        if cuts.first.is_none() && cuts.line_start < read.len() {
            cuts.first = Some(read[cuts.line_start]);
        }
        self.first = cuts.first;
        Some(cuts.split)
    }

    /// Holds `read` at once when it is a small read (at most 32 bytes) with
    /// no cut in it and the buffer has room for it: what
    /// [`split_point`](Self::split_point) (no cut) and [`push`](Self::push)
    /// would do, without walking the cut state. A read of 16 to 32 bytes may
    /// end lines (an `event:` line, say) as long as none is blank or a
    /// `retry` line; a shorter one must end none. When the masks of a
    /// read of 16 to 32 bytes find cuts, they are returned, as `split_point`
    /// would find them (and with its effect); [`Piece::Other`], changing
    /// nothing, for any other read that is not held (one with a CR, or a
    /// `retry` line that starts or ends in it, among them).
    #[inline(always)]
    pub(super) fn push_line_piece(&mut self, read: &[u8]) -> Piece {
        if read.len() > 32 || self.needs_room(read.len()) {
            return Piece::Other;
        }
        match simd::has_line_end_16_to_32(read) {
            Some(false) => {}
            Some(true) => return self.push_uncut(read),
            None if crate::framing::find_line_end(read).is_some() => return Piece::Other,
            None => {}
        }
        self.scanned += read.len() as u64;
        if self.first.is_none() {
            self.first = read.first().copied();
        }
        simd::append_small(&mut self.buf, read);
        Piece::Held
    }

    /// [`push_line_piece`](Self::push_line_piece) for a read of 16 to 32
    /// bytes that ends a line: held if [`mask_cuts`](Self::mask_cuts) finds
    /// no cut in it, else its cuts.
    #[inline(always)]
    fn push_uncut(&mut self, read: &[u8]) -> Piece {
        let Some((cuts, first)) =
            simd::byte_masks_16_to_32(read).and_then(|m| self.mask_cuts(read, m))
        else {
            return Piece::Other;
        };
        self.scanned += read.len() as u64;
        self.first = first;
        if cuts != 0 {
            return Piece::Cut(Split::of_bits(cuts));
        }
        simd::append_small(&mut self.buf, read);
        Piece::Held
    }

    /// The cuts of a read of 16 to 32 bytes without CR, from the masks of its
    /// LFs and `r`s, found for all its line ends at once (where
    /// [`Cuts::visit`] takes one line end at a time): as bits (bit `i`: a cut
    /// after byte `i`), with the first byte of the line in progress after the
    /// read. A line starts at bit 0 when none is in progress, and after each
    /// LF; a cut is an LF where a line starts, a blank line. `None` when a
    /// line that starts with `r` (a `retry` field, cut where it ends) begins
    /// in the read or ends in it, and when the read has a CR: the word walk of
    /// [`split_point`](Self::split_point) takes those.
    #[inline(always)]
    fn mask_cuts(&self, read: &[u8], m: ByteMasks) -> Option<(u32, Option<u8>)> {
        let all = u32::MAX >> (32 - read.len());
        let starts = ((m.lf << 1) | u32::from(self.first.is_none())) & all;
        if m.cr != 0 || m.r & starts != 0 || (self.first == Some(b'r') && m.lf != 0) {
            return None;
        }
        let first = if m.lf == 0 {
            self.first.or(read.first().copied())
        } else {
            // The line after the last LF, if it has begun.
            read.get(32 - m.lf.leading_zeros() as usize).copied()
        };
        Some((m.lf & starts, first))
    }

    /// Whether appending `len` bytes needs more room than the buffer has.
    #[inline]
    pub(super) fn needs_room(&self, len: usize) -> bool {
        self.buf.capacity() - self.buf.len() < len
    }

    /// Appends `read`, reusing the buffer when the parser owns it alone.
    #[inline]
    pub(super) fn push(&mut self, read: &[u8]) {
        if self.needs_room(read.len()) {
            // Moves the held bytes to the front of the buffer when nothing
            // else points into it; allocates a new one otherwise (a frame or
            // the last event ID kept by the caller still shares it).
            self.buf.reserve(CAPACITY.max(read.len()));
            // A new buffer is one handle to a vector; freezing it (see
            // `swap_out`) would then allocate a shared header each time.
            // Splitting nothing off makes it shared once, so that freezing
            // it, and taking it back as `BytesMut`, allocate nothing.
            drop(self.buf.split_to(0));
        }
        self.buf.extend_from_slice(read);
    }

    /// Everything held, to be parsed, as the buffer itself: the buffer
    /// given back last (see [`give_back`](Self::give_back)) takes its
    /// place, or a new one is made when bytes are next held. No handle is
    /// split off, so nothing is counted.
    #[inline]
    pub(super) fn swap_out(&mut self) -> Bytes {
        let next = core::mem::take(&mut self.spare);
        core::mem::replace(&mut self.buf, next).freeze()
    }

    /// Takes back a buffer given out by [`swap_out`](Self::swap_out), once
    /// parsed, to hold the bytes after the next one.
    #[inline]
    pub(super) fn give_back(&mut self, mut buf: BytesMut) {
        buf.clear();
        self.spare = buf;
    }

    /// Everything held, to be parsed, when what comes next is held too: the
    /// line state stays that of the last read split.
    #[inline]
    pub(super) fn take(&mut self) -> Bytes {
        self.buf.split().freeze()
    }

    /// Everything held, to be parsed, when holding stops.
    pub(super) fn take_all(&mut self) -> Bytes {
        self.first = None;
        self.take()
    }

    /// Drops what is held (a parser reset), keeping the buffer.
    pub(super) fn clear(&mut self) {
        self.buf.clear();
        self.first = None;
        self.scanned = 0;
    }
}

const ONES: u64 = u64::from_le_bytes([0x01; 8]);
const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
const LOWS: u64 = u64::from_le_bytes([0x7f; 8]);
const LF: u64 = u64::from_le_bytes([b'\n'; 8]);
const CR: u64 = u64::from_le_bytes([b'\r'; 8]);

/// Whether the word may hold an LF or a CR: the quick "has a zero byte"
/// test on `x ^ 0x0a…` and `x ^ 0x0d…`, never wrong when it says no.
#[inline(always)]
fn may_hold_line_end(x: u64) -> bool {
    let (a, b) = (x ^ LF, x ^ CR);
    ((a.wrapping_sub(ONES) & !a) | (b.wrapping_sub(ONES) & !b)) & HIGHS != 0
}

/// The bytes of a word equal to zero, as a mask with the high bit of each
/// such byte set (exact, unlike the quick test).
#[inline(always)]
fn zero_bytes(v: u64) -> u64 {
    !(((v & LOWS).wrapping_add(LOWS)) | v | LOWS)
}

/// The state of [`Held::split_point`] while it walks a read.
struct Cuts {
    split: Split,
    /// The first byte of the line in progress (`None` at a line start).
    first: Option<u8>,
    /// Where the line in progress began in the read, when it began there.
    line_start: usize,
}

impl Cuts {
    /// Takes the line ends in the word `x`, read at `at` (bytes past the
    /// end of `read` are zeros); `false` when it holds a CR.
    #[inline]
    fn visit(&mut self, read: &[u8], at: usize, x: u64) -> bool {
        if zero_bytes(x ^ CR) != 0 {
            return false;
        }
        let mut lf = zero_bytes(x ^ LF);
        while lf != 0 {
            let i = at + (lf.trailing_zeros() / 8) as usize;
            lf &= lf - 1;
            let lead = self.first.or_else(|| {
                (i > self.line_start)
                    .then(|| read.get(self.line_start).copied())
                    .flatten()
            });
            // A blank line dispatches; a `retry` line takes effect at once.
            if matches!(lead, None | Some(b'r')) {
                if self.split.first == 0 {
                    self.split.first = i + 1;
                }
                self.split.last = i + 1;
            }
            self.first = None;
            self.line_start = i + 1;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn splits(reads: &[&str]) -> Vec<Option<usize>> {
        let mut held = Held::default();
        reads
            .iter()
            .map(|r| {
                let s = held.split_point(r.as_bytes()).map(|s| s.last);
                held.push(r.as_bytes());
                s
            })
            .collect()
    }

    #[test]
    fn a_blank_line_is_a_split_point() {
        assert_eq!(
            splits(&["data: a", "bc\n", "\nda", "ta: b\n\n"]),
            [Some(0), Some(0), Some(1), Some(7)]
        );
        // Several events in one read: cut after the last blank line.
        assert_eq!(splits(&["data: a\n\ndata: b\n\nda"]), [Some(18)]);
        let mut held = Held::default();
        assert_eq!(
            held.split_point(b"a\n\ndata: b\n\nda"),
            Some(Split { first: 3, last: 12 })
        );
        // A read that starts a block with a blank line.
        assert_eq!(splits(&["\n"]), [Some(1)]);
    }

    #[test]
    fn a_retry_line_is_a_split_point_and_a_cr_hands_over_everything() {
        assert_eq!(splits(&["ret", "ry: 5\ndata"]), [Some(0), Some(6)]);
        assert_eq!(splits(&["data: a\r", "\n"]), [None, Some(1)]);
        // Other fields wait for the blank line.
        assert_eq!(splits(&["event: x\nid: 1\n: c\n"]), [Some(0)]);
    }

    #[test]
    fn line_ends_are_found_in_every_position() {
        for len in 1..=20 {
            for at in 0..len {
                for end in [b'\n', b'\r'] {
                    let mut read = alloc::vec![b'x'; len];
                    read[at] = end;
                    let mut held = Held::default();
                    let split = held.split_point(&read);
                    // An LF first in a read at a line start is a blank line.
                    let cut = if at == 0 { 1 } else { 0 };
                    let want = (end == b'\n').then_some(Split {
                        first: cut,
                        last: cut,
                    });
                    assert_eq!(split, want, "{len} {at}");
                    // Among bytes that trip the inexact word test.
                    for fill in [0x01, 0x80, 0x0b, 0x0c] {
                        read.fill(fill);
                        read[at] = b'\n';
                        let mut held = Held::default();
                        let got = held.split_point(&read).unwrap();
                        assert_eq!(got.last, cut, "{len} {at} {fill}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_line_piece_is_held_as_split_point_and_push_would() {
        let reads: [&[u8]; 8] = [b"data: a", b"bc", b"", b"x\n", b"\n", b"ev", b"\r", b"d"];
        let (mut quick, mut slow) = (Held::default(), Held::default());
        for read in reads {
            let room = !quick.needs_room(read.len());
            let taken = quick.push_line_piece(read) == Piece::Held;
            slow.split_point(read);
            // Taken exactly when the read holds no line end and fits.
            let ends = read.iter().any(|&b| b == b'\n' || b == b'\r');
            assert_eq!(taken, room && !ends, "{read:?}");
            if !taken {
                quick.split_point(read);
                quick.push(read);
            }
            slow.push(read);
            assert_eq!(
                (quick.buf.as_ref(), quick.first, quick.scanned),
                (slow.buf.as_ref(), slow.first, slow.scanned)
            );
        }
    }

    /// `split_point` written another way, one byte at a time: the cuts of
    /// `read` after a line whose first byte is `first` (`None` at a line
    /// start), and the first byte of the line in progress after it; no
    /// split at all for a read with a CR.
    fn model(first: Option<u8>, read: &[u8]) -> (Option<Split>, Option<u8>) {
        if read.contains(&b'\r') {
            return (None, None);
        }
        let (mut lead, mut cut) = (first, Split { first: 0, last: 0 });
        for (i, &c) in read.iter().enumerate() {
            if c != b'\n' {
                lead = lead.or(Some(c));
                continue;
            }
            if matches!(lead, None | Some(b'r')) {
                if cut.first == 0 {
                    cut.first = i + 1;
                }
                cut.last = i + 1;
            }
            lead = None;
        }
        (Some(cut), lead)
    }

    /// Reads of every length to 40 bytes (the masks take 16 to 32)
    /// over the bytes that matter (LF, CR, `r`, others), after each line
    /// state: `split_point` and `push_line_piece` agree with the model,
    /// `first` and the bytes searched included.
    #[test]
    fn cuts_agree_with_a_byte_by_byte_model() {
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let cases = if cfg!(miri) { 300 } else { 30_000 };
        for case in 0..cases {
            let n = 1 + case % 40;
            let read: Vec<u8> = (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    // LF often, CR rarely (it hands everything over).
                    match x % 23 {
                        0..=5 => b'\n',
                        6..=8 => b'r',
                        9 => b'\r',
                        10 => b'\xc3',
                        _ => b'a',
                    }
                })
                .collect();
            for first in [None, Some(b'a'), Some(b'r')] {
                let (want, lead) = model(first, &read);
                let mut held = Held {
                    first,
                    ..Held::default()
                };
                assert_eq!(held.split_point(&read), want, "{read:?} after {first:?}");
                if want.is_some() {
                    assert_eq!(held.first, lead, "{read:?} after {first:?}");
                }
                assert_eq!(held.scanned, n as u64);
                // Held at once when it has no cut (16 to 32 bytes, where
                // the masks find the cuts), or no line end at all; its
                // cuts returned when it has some (16 to 32 bytes).
                let mut quick = Held::default();
                quick.push(b"data: ");
                quick.first = first;
                let piece = quick.push_line_piece(&read);
                let taken = piece == Piece::Held;
                let masks = (16..=32).contains(&n);
                // (A line that starts with `r` in the read is left to
                // `split_point`, which cuts where it ends.)
                let r_line = (0..n).any(|i| {
                    read[i] == b'r'
                        && if i == 0 {
                            first.is_none()
                        } else {
                            read[i - 1] == b'\n'
                        }
                });
                let expect = if masks {
                    want == Some(Split { first: 0, last: 0 }) && !r_line
                } else {
                    n <= 32 && !read.iter().any(|&b| b == b'\n' || b == b'\r')
                };
                assert_eq!(taken, expect, "{read:?} after {first:?}");
                // The end of a `retry` line in progress is left to
                // `split_point` too.
                let r_end = first == Some(b'r') && read.contains(&b'\n');
                let cut = match want {
                    Some(split) if masks && !r_line && !r_end && split.last > 0 => Some(split),
                    _ => None,
                };
                match piece {
                    Piece::Held => {
                        assert_eq!(quick.first, lead);
                        assert_eq!(quick.scanned, n as u64);
                        assert_eq!(&quick.buf[6..], &read[..]);
                    }
                    Piece::Cut(split) => {
                        assert_eq!(Some(split), cut, "{read:?} after {first:?}");
                        assert_eq!((quick.first, quick.scanned), (lead, n as u64));
                        assert_eq!(quick.buf.len(), 6, "a read with cuts is not held");
                    }
                    Piece::Other => {
                        assert_eq!(cut, None, "{read:?} after {first:?}");
                        assert_eq!((quick.first, quick.scanned, quick.buf.len()), (first, 0, 6));
                    }
                }
            }
        }
    }

    #[test]
    fn take_hands_over_what_is_held() {
        let mut held = Held::default();
        held.push(b"data: a\n\n");
        assert_eq!(held.take(), Bytes::from_static(b"data: a\n\n"));
        assert!(held.is_empty());
        held.push(b"da");
        assert_eq!(held.len(), 2);
        assert_eq!(held.take_all(), Bytes::from_static(b"da"));
        assert!(held.is_empty());
    }
}
