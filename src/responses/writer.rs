//! [`ResponsesWriter`]: an OpenAI Responses stream, written event by event,
//! for servers and gateways.

// Built on `encode` (the SSE lines), `json` (the JSON writer, and the
// scanner for `ResponsesWriter::forward`, to find `type` and replace
// `sequence_number` in an event it is handed) and the event types of
// `EventKind`.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;
use bytes::{BufMut, Bytes, BytesMut};
use core::fmt;

use super::{EventKind, EventRole};
use crate::json::{push_json_str, push_u64, ObjectWriter};
use crate::json::{JsonErrorKind, JsonStr, ObjectView};

/// Why the writer refused to write an event: nothing was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum WriterErrorKind {
    /// The terminal event (`response.completed`, `.incomplete` or `.failed`)
    /// was already written; a stream has exactly one.
    Finished,
    /// A text delta or `finish_message` with no message item open.
    NoOpenMessage,
    /// An arguments delta or `finish_function_call` with no function call open.
    NoOpenFunctionCall,
    /// A summary delta, `start_summary_part` or `finish_reasoning` with no
    /// reasoning item open.
    NoOpenReasoning,
    /// `finish_summary_part` with no summary part open.
    NoOpenSummaryPart,
    /// An item was started with the id of an earlier item of the response.
    DuplicateItemId,
    /// [`forward`](ResponsesWriter::forward): the text is not valid JSON; the
    /// offset is the byte where it goes wrong.
    InvalidJson {
        /// Byte offset of the error in the text.
        offset: usize,
    },
    /// [`forward`](ResponsesWriter::forward): the JSON is not an object.
    NotAnObject,
    /// [`forward`](ResponsesWriter::forward): the object has no string
    /// `type` member, or it is empty.
    MissingType,
    /// [`forward`](ResponsesWriter::forward): the `type` contains a line
    /// break (or NUL), which the `event:` line cannot carry.
    TypeLineBreak,
    /// Keeping this item's ids or this delta would take the text the writer
    /// keeps past its limit (see [`ResponsesWriter::with_max_kept_bytes`]).
    LimitExceeded {
        /// The limit, in bytes.
        limit: usize,
    },
}

/// What [`ResponsesWriter::forward`] does with the `[DONE]` end marker
/// that OpenRouter-style gateways send after the terminal event (the
/// OpenAI Responses API itself sends none). Set with
/// [`ResponsesWriter::with_done_marker`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum DoneMarker {
    /// Write `data: [DONE]` as it came: no `event:` line, no sequence
    /// number. The default: a gateway passes on what it was given, and the
    /// OpenAI SDKs (and this crate's views, as
    /// [`ResponsesEvent::Done`](crate::responses::ResponsesEvent::Done)) stop
    /// at it.
    #[default]
    Forward,
    /// Write nothing: for clients that expect only what the OpenAI
    /// Responses API sends.
    Drop,
}

/// An error of [`ResponsesWriter`]: the event was not written, and the
/// writer's state and sequence number are unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriterError {
    kind: WriterErrorKind,
    sequence_number: u64,
}

impl WriterError {
    #[cold]
    fn new(kind: WriterErrorKind, sequence_number: u64) -> Self {
        Self {
            kind,
            sequence_number,
        }
    }

    /// What is wrong.
    pub fn kind(&self) -> WriterErrorKind {
        self.kind
    }

    /// The sequence number the refused event would have had: its position
    /// in the stream.
    pub fn sequence_number(&self) -> u64 {
        self.sequence_number
    }
}

impl fmt::Display for WriterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            WriterErrorKind::Finished => "stream already finished",
            WriterErrorKind::NoOpenMessage => "no message item open",
            WriterErrorKind::NoOpenFunctionCall => "no function call item open",
            WriterErrorKind::NoOpenReasoning => "no reasoning item open",
            WriterErrorKind::NoOpenSummaryPart => "no summary part open",
            WriterErrorKind::DuplicateItemId => "duplicate item id",
            WriterErrorKind::InvalidJson { offset } => {
                return write!(
                    f,
                    "invalid json at byte {offset} of event {}",
                    self.sequence_number
                )
            }
            WriterErrorKind::NotAnObject => "event is not a json object",
            WriterErrorKind::MissingType => "event has no type",
            WriterErrorKind::TypeLineBreak => "line break in event type",
            WriterErrorKind::LimitExceeded { limit } => {
                return write!(
                    f,
                    "kept text over the limit of {limit} bytes at event {}",
                    self.sequence_number
                )
            }
        };
        write!(f, "{what} at event {}", self.sequence_number)
    }
}

impl core::error::Error for WriterError {}

/// Token counts for the `usage` of the terminal response.
///
/// `total_tokens` is written as `input_tokens + output_tokens`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct TokenUsage {
    /// Tokens of the input.
    pub input_tokens: u64,
    /// Tokens of the output (reasoning included).
    pub output_tokens: u64,
    /// Input tokens served from the cache (`input_tokens_details.cached_tokens`).
    pub cached_tokens: u64,
    /// Output tokens spent on reasoning (`output_tokens_details.reasoning_tokens`).
    pub reasoning_tokens: u64,
}

impl TokenUsage {
    /// Usage with these input and output counts, and no cached or reasoning tokens.
    pub fn new(input_tokens: u64, output_tokens: u64) -> Self {
        Self {
            input_tokens,
            output_tokens,
            ..Self::default()
        }
    }

    /// This usage with `cached_tokens` set.
    #[must_use]
    pub fn with_cached_tokens(mut self, n: u64) -> Self {
        self.cached_tokens = n;
        self
    }

    /// This usage with `reasoning_tokens` set.
    #[must_use]
    pub fn with_reasoning_tokens(mut self, n: u64) -> Self {
        self.reasoning_tokens = n;
        self
    }
}

/// The output bytes, the next sequence number and a scratch buffer for the
/// event's JSON: apart from the lifecycle state, so that an event's body can
/// read that state while the event is written.
#[derive(Debug, Default)]
struct Sink {
    out: BytesMut,
    seq: u64,
    json: String,
}

impl Sink {
    /// Writes one event: `event: {ty}`, then `data: {"type":ty,
    /// "sequence_number":n` + what `body` appends + `}`.
    fn event(&mut self, ty: &str, body: impl FnOnce(&mut String)) {
        let json = &mut self.json;
        json.clear();
        json.push_str("{\"type\":\"");
        json.push_str(ty);
        json.push('"');
        field_u64(json, "sequence_number", self.seq);
        body(json);
        json.push('}');
        put_event(&mut self.out, ty, &self.json);
        self.seq += 1;
    }
}

/// `event: {ty}` and the data lines (one per line of `data`; JSON we write
/// has no line breaks, JSON we forward may have some between tokens).
fn put_event(out: &mut BytesMut, ty: &str, data: &str) {
    out.reserve(ty.len() + data.len() + 17);
    out.put_slice(b"event: ");
    out.put_slice(ty.as_bytes());
    out.put_u8(b'\n');
    crate::encode::lines(out, b"data: ", data.as_bytes());
    out.put_u8(b'\n');
}

// Members after an event's `type` (or a nested object's first member),
// written by the crate's one JSON object writer.

fn key(s: &mut String, key: &'static str) {
    ObjectWriter::after_first(s).plain_key(key);
}

fn field_u64(s: &mut String, k: &'static str, n: u64) {
    key(s, k);
    push_u64(s, n);
}

fn field_str(s: &mut String, k: &'static str, v: &str) {
    key(s, k);
    push_json_str(s, v);
}

/// A member whose value is already JSON text.
fn field_raw(s: &mut String, k: &'static str, raw: &str) {
    key(s, k);
    s.push_str(raw);
}

/// `json` as an object with a non-empty string `type`, for the calls that
/// take whole JSON from the caller; errors are at sequence number `at`.
fn typed_object(json: &str, at: u64) -> Result<(ObjectView<'_>, JsonStr<'_>), WriterError> {
    let object = ObjectView::parse(json).map_err(|e| {
        let kind = match e.kind() {
            JsonErrorKind::ExpectedObject => WriterErrorKind::NotAnObject,
            _ => WriterErrorKind::InvalidJson { offset: e.offset() },
        };
        WriterError::new(kind, at)
    })?;
    let ty = object
        .get("type")
        .and_then(|v| v.as_json_str())
        .filter(|t| !t.is_empty())
        .ok_or(WriterError::new(WriterErrorKind::MissingType, at))?;
    Ok((object, ty))
}

/// A string as a JSON literal, kept to be written many times.
fn literal(v: &str) -> String {
    let mut s = String::new();
    push_json_str(&mut s, v);
    s
}

/// The output item being written.
#[derive(Debug)]
enum Open {
    None,
    Message {
        /// The item id, as a JSON literal.
        id: String,
        /// The text so far.
        text: String,
        /// Whether the part is a `refusal` (else `output_text`).
        refusal: bool,
    },
    FunctionCall {
        id: String,
        /// `call_id` and `name`, as JSON literals.
        call_id: String,
        name: String,
        /// The arguments so far.
        arguments: String,
    },
    Reasoning {
        id: String,
        /// The texts of the finished summary parts.
        summary: Vec<String>,
        /// The text so far of the open summary part.
        part: Option<String>,
        /// The `encrypted_content`, when set.
        encrypted: Option<String>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Nothing written yet.
    Idle,
    /// `response.created` and `response.in_progress` written.
    Streaming,
    /// A terminal event written.
    Finished,
}

/// Writes an OpenAI Responses API event stream, as a server or gateway
/// sends it, into a buffer you [`take`](Self::take) and send.
///
/// The high-level calls keep track of the response, so what they write is
/// always a well-formed stream: `sequence_number` counts from 0 without gaps;
/// each event's `event:` line equals its `type`; `response.created` and
/// `response.in_progress` come first (written by the first call, or by
/// [`start`](Self::start)); each output item is announced by
/// `response.output_item.added` and its content part by
/// `response.content_part.added` before any delta; every delta and done
/// event carries the item's `item_id`, `output_index` and
/// `content_index`/`summary_index`; each done event repeats the
/// concatenated deltas; every item is done before the one terminal event
/// (`response.completed`, `.incomplete` or `.failed`), whose `response`
/// holds every item as its `output_item.done` gave it. Calls that would
/// break this return a [`WriterError`] and write nothing:
///
/// * a delta for an item kind that is not open
///   ([`NoOpenMessage`](WriterErrorKind::NoOpenMessage), …);
/// * an item id used before ([`DuplicateItemId`](WriterErrorKind::DuplicateItemId));
/// * anything after the terminal event ([`Finished`](WriterErrorKind::Finished)).
///
/// Starting an item while another is open finishes the open one first, and
/// the terminal calls finish any open item (`status` `completed` for
/// [`complete`](Self::complete), `incomplete` for
/// [`incomplete`](Self::incomplete) and [`fail`](Self::fail)).
///
/// Items are written one after another (`output_index` 0, 1, …); a message
/// has one `output_text` part. The writer keeps each item's text until its
/// done events are written, and each finished item's JSON until the terminal
/// event, which lists them all: memory grows with the response, as the
/// response itself does, up to a limit. The limit counts the item ids,
/// call ids and names and every delta the writer keeps (64 MiB by default,
/// [`with_max_kept_bytes`](Self::with_max_kept_bytes)); a call that would
/// pass it returns [`LimitExceeded`](WriterErrorKind::LimitExceeded) and
/// writes nothing. What the writer holds is a small multiple of that count
/// (an item's text is kept as text while it is open and as JSON once it is
/// done; escaping makes a control character six bytes). The bytes written
/// and not yet [`take`](Self::take)n are the caller's to drain.
///
/// For gateways that pass events on, [`forward`](Self::forward) writes any
/// event JSON with the next sequence number stamped in. Comments and
/// heartbeats keep idle connections open: [`keep_alive`](Self::keep_alive),
/// [`heartbeat`](Self::heartbeat).
///
/// # Example
///
/// ```
/// use ssekit::responses::writer::{ResponsesWriter, TokenUsage};
/// use ssekit::responses::ResponsesEvent;
/// use ssekit::{Bytes, Parser};
///
/// let mut w = ResponsesWriter::new("resp_1", "my-model", 1_767_225_600);
/// w.start_message("msg_1")?; // also writes response.created and .in_progress
/// w.text_delta("Hello, ")?;
/// w.text_delta("\"world\"\n")?;
/// w.finish_message()?;
/// w.set_usage(TokenUsage::new(12, 3));
/// w.complete()?;
/// let wire: Bytes = w.take(); // send these bytes
///
/// // Read it back with the parser and the typed views.
/// let mut parser = Parser::new();
/// parser.feed(wire);
/// let mut types = Vec::new();
/// let mut text = String::new();
/// while let Some(frame) = parser.next_frame()? {
///     let event = ResponsesEvent::from_frame(&frame)?;
///     if let ResponsesEvent::OutputTextDelta(d) = &event {
///         assert_eq!(d.item_id, "msg_1");
///         d.delta.unescape_into(&mut text);
///     }
///     types.push(event.ty().to_owned());
/// }
/// assert_eq!(text, "Hello, \"world\"\n");
/// assert_eq!(types, [
///     "response.created",
///     "response.in_progress",
///     "response.output_item.added",
///     "response.content_part.added",
///     "response.output_text.delta",
///     "response.output_text.delta",
///     "response.output_text.done",
///     "response.content_part.done",
///     "response.output_item.done",
///     "response.completed",
/// ]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ResponsesWriter {
    sink: Sink,
    phase: Phase,
    /// `id` and `model` of the response, as JSON literals.
    id: String,
    model: String,
    created_at: u64,
    open: Open,
    /// The JSON of each finished item, in order.
    output: Vec<String>,
    /// The id of every item started, as a JSON literal.
    item_ids: BTreeSet<String>,
    usage: Option<TokenUsage>,
    /// Bytes of ids, names and deltas kept, and their limit.
    kept: usize,
    max_kept: usize,
    /// What `forward` does with `[DONE]`, and whether one came.
    done_marker: DoneMarker,
    done_seen: bool,
    /// Members every `response` object carries besides the writer's own
    /// (`,"tools":…`), from [`with_request_fields`](Self::with_request_fields).
    request: String,
}

/// The default limit of [`ResponsesWriter::with_max_kept_bytes`]: 64 MiB.
pub const DEFAULT_MAX_KEPT_BYTES: usize = 64 << 20;

impl ResponsesWriter {
    /// A writer for the response `id` of `model`, created at `created_at`
    /// (Unix seconds). Nothing is written yet.
    pub fn new(id: &str, model: &str, created_at: u64) -> Self {
        Self {
            sink: Sink::default(),
            phase: Phase::Idle,
            id: literal(id),
            model: literal(model),
            created_at,
            open: Open::None,
            output: Vec::new(),
            item_ids: BTreeSet::new(),
            usage: None,
            kept: 0,
            max_kept: DEFAULT_MAX_KEPT_BYTES,
            done_marker: DoneMarker::Forward,
            done_seen: false,
            request: String::new(),
        }
    }

    /// Makes every `response` object carry `tools`, `tool_choice` and
    /// `parallel_tool_calls`, which the official SDKs' types declare
    /// required: the request's values as JSON texts (`tools` an array,
    /// `tool_choice` a string or object), or `None` for the API's defaults
    /// (`[]`, `"auto"`, `true`). Texts that are not valid JSON are replaced
    /// by the defaults.
    ///
    /// ```
    /// use ssekit::responses::writer::ResponsesWriter;
    ///
    /// let mut w = ResponsesWriter::new("resp_1", "m", 0).with_request_fields(None, None, None);
    /// w.start()?;
    /// let out = String::from_utf8(w.take().to_vec()).unwrap();
    /// assert!(out.contains(r#""tools":[],"tool_choice":"auto","parallel_tool_calls":true,"usage":null"#));
    /// # Ok::<(), ssekit::responses::writer::WriterError>(())
    /// ```
    #[must_use]
    pub fn with_request_fields(
        mut self,
        tools: Option<&str>,
        tool_choice: Option<&str>,
        parallel_tool_calls: Option<bool>,
    ) -> Self {
        let valid = |t: Option<&str>, default: &'static str| -> String {
            match t {
                Some(t) if crate::json::RawJson::parse(t).is_ok() => String::from(t.trim()),
                _ => String::from(default),
            }
        };
        let r = &mut self.request;
        r.clear();
        r.push_str(",\"tools\":");
        r.push_str(&valid(tools, "[]"));
        r.push_str(",\"tool_choice\":");
        r.push_str(&valid(tool_choice, "\"auto\""));
        r.push_str(",\"parallel_tool_calls\":");
        r.push_str(if parallel_tool_calls.unwrap_or(true) {
            "true"
        } else {
            "false"
        });
        self
    }

    /// Sets what [`forward`](Self::forward) does with a `[DONE]` end marker:
    /// write it as it came ([`DoneMarker::Forward`], the default) or drop it
    /// ([`DoneMarker::Drop`]). Either way the stream is finished after it.
    ///
    /// ```
    /// use ssekit::responses::writer::{DoneMarker, ResponsesWriter};
    ///
    /// let mut w = ResponsesWriter::new("resp_1", "m", 0).with_done_marker(DoneMarker::Drop);
    /// w.forward(r#"{"type":"response.completed","response":{"id":"resp_1","status":"completed"}}"#)?;
    /// w.forward("[DONE]")?; // dropped
    /// assert!(w.take().ends_with(b"}}\n\n"));
    ///
    /// let mut w = ResponsesWriter::new("resp_1", "m", 0);
    /// w.forward(r#"{"type":"response.completed","response":{"id":"resp_1","status":"completed"}}"#)?;
    /// w.forward("[DONE]")?; // passed through
    /// assert!(w.take().ends_with(b"}}\n\ndata: [DONE]\n\n"));
    /// # Ok::<(), ssekit::responses::writer::WriterError>(())
    /// ```
    #[must_use]
    pub fn with_done_marker(mut self, marker: DoneMarker) -> Self {
        self.done_marker = marker;
        self
    }

    /// Sets the limit on the text the writer keeps for the done events and
    /// the terminal response, in bytes ([`DEFAULT_MAX_KEPT_BYTES`] by
    /// default). It counts each item id twice (as a JSON literal: quotes
    /// included), the call id and name of function calls, and every delta.
    ///
    /// ```
    /// use ssekit::responses::writer::{ResponsesWriter, WriterErrorKind};
    ///
    /// let mut w = ResponsesWriter::new("resp_1", "m", 0).with_max_kept_bytes(16);
    /// w.start_message("msg_1")?; // "msg_1" twice: 14 bytes
    /// let err = w.text_delta("abc").unwrap_err(); // 17 > 16
    /// assert_eq!(err.kind(), WriterErrorKind::LimitExceeded { limit: 16 });
    /// w.text_delta("ab")?; // 16: fits
    /// assert_eq!(w.kept_bytes(), 16);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_max_kept_bytes(mut self, max: usize) -> Self {
        self.max_kept = max;
        self
    }

    /// The bytes of ids, names and deltas kept so far (what
    /// [`with_max_kept_bytes`](Self::with_max_kept_bytes) limits).
    pub fn kept_bytes(&self) -> usize {
        self.kept
    }

    /// The sequence number the next event will have (the number of events
    /// written so far).
    pub fn sequence_number(&self) -> u64 {
        self.sink.seq
    }

    /// Whether the terminal event was written.
    pub fn is_finished(&self) -> bool {
        self.phase == Phase::Finished
    }

    /// The bytes written and not yet taken.
    pub fn buffered(&self) -> &[u8] {
        &self.sink.out
    }

    /// Takes the bytes written so far, to send them; the buffer is empty
    /// afterwards (and reuses its allocation when the taken bytes are dropped).
    pub fn take(&mut self) -> Bytes {
        self.sink.out.split().freeze()
    }

    /// Writes `response.created` and `response.in_progress`, if they were
    /// not written yet (every other event call does this first).
    ///
    /// # Errors
    ///
    /// [`Finished`](WriterErrorKind::Finished) after the terminal event.
    pub fn start(&mut self) -> Result<(), WriterError> {
        match self.phase {
            Phase::Idle => {
                self.phase = Phase::Streaming;
                self.lifecycle(EventKind::ResponseCreated, "in_progress", Terminal::None);
                self.lifecycle(EventKind::ResponseInProgress, "in_progress", Terminal::None);
                Ok(())
            }
            Phase::Streaming => Ok(()),
            Phase::Finished => Err(self.error(WriterErrorKind::Finished)),
        }
    }

    /// Sets the `usage` the terminal response reports.
    pub fn set_usage(&mut self, usage: TokenUsage) {
        self.usage = Some(usage);
    }

    /// Starts an assistant message item with this id: writes
    /// `response.output_item.added` and `response.content_part.added` (an
    /// empty `output_text` part at `content_index` 0).
    ///
    /// # Errors
    ///
    /// [`DuplicateItemId`](WriterErrorKind::DuplicateItemId) for the id of
    /// an earlier item; [`Finished`](WriterErrorKind::Finished) after the
    /// terminal event.
    pub fn start_message(&mut self, item_id: &str) -> Result<(), WriterError> {
        let id = literal(item_id);
        self.begin_item(&id, 0)?;
        let index = self.output_index();
        self.sink.event(EventKind::OutputItemAdded.ty(), |s| {
            field_u64(s, "output_index", index);
            key(s, "item");
            message_item(s, &id, "in_progress", None);
        });
        self.sink.event(EventKind::ContentPartAdded.ty(), |s| {
            field_raw(s, "item_id", &id);
            field_u64(s, "output_index", index);
            field_u64(s, "content_index", 0);
            key(s, "part");
            text_part(s, "");
        });
        self.open = Open::Message {
            id,
            text: String::new(),
            refusal: false,
        };
        Ok(())
    }

    /// Writes a `response.output_text.delta` of the open message.
    ///
    /// # Errors
    ///
    /// [`NoOpenMessage`](WriterErrorKind::NoOpenMessage) when no message is
    /// open; [`Finished`](WriterErrorKind::Finished) after the terminal event.
    pub fn text_delta(&mut self, delta: &str) -> Result<(), WriterError> {
        self.message_delta(delta, false)
    }

    /// Finishes the open message: writes `response.output_text.done`,
    /// `response.content_part.done` and `response.output_item.done` with the
    /// whole text.
    ///
    /// # Errors
    ///
    /// [`NoOpenMessage`](WriterErrorKind::NoOpenMessage) when no message is
    /// open; [`Finished`](WriterErrorKind::Finished) after the terminal event.
    pub fn finish_message(&mut self) -> Result<(), WriterError> {
        self.expect_open(
            |open| matches!(open, Open::Message { .. }),
            WriterErrorKind::NoOpenMessage,
        )?;
        self.finish_item("completed");
        Ok(())
    }

    /// Writes a whole item that the other calls have no builder for (a
    /// hosted tool call such as `web_search_call`, an `mcp_list_tools`
    /// item, …), as given: `response.output_item.added` and
    /// `response.output_item.done` with `item_json`, which the terminal
    /// response's `output` lists too. It finishes the open item first.
    ///
    /// ```
    /// use ssekit::responses::writer::ResponsesWriter;
    ///
    /// let mut w = ResponsesWriter::new("resp_1", "m", 0);
    /// w.item(r#"{"type":"web_search_call","id":"ws_1","status":"completed"}"#)?;
    /// w.complete()?;
    /// let wire = w.take();
    /// let wire = std::str::from_utf8(&wire).unwrap();
    /// assert!(wire.contains(r#""output":[{"type":"web_search_call","id":"ws_1","status":"completed"}]"#));
    /// # Ok::<(), ssekit::responses::writer::WriterError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`InvalidJson`](WriterErrorKind::InvalidJson),
    /// [`NotAnObject`](WriterErrorKind::NotAnObject),
    /// [`MissingType`](WriterErrorKind::MissingType) for text that is not
    /// an item; [`DuplicateItemId`](WriterErrorKind::DuplicateItemId) for
    /// the `id` of an earlier item;
    /// [`LimitExceeded`](WriterErrorKind::LimitExceeded) (the item is kept
    /// for the terminal response); [`Finished`](WriterErrorKind::Finished)
    /// after the terminal event.
    pub fn item(&mut self, item_json: &str) -> Result<(), WriterError> {
        self.check_open()?;
        let at = self.sink.seq;
        let (object, _) = typed_object(item_json, at)?;
        let raw = object.as_raw_json().get();
        match object.get("id") {
            Some(id) => self.begin_item(id.as_raw_json().get(), raw.len())?,
            None => {
                self.check_room(raw.len())?;
                self.kept += raw.len();
                self.start()?;
                self.finish_item("completed");
            }
        }
        let index = self.output_index();
        for kind in [EventKind::OutputItemAdded, EventKind::OutputItemDone] {
            self.sink.event(kind.ty(), |s| {
                field_u64(s, "output_index", index);
                field_raw(s, "item", raw);
            });
        }
        self.output.push(raw.into());
        Ok(())
    }

    /// Starts an assistant message item whose one content part is a
    /// `refusal` (what a model writes instead of an answer it declines to
    /// give): writes `response.output_item.added` and
    /// `response.content_part.added` (an empty `refusal` part at
    /// `content_index` 0). Write its text with
    /// [`refusal_delta`](Self::refusal_delta); it finishes like any item
    /// (`response.refusal.done`, `response.content_part.done`,
    /// `response.output_item.done`).
    ///
    /// ```
    /// use ssekit::responses::writer::ResponsesWriter;
    ///
    /// let mut w = ResponsesWriter::new("resp_1", "m", 0);
    /// w.start_refusal("msg_1")?;
    /// w.refusal_delta("I can't help with that.")?;
    /// w.complete()?;
    /// let wire = w.take();
    /// let wire = std::str::from_utf8(&wire).unwrap();
    /// assert!(wire.contains("event: response.refusal.delta\n"));
    /// assert!(wire.contains(r#""part":{"type":"refusal","refusal":"I can't help with that."}"#));
    /// # Ok::<(), ssekit::responses::writer::WriterError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`start_message`](Self::start_message).
    pub fn start_refusal(&mut self, item_id: &str) -> Result<(), WriterError> {
        let id = literal(item_id);
        self.begin_item(&id, 0)?;
        let index = self.output_index();
        self.sink.event(EventKind::OutputItemAdded.ty(), |s| {
            field_u64(s, "output_index", index);
            key(s, "item");
            refusal_message_item(s, &id, "in_progress", None);
        });
        self.sink.event(EventKind::ContentPartAdded.ty(), |s| {
            field_raw(s, "item_id", &id);
            field_u64(s, "output_index", index);
            field_u64(s, "content_index", 0);
            key(s, "part");
            refusal_part(s, "");
        });
        self.open = Open::Message {
            id,
            text: String::new(),
            refusal: true,
        };
        Ok(())
    }

    /// Writes a `response.refusal.delta` of the open refusal message
    /// (see [`start_refusal`](Self::start_refusal)).
    ///
    /// # Errors
    ///
    /// [`NoOpenMessage`](WriterErrorKind::NoOpenMessage) when no refusal
    /// message is open; [`Finished`](WriterErrorKind::Finished) after the
    /// terminal event; [`LimitExceeded`](WriterErrorKind::LimitExceeded).
    pub fn refusal_delta(&mut self, delta: &str) -> Result<(), WriterError> {
        self.message_delta(delta, true)
    }

    /// Sets the `encrypted_content` of the open reasoning item (an opaque
    /// blob a client sends back with the next request, such as an
    /// Anthropic thinking block's `signature`): its `output_item.done` and
    /// the terminal response carry it. A later call replaces it.
    ///
    /// ```
    /// use ssekit::responses::writer::ResponsesWriter;
    ///
    /// let mut w = ResponsesWriter::new("resp_1", "m", 0);
    /// w.start_reasoning("rs_1")?;
    /// w.summary_delta("Because")?;
    /// w.set_encrypted_content("c2lnbmF0dXJl")?;
    /// w.complete()?;
    /// let wire = w.take();
    /// assert!(std::str::from_utf8(&wire).unwrap().contains(r#""encrypted_content":"c2lnbmF0dXJl""#));
    /// # Ok::<(), ssekit::responses::writer::WriterError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`NoOpenReasoning`](WriterErrorKind::NoOpenReasoning) when no
    /// reasoning item is open; [`Finished`](WriterErrorKind::Finished) after
    /// the terminal event; [`LimitExceeded`](WriterErrorKind::LimitExceeded)
    /// (the content is kept until the terminal event).
    pub fn set_encrypted_content(&mut self, content: &str) -> Result<(), WriterError> {
        self.check_open()?;
        let Open::Reasoning { encrypted, .. } = &self.open else {
            return Err(self.error(WriterErrorKind::NoOpenReasoning));
        };
        let old = encrypted.as_ref().map_or(0, String::len);
        self.check_room(content.len().saturating_sub(old))?;
        self.kept = self.kept - old + content.len();
        if let Open::Reasoning { encrypted, .. } = &mut self.open {
            let slot = encrypted.get_or_insert_with(String::new);
            slot.clear();
            slot.push_str(content);
        }
        Ok(())
    }

    /// Starts a function call item: writes `response.output_item.added`
    /// with the item `id`, the `call_id` the client answers with, the
    /// function's `name` and empty `arguments`.
    ///
    /// # Errors
    ///
    /// [`DuplicateItemId`](WriterErrorKind::DuplicateItemId) for the id of
    /// an earlier item; [`Finished`](WriterErrorKind::Finished) after the
    /// terminal event.
    pub fn start_function_call(
        &mut self,
        item_id: &str,
        call_id: &str,
        name: &str,
    ) -> Result<(), WriterError> {
        let (id, call_id, name) = (literal(item_id), literal(call_id), literal(name));
        self.begin_item(&id, call_id.len() + name.len())?;
        let index = self.output_index();
        self.sink.event(EventKind::OutputItemAdded.ty(), |s| {
            field_u64(s, "output_index", index);
            key(s, "item");
            function_call_item(s, &id, "in_progress", "", &call_id, &name);
        });
        self.open = Open::FunctionCall {
            id,
            call_id,
            name,
            arguments: String::new(),
        };
        Ok(())
    }

    /// Writes a `response.function_call_arguments.delta` of the open call:
    /// the next piece of its arguments' JSON text (any split is fine).
    ///
    /// # Errors
    ///
    /// [`NoOpenFunctionCall`](WriterErrorKind::NoOpenFunctionCall) when no
    /// function call is open; [`Finished`](WriterErrorKind::Finished) after
    /// the terminal event.
    pub fn arguments_delta(&mut self, delta: &str) -> Result<(), WriterError> {
        self.expect_open(
            |open| matches!(open, Open::FunctionCall { .. }),
            WriterErrorKind::NoOpenFunctionCall,
        )?;
        self.check_room(delta.len())?;
        let index = self.output_index();
        let Open::FunctionCall { id, arguments, .. } = &mut self.open else {
            return Err(self.error(WriterErrorKind::NoOpenFunctionCall));
        };
        self.kept += delta.len();
        arguments.push_str(delta);
        self.sink
            .event(EventKind::FunctionCallArgumentsDelta.ty(), |s| {
                field_raw(s, "item_id", id);
                field_u64(s, "output_index", index);
                field_str(s, "delta", delta);
            });
        Ok(())
    }

    /// Finishes the open function call: writes
    /// `response.function_call_arguments.done` (with `name` and the whole
    /// `arguments`) and `response.output_item.done`.
    ///
    /// # Errors
    ///
    /// [`NoOpenFunctionCall`](WriterErrorKind::NoOpenFunctionCall) when no
    /// function call is open; [`Finished`](WriterErrorKind::Finished) after
    /// the terminal event.
    pub fn finish_function_call(&mut self) -> Result<(), WriterError> {
        self.expect_open(
            |open| matches!(open, Open::FunctionCall { .. }),
            WriterErrorKind::NoOpenFunctionCall,
        )?;
        self.finish_item("completed");
        Ok(())
    }

    /// Starts a reasoning item: writes `response.output_item.added` with an
    /// empty `summary`.
    ///
    /// # Errors
    ///
    /// [`DuplicateItemId`](WriterErrorKind::DuplicateItemId) for the id of
    /// an earlier item; [`Finished`](WriterErrorKind::Finished) after the
    /// terminal event.
    pub fn start_reasoning(&mut self, item_id: &str) -> Result<(), WriterError> {
        let id = literal(item_id);
        self.begin_item(&id, 0)?;
        let index = self.output_index();
        self.sink.event(EventKind::OutputItemAdded.ty(), |s| {
            field_u64(s, "output_index", index);
            key(s, "item");
            reasoning_item(s, &id, "in_progress", &[], None);
        });
        self.open = Open::Reasoning {
            id,
            summary: Vec::new(),
            part: None,
            encrypted: None,
        };
        Ok(())
    }

    /// Starts the next summary part of the open reasoning item (finishing
    /// the open one, if any): writes `response.reasoning_summary_part.added`.
    /// [`summary_delta`](Self::summary_delta) does this by itself when no
    /// part is open.
    ///
    /// # Errors
    ///
    /// [`NoOpenReasoning`](WriterErrorKind::NoOpenReasoning) when no
    /// reasoning item is open; [`Finished`](WriterErrorKind::Finished) after
    /// the terminal event.
    pub fn start_summary_part(&mut self) -> Result<(), WriterError> {
        self.expect_open(
            |open| matches!(open, Open::Reasoning { .. }),
            WriterErrorKind::NoOpenReasoning,
        )?;
        self.close_summary_part();
        self.open_summary_part();
        Ok(())
    }

    /// Writes a `response.reasoning_summary_text.delta` of the open summary
    /// part, opening a part first if none is open.
    ///
    /// # Errors
    ///
    /// [`NoOpenReasoning`](WriterErrorKind::NoOpenReasoning) when no
    /// reasoning item is open; [`Finished`](WriterErrorKind::Finished) after
    /// the terminal event.
    pub fn summary_delta(&mut self, delta: &str) -> Result<(), WriterError> {
        self.expect_open(
            |open| matches!(open, Open::Reasoning { .. }),
            WriterErrorKind::NoOpenReasoning,
        )?;
        self.check_room(delta.len())?;
        if !matches!(self.open, Open::Reasoning { part: Some(_), .. }) {
            self.open_summary_part();
        }
        let index = self.output_index();
        let Open::Reasoning {
            id,
            summary,
            part: Some(text),
            ..
        } = &mut self.open
        else {
            unreachable!("a summary part was opened above");
        };
        self.kept += delta.len();
        text.push_str(delta);
        let summary_index = summary.len() as u64;
        self.sink
            .event(EventKind::ReasoningSummaryTextDelta.ty(), |s| {
                field_raw(s, "item_id", id);
                field_u64(s, "output_index", index);
                field_u64(s, "summary_index", summary_index);
                field_str(s, "delta", delta);
            });
        Ok(())
    }

    /// Finishes the open summary part: writes
    /// `response.reasoning_summary_text.done` and
    /// `response.reasoning_summary_part.done` with its whole text.
    ///
    /// # Errors
    ///
    /// [`NoOpenSummaryPart`](WriterErrorKind::NoOpenSummaryPart) when no
    /// summary part is open; [`Finished`](WriterErrorKind::Finished) after
    /// the terminal event.
    pub fn finish_summary_part(&mut self) -> Result<(), WriterError> {
        self.expect_open(
            |open| matches!(open, Open::Reasoning { part: Some(_), .. }),
            WriterErrorKind::NoOpenSummaryPart,
        )?;
        self.close_summary_part();
        Ok(())
    }

    /// Finishes the open reasoning item (and its open summary part):
    /// writes `response.output_item.done` with every summary part.
    ///
    /// # Errors
    ///
    /// [`NoOpenReasoning`](WriterErrorKind::NoOpenReasoning) when no
    /// reasoning item is open; [`Finished`](WriterErrorKind::Finished) after
    /// the terminal event.
    pub fn finish_reasoning(&mut self) -> Result<(), WriterError> {
        self.expect_open(
            |open| matches!(open, Open::Reasoning { .. }),
            WriterErrorKind::NoOpenReasoning,
        )?;
        self.finish_item("completed");
        Ok(())
    }

    /// Ends the stream with `response.completed` (status `completed`, every
    /// item in `output`, the usage if set), after finishing any open item.
    ///
    /// # Errors
    ///
    /// [`Finished`](WriterErrorKind::Finished) after the terminal event.
    pub fn complete(&mut self) -> Result<(), WriterError> {
        self.finish(
            EventKind::ResponseCompleted,
            "completed",
            "completed",
            Terminal::None,
        )
    }

    /// Ends the stream with `response.incomplete` (status `incomplete`,
    /// `incomplete_details.reason` = `reason`, e.g. `max_output_tokens` or
    /// `content_filter`), after finishing any open item as `incomplete`.
    ///
    /// # Errors
    ///
    /// [`Finished`](WriterErrorKind::Finished) after the terminal event.
    pub fn incomplete(&mut self, reason: &str) -> Result<(), WriterError> {
        self.finish(
            EventKind::ResponseIncomplete,
            "incomplete",
            "incomplete",
            Terminal::Incomplete(reason),
        )
    }

    /// Ends the stream with `response.failed` (status `failed`,
    /// `error` = `{"code", "message"}`), after finishing any open item as
    /// `incomplete`.
    ///
    /// # Errors
    ///
    /// [`Finished`](WriterErrorKind::Finished) after the terminal event.
    pub fn fail(&mut self, code: &str, message: &str) -> Result<(), WriterError> {
        self.finish(
            EventKind::ResponseFailed,
            "failed",
            "incomplete",
            Terminal::Failed { code, message },
        )
    }

    /// Writes an `error` event in the specification's flat shape:
    /// `{"type":"error","sequence_number":n,"code":…,"message":…,"param":…}`
    /// (`code` and `param` `null` when `None`). The stream goes on: end it
    /// with [`fail`](Self::fail), as the API does.
    ///
    /// # Errors
    ///
    /// [`Finished`](WriterErrorKind::Finished) after the terminal event.
    pub fn error_event(
        &mut self,
        code: Option<&str>,
        message: &str,
        param: Option<&str>,
    ) -> Result<(), WriterError> {
        self.start()?;
        self.sink.event("error", |s| {
            match code {
                Some(code) => field_str(s, "code", code),
                None => field_raw(s, "code", "null"),
            }
            field_str(s, "message", message);
            match param {
                Some(param) => field_str(s, "param", param),
                None => field_raw(s, "param", "null"),
            }
        });
        Ok(())
    }

    /// Writes a `: keep-alive` comment and a blank line. Readers ignore it;
    /// it uses no sequence number, and may be written at any time.
    pub fn keep_alive(&mut self) {
        self.sink.out.put_slice(b": keep-alive\n\n");
    }

    /// Writes a `keepalive` event (`{"type":"keepalive","sequence_number":n}`,
    /// as openai-node understands it): a heartbeat that takes a sequence
    /// number and leaves the response unchanged.
    ///
    /// # Errors
    ///
    /// [`Finished`](WriterErrorKind::Finished) after the terminal event.
    pub fn heartbeat(&mut self) -> Result<(), WriterError> {
        self.start()?;
        self.sink.event("keepalive", |_| {});
        Ok(())
    }

    /// Writes an event given as JSON text, for gateways that pass events
    /// on: its `event:` line is its `type`, and its data is the object with
    /// `type` first, `sequence_number` set to the next number (any
    /// `sequence_number` it had is dropped) and its other members as they
    /// were, in order. Returns the sequence number given.
    ///
    /// The `[DONE]` end marker (surrounding whitespace aside) is accepted
    /// even after the terminal event, once: it is written as it came or
    /// dropped, as [`with_done_marker`](Self::with_done_marker) says, takes
    /// no sequence number (the result is the number the next event would
    /// have had), and finishes the stream.
    ///
    /// It writes only the event it is given: the forwarded stream brings its
    /// own `response.created`, and the writer does not check the lifecycle
    /// of forwarded events (use the linter for that). After a forward, the
    /// other calls no longer start the stream themselves (a heartbeat
    /// injected between forwarded events is just a heartbeat), and nothing
    /// is written after a forwarded terminal event (`response.completed`,
    /// `.incomplete` or `.failed`). Mixing [`forward`](Self::forward) with
    /// the item calls is possible but leaves the `output` of
    /// [`complete`](Self::complete) to list only the items written with
    /// the item calls.
    ///
    /// ```
    /// use ssekit::responses::writer::ResponsesWriter;
    ///
    /// let mut w = ResponsesWriter::new("resp_1", "m", 0);
    /// w.forward(r#"{"type":"response.created","response":{"id":"resp_1"}}"#)?;
    /// let n = w.forward(r#"{"sequence_number":99,"type":"response.output_text.delta","delta":"x"}"#)?;
    /// assert_eq!(n, 1);
    /// assert!(w.take().ends_with(
    ///     b"event: response.output_text.delta\n\
    ///       data: {\"type\":\"response.output_text.delta\",\"sequence_number\":1,\"delta\":\"x\"}\n\n"
    /// ));
    /// # Ok::<(), ssekit::responses::writer::WriterError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`InvalidJson`](WriterErrorKind::InvalidJson),
    /// [`NotAnObject`](WriterErrorKind::NotAnObject),
    /// [`MissingType`](WriterErrorKind::MissingType),
    /// [`TypeLineBreak`](WriterErrorKind::TypeLineBreak) for text that is
    /// not an event; [`Finished`](WriterErrorKind::Finished) after the
    /// terminal event (for `[DONE]`: after an earlier `[DONE]`).
    pub fn forward(&mut self, event_json: &str) -> Result<u64, WriterError> {
        if event_json.trim() == "[DONE]" {
            return self.forward_done();
        }
        if self.phase == Phase::Finished {
            return Err(self.error(WriterErrorKind::Finished));
        }
        let at = self.sink.seq;
        let (object, ty) = typed_object(event_json, at)?;
        let name = ty.unescape();
        if name.bytes().any(|b| matches!(b, b'\r' | b'\n' | 0)) {
            return Err(WriterError::new(WriterErrorKind::TypeLineBreak, at));
        }
        self.phase = Phase::Streaming;
        let seq = self.sink.seq;
        let json = &mut self.sink.json;
        json.clear();
        json.push_str("{\"type\":");
        json.push_str(ty.as_raw_json().get());
        field_u64(json, "sequence_number", seq);
        for (k, v) in object.members() {
            if k == "type" || k == "sequence_number" {
                continue;
            }
            json.push(',');
            json.push_str(k.as_raw_json().get());
            json.push(':');
            json.push_str(v.as_raw_json().get());
        }
        json.push('}');
        put_event(&mut self.sink.out, &name, &self.sink.json);
        self.sink.seq += 1;
        if EventKind::from_type(&name).role() == EventRole::Terminal {
            self.phase = Phase::Finished;
        }
        Ok(seq)
    }

    /// `[DONE]`: written or dropped as [`DoneMarker`] says, once; it
    /// finishes the stream.
    fn forward_done(&mut self) -> Result<u64, WriterError> {
        if self.done_seen {
            return Err(self.error(WriterErrorKind::Finished));
        }
        self.done_seen = true;
        self.phase = Phase::Finished;
        if self.done_marker == DoneMarker::Forward {
            self.sink.out.put_slice(b"data: [DONE]\n\n");
        }
        Ok(self.sink.seq)
    }

    // ---- state

    fn error(&self, kind: WriterErrorKind) -> WriterError {
        WriterError::new(kind, self.sink.seq)
    }

    /// Fails after the terminal event. (An item can only be open once the
    /// stream has started, so the item calls need not start it.)
    /// A delta of the open message's one part: `output_text`, or `refusal`
    /// when `refusal` (the message must be of that kind).
    fn message_delta(&mut self, delta: &str, refusal: bool) -> Result<(), WriterError> {
        self.expect_open(
            |open| matches!(open, Open::Message { refusal: r, .. } if *r == refusal),
            WriterErrorKind::NoOpenMessage,
        )?;
        self.check_room(delta.len())?;
        let index = self.output_index();
        let Open::Message { id, text, .. } = &mut self.open else {
            return Err(self.error(WriterErrorKind::NoOpenMessage));
        };
        self.kept += delta.len();
        text.push_str(delta);
        let kind = if refusal {
            EventKind::RefusalDelta
        } else {
            EventKind::OutputTextDelta
        };
        self.sink.event(kind.ty(), |s| {
            field_raw(s, "item_id", id);
            field_u64(s, "output_index", index);
            field_u64(s, "content_index", 0);
            field_str(s, "delta", delta);
            if !refusal {
                field_raw(s, "logprobs", "[]");
            }
        });
        Ok(())
    }

    /// Fails after the terminal event, or with `missing` unless the open
    /// item is what `is` wants.
    fn expect_open(
        &self,
        is: impl FnOnce(&Open) -> bool,
        missing: WriterErrorKind,
    ) -> Result<(), WriterError> {
        self.check_open()?;
        if is(&self.open) {
            Ok(())
        } else {
            Err(self.error(missing))
        }
    }

    fn check_open(&self) -> Result<(), WriterError> {
        match self.phase {
            Phase::Finished => Err(self.error(WriterErrorKind::Finished)),
            _ => Ok(()),
        }
    }

    /// Prepares for a new item with this id (a JSON literal): checks that
    /// it is new, starts the stream, finishes the open item.
    fn begin_item(&mut self, id: &str, extra: usize) -> Result<(), WriterError> {
        self.check_open()?;
        if self.item_ids.contains(id) {
            return Err(self.error(WriterErrorKind::DuplicateItemId));
        }
        // The id is kept twice: in `item_ids` and in the item.
        let n = id.len().saturating_mul(2).saturating_add(extra);
        self.check_room(n)?;
        self.kept += n;
        self.item_ids.insert(id.into());
        self.start()?;
        self.finish_item("completed");
        Ok(())
    }

    /// Whether `n` more bytes may be kept.
    fn check_room(&self, n: usize) -> Result<(), WriterError> {
        match self.kept.checked_add(n) {
            Some(total) if total <= self.max_kept => Ok(()),
            _ => Err(self.error(WriterErrorKind::LimitExceeded {
                limit: self.max_kept,
            })),
        }
    }

    /// The `output_index` of the open (or next) item.
    fn output_index(&self) -> u64 {
        self.output.len() as u64
    }

    fn open_summary_part(&mut self) {
        let index = self.output_index();
        let Open::Reasoning {
            id, summary, part, ..
        } = &mut self.open
        else {
            return;
        };
        let summary_index = summary.len() as u64;
        self.sink
            .event(EventKind::ReasoningSummaryPartAdded.ty(), |s| {
                field_raw(s, "item_id", id);
                field_u64(s, "output_index", index);
                field_u64(s, "summary_index", summary_index);
                key(s, "part");
                summary_part(s, "");
            });
        *part = Some(String::new());
    }

    fn close_summary_part(&mut self) {
        let index = self.output_index();
        let Open::Reasoning {
            id, summary, part, ..
        } = &mut self.open
        else {
            return;
        };
        let Some(text) = part.take() else {
            return;
        };
        let summary_index = summary.len() as u64;
        self.sink
            .event(EventKind::ReasoningSummaryTextDone.ty(), |s| {
                field_raw(s, "item_id", id);
                field_u64(s, "output_index", index);
                field_u64(s, "summary_index", summary_index);
                field_str(s, "text", &text);
            });
        self.sink
            .event(EventKind::ReasoningSummaryPartDone.ty(), |s| {
                field_raw(s, "item_id", id);
                field_u64(s, "output_index", index);
                field_u64(s, "summary_index", summary_index);
                key(s, "part");
                summary_part(s, &text);
            });
        summary.push(text);
    }

    /// Writes the done events of the open item, if any, with this item
    /// `status`, and keeps its final JSON for the terminal response.
    fn finish_item(&mut self, status: &str) {
        self.close_summary_part();
        let index = self.output_index();
        let mut item = String::new();
        match core::mem::replace(&mut self.open, Open::None) {
            Open::None => return,
            Open::Message {
                id,
                text,
                refusal: true,
            } => {
                self.sink.event(EventKind::RefusalDone.ty(), |s| {
                    field_raw(s, "item_id", &id);
                    field_u64(s, "output_index", index);
                    field_u64(s, "content_index", 0);
                    field_str(s, "refusal", &text);
                });
                self.sink.event(EventKind::ContentPartDone.ty(), |s| {
                    field_raw(s, "item_id", &id);
                    field_u64(s, "output_index", index);
                    field_u64(s, "content_index", 0);
                    key(s, "part");
                    refusal_part(s, &text);
                });
                refusal_message_item(&mut item, &id, status, Some(&text));
            }
            Open::Message { id, text, .. } => {
                self.sink.event(EventKind::OutputTextDone.ty(), |s| {
                    field_raw(s, "item_id", &id);
                    field_u64(s, "output_index", index);
                    field_u64(s, "content_index", 0);
                    field_str(s, "text", &text);
                    field_raw(s, "logprobs", "[]");
                });
                self.sink.event(EventKind::ContentPartDone.ty(), |s| {
                    field_raw(s, "item_id", &id);
                    field_u64(s, "output_index", index);
                    field_u64(s, "content_index", 0);
                    key(s, "part");
                    text_part(s, &text);
                });
                message_item(&mut item, &id, status, Some(&text));
            }
            Open::FunctionCall {
                id,
                call_id,
                name,
                arguments,
            } => {
                self.sink
                    .event(EventKind::FunctionCallArgumentsDone.ty(), |s| {
                        field_raw(s, "item_id", &id);
                        field_raw(s, "name", &name);
                        field_u64(s, "output_index", index);
                        field_str(s, "arguments", &arguments);
                    });
                function_call_item(&mut item, &id, status, &arguments, &call_id, &name);
            }
            Open::Reasoning {
                id,
                summary,
                encrypted,
                ..
            } => {
                reasoning_item(&mut item, &id, status, &summary, encrypted.as_deref());
            }
        }
        self.sink.event(EventKind::OutputItemDone.ty(), |s| {
            field_u64(s, "output_index", index);
            field_raw(s, "item", &item);
        });
        self.output.push(item);
    }

    fn finish(
        &mut self,
        kind: EventKind,
        status: &str,
        item_status: &str,
        terminal: Terminal<'_>,
    ) -> Result<(), WriterError> {
        self.start()?;
        self.finish_item(item_status);
        self.lifecycle(kind, status, terminal);
        self.phase = Phase::Finished;
        Ok(())
    }

    /// Writes a lifecycle event: `{"type", "sequence_number", "response"}`.
    /// Before the terminal event the response has no output and no usage.
    fn lifecycle(&mut self, kind: EventKind, status: &str, terminal: Terminal<'_>) {
        let ty = kind.ty();
        let last = kind.role() == EventRole::Terminal;
        let Self {
            sink,
            id,
            model,
            created_at,
            output,
            usage,
            request,
            ..
        } = self;
        sink.event(ty, |s| {
            key(s, "response");
            s.push_str("{\"id\":");
            s.push_str(id);
            field_raw(s, "object", "\"response\"");
            field_u64(s, "created_at", *created_at);
            field_str(s, "status", status);
            field_raw(s, "model", model);
            key(s, "output");
            s.push('[');
            if last {
                for (i, item) in output.iter().enumerate() {
                    if i > 0 {
                        s.push(',');
                    }
                    s.push_str(item);
                }
            }
            s.push(']');
            match terminal {
                Terminal::Failed { code, message } => {
                    key(s, "error");
                    s.push_str("{\"code\":");
                    push_json_str(s, code);
                    field_str(s, "message", message);
                    s.push('}');
                }
                _ => field_raw(s, "error", "null"),
            }
            match terminal {
                Terminal::Incomplete(reason) => {
                    key(s, "incomplete_details");
                    s.push_str("{\"reason\":");
                    push_json_str(s, reason);
                    s.push('}');
                }
                _ => field_raw(s, "incomplete_details", "null"),
            }
            s.push_str(request);
            match usage.filter(|_| last) {
                Some(u) => {
                    key(s, "usage");
                    usage_json(s, &u);
                }
                None => field_raw(s, "usage", "null"),
            }
            s.push('}');
        });
    }
}

/// A response's `usage` object.
pub(crate) fn usage_json(s: &mut String, u: &TokenUsage) {
    s.push_str("{\"input_tokens\":");
    push_u64(s, u.input_tokens);
    key(s, "input_tokens_details");
    // `cache_write_tokens`: the SDKs declare it required; nothing here
    // counts cache writes apart from the input.
    s.push_str("{\"cached_tokens\":");
    push_u64(s, u.cached_tokens);
    s.push_str(",\"cache_write_tokens\":0}");
    field_u64(s, "output_tokens", u.output_tokens);
    key(s, "output_tokens_details");
    s.push_str("{\"reasoning_tokens\":");
    push_u64(s, u.reasoning_tokens);
    s.push('}');
    field_u64(
        s,
        "total_tokens",
        u.input_tokens.saturating_add(u.output_tokens),
    );
    s.push('}');
}

/// What a terminal response adds.
#[derive(Clone, Copy)]
enum Terminal<'a> {
    None,
    Incomplete(&'a str),
    Failed { code: &'a str, message: &'a str },
}

/// `{"type":"output_text","annotations":[],"logprobs":[],"text":…}`
pub(crate) fn text_part(s: &mut String, text: &str) {
    s.push_str("{\"type\":\"output_text\",\"annotations\":[],\"logprobs\":[]");
    field_str(s, "text", text);
    s.push('}');
}

/// `{"type":"summary_text","text":…}`
pub(crate) fn summary_part(s: &mut String, text: &str) {
    s.push_str("{\"type\":\"summary_text\"");
    field_str(s, "text", text);
    s.push('}');
}

/// A message item; `text` `None` for the empty `content` of
/// `output_item.added`. `id` is a JSON literal.
fn message_item(s: &mut String, id: &str, status: &str, text: Option<&str>) {
    s.push_str("{\"id\":");
    s.push_str(id);
    field_raw(s, "type", "\"message\"");
    field_str(s, "status", status);
    key(s, "content");
    s.push('[');
    if let Some(text) = text {
        text_part(s, text);
    }
    s.push(']');
    field_raw(s, "role", "\"assistant\"");
    s.push('}');
}

/// A function call item; `id`, `call_id` and `name` are JSON literals.
pub(crate) fn function_call_item(
    s: &mut String,
    id: &str,
    status: &str,
    arguments: &str,
    call_id: &str,
    name: &str,
) {
    s.push_str("{\"id\":");
    s.push_str(id);
    field_raw(s, "type", "\"function_call\"");
    field_str(s, "status", status);
    field_str(s, "arguments", arguments);
    field_raw(s, "call_id", call_id);
    field_raw(s, "name", name);
    s.push('}');
}

/// A reasoning item with these summary texts (and `encrypted_content`
/// when given); `id` is a JSON literal.
fn reasoning_item(
    s: &mut String,
    id: &str,
    status: &str,
    summary: &[String],
    encrypted: Option<&str>,
) {
    s.push_str("{\"id\":");
    s.push_str(id);
    field_raw(s, "type", "\"reasoning\"");
    key(s, "summary");
    s.push('[');
    for (i, text) in summary.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        summary_part(s, text);
    }
    s.push(']');
    if let Some(encrypted) = encrypted {
        field_str(s, "encrypted_content", encrypted);
    }
    field_str(s, "status", status);
    s.push('}');
}

/// `{"type":"refusal","refusal":…}`
pub(crate) fn refusal_part(s: &mut String, text: &str) {
    s.push_str("{\"type\":\"refusal\"");
    field_str(s, "refusal", text);
    s.push('}');
}

/// A message item with one refusal part; `text` `None` for the empty
/// `content` of `output_item.added`. `id` is a JSON literal.
fn refusal_message_item(s: &mut String, id: &str, status: &str, text: Option<&str>) {
    s.push_str("{\"id\":");
    s.push_str(id);
    field_raw(s, "type", "\"message\"");
    field_str(s, "status", status);
    key(s, "content");
    s.push('[');
    if let Some(text) = text {
        refusal_part(s, text);
    }
    s.push(']');
    field_raw(s, "role", "\"assistant\"");
    s.push('}');
}
