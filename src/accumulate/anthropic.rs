//! The Anthropic Messages accumulator: [`AnthropicEvent`]s in, the final
//! [`Message`] out.
//!
//! A Messages stream opens with `message_start` (the message's metadata,
//! empty content, initial usage), then for each content block a
//! `content_block_start` at its `index`, `content_block_delta`s (text,
//! tool input JSON, thinking, signature, citations) and a
//! `content_block_stop`, then a `message_delta` (stop reason, cumulative
//! usage) and `message_stop`. [`AnthropicAccumulator`] joins the fragments by
//! block index, whatever order they come in.
//!
//! See [`AnthropicAccumulator`] for an example.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::dialect::{
    by_index, event_result, json_str, note, write_merged, Budget, IndexOrder, DEFAULT_MAX_BYTES,
};
use super::{AccumulateError, AccumulateErrorKind, Outcome};
use crate::anthropic::{
    AnthropicEvent, ApiError, BlockDelta, Citation, ContentBlock, MessageDelta, MessageStart,
    Owned, Usage,
};
use crate::json::partial::PartialJson;
use crate::json::{JsonError, JsonStr, RawJson, Value};

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
        /// 64 MiB.
        max_bytes: usize = DEFAULT_MAX_BYTES, with_max_bytes;
        /// Distinct content block indexes. Default [`DEFAULT_MAX_BLOCKS`].
        max_blocks: usize = DEFAULT_MAX_BLOCKS, with_max_blocks;
    }
}

/// Assembles an Anthropic Messages stream into the final [`Message`].
///
/// Feed it every event with [`feed`](Self::feed); read the message so far at
/// any time with [`snapshot`](Self::snapshot) (borrowed, nothing copied); at
/// the end of the stream call [`finish`](Self::finish), which decides the
/// [`Outcome`]: [`Completed`](Outcome::Completed) only when
/// `message_start`, a stop reason and `message_stop` arrived and every block
/// that started also stopped; [`Failed`](Outcome::Failed) when an
/// `error` event arrived; otherwise [`Truncated`](Outcome::Truncated) —
/// a cut stream is never reported as a success.
///
/// # What it keeps
///
/// * From `message_start`: the message object (id, type, role, model, and
///   any member this version does not know, kept verbatim) and its usage.
/// * Per content block, by `index`: the block as `content_block_start`
///   opened it, and what its deltas add: `text` (with `citations`, those of
///   the start then those of each `citations_delta`), `thinking` with its
///   `signature`, the `input` of `tool_use` / `server_tool_use` blocks
///   (the `input_json_delta` fragments concatenated, shown live by
///   [`partial_input`](Block::partial_input) and parsed at
///   `content_block_stop`), and `compaction` content. Blocks that arrive
///   complete (`redacted_thinking`, server tool results, unknown types) are
///   kept as they came. A delta for a block that has not started yet is
///   kept, and the start, when it comes, goes in front of it.
/// * From `message_delta`: `stop_reason`, `stop_sequence`, `stop_details`,
///   `container`, `context_management` (the last non-null of each), and the
///   usage: each member it sends replaces the one of `message_start`.
/// * An `error` event as [`error`](Message::error) (the last one; it is
///   kept even past the memory limit, as it replaces the one before).
///
/// # Memory
///
/// Everything kept counts against a limit (64 MiB by default;
/// [`AnthropicAccumulatorConfig::max_bytes`]): the text and JSON kept, tool
/// input twice (it is also repaired live), and a fixed amount per block. A
/// fragment that does not fit is dropped with
/// [`AccumulateErrorKind::TooManyBytes`] and the message ends
/// [`Truncated`](Outcome::Truncated).
///
/// The number of content blocks is limited too ([`DEFAULT_MAX_BLOCKS`];
/// [`AnthropicAccumulatorConfig::max_blocks`]): an event for one more block
/// is dropped with [`AccumulateErrorKind::TooManyBlocks`], and the message
/// ends [`Truncated`](Outcome::Truncated).
///
/// # Work
///
/// Linear in the input: each event costs O(its size), plus O(log n) to
/// find its block, whatever order the indexes come in (blocks are kept in
/// a map keyed by index, so an insert never shifts the others).
///
/// # Example
///
/// ```
/// use ssekit::accumulate::{AnthropicAccumulator, Outcome};
/// use ssekit::anthropic::AnthropicEvent;
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
///     acc.feed(&AnthropicEvent::from_frame(&frame)?)?;
///     // A UI shows the tool input while it streams:
///     if let Some(block) = acc.snapshot().block(0) {
///         live.push(block.partial_input().unwrap_or("…").to_owned());
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
    message: Message,
    budget: Budget,
    config: AnthropicAccumulatorConfig,
    events: u64,
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
        Self {
            message: Message::default(),
            budget: Budget::new(config.max_bytes),
            config,
            events: 0,
        }
    }

    /// The limits this accumulator was made with.
    pub fn config(&self) -> &AnthropicAccumulatorConfig {
        &self.config
    }

    /// The bytes counted against the limit so far.
    pub fn used_bytes(&self) -> usize {
        self.budget.used()
    }

    /// The number of events pushed.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Adds one event. `ping` and unknown event types change nothing.
    ///
    /// Cost: O(size of the event), plus O(log n) to find the block by
    /// index; each usage member a `message_start` or `message_delta` sends
    /// costs O(log m) among the m members kept (the usage is written out
    /// only when asked for: [`Message::usage`], [`Message::to_json`]).
    ///
    /// # Errors
    ///
    /// An [`AccumulateError`] when part of the event could not be kept: a
    /// citation that does not decode ([`AccumulateErrorKind::Decode`]), a
    /// fragment past the memory limit
    /// ([`AccumulateErrorKind::TooManyBytes`]), a block past the count limit
    /// ([`AccumulateErrorKind::TooManyBlocks`]), or, at
    /// `content_block_stop`, tool input that is not valid JSON
    /// ([`AccumulateErrorKind::InvalidInput`]; the fragments are kept as
    /// sent). The rest of the event is applied and the accumulator stays
    /// usable. An [`AccumulateErrorKind::Decode`] error too for an object
    /// that does not fit its type (an [`Unknown`](AnthropicEvent::Unknown)
    /// with an error, see [`AnthropicEvent::decode_error`]): that event is not
    /// applied, nor counted, as if it had failed to decode before it was
    /// fed.
    pub fn feed(&mut self, event: &AnthropicEvent<'_>) -> Result<(), AccumulateError> {
        if let Some(e) = event.decode_error() {
            // As if it had failed to decode before it was fed: not applied,
            // not counted (as `ResponsesAccumulator::feed` does).
            let kind = AccumulateErrorKind::Decode(e);
            return Err(AccumulateError::new(kind, self.events, None));
        }
        let number = self.events;
        self.events += 1;
        let b = &mut self.budget;
        let max = self.config.max_blocks;
        let m = &mut self.message;
        let mut first = None;
        match event {
            AnthropicEvent::MessageStart(start) => m.start(b, max, start, &mut first),
            AnthropicEvent::ContentBlockStart(s) => {
                let index = s.index;
                note(&mut first, m.block_start(b, max, index, &s.content_block));
            }
            AnthropicEvent::ContentBlockDelta(d) => {
                let r = block_at(b, max, &mut m.blocks, d.index)
                    .and_then(|block| block.delta(b, &d.delta));
                note(&mut first, r);
            }
            AnthropicEvent::ContentBlockStop(s) => {
                let r = block_at(b, max, &mut m.blocks, s.index).and_then(Block::stop);
                note(&mut first, r);
            }
            AnthropicEvent::MessageDelta(d) => m.delta(b, d, &mut first),
            AnthropicEvent::MessageStop(_) => m.stopped = true,
            // Kept whatever the limit (it replaces the last one, so it is
            // bounded by one event): a failure must never read as a cut.
            AnthropicEvent::Error(e) => m.error = Some(e.error.to_owned()),
            AnthropicEvent::Ping(_) | AnthropicEvent::Unknown { .. } => {}
        }
        event_result(first, number, &mut m.limit_hit)
    }

    /// The message so far. Borrowed: nothing is copied. Its
    /// [`outcome`](Message::outcome) is
    /// [`InProgress`](Outcome::InProgress).
    pub fn snapshot(&self) -> &Message {
        &self.message
    }

    /// Ends the stream and returns the message, with its
    /// [`outcome`](Message::outcome) decided (see the [type docs](Self)).
    /// The input of a tool use block that never stopped is parsed here if
    /// it is complete.
    #[must_use]
    pub fn finish(self) -> Message {
        let mut m = self.message;
        for block in m.blocks.values_mut().filter(|b| !b.stopped) {
            // Best effort; the message is truncated anyway.
            let _ = block.finish_input();
        }
        m.status = if m.error.is_some() {
            Outcome::Failed
        } else if m.limit_hit
            || !m.started
            || !m.stopped
            || m.stop_reason.is_none()
            || m.blocks.values().any(|b| !b.stopped)
        {
            Outcome::Truncated
        } else {
            Outcome::Completed
        };
        m
    }
}

/// The block at `index`, inserted (and charged) if missing and fewer than
/// `max` blocks are kept.
fn block_at<'v>(
    b: &mut Budget,
    max: usize,
    blocks: &'v mut BTreeMap<u64, Block>,
    index: u64,
) -> Result<&'v mut Block, AccumulateErrorKind> {
    by_index(
        b,
        blocks,
        index,
        max,
        |limit| AccumulateErrorKind::TooManyBlocks { limit },
        || Block::new(index),
    )
}

/// Appends `v` (unescaped) to `slot` (made `Some`); returns where it starts.
fn append(
    b: &mut Budget,
    slot: &mut Option<String>,
    v: JsonStr<'_>,
    factor: usize,
) -> Result<usize, AccumulateErrorKind> {
    b.append(slot.get_or_insert_with(String::new), v, factor)
}

/// Puts `v` (unescaped) in front of `slot` (made `Some`).
fn prepend(
    b: &mut Budget,
    slot: &mut Option<String>,
    v: JsonStr<'_>,
) -> Result<(), AccumulateErrorKind> {
    let s = b.owned(v)?;
    slot.get_or_insert_with(String::new).insert_str(0, &s);
    Ok(())
}

/// A Message assembled from a stream: the `message` object the same request
/// would have returned without streaming, plus how the stream ended.
///
/// Made by [`AnthropicAccumulator`]. [`to_json`](Self::to_json) writes it in
/// the API's shape; with the `serde` feature it implements
/// `serde::Serialize` in the same shape.
#[derive(Debug, Clone, Default)]
pub struct Message {
    /// The `message` of `message_start`, as JSON text.
    start: Option<String>,
    id: Option<String>,
    model: Option<String>,
    role: Option<String>,
    blocks: BTreeMap<u64, Block>,
    stop_reason: Option<String>,
    stop_sequence: Option<String>,
    stop_details: Option<String>,
    container: Option<String>,
    context_management: Option<String>,
    /// The usage members so far, in the order they first came: key as a
    /// JSON string literal, value as JSON text.
    usage_members: Vec<(String, String)>,
    /// Where each member of `usage_members` is, by unescaped key.
    usage_at: BTreeMap<String, usize>,
    /// Whether a usage object arrived.
    has_usage: bool,
    error: Option<Owned<ApiError<'static>>>,
    started: bool,
    stopped: bool,
    limit_hit: bool,
    status: Outcome,
}

impl Message {
    fn start(
        &mut self,
        b: &mut Budget,
        max: usize,
        start: &MessageStart<'_>,
        first: &mut Option<AccumulateErrorKind>,
    ) {
        self.started = true;
        let msg = &start.message;
        if self.start.is_none() {
            note(first, b.replace(&mut self.start, msg.raw().get()));
        }
        for (slot, v) in [
            (&mut self.id, msg.id),
            (&mut self.model, msg.model),
            (&mut self.role, msg.role),
        ] {
            if let (None, Some(v)) = (&slot, v) {
                match b.owned(v) {
                    Ok(s) => *slot = Some(s),
                    Err(e) => note(first, Err(e)),
                }
            }
        }
        if let Some(reason) = msg.stop_reason {
            note(first, b.owned(reason).map(|s| self.stop_reason = Some(s)));
        }
        if let Some(seq) = msg.stop_sequence {
            note(first, b.owned(seq).map(|s| self.stop_sequence = Some(s)));
        }
        if let Some(usage) = &msg.usage {
            note(first, self.merge_usage(b, usage.raw()));
        }
        // Content sent whole in `message_start` (not done by the API, but
        // allowed by the shape): each block started and stopped.
        if let Some(content) = msg.content {
            for (i, block) in content.iter().enumerate() {
                match block {
                    Ok(block) => {
                        let index = i as u64;
                        note(first, self.block_start(b, max, index, &block));
                        note(
                            first,
                            block_at(b, max, &mut self.blocks, index).and_then(Block::stop),
                        );
                    }
                    Err(e) => note(first, Err(AccumulateErrorKind::Decode(e))),
                }
            }
        }
    }

    fn block_start(
        &mut self,
        b: &mut Budget,
        max: usize,
        index: u64,
        block: &ContentBlock<'_>,
    ) -> Result<(), AccumulateErrorKind> {
        block_at(b, max, &mut self.blocks, index)?.open(b, block)
    }

    fn delta(
        &mut self,
        b: &mut Budget,
        d: &MessageDelta<'_>,
        first: &mut Option<AccumulateErrorKind>,
    ) {
        let body = &d.delta;
        if let Some(reason) = body.stop_reason {
            note(first, b.owned(reason).map(|s| self.stop_reason = Some(s)));
        }
        if let Some(seq) = body.stop_sequence {
            note(first, b.owned(seq).map(|s| self.stop_sequence = Some(s)));
        }
        if let Some(details) = body.stop_details {
            note(first, b.replace(&mut self.stop_details, details.get()));
        }
        if let Some(container) = &body.container {
            note(first, b.replace(&mut self.container, container.raw().get()));
        }
        if let Some(cm) = d.context_management {
            note(first, b.replace(&mut self.context_management, cm.get()));
        }
        if let Some(usage) = &d.usage {
            note(first, self.merge_usage(b, usage.raw()));
        }
    }

    /// Replaces the usage members that `usage` sends (non-null) and adds
    /// the new ones: O(log m) each, nothing rewritten.
    fn merge_usage(
        &mut self,
        b: &mut Budget,
        usage: RawJson<'_>,
    ) -> Result<(), AccumulateErrorKind> {
        let Some(object) = usage.value().as_object() else {
            return Ok(());
        };
        self.has_usage = true;
        for (key, value) in object.members() {
            if value.is_null() {
                continue;
            }
            let (k, v) = (key.as_raw_json().get(), value.as_raw_json().get());
            // Keys compare unescaped.
            let name = key.unescape();
            match self.usage_at.get(&*name) {
                Some(&at) => {
                    let old = &mut self.usage_members[at].1;
                    b.charge(v.len())?;
                    b.release(old.len());
                    *old = String::from(v);
                }
                None => {
                    b.charge(k.len() + name.len() + v.len())?;
                    self.usage_at
                        .insert(name.into_owned(), self.usage_members.len());
                    self.usage_members.push((String::from(k), String::from(v)));
                }
            }
        }
        Ok(())
    }

    /// The merged usage as JSON text (`None` before any usage arrived).
    fn usage_text(&self) -> Option<String> {
        if !self.has_usage {
            return None;
        }
        let mut text = String::from("{");
        for (i, (k, v)) in self.usage_members.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            text.push_str(k);
            text.push(':');
            text.push_str(v);
        }
        text.push('}');
        Some(text)
    }

    /// The message ID (`msg_…`).
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }
    /// The model that served the request.
    pub fn model(&self) -> Option<&str> {
        self.model.as_deref()
    }
    /// The role (`assistant`).
    pub fn role(&self) -> Option<&str> {
        self.role.as_deref()
    }
    /// The content blocks, in `index` order.
    pub fn content(&self) -> IndexOrder<'_, Block> {
        IndexOrder::new(&self.blocks)
    }
    /// The content block with this `index`. O(log n).
    pub fn block(&self, index: u64) -> Option<&Block> {
        self.blocks.get(&index)
    }
    /// Why the model stopped (from `message_delta`).
    pub fn stop_reason(&self) -> Option<&str> {
        self.stop_reason.as_deref()
    }
    /// The stop sequence that matched, if one did.
    pub fn stop_sequence(&self) -> Option<&str> {
        self.stop_sequence.as_deref()
    }
    /// Details of the stop (newer API versions), as JSON text.
    pub fn stop_details(&self) -> Option<&str> {
        self.stop_details.as_deref()
    }
    /// The code execution container, as JSON text.
    pub fn container(&self) -> Option<&str> {
        self.container.as_deref()
    }
    /// The context management applied (beta), as JSON text.
    pub fn context_management(&self) -> Option<&str> {
        self.context_management.as_deref()
    }
    /// The usage: that of `message_start`, each member replaced by the one
    /// the last `message_delta` sent. Written out on each call: O(size of
    /// the usage).
    pub fn usage(&self) -> Option<Owned<Usage<'static>>> {
        Owned::parse(&self.usage_text()?).ok()
    }
    /// The error of an `error` event.
    pub fn error(&self) -> Option<&Owned<ApiError<'static>>> {
        self.error.as_ref()
    }
    /// Whether `message_start` arrived.
    pub fn saw_message_start(&self) -> bool {
        self.started
    }
    /// Whether `message_stop` arrived.
    pub fn saw_message_stop(&self) -> bool {
        self.stopped
    }
    /// Whether a fragment was dropped at the memory limit or the block limit.
    pub fn limit_exceeded(&self) -> bool {
        self.limit_hit
    }

    /// How the stream ended: [`InProgress`](Outcome::InProgress) until
    /// [`AnthropicAccumulator::finish`], then as its docs say.
    pub fn outcome(&self) -> Outcome {
        self.status
    }
    /// Whether the stream ended early ([`Outcome::Truncated`]).
    pub fn is_truncated(&self) -> bool {
        self.status == Outcome::Truncated
    }

    /// The message as compact JSON text, in the shape of the API's `message`
    /// object: the `message` of `message_start` member by member (unknown
    /// members kept), with `content` the assembled blocks, `stop_reason`,
    /// `stop_sequence`, `stop_details` and `container` from `message_delta`
    /// when it sent them, and `usage` the merged usage; members it lacks
    /// are added after (`context_management` only when sent). Without a
    /// `message_start`, `id`, `type`, `role` and `model` come first, `null`
    /// when unknown. The stream's status and error are not part of this
    /// object (see [`outcome`](Self::outcome) and [`error`](Self::error)).
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    /// Appends [`to_json`](Self::to_json)'s text to `out`.
    pub fn write_json(&self, out: &mut String) {
        let mut content = String::from("[");
        for (i, block) in self.blocks.values().enumerate() {
            if i > 0 {
                content.push(',');
            }
            block.write_json(&mut content);
        }
        content.push(']');
        let opt = |s: &Option<String>| s.as_deref().map(json_str);
        let null_or = |s: Option<String>| Some(s.unwrap_or_else(|| String::from("null")));
        let (id, role, model) = if self.start.is_some() {
            (None, None, None)
        } else {
            (
                null_or(opt(&self.id)),
                null_or(opt(&self.role)),
                null_or(opt(&self.model)),
            )
        };
        let ty = self.start.is_none().then(|| String::from("\"message\""));
        let usage = self.usage_text();
        let stop_reason = null_or(opt(&self.stop_reason));
        let stop_sequence = null_or(opt(&self.stop_sequence));
        write_merged(
            out,
            self.start.as_deref(),
            &[
                ("id", id.as_deref()),
                ("type", ty.as_deref()),
                ("role", role.as_deref()),
                ("model", model.as_deref()),
                ("content", Some(&content)),
                ("stop_reason", stop_reason.as_deref()),
                ("stop_sequence", stop_sequence.as_deref()),
                ("stop_details", self.stop_details.as_deref()),
                ("container", self.container.as_deref()),
                ("usage", usage.as_deref()),
                ("context_management", self.context_management.as_deref()),
            ],
        );
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Message {
    /// Serializes [`to_json`](Self::to_json)'s object.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        super::dialect::serialize_json_text(&self.to_json(), s)
    }
}

/// One content block of a [`Message`], assembled from its start and deltas.
#[derive(Debug, Clone)]
pub struct Block {
    index: u64,
    /// From the start; before it, from the first delta's kind.
    ty: Option<String>,
    start: Option<Owned<ContentBlock<'static>>>,
    text: Option<String>,
    citations: Option<Vec<Owned<Citation<'static>>>>,
    thinking: Option<String>,
    signature: Option<String>,
    input_json: Option<String>,
    partial: PartialJson,
    input: Option<String>,
    input_error: Option<JsonError>,
    content: Option<String>,
    encrypted_content: Option<String>,
    unknown_deltas: Vec<String>,
    stopped: bool,
}

impl Block {
    fn new(index: u64) -> Self {
        Self {
            index,
            ty: None,
            start: None,
            text: None,
            citations: None,
            thinking: None,
            signature: None,
            input_json: None,
            partial: PartialJson::new(),
            input: None,
            input_error: None,
            content: None,
            encrypted_content: None,
            unknown_deltas: Vec::new(),
            stopped: false,
        }
    }

    fn open(
        &mut self,
        b: &mut Budget,
        block: &ContentBlock<'_>,
    ) -> Result<(), AccumulateErrorKind> {
        if self.start.is_some() {
            return Ok(()); // a repeated start: the first one stands
        }
        let owned = block.to_owned();
        let ty = block.ty();
        b.charge(owned.as_str().len() + ty.len())?;
        self.start = Some(owned);
        self.ty = Some(String::from(ty));
        let mut problem = None;
        match block {
            ContentBlock::Text(t) => {
                if let Some(text) = t.text {
                    note(&mut problem, prepend(b, &mut self.text, text));
                }
                if let Some(list) = t.citations {
                    let mut kept = Vec::new();
                    for c in list {
                        let r = c.map_err(AccumulateErrorKind::Decode).and_then(|c| {
                            let owned = c.to_owned();
                            b.charge(owned.as_str().len()).map(|()| kept.push(owned))
                        });
                        note(&mut problem, r);
                    }
                    let citations = self.citations.get_or_insert_with(Vec::new);
                    kept.append(citations);
                    *citations = kept;
                }
            }
            ContentBlock::Thinking(t) => {
                if let Some(thinking) = t.thinking {
                    note(&mut problem, prepend(b, &mut self.thinking, thinking));
                }
                if let (None, Some(sig)) = (&self.signature, t.signature) {
                    note(&mut problem, b.owned(sig).map(|s| self.signature = Some(s)));
                }
            }
            ContentBlock::Compaction(c) => {
                if let Some(content) = c.content {
                    note(&mut problem, prepend(b, &mut self.content, content));
                }
                if let Some(enc) = c.encrypted_content {
                    note(&mut problem, prepend(b, &mut self.encrypted_content, enc));
                }
            }
            _ => {}
        }
        problem.map_or(Ok(()), Err)
    }

    fn infer(&mut self, ty: &str) {
        if self.ty.is_none() {
            self.ty = Some(String::from(ty));
        }
    }

    fn delta(&mut self, b: &mut Budget, delta: &BlockDelta<'_>) -> Result<(), AccumulateErrorKind> {
        match delta {
            BlockDelta::Text(t) => {
                self.infer("text");
                append(b, &mut self.text, t.text, 1).map(drop)
            }
            BlockDelta::InputJson(j) => {
                self.infer("tool_use");
                // Counted twice: the text, and its live repair.
                let start = append(b, &mut self.input_json, j.partial_json, 2)?;
                if self.input_error.is_none() {
                    let text = self.input_json.as_deref().unwrap_or_default();
                    if let Err(e) = self.partial.feed(text.get(start..).unwrap_or_default()) {
                        self.input_error = Some(e);
                    }
                }
                Ok(())
            }
            BlockDelta::Thinking(t) => {
                self.infer("thinking");
                append(b, &mut self.thinking, t.thinking, 1).map(drop)
            }
            BlockDelta::Signature(s) => {
                self.infer("thinking");
                append(b, &mut self.signature, s.signature, 1).map(drop)
            }
            BlockDelta::Citations(c) => {
                self.infer("text");
                let owned = c.citation.to_owned();
                b.charge(owned.as_str().len())?;
                self.citations.get_or_insert_with(Vec::new).push(owned);
                Ok(())
            }
            BlockDelta::Compaction(c) => {
                self.infer("compaction");
                if let Some(content) = c.content {
                    append(b, &mut self.content, content, 1)?;
                }
                if let Some(enc) = c.encrypted_content {
                    append(b, &mut self.encrypted_content, enc, 1)?;
                }
                Ok(())
            }
            BlockDelta::Other { raw, .. } => {
                b.charge(raw.get().len())?;
                self.unknown_deltas.push(String::from(raw.get()));
                Ok(())
            }
        }
    }

    /// Whether `input_json_delta` fragments arrived that hold more than JSON
    /// whitespace (whitespace alone leaves the start's `input` in force).
    fn has_fragments(&self) -> bool {
        self.input_json
            .as_deref()
            .is_some_and(|t| !t.trim_matches([' ', '\t', '\n', '\r']).is_empty())
    }

    fn stop(&mut self) -> Result<(), AccumulateErrorKind> {
        self.stopped = true;
        self.finish_input()
    }

    /// Parses the input fragments, if there are any and they were not
    /// parsed yet.
    fn finish_input(&mut self) -> Result<(), AccumulateErrorKind> {
        if !self.has_fragments() || self.input.is_some() {
            return Ok(());
        }
        match self.partial.finish() {
            Ok(text) => {
                self.input = Some(String::from(text));
                Ok(())
            }
            Err(error) => {
                self.input_error.get_or_insert(error);
                Err(AccumulateErrorKind::InvalidInput {
                    index: self.index,
                    error,
                })
            }
        }
    }

    /// The block's index.
    pub fn index(&self) -> u64 {
        self.index
    }
    /// The block's type: from `content_block_start`, or, before it, from
    /// the kind of the first delta (`text`, `tool_use`, `thinking`,
    /// `compaction`).
    pub fn ty(&self) -> Option<&str> {
        self.ty.as_deref()
    }
    /// The block as `content_block_start` opened it, as a view.
    pub fn start(&self) -> Option<ContentBlock<'_>> {
        self.start.as_ref().map(Owned::get)
    }
    /// The text of a text block: the start's, then the deltas'.
    pub fn text(&self) -> Option<&str> {
        self.text.as_deref()
    }
    /// The citations of a text block: the start's, then the deltas'.
    pub fn citations(&self) -> &[Owned<Citation<'static>>] {
        self.citations.as_deref().unwrap_or_default()
    }
    /// The thinking text of a thinking block.
    pub fn thinking(&self) -> Option<&str> {
        self.thinking.as_deref()
    }
    /// The signature of a thinking block.
    pub fn signature(&self) -> Option<&str> {
        self.signature.as_deref()
    }
    /// The ID of a `tool_use` / `server_tool_use` block (from its start).
    pub fn id(&self) -> Option<JsonStr<'_>> {
        match self.start()? {
            ContentBlock::ToolUse(t) | ContentBlock::ServerToolUse(t) => t.id,
            _ => None,
        }
    }
    /// The tool's name of a `tool_use` / `server_tool_use` block.
    pub fn name(&self) -> Option<JsonStr<'_>> {
        match self.start()? {
            ContentBlock::ToolUse(t) | ContentBlock::ServerToolUse(t) => t.name,
            _ => None,
        }
    }
    /// The encrypted data of a `redacted_thinking` block.
    pub fn data(&self) -> Option<JsonStr<'_>> {
        match self.start()? {
            ContentBlock::RedactedThinking(r) => r.data,
            _ => None,
        }
    }
    /// The `input_json_delta` fragments so far, concatenated as sent.
    pub fn input_json(&self) -> Option<&str> {
        self.input_json.as_deref()
    }
    /// The best-effort value of the input so far, as complete JSON text
    /// (see [`PartialJson`]): `{"city": "Par` → `{"city": "Par"}`. `None`
    /// while no value has started. O(1). If the input stopped being valid
    /// JSON, the repair of the text before the error.
    pub fn partial_input(&self) -> Option<&str> {
        self.partial.current()
    }
    /// The complete input, as JSON text: once the block stopped, the
    /// fragments parsed (without surrounding whitespace), or, with no
    /// fragments, the `input` of the start (`{}`). `None` before the stop,
    /// for blocks with no input, and for input that is not valid JSON (see
    /// [`input_error`](Self::input_error)).
    pub fn input(&self) -> Option<&str> {
        if let Some(input) = &self.input {
            return Some(input);
        }
        if !self.stopped || self.input_error.is_some() {
            return None;
        }
        if self.has_fragments() {
            return None;
        }
        self.start_input()
    }

    /// The first JSON error in the input fragments, if they are not valid JSON.
    pub fn input_error(&self) -> Option<JsonError> {
        self.input_error
    }
    /// The content of a compaction block: the start's, then the deltas'.
    pub fn compaction_content(&self) -> Option<&str> {
        self.content.as_deref()
    }
    /// The encrypted content of a compaction block.
    pub fn encrypted_content(&self) -> Option<&str> {
        self.encrypted_content.as_deref()
    }
    /// Deltas of a type this version does not model, as JSON text (not
    /// applied to the block).
    pub fn unknown_deltas(&self) -> &[String] {
        &self.unknown_deltas
    }
    /// Whether `content_block_stop` arrived.
    pub fn is_stopped(&self) -> bool {
        self.stopped
    }

    fn start_input(&self) -> Option<&str> {
        let start = self.start.as_ref()?;
        let object = Value::parse(start.as_str()).ok()?.as_object()?;
        object.get("input").map(|v| v.as_raw_json().get())
    }

    /// The block in the API's shape: the start member by member, with the
    /// assembled fields in place of the start's and added after it.
    fn write_json(&self, out: &mut String) {
        let text = self.text.as_deref().map(json_str);
        let citations = self.citations.as_ref().map(|list| {
            let mut s = String::from("[");
            for (i, c) in list.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                s.push_str(c.as_str());
            }
            s.push(']');
            s
        });
        let thinking = self.thinking.as_deref().map(json_str);
        let signature = self.signature.as_deref().map(json_str);
        // Never invalid JSON: the parsed input, else its best repair.
        let input = if self.input_json.as_deref().is_some_and(|t| !t.is_empty()) {
            self.input.as_deref().or(self.partial.current())
        } else {
            None
        };
        let content = self.content.as_deref().map(json_str);
        let encrypted = self.encrypted_content.as_deref().map(json_str);
        let ty = match (&self.start, &self.ty) {
            (None, Some(ty)) => Some(json_str(ty)),
            (None, None) => Some(String::from("null")),
            _ => None,
        };
        let start = self.start.as_ref().map(Owned::as_str);
        write_merged(
            out,
            start,
            &[
                ("type", ty.as_deref()),
                ("text", text.as_deref()),
                ("citations", citations.as_deref()),
                ("thinking", thinking.as_deref()),
                ("signature", signature.as_deref()),
                ("input", input),
                ("content", content.as_deref()),
                ("encrypted_content", encrypted.as_deref()),
            ],
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use core::mem::size_of;

    fn run(acc: &mut AnthropicAccumulator, events: &[&str]) -> Vec<Result<(), AccumulateError>> {
        events
            .iter()
            .map(|e| acc.feed(&AnthropicEvent::parse(e).expect("test event decodes")))
            .collect()
    }

    const START: &str = r#"{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"c","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1,"service_tier":"standard"}}}"#;
    const DELTA: &str = r#"{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9,"input_tokens":null}}"#;
    const STOP: &str = r#"{"type":"message_stop"}"#;

    fn block_delta(index: u64, delta: &str) -> String {
        format!(r#"{{"type":"content_block_delta","index":{index},"delta":{delta}}}"#)
    }

    #[test]
    fn deltas_before_their_start_are_kept_behind_it() {
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
        assert!(run(&mut acc, &refs).iter().all(Result::is_ok));
        let m = acc.finish();
        assert_eq!(m.outcome(), Outcome::Completed);
        assert_eq!(m.block(0).unwrap().thinking(), Some("hm"));
        assert_eq!(m.block(0).unwrap().signature(), Some("sig"));
        assert_eq!(m.block(1).unwrap().text(), Some("hello world"));
        assert_eq!(
            m.to_json(),
            r#"{"id":"m","type":"message","role":"assistant","model":"c","content":[{"type":"thinking","thinking":"hm","signature":"sig"},{"type":"text","text":"hello world"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":9,"service_tier":"standard"}}"#
        );
    }

    /// An event of a known type that does not fit (an `Unknown` with an
    /// error) is reported, not passed over, and changes nothing.
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
        let expected = AnthropicEvent::parse(unfit)
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
    fn no_message_stop_or_unstopped_block_is_truncated() {
        let mut acc = AnthropicAccumulator::new();
        run(&mut acc, &[START, DELTA]);
        assert_eq!(acc.finish().outcome(), Outcome::Truncated);
        let mut acc = AnthropicAccumulator::new();
        let open =
            r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#;
        run(&mut acc, &[START, open, DELTA, STOP]);
        assert_eq!(acc.snapshot().outcome(), Outcome::InProgress);
        assert_eq!(acc.finish().outcome(), Outcome::Truncated);
        let mut acc = AnthropicAccumulator::new();
        run(&mut acc, &[START, STOP]);
        assert_eq!(acc.finish().outcome(), Outcome::Truncated, "no stop reason");
    }

    #[test]
    fn error_event_fails_the_stream() {
        let mut acc = AnthropicAccumulator::new();
        run(
            &mut acc,
            &[
                START,
                r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
            ],
        );
        let m = acc.finish();
        assert_eq!(m.outcome(), Outcome::Failed);
        assert_eq!(m.error().unwrap().get().ty.unwrap(), "overloaded_error");
    }

    #[test]
    fn invalid_tool_input_is_an_error_at_stop_and_kept() {
        let mut acc = AnthropicAccumulator::new();
        let r = run(
            &mut acc,
            &[
                START,
                r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#,
                &block_delta(
                    0,
                    r#"{"type":"input_json_delta","partial_json":"{\"a\": 1"}"#,
                ),
                r#"{"type":"content_block_stop","index":0}"#,
            ],
        );
        let e = r[3].unwrap_err();
        assert!(matches!(
            e.kind(),
            AccumulateErrorKind::InvalidInput { index: 0, error } if error.is_eof()
        ));
        let block = acc.snapshot().block(0).unwrap();
        assert_eq!(block.input(), None);
        assert_eq!(block.input_json(), Some(r#"{"a": 1"#));
        assert_eq!(block.id().unwrap(), "t");
        assert!(acc.snapshot().to_json().contains(r#""input":{}"#));
    }

    #[test]
    fn empty_input_fragments_fall_back_to_the_start_input() {
        let mut acc = AnthropicAccumulator::new();
        run(
            &mut acc,
            &[
                r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#,
                &block_delta(0, r#"{"type":"input_json_delta","partial_json":""}"#),
                r#"{"type":"content_block_stop","index":0}"#,
            ],
        );
        assert_eq!(acc.snapshot().block(0).unwrap().input(), Some("{}"));
    }

    #[test]
    fn whitespace_only_input_fragments_fall_back_to_the_start_input() {
        // `finish_input` did not parse them (nothing but whitespace) while
        // `input()` counted them as fragments, so it returned `None`.
        let mut acc = AnthropicAccumulator::new();
        let r = run(
            &mut acc,
            &[
                r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#,
                &block_delta(0, r#"{"type":"input_json_delta","partial_json":" \n"}"#),
                r#"{"type":"content_block_stop","index":0}"#,
            ],
        );
        assert!(r.iter().all(Result::is_ok), "{r:?}");
        let block = acc.snapshot().block(0).unwrap();
        assert_eq!(block.input(), Some("{}"));
        assert_eq!(block.input_error(), None);
    }

    #[test]
    fn limit_is_enforced() {
        let mut acc = AnthropicAccumulator::with_config(
            AnthropicAccumulatorConfig::DEFAULT.with_max_bytes(size_of::<(u64, Block)>() + 3),
        );
        let r = run(
            &mut acc,
            &[
                &block_delta(0, r#"{"type":"text_delta","text":"abc"}"#),
                &block_delta(0, r#"{"type":"text_delta","text":"d"}"#),
            ],
        );
        assert!(r[0].is_ok());
        assert!(matches!(
            r[1].unwrap_err().kind(),
            AccumulateErrorKind::TooManyBytes { .. }
        ));
        let m = acc.finish();
        assert!(m.limit_exceeded());
        assert_eq!(m.block(0).unwrap().text(), Some("abc"));
        assert_eq!(m.outcome(), Outcome::Truncated);
    }

    #[test]
    fn without_message_start_the_shape_is_still_a_message() {
        let mut acc = AnthropicAccumulator::new();
        run(
            &mut acc,
            &[&block_delta(2, r#"{"type":"text_delta","text":"x"}"#)],
        );
        assert_eq!(
            acc.finish().to_json(),
            r#"{"id":null,"type":"message","role":null,"model":null,"content":[{"type":"text","text":"x"}],"stop_reason":null,"stop_sequence":null}"#
        );
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
        let text = |i: u64| block_delta(i, r#"{"type":"text_delta","text":"x"}"#);
        let r = run(
            &mut acc,
            &[
                &text(7),
                &text(3),
                &text(5),
                &text(7),
                r#"{"type":"content_block_stop","index":1}"#,
            ],
        );
        assert!(r[0].is_ok() && r[1].is_ok() && r[3].is_ok());
        let e = r[2].unwrap_err();
        assert_eq!(e.kind(), AccumulateErrorKind::TooManyBlocks { limit: 2 });
        assert_eq!(
            alloc::string::ToString::to_string(&e),
            "message has more than 2 content blocks at event 2"
        );
        assert_eq!(
            r[4].unwrap_err().kind(),
            AccumulateErrorKind::TooManyBlocks { limit: 2 }
        );
        let m = acc.finish();
        let kept: Vec<(u64, Option<&str>)> = m.content().map(|b| (b.index(), b.text())).collect();
        assert_eq!(kept, [(3, Some("x")), (7, Some("xx"))]);
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
        assert!(r.iter().all(Result::is_ok));
        let usage = acc.snapshot().usage().unwrap();
        assert_eq!(
            usage.as_str(),
            r#"{"input_tokens":5,"output_tokens":7,"service_tier":"standard","x":2}"#
        );
        assert_eq!(usage.get().output_tokens, Some(7));
        assert!(AnthropicAccumulator::new().snapshot().usage().is_none());
    }
}
