//! The Chat Completions accumulator: [`ChatEvent`]s in, the final
//! [`ChatCompletion`] out.
//!
//! A Chat Completions stream sends each choice's message in fragments keyed
//! by the choice's `index` (and each tool call's arguments in fragments keyed
//! by the call's `index`), then, when `stream_options.include_usage` is set,
//! a chunk with empty `choices` and the usage, then `[DONE]`.
//! [`ChatAccumulator`] joins the fragments by index, whatever order they come
//! in, and keeps what the chunks repeat (id, model, creation time, system
//! fingerprint, service tier) from the first chunk that has it.
//!
//! See [`ChatAccumulator`] for an example.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::dialect::DEFAULT_MAX_BYTES;
use super::dialect::{
    by_index, event_result, note, push_owned, replace_owned, set_once, Budget, IndexOrder,
};
use super::{AccumulateError, AccumulateErrorKind, Outcome};
use crate::chat::{
    ChatChunk, ChatContent, ChatError, ChatErrorChunk, ChatEvent, ChatUsage, ChoiceDelta,
    ContentPart, List, Owned, TokenLogprob,
};
use crate::json::partial::PartialJson;
use crate::json::{JsonError, JsonStr, ObjectView, ObjectWriter};

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
        /// Distinct tool call indexes per choice. Default
        /// [`DEFAULT_MAX_TOOL_CALLS`].
        max_tool_calls: usize = DEFAULT_MAX_TOOL_CALLS, with_max_tool_calls;
    }
}

/// Assembles a Chat Completions stream into the final [`ChatCompletion`].
///
/// Feed it every event with [`feed`](Self::feed); read the completion so
/// far at any time with [`snapshot`](Self::snapshot) (borrowed, nothing
/// copied); at the end of the stream call [`finish`](Self::finish), which
/// decides the [`Outcome`]: [`Completed`](Outcome::Completed) only
/// when `[DONE]` arrived and every choice has a `finish_reason`;
/// [`Failed`](Outcome::Failed) when an error chunk arrived; otherwise
/// [`Truncated`](Outcome::Truncated) — a cut stream is never reported as
/// a success.
///
/// # What it keeps
///
/// * From the chunks: `id`, `model`, `created`, `system_fingerprint`,
///   `service_tier`, `provider` (each from the first chunk that has it), the
///   last `moderation` and the last non-null `usage` (normally the extra usage
///   chunk).
/// * Per choice, by `index`: `role` (the first one sent); `content`,
///   `refusal`, `reasoning_content` and `reasoning` (concatenated; `None` if
///   no fragment was a string; of a Mistral list-valued `content`, the
///   `text` parts go to `content` and the `thinking` parts' text to
///   `reasoning_content`); tool calls by their `index` (`id`, `type` and
///   function `name` from the first fragment that has them, `arguments`
///   concatenated, with a live [`partial_arguments`](ToolCall::partial_arguments));
///   the deprecated `function_call`; the last non-null `finish_reason`; and
///   the log probabilities, each list concatenated.
/// * An error chunk (`{"error": {…}}`) as [`error`](ChatCompletion::error)
///   (the last one; it is kept even past the memory limit, as it replaces
///   the one before), and its `usage` if it has one (OpenRouter sends it
///   there).
/// * Whether `[DONE]` arrived.
///
/// A chunk of an unexpected shape ([`ChatEvent::Unknown`]) is counted
/// ([`unknown_chunks`](ChatCompletion::unknown_chunks)) and reported as an
/// [`AccumulateErrorKind::Decode`] error; nothing of it is kept.
///
/// # Memory
///
/// Everything kept counts against a limit (64 MiB by default;
/// [`ChatAccumulatorConfig::max_bytes`]): the text and JSON kept, tool
/// call arguments twice (they are also repaired live), and a fixed amount per
/// choice and tool call, so a stream of sparse indexes cannot exhaust memory
/// either. A fragment that does not fit is dropped with
/// [`AccumulateErrorKind::TooManyBytes`] and the completion ends
/// [`Truncated`](Outcome::Truncated).
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
/// Linear in the input: each event costs O(its size), plus O(log n) per
/// choice and tool call it names, whatever order the indexes come in
/// (choices and tool calls are kept in maps keyed by index, so an insert
/// never shifts the others).
///
/// # Example
///
/// ```
/// use ssekit::accumulate::{ChatAccumulator, Outcome};
/// use ssekit::chat::ChatEvent;
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
///     acc.feed(&ChatEvent::from_frame(&frame)?)?;
///     // A UI shows the arguments while they stream:
///     if let Some(call) = acc.snapshot().choice(0).and_then(|c| c.tool_call(0)) {
///         live.push(call.partial_arguments().unwrap_or("…").to_owned());
///     }
/// }
/// assert_eq!(live, ["…", r#"{"city": "Par"}"#, r#"{"city": "Paris"}"#, r#"{"city": "Paris"}"#, r#"{"city": "Paris"}"#]);
///
/// let completion = acc.finish();
/// assert_eq!(completion.outcome(), Outcome::Completed);
/// assert_eq!(completion.usage().unwrap().get().total_tokens, Some(14));
/// assert_eq!(
///     completion.to_json(),
///     r#"{"id":"chatcmpl-1","object":"chat.completion","created":7,"model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"weather","arguments":"{\"city\": \"Paris\"}"}}]},"logprobs":null,"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":9,"completion_tokens":5,"total_tokens":14}}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct ChatAccumulator {
    completion: ChatCompletion,
    budget: Budget,
    config: ChatAccumulatorConfig,
    events: u64,
}

impl Default for ChatAccumulator {
    fn default() -> Self {
        Self::new()
    }
}

impl ChatAccumulator {
    /// An empty accumulator with the default [`ChatAccumulatorConfig`].
    pub fn new() -> Self {
        Self::with_config(ChatAccumulatorConfig::default())
    }

    /// An empty accumulator with the given limits.
    pub fn with_config(config: ChatAccumulatorConfig) -> Self {
        Self {
            completion: ChatCompletion::default(),
            budget: Budget::new(config.max_bytes),
            config,
            events: 0,
        }
    }

    /// The limits this accumulator was made with.
    pub fn config(&self) -> &ChatAccumulatorConfig {
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

    /// Adds one event.
    ///
    /// Cost: O(size of the event), plus O(log n) to find each choice and
    /// tool call by index.
    ///
    /// # Errors
    ///
    /// An [`AccumulateError`] when part of the event could not be kept: an
    /// element that does not decode ([`AccumulateErrorKind::Decode`]) or a
    /// fragment past the memory limit
    /// ([`AccumulateErrorKind::TooManyBytes`]) or for a choice or tool call
    /// past the count limits ([`AccumulateErrorKind::TooManyChoices`],
    /// [`AccumulateErrorKind::TooManyToolCalls`]). The rest of the event is
    /// applied, the accumulator stays usable, and the first such problem of
    /// the event is returned.
    pub fn feed(&mut self, event: &ChatEvent<'_>) -> Result<(), AccumulateError> {
        let number = self.events;
        self.events += 1;
        let mut first = None;
        match event {
            ChatEvent::Chunk(chunk) => self.chunk(chunk, &mut first),
            ChatEvent::Error(error) => self.error(error, &mut first),
            ChatEvent::Done => self.completion.done = true,
            ChatEvent::Unknown { error, .. } => {
                self.completion.unknown += 1;
                first = Some(AccumulateErrorKind::Decode(*error));
            }
        }
        event_result(first, number, &mut self.completion.limit_hit)
    }

    /// The completion so far. Borrowed: nothing is copied. Its
    /// [`outcome`](ChatCompletion::outcome) is
    /// [`InProgress`](Outcome::InProgress).
    pub fn snapshot(&self) -> &ChatCompletion {
        &self.completion
    }

    /// Ends the stream and returns the completion, with its
    /// [`outcome`](ChatCompletion::outcome) decided (see the
    /// [type docs](Self)).
    #[must_use]
    pub fn finish(self) -> ChatCompletion {
        let mut c = self.completion;
        c.status = if c.error.is_some() {
            Outcome::Failed
        } else if c.limit_hit
            || !c.done
            || c.choices.is_empty()
            || c.choices.values().any(|ch| ch.finish_reason.is_none())
        {
            Outcome::Truncated
        } else {
            Outcome::Completed
        };
        c
    }

    fn chunk(&mut self, chunk: &ChatChunk<'_>, first: &mut Option<AccumulateErrorKind>) {
        let b = &mut self.budget;
        let limits = self.config;
        let c = &mut self.completion;
        c.chunks += 1;
        note(first, set_once(b, &mut c.id, chunk.id));
        note(first, set_once(b, &mut c.model, chunk.model));
        if c.created.is_none() {
            c.created = chunk.created;
        }
        note(
            first,
            set_once(b, &mut c.system_fingerprint, chunk.system_fingerprint),
        );
        note(first, set_once(b, &mut c.service_tier, chunk.service_tier));
        note(first, set_once(b, &mut c.provider, chunk.provider));
        if let Some(m) = chunk.moderation {
            note(first, b.replace(&mut c.moderation, m.get()));
        }
        if let Some(usage) = &chunk.usage {
            note(first, replace_owned(b, &mut c.usage, usage.to_owned()));
        }
        // The first choice lent (it is large), then the others decoded.
        if let Some(choice) = chunk.choices.head() {
            apply_choice(b, limits, &mut c.choices, choice, first);
        }
        for choice in chunk.choices.rest() {
            match choice {
                Ok(choice) => apply_choice(b, limits, &mut c.choices, &choice, first),
                Err(e) => note(first, Err(AccumulateErrorKind::Decode(e))),
            }
        }
    }

    fn error(&mut self, error: &ChatErrorChunk<'_>, first: &mut Option<AccumulateErrorKind>) {
        let b = &mut self.budget;
        let c = &mut self.completion;
        // Kept whatever the limit (it replaces the last one, so it is
        // bounded by one event): a failure must never read as a cut.
        c.error = Some(error.error.to_owned());
        // OpenRouter sends the usage in the error chunk.
        let usage = ObjectView::parse(error.raw().get())
            .ok()
            .and_then(|o| o.get("usage"))
            .and_then(|u| u.as_object());
        if let Some(u) = usage {
            match Owned::<ChatUsage<'static>>::parse(u.as_raw_json().get()) {
                Ok(owned) => note(first, replace_owned(b, &mut c.usage, owned)),
                Err(e) => note(first, Err(AccumulateErrorKind::Decode(e))),
            }
        }
    }
}

/// Appends `value` (unescaped) to `slot`, making it `Some` even for an empty
/// fragment.
fn append(
    b: &mut Budget,
    slot: &mut Option<String>,
    value: Option<JsonStr<'_>>,
) -> Result<(), AccumulateErrorKind> {
    let Some(v) = value else { return Ok(()) };
    let text = slot.get_or_insert_with(String::new);
    b.append(text, v, 1).map(drop)
}

/// Appends a `delta.content`: a text fragment to `content`; of a list of
/// parts (Mistral), the `text` parts to `content` and the text inside the
/// `thinking` parts to `reasoning_content`. Returns the first problem; the
/// other parts are still applied.
fn append_content(
    b: &mut Budget,
    choice: &mut Choice,
    content: ChatContent<'_>,
) -> Result<(), AccumulateErrorKind> {
    let parts = match content {
        ChatContent::Parts(parts) => parts,
        other => return append(b, &mut choice.content, other.as_text()),
    };
    let mut first = None;
    for part in parts {
        match part {
            Ok(ContentPart::Text(t)) => note(&mut first, append(b, &mut choice.content, t.text)),
            Ok(ContentPart::Thinking(t)) => {
                for inner in t.thinking.into_iter().flatten() {
                    match inner {
                        Ok(ContentPart::Text(t)) => {
                            note(&mut first, append(b, &mut choice.reasoning_content, t.text))
                        }
                        Ok(_) => {}
                        Err(e) => note(&mut first, Err(AccumulateErrorKind::Decode(e))),
                    }
                }
            }
            Ok(_) => {}
            Err(e) => note(&mut first, Err(AccumulateErrorKind::Decode(e))),
        }
    }
    first.map_or(Ok(()), Err)
}

fn apply_choice(
    b: &mut Budget,
    limits: ChatAccumulatorConfig,
    choices: &mut BTreeMap<u64, Choice>,
    delta: &ChoiceDelta<'_>,
    first: &mut Option<AccumulateErrorKind>,
) {
    let choice = match by_index(
        b,
        choices,
        delta.index,
        limits.max_choices,
        |limit| AccumulateErrorKind::TooManyChoices { limit },
        || Choice::new(delta.index),
    ) {
        Ok(choice) => choice,
        Err(e) => return note(first, Err(e)),
    };
    if let Some(d) = &delta.delta {
        note(first, set_once(b, &mut choice.role, d.role));
        if let Some(content) = d.content {
            note(first, append_content(b, choice, content));
        }
        note(first, append(b, &mut choice.refusal, d.refusal));
        note(
            first,
            append(b, &mut choice.reasoning_content, d.reasoning_content),
        );
        note(first, append(b, &mut choice.reasoning, d.reasoning));
        if let Some(f) = &d.function_call {
            let call = choice
                .function_call
                .get_or_insert_with(FunctionCall::default);
            note(first, set_once(b, &mut call.name, f.name));
            if let Some(args) = f.arguments {
                note(first, b.append(&mut call.arguments, args, 1).map(drop));
            }
        }
        if let Some(calls) = d.tool_calls {
            for call in calls {
                let call = match call {
                    Ok(call) => call,
                    Err(e) => {
                        note(first, Err(AccumulateErrorKind::Decode(e)));
                        continue;
                    }
                };
                let slot = match by_index(
                    b,
                    &mut choice.tool_calls,
                    call.index,
                    limits.max_tool_calls,
                    |limit| AccumulateErrorKind::TooManyToolCalls { limit },
                    || ToolCall::new(call.index),
                ) {
                    Ok(slot) => slot,
                    Err(e) => {
                        note(first, Err(e));
                        continue;
                    }
                };
                note(first, set_once(b, &mut slot.id, call.id));
                note(first, set_once(b, &mut slot.ty, call.ty));
                if let Some(f) = &call.function {
                    note(first, set_once(b, &mut slot.name, f.name));
                    if let Some(args) = f.arguments {
                        note(first, slot.push_arguments(b, args));
                    }
                }
            }
        }
    }
    if let Some(reason) = delta.finish_reason {
        let s = reason.unescape();
        note(first, b.replace(&mut choice.finish_reason, &s));
    }
    if let Some(lp) = &delta.logprobs {
        let kept = choice.logprobs.get_or_insert_with(Logprobs::default);
        if let Some(list) = lp.content {
            note_all(first, extend_tokens(b, &mut kept.content, list));
        }
        if let Some(list) = lp.refusal {
            note_all(first, extend_tokens(b, &mut kept.refusal, list));
        }
    }
}

fn note_all(first: &mut Option<AccumulateErrorKind>, r: Option<AccumulateErrorKind>) {
    if let Some(e) = r {
        first.get_or_insert(e);
    }
}

/// Appends the tokens of `list` to `slot` (made `Some` even if empty);
/// returns the first problem.
fn extend_tokens(
    b: &mut Budget,
    slot: &mut Option<Vec<Owned<TokenLogprob<'static>>>>,
    list: List<'_, TokenLogprob<'_>>,
) -> Option<AccumulateErrorKind> {
    let tokens = slot.get_or_insert_with(Vec::new);
    let mut problem = None;
    for token in list {
        let r = match token {
            Ok(t) => push_owned(b, tokens, t.to_owned()),
            Err(e) => Err(AccumulateErrorKind::Decode(e)),
        };
        if let Err(e) = r {
            problem.get_or_insert(e);
        }
    }
    problem
}

/// A Chat Completion assembled from a stream: the `chat.completion` object
/// the same request would have returned without streaming, plus how the
/// stream ended.
///
/// Made by [`ChatAccumulator`]. [`to_json`](Self::to_json) writes it in the
/// API's shape; with the `serde` feature it implements `serde::Serialize`
/// in the same shape.
#[derive(Debug, Clone, Default)]
pub struct ChatCompletion {
    id: Option<String>,
    model: Option<String>,
    created: Option<u64>,
    system_fingerprint: Option<String>,
    service_tier: Option<String>,
    provider: Option<String>,
    moderation: Option<String>,
    choices: BTreeMap<u64, Choice>,
    usage: Option<Owned<ChatUsage<'static>>>,
    error: Option<Owned<ChatError<'static>>>,
    done: bool,
    chunks: u64,
    unknown: u64,
    limit_hit: bool,
    status: Outcome,
}

impl ChatCompletion {
    /// The completion ID, from the first chunk that has one.
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }
    /// The model, from the first chunk that names it.
    pub fn model(&self) -> Option<&str> {
        self.model.as_deref()
    }
    /// Unix time (seconds) of creation, from the first chunk that has it.
    pub fn created(&self) -> Option<u64> {
        self.created
    }
    /// The backend configuration fingerprint, if a chunk had one.
    pub fn system_fingerprint(&self) -> Option<&str> {
        self.system_fingerprint.as_deref()
    }
    /// The service tier, if a chunk had one.
    pub fn service_tier(&self) -> Option<&str> {
        self.service_tier.as_deref()
    }
    /// The upstream provider (OpenRouter), if a chunk had one.
    pub fn provider(&self) -> Option<&str> {
        self.provider.as_deref()
    }
    /// The last `moderation` member of a chunk, as JSON text.
    pub fn moderation(&self) -> Option<&str> {
        self.moderation.as_deref()
    }
    /// The choices, in `index` order.
    pub fn choices(&self) -> IndexOrder<'_, Choice> {
        IndexOrder::new(&self.choices)
    }
    /// The choice with this `index`. O(log n).
    pub fn choice(&self, index: u64) -> Option<&Choice> {
        self.choices.get(&index)
    }
    /// The last usage sent (normally on the extra usage chunk), as a view.
    pub fn usage(&self) -> Option<&Owned<ChatUsage<'static>>> {
        self.usage.as_ref()
    }
    /// The error sent in the stream (the `error` member of an error chunk;
    /// the last one if there were several).
    pub fn error(&self) -> Option<&Owned<ChatError<'static>>> {
        self.error.as_ref()
    }
    /// Whether `[DONE]` arrived.
    pub fn saw_done(&self) -> bool {
        self.done
    }
    /// The number of `chat.completion.chunk`s accumulated.
    pub fn chunks(&self) -> u64 {
        self.chunks
    }
    /// The number of chunks of an unexpected shape
    /// ([`ChatEvent::Unknown`]), skipped (each was reported as an
    /// [`AccumulateErrorKind::Decode`] error). Always 0 behind the
    /// adapters' `accumulate`, which reads strictly and does not feed them.
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
    /// them; the others are left out. The message has `role`, `content`
    /// and `refusal` (`null` when absent), then `reasoning_content`,
    /// `reasoning`, `tool_calls` and `function_call` when present. The
    /// stream's status and error are not part of this object (see
    /// [`outcome`](Self::outcome) and [`error`](Self::error)).
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    /// Appends [`to_json`](Self::to_json)'s text to `out`.
    pub fn write_json(&self, out: &mut String) {
        let mut w = ObjectWriter::new(out);
        w.str_or_null("id", self.id());
        w.str("object", "chat.completion");
        match self.created {
            Some(t) => w.u64("created", t),
            None => w.raw("created", "null"),
        }
        w.str_or_null("model", self.model());
        let out = w.key("choices");
        out.push('[');
        for (i, choice) in self.choices.values().enumerate() {
            if i > 0 {
                out.push(',');
            }
            choice.write_json(out);
        }
        out.push(']');
        if let Some(u) = &self.usage {
            w.raw("usage", u.as_str());
        }
        w.opt_str("service_tier", self.service_tier());
        w.opt_str("system_fingerprint", self.system_fingerprint());
        w.opt_str("provider", self.provider());
        if let Some(m) = &self.moderation {
            w.raw("moderation", m);
        }
        w.end();
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for ChatCompletion {
    /// Serializes [`to_json`](Self::to_json)'s object.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        super::dialect::serialize_json_text(&self.to_json(), s)
    }
}

/// One choice of a [`ChatCompletion`], assembled from its deltas.
#[derive(Debug, Clone)]
pub struct Choice {
    index: u64,
    role: Option<String>,
    content: Option<String>,
    refusal: Option<String>,
    reasoning_content: Option<String>,
    reasoning: Option<String>,
    tool_calls: BTreeMap<u64, ToolCall>,
    function_call: Option<FunctionCall>,
    finish_reason: Option<String>,
    logprobs: Option<Logprobs>,
}

impl Choice {
    fn new(index: u64) -> Self {
        Self {
            index,
            role: None,
            content: None,
            refusal: None,
            reasoning_content: None,
            reasoning: None,
            tool_calls: BTreeMap::new(),
            function_call: None,
            finish_reason: None,
            logprobs: None,
        }
    }

    /// The choice's index.
    pub fn index(&self) -> u64 {
        self.index
    }
    /// The message's role (the first one sent).
    pub fn role(&self) -> Option<&str> {
        self.role.as_deref()
    }
    /// The content fragments, concatenated; `None` if none was a string.
    pub fn content(&self) -> Option<&str> {
        self.content.as_deref()
    }
    /// The refusal fragments, concatenated.
    pub fn refusal(&self) -> Option<&str> {
        self.refusal.as_deref()
    }
    /// The `reasoning_content` fragments (DeepSeek, older vLLM), concatenated.
    pub fn reasoning_content(&self) -> Option<&str> {
        self.reasoning_content.as_deref()
    }
    /// The `reasoning` fragments (newer vLLM, OpenRouter), concatenated.
    pub fn reasoning(&self) -> Option<&str> {
        self.reasoning.as_deref()
    }
    /// The tool calls, in `index` order.
    pub fn tool_calls(&self) -> IndexOrder<'_, ToolCall> {
        IndexOrder::new(&self.tool_calls)
    }
    /// The tool call with this `index`. O(log n).
    pub fn tool_call(&self, index: u64) -> Option<&ToolCall> {
        self.tool_calls.get(&index)
    }
    /// The deprecated `function_call`, if one was sent.
    pub fn function_call(&self) -> Option<&FunctionCall> {
        self.function_call.as_ref()
    }
    /// The last `finish_reason` sent; `None` while the choice is unfinished.
    pub fn finish_reason(&self) -> Option<&str> {
        self.finish_reason.as_deref()
    }
    /// The log probabilities, if any chunk of the choice had them.
    pub fn logprobs(&self) -> Option<&Logprobs> {
        self.logprobs.as_ref()
    }

    fn write_json(&self, out: &mut String) {
        let mut w = ObjectWriter::new(out);
        w.u64("index", self.index);
        let out = w.key("message");
        let mut m = ObjectWriter::new(out);
        m.str_or_null("role", self.role());
        m.str_or_null("content", self.content());
        m.str_or_null("refusal", self.refusal());
        m.opt_str("reasoning_content", self.reasoning_content());
        m.opt_str("reasoning", self.reasoning());
        if !self.tool_calls.is_empty() {
            let out = m.key("tool_calls");
            out.push('[');
            for (i, call) in self.tool_calls.values().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let mut t = ObjectWriter::new(out);
                t.str_or_null("id", call.id());
                t.str_or_null("type", call.ty());
                let out = t.key("function");
                let mut f = ObjectWriter::new(out);
                f.str_or_null("name", call.name());
                f.str("arguments", call.arguments());
                f.end();
                t.end();
            }
            out.push(']');
        }
        if let Some(call) = &self.function_call {
            let out = m.key("function_call");
            let mut f = ObjectWriter::new(out);
            f.str_or_null("name", call.name());
            f.str("arguments", call.arguments());
            f.end();
        }
        m.end();
        match &self.logprobs {
            Some(lp) => {
                let out = w.key("logprobs");
                let mut l = ObjectWriter::new(out);
                write_tokens(l.key("content"), lp.content.as_deref());
                write_tokens(l.key("refusal"), lp.refusal.as_deref());
                l.end();
            }
            None => w.raw("logprobs", "null"),
        }
        w.str_or_null("finish_reason", self.finish_reason());
        w.end();
    }
}

fn write_tokens(out: &mut String, tokens: Option<&[Owned<TokenLogprob<'static>>]>) {
    let Some(tokens) = tokens else {
        out.push_str("null");
        return;
    };
    out.push('[');
    for (i, t) in tokens.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(t.as_str());
    }
    out.push(']');
}

/// One tool call of a [`Choice`], assembled from its fragments.
#[derive(Debug, Clone)]
pub struct ToolCall {
    index: u64,
    id: Option<String>,
    ty: Option<String>,
    name: Option<String>,
    arguments: String,
    partial: PartialJson,
    partial_error: Option<JsonError>,
}

impl ToolCall {
    fn new(index: u64) -> Self {
        Self {
            index,
            id: None,
            ty: None,
            name: None,
            arguments: String::new(),
            partial: PartialJson::new(),
            partial_error: None,
        }
    }

    fn push_arguments(
        &mut self,
        b: &mut Budget,
        args: JsonStr<'_>,
    ) -> Result<(), AccumulateErrorKind> {
        // Counted twice: the text, and its live repair.
        let start = b.append(&mut self.arguments, args, 2)?;
        if self.partial_error.is_none() {
            if let Err(e) = self.partial.feed(&self.arguments[start..]) {
                self.partial_error = Some(e);
            }
        }
        Ok(())
    }

    /// The call's index.
    pub fn index(&self) -> u64 {
        self.index
    }
    /// The call ID (`call_…`).
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }
    /// The call's type (`function`).
    pub fn ty(&self) -> Option<&str> {
        self.ty.as_deref()
    }
    /// The function's name.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }
    /// The arguments' JSON text so far: the fragments concatenated, as sent.
    pub fn arguments(&self) -> &str {
        &self.arguments
    }
    /// The best-effort value of the arguments so far, as complete JSON text
    /// (see [`PartialJson`]): `{"city": "Par` → `{"city": "Par"}`. `None`
    /// while no value has started. O(1): kept up to date as fragments
    /// arrive. If the arguments stopped being valid JSON, the repair of the
    /// text before the error (see [`arguments_error`](Self::arguments_error)).
    pub fn partial_arguments(&self) -> Option<&str> {
        self.partial.current()
    }
    /// The first JSON error in the arguments, if they are not a valid JSON
    /// prefix (the arguments are kept as sent regardless).
    pub fn arguments_error(&self) -> Option<JsonError> {
        self.partial_error
    }
    /// Whether the arguments are one complete, valid JSON value. O(1): the
    /// live repair already knows.
    pub fn arguments_complete(&self) -> bool {
        self.partial.is_complete()
    }
}

/// The deprecated `function_call` of a [`Choice`], assembled.
#[derive(Debug, Clone, Default)]
pub struct FunctionCall {
    name: Option<String>,
    arguments: String,
}

impl FunctionCall {
    /// The function's name.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }
    /// The arguments' JSON text: the fragments concatenated.
    pub fn arguments(&self) -> &str {
        &self.arguments
    }
}

/// The log probabilities of a [`Choice`]: each list is the concatenation of
/// the chunks' lists, `None` if no chunk had it.
#[derive(Debug, Clone, Default)]
pub struct Logprobs {
    content: Option<Vec<Owned<TokenLogprob<'static>>>>,
    refusal: Option<Vec<Owned<TokenLogprob<'static>>>>,
}

impl Logprobs {
    /// The content tokens' log probabilities.
    pub fn content(&self) -> Option<&[Owned<TokenLogprob<'static>>]> {
        self.content.as_deref()
    }
    /// The refusal tokens' log probabilities.
    pub fn refusal(&self) -> Option<&[Owned<TokenLogprob<'static>>]> {
        self.refusal.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::Value;

    fn run(acc: &mut ChatAccumulator, events: &[&str]) -> Vec<Result<(), AccumulateError>> {
        events
            .iter()
            .map(|e| acc.feed(&ChatEvent::parse(e).expect("test event decodes")))
            .collect()
    }

    #[test]
    fn choices_and_tool_calls_are_keyed_by_index_not_arrival() {
        let mut acc = ChatAccumulator::new();
        let r = run(
            &mut acc,
            &[
                r#"{"choices":[{"index":1,"delta":{"content":"b1"}}]}"#,
                r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"[2"}}]}}]}"#,
                r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c0","function":{"name":"f","arguments":"[1]"}},{"index":1,"id":"c1","function":{"name":"g","arguments":"]"}}]}}]}"#,
                r#"{"choices":[{"index":1,"delta":{"content":"b2"},"finish_reason":"stop"},{"index":0,"finish_reason":"tool_calls"}]}"#,
                "[DONE]",
            ],
        );
        assert!(r.iter().all(Result::is_ok));
        let c = acc.finish();
        assert_eq!(c.outcome(), Outcome::Completed);
        assert_eq!(c.choices().map(Choice::index).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(c.choice(1).unwrap().content(), Some("b1b2"));
        let calls: Vec<&ToolCall> = c.choice(0).unwrap().tool_calls().collect();
        assert_eq!(calls[0].arguments(), "[1]");
        assert_eq!(calls[1].arguments(), "[2]");
        assert_eq!(calls[1].id(), Some("c1"));
        assert_eq!(calls[1].name(), Some("g"));
        assert!(calls[1].arguments_complete());
    }

    #[test]
    fn truncation_needs_done_and_every_finish_reason() {
        let chunk = r#"{"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"stop"}]}"#;
        let open = r#"{"choices":[{"index":1,"delta":{"content":"y"}}]}"#;
        let mut no_done = ChatAccumulator::new();
        run(&mut no_done, &[chunk]);
        assert_eq!(no_done.finish().outcome(), Outcome::Truncated);
        let mut unfinished = ChatAccumulator::new();
        run(&mut unfinished, &[chunk, open, "[DONE]"]);
        assert_eq!(unfinished.finish().outcome(), Outcome::Truncated);
        let mut empty = ChatAccumulator::new();
        run(&mut empty, &["[DONE]"]);
        assert_eq!(empty.finish().outcome(), Outcome::Truncated);
        let mut ok = ChatAccumulator::new();
        run(&mut ok, &[chunk, "[DONE]"]);
        assert_eq!(ok.snapshot().outcome(), Outcome::InProgress);
        assert_eq!(ok.finish().outcome(), Outcome::Completed);
    }

    #[test]
    fn error_chunk_fails_the_stream_and_keeps_its_usage() {
        let mut acc = ChatAccumulator::new();
        run(
            &mut acc,
            &[
                r#"{"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"stop"}]}"#,
                r#"{"error":{"message":"boom","code":400},"choices":[],"usage":{"total_tokens":3}}"#,
                "[DONE]",
            ],
        );
        let c = acc.finish();
        assert_eq!(c.outcome(), Outcome::Failed);
        assert_eq!(c.error().unwrap().get().message.unwrap(), "boom");
        assert_eq!(c.usage().unwrap().get().total_tokens, Some(3));
    }

    #[test]
    fn limit_drops_the_fragment_and_truncates() {
        let mut acc = ChatAccumulator::with_config(
            ChatAccumulatorConfig::DEFAULT.with_max_bytes(size_of::<(u64, Choice)>() + 4),
        );
        let r = run(
            &mut acc,
            &[
                r#"{"choices":[{"index":0,"delta":{"content":"abc"}}]}"#,
                r#"{"choices":[{"index":0,"delta":{"content":"de"}}]}"#,
                r#"{"choices":[{"index":0,"delta":{"content":"f"},"finish_reason":"x"}]}"#,
                "[DONE]",
            ],
        );
        assert!(r[0].is_ok());
        let e = r[1].unwrap_err();
        assert_eq!(
            e.kind(),
            AccumulateErrorKind::TooManyBytes {
                limit: size_of::<(u64, Choice)>() + 4
            }
        );
        assert_eq!(e.event_index(), 1);
        assert!(r[2].is_err(), "the finish reason does not fit either");
        assert_eq!(acc.snapshot().choice(0).unwrap().content(), Some("abcf"));
        assert_eq!(acc.finish().outcome(), Outcome::Truncated);
    }

    #[test]
    fn sparse_indexes_cost_memory_and_are_bounded() {
        let mut acc = ChatAccumulator::with_config(
            ChatAccumulatorConfig::DEFAULT.with_max_bytes(3 * size_of::<(u64, Choice)>()),
        );
        let mut errors = 0;
        for i in 0..10u64 {
            let e = alloc::format!(r#"{{"choices":[{{"index":{}}}]}}"#, i * (u64::MAX / 10));
            errors += usize::from(acc.feed(&ChatEvent::parse(&e).unwrap()).is_err());
        }
        assert_eq!(acc.snapshot().choices().len(), 3);
        assert_eq!(errors, 7);
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
        assert_eq!(acc.snapshot().choice(2).unwrap().content(), Some("ok"));
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
    fn partial_arguments_track_fragments_and_keep_bad_json_as_sent() {
        let mut acc = ChatAccumulator::new();
        run(
            &mut acc,
            &[
                r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\": [1, "}}]}}]}"#,
            ],
        );
        let call = acc.snapshot().choice(0).unwrap().tool_call(0).unwrap();
        assert_eq!(call.partial_arguments(), Some(r#"{"a": [1]}"#));
        assert!(!call.arguments_complete());
        run(
            &mut acc,
            &[
                r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"}"}}]}}]}"#,
            ],
        );
        let call = acc.snapshot().choice(0).unwrap().tool_call(0).unwrap();
        assert_eq!(call.arguments(), r#"{"a": [1, }"#);
        assert!(call.arguments_error().is_some());
        assert_eq!(call.partial_arguments(), Some(r#"{"a": [1]}"#));
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
            .map(|e| acc.feed(&ChatEvent::parse(e).unwrap()))
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
            .map(ToolCall::index)
            .collect();
        assert_eq!(kept, [2, 3, 4]);
        assert_eq!(c.choices().map(Choice::index).collect::<Vec<_>>(), [4, 9]);
        assert_eq!(c.choice(4).unwrap().content(), Some("bd"));
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
                r#"{{"choices":[{{"index":{},"delta":{{"tool_calls":[{{"index":{i},"function":{{"arguments":"{i}"}}}}]}}}}]}}"#,
                i % 3
            );
            acc.feed(&ChatEvent::parse(&e).unwrap()).unwrap();
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
        let args: Vec<&str> = calls.map(ToolCall::arguments).take(3).collect();
        assert_eq!(args, ["1", "4", "7"]);
        assert_eq!(
            c.choice(1).unwrap().tool_call(97).unwrap().arguments(),
            "97"
        );
    }
}
