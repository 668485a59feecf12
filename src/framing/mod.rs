//! The line splitter under the [`Parser`](crate::Parser): where the lines of
//! an event stream end, over byte slices, with no allocator.
//!
//! Use it directly when you need the lines of a stream without the
//! `bytes`-based parser (on a target with no allocator, say). Lines end at
//! CR, LF or CRLF, a CRLF split between two inputs included; one leading
//! UTF-8 byte order mark is stripped, even when it arrives in pieces (a
//! piece that turns out not to be one comes back as [`Step::Replay`]).
//!
//! The splitter returns offsets into the slice it was given, never borrows,
//! so the caller is free to keep, copy or drop its buffers between calls. Each
//! input byte is examined by the line search at most once, which keeps the
//! work linear however the stream is chunked (see [`LineSplitter::scanned`]).

// `next_line` is the definition of where lines end: every chunking of a
// stream must give the same lines. The parser's faster paths find
// LF-terminated lines themselves, but only where this splitter is `plain`,
// and report what they took (`take_lf_lines`, `take_lf_line`,
// `take_line_piece`, `take_partial`, `take_short_piece`), so that the state
// below and `scanned` stay what `next_line` would have left. If you add
// state here, make `plain` false while it is set. The state that crosses
// chunk boundaries is exactly two things:
//
// * whether the previous input ended in a CR, so that an LF at the very
//   start of the next input is the second half of a CRLF and not a blank
//   line (`after_cr`);
// * how much of a leading UTF-8 byte order mark has been seen at the very
//   start of the stream (`bom`). A partial BOM is held here, not in the
//   caller's line; if it turns out not to be a BOM, `Step::Replay` hands
//   its bytes back so they become the start of the first line.

/// The UTF-8 encoding of U+FEFF, stripped once at the very start of a stream.
pub const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

/// What [`LineSplitter::next_line`] found in its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
#[allow(clippy::exhaustive_enums)] // the three outcomes of a line search; there is no fourth
pub enum Step {
    /// A line ends in this input: `input[start..end]` is its last (or only)
    /// piece, without the terminator, and `input[..next]` is consumed.
    Line {
        /// First byte of the line's piece in this input.
        start: usize,
        /// One past the last byte of the piece (the terminator's position).
        end: usize,
        /// One past the terminator: where the next call should start.
        next: usize,
    },
    /// No line ends in this input: `input[start..]` continues the current
    /// line, and the whole input is consumed.
    Partial {
        /// First byte of the line's piece in this input.
        start: usize,
    },
    /// Bytes held from earlier input as a possible byte order mark turned out
    /// to be content: they begin the current line. Nothing of the input was
    /// consumed; call again with the same input.
    Replay(&'static [u8]),
}

/// Inputs up to this long are searched by [`find_line_end_short`].
const SHORT: usize = 32;

/// The first CR or LF in `b`: the first [`SHORT`] bytes a word at a time,
/// inline (short lines, keep-alives and event names end there), the rest by
/// `memchr2`.
#[inline(always)]
pub(crate) fn find_line_end(b: &[u8]) -> Option<usize> {
    match b.split_at_checked(SHORT) {
        None => find_line_end_short(b),
        Some((head, tail)) => find_line_end_short(head)
            .or_else(|| memchr::memchr2(b'\n', b'\r', tail).map(|i| SHORT + i)),
    }
}

/// The first CR or LF in `b` (at most [`SHORT`] bytes), eight bytes at a
/// time: a byte is CR or LF when it equals either, found with the usual
/// "has zero byte" word trick on `x ^ 0x0a…` and `x ^ 0x0d…`.
#[inline(always)]
fn find_line_end_short(b: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    const LF: u64 = u64::from_le_bytes([b'\n'; 8]);
    const CR: u64 = u64::from_le_bytes([b'\r'; 8]);
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    let mut at = 0;
    let mut words = b;
    while let Some((word, rest)) = words.split_first_chunk::<8>() {
        let x = u64::from_le_bytes(*word);
        // Exact for the lowest match, which is the one taken.
        let m = zero(x ^ LF) | zero(x ^ CR);
        if m != 0 {
            return Some(at + (m.trailing_zeros() / 8) as usize);
        }
        at += 8;
        words = rest;
    }
    words
        .iter()
        .position(|&c| c == b'\n' || c == b'\r')
        .map(|i| at + i)
}

/// Incremental splitter of a byte stream into SSE lines (CRLF, LF or CR).
///
/// Feed it consecutive pieces of one stream with [`next_line`](Self::next_line);
/// it reports where lines end as offsets into each piece.
///
/// # Example
///
/// ```
/// use ssekit::framing::{LineSplitter, Step};
///
/// let mut lines = LineSplitter::new();
/// // "a\r" ends a line at once; the LF that starts the next chunk completes
/// // the CRLF and is skipped rather than read as a blank line.
/// assert_eq!(lines.next_line(b"a\r"), Step::Line { start: 0, end: 1, next: 2 });
/// assert_eq!(lines.next_line(b"\nb"), Step::Partial { start: 1 });
/// ```
#[derive(Debug, Clone)]
pub struct LineSplitter {
    bom: Bom,
    after_cr: bool,
    scanned: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bom {
    /// At the start of the stream, with this many BOM bytes matched so far.
    Pending(u8),
    /// Past the start of the stream.
    Done,
}

impl Default for LineSplitter {
    fn default() -> Self {
        Self::new()
    }
}

impl LineSplitter {
    /// A splitter at the start of a stream.
    pub const fn new() -> Self {
        Self {
            bom: Bom::Pending(0),
            after_cr: false,
            scanned: 0,
        }
    }

    /// Back to the start of a stream (a leading BOM will be stripped again).
    pub fn reset(&mut self) {
        *self = Self::new();
    }

    /// Finds the end of the current line in `input`, the next piece of the
    /// stream after everything consumed so far.
    ///
    /// An empty `input` always gives `Partial { start: 0 }` and changes
    /// nothing.
    ///
    /// # Complexity
    ///
    /// Linear in the bytes consumed; no byte is searched twice.
    pub fn next_line(&mut self, input: &[u8]) -> Step {
        if input.is_empty() {
            return Step::Partial { start: 0 };
        }
        let mut start = 0;
        if let Bom::Pending(held) = self.bom {
            let held = usize::from(held);
            let mut matched = held;
            while matched < BOM.len() && start < input.len() && input[start] == BOM[matched] {
                matched += 1;
                start += 1;
            }
            if matched == BOM.len() {
                self.bom = Bom::Done;
            } else if start == input.len() {
                // Still possibly a BOM: hold the bytes and wait for more.
                self.bom = Bom::Pending(matched as u8);
                return Step::Partial { start };
            } else {
                self.bom = Bom::Done;
                if held > 0 {
                    return Step::Replay(&BOM[..held]);
                }
                // Bytes matched in this input stay in it as line content.
                start = 0;
            }
        }
        if self.after_cr {
            self.after_cr = false;
            if input[start] == b'\n' {
                start += 1;
            }
        }
        let rest = &input[start..];
        // A blank line (one per event) needs no search, and a short input
        // (a small read) is searched a word at a time, inline: a call into
        // `memchr2` costs more than that.
        let found = match rest.first() {
            Some(b'\n' | b'\r') => Some(0),
            _ if rest.len() <= SHORT => find_line_end_short(rest),
            _ => memchr::memchr2(b'\n', b'\r', rest),
        };
        match found {
            Some(i) => {
                self.scanned += i as u64 + 1;
                let end = start + i;
                let next = if input[end] == b'\n' {
                    end + 1
                } else if end + 1 == input.len() {
                    // A CR that ends the input ends the line now; an LF that
                    // may follow in the next input belongs to it.
                    self.after_cr = true;
                    end + 1
                } else if input[end + 1] == b'\n' {
                    end + 2
                } else {
                    end + 1
                };
                Step::Line { start, end, next }
            }
            None => {
                self.scanned += rest.len() as u64;
                Step::Partial { start }
            }
        }
    }

    /// Whether the splitter is past the start of the stream (no byte order
    /// mark pending) and not after a CR: then a caller that has found
    /// LF-terminated lines itself may consume them with
    /// [`take_lf_lines`](Self::take_lf_lines).
    #[inline]
    pub(crate) fn plain(&self) -> bool {
        self.bom == Bom::Done && !self.after_cr
    }

    /// Consumes `piece` as [`next_line`](Self::next_line) would when it is
    /// a short piece (at most 32 bytes) of a line that goes on past it: no
    /// CR or LF in it, in a [`plain`](Self::plain) state. `false`, changing
    /// nothing, otherwise.
    #[inline]
    pub(crate) fn take_short_piece(&mut self, piece: &[u8]) -> bool {
        if piece.len() > SHORT || !self.plain() || find_line_end_short(piece).is_some() {
            return false;
        }
        self.scanned += piece.len() as u64;
        true
    }

    /// Consumes `len` bytes without CR or LF that continue the current line
    /// (the caller searched them), in a [`plain`](Self::plain) state, as
    /// [`next_line`](Self::next_line) would when it finds no line end in
    /// them.
    #[inline]
    pub(crate) fn take_line_piece(&mut self, len: usize) {
        debug_assert!(self.plain());
        self.scanned += len as u64;
    }

    /// Consumes `len` bytes of LF-terminated lines (their last byte an LF,
    /// none holding a CR) that the caller found itself, in a
    /// [`plain`](Self::plain) state, as [`next_line`](Self::next_line) would.
    #[inline]
    pub(crate) fn take_lf_lines(&mut self, len: usize) {
        self.scanned += len as u64;
    }

    /// Consumes `len` bytes as [`next_line`](Self::next_line) would when
    /// they are the start of a line that goes on past them (it returns
    /// [`Step::Partial`]), for a caller that searched them itself and found
    /// no CR or LF, in a [`plain`](Self::plain) state.
    #[inline]
    pub(crate) fn take_partial(&mut self, len: usize) {
        debug_assert!(self.plain());
        self.scanned += len as u64;
    }

    /// Consumes the next line as [`next_line`](Self::next_line) would, for
    /// a caller that has seen it: `len` bytes without CR or LF, then an LF.
    /// Returns `false`, changing nothing, when the splitter is at the start
    /// of the stream (a byte order mark may be pending) or after a CR.
    #[inline]
    pub(crate) fn take_lf_line(&mut self, len: usize) -> bool {
        if self.bom != Bom::Done || self.after_cr {
            return false;
        }
        self.scanned += len as u64 + 1;
        true
    }

    /// The bytes held as a possible byte order mark at the start of the
    /// stream. At end of stream they are an unterminated line.
    pub fn held(&self) -> &'static [u8] {
        match self.bom {
            Bom::Pending(n) => &BOM[..usize::from(n)],
            Bom::Done => &[],
        }
    }

    /// Whether the last input ended in a CR (an LF that starts the next
    /// input will be taken as the rest of a CRLF).
    pub fn after_cr(&self) -> bool {
        self.after_cr
    }

    /// How many bytes the line search has examined since the start (or the
    /// last [`reset`](Self::reset)). Never more than the bytes consumed: the
    /// measure of linear work.
    pub fn scanned(&self) -> u64 {
        self.scanned
    }
}

#[cfg(test)]
mod tests {
    use super::{find_line_end_short, LineSplitter, Step, SHORT};

    #[test]
    fn the_short_search_finds_the_first_cr_or_lf() {
        // Every length up to SHORT, a terminator (or none) at every place,
        // among bytes that differ from CR and LF by one bit.
        let fill = [b'\x0b', b'\x0c', b'\x0e', b'\x09', 0x8a, 0x8d, 0, 0xff];
        for len in 0..=SHORT {
            for at in 0..=len {
                for t in [b'\n', b'\r'] {
                    let mut b: std::vec::Vec<u8> = (0..len).map(|i| fill[i % fill.len()]).collect();
                    if at < len {
                        b[at] = t;
                        if at + 1 < len {
                            b[at + 1] = b'\n' ^ b'\r' ^ t; // the other, later
                        }
                    }
                    let want = b.iter().position(|&c| c == b'\n' || c == b'\r');
                    assert_eq!(find_line_end_short(&b), want, "{b:?}");
                }
            }
        }
    }

    /// Splits `chunks` into complete lines (terminators removed) and the
    /// unterminated rest, the way a caller of the splitter would.
    fn lines(chunks: &[&[u8]]) -> (std::vec::Vec<std::vec::Vec<u8>>, std::vec::Vec<u8>) {
        let mut s = LineSplitter::new();
        let mut out = std::vec::Vec::new();
        let mut cur = std::vec::Vec::new();
        for chunk in chunks {
            let mut pos = 0;
            while pos < chunk.len() {
                match s.next_line(&chunk[pos..]) {
                    Step::Line { start, end, next } => {
                        cur.extend_from_slice(&chunk[pos + start..pos + end]);
                        out.push(core::mem::take(&mut cur));
                        pos += next;
                    }
                    Step::Partial { start } => {
                        cur.extend_from_slice(&chunk[pos + start..]);
                        pos = chunk.len();
                    }
                    Step::Replay(b) => cur.extend_from_slice(b),
                }
            }
        }
        cur.extend_from_slice(s.held());
        (out, cur)
    }

    fn v(s: &[u8]) -> std::vec::Vec<u8> {
        s.to_vec()
    }

    #[test]
    fn terminators() {
        let (l, rest) = lines(&[b"a\nb\r\nc\rd"]);
        assert_eq!(l, [v(b"a"), v(b"b"), v(b"c")]);
        assert_eq!(rest, b"d");
    }

    #[test]
    fn blank_lines_of_each_kind() {
        let (l, _) = lines(&[b"\n\r\n\r\r"]);
        assert_eq!(l, [v(b""), v(b""), v(b""), v(b"")]);
    }

    #[test]
    fn crlf_split_across_inputs_is_one_terminator() {
        let (l, rest) = lines(&[b"a\r", b"\nb\r", b"\n"]);
        assert_eq!(l, [v(b"a"), v(b"b")]);
        assert_eq!(rest, b"");
    }

    #[test]
    fn cr_then_other_byte_across_inputs() {
        let (l, rest) = lines(&[b"a\r", b"b\n"]);
        assert_eq!(l, [v(b"a"), v(b"b")]);
        assert_eq!(rest, b"");
    }

    #[test]
    fn cr_then_cr_across_inputs_is_a_blank_line() {
        let (l, _) = lines(&[b"a\r", b"\r"]);
        assert_eq!(l, [v(b"a"), v(b"")]);
    }

    #[test]
    fn empty_input_keeps_pending_cr() {
        let (l, _) = lines(&[b"a\r", b"", b"\n", b"\n"]);
        assert_eq!(l, [v(b"a"), v(b"")]);
    }

    #[test]
    fn bom_stripped_whole_or_split() {
        for chunks in [
            &[&b"\xEF\xBB\xBFx\n"[..]][..],
            &[b"\xEF", b"\xBB\xBFx\n"],
            &[b"\xEF\xBB", b"\xBFx\n"],
            &[b"\xEF", b"\xBB", b"\xBF", b"x\n"],
        ] {
            assert_eq!(lines(chunks).0, [v(b"x")], "{chunks:?}");
        }
    }

    #[test]
    fn only_one_bom_stripped() {
        assert_eq!(
            lines(&[b"\xEF\xBB\xBF\xEF\xBB\xBFx\n"]).0,
            [v(b"\xEF\xBB\xBFx")]
        );
    }

    #[test]
    fn partial_bom_is_content() {
        assert_eq!(lines(&[b"\xEF\xBBx\n"]).0, [v(b"\xEF\xBBx")]);
        assert_eq!(lines(&[b"\xEF", b"\xBBx\n"]).0, [v(b"\xEF\xBBx")]);
        assert_eq!(lines(&[b"\xEF\xBB", b"x\n"]).0, [v(b"\xEF\xBBx")]);
        assert_eq!(lines(&[b"\xEF", b"\n"]).0, [v(b"\xEF")]);
        // A held partial BOM at end of stream is an unterminated line.
        assert_eq!(
            lines(&[b"\xEF\xBB"]),
            (std::vec::Vec::<std::vec::Vec<u8>>::new(), v(b"\xEF\xBB"))
        );
    }

    #[test]
    fn bom_not_stripped_after_start() {
        assert_eq!(
            lines(&[b"\n\xEF\xBB\xBFx\n"]).0,
            [v(b""), v(b"\xEF\xBB\xBFx")]
        );
    }

    #[test]
    fn bom_then_lf() {
        assert_eq!(lines(&[b"\xEF\xBB\xBF", b"\n"]).0, [v(b"")]);
    }

    #[test]
    fn scanned_is_linear_for_one_byte_inputs() {
        let mut s = LineSplitter::new();
        let line = [b'a'; 10_000];
        for b in &line {
            assert!(matches!(
                s.next_line(core::slice::from_ref(b)),
                Step::Partial { .. }
            ));
        }
        assert!(matches!(s.next_line(b"\n"), Step::Line { .. }));
        assert_eq!(s.scanned(), 10_001);
    }
}
