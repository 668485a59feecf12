//! `FrameStream`: a `futures_core::Stream` of frames over a stream of byte chunks.

use bytes::Bytes;
use core::fmt;
use core::pin::Pin;
use core::task::{ready, Context, Poll};
use futures_core::stream::{FusedStream, Stream};

use super::events::{
    AnthropicDialect, ChatDialect, Dialect, EventStream, GeminiDialect, ResponsesDialect,
};
use crate::responses::DecodeError;
use crate::{Frame, FrameError, Parser, ParserConfig};

/// An error of a [`FrameStream`]: the transport failed, or the parser
/// reported a [`FrameError`].
///
/// The two are kept apart because they call for different handling: after a
/// `Transport` error the connection is usually gone (reconnect, sending
/// [`Parser::last_event_id`]); after a `Frame` error the stream goes on with
/// the next event.
#[derive(Debug)]
#[non_exhaustive]
pub enum StreamError<E> {
    /// The inner stream yielded this error. It is passed on as it is; the
    /// frame stream polls the inner one again if it is polled again.
    Transport(E),
    /// A line or event exceeded a limit, strict UTF-8 checking failed, or the
    /// stream ended inside an event ([`TruncatedTail`](crate::FrameErrorKind::TruncatedTail)).
    Frame(FrameError),
    /// A frame's data is not a JSON object (the typed event streams only:
    /// [`EventStream`](super::EventStream); an object that does not fit is
    /// passed on as the dialect's `Unknown`). The stream goes on with the
    /// next frame.
    Decode(DecodeError),
}

impl<E> StreamError<E> {
    /// The parser's error, if this is one.
    pub fn as_frame_error(&self) -> Option<&FrameError> {
        match self {
            Self::Frame(e) => Some(e),
            _ => None,
        }
    }

    /// The decoding error, if this is one.
    pub fn as_decode_error(&self) -> Option<&DecodeError> {
        match self {
            Self::Decode(e) => Some(e),
            _ => None,
        }
    }

    /// Whether this is a transport error, after which the connection is
    /// usually gone; the other errors skip one frame and the stream goes on.
    pub fn is_transport(&self) -> bool {
        matches!(self, Self::Transport(_))
    }

    /// The transport's error, if this is one.
    pub fn into_transport(self) -> Option<E> {
        match self {
            Self::Transport(e) => Some(e),
            _ => None,
        }
    }
}

impl<E> From<FrameError> for StreamError<E> {
    fn from(e: FrameError) -> Self {
        Self::Frame(e)
    }
}

/// `Transport` says only "transport error": the transport's own message is
/// its [`source`](core::error::Error::source). `Frame` and `Decode` show
/// their error itself.
impl<E> fmt::Display for StreamError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Transport(_) => f.write_str("transport error"),
            Self::Frame(e) => fmt::Display::fmt(e, f),
            Self::Decode(e) => fmt::Display::fmt(e, f),
        }
    }
}

impl<E> From<DecodeError> for StreamError<E> {
    fn from(e: DecodeError) -> Self {
        Self::Decode(e)
    }
}

impl<E: core::error::Error + 'static> core::error::Error for StreamError<E> {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Self::Transport(e) => Some(e),
            Self::Frame(e) => core::error::Error::source(e),
            Self::Decode(e) => core::error::Error::source(e),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Polling the inner stream.
    Streaming,
    /// The inner stream ended and [`Parser::finish`] was called.
    Finished,
    /// `None` was returned.
    Done,
}

/// A [`Stream`] of [`Frame`]s parsed from a stream of byte chunks.
///
/// Made by [`SseStreamExt::sse_frames`] or [`FrameStream::new`] from any
/// `Stream<Item = Result<B, E>>` whose chunks `B` convert into [`Bytes`]
/// (`Bytes`, `BytesMut`, `Vec<u8>`, `&'static str`, …). It yields each frame
/// as soon as its blank line arrives, a [`StreamError::Frame`] for each
/// parser error (after which it goes on), and a [`StreamError::Transport`]
/// for each error of the inner stream. When the inner stream ends it calls
/// [`Parser::finish`], yields a
/// [`TruncatedTail`](crate::FrameErrorKind::TruncatedTail) error if the
/// stream was cut inside an event, and then ends; it is fused.
///
/// It does no I/O of its own and needs no runtime. See the
/// [module documentation](super) for an example.
///
/// # Pinning
///
/// The inner stream must be [`Unpin`], as reqwest's `bytes_stream()`,
/// hyper's `Incoming` through `http_body_util::BodyDataStream`, and axum's
/// `Body::into_data_stream()` are. Pin any other stream first:
/// `Box::pin(stream).sse_frames()`.
pub struct FrameStream<S> {
    inner: S,
    parser: Parser,
    state: State,
}

impl<S> FrameStream<S> {
    /// Parses the chunks of `inner` with the default [`ParserConfig`].
    pub fn new(inner: S) -> Self {
        Self::with_config(inner, ParserConfig::default())
    }

    /// Parses the chunks of `inner` with these limits and options.
    pub fn with_config(inner: S, config: ParserConfig) -> Self {
        Self::with_parser(inner, Parser::with_config(config))
    }

    /// Parses the chunks of `inner` with `parser`: one started with
    /// [`Parser::with_last_event_id`] to resume a stream on a new
    /// connection. A parser that holds input of an earlier stream should be
    /// [`reset`](Parser::reset) first.
    pub fn with_parser(inner: S, parser: Parser) -> Self {
        Self {
            inner,
            parser,
            state: State::Streaming,
        }
    }

    /// The parser, for its [`last_event_id`](Parser::last_event_id) (to
    /// reconnect with) and [`reconnection_time`](Parser::reconnection_time).
    pub fn parser(&self) -> &Parser {
        &self.parser
    }

    /// The inner stream.
    pub fn get_ref(&self) -> &S {
        &self.inner
    }

    /// The inner stream. Taking chunks out of it directly desynchronises the
    /// parser.
    pub fn get_mut(&mut self) -> &mut S {
        &mut self.inner
    }

    /// The inner stream; input fed to the parser and not yet parsed is lost.
    pub fn into_inner(self) -> S {
        self.inner
    }
}

impl<S: fmt::Debug> fmt::Debug for FrameStream<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FrameStream")
            .field("inner", &self.inner)
            .field("parser", &self.parser)
            .field("state", &self.state)
            .finish()
    }
}

impl<S, B, E> Stream for FrameStream<S>
where
    S: Stream<Item = Result<B, E>> + Unpin,
    B: Into<Bytes>,
{
    type Item = Result<Frame, StreamError<E>>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        loop {
            if this.state == State::Done {
                return Poll::Ready(None);
            }
            // Everything fed so far is parsed before the inner stream is polled
            // again, so the parser holds at most one chunk's worth of events.
            match this.parser.next_frame() {
                Ok(Some(frame)) => return Poll::Ready(Some(Ok(frame))),
                Err(e) => return Poll::Ready(Some(Err(StreamError::Frame(e)))),
                Ok(None) => {}
            }
            if this.state == State::Finished {
                this.state = State::Done;
                return Poll::Ready(None);
            }
            match ready!(Pin::new(&mut this.inner).poll_next(cx)) {
                Some(Ok(chunk)) => this.parser.feed(chunk.into()),
                Some(Err(e)) => return Poll::Ready(Some(Err(StreamError::Transport(e)))),
                None => {
                    this.state = State::Finished;
                    // All input is parsed, so `finish` reports a truncated tail itself.
                    debug_assert!(!this.parser.has_pending_input());
                    if let Err(e) = this.parser.finish() {
                        return Poll::Ready(Some(Err(StreamError::Frame(e))));
                    }
                }
            }
        }
    }
}

impl<S, B, E> FusedStream for FrameStream<S>
where
    S: Stream<Item = Result<B, E>> + Unpin,
    B: Into<Bytes>,
{
    fn is_terminated(&self) -> bool {
        self.state == State::Done
    }
}

/// Turns a stream of byte chunks into a stream of frames: `.sse_frames()`.
///
/// Implemented for every `Stream<Item = Result<B, E>> + Unpin` with
/// `B: Into<Bytes>`, such as reqwest's `Response::bytes_stream()`. See the
/// [module documentation](super) for an example.
pub trait SseStreamExt: Sized {
    /// A [`FrameStream`] over this stream, with the default [`ParserConfig`].
    fn sse_frames(self) -> FrameStream<Self> {
        FrameStream::new(self)
    }

    /// A [`FrameStream`] over this stream, with these limits and options.
    fn sse_frames_with_config(self, config: ParserConfig) -> FrameStream<Self> {
        FrameStream::with_config(self, config)
    }

    /// An [`EventStream`] of OpenAI Responses events
    /// ([`OwnedResponsesEvent`](crate::responses::OwnedResponsesEvent)s) over
    /// this stream; [`accumulate`](EventStream::accumulate) it for the
    /// [`FinalResponse`](crate::accumulate::FinalResponse).
    fn responses_events(self) -> EventStream<Self, ResponsesDialect> {
        EventStream::new(self.sse_frames())
    }

    /// An [`EventStream`] of OpenAI Chat Completions events
    /// ([`OwnedChatEvent`](crate::chat::OwnedChatEvent)s) over this stream;
    /// [`accumulate`](EventStream::accumulate) it for the
    /// [`ChatCompletion`](crate::accumulate::chat::ChatCompletion).
    fn chat_events(self) -> EventStream<Self, ChatDialect> {
        EventStream::new(self.sse_frames())
    }

    /// An [`EventStream`] of Anthropic Messages events
    /// ([`OwnedAnthropicEvent`](crate::anthropic::OwnedAnthropicEvent)s) over
    /// this stream; [`accumulate`](EventStream::accumulate) it for the
    /// [`Message`](crate::accumulate::anthropic::Message).
    fn anthropic_events(self) -> EventStream<Self, AnthropicDialect> {
        EventStream::new(self.sse_frames())
    }

    /// An [`EventStream`] of Gemini chunks
    /// ([`OwnedGeminiEvent`](crate::gemini::OwnedGeminiEvent)s) over this
    /// stream; [`accumulate`](EventStream::accumulate) it for the
    /// [`GeminiResponse`](crate::accumulate::gemini::GeminiResponse).
    ///
    /// ```
    /// use futures::{executor::block_on, stream};
    /// use ssekit::accumulate::Outcome;
    /// use ssekit::adapters::SseStreamExt;
    ///
    /// let body = stream::iter([
    ///     Ok::<_, std::io::Error>("data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hel\"}]}}]}\r\n\r\n"),
    ///     Ok("data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"lo\"}]},\"finishReason\":\"STOP\"}]}\r\n\r\n"),
    /// ]);
    /// let collected = block_on(body.gemini_events().accumulate());
    /// assert_eq!(collected.outcome, Outcome::Completed);
    /// assert_eq!(collected.response.candidate(0).unwrap().text(), "Hello");
    /// ```
    fn gemini_events(self) -> EventStream<Self, GeminiDialect> {
        EventStream::new(self.sse_frames())
    }

    /// An [`EventStream`] of dialect `D` over this stream, with these
    /// parser limits and options: `.sse_events_with_config::<ChatDialect>(config)`.
    fn sse_events_with_config<D: Dialect>(self, config: ParserConfig) -> EventStream<Self, D> {
        EventStream::new(self.sse_frames_with_config(config))
    }
}

impl<S, B, E> SseStreamExt for S
where
    S: Stream<Item = Result<B, E>> + Unpin,
    B: Into<Bytes>,
{
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FrameErrorKind;
    use alloc::string::ToString;
    use alloc::vec;
    use alloc::vec::Vec;

    /// A stream that yields its items one per poll, `Pending` in between.
    struct Chunks<T> {
        items: Vec<T>,
        pending: bool,
    }

    impl<T: Unpin> Stream for Chunks<T> {
        type Item = T;
        fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
            self.pending = !self.pending;
            if self.pending {
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            Poll::Ready(if self.items.is_empty() {
                None
            } else {
                Some(self.items.remove(0))
            })
        }
    }

    type Polled = Vec<Option<Result<Frame, StreamError<&'static str>>>>;

    /// Polls to the end and twice past it; `Pending` results are skipped.
    fn poll_all<S: Stream + Unpin>(mut s: S) -> Vec<Option<S::Item>> {
        let mut cx = Context::from_waker(futures::task::noop_waker_ref());
        let mut out = Vec::new();
        let mut nones = 0;
        while nones < 3 {
            if let Poll::Ready(item) = Pin::new(&mut s).poll_next(&mut cx) {
                nones += usize::from(item.is_none());
                out.push(item);
            }
        }
        out
    }

    fn chunks(
        items: Vec<Result<&'static str, &'static str>>,
    ) -> Chunks<Result<&'static str, &'static str>> {
        Chunks {
            items,
            pending: false,
        }
    }

    #[test]
    fn frames_errors_and_truncated_tail_in_order() {
        let s = chunks(vec![
            Ok("data: a\n"),
            Ok("\ndata: b"),
            Err("reset"),
            Ok("\n\ndata: c"),
        ]);
        let got: Polled = poll_all(s.sse_frames());
        assert_eq!(got.len(), 7);
        assert_eq!(got[0].as_ref().unwrap().as_ref().unwrap().data(), "a");
        assert!(matches!(got[1], Some(Err(StreamError::Transport("reset")))));
        assert_eq!(got[2].as_ref().unwrap().as_ref().unwrap().data(), "b");
        let tail = got[3]
            .as_ref()
            .unwrap()
            .as_ref()
            .unwrap_err()
            .as_frame_error()
            .copied();
        assert_eq!(
            tail.map(|e| (e.kind(), e.offset())),
            Some((FrameErrorKind::TruncatedTail { len: 7 }, 18))
        );
        assert!(got[4..].iter().all(Option::is_none), "fused after the end");
    }

    #[test]
    fn config_is_used_and_parsing_goes_on_after_a_limit() {
        let config = ParserConfig {
            max_line_len: 8,
            ..ParserConfig::default()
        };
        let s = chunks(vec![Ok("data: far too long\n\n"), Ok("data: ok\n\n")]);
        let mut frames = s.sse_frames_with_config(config);
        assert_eq!(frames.parser().config().max_line_len, 8);
        let mut cx = Context::from_waker(futures::task::noop_waker_ref());
        let mut got = Vec::new();
        while !frames.is_terminated() {
            if let Poll::Ready(Some(item)) = Pin::new(&mut frames).poll_next(&mut cx) {
                got.push(
                    item.map(|f| f.data().to_string())
                        .map_err(|e| e.to_string()),
                );
            }
        }
        assert_eq!(
            got,
            [
                Err("line longer than 8 bytes at byte 0".to_string()),
                Ok("ok".to_string())
            ]
        );
    }

    #[test]
    fn display_and_source() {
        #[derive(Debug)]
        struct Reset;
        impl fmt::Display for Reset {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("connection reset")
            }
        }
        impl core::error::Error for Reset {}

        use core::error::Error;
        let e = StreamError::Transport(Reset);
        assert_eq!(e.to_string(), "transport error");
        assert_eq!(
            e.source().map(ToString::to_string).as_deref(),
            Some("connection reset")
        );
        let f: StreamError<Reset> =
            FrameError::new(FrameErrorKind::TruncatedTail { len: 2 }, 5).into();
        assert_eq!(
            f.to_string(),
            "stream ended inside an event, 2 bytes discarded at byte 5"
        );
        assert!(f.source().is_none());
        assert!(f.into_transport().is_none());
    }

    #[test]
    fn empty_inner_stream_ends_cleanly() {
        let got: Polled = poll_all(chunks(vec![]).sse_frames());
        assert!(got.iter().all(Option::is_none));
    }

    #[test]
    fn is_send_and_sync_when_the_inner_stream_is() {
        fn check<T: Send + Sync>() {}
        check::<FrameStream<Chunks<Result<Bytes, &'static str>>>>();
    }
}
