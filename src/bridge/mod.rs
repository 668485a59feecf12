//! L5: one dialect's stream in, another's out, event by event.
//!
//! A gateway that puts a Chat Completions, Anthropic Messages or Gemini
//! model behind an OpenAI Responses endpoint (or a Responses model behind a
//! Chat Completions endpoint) feeds each upstream frame to a bridge as it
//! arrives and sends what the bridge wrote at once:
//!
//! | upstream | bridge | downstream |
//! | --- | --- | --- |
//! | Chat Completions chunks | [`ChatToResponses`] | Responses events |
//! | Anthropic Messages events | [`AnthropicToResponses`] | Responses events |
//! | Gemini `streamGenerateContent` chunks | [`GeminiToResponses`] | Responses events |
//! | Responses events | [`ResponsesToChat`] | Chat Completions chunks, then `data: [DONE]` |
//!
//! Every bridge is sans-IO: [`Bridge::push_frame`] takes one upstream
//! frame, [`Bridge::take`] hands out the bytes written so far,
//! [`Bridge::finish`] says the upstream ended. Nothing is held back: each
//! text, reasoning or argument fragment of the upstream leaves as one
//! downstream delta during the `push_frame` that brought it. The
//! Responses side is written by [`ResponsesWriter`], so it is always a
//! well-formed stream (sequence numbers, item ids, `added`/`done` pairs,
//! one terminal event) that lints clean under the Codex rules.
//!
//! # Bad upstreams
//!
//! An upstream that breaks its own protocol (a fragment of a tool call
//! never started, text after the end, invalid JSON, a count or size past
//! a limit, a stream cut before its end) gets a [`BridgeError`] with the
//! upstream event's position, and the downstream gets a well-formed end:
//! `response.failed` (or, towards Chat, an error chunk and `[DONE]`). After
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

mod anthropic;
mod chat;
mod gemini;
mod to_chat;
mod translate;

use alloc::string::String;
use bytes::Bytes;
use core::fmt;

pub use anthropic::AnthropicToResponses;
pub use chat::ChatToResponses;
pub use gemini::GeminiToResponses;
pub use to_chat::ResponsesToChat;
pub use translate::{boxed, translate, turn_config, AnyReader, AnyWriter, Translate};

use crate::frame::{Frame, FrameError, Parser};
use crate::json::JsonStr;
use crate::responses::writer::{ResponsesWriter, TokenUsage, WriterError, WriterErrorKind};
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
    /// ([`ResponsesWriter::with_max_kept_bytes`]).
    pub max_kept_bytes: usize,
    /// The limit on distinct tool call indexes (Chat), content block
    /// indexes (Anthropic) or function-call items (Responses → Chat) of
    /// one stream.
    pub max_items: usize,
}

impl Default for BridgeConfig {
    fn default() -> Self {
        Self {
            response_id: None,
            model: None,
            created_at: None,
            max_kept_bytes: crate::responses::writer::DEFAULT_MAX_KEPT_BYTES,
            max_items: DEFAULT_MAX_ITEMS,
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

// ---- shared by the bridges to Responses

/// The kind of the downstream item that is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Item {
    None,
    Message,
    Refusal,
    Reasoning,
    Call,
}

/// How a Responses stream is to end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Completed,
    Incomplete(&'static str),
    Failed,
}

/// The Responses side of the bridges to Responses: the writer (made at the
/// first upstream event that names the response), the item ids, the
/// scratch buffers, the position.
#[derive(Debug)]
struct ToResponses {
    config: BridgeConfig,
    writer: Option<ResponsesWriter>,
    /// The id base of the items: `{kind}_{base}_{n}`.
    base: String,
    /// The open item's kind.
    item: Item,
    /// Items started.
    items: u64,
    /// Scratch: unescaped fragments, ids.
    text: String,
    id: String,
    /// Upstream frames pushed.
    events: u64,
    usage: Option<TokenUsage>,
    /// Whether the terminal event was written.
    finished: bool,
    /// Keep-alives written before the writer was made.
    early: bytes::BytesMut,
}

impl ToResponses {
    fn new(config: BridgeConfig) -> Self {
        Self {
            config,
            writer: None,
            base: String::new(),
            item: Item::None,
            items: 0,
            text: String::new(),
            id: String::new(),
            events: 0,
            usage: None,
            finished: false,
            early: bytes::BytesMut::new(),
        }
    }

    /// Makes the writer, if not made yet, for the upstream's id, model and
    /// time (each unless the config sets it).
    fn open(&mut self, id: Option<JsonStr<'_>>, model: Option<JsonStr<'_>>, created: Option<u64>) {
        if self.writer.is_some() {
            return;
        }
        let upstream = id.map(|s| s.unescape());
        let response_id = match (&self.config.response_id, &upstream) {
            (Some(given), _) => given.clone(),
            (None, Some(up)) if up.starts_with("resp_") => String::from(&**up),
            (None, Some(up)) => alloc::format!("resp_{up}"),
            (None, None) => String::from("resp_bridge"),
        };
        self.base = String::from(response_id.strip_prefix("resp_").unwrap_or(&response_id));
        let model = match (&self.config.model, model) {
            (Some(m), _) => m.clone(),
            (None, Some(m)) => m.unescape().into_owned(),
            (None, None) => String::new(),
        };
        let created = self.config.created_at.or(created).unwrap_or(0);
        let mut writer = ResponsesWriter::new(&response_id, &model, created)
            .with_max_kept_bytes(self.config.max_kept_bytes);
        // `response.created` and `.in_progress` as soon as the upstream
        // names its response: the client sees the response start at once.
        let _ = writer.start(); // a new writer cannot be finished
        self.writer = Some(writer);
    }

    fn writer(&mut self) -> &mut ResponsesWriter {
        self.open(None, None, None);
        // `open` made it; the default is never used.
        self.writer
            .get_or_insert_with(|| ResponsesWriter::new("resp_bridge", "", 0))
    }

    fn error(&self, kind: BridgeErrorKind) -> BridgeError {
        BridgeError::new(kind, self.events.saturating_sub(1))
    }

    /// Maps a writer error to a bridge error.
    fn wrote(&self, r: Result<(), WriterError>) -> Result<(), BridgeError> {
        r.map_err(|e| self.error(BridgeErrorKind::Writer(e.kind())))
    }

    /// The next item id of this kind, in `self.id`.
    fn next_id(&mut self, prefix: &str) {
        use core::fmt::Write;
        self.id.clear();
        let _ = write!(self.id, "{prefix}_{}_{}", self.base, self.items);
        self.items += 1;
    }

    /// Starts an item of this kind unless one is open.
    fn ensure(&mut self, kind: Item) -> Result<(), BridgeError> {
        if self.item == kind {
            return Ok(());
        }
        self.start(kind)
    }

    /// Starts a message, refusal or reasoning item (the open one is
    /// finished first).
    fn start(&mut self, kind: Item) -> Result<(), BridgeError> {
        let prefix = match kind {
            Item::Reasoning => "rs",
            _ => "msg",
        };
        self.open(None, None, None); // the id base comes from the response id
        self.next_id(prefix);
        let ToResponses { writer, id, .. } = self;
        let w = writer.get_or_insert_with(|| ResponsesWriter::new("resp_bridge", "", 0));
        let r = match kind {
            Item::Message => w.start_message(id),
            Item::Refusal => w.start_refusal(id),
            _ => w.start_reasoning(id),
        };
        self.wrote(r)?;
        self.item = kind;
        Ok(())
    }

    /// Starts a function call item.
    fn start_call(&mut self, call_id: Option<&str>, name: &str) -> Result<(), BridgeError> {
        self.writer();
        self.next_id("fc");
        let generated;
        let call_id = match call_id {
            Some(id) => id,
            None => {
                generated = alloc::format!("call_{}_{}", self.base, self.items.saturating_sub(1));
                &generated
            }
        };
        let ToResponses { writer, id, .. } = self;
        let w = writer.get_or_insert_with(|| ResponsesWriter::new("resp_bridge", "", 0));
        let r = w.start_function_call(id, call_id, name);
        self.wrote(r)?;
        self.item = Item::Call;
        Ok(())
    }

    /// Writes a fragment to the open item of `kind`, starting one if
    /// needed. Empty fragments write nothing.
    fn delta(&mut self, kind: Item, s: JsonStr<'_>) -> Result<(), BridgeError> {
        if s.is_empty() {
            return Ok(());
        }
        self.ensure(kind)?;
        let ToResponses { writer, text, .. } = self;
        let Some(w) = writer.as_mut() else {
            return Ok(()); // `ensure` made it
        };
        let fragment = unescaped(s, text);
        let r = match kind {
            Item::Message => w.text_delta(fragment),
            Item::Refusal => w.refusal_delta(fragment),
            Item::Reasoning => w.summary_delta(fragment),
            _ => w.arguments_delta(fragment),
        };
        self.wrote(r)
    }

    /// Finishes the open item, if any.
    fn close(&mut self) -> Result<(), BridgeError> {
        let kind = core::mem::replace(&mut self.item, Item::None);
        let Some(w) = self.writer.as_mut() else {
            return Ok(());
        };
        let r = match kind {
            Item::None => return Ok(()),
            Item::Message | Item::Refusal => w.finish_message(),
            Item::Reasoning => w.finish_reasoning(),
            Item::Call => w.finish_function_call(),
        };
        self.wrote(r)
    }

    /// Writes the terminal event.
    fn end(&mut self, end: End, code: &str, message: &str) -> Result<(), BridgeError> {
        if self.finished {
            return Ok(());
        }
        self.finished = true;
        self.item = Item::None;
        let usage = self.usage;
        let w = self.writer();
        if let Some(u) = usage {
            w.set_usage(u);
        }
        let r = match end {
            End::Completed => w.complete(),
            End::Incomplete(reason) => w.incomplete(reason),
            End::Failed => w.fail(code, message),
        };
        self.wrote(r)
    }

    /// Ends the downstream as failed for this error, and returns it.
    fn fail(&mut self, e: BridgeError) -> BridgeError {
        let mut message = String::new();
        {
            use core::fmt::Write;
            let _ = write!(message, "{e}");
        }
        let _ = self.end(End::Failed, "server_error", &message);
        e
    }

    /// Counts a pushed frame; refuses input after the end.
    fn begin_event(&mut self) -> Result<(), BridgeError> {
        self.events += 1;
        if self.finished {
            return Err(self.error(BridgeErrorKind::Finished));
        }
        Ok(())
    }

    fn take(&mut self) -> Bytes {
        let Some(writer) = self.writer.as_mut() else {
            return self.early.split().freeze();
        };
        if self.early.is_empty() {
            return writer.take();
        }
        // Keep-alives written before the writer, then what it wrote.
        self.early.extend_from_slice(&writer.take());
        self.early.split().freeze()
    }

    fn keep_alive(&mut self) {
        match self.writer.as_mut() {
            _ if self.finished => {}
            Some(writer) => writer.keep_alive(),
            // Before the upstream named its response: a comment of our own,
            // so that the response id is still the upstream's.
            None => self.early.extend_from_slice(b": keep-alive\n\n"),
        }
    }
}

/// The text of a JSON string: borrowed when it has no escapes, else
/// unescaped into `scratch`.
fn unescaped<'s>(s: JsonStr<'s>, scratch: &'s mut String) -> &'s str {
    match s.as_str() {
        Some(text) => text,
        None => {
            scratch.clear();
            s.unescape_into(scratch);
            scratch
        }
    }
}

/// Implements [`Bridge`] for a bridge to Responses whose `core` field is a
/// [`ToResponses`] and which has `fn push_frame_inner` and `fn end_of_input`.
macro_rules! to_responses_bridge {
    ($ty:ty) => {
        impl $crate::bridge::Bridge for $ty {
            fn push_frame(
                &mut self,
                frame: &$crate::Frame,
            ) -> Result<(), $crate::bridge::BridgeError> {
                self.core.begin_event()?;
                match self.push_frame_inner(frame) {
                    Ok(()) => Ok(()),
                    Err(e) => Err(self.core.fail(e)),
                }
            }

            fn finish(&mut self) -> Result<(), $crate::bridge::BridgeError> {
                if self.core.finished {
                    return Ok(());
                }
                match self.end_of_input() {
                    Ok(()) => Ok(()),
                    Err(e) => Err(self.core.fail(e)),
                }
            }

            fn abort(&mut self, code: &str, message: &str) {
                let _ = self.core.end($crate::bridge::End::Failed, code, message);
            }

            fn take(&mut self) -> $crate::Bytes {
                self.core.take()
            }

            fn keep_alive(&mut self) {
                self.core.keep_alive();
            }

            fn is_finished(&self) -> bool {
                self.core.finished
            }

            fn events(&self) -> u64 {
                self.core.events
            }
        }
    };
}
use to_responses_bridge;
