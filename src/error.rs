//! [`Error`]: one error type for applications that use several layers.

use alloc::boxed::Box;
use core::fmt;

use crate::accumulate::AccumulateError;
use crate::bridge::BridgeError;
use crate::encode::EncodeError;
use crate::json::JsonError;
use crate::responses::writer::WriterError;
use crate::responses::DecodeError;
use crate::turn::TurnError;
use crate::FrameError;

/// Any error of this crate, for code that uses several layers and wants one
/// `?`-able type.
///
/// Every layer keeps its own small error type (with its kind and offset, to
/// match on); each converts into this one with `From`, so a function that
/// parses frames, decodes events, accumulates them and writes a stream can
/// return `Result<_, ssekit::Error>`. The variants hold the layer's error as
/// it was; match on them to get it back.
///
/// `Display` is the layer's own message (terse, lowercase), and
/// [`source`](core::error::Error::source) is the layer's source, so an error
/// chain prints no message twice. [`Transport`](Self::Transport) says only
/// "transport error", and its source is the transport's error.
///
/// ```
/// use ssekit::responses::ResponsesEvent;
/// use ssekit::{Bytes, Parser};
///
/// fn first_type(wire: &'static str) -> Result<String, ssekit::Error> {
///     let mut parser = Parser::new();
///     parser.feed(Bytes::from(wire));
///     let Some(frame) = parser.next_frame()? else { return Ok(String::new()) }; // FrameError
///     let event = ResponsesEvent::from_frame(&frame)?; // DecodeError
///     Ok(event.ty().to_owned())
/// }
///
/// assert_eq!(first_type("data: {\"type\":\"keepalive\"}\n\n")?, "keepalive");
/// let err = first_type("data: {\"type\":\n\n").unwrap_err();
/// assert!(matches!(err, ssekit::Error::Decode(_)));
/// assert_eq!(err.to_string(), "invalid json: unexpected end of input at byte 8");
/// # Ok::<(), ssekit::Error>(())
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The SSE parser: a limit was exceeded, strict UTF-8 checking failed,
    /// or the stream ended inside an event.
    Frame(FrameError),
    /// An event's data is not the event it claims to be (any dialect).
    Decode(DecodeError),
    /// An accumulator could not keep an event.
    Accumulate(AccumulateError),
    /// The encoder cannot write a frame's event type or id.
    Encode(EncodeError),
    /// [`ResponsesWriter`](crate::responses::writer::ResponsesWriter) refused a call.
    Writer(WriterError),
    /// The JSON primitives of [`json`](crate::json).
    Json(JsonError),
    /// A [`bridge`](crate::bridge) between two dialects: the upstream broke
    /// its protocol, or the downstream writer refused an event.
    Bridge(BridgeError),
    /// A [`turn`](crate::turn) reader or writer: the upstream broke its
    /// dialect's protocol, or a writer's bound was reached.
    Turn(TurnError),
    /// The byte source failed: an HTTP client's error through the stream
    /// adapter, an I/O error through the codec. The transport's error is
    /// the [`source`](core::error::Error::source).
    Transport(Box<dyn core::error::Error + Send + Sync + 'static>),
}

impl Error {
    /// A transport error: the byte source failed with `error`.
    pub fn transport<E: core::error::Error + Send + Sync + 'static>(error: E) -> Self {
        Self::Transport(Box::new(error))
    }

    /// Whether the byte source failed (the connection is probably gone:
    /// reconnect), rather than the data being wrong.
    pub fn is_transport(&self) -> bool {
        matches!(self, Self::Transport(_))
    }

    /// The byte offset the layer's error points at, where it has one: in
    /// the stream ([`Frame`](Self::Frame)), in the event's data
    /// ([`Decode`](Self::Decode)) or in the JSON text ([`Json`](Self::Json)).
    pub fn offset(&self) -> Option<u64> {
        match self {
            Self::Frame(e) => Some(e.offset()),
            Self::Decode(e) => Some(e.offset() as u64),
            Self::Json(e) => Some(e.offset() as u64),
            Self::Bridge(e) => e.offset(),
            Self::Turn(e) => e.offset(),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Frame(e) => fmt::Display::fmt(e, f),
            Self::Decode(e) => fmt::Display::fmt(e, f),
            Self::Accumulate(e) => fmt::Display::fmt(e, f),
            Self::Encode(e) => fmt::Display::fmt(e, f),
            Self::Writer(e) => fmt::Display::fmt(e, f),
            Self::Json(e) => fmt::Display::fmt(e, f),
            Self::Bridge(e) => fmt::Display::fmt(e, f),
            Self::Turn(e) => fmt::Display::fmt(e, f),
            Self::Transport(_) => f.write_str("transport error"),
        }
    }
}

impl core::error::Error for Error {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Self::Frame(e) => e.source(),
            Self::Decode(e) => e.source(),
            Self::Accumulate(e) => e.source(),
            Self::Encode(e) => e.source(),
            Self::Writer(e) => e.source(),
            Self::Json(e) => e.source(),
            Self::Bridge(e) => e.source(),
            Self::Turn(e) => e.source(),
            Self::Transport(e) => Some(&**e),
        }
    }
}

macro_rules! from_layer {
    ($($ty:ty => $variant:ident),* $(,)?) => {$(
        impl From<$ty> for Error {
            fn from(e: $ty) -> Self {
                Self::$variant(e)
            }
        }
    )*};
}

from_layer! {
    FrameError => Frame,
    DecodeError => Decode,
    AccumulateError => Accumulate,
    EncodeError => Encode,
    WriterError => Writer,
    JsonError => Json,
    BridgeError => Bridge,
    TurnError => Turn,
}

/// For streams that cannot fail (`Result<Frame, Infallible>`).
impl From<core::convert::Infallible> for Error {
    fn from(e: core::convert::Infallible) -> Self {
        match e {}
    }
}

/// [`StreamError::Transport`](crate::adapters::StreamError::Transport)
/// becomes [`Error::Transport`]; the other variants become the layer's
/// variant.
#[cfg(feature = "stream")]
#[cfg_attr(docsrs, doc(cfg(feature = "stream")))]
impl<E: core::error::Error + Send + Sync + 'static> From<crate::adapters::StreamError<E>>
    for Error
{
    fn from(e: crate::adapters::StreamError<E>) -> Self {
        use crate::adapters::StreamError;
        match e {
            StreamError::Transport(e) => Self::transport(e),
            StreamError::Frame(e) => Self::Frame(e),
            StreamError::Decode(e) => Self::Decode(e),
        }
    }
}

/// [`CodecError::Io`](crate::adapters::CodecError::Io) becomes
/// [`Error::Transport`]; the other variants become the layer's variant.
#[cfg(feature = "codec")]
#[cfg_attr(docsrs, doc(cfg(feature = "codec")))]
impl From<crate::adapters::CodecError> for Error {
    fn from(e: crate::adapters::CodecError) -> Self {
        use crate::adapters::CodecError;
        match e {
            CodecError::Io(e) => Self::transport(e),
            CodecError::Frame(e) => Self::Frame(e),
            CodecError::Encode(e) => Self::Encode(e),
        }
    }
}

/// `std::io::Error` is a transport error.
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Self::transport(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accumulate::{AccumulateErrorKind, ChatAccumulator, ChatAccumulatorConfig};
    use crate::bridge::{Bridge, BridgeErrorKind, ChatToResponses};
    use crate::chat::ChatEvent;
    use crate::encode::Encoder;
    use crate::responses::writer::{ResponsesWriter, WriterErrorKind};
    use crate::{Frame, FrameErrorKind, Parser};
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;
    use core::error::Error as _;

    /// The messages of `e` and its sources, outermost first.
    fn chain(e: &Error) -> Vec<String> {
        let mut out = alloc::vec![e.to_string()];
        let mut next = e.source();
        while let Some(s) = next {
            out.push(s.to_string());
            next = s.source();
        }
        out
    }

    #[test]
    fn every_layer_converts_and_keeps_its_message() {
        let frame: Error = FrameError::new(FrameErrorKind::TruncatedTail { len: 3 }, 9).into();
        assert!(matches!(frame, Error::Frame(_)));
        assert_eq!(
            chain(&frame),
            ["stream ended inside an event, 3 bytes discarded at byte 9"]
        );
        assert_eq!(frame.offset(), Some(9));

        let decode: Error = crate::responses::ResponsesEvent::parse("{\"type\":")
            .unwrap_err()
            .into();
        assert_eq!(
            chain(&decode),
            [
                "invalid json: unexpected end of input at byte 8",
                "unexpected end of input at byte 8"
            ]
        );

        let json: Error = crate::json::Value::parse("[1,").unwrap_err().into();
        assert!(matches!(json, Error::Json(_)));
        assert_eq!(json.offset(), Some(3));

        let writer: Error = ResponsesWriter::new("r", "m", 0)
            .text_delta("x")
            .unwrap_err()
            .into();
        assert!(matches!(writer, Error::Writer(e) if e.kind() == WriterErrorKind::NoOpenMessage));

        let encode: Error = Encoder::new()
            .frame(&mut Vec::new(), &Frame::new("x").with_id("a\nb"))
            .unwrap_err()
            .into();
        assert_eq!(encode.to_string(), "line break in id at byte 1");
        assert_eq!(encode.offset(), None);

        let mut acc =
            ChatAccumulator::with_config(ChatAccumulatorConfig::DEFAULT.with_max_bytes(1));
        let chunk = r#"{"id":"c","choices":[{"index":0,"delta":{"content":"too long"}}]}"#;
        let accumulate: Error = acc.feed(&Frame::new(chunk)).unwrap_err().into();
        assert!(matches!(
            accumulate,
            Error::Accumulate(e) if matches!(e.kind(), AccumulateErrorKind::TooManyBytes { .. })
        ));
        assert!(!accumulate.is_transport());

        let mut bridge = ChatToResponses::new();
        let bridge: Error = bridge
            .push_frame(&Frame::new("{\"choices\":"))
            .unwrap_err()
            .into();
        assert!(matches!(
            bridge,
            Error::Bridge(ref e) if matches!(e.kind(), BridgeErrorKind::Decode(_))
        ));
        assert_eq!(bridge.offset(), Some(11));
        assert!(
            bridge
                .to_string()
                .starts_with("undecodable upstream event: "),
            "{bridge}"
        );
    }

    #[test]
    fn transport_errors_are_the_source() {
        #[derive(Debug)]
        struct Reset;
        impl fmt::Display for Reset {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("connection reset")
            }
        }
        impl core::error::Error for Reset {}

        let e = Error::transport(Reset);
        assert!(e.is_transport());
        assert_eq!(chain(&e), ["transport error", "connection reset"]);
    }

    #[test]
    fn is_send_sync_and_no_bigger_than_the_largest_layer_error() {
        use core::mem::size_of;
        fn check<T: Send + Sync + 'static>() {}
        check::<Error>();
        // The largest layer error plus the tag; nothing is boxed but the transport's.
        assert!(size_of::<Error>() <= size_of::<AccumulateError>() + 8);
    }

    #[test]
    fn question_mark_across_layers() {
        fn run(wire: &'static str) -> Result<u64, Error> {
            let mut parser = Parser::new();
            parser.feed(crate::Bytes::from(wire));
            let mut acc = ChatAccumulator::new();
            while let Some(frame) = parser.next_frame()? {
                // The decode layer's error first, then the accumulator's.
                ChatEvent::from_frame(&frame)?;
                acc.feed(&frame)?;
            }
            parser.finish()?;
            Ok(acc.events())
        }
        assert_eq!(run("data: [DONE]\n\n").unwrap(), 1);
        assert!(matches!(
            run("data: [DONE]\n\ndata: x"),
            Err(Error::Frame(_))
        ));
        assert!(matches!(run("data: 1\n\n"), Err(Error::Decode(_))));
    }
}
