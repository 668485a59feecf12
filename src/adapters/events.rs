//! `EventStream`: a `Stream` of owned typed events over a stream of byte
//! chunks, and `accumulate`: the final response, with its outcome, from it.

use core::fmt;
use core::future::poll_fn;
use core::marker::PhantomData;
use core::pin::Pin;
use core::task::{Context, Poll};
use futures_core::stream::{FusedStream, Stream};

use bytes::Bytes;

use super::stream::{FrameStream, StreamError};
use crate::accumulate::{
    anthropic::Message, chat::ChatCompletion, gemini::GeminiResponse, AnthropicAccumulator,
    ChatAccumulator, FinalResponse, GeminiAccumulator, Outcome, ResponsesAccumulator,
};
use crate::anthropic::{AnthropicEvent, OwnedAnthropicEvent};
use crate::chat::{ChatEvent, OwnedChatEvent};
use crate::gemini::{GeminiEvent, OwnedGeminiEvent};
use crate::responses::{DecodeError, OwnedResponsesEvent, ResponsesEvent};
use crate::{Error, Frame, Parser};

mod sealed {
    pub trait Sealed {}
}

/// A dialect of LLM stream events: how a frame decodes, into which owned
/// event, and which accumulator assembles the final response.
///
/// Implemented by [`ResponsesDialect`], [`ChatDialect`], [`AnthropicDialect`]
/// and [`GeminiDialect`]; it names the dialect of an [`EventStream`] at the
/// type level, and [`DIALECT`](Self::DIALECT) names it at run time. The
/// trait is sealed: the crate adds dialects, and may add methods.
pub trait Dialect: sealed::Sealed + 'static {
    /// The dialect as a value, for choosing a linter, reader or writer.
    ///
    /// ```
    /// use ssekit::adapters::{Dialect as _, GeminiDialect};
    ///
    /// assert_eq!(GeminiDialect::DIALECT, ssekit::Dialect::Gemini);
    /// ```
    const DIALECT: crate::Dialect;

    /// The borrowed view of one event (`ResponsesEvent<'a>`, …).
    type View<'a>;
    /// The owned event an [`EventStream`] yields (`OwnedResponsesEvent`, …).
    type Event;
    /// The accumulator that assembles the final response.
    type Accumulator;
    /// The final response the accumulator returns.
    type Output;

    /// Decodes a frame into the owned event (no copy: it keeps a handle to
    /// the frame's data).
    ///
    /// # Errors
    ///
    /// A [`DecodeError`] if the frame's data is not a JSON object (nor
    /// `[DONE]` where the dialect has it). An object that does not fit is
    /// kept, as the dialect's `Unknown` (see [`DecodeError`] for the rule).
    fn decode(frame: &Frame) -> Result<Self::Event, DecodeError>;

    /// Decodes a frame into its view, hands it to `on_event`, then pushes it
    /// into the accumulator (one decode, nothing copied).
    ///
    /// # Errors
    ///
    /// [`Error::Decode`] if the frame's data is not an event of the dialect
    /// or does not fit its type (the strict reading: `strict()`; nothing was
    /// pushed); [`Error::Accumulate`] if the accumulator could not keep all
    /// of it.
    fn push_frame(
        accumulator: &mut Self::Accumulator,
        frame: &Frame,
        on_event: &mut dyn FnMut(&Self::View<'_>),
    ) -> Result<(), Error>;

    /// Ends the stream: the final response.
    fn finish(accumulator: Self::Accumulator) -> Self::Output;

    /// How the stream ended, as the final response says.
    fn outcome(output: &Self::Output) -> Outcome;
}

/// The OpenAI Responses API: [`OwnedResponsesEvent`]s, assembled by a
/// [`ResponsesAccumulator`] into a [`FinalResponse`].
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct ResponsesDialect;

/// OpenAI Chat Completions: [`OwnedChatEvent`]s, assembled by a
/// [`ChatAccumulator`] into a [`ChatCompletion`].
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct ChatDialect;

/// Anthropic Messages: [`OwnedAnthropicEvent`]s, assembled by a
/// [`AnthropicAccumulator`] into a [`Message`].
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct AnthropicDialect;

/// Gemini `streamGenerateContent?alt=sse`: [`OwnedGeminiEvent`]s,
/// assembled by a [`GeminiAccumulator`] into a [`GeminiResponse`].
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct GeminiDialect;

impl sealed::Sealed for ResponsesDialect {}
impl sealed::Sealed for ChatDialect {}
impl sealed::Sealed for AnthropicDialect {}
impl sealed::Sealed for GeminiDialect {}

impl Dialect for ResponsesDialect {
    const DIALECT: crate::Dialect = crate::Dialect::Responses;
    type View<'a> = ResponsesEvent<'a>;
    type Event = OwnedResponsesEvent;
    type Accumulator = ResponsesAccumulator;
    type Output = FinalResponse;

    fn decode(frame: &Frame) -> Result<OwnedResponsesEvent, DecodeError> {
        OwnedResponsesEvent::from_frame(frame)
    }

    fn push_frame(
        accumulator: &mut ResponsesAccumulator,
        frame: &Frame,
        on_event: &mut dyn FnMut(&ResponsesEvent<'_>),
    ) -> Result<(), Error> {
        let event = ResponsesEvent::from_frame(frame)?.strict()?;
        on_event(&event);
        Ok(accumulator.feed(&event)?)
    }

    fn finish(accumulator: ResponsesAccumulator) -> FinalResponse {
        accumulator.finish()
    }

    fn outcome(output: &FinalResponse) -> Outcome {
        output.outcome()
    }
}

impl Dialect for ChatDialect {
    const DIALECT: crate::Dialect = crate::Dialect::Chat;
    type View<'a> = ChatEvent<'a>;
    type Event = OwnedChatEvent;
    type Accumulator = ChatAccumulator;
    type Output = ChatCompletion;

    fn decode(frame: &Frame) -> Result<OwnedChatEvent, DecodeError> {
        OwnedChatEvent::from_frame(frame)
    }

    fn push_frame(
        accumulator: &mut ChatAccumulator,
        frame: &Frame,
        on_event: &mut dyn FnMut(&ChatEvent<'_>),
    ) -> Result<(), Error> {
        let event = ChatEvent::from_frame(frame)?.strict()?;
        on_event(&event);
        Ok(accumulator.feed_event(&event)?)
    }

    fn finish(accumulator: ChatAccumulator) -> ChatCompletion {
        accumulator.finish()
    }

    fn outcome(output: &ChatCompletion) -> Outcome {
        output.outcome()
    }
}

impl Dialect for AnthropicDialect {
    const DIALECT: crate::Dialect = crate::Dialect::Anthropic;
    type View<'a> = AnthropicEvent<'a>;
    type Event = OwnedAnthropicEvent;
    type Accumulator = AnthropicAccumulator;
    type Output = Message<'static>;

    fn decode(frame: &Frame) -> Result<OwnedAnthropicEvent, DecodeError> {
        OwnedAnthropicEvent::from_frame(frame)
    }

    fn push_frame(
        accumulator: &mut AnthropicAccumulator,
        frame: &Frame,
        on_event: &mut dyn FnMut(&AnthropicEvent<'_>),
    ) -> Result<(), Error> {
        let event = AnthropicEvent::from_frame(frame)?.strict()?;
        on_event(&event);
        // The accumulator's reader decodes the frame again (it keeps the
        // JSON of blocks only Anthropic has from the frame's data).
        Ok(accumulator.feed(frame)?)
    }

    fn finish(accumulator: AnthropicAccumulator) -> Message<'static> {
        accumulator.finish()
    }

    fn outcome(output: &Message<'static>) -> Outcome {
        output.outcome()
    }
}

impl Dialect for GeminiDialect {
    const DIALECT: crate::Dialect = crate::Dialect::Gemini;
    type View<'a> = GeminiEvent<'a>;
    type Event = OwnedGeminiEvent;
    type Accumulator = GeminiAccumulator;
    type Output = GeminiResponse;

    fn decode(frame: &Frame) -> Result<OwnedGeminiEvent, DecodeError> {
        OwnedGeminiEvent::from_frame(frame)
    }

    fn push_frame(
        accumulator: &mut GeminiAccumulator,
        frame: &Frame,
        on_event: &mut dyn FnMut(&GeminiEvent<'_>),
    ) -> Result<(), Error> {
        let event = GeminiEvent::from_frame(frame)?.strict()?;
        on_event(&event);
        Ok(accumulator.feed(frame)?)
    }

    fn finish(accumulator: GeminiAccumulator) -> GeminiResponse {
        accumulator.finish()
    }

    fn outcome(output: &GeminiResponse) -> Outcome {
        output.outcome()
    }
}

/// A [`Stream`] of owned typed events of dialect `D`, parsed and decoded
/// from a stream of byte chunks.
///
/// Made by [`SseStreamExt::responses_events`](super::SseStreamExt::responses_events),
/// [`chat_events`](super::SseStreamExt::chat_events),
/// [`anthropic_events`](super::SseStreamExt::anthropic_events),
/// [`gemini_events`](super::SseStreamExt::gemini_events) or
/// [`EventStream::new`]. Each item is an owned event (it keeps a handle to
/// the frame's data: nothing is copied; `get()` gives the typed view), or a
/// [`StreamError`]: `Transport` for an error of the inner stream, `Frame` for
/// a parser error, `Decode` for a frame whose data is not a JSON object (an
/// object that does not fit is an owned `Unknown`, passed on: see
/// [`DecodeError`] for the rule).
/// After a `Frame` or `Decode` error the stream goes on with the next frame;
/// a stream cut inside an event ends with a `Frame` error
/// ([`TruncatedTail`](crate::FrameErrorKind::TruncatedTail)). It is fused.
///
/// [`accumulate`](Self::accumulate) drives the stream to its end instead and
/// returns the final response, even when the stream was cut.
///
/// ```
/// use futures::{executor::block_on, stream, StreamExt};
/// use ssekit::adapters::SseStreamExt;
/// use ssekit::chat::ChatEvent;
///
/// let body = stream::iter([
///     Ok::<_, std::io::Error>("data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n"),
///     Ok("data: [DONE]\n\n"),
/// ]);
/// let events: Vec<_> = block_on(body.chat_events().collect());
/// let events = events.into_iter().collect::<Result<Vec<_>, _>>()?; // owned: they outlive the body
/// assert!(matches!(events[1].get(), ChatEvent::Done));
/// # Ok::<(), ssekit::Error>(())
/// ```
pub struct EventStream<S, D> {
    frames: FrameStream<S>,
    _dialect: PhantomData<fn() -> D>,
}

impl<S, D> EventStream<S, D> {
    /// Decodes the frames of `frames` as events of dialect `D`.
    pub fn new(frames: FrameStream<S>) -> Self {
        Self {
            frames,
            _dialect: PhantomData,
        }
    }

    /// The parser, for its [`last_event_id`](Parser::last_event_id) (to
    /// reconnect with) and [`reconnection_time`](Parser::reconnection_time).
    pub fn parser(&self) -> &Parser {
        self.frames.parser()
    }

    /// The stream of frames underneath.
    pub fn into_frames(self) -> FrameStream<S> {
        self.frames
    }
}

impl<S: fmt::Debug, D> fmt::Debug for EventStream<S, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EventStream")
            .field("frames", &self.frames)
            .field("dialect", &core::any::type_name::<D>())
            .finish()
    }
}

impl<S, B, E, D> Stream for EventStream<S, D>
where
    S: Stream<Item = Result<B, E>> + Unpin,
    B: Into<Bytes>,
    D: Dialect,
{
    type Item = Result<D::Event, StreamError<E>>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Pin::new(&mut self.frames)
            .poll_next(cx)
            .map(|item| item.map(|frame| D::decode(&frame?).map_err(StreamError::Decode)))
    }
}

impl<S, B, E, D> FusedStream for EventStream<S, D>
where
    S: Stream<Item = Result<B, E>> + Unpin,
    B: Into<Bytes>,
    D: Dialect,
{
    fn is_terminated(&self) -> bool {
        self.frames.is_terminated()
    }
}

impl<S, B, E, D> EventStream<S, D>
where
    S: Stream<Item = Result<B, E>> + Unpin,
    B: Into<Bytes>,
    D: Dialect,
    D::Accumulator: Default,
{
    /// Reads the stream to its end into the dialect's accumulator (with its
    /// default limits) and returns the final response with its outcome.
    ///
    /// Never fails: a stream that ends early, by a transport error or
    /// because the server stopped sending, still gives what had arrived,
    /// with [`Outcome::Truncated`] (see [`Collected`]). Frames that are not
    /// events of the dialect, and events the accumulator could not keep,
    /// are skipped and counted. Each frame is decoded once.
    ///
    /// ```
    /// use futures::{executor::block_on, stream};
    /// use ssekit::accumulate::Outcome;
    /// use ssekit::adapters::SseStreamExt;
    ///
    /// // The server stopped before `response.completed`.
    /// let body = stream::iter([Ok::<_, std::io::Error>(concat!(
    ///     "data: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"r\",\"status\":\"in_progress\",\"output\":[]}}\n\n",
    ///     "data: {\"type\":\"response.output_text.delta\",\"sequence_number\":1,\"item_id\":\"m\",\"output_index\":0,\"content_index\":0,\"delta\":\"Hel\"}\n\n",
    /// ))]);
    /// let collected = block_on(body.responses_events().accumulate());
    /// assert_eq!(collected.outcome, Outcome::Truncated);
    /// assert_eq!(collected.response.output_text(), "Hel"); // the partial text
    /// assert!(collected.transport_error.is_none());
    /// ```
    pub async fn accumulate(self) -> Collected<D::Output, E> {
        self.accumulate_with(D::Accumulator::default(), |_| {})
            .await
    }
}

impl<S, B, E, D> EventStream<S, D>
where
    S: Stream<Item = Result<B, E>> + Unpin,
    B: Into<Bytes>,
    D: Dialect,
{
    /// As [`accumulate`](Self::accumulate), into `accumulator` (for other
    /// limits), handing each event's view to `on_event` before the
    /// accumulator sees it: to print text deltas as they arrive and still
    /// get the final response.
    ///
    /// ```
    /// use futures::{executor::block_on, stream};
    /// use ssekit::accumulate::{ChatAccumulator, ChatAccumulatorConfig, Outcome};
    /// use ssekit::adapters::SseStreamExt;
    /// use ssekit::chat::ChatEvent;
    ///
    /// let body = stream::iter([
    ///     Ok::<_, std::io::Error>("data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n"),
    ///     Ok("data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"),
    /// ]);
    /// let mut live = String::new();
    /// let collected = block_on(body.chat_events().accumulate_with(
    ///     ChatAccumulator::with_config(ChatAccumulatorConfig::DEFAULT.with_max_bytes(1 << 20)),
    ///     |event| {
    ///         if let ChatEvent::Chunk(chunk) = event {
    ///             if let Some(Ok(choice)) = chunk.first_choice() {
    ///                 if let Some(text) = choice.delta.and_then(|d| d.content) {
    ///                     text.unescape_into(&mut live);
    ///                 }
    ///             }
    ///         }
    ///     },
    /// ));
    /// assert_eq!(live, "Hi");
    /// assert_eq!(collected.outcome, Outcome::Completed);
    /// assert_eq!(collected.response.choice(0).unwrap().content().as_deref(), Some("Hi"));
    /// ```
    pub async fn accumulate_with<F>(
        self,
        mut accumulator: D::Accumulator,
        mut on_event: F,
    ) -> Collected<D::Output, E>
    where
        F: FnMut(&D::View<'_>),
    {
        let mut frames = self.frames;
        let mut problems = 0u64;
        let mut first_problem = None;
        let mut transport_error = None;
        while let Some(item) = poll_fn(|cx| Pin::new(&mut frames).poll_next(cx)).await {
            let result = match item {
                Ok(frame) => D::push_frame(&mut accumulator, &frame, &mut on_event),
                Err(StreamError::Transport(e)) => {
                    // The connection is gone: what arrived is the result.
                    transport_error = Some(e);
                    break;
                }
                Err(StreamError::Frame(e)) => Err(Error::Frame(e)),
                Err(StreamError::Decode(e)) => Err(Error::Decode(e)),
            };
            if let Err(e) = result {
                problems += 1;
                first_problem.get_or_insert(e);
            }
        }
        let response = D::finish(accumulator);
        Collected {
            outcome: D::outcome(&response),
            response,
            transport_error,
            problems,
            first_problem,
            last_event_id: alloc::string::String::from(frames.parser().last_event_id()),
        }
    }
}

/// What [`EventStream::accumulate`] returns: the final response, how the
/// stream ended, and what went wrong on the way.
///
/// The response is there whatever happened: check [`outcome`](Self::outcome)
/// to tell a complete answer from a partial one.
///
/// | `outcome` | the stream … |
/// | --- | --- |
/// | [`Completed`](Outcome::Completed) | ended as the dialect says a complete stream ends |
/// | [`Incomplete`](Outcome::Incomplete) | ended with `response.incomplete` (Responses: a token limit, a content filter) |
/// | [`Failed`](Outcome::Failed) | carried an error from the server |
/// | [`Truncated`](Outcome::Truncated) | stopped early: the connection failed ([`transport_error`](Self::transport_error)) or the server stopped sending; `response` is what had arrived |
#[derive(Debug)]
#[non_exhaustive]
pub struct Collected<T, E> {
    /// The final response, as far as it arrived: a
    /// [`FinalResponse`], [`ChatCompletion`], [`Message`] or
    /// [`GeminiResponse`].
    pub response: T,
    /// How the stream ended (the response's own `outcome()`).
    pub outcome: Outcome,
    /// The transport error that ended the stream, if one did. The stream is
    /// not polled after it.
    pub transport_error: Option<E>,
    /// The number of frames skipped (a parser limit, a frame that does not
    /// decode, a truncated tail) and of events the accumulator could not
    /// fully keep.
    pub problems: u64,
    /// The first of those problems.
    pub first_problem: Option<Error>,
    /// The stream's last event ID when it ended, to resume with (see
    /// [`Parser::last_event_id`]); empty if the server sent none.
    pub last_event_id: alloc::string::String,
}

impl<T, E> Collected<T, E> {
    /// Whether the stream completed: [`Outcome::Completed`].
    pub fn is_completed(&self) -> bool {
        self.outcome == Outcome::Completed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapters::SseStreamExt;
    use crate::FrameErrorKind;
    use alloc::string::String;
    use alloc::vec;
    use alloc::vec::Vec;
    use futures::executor::block_on;
    use futures::{stream, StreamExt};

    type Chunk = Result<&'static str, &'static str>;

    const RESPONSES: &str = concat!(
        "event: response.created\n",
        "data: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"r\",\"status\":\"in_progress\",\"output\":[]}}\n\n",
        "event: response.output_text.delta\n",
        "data: {\"type\":\"response.output_text.delta\",\"sequence_number\":1,\"item_id\":\"m\",\"output_index\":0,\"content_index\":0,\"delta\":\"Hel\"}\n\n",
        "data: {\"type\":\"response.output_text.delta\",\"sequence_number\":2,\"item_id\":\"m\",\"output_index\":0,\"content_index\":0,\"delta\":\"lo\"}\n\n",
    );
    const COMPLETED: &str = "data: {\"type\":\"response.completed\",\"sequence_number\":3,\"response\":{\"id\":\"r\",\"status\":\"completed\",\"output\":[{\"type\":\"message\",\"id\":\"m\",\"role\":\"assistant\",\"status\":\"completed\",\"content\":[{\"type\":\"output_text\",\"text\":\"Hello\",\"annotations\":[]}]}]}}\n\n";

    const ANTHROPIC: &str = concat!(
        "event: message_start\n",
        "data: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[],\"stop_reason\":null,\"usage\":{\"input_tokens\":1,\"output_tokens\":0}}}\n\n",
        "event: content_block_start\n",
        "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
        "event: content_block_delta\n",
        "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\n",
        "event: content_block_stop\n",
        "data: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
        "event: message_delta\n",
        "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":1}}\n\n",
        "event: message_stop\n",
        "data: {\"type\":\"message_stop\"}\n\n",
    );

    /// `text` in chunks of `n` bytes (all ASCII).
    fn chunks(text: &'static str, n: usize) -> Vec<Chunk> {
        (0..text.len())
            .step_by(n)
            .map(|i| Ok(&text[i..(i + n).min(text.len())]))
            .collect()
    }

    #[test]
    fn a_completed_stream_gives_the_response_in_any_chunking() {
        let whole = alloc::format!("{RESPONSES}{COMPLETED}").leak();
        for n in [1, 7, 64, whole.len()] {
            let c = block_on(
                stream::iter(chunks(whole, n))
                    .responses_events()
                    .accumulate(),
            );
            assert_eq!(c.outcome, Outcome::Completed, "chunks of {n}");
            assert!(c.is_completed());
            assert_eq!(c.response.output_text(), "Hello");
            assert_eq!((c.problems, c.transport_error), (0, None));
        }
    }

    #[test]
    fn a_transport_error_ends_the_stream_and_keeps_the_partial_response() {
        let mut items = chunks(RESPONSES, 16);
        items.push(Err("connection reset"));
        items.push(Ok(COMPLETED)); // never read: the connection is gone
        let c = block_on(stream::iter(items).responses_events().accumulate());
        assert_eq!(c.outcome, Outcome::Truncated);
        assert!(!c.is_completed());
        assert_eq!(c.transport_error, Some("connection reset"));
        assert_eq!(c.response.output_text(), "Hello");
        assert_eq!(c.problems, 0);
    }

    #[test]
    fn undecodable_frames_and_a_cut_tail_are_counted_and_skipped() {
        let items: Vec<Chunk> = vec![
            Ok(RESPONSES),
            Ok("data: not json\n\n"),
            Ok("data: {\"type\":\"response.output_text.delta\",\"sequence_n"),
        ];
        let c = block_on(stream::iter(items).responses_events().accumulate());
        assert_eq!(c.outcome, Outcome::Truncated);
        assert_eq!(c.response.output_text(), "Hello");
        assert_eq!(c.problems, 2);
        assert!(matches!(c.first_problem, Some(Error::Decode(_))));
    }

    #[test]
    fn the_event_stream_yields_owned_events_and_errors_in_order() {
        let items: Vec<Chunk> = vec![
            Ok("data: {\"id\":\"c\",\"choices\":[]}\n\ndata: 1\n\n"),
            Err("reset"),
            Ok("data: [DONE]\n\ndata: cut"),
        ];
        let got: Vec<_> = block_on(stream::iter(items).chat_events().collect());
        assert_eq!(got.len(), 5);
        assert!(matches!(
            got[0].as_ref().unwrap().get(),
            crate::chat::ChatEvent::Chunk(_)
        ));
        assert!(got[1].as_ref().unwrap_err().as_decode_error().is_some());
        assert!(got[2].as_ref().unwrap_err().is_transport());
        assert!(matches!(
            got[3].as_ref().unwrap().get(),
            crate::chat::ChatEvent::Done
        ));
        let tail = got[4].as_ref().unwrap_err().as_frame_error().unwrap();
        assert_eq!(tail.kind(), FrameErrorKind::TruncatedTail { len: 9 });
    }

    #[test]
    fn anthropic_streams_accumulate_and_events_are_seen_live() {
        let mut types = Vec::new();
        let c = block_on(
            stream::iter(chunks(ANTHROPIC, 5))
                .anthropic_events()
                .accumulate_with(AnthropicAccumulator::new(), |e| {
                    types.push(String::from(e.ty()))
                }),
        );
        assert_eq!(c.outcome, Outcome::Completed, "{:?}", c.first_problem);
        assert_eq!(c.response.content().next().unwrap().text(), Some("Hi"));
        assert_eq!(types.len(), 6);
        assert_eq!(types[0], "message_start");

        let cut = &ANTHROPIC[..ANTHROPIC.find("event: content_block_stop").unwrap()];
        let c = block_on(
            stream::iter([Ok::<_, &str>(cut)])
                .anthropic_events()
                .accumulate(),
        );
        assert_eq!(c.outcome, Outcome::Truncated);
        assert_eq!(c.response.content().next().unwrap().text(), Some("Hi"));
    }

    /// An object that does not fit its type: the event stream passes it on
    /// (owned `Unknown`, its error kept); `accumulate_with` reads strictly
    /// (`Error::Decode`, not handed to `on_event`), in every dialect.
    #[test]
    fn objects_that_do_not_fit_are_passed_on_and_not_pushed() {
        let unfit = "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":\"0\"}\n\n";
        let got: Vec<_> = block_on(
            stream::iter([Ok::<_, &str>(unfit)])
                .anthropic_events()
                .collect(),
        );
        let event = got[0].as_ref().unwrap().get();
        assert!(matches!(
            event,
            AnthropicEvent::Unknown { error: Some(_), .. }
        ));
        let mut seen = 0;
        let body = [Ok::<_, &str>(ANTHROPIC), Ok(unfit)];
        let c = block_on(
            stream::iter(body)
                .anthropic_events()
                .accumulate_with(AnthropicAccumulator::new(), |_| seen += 1),
        );
        assert_eq!(seen, 6, "the unfit event was handed on");
        assert_eq!(c.problems, 1);
        assert!(
            matches!(c.first_problem, Some(Error::Decode(e)) if Some(e) == event.decode_error()),
            "{:?}",
            c.first_problem
        );

        let unfit = "data: {\"id\":\"c\",\"created\":\"x\",\"choices\":[]}\n\n";
        let mut seen = 0;
        let c = block_on(
            stream::iter([Ok::<_, &str>(unfit)])
                .chat_events()
                .accumulate_with(ChatAccumulator::new(), |_| seen += 1),
        );
        assert_eq!((seen, c.problems), (0, 1));
        assert!(matches!(c.first_problem, Some(Error::Decode(_))));
    }

    const GEMINI: &str = concat!(
        "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hel\"}],\"role\":\"model\"}}],\"responseId\":\"g1\"}\r\n\r\n",
        "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"lo\"}],\"role\":\"model\"},\"finishReason\":\"STOP\"}],",
        "\"usageMetadata\":{\"promptTokenCount\":2,\"candidatesTokenCount\":2,\"totalTokenCount\":4}}\r\n\r\n",
    );

    #[test]
    fn gemini_streams_accumulate_in_any_chunking_and_a_cut_is_truncated() {
        for n in [1, 3, 64, GEMINI.len()] {
            let c = block_on(stream::iter(chunks(GEMINI, n)).gemini_events().accumulate());
            assert_eq!(c.outcome, Outcome::Completed, "chunks of {n}");
            assert_eq!(c.response.candidate(0).unwrap().text(), "Hello");
            assert_eq!(c.response.response_id(), Some("g1"));
            assert_eq!((c.problems, c.transport_error), (0, None));
        }
        let cut = &GEMINI[..GEMINI.find("\r\n\r\n").unwrap() + 4];
        let c = block_on(
            stream::iter([Ok::<_, &str>(cut)])
                .gemini_events()
                .accumulate(),
        );
        assert_eq!(c.outcome, Outcome::Truncated);
        assert_eq!(c.response.candidate(0).unwrap().text(), "Hel");

        // Owned chunks, and one that is not an object: a decode error.
        let items: Vec<Chunk> = vec![Ok(GEMINI), Ok("data: [DONE]\n\n")];
        let got: Vec<_> = block_on(stream::iter(items).gemini_events().collect());
        assert_eq!(got.len(), 3);
        assert!(matches!(
            got[1].as_ref().unwrap().get(),
            crate::gemini::GeminiEvent::Response(_)
        ));
        assert!(got[2].as_ref().unwrap_err().as_decode_error().is_some());
    }

    #[test]
    fn each_marker_states_its_dialect() {
        assert_eq!(ResponsesDialect::DIALECT, crate::Dialect::Responses);
        assert_eq!(ChatDialect::DIALECT, crate::Dialect::Chat);
        assert_eq!(AnthropicDialect::DIALECT, crate::Dialect::Anthropic);
        assert_eq!(GeminiDialect::DIALECT, crate::Dialect::Gemini);
    }

    #[test]
    fn the_last_event_id_is_kept_for_resuming() {
        let items: Vec<Chunk> = vec![Ok("id: 7\ndata: {\"id\":\"c\",\"choices\":[]}\n\n")];
        let c = block_on(stream::iter(items).chat_events().accumulate());
        assert_eq!(c.last_event_id, "7");
    }

    #[test]
    fn streams_and_their_futures_are_send() {
        fn check<T: Send>(_: &T) {}
        let s = stream::iter(Vec::<Result<Bytes, &'static str>>::new()).responses_events();
        check(&s);
        let f = s.accumulate();
        check(&f);
        drop(f);
    }
}
