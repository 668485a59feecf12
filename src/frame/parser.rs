//! The sans-IO SSE parser: WHATWG "interpreting an event stream" over `Bytes`.
//!
//! BE ADVISED: the invariants that keep this parser chunking-invariant,
//! linear and bounded, and what to change together.
//!
//! * Two kinds of path parse lines. The line path (`Parser::advance`,
//!   `process_line`, `dispatch`) is the reference: it takes every line end
//!   from `LineSplitter::next_line` and handles every byte stream. The
//!   whole-event paths (`quick_event`, `whole_event` with `scan_event`,
//!   `skip_keep_alive_run`, the straddling event) and the line-path
//!   shortcuts (`known_event_line`, `common_field`) search for LF
//!   themselves, and only in the plain state (`at_plain_block_start`: no
//!   byte order mark or CR pending, no skip, lenient UTF-8); they hand
//!   anything else (a CR, a limit in reach, another shape) to the line
//!   path, changing nothing. Each must leave the parser as the line path
//!   would: the bytes it took consumed from the splitter (`take_lf_lines`
//!   and its siblings), so that `LineSplitter::scanned` and the CR state
//!   stay true. If you change what the line path does with a line, change
//!   the whole-event paths that take that line's shape, or make them leave
//!   it to the line path; `tests/chunking` compares both with the
//!   reference parser at every split.
//! * `feed` looks for line ends too, in reads it holds (`hold`) and in a
//!   read that continues a line spanning reads (`feed_line_piece`); the
//!   bytes it searched are counted (`bytes_prescanned`) and the splitter is
//!   told, so each byte is searched at most twice in all.
//! * Every block ends in `Parser::settle_block`, whichever path took it:
//!   the byte accounting behind `Tally`, the commit of the last event ID,
//!   `frame_offset` and where the next block starts. If you change what a
//!   block's end does, change it there; the line path empties the block's
//!   fields in `end_block`, which the whole-event paths never fill.
//! * A line that lies inside one chunk is processed in place
//!   (`Src::Chunk`); a line that spans chunks is gathered in `line`
//!   (`Src::Buf`), one copy per byte, bounded by `max_line_len`. A
//!   borrowed frame may lend `line` (`straddling_event_ref`); every entry
//!   that can write `line` (`parse_frame`, `parse_frame_ref`, `next_item`,
//!   `finish`) empties a lent line first (`release_line`), and `line` is
//!   written nowhere else: `feed` writes it only while a line is open,
//!   which a lent line never is.
//! * Every decision about a line depends only on its bytes and the block
//!   state, never on where chunk boundaries fell. Limits are checked against
//!   line and event lengths, so limit errors are chunking-invariant too.
//! * After a limit or strict-UTF-8 error the block is dropped and the skip
//!   state (in `Intake`) discards lines, without buffering them, up to the
//!   next blank line. The skip state and the block's data length decide how
//!   much `feed` may hold; `Intake` derives that whenever either changes.
//! * Stream offsets are `cur_offset + index into cur`; errors carry the
//!   offset of the line, event or tail they concern.

use alloc::collections::VecDeque;
use alloc::string::String;
use bytes::{Bytes, BytesMut};

use super::config::{ParserConfig, Utf8Mode};
use super::error::{FrameError, FrameErrorKind};
use super::hold::{Held, Piece, Split, SMALL_READ};
use super::output::{Frame, FrameRef, Item};
use super::reserve::reserve_within;
use super::state::{Accounts, Intake, Settle, Skip};
use super::tally::Tally;
use super::text::{CheckedChunk, LineBuf, Utf8Bytes};
use crate::framing::{LineSplitter, Step};

/// An incremental, sans-IO Server-Sent Events parser.
///
/// Feed it the chunks of one stream as they arrive with [`feed`](Self::feed),
/// take events out with [`next_frame`](Self::next_frame) until it returns
/// `Ok(None)` (it needs more input), and call [`finish`](Self::finish) when
/// the stream ends. It does no I/O, spawns nothing and reads no clock, so it
/// works the same under any runtime, in `no_std`, or in a fuzzer.
///
/// It follows the WHATWG HTML algorithm for interpreting an event stream:
/// one leading UTF-8 BOM is stripped; lines end in CRLF, LF or CR (a CRLF
/// split across chunks is one line end); comments, unknown fields and blocks
/// without data dispatch nothing; `id` values containing NUL are ignored;
/// `retry` takes ASCII digits only; a block unfinished at end of stream is
/// not dispatched (and is reported). The frames are the same however the
/// input is chunked.
///
/// # Example
///
/// ```
/// use bytes::Bytes;
/// use ssekit::Parser;
///
/// let mut parser = Parser::new();
/// parser.feed(Bytes::from_static(b"event: greeting\ndata: hel"));
/// assert!(parser.next_frame()?.is_none()); // needs more input
/// parser.feed(Bytes::from_static(b"lo\n\n"));
/// let frame = parser.next_frame()?.expect("a complete event");
/// assert_eq!((frame.event(), frame.data()), ("greeting", "hello"));
/// parser.finish()?; // nothing was left over
/// # Ok::<(), ssekit::FrameError>(())
/// ```
///
/// # Memory
///
/// The parser holds the chunks it was fed and not yet parsed, at most one
/// line that spans chunks (`max_line_len`) and the data of one event
/// (`max_event_len`). Drain [`next_frame`](Self::next_frame) after each
/// [`feed`](Self::feed) to keep it at that. Frames share the chunks they were
/// sliced from, so a frame kept alive keeps its chunk alive.
#[derive(Debug)]
pub struct Parser {
    config: ParserConfig,
    lines: LineSplitter,

    // Input: the chunk being parsed, and those fed after it.
    /// The chunk, with the part of it known to be UTF-8.
    cur: CheckedChunk,
    pos: usize,
    cur_offset: u64,
    queue: VecDeque<Bytes>,
    /// Small reads that follow everything in `cur` and `queue`, held until
    /// they complete a block (see `hold`).
    small: Held,
    /// The skip state, the block's data length, the items mode and the
    /// hold budget they decide.
    intake: Intake,
    eof: bool,
    tail_checked: bool,

    // The current line, while it spans chunks.
    line: LineBuf,
    line_open: bool,
    line_offset: u64,

    /// The current block (its data length is in `intake`).
    block: Block,
    /// The buffer of the data of a block with several `data` lines.
    data_buf: BytesMut,
    /// Where the block of the last frame dispatched began.
    frame_offset: u64,

    // Stream state that outlives blocks.
    id_buf: Utf8Bytes,
    /// `id_buf` was set since the last event ID was committed.
    id_dirty: bool,
    /// The known event name last seen (`""` at first, which no line matches).
    last_known: &'static str,
    last_event_id: Utf8Bytes,
    reconnection: Option<u64>,

    /// The last frame handed out by `next_frame_ref` from the line path, or
    /// decoded with replacements because its data is not UTF-8. Its borrow
    /// ends at the next call, so it is dropped there (`parse_frame_ref`)
    /// and wherever the buffer it may share is to be reused
    /// (`let_go_of_block`, `hold`); keeping it longer only costs the swap
    /// of held buffers, never a wrong frame.
    held: Option<Frame>,
    /// The event type of the last frame `next_frame_ref` lent from `line`
    /// (see `straddling_event_ref`); meaningful only while `line` is lent,
    /// and emptied with it (`release_line`).
    lent_event: Utf8Bytes,
    /// `cur` is a block swapped out of `small`'s buffer (see
    /// `hand_over_block`), whose buffer goes back to `small` after it.
    /// Set only by `hand_over_block`, cleared only by `let_go_of_block`;
    /// `cur` changes nowhere else but in `next_chunk`, which lets go of a
    /// swapped block first. If you add a way to change `cur`, let go there
    /// too: else the block's buffer would not come back, and the next
    /// let-go would take another chunk's buffer for it.
    cur_is_block: bool,
    /// Blocks are swapped out of `small` (until a buffer cannot be taken
    /// back: then they are split off it, for the rest of the stream). A
    /// mode, not a cache: only `reset` sets it again.
    swap_blocks: bool,
    /// Consecutive times the whole-event path found an event it does not
    /// handle (it stops trying past `MAX_FAST_MISSES`).
    fast_misses: u8,

    /// Byte accounting (see `Tally`): blocks are counted when they end.
    accounts: Accounts,
}

/// The block being parsed by the line path. The whole-event paths take a
/// block from its first line to its blank line at once, so they find it
/// empty (`!started`, every field cleared) and leave it so.
#[derive(Debug)]
struct Block {
    /// A line of the block was seen: `offset` is where it starts.
    started: bool,
    /// Where the block starts (once `started`; before, where the last one
    /// ended).
    offset: u64,
    /// A field line (not a comment) was seen: at end of stream the whole
    /// block is the truncated tail.
    fields: bool,
    data: Data,
    event: Utf8Bytes,
    retry: Option<u64>,
    /// An `id` field was seen.
    id_in_block: bool,
}

impl Block {
    const fn new() -> Self {
        Self {
            started: false,
            offset: 0,
            fields: false,
            data: Data::None,
            event: Utf8Bytes::new(),
            retry: None,
            id_in_block: false,
        }
    }

    /// Empties what the block's field lines set (not where it starts).
    fn clear_fields(&mut self) {
        self.data = Data::None;
        self.event = Utf8Bytes::new();
        self.retry = None;
        self.id_in_block = false;
    }
}

/// The data buffer of the current block.
#[derive(Debug)]
enum Data {
    /// No `data` field yet: the block dispatches nothing.
    None,
    /// One `data` field, held as a handle to its value: text already when
    /// it was gathered across reads and seen to be ASCII (`Ok`), else bytes
    /// to check at dispatch.
    One {
        value: Result<Utf8Bytes, Bytes>,
        zero_copy: bool,
    },
    /// Several `data` fields, joined with LF in `data_buf`.
    Joined,
}

/// Where the line being processed lies.
#[derive(Debug, Clone, Copy)]
enum Src {
    /// `cur[start..end]`, in place.
    Chunk { start: usize, end: usize },
    /// The whole of `line`.
    Buf,
}

/// The field a line sets, with its value's range in the line.
enum Field {
    Comment,
    Data,
    Event,
    Id,
    Retry,
    Other,
}

impl Default for Parser {
    fn default() -> Self {
        Self::new()
    }
}

impl Parser {
    /// A parser with the default [`ParserConfig`].
    pub fn new() -> Self {
        Self::with_config(ParserConfig::default())
    }

    /// A parser with these limits and options.
    pub fn with_config(config: ParserConfig) -> Self {
        Self {
            config,
            lines: LineSplitter::new(),
            cur: CheckedChunk::new(),
            pos: 0,
            cur_offset: 0,
            queue: VecDeque::new(),
            small: Held::default(),
            intake: Intake::new(&config),
            eof: false,
            tail_checked: false,
            line: LineBuf::new(),
            line_open: false,
            line_offset: 0,
            block: Block::new(),
            data_buf: BytesMut::new(),
            frame_offset: 0,
            id_buf: Utf8Bytes::new(),
            id_dirty: false,
            last_known: "",
            last_event_id: Utf8Bytes::new(),
            reconnection: None,
            held: None,
            lent_event: Utf8Bytes::new(),
            cur_is_block: false,
            swap_blocks: true,
            fast_misses: 0,
            accounts: Accounts::new(),
        }
    }

    /// The configuration this parser was made with.
    pub fn config(&self) -> &ParserConfig {
        &self.config
    }

    /// Appends the next chunk of the stream. Chunks may be of any size,
    /// empty included, and may split lines, CRLF pairs, UTF-8 sequences or
    /// the byte order mark anywhere.
    ///
    /// Nothing is parsed until [`next_frame`](Self::next_frame) or
    /// [`next_item`](Self::next_item) is called. This operation is O(1),
    /// except for small reads, and for a read that continues a line
    /// spanning reads when everything before it is parsed: that read is
    /// searched for the line end at once (O(its length), the search the
    /// parser would make: no byte is searched twice), and its part of the
    /// line is appended to the line buffer.
    ///
    /// # Small reads
    ///
    /// A chunk of at most 256 bytes that arrives when the parser has parsed
    /// everything is searched for line ends at once (in O(its length)) and
    /// copied into one buffer with the small reads before it, until they
    /// complete an event: the parser then parses them as one chunk, which
    /// costs far less than a visit per tiny read. This never changes what
    /// the parser reports, nor when: held bytes are handed over at once when
    /// they end an event or hold a `retry` field or a CR, when
    /// [`next_item`](Self::next_item) is used, at [`finish`](Self::finish),
    /// and before they could reach a limit. What it changes: the data of an
    /// event gathered from small reads is a slice of that buffer (copied
    /// once), not of an input chunk, and [`offset`](Self::offset) stays at
    /// the start of the held bytes until they are parsed. At most 8 KiB are
    /// held, in one of two buffers of 16 KiB that take turns (a block is
    /// parsed from one while the bytes after it are held in the other). If
    /// something still shares a block's buffer when the next block is
    /// handed over (a frame kept past the next read, an `id` field, whose
    /// value the last event ID keeps, or a block cut at a `retry` line and
    /// not yet dispatched), the buffers stop taking turns for the rest of
    /// the stream (until [`reset`](Self::reset)): blocks are then split off
    /// one buffer as handles that share it.
    #[inline(always)]
    pub fn feed(&mut self, chunk: Bytes) {
        let held = self.small.len();
        if held != 0 && held + chunk.len() <= self.intake.hold_max() {
            // A tiny read after held bytes (most tiny reads), taken inline
            // when it is held. Bytes are held only after a non-empty read
            // and are handed over by `finish`, so the stream is not finished
            // (`eof` and `tail_checked` are already false).
            debug_assert!(!self.eof && !self.tail_checked);
            match self.small.push_line_piece(&chunk) {
                Piece::Held => return,
                // One that ends a block, with its cuts found.
                Piece::Cut(split) => return self.feed_cut(chunk, split),
                Piece::Other => {}
            }
        }
        self.feed_read(chunk);
    }

    /// [`feed`](Self::feed) for every read but a tiny one in a held line.
    #[inline(never)]
    fn feed_read(&mut self, chunk: Bytes) {
        if chunk.is_empty() {
            return;
        }
        self.eof = false;
        self.tail_checked = false;
        if !self.small.is_empty() {
            return self.feed_held(chunk);
        }
        self.feed_at_rest(chunk);
    }

    /// [`feed`](Self::feed) with nothing held.
    fn feed_at_rest(&mut self, chunk: Bytes) {
        if self.pos >= self.cur.len() && self.queue.is_empty() {
            if self.line_open {
                if self.intake.skip() == Skip::No
                    && self.line.len() + chunk.len() <= self.config.max_line_len
                    && self.line.capacity() - self.line.len() >= chunk.len()
                    && self.lines.take_short_piece(&chunk)
                {
                    // A small read in the middle of a line that goes on (the
                    // common case of tiny reads): what `advance` would do with
                    // it, appending it to the line, done here at once. O(1):
                    // at most 32 bytes.
                    self.line.extend_from_slice(&chunk);
                    self.next_chunk(chunk);
                    self.pos = self.cur.len();
                    return;
                }
                if self.intake.skip() == Skip::No
                    && self.line.len() + chunk.len() <= self.config.max_line_len
                    && self.lines.plain()
                {
                    return self.feed_line_piece(chunk);
                }
            } else if chunk.len() <= SMALL_READ && self.lines.plain() && !chunk.ends_with(b"\n\n") {
                // At a line start with nothing left to parse: a small read
                // may be held (but not one that ends a block: it is parsed
                // where it lies, below).
                return self.feed_held(chunk);
            } else {
                // A read at rest that is not held (one event per read):
                // `hand_over` without its second rest check.
                return self.take_at_rest(chunk);
            }
        }
        self.hand_over(chunk);
    }

    /// A read that continues a line spanning reads (a long data line), at
    /// rest and with room under the line limit: the line search runs here,
    /// and the read's part of the line is appended to it at once, as the
    /// parse path would, without a visit of the parse path when the line
    /// goes on past the read. The read becomes the current chunk, parsed
    /// from the line end on (each byte is still searched once).
    fn feed_line_piece(&mut self, chunk: Bytes) {
        // The caller saw the whole read fit under the line limit.
        let piece = self
            .line
            .append_to_line_end(&chunk, self.config.max_line_len);
        self.lines.take_line_piece(piece);
        self.next_chunk(chunk);
        self.pos = piece;
    }

    /// Gives `chunk` to the parse path: it becomes the current chunk when all
    /// before it is parsed, else it is queued.
    #[inline(always)]
    fn hand_over(&mut self, chunk: Bytes) {
        if self.pos >= self.cur.len() && self.queue.is_empty() {
            self.take_at_rest(chunk);
        } else {
            self.queue.push_back(chunk);
        }
    }

    /// [`hand_over`](Self::hand_over) when all before `chunk` is parsed: it
    /// becomes the current chunk, parsed from its start.
    #[inline(always)]
    fn take_at_rest(&mut self, chunk: Bytes) {
        self.next_chunk(chunk);
        self.pos = 0;
        self.check_split_crlf();
    }

    /// Makes `chunk` the current chunk, past the one parsed. A current
    /// chunk that is a block swapped out of the held buffer (see
    /// [`hand_over_block`](Self::hand_over_block)) gives its buffer back to
    /// be held in again, if nothing else points into it (a frame, the last
    /// event ID); if something does, blocks are split off the held buffer
    /// from then on, as handles that share it.
    #[inline]
    fn next_chunk(&mut self, chunk: Bytes) {
        if self.cur_is_block {
            self.let_go_of_block_aside();
        }
        self.cur_offset += self.cur.len() as u64;
        self.cur.replace(chunk);
    }

    /// [`let_go_of_block`](Self::let_go_of_block) off the paths that hand
    /// over blocks (a read that is not held follows a block), out of line.
    #[cold]
    #[inline(never)]
    fn let_go_of_block_aside(&mut self) {
        self.let_go_of_block();
    }

    /// Takes the current chunk, a parsed block swapped out of the held
    /// buffer, out of `cur` (leaving it empty, its bytes counted), and
    /// gives its buffer back to `small` if nothing else points into it.
    #[inline]
    fn let_go_of_block(&mut self) {
        self.cur_is_block = false;
        // A frame lent by `next_frame_ref` no longer lives when input is
        // fed; the owned one it may have been made from lets go here.
        self.held = None;
        self.cur_offset += self.cur.len() as u64;
        match self.cur.take().try_into_mut() {
            Ok(buf) => self.small.give_back(buf),
            Err(_) => self.swap_blocks = false,
        }
    }

    /// Hands the held bytes, a block that ends here, to the parse path. At
    /// rest, their buffer itself becomes the current chunk and the held
    /// bytes that follow go to a second buffer (the one the last block was
    /// parsed from): no handle is split off, so no reference count changes.
    /// Otherwise they are split off the buffer as a handle that shares it.
    #[inline]
    fn hand_over_block(&mut self) {
        if self.swap_blocks && self.pos >= self.cur.len() && self.queue.is_empty() {
            // The last block's buffer first, so that it can take the bytes
            // held next.
            if self.cur_is_block {
                self.let_go_of_block();
            }
            if self.swap_blocks {
                // Its bytes were just written: nothing to ask the CPU for.
                self.cur_offset += self.cur.len() as u64;
                self.cur.set(self.small.swap_out());
                self.cur_is_block = true;
                self.pos = 0;
                self.check_split_crlf();
                return;
            }
        }
        let held = self.small.take();
        self.hand_over(held);
    }

    /// `feed` for a read that follows held bytes, or a small read at a line
    /// start with nothing left to parse: it is held, or handed over with
    /// what is held, up to the last point that must be parsed now.
    fn feed_held(&mut self, chunk: Bytes) {
        // A read at rest that ends a block never comes here: `feed_at_rest`
        // parses it where it lies, unsearched.
        debug_assert!(!(self.small.is_empty() && chunk.ends_with(b"\n\n")));
        let split = if chunk.len() <= SMALL_READ
            && self.small.len() + chunk.len() <= self.intake.hold_max()
        {
            self.small.split_point(&chunk)
        } else {
            None
        };
        let Some(split) = split else {
            // A CR, a large read or a limit in reach: everything is parsed.
            if !self.small.is_empty() {
                self.hand_over_held();
            }
            return self.hand_over(chunk);
        };
        self.feed_cut(chunk, split);
    }

    /// [`feed_held`](Self::feed_held) for a read that may be held in part,
    /// with the cuts `split_point` found in it.
    #[inline(never)]
    fn feed_cut(&mut self, chunk: Bytes, split: Split) {
        let mut at = 0;
        if !self.small.is_empty() {
            if split.first == 0 {
                return self.hold(&chunk);
            }
            // The held block ends in this read: it is parsed with the bytes
            // that complete it (a copy); what follows is parsed in place.
            self.hold(&chunk[..split.first]);
            self.hand_over_block();
            at = split.first;
        }
        if split.last > at {
            if at == 0 && split.last == chunk.len() {
                // A read that ends a block: parsed where it lies.
                return self.hand_over(chunk);
            }
            self.hand_over(chunk.slice(at..split.last));
            at = split.last;
        }
        if at < chunk.len() {
            self.hold(&chunk[at..]);
        }
    }

    /// Holds `bytes` of a small read.
    #[inline(always)]
    fn hold(&mut self, bytes: &[u8]) {
        if self.small.needs_room(bytes.len()) && self.pos >= self.cur.len() && self.queue.is_empty()
        {
            // Let go of the parsed chunk and frame (they may share the held
            // bytes' buffer), so that the buffer can be reused in place.
            self.held = None;
            self.next_chunk(Bytes::new());
            self.pos = 0;
        }
        self.small.push(bytes);
    }

    /// Hands everything held to the parse path: from now on (or until the
    /// parser is at rest again) what comes is parsed as it arrives.
    #[cold]
    fn hand_over_held(&mut self) {
        let held = self.small.take_all();
        self.hand_over(held);
    }
    /// The next dispatched event, or `Ok(None)` when all input fed so far has
    /// been parsed and more is needed.
    ///
    /// # Errors
    ///
    /// A [`FrameError`] when a line or an event exceeds a configured limit,
    /// when strict UTF-8 checking finds invalid bytes, or, after
    /// [`finish`](Self::finish), when the stream ended inside an event. The
    /// parser stays usable: call again to go on with the next event.
    ///
    /// # Complexity
    ///
    /// Amortised linear in the bytes parsed: each byte is searched once and
    /// copied at most once (twice each if it came in a small read, which is
    /// searched and copied on arrival: see [`feed`](Self::feed)) (into the line or data buffer when a line spans
    /// chunks or an event has several data lines).
    #[inline]
    pub fn next_frame(&mut self) -> Result<Option<Frame>, FrameError> {
        if self.drained() {
            return Ok(None);
        }
        self.parse_frame()
    }

    /// [`next_frame`](Self::next_frame) with input to parse.
    fn parse_frame(&mut self) -> Result<Option<Frame>, FrameError> {
        self.release_line();
        loop {
            self.skip_keep_alives();
            let quick = self.quick_event::<false>();
            if let Some(q) = self.quick_whole(quick) {
                return Ok(Some(self.frame_of(q, q.data.unwrap_or_default())));
            }
            if quick == Quick::Incomplete {
                // The whole-event path would search the same line in vain.
            } else if quick == Quick::OpenLine {
                self.open_line_rest()?;
            } else if self.line_open {
                if let Some(frame) = self.straddling_event() {
                    return Ok(Some(frame));
                }
            } else if let Some(whole) = self.whole_event() {
                match whole.data {
                    Some(data) => return Ok(Some(self.frame_of(whole, data))),
                    None => continue, // a block of comments: nothing to dispatch
                }
            }
            match self.advance(false)? {
                Advanced::Item(Item::Frame(frame)) => return Ok(Some(frame)),
                Advanced::Item(_) | Advanced::Boundary => continue,
                Advanced::NeedInput => return Ok(None),
            }
        }
    }

    /// [`next_frame`](Self::next_frame), borrowed: the next event as `&str`
    /// slices of the input chunk (or of the parser's buffers, for events
    /// that span chunks or lines), without reference counts or copies. The
    /// fastest way to read a stream whose events are decoded at once (typed
    /// views need only `&str`); use [`next_frame`](Self::next_frame) to keep
    /// frames.
    ///
    /// The same events as `next_frame`, in the same order, with the same
    /// errors.
    ///
    /// # Errors
    ///
    /// As [`next_frame`](Self::next_frame).
    ///
    /// ```
    /// use ssekit::{Bytes, Parser};
    ///
    /// let mut parser = Parser::new();
    /// parser.feed(Bytes::from_static(b"event: note\ndata: a\n\ndata: b\n"));
    /// let mut seen = Vec::new();
    /// while let Some(frame) = parser.next_frame_ref()? {
    ///     seen.push((frame.event().to_owned(), frame.data().to_owned()));
    /// }
    /// parser.feed(Bytes::from_static(b"data: c\n\n")); // completes the second event
    /// while let Some(frame) = parser.next_frame_ref()? {
    ///     seen.push((frame.event().to_owned(), frame.data().to_owned()));
    /// }
    /// assert_eq!(seen, [("note".into(), "a".into()), ("message".into(), "b\nc".into())]);
    /// # Ok::<(), ssekit::FrameError>(())
    /// ```
    #[inline]
    pub fn next_frame_ref(&mut self) -> Result<Option<FrameRef<'_>>, FrameError> {
        if self.drained() {
            // The quick answer after a small read, without a call.
            return Ok(None);
        }
        // The most common event, taken by a call of its own that returns in
        // registers; everything else goes to `parse_frame_ref`, with what
        // the quick path found.
        let (event, value) = match self.quick_event::<true>() {
            Quick::Plain(value) => ("", value),
            Quick::Named(value) => (self.last_known, value),
            quick => return self.parse_frame_ref(quick),
        };
        Ok(Some(FrameRef {
            event,
            // `quick_event` saw the data (which ends before the blank line's
            // two LFs) read as text.
            data: {
                let data = self.cur.str(value, self.pos - 2);
                debug_assert!(data.is_some());
                data.unwrap_or_default()
            },
            id: self.id_buf.as_str(),
            retry: None,
        }))
    }

    /// [`next_frame_ref`](Self::next_frame_ref) for everything but the
    /// event `quick_event` takes; `first` is what it found. `Other` may mean
    /// that it did not look (a frame still held or lent: see
    /// `quick_event`), so the quick path is tried again after the release.
    fn parse_frame_ref(&mut self, first: Quick) -> Result<Option<FrameRef<'_>>, FrameError> {
        self.held = None;
        self.release_line();
        let mut first = Some(first).filter(|&q| q != Quick::Other);
        loop {
            let quick = match first.take() {
                Some(quick) => quick,
                None => {
                    self.skip_keep_alives();
                    self.quick_event::<true>()
                }
            };
            if let Some(q) = self.quick_whole(quick) {
                let data = q.data.unwrap_or_default();
                return Ok(Some(self.frame_ref_of(q, data)));
            }
            if quick == Quick::Incomplete {
                // The whole-event path would search the same line in vain.
            } else if quick == Quick::OpenLine {
                self.open_line_rest()?;
            } else if self.line_open {
                if let Some(retry) = self.straddling_event_ref() {
                    return Ok(Some(FrameRef {
                        event: self.lent_event.as_str(),
                        data: self.line.lent(),
                        id: self.id_buf.as_str(),
                        retry,
                    }));
                }
                if let Some(frame) = self.straddling_event() {
                    return Ok(Some(FrameRef::of(self.held.insert(frame))));
                }
            } else if let Some(whole) = self.whole_event() {
                match whole.data {
                    Some(data) => return Ok(Some(self.frame_ref_of(whole, data))),
                    None => continue, // a block of comments: nothing to dispatch
                }
            }
            match self.advance(false)? {
                Advanced::Item(Item::Frame(frame)) => {
                    return Ok(Some(FrameRef::of(self.held.insert(frame))))
                }
                Advanced::Item(_) | Advanced::Boundary => continue,
                Advanced::NeedInput => return Ok(None),
            }
        }
    }

    /// Like [`next_frame`](Self::next_frame), but also reports comments,
    /// `retry` updates and last-event-ID commits of blocks that dispatch no
    /// event, in stream order. For proxies and clients that must not miss a
    /// reconnection hint.
    ///
    /// # Errors
    ///
    /// As [`next_frame`](Self::next_frame).
    ///
    /// ```
    /// use bytes::Bytes;
    /// use ssekit::{Item, Parser};
    ///
    /// let mut parser = Parser::new();
    /// parser.feed(Bytes::from_static(b"retry: 3000\nid: 9\n\n: ping\n"));
    /// assert_eq!(parser.next_item()?, Some(Item::Retry(3000)));
    /// assert_eq!(parser.next_item()?, Some(Item::LastEventId(Bytes::from_static(b"9"))));
    /// assert_eq!(parser.next_item()?, Some(Item::Comment(Bytes::from_static(b" ping"))));
    /// assert_eq!(parser.next_item()?, None);
    /// assert_eq!((parser.last_event_id(), parser.reconnection_time()), ("9", Some(3000)));
    /// # Ok::<(), ssekit::FrameError>(())
    /// ```
    pub fn next_item(&mut self) -> Result<Option<Item>, FrameError> {
        self.release_line();
        if !self.intake.items() {
            // Comments are reported as they are parsed: small reads are
            // parsed as they come from now on.
            self.intake.report_items();
            if !self.small.is_empty() {
                self.hand_over_held();
            }
        }
        loop {
            match self.advance(true)? {
                Advanced::Item(item) => return Ok(Some(item)),
                Advanced::Boundary => continue,
                Advanced::NeedInput => return Ok(None),
            }
        }
    }

    /// Marks the end of the stream.
    ///
    /// # Errors
    ///
    /// [`FrameErrorKind::TruncatedTail`] when the stream ended inside an event
    /// (after a field line, or within a line, with no blank line after it):
    /// those bytes are discarded, as the specification says, and this error
    /// says where they began and how many there were. If input fed earlier is
    /// still unparsed, the error comes instead from the
    /// [`next_frame`](Self::next_frame) call that reaches the end of it
    /// (see [`has_pending_input`](Self::has_pending_input)). It is reported once.
    pub fn finish(&mut self) -> Result<(), FrameError> {
        self.release_line();
        self.eof = true;
        if !self.small.is_empty() {
            return self.finish_held();
        }
        if !self.has_pending_input() {
            return match self.check_tail() {
                Some(e) => Err(e),
                None => Ok(()),
            };
        }
        Ok(())
    }

    /// `finish` with small reads held: they are parsed now. They hold no
    /// blank line, so they dispatch nothing; if everything before them was
    /// parsed, the tail is reported here, as it would have been had they
    /// been parsed when they came.
    #[cold]
    fn finish_held(&mut self) -> Result<(), FrameError> {
        let at_rest = !self.has_pending_input();
        self.hand_over_held();
        if !at_rest {
            return Ok(());
        }
        loop {
            match self.advance(false)? {
                Advanced::NeedInput => return Ok(()),
                other => debug_assert!(
                    matches!(other, Advanced::Boundary),
                    "held bytes dispatched something"
                ),
            }
        }
    }

    /// Returns to the state of a new parser for a new stream, keeping the
    /// configuration and the buffers' capacity. The last event ID is cleared
    /// too: read it with [`last_event_id`](Self::last_event_id) first if you
    /// reconnect with it.
    pub fn reset(&mut self) {
        let line = core::mem::take(&mut self.line);
        let data_buf = core::mem::take(&mut self.data_buf);
        let queue = core::mem::take(&mut self.queue);
        let mut small = core::mem::take(&mut self.small);
        small.clear();
        *self = Self::with_config(self.config);
        self.small = small;
        self.line = line;
        self.line.clear();
        self.data_buf = data_buf;
        self.data_buf.clear();
        self.queue = queue;
        self.queue.clear();
    }

    /// The last event ID string: the value committed at the latest blank
    /// line (`""` if none was ever set). It is what a client sends as
    /// `Last-Event-ID` when it reconnects.
    pub fn last_event_id(&self) -> &str {
        self.last_event_id.as_str()
    }

    /// Starts this parser with a known last event ID, as a client that
    /// reconnects with `Last-Event-ID: id` does: frames carry `id` until the
    /// stream sets another, and [`last_event_id`](Self::last_event_id) is
    /// `id` until then. Call it on a new parser (or after
    /// [`reset`](Self::reset)), before feeding the new connection's bytes.
    ///
    /// ```
    /// use ssekit::{Bytes, Parser};
    ///
    /// let mut parser = Parser::new().with_last_event_id("41");
    /// assert_eq!(parser.last_event_id(), "41");
    /// parser.feed(Bytes::from("data: no id of its own\n\nid: 42\ndata: x\n\n"));
    /// assert_eq!(parser.next_frame()?.unwrap().id(), "41");
    /// assert_eq!(parser.next_frame()?.unwrap().id(), "42");
    /// assert_eq!(parser.last_event_id(), "42");
    /// # Ok::<(), ssekit::FrameError>(())
    /// ```
    ///
    /// The id is taken as it is; one that holds NUL, CR or LF could not
    /// have come from a stream (and cannot be sent as a header).
    #[must_use]
    pub fn with_last_event_id(mut self, id: &str) -> Self {
        self.set_last_event_id(id);
        self
    }

    /// Sets the last event ID, as [`with_last_event_id`](Self::with_last_event_id)
    /// does. An `id` field of an event in progress is overridden.
    pub fn set_last_event_id(&mut self, id: &str) {
        let id = Utf8Bytes::from_string(id.into());
        self.id_buf = id.clone();
        self.last_event_id = id;
        self.id_dirty = false;
    }

    /// The reconnection time in milliseconds, as last set by a valid `retry`
    /// field anywhere in the stream, or `None`.
    pub fn reconnection_time(&self) -> Option<u64> {
        self.reconnection
    }

    /// Whether input fed to the parser is still unparsed: then
    /// [`next_frame`](Self::next_frame) has more to say (frames, or at the end
    /// of a finished stream the truncated-tail error), and it is not yet time
    /// to drop the parser. After a drain to `Ok(None)` this is `false`.
    pub fn has_pending_input(&self) -> bool {
        self.pos < self.cur.len() || !self.queue.is_empty()
    }

    /// Stream offset of the next byte to parse.
    pub fn offset(&self) -> u64 {
        self.cur_offset + self.pos as u64
    }

    /// Stream offset of the first line of the block that gave the last frame
    /// returned (comment and other field lines before its `data` included,
    /// after a byte order mark); 0 before the first frame. Tools that report
    /// positions per event (the linter) read it after each frame.
    ///
    /// ```
    /// use ssekit::{Bytes, Parser};
    ///
    /// let mut parser = Parser::new();
    /// parser.feed(Bytes::from_static(b"data: a\n\n: note\nevent: x\ndata: b\n\n"));
    /// parser.next_frame()?;
    /// assert_eq!(parser.frame_offset(), 0);
    /// parser.next_frame()?;
    /// assert_eq!(parser.frame_offset(), 9); // the comment line
    /// # Ok::<(), ssekit::FrameError>(())
    /// ```
    pub fn frame_offset(&self) -> u64 {
        self.frame_offset
    }

    /// How many bytes the line search has examined: at most the bytes
    /// parsed, however the input was chunked. Exposed to test linearity.
    #[doc(hidden)]
    pub fn bytes_scanned(&self) -> u64 {
        self.lines.scanned()
    }

    /// How many bytes of small reads were searched on arrival, before they
    /// were held (see [`feed`](Self::feed)): at most the bytes fed. With
    /// [`bytes_scanned`](Self::bytes_scanned), each byte is searched at
    /// most twice. Exposed to test linearity.
    #[doc(hidden)]
    pub fn bytes_prescanned(&self) -> u64 {
        self.small.scanned()
    }

    /// Where the bytes parsed so far went: in dispatched frames, comments,
    /// ignored blocks, blocks dropped after an error, or the truncated tail
    /// (see [`Tally`]). The fields add up to the bytes of every block that
    /// has ended; once the stream is [finished](Self::finish) and drained
    /// (`next_frame` returned `Ok(None)` or the truncated-tail error), to the
    /// length of the whole stream, so nothing was lost unaccounted.
    ///
    /// Keeping the tally costs a few additions per block, not per byte.
    pub fn tally(&self) -> Tally {
        let end = (self.eof && !self.has_pending_input()).then(|| {
            let tail = self.tail_start().map(|start| (start, self.tail_is_block()));
            (self.cur_offset + self.cur.len() as u64, tail)
        });
        self.accounts.tally(end)
    }

    /// Whether all input is parsed and the stream is not finished: then
    /// there is nothing to report (the quick answer after a small read).
    #[inline]
    fn drained(&self) -> bool {
        self.pos >= self.cur.len() && self.queue.is_empty() && !self.eof
    }

    /// Whether the parser is where its fast paths may take a block whole: at
    /// a block's start, between lines, skipping nothing, in lenient UTF-8
    /// mode, with no byte order mark or CR pending.
    #[inline(always)]
    fn at_plain_block_start(&self) -> bool {
        !self.block.started
            && !self.line_open
            && self.intake.skip() == Skip::No
            && self.config.utf8 != Utf8Mode::Strict
            && self.lines.plain()
    }

    /// The quickest path, for the most common event of all: `data: <value>`
    /// LF LF, alone or after `event: <the last known name>` LF, at the start
    /// of a block inside the current chunk, in the plain state. It does what
    /// [`whole_event`](Self::whole_event) and
    /// [`commit_whole`](Self::commit_whole) do for that shape, with one line
    /// search and the least bookkeeping: no id, no comments, so the block's
    /// bytes are all dispatched. [`Quick::Other`], [`Quick::Incomplete`] or
    /// [`Quick::OpenLine`] (nothing changed) for anything else; with `TEXT`
    /// (for a borrowed frame), [`Quick::NotText`] when the data is not
    /// UTF-8, and `Other` without looking when a borrowed frame is still
    /// held by the last call.
    ///
    /// A call of its own, small, with a result that fits in two registers:
    /// one event per read (how LLM servers flush) is a call of it and little
    /// else.
    #[inline(never)]
    fn quick_event<const TEXT: bool>(&mut self) -> Quick {
        let start = self.pos;
        let Some(b) = self.cur.get(start..) else {
            return Quick::Other;
        };
        // A lent line may stay lent here: the quick path never writes
        // `line` (see the module docs).
        if !self.at_plain_block_start() || (TEXT && self.held.is_some()) {
            return Quick::Other;
        }
        let (named, at) = match repeated_event_line(b, self.last_known) {
            Some(len) if len <= self.config.max_line_len => (true, len + 1),
            Some(_) => return Quick::Other,
            None => (false, 0),
        };
        let Some(line) = b.get(at..) else {
            return Quick::Other;
        };
        let Some(value) = value_start(line, b"data:") else {
            return Quick::Other;
        };
        let Some(end) = self.cur.line_end(start + at + value) else {
            // The data line goes on in the next chunk.
            return if at == 0 {
                Quick::OpenLine
            } else {
                Quick::Incomplete
            };
        };
        let end = end - start - at;
        let line = &self.cur[start + at..];
        if line[end] != b'\n'
            || line.get(end + 1) != Some(&b'\n')
            || end > self.config.max_line_len
            || end - value > self.config.max_event_len
        {
            return Quick::Other;
        }
        let len = at + end + 2;
        let value = start + at + value;
        if TEXT && !self.cur.check(value, start + at + end) {
            // Not text: the owned frame decodes it with replacements.
            return Quick::NotText;
        }
        let block_offset = self.cur_offset + start as u64;
        let line_end = block_offset + len as u64;
        self.lines.take_lf_lines(len);
        self.pos = start + len;
        self.settle_block(block_offset, line_end, Settle::Dispatched);
        self.fast_misses = 0;
        if named {
            Quick::Named(value)
        } else {
            Quick::Plain(value)
        }
    }

    /// The event `quick_event` took (`None` for anything else), as
    /// `commit_whole` would give it: its data ends before the blank line's
    /// two LFs at `pos`, and its block starts at `frame_offset`.
    #[inline(always)]
    fn quick_whole(&self, quick: Quick) -> Option<Whole> {
        let (name, value) = match quick {
            Quick::Plain(value) => (Name::None, value),
            Quick::Named(value) => (Name::Known(self.last_known), value),
            _ => return None,
        };
        let start = (self.frame_offset - self.cur_offset) as usize;
        Some(Whole {
            name,
            data: Some((value, self.pos - 2)),
            block: (start, self.pos),
        })
    }

    /// After [`Quick::OpenLine`]: the rest of the chunk, from `pos` (a block
    /// start in the plain state) on, is the first part of a data line that
    /// goes on in the next chunk, with no CR or LF in it (the quick path
    /// searched it). Taken as [`advance`](Self::advance) would take it (the
    /// line splitter's partial line, then `append_partial`), without a
    /// second search of the same bytes; `advance` goes on from the end of
    /// the chunk. (In 4 KiB reads of short events, one event per read
    /// straddles two reads.)
    #[inline(never)]
    fn open_line_rest(&mut self) -> Result<(), FrameError> {
        let (start, end) = (self.pos, self.cur.len());
        self.lines.take_partial(end - start);
        self.pos = end;
        self.append_partial(start, end)
    }

    /// Skips the blocks at `pos` that are one comment line each, a blank
    /// line after it (keep-alives: `: ping` LF LF), all in the current
    /// chunk, in the plain state: they dispatch nothing, so all that is left
    /// of them is their accounting, summed here and done once, with the
    /// effect that [`whole_event`](Self::whole_event) (and its
    /// [`commit_whole`](Self::commit_whole)) would have for each.
    /// A stream of keep-alives costs a short search per block, not a visit
    /// of the event paths. Stops, changing nothing more, at anything else.
    #[inline(always)]
    fn skip_keep_alives(&mut self) {
        if self.cur.get(self.pos) == Some(&b':') {
            self.skip_keep_alive_run();
        }
    }

    /// [`skip_keep_alives`](Self::skip_keep_alives) at a `:`.
    #[inline(never)]
    fn skip_keep_alive_run(&mut self) {
        let start = self.pos;
        if !self.at_plain_block_start() || self.id_dirty {
            return;
        }
        let b = &self.cur[start..];
        let max_line = self.config.max_line_len;
        // Past the blocks taken: `at`; their comment bytes, LFs included.
        let (mut at, mut comments) = (0, 0);
        while b.get(at) == Some(&b':') {
            let Some(end) = short_line_end(&b[at..]) else {
                break;
            };
            if end > max_line || b.get(at + end + 1) != Some(&b'\n') {
                break;
            }
            comments += end + 1;
            at += end + 2;
        }
        if at == 0 {
            return;
        }
        // The blocks settled as one: their comment lines are comments, the
        // rest (blank lines) ignored, and the last comment line ends just
        // before the last blank line.
        let line_end = self.cur_offset + (start + at) as u64;
        self.lines.take_lf_lines(at);
        self.pos = start + at;
        self.accounts.comments(comments as u64, line_end - 1);
        self.settle_block(line_end, line_end, Settle::Ignored);
        self.fast_misses = 0;
    }

    /// The event that straddles two reads (one in every 4 KiB read of a
    /// stream of short events): its first `data` line, gathered in `line`
    /// since an earlier read, ends at `cur[pos]` with LF, and a blank line
    /// (LF) follows. Dispatches it with the effect that the line path
    /// (`process_line`, then `dispatch` at the blank line) would have,
    /// without classifying the line again or visiting the blank line;
    /// `None` (nothing changed) for anything else, which the line path
    /// takes.
    #[inline]
    fn straddling_event(&mut self) -> Option<Frame> {
        let (value, len) = self.straddling_value()?;
        let line_end = self.take_straddling_end();
        // The block's one data line, dispatched as the blank line would.
        let value = self.line.take_text(value, len);
        Some(self.dispatch_data(line_end, value, false))
    }

    /// Where the value of the straddling event's data line lies in `line`,
    /// and the line's length, when [`straddling_event`](Self::straddling_event)
    /// takes the event (nothing changed).
    #[inline(always)]
    fn straddling_value(&self) -> Option<(usize, usize)> {
        let pos = self.pos;
        if self.intake.skip() != Skip::No
            || self.config.utf8 == Utf8Mode::Strict
            || !self.lines.plain()
            || !matches!(self.block.data, Data::None)
            || self.cur.get(pos..pos + 2) != Some(b"\n\n".as_slice())
        {
            return None;
        }
        let len = self.line.len();
        let value = value_start(&self.line, b"data:")?;
        (len <= self.config.max_line_len && len - value <= self.config.max_event_len)
            .then_some((value, len))
    }

    /// Moves past the straddling event's LF and blank line, as the line
    /// search counts them; the stream offset where its block ends.
    #[inline(always)]
    fn take_straddling_end(&mut self) -> u64 {
        self.lines.take_lf_lines(2);
        self.pos += 2;
        self.line_open = false;
        self.cur_offset + self.pos as u64
    }

    /// [`straddling_event`](Self::straddling_event) for a borrowed frame:
    /// the same event, with the same effect, but its data stays in `line`,
    /// lent (`LineBuf::lend_text`) until the next call, and its event type
    /// in `lent_event`: no handle is split off the line buffer, and the
    /// buffer is reused as it is. Returns the frame's `retry` (the frame is
    /// `lent_event`, `line.lent()` and the last event ID); `None` (nothing
    /// changed) when `straddling_event` would not take the event, or its
    /// data is not UTF-8 (which the owned frame decodes).
    #[inline]
    fn straddling_event_ref(&mut self) -> Option<Option<u64>> {
        let (value, len) = self.straddling_value()?;
        if !self.line.lend_text(value, len) {
            return None;
        }
        // As `straddling_event`, then `dispatch_data` without the frame.
        let line_end = self.take_straddling_end();
        let (event, retry) = self.end_dispatched_block(line_end);
        self.lent_event = event;
        Some(retry)
    }

    /// Ends a block that dispatches at `line_end` (see `end_block`),
    /// taking its event type and `retry` for the frame.
    #[inline]
    fn end_dispatched_block(&mut self, line_end: u64) -> (Utf8Bytes, Option<u64>) {
        let retry = self.block.retry;
        let event = core::mem::take(&mut self.block.event);
        self.end_block(line_end, Settle::Dispatched);
        (event, retry)
    }

    /// Empties `line` if it holds a frame's data lent by
    /// [`straddling_event_ref`](Self::straddling_event_ref): the frame's
    /// borrow has ended when the parser is called again.
    #[inline(always)]
    fn release_line(&mut self) {
        if self.line.is_lent() {
            self.line.clear();
            self.lent_event = Utf8Bytes::new();
        }
    }

    /// The fast path for the common case: a whole event (`event:`, `id:`
    /// and one `data:` line, in any order, then a blank line, all ending in
    /// LF) at the start of a block inside the current chunk. It reads the
    /// lines without changing anything, then dispatches the event with the
    /// same effect as the line-by-line path ([`advance`](Self::advance)),
    /// which handles everything else: `None` (nothing changed) when the
    /// event has any other shape, spans chunks, breaks a limit, or the
    /// parser is in any state but the plain one.
    #[inline]
    fn whole_event(&mut self) -> Option<Whole> {
        let start = self.pos;
        let rest = self.cur.get(start..)?;
        if rest.len() < FAST_MIN_BYTES
            || self.fast_misses >= MAX_FAST_MISSES
            || !self.at_plain_block_start()
        {
            return None;
        }
        match scan_event(rest, self.last_known, self.config.max_line_len) {
            Some(event) if event.data_len() <= self.config.max_event_len => {
                self.fast_misses = 0;
                Some(self.commit_whole(start, &event))
            }
            _ => {
                self.fast_misses = self.fast_misses.saturating_add(1);
                None
            }
        }
    }

    /// Takes the event `scan_event` found at `cur[start..]`: the parser's
    /// state moves past it as the line path would leave it.
    fn commit_whole(&mut self, start: usize, e: &WholeEvent) -> Whole {
        let block_offset = self.cur_offset + start as u64;
        let end = start + e.len;
        let line_end = self.cur_offset + end as u64;
        // What the line search would have counted: every byte, once.
        self.lines.take_lf_lines(e.len);
        self.pos = end;
        let name = match e.event {
            None => Name::None,
            Some((a, b)) => match known_name(&mut self.last_known, &self.cur[start + a..start + b])
            {
                Some(name) => Name::Known(name),
                None => Name::At(start + a, start + b),
            },
        };
        if let Some((a, b)) = e.id {
            self.id_buf = to_utf8(self.cur.slice(start + a..start + b));
            self.id_dirty = true;
        }
        let settle = match e.data {
            Some(_) => Settle::Dispatched,
            None => Settle::Ignored,
        };
        if e.comments > 0 {
            let last_end = self.cur_offset + (start + e.last_comment_end) as u64;
            self.accounts.comments(e.comments as u64, last_end);
        }
        self.settle_block(block_offset, line_end, settle);
        Whole {
            name,
            data: e.data.map(|(a, b)| (start + a, start + b)),
            block: (start, end),
        }
    }

    /// The owned frame of an event taken by `commit_whole` (with data).
    fn frame_of(&mut self, w: Whole, (data_start, data_end): (usize, usize)) -> Frame {
        let event = match w.name {
            Name::None => Utf8Bytes::new(),
            Name::Known(name) => Utf8Bytes::from_static(name),
            Name::At(a, b) => to_utf8(self.cur.slice(a..b)),
        };
        let raw = self
            .config
            .keep_raw
            .then(|| self.cur.slice(w.block.0..w.block.1));
        let (data, zero_copy) = match self.cur.utf8_range(data_start, data_end) {
            Some(data) => (data, true),
            None => (lossy(&self.cur[data_start..data_end]), false),
        };
        Frame {
            event,
            data,
            id: self.id_buf.clone(),
            retry: None,
            zero_copy,
            raw,
        }
    }

    /// The borrowed frame of an event taken by `commit_whole`: slices of the
    /// chunk, or (for text that is not UTF-8, decoded with replacements) of
    /// an owned frame held by the parser.
    fn frame_ref_of(&mut self, w: Whole, data: (usize, usize)) -> FrameRef<'_> {
        let name_ok = match w.name {
            Name::At(a, b) => self.cur.check(a, b),
            _ => true,
        };
        let data_ok = self.cur.check(data.0, data.1);
        // The second check may have moved the checked span off the first
        // range (a data line before the event line, say): both must still
        // read as text, else the owned frame is made (and checked) instead.
        let both = name_ok
            && data_ok
            && self.cur.str(data.0, data.1).is_some()
            && match w.name {
                Name::At(a, b) => self.cur.str(a, b).is_some(),
                _ => true,
            };
        if !both {
            let frame = self.frame_of(w, data);
            return FrameRef::of(self.held.insert(frame));
        }
        let event = match w.name {
            Name::None => "",
            Name::Known(name) => name,
            Name::At(a, b) => self.cur.str(a, b).unwrap_or_default(),
        };
        FrameRef {
            event,
            data: self.cur.str(data.0, data.1).unwrap_or_default(),
            id: self.id_buf.as_str(),
            retry: None,
        }
    }

    fn advance(&mut self, items: bool) -> Result<Advanced, FrameError> {
        loop {
            if self.pos >= self.cur.len() {
                match self.queue.pop_front() {
                    Some(chunk) => {
                        self.next_chunk(chunk);
                        self.pos = 0;
                        self.check_split_crlf();
                    }
                    None => {
                        if self.eof {
                            if let Some(e) = self.check_tail() {
                                return Err(e);
                            }
                        }
                        return Ok(Advanced::NeedInput);
                    }
                }
            }
            let base = self.pos;
            if self.known_event_line(base) {
                continue;
            }
            match self.lines.next_line(&self.cur[base..]) {
                Step::Replay(held) => {
                    // Held BOM bytes always stand at the start of the stream.
                    self.line_open = true;
                    self.line_offset = 0;
                    self.note_line_start(0);
                    self.line
                        .reserve_within(held.len(), self.config.max_line_len);
                    self.line.extend_from_slice(held);
                }
                Step::Partial { start } => {
                    self.pos = self.cur.len();
                    if start < self.cur.len() - base {
                        self.append_partial(base + start, self.cur.len())?;
                    }
                }
                Step::Line { start, end, next }
                    if !self.line_open && self.intake.skip() == Skip::No =>
                {
                    // The common case: a whole line inside this chunk.
                    let (start, end) = (base + start, base + end);
                    self.pos = base + next;
                    let line_end = self.cur_offset + self.pos as u64;
                    if start == end {
                        if let Some(item) = self.dispatch(line_end, items) {
                            return Ok(Advanced::Item(item));
                        }
                        if !items {
                            // A block that dispatched nothing (keep-alives):
                            // back to the caller, whose whole-event path may
                            // take the next blocks.
                            return Ok(Advanced::Boundary);
                        }
                        continue;
                    }
                    if self.common_field(start, end) {
                        continue;
                    }
                    if !items && self.cur[start] == b':' && self.config.utf8 == Utf8Mode::Replace {
                        // A comment (a keep-alive) that nobody asked to see.
                        if end - start <= self.config.max_line_len {
                            let offset = self.cur_offset + start as u64;
                            self.note_line_start(offset);
                            self.count_comment(offset, line_end);
                            continue;
                        }
                    }
                    let offset = self.cur_offset + start as u64;
                    self.note_line_start(offset);
                    let src = Src::Chunk { start, end };
                    if let Some(item) = self.process_line(src, offset, line_end, items)? {
                        return Ok(Advanced::Item(item));
                    }
                }
                Step::Line { start, end, next } => {
                    let (start, end) = (base + start, base + end);
                    self.pos = base + next;
                    let line_end = self.cur_offset + self.pos as u64;
                    // A line that began in an earlier chunk ends with this piece.
                    let open = self.line_open;
                    let appended = if open {
                        self.append_partial(start, end)
                    } else {
                        Ok(())
                    };
                    self.line_open = false;
                    if let Err(e) = appended {
                        self.intake.set_skip(Skip::Block);
                        return Err(e);
                    }
                    if self.intake.skip() != Skip::No {
                        if self.intake.skip() == Skip::Block && !open && start == end {
                            self.intake.set_skip(Skip::No);
                            self.end_block(line_end, Settle::Dropped);
                        } else {
                            self.intake.set_skip(Skip::Block);
                        }
                        continue;
                    }
                    let (src, offset) = if open {
                        (Src::Buf, self.line_offset)
                    } else {
                        let offset = self.cur_offset + start as u64;
                        self.note_line_start(offset);
                        (Src::Chunk { start, end }, offset)
                    };
                    if let Some(item) = self.process_line(src, offset, line_end, items)? {
                        return Ok(Advanced::Item(item));
                    }
                }
            }
        }
    }

    /// The shortcut for the most common line of all: `event: <name>` LF
    /// where the name is the last known event name, whole at `cur[base..]`.
    /// Takes it without a line search, with the effect that
    /// [`common_field`](Self::common_field) would have; `false` (nothing
    /// changed) for anything else.
    #[inline]
    fn known_event_line(&mut self, base: usize) -> bool {
        // The line-state checks first: mid-line (small reads) they fail at once.
        if self.line_open || self.intake.skip() != Skip::No {
            return false;
        }
        let rest = self.cur.get(base..).unwrap_or_default();
        let Some(len) = repeated_event_line(rest, self.last_known) else {
            return false;
        };
        if len > self.config.max_line_len
            || self.config.utf8 == Utf8Mode::Strict
            || !self.lines.take_lf_line(len)
        {
            return false;
        }
        self.pos = base + len + 1;
        self.note_line_start(self.cur_offset + base as u64);
        self.block.fields = true;
        self.block.event = Utf8Bytes::from_static(self.last_known);
        true
    }

    /// Handles the lines that make up almost every event, `data:` (the first
    /// of its block) and `event:`, when they lie whole in `cur[start..end]`;
    /// `false` leaves the line to [`process_line`](Self::process_line), which
    /// handles everything (this is only a shortcut with the same effect).
    #[inline]
    fn common_field(&mut self, start: usize, end: usize) -> bool {
        let line = &self.cur[start..end];
        if line.len() > self.config.max_line_len || self.config.utf8 == Utf8Mode::Strict {
            return false;
        }
        let value_start = |name_len: usize| {
            if line.get(name_len) == Some(&b' ') {
                name_len + 1
            } else {
                name_len
            }
        };
        if line.starts_with(b"data:") && matches!(self.block.data, Data::None) {
            let value_start = start + value_start(5);
            if end - value_start > self.config.max_event_len {
                return false;
            }
            self.note_line_start(self.cur_offset + start as u64);
            self.block.fields = true;
            self.intake.set_data_len(end - value_start);
            self.block.data = Data::One {
                value: Err(self.cur.slice(value_start..end)),
                zero_copy: true,
            };
            true
        } else if line.starts_with(b"event:") {
            let value_start = start + value_start(6);
            self.note_line_start(self.cur_offset + start as u64);
            self.block.fields = true;
            self.block.event = match known_name(&mut self.last_known, &self.cur[value_start..end]) {
                Some(name) => Utf8Bytes::from_static(name),
                None => to_utf8(self.cur.slice(value_start..end)),
            };
            true
        } else {
            false
        }
    }

    /// Adds `cur[start..end]` to the line that spans chunks.
    fn append_partial(&mut self, start: usize, end: usize) -> Result<(), FrameError> {
        debug_assert!(!self.line.is_lent(), "a lent line must be released first");
        if !self.line_open {
            self.line_open = true;
            self.line_offset = self.cur_offset + start as u64;
            self.note_line_start(self.line_offset);
            if self.line.is_empty() {
                // The last gathered line was frozen into a frame, leaving
                // this buffer at the end of their shared allocation. Once
                // that frame is gone, start the new line at the front of the
                // allocation (nothing to copy: it is empty), or it would be
                // moved there once it outgrew the tail, a copy of most of
                // every long line. Asking for one byte more than the tail
                // holds is what makes `try_reclaim` go back to the front.
                self.line.reclaim_front();
            }
        }
        if self.intake.skip() != Skip::No {
            return Ok(());
        }
        let n = end - start;
        if self.line.len() + n <= self.config.max_line_len
            && self.line.capacity() - self.line.len() >= n
        {
            // The common case in small reads: room in the buffer already.
            self.line.extend_from_slice(&self.cur[start..end]);
            return Ok(());
        }
        if self.line.len() + n > self.config.max_line_len {
            self.line.clear();
            self.drop_block(Skip::Line);
            return Err(FrameError::new(
                FrameErrorKind::LineTooLong {
                    limit: self.config.max_line_len,
                },
                self.line_offset,
            ));
        }
        self.line
            .reserve_within(end - start, self.config.max_line_len);
        self.line.extend_from_slice(&self.cur[start..end]);
        Ok(())
    }

    /// A line starts at stream offset `offset`: if it is the block's first,
    /// the block starts there too (after any BOM or LF the splitter skipped).
    #[inline]
    fn note_line_start(&mut self, offset: u64) {
        if !self.block.started {
            self.block.started = true;
            self.block.offset = offset;
        }
    }

    /// Processes one complete line (not in skip mode).
    fn process_line(
        &mut self,
        src: Src,
        offset: u64,
        line_end: u64,
        items: bool,
    ) -> Result<Option<Item>, FrameError> {
        let line: &[u8] = match src {
            Src::Chunk { start, end } => &self.cur[start..end],
            Src::Buf => &self.line,
        };
        if line.len() > self.config.max_line_len {
            self.line.clear();
            self.drop_block(Skip::Block);
            return Err(FrameError::new(
                FrameErrorKind::LineTooLong {
                    limit: self.config.max_line_len,
                },
                offset,
            ));
        }
        if self.config.utf8 == Utf8Mode::Strict {
            if let Err(e) = simdutf8::compat::from_utf8(line) {
                let at = offset + e.valid_up_to() as u64;
                self.line.clear();
                self.drop_block(Skip::Block);
                return Err(FrameError::new(FrameErrorKind::InvalidUtf8, at));
            }
        }
        if line.is_empty() {
            return Ok(self.dispatch(line_end, items));
        }
        let (field, value_start) = classify(line);
        let len = line.len();
        let item = match field {
            Field::Comment => {
                self.count_comment(offset, line_end);
                items.then(|| Item::Comment(self.take_value(src, 1, len)))
            }
            Field::Data => {
                let value_len = len - value_start;
                let new_len = match self.block.data {
                    Data::None => value_len,
                    _ => self.intake.data_len() + 1 + value_len,
                };
                if new_len > self.config.max_event_len {
                    self.line.clear();
                    self.drop_block(Skip::Block);
                    return Err(FrameError::new(
                        FrameErrorKind::EventTooLarge {
                            limit: self.config.max_event_len,
                        },
                        self.block.offset,
                    ));
                }
                self.intake.set_data_len(new_len);
                match core::mem::replace(&mut self.block.data, Data::Joined) {
                    Data::None => {
                        let zero_copy = matches!(src, Src::Chunk { .. });
                        let value = self.take_text(src, value_start, len);
                        self.block.data = Data::One { value, zero_copy };
                    }
                    Data::One { value, .. } => {
                        self.data_buf.clear();
                        reserve_within(&mut self.data_buf, new_len, self.config.max_event_len);
                        let value = match &value {
                            Ok(text) => text.as_bytes(),
                            Err(bytes) => bytes,
                        };
                        self.data_buf.extend_from_slice(value);
                        self.data_buf.extend_from_slice(b"\n");
                        self.data_buf.extend_from_slice(&line[value_start..]);
                    }
                    Data::Joined => {
                        reserve_within(
                            &mut self.data_buf,
                            1 + value_len,
                            self.config.max_event_len,
                        );
                        self.data_buf.extend_from_slice(b"\n");
                        self.data_buf.extend_from_slice(&line[value_start..]);
                    }
                }
                None
            }
            Field::Event => {
                self.block.event = match known_name(&mut self.last_known, &line[value_start..]) {
                    Some(name) => Utf8Bytes::from_static(name),
                    None => text_of(self.take_text(src, value_start, len)),
                };
                None
            }
            Field::Id => {
                if memchr::memchr(0, &line[value_start..]).is_none() {
                    self.id_buf = text_of(self.take_text(src, value_start, len));
                    self.block.id_in_block = true;
                    self.id_dirty = true;
                }
                None
            }
            Field::Retry => match parse_retry(&line[value_start..]) {
                Some(ms) => {
                    self.reconnection = Some(ms);
                    self.block.retry = Some(ms);
                    items.then_some(Item::Retry(ms))
                }
                None => None,
            },
            Field::Other => None,
        };
        if !matches!(field, Field::Comment) {
            self.block.fields = true;
        }
        // Whatever of a gathered line was not taken as a value is done with.
        self.line.clear();
        Ok(item)
    }

    /// The bytes `start..end` of the line as a handle: a slice of the chunk,
    /// or of the frozen line buffer (which leaves `line` empty).
    fn take_value(&mut self, src: Src, start: usize, end: usize) -> Bytes {
        match self.take_text(src, start, end) {
            Ok(text) => text.into_bytes(),
            Err(bytes) => bytes,
        }
    }

    /// [`take_value`](Self::take_value), as text when a gathered line was
    /// seen to be ASCII (`LineBuf::take_text`), else as bytes to check.
    fn take_text(&mut self, src: Src, start: usize, end: usize) -> Result<Utf8Bytes, Bytes> {
        match src {
            Src::Chunk { start: s, .. } => Err(self.cur.slice(s + start..s + end)),
            Src::Buf => self.line.take_text(start, end),
        }
    }

    /// A blank line: commits the last event ID and dispatches the block.
    fn dispatch(&mut self, line_end: u64, items: bool) -> Option<Item> {
        let (value, zero_copy) = match core::mem::replace(&mut self.block.data, Data::None) {
            Data::None => {
                let id_in_block = self.block.id_in_block;
                self.end_block(line_end, Settle::Ignored);
                return (items && id_in_block)
                    .then(|| Item::LastEventId(self.last_event_id.as_bytes().clone()));
            }
            Data::One { value, zero_copy } => (value, zero_copy),
            Data::Joined => (Err(self.data_buf.split().freeze()), false),
        };
        Some(Item::Frame(self.dispatch_data(line_end, value, zero_copy)))
    }

    /// [`dispatch`](Self::dispatch) of a block whose data is `value` (text
    /// already, or bytes to check): the frame, with the block ended at
    /// `line_end`.
    fn dispatch_data(
        &mut self,
        line_end: u64,
        value: Result<Utf8Bytes, Bytes>,
        zero_copy: bool,
    ) -> Frame {
        // Strict mode checked every line already; either way the check is
        // made here once, for the chunk from this data on (see `CheckedChunk`).
        let (data, zero_copy) = match value.or_else(|value| self.cur.utf8(value)) {
            Ok(data) => (data, zero_copy),
            Err(data) => (lossy(&data), false),
        };
        let raw = if !self.config.keep_raw || self.block.offset < self.cur_offset {
            None
        } else {
            // The whole block lies in this chunk.
            let from = (self.block.offset - self.cur_offset) as usize;
            Some(self.cur.slice(from..(line_end - self.cur_offset) as usize))
        };
        let (event, retry) = self.end_dispatched_block(line_end);
        Frame {
            event,
            data,
            id: self.id_buf.clone(),
            retry,
            zero_copy,
            raw,
        }
    }

    /// A new chunk became current, after the last one was parsed whole.
    #[inline]
    fn check_split_crlf(&mut self) {
        if self.lines.after_cr() && self.cur.first() == Some(&b'\n') {
            self.split_crlf();
        }
    }

    /// The LF that starts this chunk completes the CR that ended the last
    /// one: it belongs to that line, so it is counted as the line was.
    #[cold]
    fn split_crlf(&mut self) {
        self.accounts.late_lf(self.cur_offset);
    }

    /// A comment line `offset..line_end` (terminator included) of the
    /// current block.
    #[inline]
    fn count_comment(&mut self, offset: u64, line_end: u64) {
        self.accounts.comments(line_end - offset, line_end);
    }

    /// The one place where a block ends, whichever path took it: the block
    /// that starts at stream offset `start` ends at `line_end` (past its
    /// blank line). Its bytes are counted as `settle` says (its comment
    /// lines, noted by `count_comment` or `Accounts::comments`, as
    /// comments), the last event ID buffer is committed (also for blocks
    /// that dispatch nothing), a dispatched block becomes the one
    /// `frame_offset` reports, and the next block starts at `line_end`
    /// until its first line says otherwise. It does not empty the block's
    /// fields: the line path does that in [`end_block`](Self::end_block);
    /// the whole-event paths never fill them.
    #[inline(always)]
    fn settle_block(&mut self, start: u64, line_end: u64, settle: Settle) {
        if self.id_dirty {
            self.last_event_id = self.id_buf.clone();
            self.id_dirty = false;
        }
        self.accounts.end_block(line_end, settle);
        if settle == Settle::Dispatched {
            self.frame_offset = start;
        }
        // Where the next block starts is known when its first line does.
        self.block.started = false;
        self.block.offset = line_end;
    }

    /// Ends the current block of the line path at a blank line
    /// ([`settle_block`](Self::settle_block)), emptying its fields.
    fn end_block(&mut self, line_end: u64, settle: Settle) {
        self.settle_block(self.block.offset, line_end, settle);
        self.clear_block();
        self.block.fields = false;
    }

    fn clear_block(&mut self) {
        self.block.clear_fields();
        self.intake.set_data_len(0);
    }

    /// Drops the current block after an error and skips to its end.
    fn drop_block(&mut self, skip: Skip) {
        self.clear_block();
        // Its comment lines are dropped with it.
        self.accounts.drop_comments();
        self.data_buf.clear();
        self.intake.set_skip(skip);
    }

    /// Whether a truncated tail is the whole open block.
    fn tail_is_block(&self) -> bool {
        self.block.fields || self.intake.skip() != Skip::No
    }

    /// At end of stream: where the truncated tail starts, if there is one.
    fn tail_start(&self) -> Option<u64> {
        if self.tail_is_block() {
            Some(self.block.offset)
        } else if !self.lines.held().is_empty() {
            Some(0)
        } else if self.line_open {
            Some(self.line_offset)
        } else {
            None
        }
    }

    /// At end of stream, once: the discarded tail, if any.
    fn check_tail(&mut self) -> Option<FrameError> {
        if self.tail_checked {
            return None;
        }
        self.tail_checked = true;
        let start = self.tail_start()?;
        let end = self.cur_offset + self.cur.len() as u64;
        Some(FrameError::new(
            FrameErrorKind::TruncatedTail { len: end - start },
            start,
        ))
    }
}

/// The fewest bytes left in a chunk for the whole-event path to be tried.
const FAST_MIN_BYTES: usize = 2;

/// After this many events in a row that the whole-event path does not
/// handle (a stream with comments or `retry` in every event, say), it stops
/// trying, so that such streams do not pay for a second scan.
const MAX_FAST_MISSES: u8 = 8;

/// What one call of `Parser::advance` came to.
enum Advanced {
    Item(Item),
    /// A block ended that dispatched nothing (only when not reporting
    /// items): the caller may look for whole events again.
    Boundary,
    /// All input fed so far is parsed.
    NeedInput,
}

/// The event name of a whole event: none, a known name, or a range of the
/// chunk.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Name {
    None,
    Known(&'static str),
    At(usize, usize),
}

/// What `Parser::quick_event` found.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Quick {
    /// The event, taken, without an event type: where its data starts (see
    /// [`Parser::quick_whole`]).
    Plain(usize),
    /// The event, taken, of the last known event type.
    Named(usize),
    /// Its shape, but its data is not UTF-8 (borrowed frames only): not
    /// taken, nothing changed; the general path decodes it with
    /// replacements.
    NotText,
    /// Another shape of block, or the parser is not in the plain state,
    /// or (borrowed frames) not looked at because the last call's frame is
    /// still held or lent: nothing changed.
    Other,
    /// Its shape, but its data line does not end in this chunk.
    Incomplete,
    /// A block that starts with a data line which does not end in this
    /// chunk: the rest of the chunk, searched and found to hold no CR or
    /// LF, is that line's first part (see [`Parser::open_line_rest`]).
    OpenLine,
}

/// A whole event taken by `commit_whole`: where its name, data and block
/// lie in the chunk (no data: a block of comments, which dispatches
/// nothing).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Whole {
    name: Name,
    data: Option<(usize, usize)>,
    block: (usize, usize),
}

/// A whole event at the start of a chunk's rest, as found by `scan_event`:
/// ranges of values in it, and its length through the blank line.
struct WholeEvent {
    event: Option<(usize, usize)>,
    id: Option<(usize, usize)>,
    /// `None` for a block of comments only.
    data: Option<(usize, usize)>,
    /// Bytes of the comment lines, terminators included, and where the last
    /// one ends.
    comments: usize,
    last_comment_end: usize,
    len: usize,
}

impl WholeEvent {
    fn data_len(&self) -> usize {
        self.data.map_or(0, |(a, b)| b - a)
    }
}

/// Reads one event at the start of `b` without changing anything: lines
/// ending in LF, each an `event:`, `id:` (without NUL), the block's only
/// `data:` line or a comment, none longer than `max_line`, then a blank
/// line (LF); or a block of comments only (a keep-alive). `None` for
/// anything else. The line that repeats the last known event
/// name (`event: <last>` LF) is matched without a search.
#[inline]
fn scan_event(b: &[u8], last: &str, max_line: usize) -> Option<WholeEvent> {
    let mut e = WholeEvent {
        event: None,
        id: None,
        data: None,
        comments: 0,
        last_comment_end: 0,
        len: 0,
    };
    let mut at = 0;
    loop {
        let line = b.get(at..)?;
        match line.first()? {
            b'\n' => {
                e.len = at + 1;
                // A block with fields but no data is left to the line path.
                let fields = e.event.is_some() || e.id.is_some();
                return (e.data.is_some() || !fields).then_some(e);
            }
            b':' => {
                let end = short_line_end(line)?;
                if end > max_line {
                    return None;
                }
                at += end + 1;
                e.comments += end + 1;
                e.last_comment_end = at;
            }
            b'e' => {
                let end = match repeated_event_line(line, last) {
                    Some(end) => end,
                    None => short_line_end(line)?,
                };
                let value = value_start(line, b"event:")?;
                if end > max_line {
                    return None;
                }
                e.event = Some((at + value, at + end));
                at += end + 1;
            }
            b'd' => {
                let end = line_end(line)?;
                let value = value_start(line, b"data:")?;
                if e.data.is_some() || end > max_line {
                    return None;
                }
                e.data = Some((at + value, at + end));
                at += end + 1;
            }
            b'i' => {
                let end = short_line_end(line)?;
                let value = value_start(line, b"id:")?;
                let id = line.get(value..end)?;
                if end > max_line || memchr::memchr(0, id).is_some() {
                    return None;
                }
                e.id = Some((at + value, at + end));
                at += end + 1;
            }
            _ => return None,
        }
    }
}

/// The length (without its LF) of the line at the start of `b` when it is
/// `event: <last>` LF, the last known event name repeated (the most common
/// line of all), matched without a search; `None` otherwise.
#[inline]
fn repeated_event_line(b: &[u8], last: &str) -> Option<usize> {
    let len = 7 + last.len();
    (!last.is_empty()
        && b.get(len) == Some(&b'\n')
        && b.get(..7) == Some(b"event: ")
        && b.get(7..len) == Some(last.as_bytes()))
    .then_some(len)
}

/// Where the line at the start of `b` ends, if it ends in LF within `b`
/// (`None` for a CR, which the line-by-line path handles, or no end).
#[inline]
fn line_end(b: &[u8]) -> Option<usize> {
    let i = memchr::memchr2(b'\n', b'\r', b)?;
    (b[i] == b'\n').then_some(i)
}

/// [`line_end`] for lines that are usually short (comments, names, ids):
/// their first bytes are searched inline.
#[inline]
fn short_line_end(b: &[u8]) -> Option<usize> {
    let i = crate::framing::find_line_end(b)?;
    (b[i] == b'\n').then_some(i)
}

/// Where the value of a line that starts with `name` (which ends in `:`)
/// starts: after the colon and one optional space.
#[inline]
fn value_start(line: &[u8], name: &[u8]) -> Option<usize> {
    if !line.starts_with(name) {
        return None;
    }
    Some(if line.get(name.len()) == Some(&b' ') {
        name.len() + 1
    } else {
        name.len()
    })
}

/// The field a non-empty line sets, and where its value starts (after the
/// first colon and one optional space).
#[inline]
fn classify(line: &[u8]) -> (Field, usize) {
    if line[0] == b':' {
        return (Field::Comment, 1);
    }
    let (name, value_start) = match memchr::memchr(b':', line) {
        Some(i) => (
            &line[..i],
            if line.get(i + 1) == Some(&b' ') {
                i + 2
            } else {
                i + 1
            },
        ),
        None => (line, line.len()),
    };
    let field = match name {
        b"data" => Field::Data,
        b"event" => Field::Event,
        b"id" => Field::Id,
        b"retry" => Field::Retry,
        _ => Field::Other,
    };
    (field, value_start)
}

/// The value of a `retry` field: ASCII digits only, at least one. The
/// specification's integer is unbounded; this one saturates at `u64::MAX`.
fn parse_retry(digits: &[u8]) -> Option<u64> {
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(digits.iter().fold(0u64, |n, d| {
        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    }))
}

/// The static copy of a known event name (see `names`), checking the last one
/// found first (`last`): streams repeat a few names thousands of times.
#[inline]
fn known_name(last: &mut &'static str, name: &[u8]) -> Option<&'static str> {
    if name == last.as_bytes() {
        return Some(*last);
    }
    let known = super::names::known(name)?;
    *last = known;
    Some(known)
}

/// `bytes` if it is UTF-8, else its decoding with U+FFFD replacements.
fn to_utf8(bytes: Bytes) -> Utf8Bytes {
    Utf8Bytes::from_bytes(bytes).unwrap_or_else(|bytes| lossy(&bytes))
}

/// A value [`Parser::take_text`] took: the text it is, or its bytes
/// decoded as [`to_utf8`] does.
fn text_of(value: Result<Utf8Bytes, Bytes>) -> Utf8Bytes {
    value.unwrap_or_else(to_utf8)
}

#[cold]
fn lossy(bytes: &[u8]) -> Utf8Bytes {
    Utf8Bytes::from_string(String::from_utf8_lossy(bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    /// A stream of `n` short events (with an `id` line each when `ids`), in
    /// 16-byte reads, and the data each event carries.
    fn tiny_reads(n: usize, ids: bool) -> (Vec<Bytes>, Vec<String>) {
        let mut stream = String::new();
        let mut data = Vec::new();
        for i in 0..n {
            let value = format!("{{\"i\":{i}}}");
            if ids {
                stream += &format!("id: {i}\n");
            }
            stream += &format!("event: delta\ndata: {value}\n\n");
            data.push(value);
        }
        let bytes = Bytes::from(stream);
        let reads = (0..bytes.len())
            .step_by(16)
            .map(|at| bytes.slice(at..(at + 16).min(bytes.len())))
            .collect();
        (reads, data)
    }

    /// Feeds `reads` to a new parser, giving each owned frame to `each` as
    /// it comes; the parser after the last read.
    fn owned_frames(reads: Vec<Bytes>, mut each: impl FnMut(Frame)) -> Parser {
        let mut p = Parser::new();
        for read in reads {
            p.feed(read);
            while let Some(f) = p.next_frame().unwrap() {
                each(f);
            }
        }
        p
    }

    /// Borrowed frames in tiny reads: each held block's buffer becomes the
    /// current chunk and comes back for the bytes after the next one
    /// (`hand_over_block`), block after block, and every frame is right.
    #[test]
    fn held_blocks_are_swapped_while_nothing_keeps_them() {
        let (reads, want) = tiny_reads(300, false);
        let mut p = Parser::new();
        let (mut got, mut swapped) = (Vec::new(), 0);
        // Where the blocks lie: at the start of one of two buffers, which
        // take turns (a buffer dropped instead of given back, or frozen as
        // a plain vector, would show as a new address).
        let mut buffers = Vec::new();
        for read in reads {
            p.feed(read);
            if p.cur_is_block {
                swapped += 1;
                if !buffers.contains(&p.cur.as_ptr()) {
                    buffers.push(p.cur.as_ptr());
                }
            }
            while let Some(f) = p.next_frame_ref().unwrap() {
                got.push(f.data.to_string());
            }
        }
        assert_eq!(got, want);
        assert!(p.swap_blocks, "no buffer was kept");
        assert!(swapped > 250, "blocks swapped after {swapped} reads");
        assert_eq!(buffers.len(), 2, "blocks lay in {} buffers", buffers.len());
    }

    /// A borrowed frame whose data is lent from the line buffer (an event
    /// that straddles two reads), then the first part of a line that spans
    /// reads again: the lent line is emptied before the new line is
    /// gathered in the same buffer, else the old line would lead the new one.
    #[test]
    fn a_lent_line_is_released_before_the_buffer_gathers_again() {
        let (a, b) = ("a".repeat(300), "b".repeat(300));
        let reads = [
            format!("data: {a}"),
            format!("a\n\ndata: {b}"),
            String::from("b\n\ndata: c\n\n"),
        ];
        let mut p = Parser::new();
        let (mut got, mut lent) = (Vec::new(), 0);
        for read in reads {
            p.feed(Bytes::from(read));
            while let Some(f) = p.next_frame_ref().unwrap() {
                got.push(f.data.to_string());
                lent += usize::from(p.line.is_lent());
            }
        }
        assert_eq!(got, [format!("{a}a"), format!("{b}b"), "c".to_string()]);
        // (The quick path that takes `c` leaves the last line lent.)
        assert!(
            lent >= 2,
            "the long events were not lent from the line buffer"
        );
    }

    /// Owned frames kept past the next read keep their block's buffer: it
    /// cannot come back, so blocks are split off the held buffer from then
    /// on, and every kept frame still reads its own bytes. The same for an
    /// `id` (the last event ID shares the block).
    #[test]
    fn a_kept_frame_or_id_stops_the_swap_and_keeps_its_bytes() {
        for ids in [false, true] {
            let (reads, want) = tiny_reads(300, ids);
            let mut kept = Vec::new();
            let p = owned_frames(reads, |f| kept.push(f));
            let got: Vec<&str> = kept.iter().map(Frame::data).collect();
            assert_eq!(got, want, "ids: {ids}");
            assert!(!p.swap_blocks, "ids: {ids}: a kept buffer came back");
            if ids {
                assert_eq!(p.last_event_id(), "299");
                assert_eq!(kept[7].id(), "7");
            }
        }
        // Frames dropped before the next read: the swap goes on.
        let (reads, want) = tiny_reads(300, false);
        let mut got = Vec::new();
        let p = owned_frames(reads, |f| got.push(f.data().to_string()));
        assert_eq!(got, want);
        assert!(p.swap_blocks);
    }
}
