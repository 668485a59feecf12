//! Parser limits and options.

/// How the parser treats bytes that are not valid UTF-8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Utf8Mode {
    /// Decode as the WHATWG algorithm does: each invalid sequence becomes
    /// U+FFFD REPLACEMENT CHARACTER and parsing goes on.
    #[default]
    Replace,
    /// Report [`FrameErrorKind::InvalidUtf8`](crate::FrameErrorKind::InvalidUtf8)
    /// with the stream offset of the first bad byte, and drop the event it is in.
    Strict,
}

/// Limits and options of a [`Parser`](crate::Parser).
///
/// Every buffer the parser fills from input is bounded by one of these
/// limits: the buffer for a line that spans chunks never grows past
/// `max_line_len` bytes of capacity, and the buffer for an event's joined
/// data lines never past `max_event_len`. A hostile or broken stream thus
/// costs at most `max_line_len + max_event_len` bytes of parser memory, plus
/// the chunks fed and not yet parsed.
///
/// # Example
///
/// ```
/// use ssekit::{Parser, ParserConfig};
///
/// let parser = Parser::with_config(
///     ParserConfig::default().with_max_line_len(1 << 20).with_max_event_len(4 << 20),
/// );
/// # let _ = parser;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParserConfig {
    /// Longest line accepted, in bytes, without its terminator. Default 16 MiB
    /// (recorded streams carry single lines of 600 KB and base64 images of
    /// several MB). A longer line is reported as
    /// [`LineTooLong`](crate::FrameErrorKind::LineTooLong) and its event is dropped.
    pub max_line_len: usize,
    /// Most `data` bytes one event may accumulate (the joined `data` lines).
    /// Default 32 MiB. Exceeding it is reported as
    /// [`EventTooLarge`](crate::FrameErrorKind::EventTooLarge) and the event is dropped.
    pub max_event_len: usize,
    /// What to do with invalid UTF-8. Default [`Utf8Mode::Replace`], as the
    /// specification requires.
    pub utf8: Utf8Mode,
    /// Whether frames keep their wire bytes ([`Frame::raw`](crate::Frame::raw)),
    /// for proxies that forward frames unchanged. Default `false`: keeping
    /// them costs a reference count per frame (no copy, no allocation).
    pub keep_raw: bool,
}

impl ParserConfig {
    /// The default limits: 16 MiB lines, 32 MiB events, UTF-8 replacement,
    /// no raw bytes kept.
    pub const DEFAULT: Self = Self {
        max_line_len: 16 << 20,
        max_event_len: 32 << 20,
        utf8: Utf8Mode::Replace,
        keep_raw: false,
    };

    /// This configuration with another [`max_line_len`](Self::max_line_len).
    ///
    /// ```
    /// use ssekit::{ParserConfig, Utf8Mode};
    ///
    /// let config = ParserConfig::DEFAULT
    ///     .with_max_line_len(1 << 20)
    ///     .with_max_event_len(4 << 20)
    ///     .with_utf8(Utf8Mode::Strict);
    /// assert_eq!(config.max_event_len, 4 << 20);
    /// ```
    #[must_use]
    pub const fn with_max_line_len(mut self, bytes: usize) -> Self {
        self.max_line_len = bytes;
        self
    }

    /// This configuration with another [`max_event_len`](Self::max_event_len).
    #[must_use]
    pub const fn with_max_event_len(mut self, bytes: usize) -> Self {
        self.max_event_len = bytes;
        self
    }

    /// This configuration with another [`utf8`](Self::utf8) mode.
    #[must_use]
    pub const fn with_utf8(mut self, mode: Utf8Mode) -> Self {
        self.utf8 = mode;
        self
    }

    /// This configuration with frames keeping their wire bytes, or not
    /// (see [`keep_raw`](Self::keep_raw)).
    #[must_use]
    pub const fn with_raw(mut self, keep: bool) -> Self {
        self.keep_raw = keep;
        self
    }
}

impl Default for ParserConfig {
    fn default() -> Self {
        Self::DEFAULT
    }
}
