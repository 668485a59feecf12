//! The error type of the framing layers.

use core::fmt;

/// What went wrong, without where. See [`FrameError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FrameErrorKind {
    /// A line was longer than [`ParserConfig::max_line_len`](crate::ParserConfig::max_line_len).
    /// The event it was part of is dropped; parsing resumes after the next blank line.
    LineTooLong {
        /// The configured limit, in bytes.
        limit: usize,
    },
    /// An event's data grew past [`ParserConfig::max_event_len`](crate::ParserConfig::max_event_len).
    /// The event is dropped; parsing resumes after the next blank line.
    EventTooLarge {
        /// The configured limit, in bytes.
        limit: usize,
    },
    /// Invalid UTF-8 in [`Utf8Mode::Strict`](crate::Utf8Mode::Strict). The event it was part of
    /// is dropped; parsing resumes after the next blank line.
    InvalidUtf8,
    /// The stream ended inside an event: the bytes from the offset to the end
    /// of the stream were held and are discarded, as the specification says.
    TruncatedTail {
        /// How many bytes were discarded.
        len: u64,
    },
}

/// An error of the SSE framing layers: a [`FrameErrorKind`] and the byte
/// offset in the stream where the offending line, event or tail begins.
///
/// None of these errors ends the stream: the parser stays usable and goes on
/// with the next event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameError {
    kind: FrameErrorKind,
    offset: u64,
}

impl FrameError {
    #[cold]
    #[inline(never)]
    pub(crate) fn new(kind: FrameErrorKind, offset: u64) -> Self {
        Self { kind, offset }
    }

    /// What went wrong.
    pub fn kind(&self) -> FrameErrorKind {
        self.kind
    }

    /// Byte offset in the stream (counted from its first byte, a byte order
    /// mark included) where the offending line, event or truncated tail
    /// begins; for [`InvalidUtf8`](FrameErrorKind::InvalidUtf8), the first invalid byte.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Whether this error reports a configured limit being exceeded.
    pub fn is_limit(&self) -> bool {
        matches!(
            self.kind,
            FrameErrorKind::LineTooLong { .. } | FrameErrorKind::EventTooLarge { .. }
        )
    }
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            FrameErrorKind::LineTooLong { limit } => write!(f, "line longer than {limit} bytes")?,
            FrameErrorKind::EventTooLarge { limit } => {
                write!(f, "event data larger than {limit} bytes")?
            }
            FrameErrorKind::InvalidUtf8 => f.write_str("invalid utf-8")?,
            FrameErrorKind::TruncatedTail { len } => {
                write!(f, "stream ended inside an event, {len} bytes discarded")?
            }
        }
        write!(f, " at byte {}", self.offset)
    }
}

impl core::error::Error for FrameError {}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn display_is_terse_and_positioned() {
        let e = FrameError::new(FrameErrorKind::LineTooLong { limit: 10 }, 42);
        assert_eq!(e.to_string(), "line longer than 10 bytes at byte 42");
        assert!(e.is_limit());
        let e = FrameError::new(FrameErrorKind::TruncatedTail { len: 7 }, 3);
        assert_eq!(
            e.to_string(),
            "stream ended inside an event, 7 bytes discarded at byte 3"
        );
        assert!(!e.is_limit());
        assert_eq!(
            FrameError::new(FrameErrorKind::InvalidUtf8, 5).to_string(),
            "invalid utf-8 at byte 5"
        );
    }
}
