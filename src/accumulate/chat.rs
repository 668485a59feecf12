//! The Chat Completions accumulator: the frames of a Chat Completions
//! stream in, the final [`ChatCompletion`] out.
//!
//! A Chat Completions stream sends each choice's message in fragments keyed
//! by the choice's `index` (and each tool call's arguments in fragments keyed
//! by the call's `index`), then, when `stream_options.include_usage` is set,
//! a chunk with empty `choices` and the usage, then `[DONE]`.
//! [`ChatAccumulator`] is a face over the turn model: the Chat reader
//! ([`ChatReader`]) reads each choice into a [`TurnAccumulator`] of its own,
//! and the completion is rendered by the Chat rendering of a
//! [`FinalTurn`] (the one [`FinalTurn::write_json`] uses).
//!
//! See [`ChatAccumulator`] for an example.

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::dialect::{IndexOrder, DEFAULT_MAX_BYTES};
use super::{
    AccumulateError, AccumulateErrorKind, Outcome, TurnAccumulator, TurnAccumulatorConfig,
};
use crate::chat::{ChatEvent, ChoiceDelta};
use crate::frame::Frame;
use crate::json::partial::{repair_valid_prefix, PartialJson};
use crate::json::JsonError;
use crate::turn::answer::kept_str;
use crate::turn::answer::{Ending, FinalItem, FinalItemKind, FinalTurn};
use crate::turn::read_chat::keys;
use crate::turn::write_chat::{own_calls, own_member, render_completion};
use crate::turn::{ChatReader, Dialect, TurnConfig, TurnError, TurnReader, TurnUsage};

/// The default limit on the choices of a completion
/// ([`ChatAccumulatorConfig::max_choices`]): 1024 (the API allows `n` up to 128).
pub const DEFAULT_MAX_CHOICES: usize = 1024;

/// The default limit on the tool calls of one choice
/// ([`ChatAccumulatorConfig::max_tool_calls`]): 4096, as
/// [`ResponsesAccumulatorConfig::max_items`](super::ResponsesAccumulatorConfig::max_items).
pub const DEFAULT_MAX_TOOL_CALLS: usize = 4096;

config! {
    /// Limits of a [`ChatAccumulator`], built like
    /// [`ResponsesAccumulatorConfig`](super::ResponsesAccumulatorConfig) and the crate's other
    /// configurations: `DEFAULT` (or `default()`) with `with_*` builders, or
    /// public fields set one by one.
    ///
    /// ```
    /// use ssekit::accumulate::{ChatAccumulator, ChatAccumulatorConfig};
    ///
    /// let config = ChatAccumulatorConfig::DEFAULT.with_max_choices(8);
    /// let acc = ChatAccumulator::with_config(config);
    /// assert_eq!(acc.config().max_choices, 8);
    /// assert_eq!(acc.config().max_bytes, 64 << 20);
    /// ```
    pub struct ChatAccumulatorConfig {
        /// The bytes kept (see [Memory](ChatAccumulator#memory)). Default 64 MiB.
        max_bytes: usize = DEFAULT_MAX_BYTES, with_max_bytes;
        /// Distinct choice indexes. Default [`DEFAULT_MAX_CHOICES`].
        max_choices: usize = DEFAULT_MAX_CHOICES, with_max_choices;
        /// Distinct tool call indexes per choice (the reader's
        /// [`TurnConfig::max_items`]). Default [`DEFAULT_MAX_TOOL_CALLS`].
        max_tool_calls: usize = DEFAULT_MAX_TOOL_CALLS, with_max_tool_calls;
    }
}

/// Assembles a Chat Completions stream into the final [`ChatCompletion`].
///
/// Feed it every frame with [`feed`](Self::feed); read the completion so
/// far at any time with [`snapshot`](Self::snapshot) (borrowed, nothing
/// copied); at the end of the stream call [`finish`](Self::finish), which
/// decides the [`Outcome`]: [`Failed`](Outcome::Failed) when an error
/// chunk arrived; [`Truncated`](Outcome::Truncated) unless `[DONE]`
/// arrived and every choice has a `finish_reason` (a cut stream is never
/// reported as a success); then [`Incomplete`](Outcome::Incomplete) when
/// a choice stopped at `length` or `content_filter`, else
/// [`Completed`](Outcome::Completed).
///
/// # How it reads
///
/// One [`ChatReader`] reads the completion's own members (id, model,
/// creation time, tier, fingerprint, provider, moderation, usage, error,
/// `[DONE]`), and each choice, the first time its `index` appears, gets a
/// reader and a [`TurnAccumulator`] of its own, which read only that
/// choice's deltas from then on: each chunk is decoded once, and each of
/// its choices read once. What the reader keeps, and the faults it
/// reports, are [`ChatReader`]'s: in particular, content after a choice's
/// `finish_reason`, a tool call whose first fragment has neither `id` nor
/// name, and anything after `[DONE]` are refused
/// ([`AccumulateErrorKind::Stream`]), and a tool call's arguments are
/// kept as sent.
///
/// # Memory
///
/// Everything kept counts against one limit (64 MiB by default;
/// [`ChatAccumulatorConfig::max_bytes`]), shared by the choices: the text
/// and JSON kept, and a fixed amount per choice, item and part, so a
/// stream of sparse indexes cannot exhaust memory either. A fragment that
/// does not fit is dropped with [`AccumulateErrorKind::TooManyBytes`] and
/// the completion ends [`Truncated`](Outcome::Truncated).
///
/// The number of choices and of tool calls per choice is limited too
/// ([`DEFAULT_MAX_CHOICES`], [`DEFAULT_MAX_TOOL_CALLS`];
/// [`ChatAccumulatorConfig`]): a fragment for one
/// more is dropped with [`AccumulateErrorKind::TooManyChoices`] or
/// [`AccumulateErrorKind::TooManyToolCalls`], and the completion ends
/// [`Truncated`](Outcome::Truncated).
///
/// # Work
///
/// Linear in the input: each frame costs O(its size), plus O(log n) per
/// choice and tool call it names, whatever order the indexes come in.
/// The first `[DONE]` is read by every choice's reader (O(choices), once);
/// later ones by the completion's own reader only. Reading a snapshot is
/// not free: [`ToolCall::partial_arguments`] repairs the arguments so far
/// on each call (O(their length)), so calling it after every frame costs
/// O(n²) in the length of one call's arguments.
///
/// # Example
///
/// ```
/// use ssekit::accumulate::{ChatAccumulator, Outcome};
/// use ssekit::{Bytes, Parser};
///
/// let body = concat!(
///     r#"data: {"id":"chatcmpl-1","created":7,"model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"weather","arguments":""}}]}}]}"#, "\n\n",
///     r#"data: {"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\": \"Par"}}]}}]}"#, "\n\n",
///     r#"data: {"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"is\"}"}}]},"finish_reason":"tool_calls"}]}"#, "\n\n",
///     r#"data: {"id":"chatcmpl-1","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":5,"total_tokens":14}}"#, "\n\n",
///     "data: [DONE]\n\n",
/// );
/// let mut parser = Parser::new();
/// parser.feed(Bytes::from_static(body.as_bytes()));
/// let mut acc = ChatAccumulator::new();
/// let mut live = Vec::new();
/// while let Some(frame) = parser.next_frame()? {
///     acc.feed(&frame)?;
///     // A UI shows the arguments while they stream:
///     if let Some(call) = acc.snapshot().choice(0).and_then(|c| c.tool_call(0)) {
///         live.push(call.partial_arguments().unwrap_or_else(|| "…".into()));
///     }
/// }
/// assert_eq!(live, ["…", r#"{"city": "Par"}"#, r#"{"city": "Paris"}"#, r#"{"city": "Paris"}"#, r#"{"city": "Paris"}"#]);
///
/// let completion = acc.finish();
/// assert_eq!(completion.outcome(), Outcome::Completed);
/// assert_eq!(completion.usage().unwrap().output, Some(5));
/// assert_eq!(
///     completion.to_json(),
///     r#"{"id":"chatcmpl-1","object":"chat.completion","created":7,"model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"weather","arguments":"{\"city\": \"Paris\"}"}}]},"logprobs":null,"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":9,"completion_tokens":5,"total_tokens":14}}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct ChatAccumulator {
    config: ChatAccumulatorConfig,
    /// Reads the completion's own members.
    head: ChatReader,
    /// A reader per choice, by the choice's index.
    readers: BTreeMap<u64, ChatReader>,
    completion: ChatCompletion,
    events: u64,
}

impl Default for ChatAccumulator {
    fn default() -> Self {
        Self::new()
    }
}

/// A turn accumulator for one choice, or the completion's own members.
fn turn_accumulator(max_bytes: usize) -> TurnAccumulator {
    // Items are bounded by the bytes each costs; tool calls by the reader.
    let config = TurnAccumulatorConfig::DEFAULT
        .with_max_items(usize::MAX)
        .with_max_bytes(max_bytes);
    TurnAccumulator::with_config(config).from_dialect(Dialect::Chat)
}

impl ChatAccumulator {
    /// An empty accumulator with the default [`ChatAccumulatorConfig`].
    pub fn new() -> Self {
        Self::with_config(ChatAccumulatorConfig::default())
    }

    /// An empty accumulator with the given limits.
    pub fn with_config(config: ChatAccumulatorConfig) -> Self {
        Self {
            config,
            head: ChatReader::default().head_only(),
            readers: BTreeMap::new(),
            completion: ChatCompletion {
                head: turn_accumulator(config.max_bytes),
                choices: BTreeMap::new(),
                used: 0,
                max_bytes: config.max_bytes,
                chunks: 0,
                unknown: 0,
                limit_hit: false,
                done: false,
                status: Outcome::InProgress,
            },
            events: 0,
        }
    }

    /// The limits this accumulator was made with.
    pub fn config(&self) -> &ChatAccumulatorConfig {
        &self.config
    }

    /// The bytes counted against the limit so far.
    pub fn used_bytes(&self) -> usize {
        self.completion.used
    }

    /// The number of frames fed.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Adds one frame of the stream.
    ///
    /// Cost: O(size of the frame), plus O(log n) to find each choice and
    /// tool call by index.
    ///
    /// # Errors
    ///
    /// An [`AccumulateError`] when part of the frame could not be kept: a
    /// frame or an element that does not decode
    /// ([`AccumulateErrorKind::Decode`]), a fragment past the memory limit
    /// ([`AccumulateErrorKind::TooManyBytes`]) or for a choice or tool call
    /// past the count limits ([`AccumulateErrorKind::TooManyChoices`],
    /// [`AccumulateErrorKind::TooManyToolCalls`]), or a fault of the stream
    /// the reader refuses ([`AccumulateErrorKind::Stream`]: content after a
    /// choice's `finish_reason` or after `[DONE]`, a tool call without `id`
    /// and name, `[DONE]` before a choice's `finish_reason`). The rest of
    /// the frame is applied, the accumulator stays usable, and the first
    /// such problem of the frame is returned.
    pub fn feed(&mut self, frame: &Frame) -> Result<(), AccumulateError> {
        match ChatEvent::from_frame(frame) {
            Ok(event) => self.feed_event(&event),
            Err(e) => {
                let at = self.events;
                self.events += 1;
                Err(AccumulateError::new(
                    AccumulateErrorKind::Decode(e),
                    at,
                    None,
                ))
            }
        }
    }

    /// [`feed`](Self::feed) of a frame already decoded (the adapters
    /// decode once for their callback and for this).
    pub(crate) fn feed_event(&mut self, event: &ChatEvent<'_>) -> Result<(), AccumulateError> {
        let at = self.events;
        self.events += 1;
        let mut first = None;
        let c = &mut self.completion;
        // What comes after the first `[DONE]` is the head's to refuse; the
        // choices hear neither it nor a second `[DONE]`.
        let after_done = c.done;
        match event {
            ChatEvent::Chunk(_) => c.chunks += 1,
            ChatEvent::Unknown { .. } => c.unknown += 1,
            ChatEvent::Done => c.done = true,
            _ => {}
        }
        let head = &mut self.head;
        let r = c.write(None, |acc| head.read_routed(at, event, None, acc));
        note(&mut first, r);
        match event {
            _ if after_done => {}
            ChatEvent::Chunk(chunk) => {
                if let Some(choice) = chunk.choices.head() {
                    self.route(at, event, choice, &mut first);
                }
                for choice in chunk.choices.rest() {
                    match choice {
                        Ok(choice) => self.route(at, event, &choice, &mut first),
                        Err(e) => {
                            let kind = AccumulateErrorKind::Decode(e);
                            first.get_or_insert(AccumulateError::new(kind, at, None));
                        }
                    }
                }
            }
            // Each choice ends (or hears it was cut) with the stream; after
            // an error chunk, the stream failed: the choices are left as
            // they are.
            ChatEvent::Done if self.completion.head.turn().error().is_none() => {
                let c = &mut self.completion;
                for (index, reader) in &mut self.readers {
                    let r = c.write(Some(*index), |acc| reader.read_routed(at, event, None, acc));
                    note(&mut first, r);
                }
            }
            _ => {}
        }
        first.map_or(Ok(()), Err)
    }

    /// Gives `choice` of the chunk `event` to its reader, started here if
    /// it is the choice's first appearance.
    fn route(
        &mut self,
        at: u64,
        event: &ChatEvent<'_>,
        choice: &ChoiceDelta<'_>,
        first: &mut Option<AccumulateError>,
    ) {
        let index = choice.index;
        let c = &mut self.completion;
        if !self.readers.contains_key(&index) {
            if self.readers.len() >= self.config.max_choices {
                c.limit_hit = true;
                let limit = self.config.max_choices;
                let kind = AccumulateErrorKind::TooManyChoices { limit };
                first.get_or_insert(AccumulateError::new(kind, at, None));
                return;
            }
            let cost =
                core::mem::size_of::<(u64, ChatReader)>() + core::mem::size_of::<(u64, Choice)>();
            if c.used.saturating_add(cost) > c.max_bytes {
                c.limit_hit = true;
                let limit = c.max_bytes;
                first.get_or_insert(AccumulateError::new(
                    AccumulateErrorKind::TooManyBytes { limit },
                    at,
                    None,
                ));
                return;
            }
            c.used += cost;
            let turn = TurnConfig {
                max_items: self.config.max_tool_calls,
                ..TurnConfig::default()
            };
            self.readers
                .insert(index, ChatReader::new(&turn).choice(index));
            c.choices.insert(
                index,
                Choice {
                    index,
                    acc: turn_accumulator(0),
                },
            );
        }
        let Some(reader) = self.readers.get_mut(&index) else {
            return;
        };
        let r = c.write(Some(index), |acc| {
            reader.read_routed(at, event, Some(choice), acc)
        });
        if let Err(e) = r {
            let e = match e.kind() {
                // The reader's item limit counts tool calls only.
                AccumulateErrorKind::TooManyItems { .. } => {
                    c.limit_hit = true;
                    let limit = self.config.max_tool_calls;
                    AccumulateError::new(AccumulateErrorKind::TooManyToolCalls { limit }, at, None)
                }
                _ => e,
            };
            first.get_or_insert(e);
        }
    }

    /// The completion so far. Borrowed: nothing is copied. Its
    /// [`outcome`](ChatCompletion::outcome) is
    /// [`InProgress`](Outcome::InProgress).
    pub fn snapshot(&self) -> &ChatCompletion {
        &self.completion
    }

    /// Ends the stream: tells each reader the upstream ended, and returns
    /// the completion with its [`outcome`](ChatCompletion::outcome)
    /// decided (see the [type docs](Self)).
    #[must_use]
    pub fn finish(self) -> ChatCompletion {
        let mut c = self.completion;
        let mut head = self.head;
        // A cut stream is told so; the outcome below says it.
        let _ = c.write(None, |acc| head.finish(acc));
        for (index, mut reader) in self.readers {
            let _ = c.write(Some(index), |acc| reader.finish(acc));
        }
        c.status = if c.head.turn().error().is_some() {
            Outcome::Failed
        } else if c.limit_hit
            || !c.done
            || c.choices.is_empty()
            || c.choices.values().any(|ch| ch.finish_reason().is_none())
        {
            Outcome::Truncated
        } else if c
            .choices
            .values()
            .any(|ch| ch.turn().ending() == Ending::Incomplete)
        {
            // A choice stopped by a limit of the model (`length`,
            // `content_filter`), as the turn accumulator says.
            Outcome::Incomplete
        } else {
            Outcome::Completed
        };
        c
    }
}

/// Keeps the first error.
fn note(first: &mut Option<AccumulateError>, r: Result<(), AccumulateError>) {
    if let Err(e) = r {
        first.get_or_insert(e);
    }
}

/// A Chat Completion assembled from a stream: the `chat.completion` object
/// the same request would have returned without streaming, plus how the
/// stream ended.
///
/// Made by [`ChatAccumulator`]; each choice is a [`FinalTurn`]
/// ([`Choice::turn`]), which renders in any dialect's shape.
/// [`to_json`](Self::to_json) writes the completion in the API's shape;
/// with the `serde` feature it implements `serde::Serialize` in the same
/// shape.
#[derive(Debug, Clone)]
pub struct ChatCompletion {
    /// The completion's own members.
    head: TurnAccumulator,
    choices: BTreeMap<u64, Choice>,
    /// The bytes kept, over the head and every choice.
    used: usize,
    max_bytes: usize,
    chunks: u64,
    unknown: u64,
    limit_hit: bool,
    done: bool,
    status: Outcome,
}

impl ChatCompletion {
    /// Writes with `write` into the head's accumulator (`None`) or choice
    /// `index`'s, giving it what the shared byte budget has left; its
    /// errors as the accumulator's.
    fn write(
        &mut self,
        index: Option<u64>,
        write: impl FnOnce(&mut TurnAccumulator) -> Result<(), TurnError>,
    ) -> Result<(), AccumulateError> {
        let acc = match index {
            None => &mut self.head,
            Some(i) => match self.choices.get_mut(&i) {
                Some(choice) => &mut choice.acc,
                None => return Ok(()),
            },
        };
        let before = acc.used_bytes();
        acc.set_max_bytes(before.saturating_add(self.max_bytes.saturating_sub(self.used)));
        let r = write(acc);
        self.used = (self.used - before).saturating_add(acc.used_bytes());
        r.map_err(|e| {
            let e = AccumulateError::from(e);
            match e.kind() {
                AccumulateErrorKind::TooManyBytes { .. } => {
                    self.limit_hit = true;
                    let limit = self.max_bytes;
                    AccumulateError::new(
                        AccumulateErrorKind::TooManyBytes { limit },
                        e.event_index(),
                        None,
                    )
                }
                _ => e,
            }
        })
    }

    fn kept(&self, key: &str) -> Option<&str> {
        self.head.turn().extra(Dialect::Chat, key)
    }

    /// The completion ID, from the first chunk.
    pub fn id(&self) -> Option<&str> {
        self.head.turn().id()
    }
    /// The model, from the first chunk.
    pub fn model(&self) -> Option<&str> {
        self.head.turn().model()
    }
    /// Unix time (seconds) of creation, from the first chunk.
    pub fn created(&self) -> Option<u64> {
        self.head.turn().created()
    }
    /// The backend configuration fingerprint, if a chunk had one (the
    /// first).
    pub fn system_fingerprint(&self) -> Option<Cow<'_, str>> {
        kept_str(self.kept(keys::ONCE[1]))
    }
    /// The service tier, if a chunk had one (the first).
    pub fn service_tier(&self) -> Option<Cow<'_, str>> {
        kept_str(self.kept(keys::ONCE[0]))
    }
    /// The upstream provider (OpenRouter), if a chunk had one (the first).
    pub fn provider(&self) -> Option<Cow<'_, str>> {
        kept_str(self.kept(keys::ONCE[2]))
    }
    /// The last `moderation` member of a chunk, as JSON text.
    pub fn moderation(&self) -> Option<&str> {
        self.kept(keys::MODERATION)
    }
    /// The choices, in `index` order.
    pub fn choices(&self) -> IndexOrder<'_, Choice> {
        IndexOrder::new(&self.choices)
    }
    /// The choice with this `index`. O(log n).
    pub fn choice(&self, index: u64) -> Option<&Choice> {
        self.choices.get(&index)
    }
    /// The token counts of the last usage sent (normally on the extra
    /// usage chunk, or an error chunk's), `None` when none came.
    pub fn usage(&self) -> Option<TurnUsage> {
        self.usage_json().map(|_| self.head.turn().usage())
    }
    /// The last usage sent, as the upstream wrote it (JSON text).
    pub fn usage_json(&self) -> Option<&str> {
        self.kept(keys::USAGE)
    }
    /// The error sent in the stream, as its code (the `code` when a
    /// string, else the `type`) and message.
    pub fn error(&self) -> Option<(Option<&str>, Option<&str>)> {
        self.head.turn().error()
    }
    /// The `error` member of the error chunk, as sent (JSON text).
    pub fn error_json(&self) -> Option<&str> {
        self.kept(keys::ERROR)
    }
    /// Whether `[DONE]` arrived.
    pub fn saw_done(&self) -> bool {
        self.done
    }
    /// The number of `chat.completion.chunk`s fed.
    pub fn chunks(&self) -> u64 {
        self.chunks
    }
    /// The number of chunks of an unexpected shape
    /// ([`ChatEvent::Unknown`]), skipped (each was reported as an
    /// [`AccumulateErrorKind::Decode`] error).
    pub fn unknown_chunks(&self) -> u64 {
        self.unknown
    }
    /// Whether a fragment was dropped at the memory limit or a count limit.
    pub fn limit_exceeded(&self) -> bool {
        self.limit_hit
    }

    /// How the stream ended: [`InProgress`](Outcome::InProgress) until
    /// [`ChatAccumulator::finish`], then as its docs say.
    pub fn outcome(&self) -> Outcome {
        self.status
    }
    /// Whether the stream ended early ([`Outcome::Truncated`]).
    pub fn is_truncated(&self) -> bool {
        self.status == Outcome::Truncated
    }

    /// The completion as compact JSON text, in the shape of the API's
    /// `chat.completion` object: `id`, `object`, `created`, `model`,
    /// `choices` (each with `index`, `message`, `logprobs`,
    /// `finish_reason`), then `usage`, `service_tier`,
    /// `system_fingerprint`, `provider` and `moderation` when present.
    /// Fields the API always has are `null` when the stream did not send
    /// them (a choice cut or failed before its `finish_reason` says
    /// `null`); the others are left out. The message has `role`, `content`
    /// and `refusal` (`null` when absent), then `reasoning_content`,
    /// `reasoning`, `tool_calls` (in `index` order) and `function_call`
    /// when present. The stream's status and error are not part of this
    /// object (see [`outcome`](Self::outcome) and [`error`](Self::error)).
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    /// Appends [`to_json`](Self::to_json)'s text to `out`.
    pub fn write_json(&self, out: &mut String) {
        let choices: Vec<&FinalTurn> = self.choices.values().map(Choice::turn).collect();
        render_completion(self.head.turn(), &choices, out);
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for ChatCompletion {
    /// Serializes [`to_json`](Self::to_json)'s object.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        super::dialect::serialize_json_text(&self.to_json(), s)
    }
}

/// One choice of a [`ChatCompletion`]: the turn its reader read.
#[derive(Debug, Clone)]
pub struct Choice {
    index: u64,
    acc: TurnAccumulator,
}

impl Choice {
    /// The choice's index.
    pub fn index(&self) -> u64 {
        self.index
    }
    /// The choice read as a turn (render it in another dialect with
    /// [`FinalTurn::write_json`]).
    pub fn turn(&self) -> &FinalTurn {
        self.acc.turn()
    }
    /// The message's role (the first one sent).
    pub fn role(&self) -> Option<Cow<'_, str>> {
        kept_str(self.turn().extra(Dialect::Chat, keys::ROLE))
    }
    /// The message text (`delta.content`, and the `text` parts of a
    /// list-valued content), `None` if no fragment was a string. Borrowed
    /// when the text is one piece.
    pub fn content(&self) -> Option<Cow<'_, str>> {
        own_member(self.turn(), keys::CONTENT)
    }
    /// The refusal text.
    pub fn refusal(&self) -> Option<Cow<'_, str>> {
        own_member(self.turn(), keys::REFUSAL)
    }
    /// The reasoning sent as `reasoning_content` (DeepSeek), and the
    /// `thinking` parts of a list-valued content (Mistral).
    pub fn reasoning_content(&self) -> Option<Cow<'_, str>> {
        own_member(self.turn(), keys::REASONING_CONTENT)
    }
    /// The reasoning sent as `reasoning` (OpenRouter).
    pub fn reasoning(&self) -> Option<Cow<'_, str>> {
        own_member(self.turn(), keys::REASONING)
    }
    /// The tool calls, in `index` order. O(k log k) for k calls.
    pub fn tool_calls(&self) -> alloc::vec::IntoIter<ToolCall<'_>> {
        own_calls(self.turn())
            .into_iter()
            .map(|(index, item)| ToolCall { index, item })
            .collect::<Vec<_>>()
            .into_iter()
    }
    /// The tool call with this `index`. O(k log k) for k calls.
    pub fn tool_call(&self, index: u64) -> Option<ToolCall<'_>> {
        self.tool_calls().find(|c| c.index == index)
    }
    /// The deprecated `function_call`, assembled.
    pub fn function_call(&self) -> Option<FunctionCall<'_>> {
        self.turn()
            .items()
            .iter()
            .find(|i| i.extra(Dialect::Chat, keys::FUNCTION_CALL).is_some())
            .map(|item| FunctionCall { item })
    }
    /// The `finish_reason` (the last one sent), as sent.
    pub fn finish_reason(&self) -> Option<&str> {
        self.turn().stop_raw()
    }
    /// The log probabilities, when a chunk of the choice had them.
    pub fn logprobs(&self) -> Option<Logprobs<'_>> {
        let turn = self.turn();
        turn.extra(Dialect::Chat, keys::LOGPROBS)
            .map(|_| Logprobs { turn })
    }
}

/// One tool call of a [`Choice`], assembled from its fragments.
#[derive(Debug, Clone, Copy)]
pub struct ToolCall<'a> {
    index: u64,
    item: &'a FinalItem,
}

impl<'a> ToolCall<'a> {
    /// The call's index.
    pub fn index(&self) -> u64 {
        self.index
    }
    /// The call ID (`call_…`).
    pub fn id(&self) -> Option<&'a str> {
        match &self.item.kind {
            FinalItemKind::ToolCall { call_id, .. } => call_id.as_deref(),
            _ => None,
        }
    }
    /// The call's type (`function`).
    pub fn ty(&self) -> Option<Cow<'a, str>> {
        kept_str(self.item.extra(Dialect::Chat, keys::CALL_TYPE))
    }
    /// The function's name.
    pub fn name(&self) -> Option<&'a str> {
        self.item.name()
    }
    /// The arguments' JSON text so far: the fragments concatenated, as sent.
    pub fn arguments(&self) -> &'a str {
        self.item.arguments()
    }
    /// The best-effort value of the arguments so far, as complete JSON text
    /// (see [`PartialJson`]): `{"city": "Par` → `{"city": "Par"}`. `None`
    /// while no value has started. If the arguments stopped being valid
    /// JSON, the repair of the text before the error (see
    /// [`arguments_error`](Self::arguments_error)). O(length of the
    /// arguments): repaired on each call.
    pub fn partial_arguments(&self) -> Option<String> {
        repair_valid_prefix(self.arguments())
    }
    /// The first JSON error in the arguments, if they are not a valid JSON
    /// prefix (the arguments are kept as sent regardless). O(length).
    pub fn arguments_error(&self) -> Option<JsonError> {
        PartialJson::new().feed(self.arguments()).err()
    }
    /// Whether the arguments are one complete, valid JSON value.
    /// O(length).
    pub fn arguments_complete(&self) -> bool {
        let mut p = PartialJson::new();
        p.feed(self.arguments()).is_ok() && p.is_complete()
    }
}

/// The deprecated `function_call` of a [`Choice`], assembled.
#[derive(Debug, Clone, Copy)]
pub struct FunctionCall<'a> {
    item: &'a FinalItem,
}

impl<'a> FunctionCall<'a> {
    /// The function's name.
    pub fn name(&self) -> Option<&'a str> {
        self.item.name()
    }
    /// The arguments' JSON text: the fragments concatenated.
    pub fn arguments(&self) -> &'a str {
        self.item.arguments()
    }
}

/// The log probabilities of a [`Choice`]: each list is the concatenation of
/// the chunks' lists (JSON text), `None` if no chunk had it.
#[derive(Debug, Clone, Copy)]
pub struct Logprobs<'a> {
    turn: &'a FinalTurn,
}

impl<'a> Logprobs<'a> {
    /// The content tokens' log probabilities: a JSON array.
    pub fn content(&self) -> Option<&'a str> {
        self.turn.extra(Dialect::Chat, keys::LOGPROBS_CONTENT)
    }
    /// The refusal tokens' log probabilities: a JSON array.
    pub fn refusal(&self) -> Option<&'a str> {
        self.turn.extra(Dialect::Chat, keys::LOGPROBS_REFUSAL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::Value;
    use crate::turn::write_choices_json;

    fn run(acc: &mut ChatAccumulator, events: &[&str]) -> Vec<Result<(), AccumulateError>> {
        events.iter().map(|e| acc.feed(&Frame::new(*e))).collect()
    }

    fn content(c: &ChatCompletion, index: u64) -> Option<String> {
        c.choice(index)?.content().map(Cow::into_owned)
    }

    /// A `[DONE]` before a choice's `finish_reason` cuts the stream: what
    /// comes after it, for that choice or a new one, is refused and not
    /// kept, and a second `[DONE]` changes nothing.
    #[test]
    fn nothing_after_an_early_done_is_kept() {
        let mut acc = ChatAccumulator::new();
        let r = run(
            &mut acc,
            &[
                r#"{"id":"c","choices":[{"index":0,"delta":{"content":"a"}}]}"#,
                "[DONE]",
                r#"{"id":"c","choices":[{"index":0,"delta":{"content":"b"},"finish_reason":"stop"}]}"#,
                r#"{"id":"c","choices":[{"index":1,"delta":{"content":"x"},"finish_reason":"stop"}]}"#,
                "[DONE]",
            ],
        );
        assert!(r[0].is_ok());
        assert_eq!(
            r[1].unwrap_err().kind(),
            AccumulateErrorKind::Stream(crate::turn::TurnErrorKind::Truncated)
        );
        for i in [2, 3] {
            assert_eq!(
                r[i].unwrap_err().kind(),
                AccumulateErrorKind::Stream(crate::turn::TurnErrorKind::ContentAfterFinish),
                "event {i}"
            );
        }
        assert!(r[4].is_ok(), "{:?}", r[4]);
        let c = acc.finish();
        assert_eq!(c.outcome(), Outcome::Truncated);
        assert_eq!(content(&c, 0).as_deref(), Some("a"));
        assert_eq!(c.choice(0).unwrap().finish_reason(), None);
        assert!(c.choice(1).is_none());
    }

    #[test]
    fn choices_and_tool_calls_are_keyed_by_index_not_arrival() {
        let mut acc = ChatAccumulator::new();
        let r = run(
            &mut acc,
            &[
                r#"{"choices":[{"index":1,"delta":{"content":"b1"}}]}"#,
                r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"c1","function":{"name":"g","arguments":"[2"}}]}}]}"#,
                r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c0","function":{"name":"f","arguments":"[1]"}},{"index":1,"function":{"arguments":"]"}}]}}]}"#,
                r#"{"choices":[{"index":1,"delta":{"content":"b2"},"finish_reason":"stop"},{"index":0,"finish_reason":"tool_calls"}]}"#,
                "[DONE]",
            ],
        );
        assert!(r.iter().all(Result::is_ok), "{r:?}");
        let c = acc.finish();
        assert_eq!(c.outcome(), Outcome::Completed);
        assert_eq!(c.choices().map(Choice::index).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(content(&c, 1).as_deref(), Some("b1b2"));
        let calls: Vec<ToolCall<'_>> = c.choice(0).unwrap().tool_calls().collect();
        assert_eq!(
            calls.iter().map(ToolCall::index).collect::<Vec<_>>(),
            [0, 1]
        );
        assert_eq!(calls[0].arguments(), "[1]");
        assert_eq!(calls[1].arguments(), "[2]");
        assert_eq!(calls[1].id(), Some("c1"));
        assert_eq!(calls[1].name(), Some("g"));
        assert!(calls[1].arguments_complete());
        // Rendered in index order too, though call 1 opened first.
        let json: serde_json::Value = serde_json::from_str(&c.to_json()).unwrap();
        let ids = &json["choices"][0]["message"]["tool_calls"];
        assert_eq!((&ids[0]["id"], &ids[1]["id"]), (&"c0".into(), &"c1".into()));
    }

    #[test]
    fn truncation_needs_done_and_every_finish_reason() {
        let chunk = r#"{"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"stop"}]}"#;
        let open = r#"{"choices":[{"index":1,"delta":{"content":"y"}}]}"#;
        let mut no_done = ChatAccumulator::new();
        run(&mut no_done, &[chunk]);
        assert_eq!(no_done.finish().outcome(), Outcome::Truncated);
        let mut unfinished = ChatAccumulator::new();
        let r = run(&mut unfinished, &[chunk, open, "[DONE]"]);
        // `[DONE]` before choice 1's finish_reason: the reader says so.
        let e = r[2].unwrap_err();
        assert_eq!(
            e.kind(),
            AccumulateErrorKind::Stream(crate::turn::TurnErrorKind::Truncated)
        );
        assert_eq!(e.event_index(), 2);
        let c = unfinished.finish();
        assert_eq!(c.outcome(), Outcome::Truncated);
        assert!(
            c.to_json().ends_with(r#""finish_reason":null}]}"#),
            "{}",
            c.to_json()
        );
        let mut empty = ChatAccumulator::new();
        run(&mut empty, &["[DONE]"]);
        assert_eq!(empty.finish().outcome(), Outcome::Truncated);
        let mut ok = ChatAccumulator::new();
        run(&mut ok, &[chunk, "[DONE]"]);
        assert_eq!(ok.snapshot().outcome(), Outcome::InProgress);
        assert!(ok.snapshot().saw_done());
        assert_eq!(ok.finish().outcome(), Outcome::Completed);
    }

    #[test]
    fn error_chunk_fails_the_stream_and_keeps_its_usage() {
        let mut acc = ChatAccumulator::new();
        run(
            &mut acc,
            &[
                r#"{"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"stop"}]}"#,
                r#"{"error":{"message":"boom","code":400},"choices":[],"usage":{"prompt_tokens":1,"total_tokens":3}}"#,
                "[DONE]",
            ],
        );
        let c = acc.finish();
        assert_eq!(c.outcome(), Outcome::Failed);
        assert_eq!(c.error(), Some((None, Some("boom"))));
        assert_eq!(c.error_json(), Some(r#"{"message":"boom","code":400}"#));
        assert_eq!(c.usage().unwrap().input, Some(1));
        assert_eq!(
            c.usage_json(),
            Some(r#"{"prompt_tokens":1,"total_tokens":3}"#)
        );
    }

    #[test]
    fn an_undecodable_frame_is_an_error_and_the_face_goes_on() {
        let mut acc = ChatAccumulator::new();
        let r = run(
            &mut acc,
            &[
                r#"{"choices":[{"index":0,"delta":{"content":"a"}}]}"#,
                "{\"choices\":",
                r#"{"choices":[{"index":0,"delta":{"content":"b"},"finish_reason":"stop"}]}"#,
                "[DONE]",
            ],
        );
        let e = r[1].unwrap_err();
        assert!(matches!(e.kind(), AccumulateErrorKind::Decode(_)), "{e}");
        assert_eq!(e.event_index(), 1);
        assert!(r[2].is_ok() && r[3].is_ok());
        assert_eq!(acc.events(), 4);
        let c = acc.finish();
        assert_eq!(content(&c, 0).as_deref(), Some("ab"));
        assert_eq!(c.outcome(), Outcome::Completed);
    }

    #[test]
    fn limit_drops_the_fragment_and_truncates() {
        let first = r#"{"choices":[{"index":0,"delta":{"content":"abc"}}]}"#;
        // What the first chunk costs, from an accumulator without a limit.
        let mut probe = ChatAccumulator::new();
        run(&mut probe, &[first]);
        let limit = probe.used_bytes() + 1;
        let mut acc =
            ChatAccumulator::with_config(ChatAccumulatorConfig::DEFAULT.with_max_bytes(limit));
        let r = run(
            &mut acc,
            &[
                first,
                // Two bytes: past the limit by one.
                r#"{"choices":[{"index":0,"delta":{"content":"de"}}]}"#,
                // One byte fits; the finish reason's byte does not.
                r#"{"choices":[{"index":0,"delta":{"content":"f"},"finish_reason":"x"}]}"#,
                "[DONE]",
            ],
        );
        assert!(r[0].is_ok());
        let e = r[1].unwrap_err();
        assert_eq!(e.kind(), AccumulateErrorKind::TooManyBytes { limit });
        assert_eq!(e.event_index(), 1);
        assert!(r[2].is_err(), "the finish reason does not fit");
        assert_eq!(acc.used_bytes(), limit);
        assert_eq!(content(acc.snapshot(), 0).as_deref(), Some("abcf"));
        assert_eq!(acc.finish().outcome(), Outcome::Truncated);
    }

    #[test]
    fn sparse_indexes_cost_memory_and_are_bounded() {
        let cost = size_of::<(u64, ChatReader)>() + size_of::<(u64, Choice)>();
        // Choices 1 and 2 (from 0) also keep their index, 19 digits each,
        // under the key `index`: 5 + 19 bytes; the turn accumulator wants
        // room for 2 more before it keeps an extra (an array's brackets).
        let max = 3 * cost + 2 * (5 + 19) + 2;
        let mut acc =
            ChatAccumulator::with_config(ChatAccumulatorConfig::DEFAULT.with_max_bytes(max));
        let mut errors = 0;
        for i in 0..10u64 {
            let e = alloc::format!(r#"{{"choices":[{{"index":{}}}]}}"#, i * (u64::MAX / 10));
            errors += usize::from(acc.feed(&Frame::new(e)).is_err());
        }
        assert_eq!(acc.snapshot().choices().len(), 3);
        assert_eq!(errors, 7);
        assert_eq!(acc.used_bytes(), max - 2);
    }

    #[test]
    fn a_bad_list_element_is_reported_and_the_rest_kept() {
        let mut acc = ChatAccumulator::new();
        let r = run(
            &mut acc,
            &[r#"{"choices":[{"delta":{}},{"index":2,"delta":{"content":"ok"}}]}"#],
        );
        assert!(matches!(
            r[0].unwrap_err().kind(),
            AccumulateErrorKind::Decode(_)
        ));
        assert_eq!(content(acc.snapshot(), 2).as_deref(), Some("ok"));
    }

    #[test]
    fn json_shape_has_nulls_for_absent_required_fields() {
        let mut acc = ChatAccumulator::new();
        run(
            &mut acc,
            &[
                r#"{"choices":[{"index":0,"delta":{"content":"a\"\n"},"logprobs":{"content":[{"token":"a","logprob":-0.5,"bytes":[97],"top_logprobs":[]}],"refusal":null}}]}"#,
            ],
        );
        let json = acc.finish().to_json();
        assert_eq!(
            json,
            r#"{"id":null,"object":"chat.completion","created":null,"model":null,"choices":[{"index":0,"message":{"role":null,"content":"a\"\n","refusal":null},"logprobs":{"content":[{"token":"a","logprob":-0.5,"bytes":[97],"top_logprobs":[]}],"refusal":null},"finish_reason":null}]}"#
        );
        assert!(Value::parse(&json).is_ok());
    }

    #[test]
    fn log_probability_tokens_are_kept_as_sent_and_joined_compactly() {
        let mut acc = ChatAccumulator::new();
        run(
            &mut acc,
            &[
                r#"{"choices":[{"index":0,"delta":{"content":"ab"},"logprobs":{"content":[ {"token":"a", "logprob":-1} , {"token":"b","logprob":-2} ],"refusal":[ ]}}]}"#,
                r#"{"choices":[{"index":0,"delta":{},"logprobs":{"content":[{"token":"c","logprob":-3}]},"finish_reason":"stop"}]}"#,
            ],
        );
        let c = acc.finish();
        let lp = c.choice(0).unwrap().logprobs().unwrap();
        let want = r#"[{"token":"a", "logprob":-1},{"token":"b","logprob":-2},{"token":"c","logprob":-3}]"#;
        assert_eq!(lp.content(), Some(want));
        assert_eq!(lp.refusal(), Some("[]"));
        assert!(c.to_json().contains(&alloc::format!(
            r#""logprobs":{{"content":{want},"refusal":[]}}"#
        )));
    }

    #[test]
    fn partial_arguments_track_fragments_and_keep_bad_json_as_sent() {
        let mut acc = ChatAccumulator::new();
        run(
            &mut acc,
            &[
                r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"arguments":"{\"a\": [1, "}}]}}]}"#,
            ],
        );
        let snap = acc.snapshot();
        let call = snap.choice(0).unwrap().tool_call(0).unwrap();
        assert_eq!(call.partial_arguments().as_deref(), Some(r#"{"a": [1]}"#));
        assert!(!call.arguments_complete());
        run(
            &mut acc,
            &[
                r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"}"}}]}}]}"#,
            ],
        );
        let snap = acc.snapshot();
        let call = snap.choice(0).unwrap().tool_call(0).unwrap();
        assert_eq!(call.arguments(), r#"{"a": [1, }"#);
        assert!(call.arguments_error().is_some());
        assert_eq!(call.partial_arguments().as_deref(), Some(r#"{"a": [1]}"#));
    }

    #[test]
    fn choice_and_tool_call_counts_are_limited() {
        let acc = ChatAccumulator::new();
        assert_eq!(
            (acc.config().max_choices, acc.config().max_tool_calls),
            (DEFAULT_MAX_CHOICES, DEFAULT_MAX_TOOL_CALLS)
        );
        let config = ChatAccumulatorConfig::DEFAULT
            .with_max_choices(2)
            .with_max_tool_calls(3);
        let mut acc = ChatAccumulator::with_config(config);
        assert_eq!(
            (acc.config().max_choices, acc.config().max_tool_calls),
            (2, 3)
        );
        let call = |i: u64| {
            alloc::format!(r#"{{"index":{i},"id":"c{i}","function":{{"arguments":"{{}}"}}}}"#)
        };
        let calls = (0..5).rev().map(call).collect::<Vec<_>>().join(",");
        let events = [
            r#"{"choices":[{"index":9,"delta":{"content":"a"}},{"index":4,"delta":{"content":"b"}}]}"#.into(),
            alloc::format!(r#"{{"choices":[{{"index":9,"delta":{{"tool_calls":[{calls}]}}}}]}}"#),
            r#"{"choices":[{"index":1,"delta":{"content":"c"}},{"index":4,"delta":{"content":"d"}}]}"#.into(),
        ];
        let r: Vec<_> = events
            .iter()
            .map(|e| acc.feed(&Frame::new(e.as_str())))
            .collect();
        assert!(r[0].is_ok());
        let e = r[1].unwrap_err();
        assert_eq!(e.kind(), AccumulateErrorKind::TooManyToolCalls { limit: 3 });
        assert_eq!(
            alloc::string::ToString::to_string(&e),
            "a choice has more than 3 tool calls at event 1"
        );
        let e = r[2].unwrap_err();
        assert_eq!(e.kind(), AccumulateErrorKind::TooManyChoices { limit: 2 });
        assert_eq!(e.event_index(), 2);
        let c = acc.snapshot();
        // The first three calls to arrive (indexes 4, 3, 2) were kept, in
        // index order; the rest of the event (choice 4) still applied.
        let kept: Vec<u64> = c
            .choice(9)
            .unwrap()
            .tool_calls()
            .map(|t| t.index())
            .collect();
        assert_eq!(kept, [2, 3, 4]);
        assert_eq!(c.choices().map(Choice::index).collect::<Vec<_>>(), [4, 9]);
        assert_eq!(content(c, 4).as_deref(), Some("bd"));
        assert!(c.choice(1).is_none());
        let c = acc.finish();
        assert!(c.limit_exceeded());
        assert_eq!(c.outcome(), Outcome::Truncated);
    }

    #[test]
    fn indexes_in_decreasing_order_come_out_in_index_order() {
        let mut acc = ChatAccumulator::new();
        for i in (0..100u64).rev() {
            let e = alloc::format!(
                r#"{{"choices":[{{"index":{},"delta":{{"tool_calls":[{{"index":{i},"id":"c","function":{{"arguments":"{i}"}}}}]}}}}]}}"#,
                i % 3
            );
            acc.feed(&Frame::new(e)).unwrap();
        }
        let c = acc.snapshot();
        let choices = c.choices();
        assert_eq!(choices.len(), 3);
        assert_eq!(
            choices.rev().map(Choice::index).collect::<Vec<_>>(),
            [2, 1, 0]
        );
        let calls = c.choice(1).unwrap().tool_calls();
        assert_eq!(calls.len(), 33);
        let args: Vec<&str> = calls.map(|t| t.arguments()).take(3).collect();
        assert_eq!(args, ["1", "4", "7"]);
        assert_eq!(
            c.choice(1).unwrap().tool_call(97).unwrap().arguments(),
            "97"
        );
    }

    /// A choice's reader starts at the chunk where the choice first
    /// appears; what it reads equals what a reader of that choice reading
    /// every chunk from the start reads.
    #[test]
    fn a_reader_started_late_reads_as_one_started_first() {
        let datas = [
            r#"{"id":"c","created":3,"model":"m","service_tier":"flex","choices":[{"index":0,"delta":{"role":"assistant","content":"A"}}]}"#,
            r#"{"id":"c","choices":[{"index":0,"delta":{"content":"a"}}]}"#,
            r#"{"id":"c","choices":[{"index":1,"delta":{"role":"assistant","reasoning_content":"hm"}},{"index":0,"delta":{},"finish_reason":"stop"}]}"#,
            r#"{"id":"c","choices":[{"index":1,"delta":{"tool_calls":[{"index":0,"id":"k","type":"function","function":{"name":"f","arguments":"{}"}}]},"logprobs":{"content":[],"refusal":null}}]}"#,
            r#"{"id":"c","choices":[{"index":1,"delta":{},"finish_reason":"tool_calls"}]}"#,
            r#"{"id":"c","choices":[],"usage":{"prompt_tokens":2,"completion_tokens":3,"total_tokens":5}}"#,
            "[DONE]",
        ];
        let mut acc = ChatAccumulator::new();
        for d in datas {
            acc.feed(&Frame::new(d)).unwrap();
        }
        let face = acc.finish();
        assert_eq!(face.outcome(), Outcome::Completed);
        // Each choice read from the first chunk by a reader of its own.
        let whole = |reader: ChatReader| {
            let mut reader = reader;
            let mut t = TurnAccumulator::new().from_dialect(Dialect::Chat);
            for d in datas {
                t.read(&mut reader, &Frame::new(d)).unwrap();
            }
            t.finish_reader(&mut reader).unwrap();
            t.into_turn()
        };
        let (zero, one) = (
            whole(ChatReader::default()),
            whole(ChatReader::default().choice(1)),
        );
        assert_eq!(face.choice(1).unwrap().turn().items(), one.items());
        assert_eq!(face.choice(0).unwrap().turn().items(), zero.items());
        assert_eq!(face.choice(1).unwrap().finish_reason(), one.stop_raw());
        let mut want = String::new();
        write_choices_json(Dialect::Chat, &[&zero, &one], &mut want);
        assert_eq!(face.to_json(), want);
        // And both against the completion written by hand.
        assert_eq!(
            want,
            concat!(
                r#"{"id":"c","object":"chat.completion","created":3,"model":"m","choices":["#,
                r#"{"index":0,"message":{"role":"assistant","content":"Aa","refusal":null},"logprobs":null,"finish_reason":"stop"},"#,
                r#"{"index":1,"message":{"role":"assistant","content":null,"refusal":null,"reasoning_content":"hm","#,
                r#""tool_calls":[{"id":"k","type":"function","function":{"name":"f","arguments":"{}"}}]},"#,
                r#""logprobs":{"content":[],"refusal":null},"finish_reason":"tool_calls"}],"#,
                r#""usage":{"prompt_tokens":2,"completion_tokens":3,"total_tokens":5},"service_tier":"flex"}"#,
            )
        );
    }
}
