//! L5: one dialect's stream in, another's out, event by event.
//!
//! A bridge is a reader of the upstream's dialect followed by a writer of
//! the downstream's ([`Translate`]), through the model of a streamed turn
//! ([`crate::turn`]): any of the four dialects (OpenAI Responses, Chat
//! Completions, Anthropic Messages, Gemini) to any other, 12 directions
//! and the four identities. [`translate`] picks the pair at run time (what
//! `ssekit bridge --from D --to D` runs); the directions the crate had
//! before the model keep their names:
//!
//! | upstream | bridge | downstream |
//! | --- | --- | --- |
//! | Chat Completions chunks | [`ChatToResponses`] | Responses events |
//! | Anthropic Messages events | [`AnthropicToResponses`] | Responses events |
//! | Gemini `streamGenerateContent` chunks | [`GeminiToResponses`] | Responses events |
//! | Responses events | [`ResponsesToChat`] | Chat Completions chunks, then `data: [DONE]` |
//! | any | [`translate`]`(from, to, config)` | any |
//!
//! Every bridge is sans-IO: [`Bridge::push_frame`] takes one upstream
//! frame, [`Bridge::take`] hands out the bytes written so far,
//! [`Bridge::finish`] says the upstream ended. Each text, reasoning or
//! argument fragment of the upstream leaves during the `push_frame` that
//! brought it, with two exceptions: a dialect that writes items one after
//! another (Anthropic blocks, Responses items) holds the fragments of an
//! item that opened while another is open until that one ends, and Gemini,
//! whose function calls are sent whole, holds a call's arguments until the
//! call ends; both within [`BridgeConfig::max_held_bytes`].
//! The Responses side is written by
//! [`ResponsesWriter`](crate::responses::writer::ResponsesWriter), so it is
//! always a well-formed stream (sequence numbers, item ids,
//! `added`/`done` pairs, one terminal event).
//!
//! # Bad upstreams
//!
//! An upstream that breaks its own protocol (a fragment of a tool call
//! never started, text after the end, invalid JSON, a count or size past
//! a limit, a stream cut before its end) gets a [`BridgeError`] with the
//! upstream event's position, and the downstream gets a well-formed end:
//! `response.failed`, Anthropic `event: error`, a Chat error chunk and
//! `[DONE]`, a Gemini error object. After
//! that the bridge is finished: it writes nothing more, a further frame
//! gets [`BridgeErrorKind::Finished`] ([`BytesBridge`] drops them), and
//! [`Bridge::finish`] is `Ok`. An error the
//! upstream *reports* (an `error` event or chunk) is translated, not an
//! error of the bridge: it ends the downstream the same way.
//!
//! Memory is bounded: the writer's limit on the text it keeps
//! ([`BridgeConfig::max_kept_bytes`]) and a limit on the tool calls or
//! blocks a stream may name ([`BridgeConfig::max_items`]); the maps keyed
//! by upstream indexes never shift on insert.
//!
//! # Example
//!
//! ```
//! use ssekit::bridge::{Bridge, ChatToResponses};
//! use ssekit::{Bytes, Parser};
//!
//! let upstream = concat!(
//!     r#"data: {"id":"chatcmpl-1","created":7,"model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"}}]}"#, "\n\n",
//!     r#"data: {"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":"stop"}]}"#, "\n\n",
//!     "data: [DONE]\n\n",
//! );
//! let mut parser = Parser::new();
//! parser.feed(Bytes::from_static(upstream.as_bytes()));
//! let mut bridge = ChatToResponses::new();
//! let mut downstream = Vec::new();
//! while let Some(frame) = parser.next_frame()? {
//!     bridge.push_frame(&frame)?;
//!     downstream.extend_from_slice(&bridge.take()); // send at once
//! }
//! bridge.finish()?;
//! downstream.extend_from_slice(&bridge.take());
//! let text = String::from_utf8(downstream)?;
//! assert!(text.starts_with("event: response.created\n"));
//! assert!(text.contains(r#""type":"response.output_text.delta","sequence_number":4,"item_id":"msg_chatcmpl-1_0","output_index":0,"content_index":0,"delta":"Hel""#));
//! assert!(text.contains("event: response.completed\n"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod translate;

use alloc::string::String;
use bytes::Bytes;
use core::fmt;

pub use translate::{
    boxed, translate, turn_config, AnthropicToResponses, AnyReader, AnyWriter, ChatToResponses,
    GeminiToResponses, ResponsesToChat, Translate,
};

use crate::frame::{Frame, FrameError, Parser};
use crate::responses::writer::WriterErrorKind;
use crate::responses::DecodeError;

/// The default of [`BridgeConfig::max_items`]: 4096 tool calls or blocks,
/// as the accumulators allow.
pub const DEFAULT_MAX_ITEMS: usize = 4096;

/// What a bridge is told besides the upstream: the ids and times it writes,
/// and its limits. [`Default`] derives everything from the upstream.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct BridgeConfig {
    /// The downstream response (or completion) id. `None`: derived from the
    /// upstream's id (`resp_{upstream id}` for Responses, `chatcmpl-{id}`
    /// for Chat), so that the same upstream always gives the same bytes.
    /// Item ids are `{msg|rs|fc}_{base}_{n}`, `base` this id without its
    /// `resp_` prefix, `n` the item's output index.
    pub response_id: Option<String>,
    /// The model named downstream. `None`: the upstream's.
    pub model: Option<String>,
    /// The creation time (Unix seconds). `None`: the upstream's, or 0 when
    /// it sends none (Anthropic, Gemini).
    pub created_at: Option<u64>,
    /// The limit on the text the Responses writer keeps for its done
    /// events and terminal response
    /// ([`ResponsesWriter::with_max_kept_bytes`](crate::responses::writer::ResponsesWriter::with_max_kept_bytes)).
    pub max_kept_bytes: usize,
    /// The limit on distinct tool call indexes (Chat), content block
    /// indexes (Anthropic) or function-call items (Responses → Chat) of
    /// one stream.
    pub max_items: usize,
    /// The limit on what a writer holds back
    /// ([`TurnConfig::max_held_bytes`](crate::turn::TurnConfig::max_held_bytes)):
    /// a later block's fragments towards Anthropic and Responses, a tool
    /// call's arguments and signature towards Gemini.
    pub max_held_bytes: usize,
}

impl Default for BridgeConfig {
    fn default() -> Self {
        Self {
            response_id: None,
            model: None,
            created_at: None,
            max_kept_bytes: crate::responses::writer::DEFAULT_MAX_KEPT_BYTES,
            max_items: DEFAULT_MAX_ITEMS,
            max_held_bytes: crate::turn::DEFAULT_MAX_HELD_BYTES,
        }
    }
}

impl BridgeConfig {
    /// This config with the downstream id set.
    #[must_use]
    pub fn with_response_id(mut self, id: &str) -> Self {
        self.response_id = Some(id.into());
        self
    }

    /// This config with the limit on kept text set.
    #[must_use]
    pub fn with_max_kept_bytes(mut self, max: usize) -> Self {
        self.max_kept_bytes = max;
        self
    }

    /// This config with the limit on tool calls or blocks set.
    #[must_use]
    pub fn with_max_items(mut self, max: usize) -> Self {
        self.max_items = max;
        self
    }
}

/// Why a bridge stopped: the downstream already has its well-formed end
/// (`response.failed`, or an error chunk and `[DONE]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum BridgeErrorKind {
    /// The upstream frame is not an event of its dialect (invalid JSON, a
    /// field of the wrong kind); the offset is in the frame's data.
    Decode(DecodeError),
    /// The upstream bytes broke a parser limit (an event or line too long).
    Frame(FrameError),
    /// A fragment of a tool call (Chat), or a delta of a block (Anthropic)
    /// or function call (Responses), whose index was never started.
    UnknownIndex {
        /// The index.
        index: u64,
    },
    /// A fragment of a tool call or block that was already finished
    /// (another one started since): the downstream items are written one
    /// after another and a finished one cannot take more.
    IndexClosed {
        /// The index.
        index: u64,
    },
    /// More distinct tool calls or blocks than [`BridgeConfig::max_items`].
    TooManyItems {
        /// The limit.
        limit: usize,
    },
    /// Content after the upstream said it was done (`finish_reason`,
    /// `message_stop`, `finishReason`).
    ContentAfterFinish,
    /// The upstream ended (or [`Bridge::finish`] was called) before the
    /// event that ends a complete stream.
    Truncated,
    /// The writer refused an event (its kept-text limit); nothing of the
    /// event was written.
    Writer(WriterErrorKind),
    /// Input after the downstream stream ended.
    Finished,
    /// A fault of the turn model's readers or writers with no kind of its
    /// own here: a second start, a hold past its limit, arguments that are
    /// not an object for a dialect that needs one.
    Turn(crate::turn::TurnErrorKind),
}

/// An error of a bridge: what, and at which upstream event (counted from 0
/// over the frames pushed) and byte offset, where known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BridgeError {
    kind: BridgeErrorKind,
    event_index: u64,
    stream_offset: Option<u64>,
}

impl BridgeError {
    #[cold]
    fn new(kind: BridgeErrorKind, event_index: u64) -> Self {
        Self {
            kind,
            event_index,
            stream_offset: None,
        }
    }

    /// This error, at the event whose block begins at `offset` in the
    /// upstream stream: for callers that parse the upstream themselves and
    /// push frames (what [`BytesBridge`] does for its errors).
    ///
    /// ```
    /// use ssekit::bridge::{Bridge, ChatToResponses};
    /// use ssekit::{Bytes, Parser};
    ///
    /// let mut parser = Parser::new();
    /// parser.feed(Bytes::from_static(b"data: [DONE]\n\ndata: {}\n\n"));
    /// let mut bridge = ChatToResponses::new();
    /// let frame = parser.next_frame()?.unwrap();
    /// let err = bridge.push_frame(&frame).unwrap_err().with_stream_offset(0);
    /// assert_eq!(err.stream_offset(), Some(0));
    /// assert_eq!(err.to_string(), "upstream ended before its end event at upstream event 0 (stream byte 0)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_stream_offset(mut self, offset: u64) -> Self {
        self.stream_offset = Some(offset);
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> BridgeErrorKind {
        self.kind
    }

    /// The position of the upstream event among those pushed (from 0).
    pub fn event_index(&self) -> u64 {
        self.event_index
    }

    /// The byte offset, where known: in the upstream stream for
    /// [`Frame`](BridgeErrorKind::Frame) errors, in the event's data for
    /// [`Decode`](BridgeErrorKind::Decode) errors.
    pub fn offset(&self) -> Option<u64> {
        match self.kind {
            BridgeErrorKind::Decode(e) => Some(e.offset() as u64),
            BridgeErrorKind::Frame(e) => Some(e.offset()),
            _ => None,
        }
    }

    /// Where the upstream event's block begins in the upstream stream (the
    /// byte after the previous event), when the bytes went through a
    /// [`BytesBridge`]; for [`Frame`](BridgeErrorKind::Frame) errors, the
    /// offset of the error.
    pub fn stream_offset(&self) -> Option<u64> {
        match self.kind {
            BridgeErrorKind::Frame(e) => Some(e.offset()),
            _ => self.stream_offset,
        }
    }
}

impl fmt::Display for BridgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            BridgeErrorKind::Decode(e) => write!(f, "undecodable upstream event: {e}")?,
            BridgeErrorKind::Frame(e) => write!(f, "upstream framing: {e}")?,
            BridgeErrorKind::UnknownIndex { index } => {
                write!(f, "fragment of index {index}, never started")?
            }
            BridgeErrorKind::IndexClosed { index } => {
                write!(f, "fragment of index {index}, already finished")?
            }
            BridgeErrorKind::TooManyItems { limit } => {
                write!(f, "more than {limit} tool calls or blocks")?
            }
            BridgeErrorKind::ContentAfterFinish => f.write_str("content after the upstream end")?,
            BridgeErrorKind::Truncated => f.write_str("upstream ended before its end event")?,
            BridgeErrorKind::Writer(WriterErrorKind::LimitExceeded { limit }) => {
                write!(f, "downstream text over the limit of {limit} bytes")?
            }
            BridgeErrorKind::Writer(kind) => write!(f, "downstream writer refused: {kind:?}")?,
            BridgeErrorKind::Finished => f.write_str("input after the downstream end")?,
            BridgeErrorKind::Turn(kind) => write!(f, "{kind:?}")?,
        }
        write!(f, " at upstream event {}", self.event_index)?;
        match self.stream_offset {
            Some(at) => write!(f, " (stream byte {at})"),
            None => Ok(()),
        }
    }
}

impl core::error::Error for BridgeError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match &self.kind {
            BridgeErrorKind::Decode(e) => Some(e),
            BridgeErrorKind::Frame(e) => Some(e),
            _ => None,
        }
    }
}

/// What every bridge does: frames in, bytes out. Object-safe, so a gateway
/// can pick the bridge for the upstream it detects at run time
/// (`Box<dyn Bridge>`).
pub trait Bridge {
    /// Translates one upstream frame; what it gives is in
    /// [`take`](Self::take) when this returns.
    ///
    /// # Errors
    ///
    /// A [`BridgeError`] when the upstream broke its protocol; the
    /// downstream then has its failed end, and the bridge is finished.
    /// After the end, [`BridgeErrorKind::Finished`].
    fn push_frame(&mut self, frame: &Frame) -> Result<(), BridgeError>;

    /// Says the upstream ended. A stream that ended as its dialect ends a
    /// complete stream is already finished; any other gets its failed end.
    ///
    /// # Errors
    ///
    /// [`BridgeErrorKind::Truncated`] for an upstream cut before its end
    /// (the downstream has its failed end). `Ok` when already finished.
    fn finish(&mut self) -> Result<(), BridgeError>;

    /// Ends the downstream as failed (`response.failed` with this code and
    /// message, or an error chunk and `[DONE]`), for a gateway that gives
    /// up on the upstream (a timeout, a connection error). Nothing when
    /// already finished.
    fn abort(&mut self, code: &str, message: &str);

    /// Takes the bytes written so far.
    fn take(&mut self) -> Bytes;

    /// Writes a keep-alive comment (`: keep-alive`), on the caller's
    /// schedule: readers ignore it, idle connections stay open.
    fn keep_alive(&mut self);

    /// Whether the downstream stream has ended.
    fn is_finished(&self) -> bool;

    /// Upstream frames pushed so far.
    fn events(&self) -> u64;

    /// Upstream items the downstream dialect cannot express and that were
    /// left out (a hosted tool call towards Chat, say; see
    /// [`TurnWriter::not_carried`](crate::turn::TurnWriter::not_carried)).
    fn not_carried(&self) -> u64 {
        0
    }

    /// Whether [`BytesBridge`] should pass the upstream's SSE comments on
    /// ([`upstream_comment`](Self::upstream_comment)).
    fn wants_comments(&self) -> bool {
        false
    }

    /// The upstream sent an SSE comment (a keep-alive): by default, a
    /// keep-alive of the downstream.
    fn upstream_comment(&mut self) {
        if !self.is_finished() {
            self.keep_alive();
        }
    }
}

/// A bridge over upstream *bytes*: a [`Parser`] in front of any
/// [`Bridge`], for gateways that read the upstream body chunk by chunk.
/// A framing error (an event over the parser's limits) ends the
/// downstream as failed.
///
/// ```
/// use ssekit::bridge::{BytesBridge, ChatToResponses};
/// use ssekit::Bytes;
///
/// let mut bridge = BytesBridge::new(ChatToResponses::new());
/// bridge.feed(Bytes::from_static(b"data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}\n\nda"))?;
/// bridge.feed(Bytes::from_static(b"ta: [DONE]\n\n"))?;
/// bridge.finish()?;
/// let out = bridge.take();
/// assert!(out.ends_with(b"\"usage\":null}}\n\n"));
/// # Ok::<(), ssekit::bridge::BridgeError>(())
/// ```
#[derive(Debug)]
pub struct BytesBridge<B> {
    parser: Parser,
    bridge: B,
    /// Stream offset where the next event's block begins.
    start: u64,
}

impl<B: Bridge> BytesBridge<B> {
    /// `bridge` behind a parser with the default limits.
    pub fn new(bridge: B) -> Self {
        Self::with_parser(Parser::new(), bridge)
    }

    /// `bridge` behind this parser (for its limits).
    pub fn with_parser(parser: Parser, bridge: B) -> Self {
        Self {
            parser,
            bridge,
            start: 0,
        }
    }

    /// Feeds upstream bytes, translating every frame they complete.
    ///
    /// # Errors
    ///
    /// The first [`BridgeError`] (framing errors as
    /// [`BridgeErrorKind::Frame`]); the downstream then has its failed end.
    pub fn feed(&mut self, chunk: Bytes) -> Result<(), BridgeError> {
        self.parser.feed(chunk);
        self.drain()
    }

    fn drain(&mut self) -> Result<(), BridgeError> {
        let comments = self.bridge.wants_comments();
        loop {
            let next = if comments {
                match self.parser.next_item() {
                    Ok(Some(crate::frame::Item::Frame(frame))) => Ok(Some(frame)),
                    Ok(Some(crate::frame::Item::Comment(_))) => {
                        self.bridge.upstream_comment();
                        continue;
                    }
                    Ok(Some(_)) => continue,
                    Ok(None) => Ok(None),
                    Err(e) => Err(e),
                }
            } else {
                self.parser.next_frame()
            };
            match next {
                Ok(Some(frame)) => {
                    let at = core::mem::replace(&mut self.start, self.parser.offset());
                    if self.bridge.is_finished() {
                        continue;
                    }
                    self.bridge
                        .push_frame(&frame)
                        .map_err(|e| e.with_stream_offset(at))?;
                }
                Ok(None) => return Ok(()),
                Err(e) => {
                    self.start = self.parser.offset();
                    if self.bridge.is_finished() {
                        continue;
                    }
                    self.bridge.abort("server_error", "upstream framing error");
                    return Err(BridgeError::new(
                        BridgeErrorKind::Frame(e),
                        self.bridge.events(),
                    ));
                }
            }
        }
    }

    /// The upstream ended: finishes the parser and the bridge.
    ///
    /// # Errors
    ///
    /// A stream cut inside an event, or before its end
    /// ([`Bridge::finish`]).
    pub fn finish(&mut self) -> Result<(), BridgeError> {
        if let Err(e) = self.parser.finish() {
            if !self.bridge.is_finished() {
                self.bridge
                    .abort("server_error", "upstream cut inside an event");
                return Err(BridgeError::new(
                    BridgeErrorKind::Frame(e),
                    self.bridge.events(),
                ));
            }
        }
        self.drain()?;
        let end = self.parser.offset();
        self.bridge.finish().map_err(|e| e.with_stream_offset(end))
    }

    /// Takes the bytes written so far.
    pub fn take(&mut self) -> Bytes {
        self.bridge.take()
    }

    /// The bridge.
    pub fn get_ref(&self) -> &B {
        &self.bridge
    }

    /// The bridge, mutably (for keep-alives).
    pub fn get_mut(&mut self) -> &mut B {
        &mut self.bridge
    }
}
