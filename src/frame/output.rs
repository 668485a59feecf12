//! `Frame`, one dispatched SSE event, and `Item`, everything the parser reports.

use alloc::string::String;
use bytes::Bytes;
use core::fmt;

use super::text::Utf8Bytes;

/// One dispatched Server-Sent Event.
///
/// A frame owns its bytes through [`Bytes`] handles, so it is `'static`,
/// `Send + Sync` and cheap to clone (reference counts, no copies). Its text
/// is always valid UTF-8: the parser decodes invalid sequences to U+FFFD (or
/// reports them, in strict mode) before it builds a frame.
///
/// When the event's data is a single `data:` line that lay inside one input
/// chunk, [`data_bytes`](Self::data_bytes) is a slice of that chunk and
/// nothing was copied ([`is_zero_copy`](Self::is_zero_copy)); the one
/// exception is an event gathered from small reads, which the parser copies
/// into one buffer first (see [`Parser::feed`](crate::Parser::feed)). When the
/// whole event block lay inside one chunk, [`raw`](Self::raw) is its wire
/// bytes (if the parser is configured to keep them), for a proxy to forward
/// unchanged without encoding it again.
#[derive(Clone)]
pub struct Frame {
    pub(crate) event: Utf8Bytes,
    pub(crate) data: Utf8Bytes,
    pub(crate) id: Utf8Bytes,
    pub(crate) retry: Option<u64>,
    pub(crate) zero_copy: bool,
    /// The block's wire bytes, when kept and contiguous.
    pub(crate) raw: Option<Bytes>,
}

/// Views bytes the parser has already validated as UTF-8.
#[inline]
pub(crate) fn validated_str(bytes: &[u8]) -> &str {
    // Never falls back: every constructor of `Frame` validates its text.
    simdutf8::basic::from_utf8(bytes).unwrap_or_default()
}

impl Frame {
    /// A `message` event with this data, no id and no retry (for building
    /// streams by hand, as an encoder would).
    ///
    /// ```
    /// let f = ssekit::Frame::new("hello").with_event("greeting").with_id("7");
    /// assert_eq!((f.event(), f.data(), f.id()), ("greeting", "hello", "7"));
    /// ```
    pub fn new(data: impl Into<String>) -> Self {
        Self {
            event: Utf8Bytes::new(),
            data: Utf8Bytes::from_string(data.into()),
            id: Utf8Bytes::new(),
            retry: None,
            zero_copy: false,
            raw: None,
        }
    }

    /// This frame with another event type (`""` means `message`). Like the
    /// other `with_` methods, it drops the [`raw`](Self::raw) bytes, which
    /// no longer describe the frame.
    #[must_use]
    pub fn with_event(mut self, event: impl Into<String>) -> Self {
        self.event = Utf8Bytes::from_string(event.into());
        self.raw = None;
        self
    }

    /// This frame with another last event ID.
    #[must_use]
    pub fn with_id(mut self, id: impl Into<String>) -> Self {
        self.id = Utf8Bytes::from_string(id.into());
        self.raw = None;
        self
    }

    /// This frame with a reconnection time set in its block.
    #[must_use]
    pub fn with_retry(mut self, retry: Option<u64>) -> Self {
        self.retry = retry;
        self.raw = None;
        self
    }

    /// The event type: the last `event` field of the block, or `message`
    /// when there was none or it was empty.
    #[inline]
    pub fn event(&self) -> &str {
        if self.event.is_empty() {
            "message"
        } else {
            self.event.as_str()
        }
    }

    /// Whether the block set a non-empty event type (so [`event`](Self::event)
    /// is not the default `message`).
    #[inline]
    pub fn has_event_type(&self) -> bool {
        !self.event.is_empty()
    }

    /// The data: the block's `data` values joined with LF.
    #[inline]
    pub fn data(&self) -> &str {
        self.data.as_str()
    }

    /// The data as a `Bytes` handle (UTF-8), to pass on without copying.
    #[inline]
    pub fn data_bytes(&self) -> &Bytes {
        self.data.as_bytes()
    }

    /// Takes the data out as a `Bytes` handle (UTF-8).
    #[inline]
    pub fn into_data(self) -> Bytes {
        self.data.into_bytes()
    }

    /// The last event ID at the time this event was dispatched: the value of
    /// the most recent valid `id` field in this or any earlier block, or `""`.
    #[inline]
    pub fn id(&self) -> &str {
        self.id.as_str()
    }

    /// The reconnection time, in milliseconds, set by a valid `retry` field in
    /// this event's own block; `None` when the block had none. (Retry fields in
    /// blocks that dispatch nothing are reported as [`Item::Retry`].)
    #[inline]
    pub fn retry(&self) -> Option<u64> {
        self.retry
    }

    /// Whether [`data_bytes`](Self::data_bytes) is a slice of an input chunk,
    /// made without copying. It is when the data was a single `data:` line
    /// inside one chunk and valid UTF-8; data spanning lines or chunks is
    /// copied once.
    #[inline]
    pub fn is_zero_copy(&self) -> bool {
        self.zero_copy
    }

    /// The event's wire bytes as they were parsed, from the first line of
    /// its block through the blank line that dispatched it (terminator
    /// included), when the parser keeps them
    /// ([`ParserConfig::keep_raw`](crate::ParserConfig::keep_raw)) and the
    /// whole block lay inside one input chunk (or in small reads the parser
    /// gathered into one buffer: see [`Parser::feed`](crate::Parser::feed));
    /// `None` when it spanned chunks, when the parser does not keep them, and
    /// for frames built by hand.
    ///
    /// A proxy that forwards a frame unchanged can write these bytes instead
    /// of encoding the frame again: they are a slice of the input chunk (no
    /// copy), and parsing them gives back this frame's event type, data and
    /// `retry` (anywhere but at the very start of a stream if they begin
    /// with U+FEFF, which a reader takes there for a byte order mark; a
    /// proxy that may forward such a frame first writes a comment or blank
    /// line before it). They may hold comment lines and fields that the frame does
    /// not show (an `id`, unknown fields), exactly as received. Two things
    /// they do not carry: the last event ID when it was set by an earlier
    /// block (see [`id`](Self::id)), and the LF of a CRLF blank line whose LF
    /// arrived in the next chunk (the bytes then end in the CR, which ends
    /// the event just as well).
    ///
    /// ```
    /// use bytes::Bytes;
    /// use ssekit::{Parser, ParserConfig};
    ///
    /// let mut parser = Parser::with_config(ParserConfig::DEFAULT.with_raw(true));
    /// parser.feed(Bytes::from_static(b": hi\nevent: note\ndata: x\n\ndata: y"));
    /// let frame = parser.next_frame()?.unwrap();
    /// assert_eq!(frame.raw().unwrap().as_ref(), b": hi\nevent: note\ndata: x\n\n");
    /// parser.feed(Bytes::from_static(b"\n\n")); // this block spans two chunks
    /// assert_eq!(parser.next_frame()?.unwrap().raw(), None);
    /// # Ok::<(), ssekit::FrameError>(())
    /// ```
    #[inline]
    pub fn raw(&self) -> Option<&Bytes> {
        self.raw.as_ref()
    }
}

impl PartialEq for Frame {
    /// Frames are equal when their event type, data, id and retry are;
    /// how the data was stored, and whether the raw bytes are known, does
    /// not matter.
    fn eq(&self, other: &Self) -> bool {
        self.event() == other.event()
            && self.data == other.data
            && self.id == other.id
            && self.retry == other.retry
    }
}

impl Eq for Frame {}

impl fmt::Debug for Frame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Frame")
            .field("event", &self.event())
            .field("data", &self.data())
            .field("id", &self.id())
            .field("retry", &self.retry)
            .finish()
    }
}

/// A dispatched event borrowed from the parser, from
/// [`Parser::next_frame_ref`](crate::Parser::next_frame_ref): the same
/// event type, data, id and retry as the [`Frame`] that
/// [`next_frame`](crate::Parser::next_frame) would give, as `&str` slices
/// of the input (or of the parser's buffers) with no reference counts and
/// no copies. Valid until the parser is used again; turn it into a
/// [`Frame`] with [`to_frame`](Self::to_frame) to keep it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct FrameRef<'p> {
    pub(crate) event: &'p str,
    pub(crate) data: &'p str,
    pub(crate) id: &'p str,
    pub(crate) retry: Option<u64>,
}

impl<'p> FrameRef<'p> {
    /// The event type: the last `event` field of the block, or `message`.
    #[inline]
    pub fn event(&self) -> &'p str {
        if self.event.is_empty() {
            "message"
        } else {
            self.event
        }
    }

    /// Whether the block set a non-empty event type.
    #[inline]
    pub fn has_event_type(&self) -> bool {
        !self.event.is_empty()
    }

    /// The data: the block's `data` values joined with LF.
    #[inline]
    pub fn data(&self) -> &'p str {
        self.data
    }

    /// The last event ID at the time this event was dispatched.
    #[inline]
    pub fn id(&self) -> &'p str {
        self.id
    }

    /// The reconnection time set by a `retry` field of this event's block.
    #[inline]
    pub fn retry(&self) -> Option<u64> {
        self.retry
    }

    /// An owned [`Frame`] with the same event type, data, id and retry
    /// (copied).
    pub fn to_frame(&self) -> Frame {
        Frame::new(self.data)
            .with_event(self.event)
            .with_id(self.id)
            .with_retry(self.retry)
    }

    pub(crate) fn of(frame: &'p Frame) -> Self {
        Self {
            event: frame.event.as_str(),
            data: frame.data.as_str(),
            id: frame.id.as_str(),
            retry: frame.retry,
        }
    }
}

impl fmt::Debug for FrameRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FrameRef")
            .field("event", &self.event())
            .field("data", &self.data)
            .field("id", &self.id)
            .field("retry", &self.retry)
            .finish()
    }
}

impl PartialEq<Frame> for FrameRef<'_> {
    /// Equal when the event type, data, id and retry are.
    fn eq(&self, other: &Frame) -> bool {
        self.event() == other.event()
            && self.data == other.data()
            && self.id == other.id()
            && self.retry == other.retry
    }
}

/// Everything the parser reports, in stream order: see
/// [`Parser::next_item`](crate::Parser::next_item).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Item {
    /// A dispatched event.
    Frame(Frame),
    /// A valid `retry` field set the reconnection time (milliseconds), in
    /// whatever block it stood, including blocks that dispatch nothing.
    Retry(u64),
    /// A blank line ended a block that dispatched nothing but had set the last
    /// event ID, which is now committed (a stream of bare `id:` blocks tells a
    /// reconnecting client where it is).
    LastEventId(Bytes),
    /// A comment line; the bytes after the colon (raw, not decoded).
    Comment(Bytes),
}
