//! `SseCodec`: a `tokio_util::codec` decoder and encoder of frames.

use bytes::BytesMut;
use core::fmt;
use std::io;
use tokio_util::codec::{Decoder, Encoder};

use crate::encode::{self, EncodeError};
use crate::{Frame, FrameError, Parser, ParserConfig};

/// An error of [`SseCodec`]: reading or writing failed, the parser reported
/// a [`FrameError`], or a frame could not be encoded.
#[derive(Debug)]
#[non_exhaustive]
pub enum CodecError {
    /// The underlying reader or writer failed.
    Io(io::Error),
    /// A line or event exceeded a limit, strict UTF-8 checking failed, or the
    /// stream ended inside an event ([`TruncatedTail`](crate::FrameErrorKind::TruncatedTail)).
    Frame(FrameError),
    /// The frame's event type or id cannot be carried by SSE; nothing was written.
    Encode(EncodeError),
}

impl CodecError {
    /// The parser's error, if this is one.
    pub fn as_frame_error(&self) -> Option<&FrameError> {
        match self {
            Self::Frame(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for CodecError {
    fn from(e: io::Error) -> Self {
        Self::Io(e)
    }
}

impl From<FrameError> for CodecError {
    fn from(e: FrameError) -> Self {
        Self::Frame(e)
    }
}

impl From<EncodeError> for CodecError {
    fn from(e: EncodeError) -> Self {
        Self::Encode(e)
    }
}

/// `Io` says only "i/o error": the [`io::Error`] is its
/// [`source`](std::error::Error::source). `Frame` and `Encode` show their
/// error itself.
impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io(_) => f.write_str("i/o error"),
            Self::Frame(e) => fmt::Display::fmt(e, f),
            Self::Encode(e) => fmt::Display::fmt(e, f),
        }
    }
}

impl std::error::Error for CodecError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io(e) => Some(e),
            Self::Frame(_) | Self::Encode(_) => None,
        }
    }
}

/// A [`tokio_util::codec`] [`Decoder`] and [`Encoder`] of SSE [`Frame`]s,
/// for `FramedRead`, `FramedWrite` and `Framed`.
///
/// Decoding takes the whole read buffer on every call
/// (`src.split().freeze()`, no copy) and feeds it to a [`Parser`], so frame
/// data is a slice of the buffer the bytes were read into. At end of input,
/// [`decode_eof`](Decoder::decode_eof) reports a stream cut inside an event
/// as [`TruncatedTail`](crate::FrameErrorKind::TruncatedTail).
///
/// Encoding writes with an [`encode::Encoder`]: a frame, by value or by
/// reference, becomes the lines that parse back as the same frame.
///
/// See the [module documentation](super) for an example.
///
/// # Errors and `FramedRead`
///
/// Parser errors do not end the stream, but `FramedRead` ends its stream
/// after any decoder error: it yields the error, then `None`; polled again,
/// it reads on, and the codec goes on with the next event. Events already
/// read then wait for the next read to complete. Where recoverable errors
/// are expected, prefer `FramedRead::new(io, BytesCodec::new()).sse_frames()`
/// (feature `stream`), which yields every error in line and goes on.
#[derive(Debug, Default)]
pub struct SseCodec {
    parser: Parser,
    encoder: encode::Encoder,
}

impl SseCodec {
    /// A codec with the default [`ParserConfig`].
    pub fn new() -> Self {
        Self::default()
    }

    /// A codec whose parser has these limits and options.
    pub fn with_config(config: ParserConfig) -> Self {
        Self {
            parser: Parser::with_config(config),
            encoder: encode::Encoder::new(),
        }
    }

    /// The parser of the decoding side, for its
    /// [`last_event_id`](Parser::last_event_id) and
    /// [`reconnection_time`](Parser::reconnection_time).
    pub fn parser(&self) -> &Parser {
        &self.parser
    }
}

impl Decoder for SseCodec {
    type Item = Frame;
    type Error = CodecError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Frame>, CodecError> {
        if !src.is_empty() {
            self.parser.feed(src.split().freeze());
        }
        Ok(self.parser.next_frame()?)
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Frame>, CodecError> {
        if let Some(frame) = self.decode(src)? {
            return Ok(Some(frame));
        }
        // All input is parsed, so `finish` reports a truncated tail itself.
        debug_assert!(!self.parser.has_pending_input());
        self.parser.finish()?;
        Ok(None)
    }
}

impl Encoder<&Frame> for SseCodec {
    type Error = CodecError;

    fn encode(&mut self, frame: &Frame, dst: &mut BytesMut) -> Result<(), CodecError> {
        Ok(self.encoder.frame(dst, frame)?)
    }
}

impl Encoder<Frame> for SseCodec {
    type Error = CodecError;

    fn encode(&mut self, frame: Frame, dst: &mut BytesMut) -> Result<(), CodecError> {
        self.encode(&frame, dst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FrameErrorKind;
    use alloc::string::ToString;
    use alloc::vec::Vec;
    use std::error::Error;

    #[test]
    fn decodes_across_buffers_without_copying_and_reports_the_tail() {
        let mut codec = SseCodec::new();
        let mut buf = BytesMut::from("data: one\n\ndata: tw");
        let one = codec.decode(&mut buf).unwrap().unwrap();
        assert!(buf.is_empty(), "the whole buffer is taken");
        assert!(one.is_zero_copy());
        assert_eq!(one.data(), "one");
        assert_eq!(codec.decode(&mut buf).unwrap(), None);
        buf.extend_from_slice(b"o\n\ndata: cut");
        assert_eq!(codec.decode(&mut buf).unwrap().unwrap().data(), "two");
        let err = codec.decode_eof(&mut buf).unwrap_err();
        let tail = err.as_frame_error().unwrap();
        assert_eq!(
            (tail.kind(), tail.offset()),
            (FrameErrorKind::TruncatedTail { len: 9 }, 22)
        );
        assert_eq!(codec.decode_eof(&mut buf).unwrap(), None, "reported once");
    }

    #[test]
    fn encodes_frames_by_value_and_reference() {
        let mut codec = SseCodec::new();
        let mut dst = BytesMut::new();
        let frame = Frame::new("a\nb").with_id("1");
        codec.encode(&frame, &mut dst).unwrap();
        codec
            .encode(Frame::new("c").with_id("1"), &mut dst)
            .unwrap();
        let len = dst.len();
        assert_eq!(&dst[..], b"id: 1\ndata: a\ndata: b\n\ndata: c\n\n");
        let err = codec
            .encode(Frame::new("x").with_event("a\nb"), &mut dst)
            .unwrap_err();
        assert!(matches!(err, CodecError::Encode(_)));
        assert_eq!(err.to_string(), "line break in event type at byte 1");
        assert_eq!(dst.len(), len, "nothing written on error");

        let mut back = Vec::new();
        while let Some(f) = codec.decode_eof(&mut dst).unwrap() {
            back.push(f);
        }
        assert_eq!(back, [frame, Frame::new("c").with_id("1")]);
    }

    /// What the type's docs say of `FramedRead`: an error, then `None`, then,
    /// polled again, the rest of the stream.
    #[test]
    fn framed_read_ends_at_an_error_and_goes_on_when_polled_again() {
        use futures::StreamExt;
        use tokio_util::codec::FramedRead;

        let config = ParserConfig {
            max_line_len: 8,
            ..ParserConfig::default()
        };
        let input: &[u8] = b"data: far too long\n\ndata: ok\n\n";
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            let mut frames = FramedRead::new(input, SseCodec::with_config(config));
            let err = frames.next().await.unwrap().unwrap_err();
            assert_eq!(err.to_string(), "line longer than 8 bytes at byte 0");
            assert!(frames.next().await.is_none());
            assert_eq!(frames.next().await.unwrap().unwrap().data(), "ok");
            assert!(frames.next().await.is_none());
        });
    }

    #[test]
    fn io_errors_convert_and_chain() {
        let e = CodecError::from(io::Error::other("reset"));
        assert_eq!(e.to_string(), "i/o error");
        assert_eq!(e.source().unwrap().to_string(), "reset");
        assert!(e.as_frame_error().is_none());
    }
}
