//! Response bodies: a `ResponsesWriter` or an `Encoder` as a `Stream` of
//! `Result<Bytes, Error>`, for `axum::body::Body::from_stream` and hyper.

use bytes::{Bytes, BytesMut};
use core::fmt;
use core::pin::Pin;
use core::task::{ready, Context, Poll};
use futures_core::stream::{FusedStream, Stream};

use crate::encode::Encoder;
use crate::responses::writer::ResponsesWriter;
use crate::{Error, Frame};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Polling the input.
    Streaming,
    /// The input ended (and `step(None)` was called); the bytes left go out.
    Ended,
    /// `None` was returned (or is next, after an error).
    Done,
}

/// A [`ResponsesWriter`] driven by a stream of inputs, as a [`Stream`] of
/// the bytes it writes: an HTTP response body for a Responses API server or
/// gateway.
///
/// For each item of `input`, `step(&mut writer, Some(item))` writes what it
/// wants (a delta, a forwarded event, a new item); the bytes written are
/// yielded as one chunk. When `input` ends, `step(&mut writer, None)` is
/// called once if the writer has not written its terminal event yet (to
/// [`complete`](ResponsesWriter::complete) the response, mark it
/// [`incomplete`](ResponsesWriter::incomplete) or
/// [`fail`](ResponsesWriter::fail) it); then the body ends.
///
/// If `step` returns an error, the bytes written before it are yielded, then
/// the error (as an [`Error`]), and the body ends: an HTTP server aborts the
/// response, and the client sees a cut stream. To tell the client instead,
/// handle the error in `step` (write [`fail`](ResponsesWriter::fail) or an
/// [`error_event`](ResponsesWriter::error_event)) and return `Ok`.
///
/// The body reads no clock: to send keep-alives while the input is idle,
/// merge a timer's ticks into `input` and write
/// [`keep_alive`](ResponsesWriter::keep_alive) for them.
///
/// Send it with the headers of [`SSE_HEADERS`](crate::encode::SSE_HEADERS).
///
/// # Example
///
/// Tokens from a model (here a `futures::stream::iter`) become a complete
/// Responses stream; with axum the body is
/// `axum::body::Body::from_stream(body)` (see `examples/relay.rs`).
///
/// ```
/// use futures::{executor::block_on, stream, StreamExt};
/// use ssekit::adapters::ResponsesBody;
/// use ssekit::responses::writer::ResponsesWriter;
///
/// let tokens = stream::iter(["Hel", "lo"]);
/// let writer = ResponsesWriter::new("resp_1", "my-model", 1_767_225_600);
/// let body = ResponsesBody::new(writer, tokens, |w, token| match token {
///     Some(token) if w.sequence_number() == 0 => {
///         w.start_message("msg_1")?;
///         w.text_delta(token)
///     }
///     Some(token) => w.text_delta(token),
///     None => w.complete(), // the input ended
/// });
/// let chunks: Vec<_> = block_on(body.collect());
/// let wire: Vec<u8> = chunks.into_iter().collect::<Result<Vec<_>, _>>()?.concat();
///
/// let mut parser = ssekit::Parser::new();
/// parser.feed(wire.into());
/// let mut events = Vec::new();
/// while let Some(frame) = parser.next_frame()? {
///     events.push(frame.event().to_owned());
/// }
/// assert_eq!(events.first().map(String::as_str), Some("response.created"));
/// assert_eq!(events.last().map(String::as_str), Some("response.completed"));
/// # Ok::<(), ssekit::Error>(())
/// ```
pub struct ResponsesBody<S, F> {
    writer: ResponsesWriter,
    input: S,
    step: F,
    state: State,
    error: Option<Error>,
}

impl<S, F> ResponsesBody<S, F> {
    /// A body that feeds each item of `input` to `step` with `writer`.
    pub fn new<T, E>(writer: ResponsesWriter, input: S, step: F) -> Self
    where
        S: Stream<Item = T> + Unpin,
        F: FnMut(&mut ResponsesWriter, Option<T>) -> Result<(), E>,
        E: Into<Error>,
    {
        Self {
            writer,
            input,
            step,
            state: State::Streaming,
            error: None,
        }
    }

    /// The writer, to look at its sequence number or whether it finished.
    pub fn writer(&self) -> &ResponsesWriter {
        &self.writer
    }
}

// `step` and `writer` are never pinned: the body is `Unpin` when its input is.
impl<S: Unpin, F> Unpin for ResponsesBody<S, F> {}

impl<S: fmt::Debug, F> fmt::Debug for ResponsesBody<S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResponsesBody")
            .field("writer", &self.writer)
            .field("input", &self.input)
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

impl<S, T, F, E> Stream for ResponsesBody<S, F>
where
    S: Stream<Item = T> + Unpin,
    F: FnMut(&mut ResponsesWriter, Option<T>) -> Result<(), E>,
    E: Into<Error>,
{
    type Item = Result<Bytes, Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            if !this.writer.buffered().is_empty() {
                return Poll::Ready(Some(Ok(this.writer.take())));
            }
            if let Some(e) = this.error.take() {
                this.state = State::Done;
                return Poll::Ready(Some(Err(e)));
            }
            match this.state {
                State::Done => return Poll::Ready(None),
                State::Ended => {
                    this.state = State::Done;
                    return Poll::Ready(None);
                }
                State::Streaming => {}
            }
            let result = match ready!(Pin::new(&mut this.input).poll_next(cx)) {
                Some(item) => (this.step)(&mut this.writer, Some(item)),
                None => {
                    this.state = State::Ended;
                    if this.writer.is_finished() {
                        Ok(())
                    } else {
                        (this.step)(&mut this.writer, None)
                    }
                }
            };
            if let Err(e) = result {
                this.error = Some(e.into());
            }
        }
    }
}

impl<S, T, F, E> FusedStream for ResponsesBody<S, F>
where
    S: Stream<Item = T> + Unpin,
    F: FnMut(&mut ResponsesWriter, Option<T>) -> Result<(), E>,
    E: Into<Error>,
{
    fn is_terminated(&self) -> bool {
        self.state == State::Done
    }
}

/// A stream of frames, written by an [`Encoder`], as a [`Stream`] of wire
/// bytes: an HTTP response body for any SSE server or proxy.
///
/// Each frame is one chunk. The input's items are `Result<Frame, E>` with
/// any `E` that converts into [`Error`] — so a
/// [`FrameStream`](super::FrameStream) from an upstream response can be
/// passed in as it is (`Infallible` for frames that cannot fail). The first
/// error, of the input or of the encoder (an event type or id that SSE
/// cannot carry), is yielded and ends the body.
///
/// Send it with the headers of [`SSE_HEADERS`](crate::encode::SSE_HEADERS).
///
/// ```
/// use core::convert::Infallible;
/// use futures::{executor::block_on, stream, StreamExt};
/// use ssekit::adapters::FrameBody;
/// use ssekit::Frame;
///
/// let frames = stream::iter([
///     Ok::<_, Infallible>(Frame::new("one").with_id("1")),
///     Ok(Frame::new("two\nlines").with_event("note").with_id("2")),
/// ]);
/// let chunks: Vec<_> = block_on(FrameBody::new(frames).collect());
/// let wire = chunks.into_iter().collect::<Result<Vec<_>, _>>()?.concat();
/// assert_eq!(wire, b"id: 1\ndata: one\n\nid: 2\nevent: note\ndata: two\ndata: lines\n\n");
/// # Ok::<(), ssekit::Error>(())
/// ```
#[derive(Debug)]
pub struct FrameBody<S> {
    input: S,
    encoder: Encoder,
    buf: BytesMut,
    done: bool,
}

impl<S> FrameBody<S> {
    /// A body that writes each frame of `input` with a new [`Encoder`].
    pub fn new(input: S) -> Self {
        Self::with_encoder(input, Encoder::new())
    }

    /// A body that writes each frame of `input` with `encoder` (one that
    /// already wrote part of the stream, and so knows the last event ID).
    pub fn with_encoder(input: S, encoder: Encoder) -> Self {
        Self {
            input,
            encoder,
            buf: BytesMut::new(),
            done: false,
        }
    }
}

impl<S, E> Stream for FrameBody<S>
where
    S: Stream<Item = Result<Frame, E>> + Unpin,
    E: Into<Error>,
{
    type Item = Result<Bytes, Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.done {
            return Poll::Ready(None);
        }
        let item = ready!(Pin::new(&mut this.input).poll_next(cx));
        let result = match item {
            None => {
                this.done = true;
                return Poll::Ready(None);
            }
            Some(Err(e)) => Err(e.into()),
            Some(Ok(frame)) => this
                .encoder
                .frame(&mut this.buf, &frame)
                .map(|()| this.buf.split().freeze())
                .map_err(Error::from),
        };
        this.done = result.is_err();
        Poll::Ready(Some(result))
    }
}

impl<S, E> FusedStream for FrameBody<S>
where
    S: Stream<Item = Result<Frame, E>> + Unpin,
    E: Into<Error>,
{
    fn is_terminated(&self) -> bool {
        self.done
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::responses::writer::{WriterError, WriterErrorKind};
    use crate::responses::ResponsesEvent;
    use crate::Parser;
    use alloc::vec;
    use alloc::vec::Vec;
    use core::convert::Infallible;
    use futures::executor::block_on;
    use futures::{stream, StreamExt};

    fn types(wire: &[u8]) -> Vec<alloc::string::String> {
        let mut p = Parser::new();
        p.feed(Bytes::copy_from_slice(wire));
        let mut out = Vec::new();
        while let Some(f) = p.next_frame().unwrap() {
            out.push(ResponsesEvent::from_frame(&f).unwrap().ty().into());
        }
        out
    }

    #[test]
    fn each_step_is_one_chunk_and_the_end_completes() {
        let body = ResponsesBody::new(
            ResponsesWriter::new("r", "m", 0),
            stream::iter(["a", "b"]),
            |w, t| match t {
                Some(t) if w.sequence_number() == 0 => {
                    w.start_message("msg")?;
                    w.text_delta(t)
                }
                Some(t) => w.text_delta(t),
                None => w.complete(),
            },
        );
        let chunks: Vec<Bytes> = block_on(body.map(Result::unwrap).collect());
        assert_eq!(chunks.len(), 3, "first token, second token, the end");
        let wire = chunks.concat();
        let t = types(&wire);
        assert_eq!(t.first().map(|s| s.as_str()), Some("response.created"));
        assert_eq!(t.last().map(|s| s.as_str()), Some("response.completed"));
    }

    #[test]
    fn a_finished_writer_is_not_asked_to_end_and_errors_end_the_body() {
        let mut ends = 0;
        let body = ResponsesBody::new(
            ResponsesWriter::new("r", "m", 0),
            stream::iter([
                r#"{"type":"response.created"}"#,
                r#"{"type":"response.completed"}"#,
                "[DONE]",
            ]),
            |w, e| {
                match e {
                    Some(e) => w.forward(e)?,
                    None => {
                        ends += 1;
                        0
                    }
                };
                Ok::<_, WriterError>(())
            },
        );
        let chunks: Vec<_> = block_on(body.collect());
        assert_eq!(chunks.len(), 3);
        assert!(chunks[2].as_ref().unwrap().ends_with(b"data: [DONE]\n\n"));
        assert_eq!(ends, 0);

        // An error: what was written goes out, then the error, then the end.
        let mut body = ResponsesBody::new(
            ResponsesWriter::new("r", "m", 0),
            stream::iter(["ok", "bad", "never"]),
            |w, t| match t {
                Some("ok") => w.heartbeat(),
                Some(_) => {
                    w.keep_alive();
                    w.text_delta("no message open")
                }
                None => Ok(()),
            },
        );
        let got: Vec<_> = block_on((&mut body).collect());
        assert_eq!(got.len(), 3);
        assert!(got[1].as_ref().unwrap().starts_with(b": keep-alive"));
        assert!(matches!(
            got[2],
            Err(Error::Writer(e)) if e.kind() == WriterErrorKind::NoOpenMessage
        ));
        assert!(body.is_terminated());
    }

    #[test]
    fn frame_bodies_stop_at_the_first_error() {
        let frames = stream::iter(vec![
            Ok::<_, Infallible>(Frame::new("a")),
            Ok(Frame::new("b").with_event("x\ny")),
            Ok(Frame::new("c")),
        ]);
        let got: Vec<_> = block_on(FrameBody::new(frames).collect());
        assert_eq!(got.len(), 2);
        assert_eq!(&got[0].as_ref().unwrap()[..], b"data: a\n\n");
        assert!(matches!(got[1], Err(Error::Encode(_))));
    }

    #[test]
    fn bodies_are_send_for_axum() {
        fn check<T: Send + 'static>(_: &T) {}
        let body = ResponsesBody::new(
            ResponsesWriter::new("r", "m", 0),
            stream::iter(Vec::<alloc::string::String>::new()),
            |w: &mut ResponsesWriter, t: Option<alloc::string::String>| match t {
                Some(t) => w.text_delta(&t),
                None => w.complete(),
            },
        );
        check(&body);
        check(&FrameBody::new(stream::iter(
            Vec::<Result<Frame, Error>>::new(),
        )));
    }
}
