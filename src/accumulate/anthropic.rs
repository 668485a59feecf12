//! The Anthropic Messages accumulator: the frames of a Messages stream in,
//! the final [`Message`] out.
//!
//! A thin face over the crate's one accumulator: the stream is read by the
//! dialect's reader ([`AnthropicReader`]) into a [`TurnAccumulator`], and
//! the [`Message`] is that turn, rendered in Anthropic's shape. What a
//! Messages stream holds beyond the turn model (the `message` of
//! `message_start`, the merged `usage`, `stop_sequence`, `stop_details`,
//! `container`, `context_management`, citations, compaction text) is kept
//! by the reader as the turn's extras and written back by the render.
//!
//! See [`AnthropicAccumulator`] for an example.

use alloc::borrow::Cow;

use super::turn::{TurnAccumulator, TurnAccumulatorConfig};
use super::{AccumulateError, Outcome};
use crate::anthropic::{Owned, Usage};
use crate::frame::Frame;
use crate::json::partial::{repair_valid_prefix, PartialJson};
use crate::json::{JsonError, Value};
use crate::turn::{AnthropicReader, Dialect, FinalItem, FinalItemKind, FinalTurn, TurnConfig};

/// The default limit on the content blocks of a message
/// ([`AnthropicAccumulatorConfig::max_blocks`]): 4096, as
/// [`ResponsesAccumulatorConfig::max_items`](super::ResponsesAccumulatorConfig::max_items).
pub const DEFAULT_MAX_BLOCKS: usize = 4096;

config! {
    /// Limits of a [`AnthropicAccumulator`], built like
    /// [`ResponsesAccumulatorConfig`](super::ResponsesAccumulatorConfig) and the crate's other
    /// configurations: `DEFAULT` (or `default()`) with `with_*` builders, or
    /// public fields set one by one.
    ///
    /// ```
    /// use ssekit::accumulate::{AnthropicAccumulator, AnthropicAccumulatorConfig};
    ///
    /// let config = AnthropicAccumulatorConfig::DEFAULT.with_max_blocks(64);
    /// let acc = AnthropicAccumulator::with_config(config);
    /// assert_eq!(acc.config().max_blocks, 64);
    /// assert_eq!(acc.config().max_bytes, 64 << 20);
    /// ```
    pub struct AnthropicAccumulatorConfig {
        /// The bytes kept (see [Memory](AnthropicAccumulator#memory)). Default
        /// 64 MiB ([`TurnAccumulatorConfig::max_bytes`]).
        max_bytes: usize = super::dialect::DEFAULT_MAX_BYTES, with_max_bytes;
        /// Content blocks. Default [`DEFAULT_MAX_BLOCKS`] (the reader's
        /// [`TurnConfig::max_items`] and
        /// [`TurnAccumulatorConfig::max_items`]).
        max_blocks: usize = DEFAULT_MAX_BLOCKS, with_max_blocks;
    }
}

/// Assembles an Anthropic Messages stream into the final [`Message`].
///
/// Feed it every frame with [`feed`](Self::feed); read the message so far at
/// any time with [`snapshot`](Self::snapshot) (borrowed, nothing copied); at
/// the end of the stream call [`finish`](Self::finish), which decides the
/// [`Outcome`]: [`Failed`](Outcome::Failed) when an `error` event arrived;
/// [`Truncated`](Outcome::Truncated) when `message_stop` never came or a
/// limit dropped data — a cut stream is never reported as a success;
/// [`Incomplete`](Outcome::Incomplete) when the model stopped at
/// `max_tokens`, the context window or a refusal; else
/// [`Completed`](Outcome::Completed).
///
/// Each frame is read by an [`AnthropicReader`] into a [`TurnAccumulator`]:
/// the reader knows the stream's lifecycle (blocks started, their deltas,
/// stopped; the stop reason; the usage) and reports what breaks it; the
/// accumulator keeps the turn. The [`Message`] is that turn written in
/// Anthropic's `message` shape ([`FinalTurn::write_json`]).
///
/// # What it keeps
///
/// * From `message_start`: the message object (id, type, role, model, and
///   any member this version does not know, kept verbatim) and its usage.
/// * Per content block, in the order they started: text (with the
///   `citations` of its start and of each `citations_delta`), `thinking`
///   with its `signature`, `redacted_thinking` data, the `input` of a
///   `tool_use` or `server_tool_use` block (its `input_json_delta`
///   fragments joined; [`Block::partial_input`] repairs them while they
///   stream), compaction content, and blocks only Anthropic has (server
///   tool results, unknown types) as they came.
/// * From `message_delta`: `stop_reason`, `stop_sequence`, `stop_details`,
///   `container`, `context_management` (the last of each), and the usage:
///   each member it sends replaces the one kept.
/// * An `error` event as [`error`](Message::error); the reading ends there.
///
/// # Errors
///
/// What the reader finds in the stream ([`AccumulateErrorKind::Stream`]:
/// a delta of a block never started, a block started twice, content after
/// `message_stop`, …) and the limits
/// ([`AccumulateErrorKind::TooManyBytes`],
/// [`AccumulateErrorKind::TooManyItems`]) come from `feed` with the
/// event's index; the rest of the stream is read on. Faults the reader
/// reads past (a block still open at `message_stop`, no stop reason, an
/// unknown event type) are not errors.
///
/// # Memory
///
/// Everything kept counts against a limit (64 MiB by default;
/// [`AnthropicAccumulatorConfig::max_bytes`]): the text kept, the extras,
/// and a fixed amount per block. A fragment that does not fit is dropped
/// with [`AccumulateErrorKind::TooManyBytes`] and the message ends
/// [`Truncated`](Outcome::Truncated). The number of content blocks is
/// limited too ([`AnthropicAccumulatorConfig::max_blocks`]): a block past
/// it is refused with [`AccumulateErrorKind::TooManyItems`].
///
/// # Work
///
/// Linear in the input: each frame costs O(its size), plus O(log n) in the
/// blocks held. Reading a snapshot is not free: [`Block::partial_input`]
/// repairs the input so far on each call (O(its length)), so calling it
/// after every frame costs O(n²) in the length of one block's input.
///
/// [`AccumulateErrorKind::Stream`]: super::AccumulateErrorKind::Stream
/// [`AccumulateErrorKind::TooManyBytes`]: super::AccumulateErrorKind::TooManyBytes
/// [`AccumulateErrorKind::TooManyItems`]: super::AccumulateErrorKind::TooManyItems
///
/// # Example
///
/// ```
/// use ssekit::accumulate::{AnthropicAccumulator, Outcome};
/// use ssekit::{Bytes, Parser};
///
/// let body = concat!(
///     "event: message_start\n", r#"data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}}"#, "\n\n",
///     "event: content_block_start\n", r#"data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"weather","input":{}}}"#, "\n\n",
///     "event: content_block_delta\n", r#"data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Par"}}"#, "\n\n",
///     "event: content_block_delta\n", r#"data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"is\"}"}}"#, "\n\n",
///     "event: content_block_stop\n", r#"data: {"type":"content_block_stop","index":0}"#, "\n\n",
///     "event: message_delta\n", r#"data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":20}}"#, "\n\n",
///     "event: message_stop\n", r#"data: {"type":"message_stop"}"#, "\n\n",
/// );
/// let mut parser = Parser::new();
/// parser.feed(Bytes::from_static(body.as_bytes()));
/// let mut acc = AnthropicAccumulator::new();
/// let mut live = Vec::new();
/// while let Some(frame) = parser.next_frame()? {
///     acc.feed(&frame)?;
///     // A UI shows the tool input while it streams:
///     if let Some(block) = acc.snapshot().block(0) {
///         live.push(block.partial_input().unwrap_or_else(|| "…".into()));
///     }
/// }
/// assert_eq!(live[..3], ["…", r#"{"city": "Par"}"#, r#"{"city": "Paris"}"#]);
///
/// let message = acc.finish();
/// assert_eq!(message.outcome(), Outcome::Completed);
/// assert_eq!(message.block(0).unwrap().input(), Some(r#"{"city": "Paris"}"#));
/// assert_eq!(message.usage().unwrap().get().output_tokens, Some(20));
/// assert_eq!(
///     message.to_json(),
///     r#"{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[{"type":"tool_use","id":"toolu_1","name":"weather","input":{"city": "Paris"}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":20}}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct AnthropicAccumulator {
    reader: AnthropicReader,
    acc: TurnAccumulator,
    config: AnthropicAccumulatorConfig,
}

impl Default for AnthropicAccumulator {
    fn default() -> Self {
        Self::new()
    }
}

impl AnthropicAccumulator {
    /// An empty accumulator with the default [`AnthropicAccumulatorConfig`].
    pub fn new() -> Self {
        Self::with_config(AnthropicAccumulatorConfig::default())
    }

    /// An empty accumulator with the given limits.
    pub fn with_config(config: AnthropicAccumulatorConfig) -> Self {
        let turn = TurnConfig {
            max_items: config.max_blocks,
            ..TurnConfig::default()
        };
        let acc = TurnAccumulatorConfig::DEFAULT
            .with_max_items(config.max_blocks)
            .with_max_bytes(config.max_bytes);
        Self {
            reader: AnthropicReader::new(&turn),
            acc: TurnAccumulator::with_config(acc).from_dialect(Dialect::Anthropic),
            config,
        }
    }

    /// The limits this accumulator was made with.
    pub fn config(&self) -> &AnthropicAccumulatorConfig {
        &self.config
    }

    /// The bytes counted against the limit so far.
    pub fn used_bytes(&self) -> usize {
        self.acc.used_bytes()
    }

    /// The number of frames read.
    pub fn events(&self) -> u64 {
        crate::turn::TurnReader::events(&self.reader)
    }

    /// Reads one frame of the stream. `ping` and unknown event types change
    /// nothing.
    ///
    /// Cost: O(size of the frame), plus O(log n) in the blocks held.
    ///
    /// # Errors
    ///
    /// An [`AccumulateError`] at this frame's index: the event does not
    /// decode ([`Decode`](super::AccumulateErrorKind::Decode); nothing of
    /// it is applied), breaks the stream's lifecycle
    /// ([`Stream`](super::AccumulateErrorKind::Stream); the reader applies
    /// nothing of it), or does not fit a limit
    /// ([`TooManyBytes`](super::AccumulateErrorKind::TooManyBytes),
    /// [`TooManyItems`](super::AccumulateErrorKind::TooManyItems); what did
    /// not fit is dropped and the message ends truncated). The accumulator
    /// stays usable: what was kept is kept, and later frames are read.
    pub fn feed(&mut self, frame: &Frame) -> Result<(), AccumulateError> {
        self.acc.read(&mut self.reader, frame).map_err(Into::into)
    }

    /// The message so far, borrowed: nothing is copied. Its
    /// [`outcome`](Message::outcome) is [`InProgress`](Outcome::InProgress).
    pub fn snapshot(&self) -> Message<'_> {
        Message {
            turn: Cow::Borrowed(self.acc.turn()),
            outcome: Outcome::InProgress,
        }
    }

    /// Ends the stream and returns the message, with its
    /// [`outcome`](Message::outcome) decided (see the [type docs](Self)):
    /// a stream that ended before `message_stop` is
    /// [`Truncated`](Outcome::Truncated).
    #[must_use]
    pub fn finish(mut self) -> Message<'static> {
        // The cut is the outcome; the error says no more.
        let _ = self.acc.finish_reader(&mut self.reader);
        let outcome = self.acc.outcome();
        Message {
            turn: Cow::Owned(self.acc.into_turn()),
            outcome,
        }
    }
}

/// A Message assembled from a stream: the `message` object the same request
/// would have returned without streaming, plus how the stream ended.
///
/// Made by [`AnthropicAccumulator`] (borrowed by
/// [`snapshot`](AnthropicAccumulator::snapshot), owned by
/// [`finish`](AnthropicAccumulator::finish)) over the [`FinalTurn`] it
/// kept. [`to_json`](Self::to_json) writes it in the API's shape; with the
/// `serde` feature it implements `serde::Serialize` in the same shape.
#[derive(Debug, Clone)]
pub struct Message<'a> {
    turn: Cow<'a, FinalTurn>,
    outcome: Outcome,
}

/// The extra `key` of the turn, as Anthropic's reader kept it.
fn extra<'t>(turn: &'t FinalTurn, key: &str) -> Option<&'t str> {
    turn.extra(Dialect::Anthropic, key)
}

/// The string member `key` of the JSON object `object`, unescaped.
fn member_str<'t>(object: &'t str, key: &str) -> Option<Cow<'t, str>> {
    let value = Value::parse(object).ok()?.as_object()?.get(key)?;
    Some(value.as_json_str()?.unescape())
}

/// The JSON string literal `raw`, unescaped.
fn literal(raw: &str) -> Option<Cow<'_, str>> {
    Some(Value::parse(raw).ok()?.as_json_str()?.unescape())
}

impl<'a> Message<'a> {
    /// The turn the message is written from.
    pub fn turn(&self) -> &FinalTurn {
        &self.turn
    }

    /// The message ID (`msg_…`).
    pub fn id(&self) -> Option<&str> {
        self.turn.id()
    }
    /// The model that served the request.
    pub fn model(&self) -> Option<&str> {
        self.turn.model()
    }
    /// The role (`assistant`), from `message_start`.
    pub fn role(&self) -> Option<Cow<'_, str>> {
        member_str(extra(&self.turn, "message")?, "role")
    }
    /// The content blocks, in the order they started. O(1) each.
    pub fn content(&self) -> impl ExactSizeIterator<Item = Block<'_>> + '_ {
        let items = self.turn.items().iter().enumerate();
        items.map(|(at, item)| Block {
            item,
            index: at as u64,
        })
    }
    /// The content block at this position (the stream's block `index` when
    /// the stream numbers its blocks 0, 1, 2, … as the API does). O(1).
    pub fn block(&self, index: u64) -> Option<Block<'_>> {
        let at = usize::try_from(index).ok()?;
        let item = self.turn.items().get(at)?;
        Some(Block { item, index })
    }
    /// Why the model stopped (from `message_delta`).
    pub fn stop_reason(&self) -> Option<&str> {
        self.turn.stop_raw()
    }
    /// The stop sequence that matched, if one did.
    pub fn stop_sequence(&self) -> Option<Cow<'_, str>> {
        literal(extra(&self.turn, "stop_sequence")?)
    }
    /// Details of the stop (newer API versions), as JSON text.
    pub fn stop_details(&self) -> Option<&str> {
        extra(&self.turn, "stop_details")
    }
    /// The code execution container, as JSON text.
    pub fn container(&self) -> Option<&str> {
        extra(&self.turn, "container")
    }
    /// The context management applied (beta), as JSON text.
    pub fn context_management(&self) -> Option<&str> {
        extra(&self.turn, "context_management")
    }
    /// The usage: that of `message_start`, each member replaced by the one
    /// the last `message_delta` sent, as JSON text.
    pub fn usage_json(&self) -> Option<&str> {
        extra(&self.turn, "usage")
    }
    /// [`usage_json`](Self::usage_json) as a typed view. Parsed on each
    /// call: O(size of the usage).
    pub fn usage(&self) -> Option<Owned<Usage<'static>>> {
        Owned::parse(self.usage_json()?).ok()
    }
    /// The error of an `error` event: its `type` and `message`.
    pub fn error(&self) -> Option<(Option<&str>, Option<&str>)> {
        self.turn.error()
    }
    /// Whether `message_start` arrived.
    pub fn saw_message_start(&self) -> bool {
        extra(&self.turn, "message").is_some()
    }
    /// Whether `message_stop` arrived.
    pub fn saw_message_stop(&self) -> bool {
        self.turn.ended()
    }
    /// Whether a fragment was dropped at the memory limit or a block at the
    /// block limit.
    pub fn limit_exceeded(&self) -> bool {
        self.turn.cut
    }

    /// How the stream ended: [`InProgress`](Outcome::InProgress) until
    /// [`AnthropicAccumulator::finish`], then as its docs say.
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }
    /// Whether the stream ended early ([`Outcome::Truncated`]).
    pub fn is_truncated(&self) -> bool {
        self.outcome == Outcome::Truncated
    }

    /// The message as compact JSON text, in the shape of the API's `message`
    /// object: the `message` of `message_start` member by member (unknown
    /// members kept), with `content` the assembled blocks, `stop_reason`,
    /// `stop_sequence`, `stop_details` and `container` from `message_delta`
    /// when it sent them, and `usage` the merged usage; members it lacks
    /// are added after (`context_management` only when sent). A thinking
    /// block with neither text nor signature is left out. Without a
    /// `message_start`, the message is written as
    /// [`FinalTurn::write_json`] writes any turn. The stream's status and
    /// error are not part of this object (see [`outcome`](Self::outcome)
    /// and [`error`](Self::error)).
    pub fn to_json(&self) -> alloc::string::String {
        self.turn.to_json(Dialect::Anthropic)
    }

    /// Appends [`to_json`](Self::to_json)'s text to `out`.
    pub fn write_json(&self, out: &mut alloc::string::String) {
        self.turn.write_json(Dialect::Anthropic, out);
    }

    /// The message, owned (a snapshot's turn is copied).
    pub fn into_owned(self) -> Message<'static> {
        Message {
            turn: Cow::Owned(self.turn.into_owned()),
            outcome: self.outcome,
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Message<'_> {
    /// Serializes [`to_json`](Self::to_json)'s object.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        super::dialect::serialize_json_text(&self.to_json(), s)
    }
}

/// One content block of a [`Message`]: a view of the turn's item.
#[derive(Debug, Clone, Copy)]
pub struct Block<'a> {
    item: &'a FinalItem,
    index: u64,
}

impl<'a> Block<'a> {
    /// The block's position in the message's `content`.
    pub fn index(&self) -> u64 {
        self.index
    }
    /// The turn's item behind the block.
    pub fn item(&self) -> &'a FinalItem {
        self.item
    }
    /// The block's type: `text`, `thinking`, `redacted_thinking` (a
    /// reasoning block with only encrypted data), `tool_use`, or the type of
    /// a block only Anthropic has (`server_tool_use`, …).
    pub fn ty(&self) -> &'a str {
        match &self.item.kind {
            FinalItemKind::Message | FinalItemKind::Refusal => "text",
            FinalItemKind::Reasoning if self.is_redacted() => "redacted_thinking",
            FinalItemKind::Reasoning => "thinking",
            FinalItemKind::ToolCall { .. } => "tool_use",
            FinalItemKind::Other { ty, .. } => ty,
        }
    }
    fn is_redacted(&self) -> bool {
        let i = self.item;
        i.reasoning.is_empty() && i.signature.is_empty() && !i.encrypted.is_empty()
    }
    fn is_thinking(&self) -> bool {
        matches!(self.item.kind, FinalItemKind::Reasoning) && !self.is_redacted()
    }
    /// The block's JSON as the stream gave it, for a block only Anthropic
    /// has (a server tool's use or result, a compaction block, an unknown
    /// type): its `content_block_start`'s.
    pub fn raw(&self) -> Option<&'a str> {
        match &self.item.kind {
            FinalItemKind::Other { raw, .. } => raw.as_deref(),
            _ => None,
        }
    }
    /// The text of a text block: the start's, then the deltas'.
    pub fn text(&self) -> Option<&'a str> {
        match self.item.kind {
            FinalItemKind::Message => Some(self.item.text.get(&0).map_or("", |s| s.as_str())),
            _ => None,
        }
    }
    /// The citations of a text block, as a JSON array: the start's, then
    /// the deltas'. `None` when neither gave any.
    pub fn citations(&self) -> Option<&'a str> {
        self.item.extra(Dialect::Anthropic, "citations")
    }
    /// The thinking text of a thinking block.
    pub fn thinking(&self) -> Option<&'a str> {
        self.is_thinking()
            .then(|| self.item.reasoning.get(&0).map_or("", |s| s.as_str()))
    }
    /// The signature of a thinking block.
    pub fn signature(&self) -> Option<&'a str> {
        self.is_thinking().then_some(self.item.signature.as_str())
    }
    /// The encrypted data of a `redacted_thinking` block.
    pub fn data(&self) -> Option<&'a str> {
        self.is_redacted().then_some(self.item.encrypted.as_str())
    }
    /// The ID of a `tool_use` / `server_tool_use` block.
    pub fn id(&self) -> Option<Cow<'a, str>> {
        match &self.item.kind {
            FinalItemKind::ToolCall { call_id, .. } => call_id.as_deref().map(Cow::Borrowed),
            FinalItemKind::Other { raw: Some(raw), .. } => member_str(raw, "id"),
            _ => None,
        }
    }
    /// The tool's name of a `tool_use` / `server_tool_use` block.
    pub fn name(&self) -> Option<Cow<'a, str>> {
        match &self.item.kind {
            FinalItemKind::Other { raw: Some(raw), .. } => member_str(raw, "name"),
            _ => self.item.name().map(Cow::Borrowed),
        }
    }
    /// The `input_json_delta` fragments so far, concatenated as sent
    /// (for a `tool_use` block whose start gave the input whole, that
    /// input once the block stopped).
    pub fn input_json(&self) -> Option<&'a str> {
        match self.item.kind {
            FinalItemKind::ToolCall { .. } => Some(&self.item.arguments),
            FinalItemKind::Other { .. } if !self.item.arguments.is_empty() => {
                Some(&self.item.arguments)
            }
            _ => None,
        }
    }
    /// The best-effort value of the input so far, as complete JSON text
    /// (see [`PartialJson`]): `{"city": "Par` → `{"city": "Par"}`. `None`
    /// while no value has started. If the input stopped being valid JSON,
    /// the repair of the text before the error. Repaired on each call:
    /// O(size of the input).
    pub fn partial_input(&self) -> Option<alloc::string::String> {
        repair_valid_prefix(self.input_json()?)
    }
    /// The complete input, as JSON text: once the block stopped, the
    /// fragments (without surrounding whitespace) when they are valid JSON,
    /// or, with no fragments, the `input` of the start (`{}`). `None` before
    /// the stop, for blocks with no input, and for input that is not valid
    /// JSON (see [`input_error`](Self::input_error)). O(size of the input).
    pub fn input(&self) -> Option<&'a str> {
        if !self.item.done {
            return None;
        }
        let text = self.input_json().unwrap_or_default().trim_matches(JSON_WS);
        if !text.is_empty() {
            return Value::parse(text).is_ok().then_some(text);
        }
        match &self.item.kind {
            FinalItemKind::ToolCall { .. } => Some("{}"),
            FinalItemKind::Other { raw: Some(raw), .. } => {
                let input = Value::parse(raw).ok()?.as_object()?.get("input")?;
                Some(input.as_raw_json().get())
            }
            _ => None,
        }
    }
    /// The first JSON error in the input fragments of a stopped block, if
    /// they are not valid JSON. O(size of the input).
    pub fn input_error(&self) -> Option<JsonError> {
        let text = self.input_json()?;
        if !self.item.done || text.trim_matches(JSON_WS).is_empty() {
            return None;
        }
        let mut p = PartialJson::new();
        p.feed(text).and_then(|()| p.finish().map(drop)).err()
    }
    /// The content of a compaction block: the start's, then the deltas'.
    pub fn compaction_content(&self) -> Option<Cow<'a, str>> {
        literal(self.item.extra(Dialect::Anthropic, "content")?)
    }
    /// The encrypted content of a compaction block.
    pub fn encrypted_content(&self) -> Option<Cow<'a, str>> {
        literal(self.item.extra(Dialect::Anthropic, "encrypted_content")?)
    }
    /// Whether `content_block_stop` arrived (or `message_stop` ended the
    /// block).
    pub fn is_stopped(&self) -> bool {
        self.item.done
    }
}

/// JSON's whitespace.
const JSON_WS: [char; 4] = [' ', '\t', '\n', '\r'];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accumulate::AccumulateErrorKind;
    use crate::turn::TurnErrorKind;
    use crate::Parser;
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;
    use bytes::Bytes;

    fn frame(data: &str) -> Frame {
        let mut p = Parser::new();
        p.feed(Bytes::from(format!("data: {data}\n\n")));
        p.next_frame().unwrap().unwrap()
    }

    fn run(acc: &mut AnthropicAccumulator, events: &[&str]) -> Vec<Result<(), AccumulateError>> {
        events.iter().map(|e| acc.feed(&frame(e))).collect()
    }

    const START: &str = r#"{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"c","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1,"service_tier":"standard"}}}"#;
    const DELTA: &str = r#"{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9,"input_tokens":null}}"#;
    const STOP: &str = r#"{"type":"message_stop"}"#;

    fn block_delta(index: u64, delta: &str) -> String {
        format!(r#"{{"type":"content_block_delta","index":{index},"delta":{delta}}}"#)
    }

    /// A delta before its block started is a fault of the stream: refused
    /// at its event, not kept; the blocks are in the order they started.
    #[test]
    fn deltas_before_their_start_are_refused() {
        let mut acc = AnthropicAccumulator::new();
        let events = [
            START.into(),
            block_delta(1, r#"{"type":"text_delta","text":" world"}"#),
            r#"{"type":"content_block_start","index":1,"content_block":{"type":"text","text":"hello"}}"#.into(),
            r#"{"type":"content_block_stop","index":1}"#.into(),
            r#"{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}"#.into(),
            block_delta(0, r#"{"type":"thinking_delta","thinking":"hm"}"#),
            block_delta(0, r#"{"type":"signature_delta","signature":"sig"}"#),
            r#"{"type":"content_block_stop","index":0}"#.into(),
            DELTA.into(),
            STOP.into(),
        ];
        let refs: Vec<&str> = events.iter().map(String::as_str).collect();
        let r = run(&mut acc, &refs);
        let e = r[1].unwrap_err();
        assert_eq!(
            e.kind(),
            AccumulateErrorKind::Stream(TurnErrorKind::UnknownIndex { index: 1 })
        );
        assert_eq!(e.event_index(), 1);
        assert!(r[2..].iter().all(Result::is_ok), "{r:?}");
        assert_eq!(acc.events(), 10);
        let m = acc.finish();
        assert_eq!(m.outcome(), Outcome::Completed);
        assert_eq!(m.block(0).unwrap().text(), Some("hello"));
        assert_eq!(m.block(1).unwrap().thinking(), Some("hm"));
        assert_eq!(m.block(1).unwrap().signature(), Some("sig"));
        assert_eq!(
            m.to_json(),
            r#"{"id":"m","type":"message","role":"assistant","model":"c","content":[{"type":"text","text":"hello"},{"type":"thinking","thinking":"hm","signature":"sig"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":9,"service_tier":"standard"}}"#
        );
    }

    /// An event of a known type that does not fit is reported, not passed
    /// over, and changes nothing; the reading goes on.
    #[test]
    fn events_that_do_not_fit_are_reported_and_not_applied() {
        let mut acc = AnthropicAccumulator::new();
        let open = r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"a"}}"#;
        let unfit =
            r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":5}}"#;
        let results = run(
            &mut acc,
            &[
                START,
                open,
                unfit,
                &block_delta(0, r#"{"type":"text_delta","text":"b"}"#),
            ],
        );
        let expected = crate::anthropic::AnthropicEvent::parse(unfit)
            .unwrap()
            .decode_error()
            .unwrap();
        assert_eq!(
            expected.kind(),
            crate::views::DecodeErrorKind::WrongType { field: "text" }
        );
        let err = results[2].unwrap_err();
        assert_eq!(err.kind(), AccumulateErrorKind::Decode(expected));
        assert_eq!(err.event_index(), 2);
        assert!(results[3].is_ok(), "not sticky");
        assert_eq!(acc.snapshot().block(0).unwrap().text(), Some("ab"));
    }

    #[test]
    fn the_snapshot_is_in_progress_and_borrows() {
        let mut acc = AnthropicAccumulator::new();
        let open =
            r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#;
        run(&mut acc, &[START, open]);
        let snap = acc.snapshot();
        assert!(matches!(snap.turn, Cow::Borrowed(_)));
        assert_eq!(snap.outcome(), Outcome::InProgress);
        assert_eq!(snap.block(0).unwrap().text(), Some(""));
        assert!(!snap.block(0).unwrap().is_stopped());
        assert_eq!(snap.id(), Some("m"));
        assert_eq!(snap.role().as_deref(), Some("assistant"));
        let owned = snap.into_owned();
        run(
            &mut acc,
            &[&block_delta(0, r#"{"type":"text_delta","text":"x"}"#)],
        );
        assert_eq!(acc.snapshot().block(0).unwrap().text(), Some("x"));
        assert_eq!(owned.block(0).unwrap().text(), Some(""), "a copy");
    }

    #[test]
    fn a_cut_stream_is_truncated_at_finish() {
        let mut acc = AnthropicAccumulator::new();
        run(&mut acc, &[START, DELTA]);
        let m = acc.finish();
        assert_eq!(m.outcome(), Outcome::Truncated);
        assert!(m.is_truncated());
        assert!(m.saw_message_start() && !m.saw_message_stop());
        // Nothing at all: cut too.
        assert_eq!(
            AnthropicAccumulator::new().finish().outcome(),
            Outcome::Truncated
        );
    }

    /// Read past, as the reader reads past them: `message_stop` with a
    /// block open (the block ends with the message) or without a stop
    /// reason.
    #[test]
    fn an_open_block_or_no_stop_reason_at_message_stop_is_read_past() {
        let mut acc = AnthropicAccumulator::new();
        let open =
            r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#;
        let r = run(&mut acc, &[START, open, DELTA, STOP]);
        assert!(r.iter().all(Result::is_ok), "{r:?}");
        let m = acc.finish();
        assert_eq!(m.outcome(), Outcome::Completed);
        assert!(m.block(0).unwrap().is_stopped());
        let mut acc = AnthropicAccumulator::new();
        run(&mut acc, &[START, STOP]);
        let m = acc.finish();
        assert_eq!(m.outcome(), Outcome::Completed);
        assert_eq!(m.stop_reason(), None);
    }

    #[test]
    fn max_tokens_is_incomplete() {
        let mut acc = AnthropicAccumulator::new();
        let delta = r#"{"type":"message_delta","delta":{"stop_reason":"max_tokens"}}"#;
        run(&mut acc, &[START, delta, STOP]);
        let m = acc.finish();
        assert_eq!(m.outcome(), Outcome::Incomplete);
        assert_eq!(m.stop_reason(), Some("max_tokens"));
    }

    #[test]
    fn error_event_fails_the_stream_and_ends_the_reading() {
        let mut acc = AnthropicAccumulator::new();
        let r = run(
            &mut acc,
            &[
                START,
                r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
                r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"late"}}"#,
            ],
        );
        assert!(r[1].is_ok());
        assert_eq!(
            r[2].unwrap_err().kind(),
            AccumulateErrorKind::Stream(TurnErrorKind::ContentAfterFinish)
        );
        let m = acc.finish();
        assert_eq!(m.outcome(), Outcome::Failed);
        assert_eq!(
            m.error(),
            Some((Some("overloaded_error"), Some("Overloaded")))
        );
    }

    /// Tool input that is not valid JSON: no error at the stop (the reader
    /// does not parse it), kept as sent; the accessors say what it is.
    #[test]
    fn invalid_tool_input_is_kept_and_reported_by_the_block() {
        let mut acc = AnthropicAccumulator::new();
        let r = run(
            &mut acc,
            &[
                START,
                r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#,
                &block_delta(
                    0,
                    r#"{"type":"input_json_delta","partial_json":"{\"a\": \"x"}"#,
                ),
                r#"{"type":"content_block_stop","index":0}"#,
            ],
        );
        assert!(r.iter().all(Result::is_ok), "{r:?}");
        let snap = acc.snapshot();
        let block = snap.block(0).unwrap();
        assert_eq!(block.input(), None);
        let error = block.input_error().unwrap();
        assert!(error.is_eof());
        assert_eq!(error.offset(), 8, "the end of the text");
        assert_eq!(block.input_json(), Some(r#"{"a": "x"#));
        assert_eq!(block.partial_input().as_deref(), Some(r#"{"a": "x"}"#));
        assert_eq!(block.id().as_deref(), Some("t"));
        assert_eq!(block.name().as_deref(), Some("f"));
        assert_eq!(block.ty(), "tool_use");
        // Never invalid JSON out: the repair of the input.
        let json = snap.to_json();
        assert!(json.contains(r#""input":{"a": "x"}"#), "{json}");
    }

    #[test]
    fn blank_input_fragments_fall_back_to_the_start_input() {
        for fragment in ["", " \n"] {
            let mut acc = AnthropicAccumulator::new();
            let delta = block_delta(
                0,
                &format!(r#"{{"type":"input_json_delta","partial_json":{fragment:?}}}"#),
            );
            let r = run(
                &mut acc,
                &[
                    START,
                    r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#,
                    &delta,
                    r#"{"type":"content_block_stop","index":0}"#,
                ],
            );
            assert!(r.iter().all(Result::is_ok), "{r:?}");
            let snap = acc.snapshot();
            let block = snap.block(0).unwrap();
            assert_eq!(block.input(), Some("{}"), "{fragment:?}");
            assert_eq!(block.input_error(), None);
        }
    }

    #[test]
    fn limit_is_enforced() {
        // What the start, the block and one byte of text cost, measured;
        // then room for two more bytes.
        let mut probe = AnthropicAccumulator::new();
        let open =
            r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#;
        let one = block_delta(0, r#"{"type":"text_delta","text":"a"}"#);
        run(&mut probe, &[START, open, &one]);
        let max = probe.used_bytes() + 2;
        let mut acc = AnthropicAccumulator::with_config(
            AnthropicAccumulatorConfig::DEFAULT.with_max_bytes(max),
        );
        let r = run(
            &mut acc,
            &[
                START,
                open,
                &block_delta(0, r#"{"type":"text_delta","text":"abc"}"#),
                &block_delta(0, r#"{"type":"text_delta","text":"d"}"#),
            ],
        );
        assert!(r[..3].iter().all(Result::is_ok), "{r:?}");
        assert_eq!(
            r[3].unwrap_err().kind(),
            AccumulateErrorKind::TooManyBytes { limit: max }
        );
        assert_eq!(acc.used_bytes(), max);
        run(
            &mut acc,
            &[r#"{"type":"content_block_stop","index":0}"#, DELTA, STOP],
        );
        let m = acc.finish();
        assert!(m.limit_exceeded());
        assert_eq!(m.block(0).unwrap().text(), Some("abc"));
        assert_eq!(m.outcome(), Outcome::Truncated);
    }

    #[test]
    fn block_count_is_limited() {
        assert_eq!(
            AnthropicAccumulator::new().config().max_blocks,
            DEFAULT_MAX_BLOCKS
        );
        let config = AnthropicAccumulatorConfig::DEFAULT.with_max_blocks(2);
        let mut acc = AnthropicAccumulator::with_config(config);
        assert_eq!(acc.config().max_blocks, 2);
        let start = |i: u64| {
            format!(
                r#"{{"type":"content_block_start","index":{i},"content_block":{{"type":"text","text":"x"}}}}"#
            )
        };
        let r = run(&mut acc, &[START, &start(0), &start(1), &start(2)]);
        assert!(r[..3].iter().all(Result::is_ok), "{r:?}");
        let e = r[3].unwrap_err();
        assert_eq!(e.kind(), AccumulateErrorKind::TooManyItems { limit: 2 });
        assert_eq!(e.event_index(), 3);
        assert_eq!(
            alloc::string::ToString::to_string(&e),
            "response has more than 2 output items at event 3"
        );
        // The rest of the stream is whole: the message is still cut.
        let r = run(&mut acc, &[DELTA, STOP]);
        assert!(r.iter().all(Result::is_ok), "{r:?}");
        let m = acc.finish();
        assert_eq!(m.content().len(), 2);
        assert!(m.limit_exceeded());
        assert_eq!(m.outcome(), Outcome::Truncated);
    }

    #[test]
    fn usage_members_merge_by_unescaped_key_in_first_order() {
        let mut acc = AnthropicAccumulator::new();
        let r = run(
            &mut acc,
            &[
                START,
                r#"{"type":"message_delta","delta":{},"usage":{"output\u005ftokens":7,"x":{"a":1}}}"#,
                r#"{"type":"message_delta","delta":{},"usage":{"x":2,"input_tokens":null}}"#,
            ],
        );
        assert!(r.iter().all(Result::is_ok), "{r:?}");
        let snap = acc.snapshot();
        assert_eq!(
            snap.usage_json(),
            Some(r#"{"input_tokens":5,"output_tokens":7,"service_tier":"standard","x":2}"#)
        );
        assert_eq!(snap.usage().unwrap().get().output_tokens, Some(7));
        assert!(AnthropicAccumulator::new().snapshot().usage().is_none());
    }
}
