//! The Chat Completions reader.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::String;
use alloc::vec::Vec;

use super::{
    DeltaKind, Dialect, Extra, ItemKind, Stop, StopReason, TurnConfig, TurnError, TurnErrorKind,
    TurnEvent, TurnReader, TurnStart, TurnUsage, TurnWriter, UpstreamError,
};
use crate::chat::{
    ChatChunk, ChatContent, ChatEvent, ChatUsage, ChoiceDelta, ContentPart, Delta, List,
    TokenLogprob,
};
use crate::frame::Frame;
use crate::json::{JsonStr, RawJson};

/// The names of the [`Extra`] members the reader hands on and
/// [`render`](super::write_chat::render) reads back: members of Chat's
/// `chat.completion` that the model has no word for.
pub(crate) mod keys {
    /// The message's `content`, `refusal`, `reasoning_content` and
    /// `reasoning`, kept as the turn's extra (`""`) when the member's first
    /// fragment was an empty string: the member is then present (not
    /// `null`, not left out) even if no text followed.
    pub(crate) const TEXTS: [&str; 4] = ["content", "refusal", "reasoning_content", "reasoning"];
    /// The index in [`TEXTS`] of `content`.
    pub(crate) const CONTENT: usize = 0;
    /// The index in [`TEXTS`] of `refusal`.
    pub(crate) const REFUSAL: usize = 1;
    /// The index in [`TEXTS`] of `reasoning_content`.
    pub(crate) const REASONING_CONTENT: usize = 2;
    /// The index in [`TEXTS`] of `reasoning`.
    pub(crate) const REASONING: usize = 3;
    /// The message's `role` (the first one sent).
    pub(crate) const ROLE: &str = "role";
    /// The choice's `index`, when the reader reads another choice than 0
    /// ([`ChatReader::choice`](super::ChatReader::choice)).
    pub(crate) const INDEX: &str = "index";
    /// The completion's `service_tier`, `system_fingerprint` and
    /// `provider` (each the first one sent).
    pub(crate) const ONCE: [&str; 3] = ["service_tier", "system_fingerprint", "provider"];
    /// The completion's `usage`, as the upstream wrote it (the last one).
    pub(crate) const USAGE: &str = "usage";
    /// The `error` object of an error chunk, as sent (the last one; not
    /// part of a `chat.completion`).
    pub(crate) const ERROR: &str = "error";
    /// The completion's `moderation` (the last one).
    pub(crate) const MODERATION: &str = "moderation";
    /// The choice's `logprobs` is an object (`{}`; its lists are kept
    /// under the two keys below), not `null`.
    pub(crate) const LOGPROBS: &str = "logprobs";
    /// The token lists of `logprobs.content` and `logprobs.refusal`, each
    /// the concatenation of the chunks' lists.
    pub(crate) const LOGPROBS_CONTENT: &str = "logprobs.content";
    /// See [`LOGPROBS_CONTENT`].
    pub(crate) const LOGPROBS_REFUSAL: &str = "logprobs.refusal";
    /// Of a reasoning item (`true`): its text came in `delta.reasoning`,
    /// and goes to the message's `reasoning`, not `reasoning_content`.
    pub(crate) const REASONING_ITEM: &str = "reasoning";
    /// Of a tool call item: the call's `type`, from its first fragment.
    pub(crate) const CALL_TYPE: &str = "type";
    /// Of a tool call item (`true`): the deprecated `delta.function_call`,
    /// rendered as the message's `function_call`.
    pub(crate) const FUNCTION_CALL: &str = "function_call";
    /// Of a tool call item: the call's upstream `index`, when it is not
    /// the number of calls opened before it (the calls are rendered in
    /// index order, as a client that sets them by index lists them).
    pub(crate) const CALL_INDEX: &str = "index";
}

use keys::{CONTENT, REASONING, REASONING_CONTENT, REFUSAL};

/// The bits of [`ChatReader::said`]: a text member's is `1 << ` its index
/// in [`keys::TEXTS`]; then the members handed on once.
const ROLE_BIT: u16 = 1 << 4;
const ONCE_BITS: [u16; 3] = [1 << 5, 1 << 6, 1 << 7];
const LOGPROBS_BIT: u16 = 1 << 8;
const INDEX_BIT: u16 = 1 << 9;

const EMPTY_STRING: RawJson<'static> = RawJson::new("\"\"");
const TRUE: RawJson<'static> = RawJson::new("true");
const EMPTY_OBJECT: RawJson<'static> = RawJson::new("{}");
const EMPTY_ARRAY: RawJson<'static> = RawJson::new("[]");

/// Hands on a member of Chat's answer, to a writer that keeps them.
fn put<W: TurnWriter + ?Sized>(
    out: &mut W,
    item: Option<u64>,
    key: &str,
    raw: RawJson<'_>,
) -> Result<(), TurnError> {
    if !out.wants_extras() {
        return Ok(());
    }
    out.write(&TurnEvent::Extra(Extra::new(Dialect::Chat, item, key, raw)))
}

/// Reads a Chat Completions stream (`choices[0]`) into turn events.
///
/// | upstream | model |
/// | --- | --- |
/// | the first chunk's `id`, `model`, `created` | start |
/// | `delta.content` (text, or Mistral `text` parts) | a message item, text |
/// | `delta.reasoning_content`, `delta.reasoning`, Mistral `thinking` parts | a reasoning item, reasoning text |
/// | `delta.refusal` | a refusal item |
/// | `delta.tool_calls[i]` | one tool call item per `index` (the calls may interleave); arguments |
/// | `delta.function_call` (deprecated) | one tool call item |
/// | `usage` | usage (cached and reasoning tokens from the details, DeepSeek's `prompt_cache_hit_tokens`); the object whole as an extra |
/// | `service_tier`, `system_fingerprint`, `provider`, `delta.role` | extras of the turn, from the first chunk that has each |
/// | `moderation` | an extra of the turn (the last one) |
/// | `logprobs` of choice 0 | extras of the turn: `logprobs` (`{}`), each token pushed onto `logprobs.content` or `logprobs.refusal` (an empty list appended) |
/// | a text member's first fragment, when empty | an extra of the turn (`""` under the member's name): the member is present |
/// | `delta.reasoning` opening a reasoning item | the item's extra `reasoning: true` (rendered as `reasoning`, not `reasoning_content`) |
/// | a tool call's `type`; `function_call` | the item's extra `type`; `function_call: true` |
/// | a tool call's `index`, when it is not the number of calls opened before it | the item's extra `index` (the rendering lists calls by index) |
/// | `finish_reason` | every open item ends; stop (`stop` → end of turn, `length` → max tokens, `tool_calls`/`function_call` → tool use, `content_filter`) |
/// | `data: [DONE]`, or the end of the body after a `finish_reason` | end |
/// | an error chunk | error (and its `error` object whole as an extra of the turn) |
///
/// A change between text, reasoning and refusal ends the one open and
/// opens the next; a tool call's start ends the open text. Choices other
/// than 0 are counted ([`TurnReader::skipped`]) and not read, unless
/// [`every_choice`](Self::every_choice) asks for their faults;
/// [`choice`](Self::choice) reads another one instead.
///
/// Faults: a tool call whose first fragment has no `id` and no `name`
/// (one of them missing is read past), more calls than
/// [`TurnConfig::max_items`], content after `finish_reason`, a chunk that
/// does not decode, `[DONE]` before any `finish_reason`, a body that ends
/// before a `finish_reason`; read past: a second `[DONE]`, a body that
/// ends without `[DONE]`.
#[derive(Debug, Clone)]
pub struct ChatReader {
    max_items: usize,
    events: u64,
    started: bool,
    /// The open text, reasoning or refusal item.
    prose: Option<(u64, DeltaKind)>,
    /// Model index of each tool call, by upstream index; `u64::MAX` as the
    /// key of the deprecated `function_call`.
    calls: BTreeMap<u64, u64>,
    /// The calls' model indexes, in the order they opened.
    order: Vec<u64>,
    items: u64,
    stopped: bool,
    ended: bool,
    /// A `[DONE]` came, even one before the choice's `finish_reason` (the
    /// stream then did not end well, but nothing after it is read).
    done: bool,
    /// Reading every choice's lifecycle: at most this many choices.
    every: Option<usize>,
    /// Every choice's lifecycle: whether it said why it stopped, by the
    /// upstream's index (with `every` only).
    lives: BTreeMap<u64, bool>,
    /// The tool calls of every choice, by (choice, call) upstream indexes
    /// (with `every` only).
    call_keys: BTreeSet<(u64, u64)>,
    /// An error chunk came (with `every` only: it does not end the reading).
    failed: bool,
    chunks: u64,
    /// The members already handed on once, by bit: the text members seen
    /// (`1 << CONTENT` …), the role, the tier, fingerprint and provider,
    /// the logprobs marker, the choice's index.
    said: u16,
    /// The choice read, the others seen and their pieces skipped.
    pick: super::Pick,
    /// The choice's index written out.
    number: String,
    /// A tool call's index written out.
    call_number: String,
    /// Reads the completion's own members only, no choice: the head
    /// reader of an accumulator that gives each choice to a reader of its
    /// own ([`read_routed`](Self::read_routed)).
    head: bool,
}

impl Default for ChatReader {
    fn default() -> Self {
        Self::new(&TurnConfig::default())
    }
}

impl ChatReader {
    /// A reader with this config's limits.
    pub fn new(config: &TurnConfig) -> Self {
        Self {
            max_items: config.max_items,
            events: 0,
            started: false,
            prose: None,
            calls: BTreeMap::new(),
            order: Vec::new(),
            items: 0,
            stopped: false,
            ended: false,
            done: false,
            every: None,
            lives: BTreeMap::new(),
            call_keys: BTreeSet::new(),
            failed: false,
            chunks: 0,
            said: 0,
            pick: super::Pick::default(),
            number: String::new(),
            call_number: String::new(),
            head: false,
        }
    }

    /// A reader of the completion's own members (start, tier, fingerprint,
    /// provider, moderation, usage, error, `[DONE]`) that reads no choice:
    /// `[DONE]` ends it whatever the choices said, and an error chunk does
    /// not (a later one replaces it). With a reader per
    /// choice fed by [`read_routed`](Self::read_routed), each chunk is
    /// read once, whatever the number of choices.
    pub(crate) fn head_only(mut self) -> Self {
        self.head = true;
        self
    }

    /// Reads event `at` for a reader of one choice
    /// ([`choice`](Self::choice)) when the caller routes choices: `choice`
    /// is this reader's choice of the chunk `event` (then only it is
    /// read, with the chunk's start when it is the first), `None` for an
    /// event that is not a chunk (read whole).
    ///
    /// # Errors
    ///
    /// As [`TurnReader::read`].
    pub(crate) fn read_routed<W: TurnWriter + ?Sized>(
        &mut self,
        at: u64,
        event: &ChatEvent<'_>,
        choice: Option<&ChoiceDelta<'_>>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        self.events = at + 1;
        let r = match (event, choice) {
            (ChatEvent::Chunk(chunk), Some(choice)) if !self.ended && !self.done => self
                .start(chunk, out)
                .and_then(|()| self.read_choice(choice, out)),
            _ => self.event(event, out),
        };
        r.map_err(|e| e.at(at))
    }

    fn start<W: TurnWriter + ?Sized>(
        &mut self,
        chunk: &ChatChunk<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        if self.started {
            return Ok(());
        }
        self.started = true;
        out.write(&TurnEvent::Start(TurnStart {
            id: chunk.id,
            model: chunk.model,
            created: chunk.created,
        }))
    }

    /// Reads choice `index` instead of choice 0 (with `n > 1`). A reader
    /// and a [`TurnAccumulator`](crate::accumulate::TurnAccumulator) per
    /// choice, written out together by
    /// [`write_choices_json`](super::write_choices_json), keep every choice
    /// of a completion.
    #[must_use]
    pub fn choice(mut self, index: u64) -> Self {
        self.pick.own = index;
        self
    }

    /// The indexes of the choices this reader saw and did not read, in
    /// increasing order (at most
    /// [`MAX_OTHER_CHOICES`](super::MAX_OTHER_CHOICES) of them).
    pub fn other_choices(&self) -> impl Iterator<Item = u64> + '_ {
        self.pick.others()
    }

    /// Reads the lifecycle of every choice, not only choice 0's, for a
    /// writer that hears faults ([`TurnWriter::fault`]): content after a
    /// choice's `finish_reason`, a tool call without its `id` or name, a
    /// choice never stopped are reported with the choice's index. The
    /// reader also reads on after an error chunk and after `[DONE]` (what
    /// follows is a fault), and at the end reports each choice without a
    /// `finish_reason` rather than one cut stream. At most `max_choices`
    /// choices are tracked, and [`TurnConfig::max_items`] tool calls over
    /// all of them; past either, a fault says so once per call or choice
    /// and the rest is not checked. Events are written for choice 0 only.
    #[must_use]
    pub fn every_choice(mut self, max_choices: usize) -> Self {
        self.every = Some(max_choices);
        self
    }

    fn error(&self, kind: TurnErrorKind) -> TurnError {
        TurnError::new(kind, self.events.saturating_sub(1))
    }

    /// Reads one decoded event.
    ///
    /// # Errors
    ///
    /// As [`TurnReader::read`].
    pub fn read_event<W: TurnWriter + ?Sized>(
        &mut self,
        event: &ChatEvent<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        self.events += 1;
        let at = self.events - 1;
        self.event(event, out).map_err(|e| e.at(at))
    }

    fn event<W: TurnWriter + ?Sized>(
        &mut self,
        event: &ChatEvent<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        if self.ended || self.done {
            return match event {
                ChatEvent::Done => out.fault(self.error(TurnErrorKind::SecondEnd)),
                _ => Err(self.error(TurnErrorKind::ContentAfterFinish)),
            };
        }
        match event {
            ChatEvent::Chunk(chunk) => self.chunk(chunk, out),
            ChatEvent::Error(e) => {
                // The head of a routing accumulator reads on, as a client
                // does: a later error replaces this one.
                if self.every.is_some() || self.head {
                    self.failed = true;
                } else {
                    self.ended = true;
                }
                // OpenRouter sends the usage in the error chunk. What of it
                // a writer refuses (a limit) does not keep the error out:
                // the first refusal is returned after it.
                let mut kept = Ok(());
                let usage_json = crate::json::ObjectView::parse(e.raw().get())
                    .ok()
                    .and_then(|o| o.get("usage"))
                    .and_then(|u| u.as_object());
                if let Some(u) = usage_json {
                    if let Ok(owned) =
                        crate::chat::Owned::<ChatUsage<'static>>::parse(u.as_raw_json().get())
                    {
                        kept = out
                            .write(&TurnEvent::Usage(usage(&owned.get())))
                            .and_then(|()| put(out, None, keys::USAGE, u.as_raw_json()));
                    }
                }
                kept = kept.and(put(out, None, keys::ERROR, e.error.raw()));
                let code = e.error.code.and_then(|c| match c.value() {
                    crate::json::Value::String(s) => Some(s),
                    _ => None,
                });
                out.write(&TurnEvent::Error(UpstreamError {
                    code: code.or(e.error.ty),
                    message: e.error.message,
                }))
                .and(kept)
            }
            ChatEvent::Done => {
                self.done = true;
                if !self.stopped && self.every.is_none() && !self.head {
                    return Err(self.error(TurnErrorKind::Truncated));
                }
                self.ended = true;
                out.write(&TurnEvent::End)
            }
            ChatEvent::Unknown { error, .. } => Err(self.error(TurnErrorKind::Decode(*error))),
        }
    }

    fn chunk<W: TurnWriter + ?Sized>(
        &mut self,
        chunk: &ChatChunk<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        self.start(chunk, out)?;
        self.chunks += 1;
        let once = [chunk.service_tier, chunk.system_fingerprint, chunk.provider];
        for ((value, bit), key) in once.into_iter().zip(ONCE_BITS).zip(keys::ONCE) {
            if let Some(v) = value {
                if self.said & bit == 0 {
                    self.said |= bit;
                    put(out, None, key, v.as_raw_json())?;
                }
            }
        }
        if let Some(m) = chunk.moderation {
            put(out, None, keys::MODERATION, m)?;
        }
        if !self.head {
            if let Some(choice) = chunk.choices.head() {
                self.read_choice(choice, out)?;
            }
            for choice in chunk.choices.rest() {
                match choice {
                    Ok(choice) => self.read_choice(&choice, out)?,
                    Err(e) => out.fault(self.error(TurnErrorKind::Decode(e)))?,
                }
            }
        }
        if let Some(u) = &chunk.usage {
            out.write(&TurnEvent::Usage(usage(u)))?;
            put(out, None, keys::USAGE, u.raw())?;
        }
        Ok(())
    }

    fn read_choice<W: TurnWriter + ?Sized>(
        &mut self,
        choice: &ChoiceDelta<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        if let Some(max) = self.every {
            self.life(choice, max, out)?;
        }
        if !self.pick.is_own(choice.index) {
            return Ok(());
        }
        if self.pick.own != 0 && self.said & INDEX_BIT == 0 {
            use core::fmt::Write;
            self.said |= INDEX_BIT;
            self.number.clear();
            let _ = write!(self.number, "{}", self.pick.own);
            put(out, None, keys::INDEX, RawJson::new(&self.number))?;
        }
        if let Some(delta) = &choice.delta {
            if self.stopped {
                // With `every`, the lifecycle said so.
                if has_content(delta) && self.every.is_none() {
                    let choice = self.pick.own;
                    return Err(self.error(TurnErrorKind::ContentAfterStop { choice }));
                }
            } else {
                self.delta(delta, out)?;
            }
        }
        if let Some(raw) = choice.finish_reason {
            if !self.stopped {
                self.stopped = true;
                self.end_items(out)?;
            }
            let reason = match raw.as_str() {
                Some("length") => StopReason::MaxTokens,
                Some("content_filter") => StopReason::ContentFilter,
                Some("tool_calls" | "function_call") => StopReason::ToolUse,
                _ => StopReason::EndTurn,
            };
            out.write(&TurnEvent::Stop(Stop {
                reason,
                raw: Some(raw),
            }))?;
        }
        if let Some(lp) = &choice.logprobs {
            if self.said & LOGPROBS_BIT == 0 {
                self.said |= LOGPROBS_BIT;
                put(out, None, keys::LOGPROBS, EMPTY_OBJECT)?;
            }
            if let Some(list) = lp.content {
                self.tokens(keys::LOGPROBS_CONTENT, list, out)?;
            }
            if let Some(list) = lp.refusal {
                self.tokens(keys::LOGPROBS_REFUSAL, list, out)?;
            }
        }
        Ok(())
    }

    /// Hands on a list of token log probabilities under `key`: each token
    /// pushed as sent (the list's own spacing between tokens is not kept),
    /// an empty list appended (the member is then `[]`, not `null`).
    fn tokens<W: TurnWriter + ?Sized>(
        &self,
        key: &str,
        list: List<'_, TokenLogprob<'_>>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        if !out.wants_extras() {
            return Ok(());
        }
        if list.is_empty() {
            let e = Extra::new(Dialect::Chat, None, key, EMPTY_ARRAY);
            return out.write(&TurnEvent::Extra(e.appended()));
        }
        for token in list {
            let token = token.map_err(|e| self.error(TurnErrorKind::Decode(e)))?;
            let e = Extra::new(Dialect::Chat, None, key, token.raw());
            out.write(&TurnEvent::Extra(e.pushed()))?;
        }
        Ok(())
    }

    /// The lifecycle of any choice, with `every`: its faults, none of its
    /// events.
    fn life<W: TurnWriter + ?Sized>(
        &mut self,
        choice: &ChoiceDelta<'_>,
        max_choices: usize,
        out: &mut W,
    ) -> Result<(), TurnError> {
        let index = choice.index;
        let stopped = match self.lives.get(&index) {
            Some(&stopped) => stopped,
            None if self.lives.len() >= max_choices => {
                let limit = max_choices;
                return out.fault(self.error(TurnErrorKind::TooManyChoices { limit }));
            }
            None => {
                self.lives.insert(index, false);
                false
            }
        };
        if let Some(delta) = &choice.delta {
            if stopped && has_content(delta) {
                out.fault(self.error(TurnErrorKind::ContentAfterStop { choice: index }))?;
            }
            for call in delta.tool_calls.into_iter().flatten() {
                let call = match call {
                    Ok(call) => call,
                    Err(e) => {
                        out.fault(self.error(TurnErrorKind::Decode(e)))?;
                        continue;
                    }
                };
                if self.call_keys.contains(&(index, call.index)) {
                    continue;
                }
                let limit = self.max_items;
                if self.call_keys.len() >= limit {
                    // Its later calls are not checked; its stop still is.
                    out.fault(self.error(TurnErrorKind::TooManyItems { limit }))?;
                    break;
                }
                self.call_keys.insert((index, call.index));
                let no_id = call.id.is_none();
                let no_name = call.function.as_ref().and_then(|f| f.name).is_none();
                if no_id || no_name {
                    out.fault(self.error(TurnErrorKind::CallWithoutId {
                        choice: index,
                        call: call.index,
                        no_id,
                        no_name,
                    }))?;
                }
            }
        }
        if choice.finish_reason.is_some() {
            self.lives.insert(index, true);
        }
        Ok(())
    }

    fn end_items<W: TurnWriter + ?Sized>(&mut self, out: &mut W) -> Result<(), TurnError> {
        if let Some((index, _)) = self.prose.take() {
            out.write(&TurnEvent::ItemEnd { index, whole: None })?;
        }
        // In the order the calls opened.
        for i in 0..self.order.len() {
            let index = self.order[i];
            out.write(&TurnEvent::ItemEnd { index, whole: None })?;
        }
        Ok(())
    }

    /// A fragment of the text, reasoning or refusal item, sent as the
    /// message member `member` (an index in [`keys::TEXTS`]).
    fn prose<W: TurnWriter + ?Sized>(
        &mut self,
        kind: DeltaKind,
        member: usize,
        text: JsonStr<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        let bit = 1u16 << member;
        if self.said & bit == 0 {
            self.said |= bit;
            if text.is_empty() {
                let key = keys::TEXTS[member];
                put(out, None, key, EMPTY_STRING)?;
            }
        }
        if text.is_empty() {
            return Ok(());
        }
        let index = match self.prose {
            Some((index, k)) if k == kind => index,
            open => {
                if let Some((index, _)) = open {
                    out.write(&TurnEvent::ItemEnd { index, whole: None })?;
                }
                let index = self.items;
                self.items += 1;
                self.prose = Some((index, kind));
                let item = match kind {
                    DeltaKind::Reasoning => ItemKind::Reasoning,
                    DeltaKind::Refusal => ItemKind::Refusal,
                    _ => ItemKind::Message,
                };
                out.write(&TurnEvent::ItemStart { index, item })?;
                if member == REASONING {
                    put(out, Some(index), keys::REASONING_ITEM, TRUE)?;
                }
                index
            }
        };
        out.write(&TurnEvent::Delta {
            index,
            kind,
            part: 0,
            text,
        })
    }

    fn call<W: TurnWriter + ?Sized>(
        &mut self,
        key: u64,
        call_id: Option<JsonStr<'_>>,
        ty: Option<JsonStr<'_>>,
        name: Option<JsonStr<'_>>,
        args: Option<JsonStr<'_>>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        let index = match self.calls.get(&key) {
            Some(&index) => index,
            None => {
                let shown = if key == u64::MAX { 0 } else { key };
                // With `every`, the lifecycle reported these faults: the
                // call is read (nothing is written past the limit).
                let every = self.every.is_some();
                if call_id.is_none() && name.is_none() && !every {
                    return Err(self.error(TurnErrorKind::CallWithoutId {
                        choice: self.pick.own,
                        call: shown,
                        no_id: true,
                        no_name: true,
                    }));
                }
                let limit = self.max_items;
                if self.calls.len() >= limit {
                    if every {
                        return Ok(());
                    }
                    return Err(self.error(TurnErrorKind::TooManyItems { limit }));
                }
                if let Some((index, _)) = self.prose.take() {
                    out.write(&TurnEvent::ItemEnd { index, whole: None })?;
                }
                // The tool calls opened before this one.
                let before = self.calls.len() - usize::from(self.calls.contains_key(&u64::MAX));
                let index = self.items;
                self.items += 1;
                self.calls.insert(key, index);
                self.order.push(index);
                out.write(&TurnEvent::ItemStart {
                    index,
                    item: ItemKind::ToolCall { call_id, name },
                })?;
                if let Some(ty) = ty {
                    put(out, Some(index), keys::CALL_TYPE, ty.as_raw_json())?;
                }
                if key == u64::MAX {
                    put(out, Some(index), keys::FUNCTION_CALL, TRUE)?;
                } else if usize::try_from(key) != Ok(before) && out.wants_extras() {
                    use core::fmt::Write;
                    self.call_number.clear();
                    let _ = write!(self.call_number, "{key}");
                    put(
                        out,
                        Some(index),
                        keys::CALL_INDEX,
                        RawJson::new(&self.call_number),
                    )?;
                }
                index
            }
        };
        match args {
            Some(text) if !text.is_empty() => out.write(&TurnEvent::Delta {
                index,
                kind: DeltaKind::Arguments,
                part: 0,
                text,
            }),
            _ => Ok(()),
        }
    }

    fn delta<W: TurnWriter + ?Sized>(
        &mut self,
        d: &Delta<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        if let Some(role) = d.role {
            if self.said & ROLE_BIT == 0 {
                self.said |= ROLE_BIT;
                put(out, None, keys::ROLE, role.as_raw_json())?;
            }
        }
        let reasoning = [
            (d.reasoning_content, REASONING_CONTENT),
            (d.reasoning, REASONING),
        ];
        for (text, member) in reasoning {
            if let Some(text) = text {
                self.prose(DeltaKind::Reasoning, member, text, out)?;
            }
        }
        match d.content {
            Some(ChatContent::Text(text)) => self.prose(DeltaKind::Text, CONTENT, text, out)?,
            Some(ChatContent::Parts(parts)) => {
                for part in parts {
                    match part.map_err(|e| self.error(TurnErrorKind::Decode(e)))? {
                        ContentPart::Text(t) => {
                            if let Some(text) = t.text {
                                self.prose(DeltaKind::Text, CONTENT, text, out)?;
                            }
                        }
                        ContentPart::Thinking(t) => {
                            for inner in t.thinking.into_iter().flatten() {
                                let inner =
                                    inner.map_err(|e| self.error(TurnErrorKind::Decode(e)))?;
                                if let ContentPart::Text(text) = inner {
                                    if let Some(text) = text.text {
                                        let member = REASONING_CONTENT;
                                        self.prose(DeltaKind::Reasoning, member, text, out)?;
                                    }
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        if let Some(refusal) = d.refusal {
            self.prose(DeltaKind::Refusal, REFUSAL, refusal, out)?;
        }
        for call in d.tool_calls.into_iter().flatten() {
            let call = call.map_err(|e| self.error(TurnErrorKind::Decode(e)))?;
            let f = call.function.as_ref();
            self.call(
                call.index,
                call.id,
                call.ty,
                f.and_then(|f| f.name),
                f.and_then(|f| f.arguments),
                out,
            )?;
        }
        if let Some(f) = &d.function_call {
            self.call(u64::MAX, None, None, f.name, f.arguments, out)?;
        }
        Ok(())
    }
}

impl TurnReader for ChatReader {
    fn read<W: TurnWriter + ?Sized>(
        &mut self,
        frame: &Frame,
        out: &mut W,
    ) -> Result<(), TurnError> {
        self.events += 1;
        let at = self.events - 1;
        let event = match ChatEvent::from_frame(frame) {
            Ok(event) => event,
            // With `every`, after `[DONE]` anything is content after the end.
            Err(_) if self.ended && self.every.is_some() => {
                return Err(TurnError::new(TurnErrorKind::ContentAfterFinish, at))
            }
            Err(e) => return Err(TurnError::new(TurnErrorKind::Decode(e), at)),
        };
        self.event(&event, out).map_err(|e| e.at(at))
    }

    fn finish<W: TurnWriter + ?Sized>(&mut self, out: &mut W) -> Result<(), TurnError> {
        let at = self.events;
        if self.every.is_some() {
            if !self.failed {
                let open: Vec<u64> = self
                    .lives
                    .iter()
                    .filter(|(_, &stopped)| !stopped)
                    .map(|(&i, _)| i)
                    .collect();
                for choice in open {
                    out.fault(TurnError::new(
                        TurnErrorKind::ChoiceNotStopped { choice },
                        at,
                    ))?;
                }
                if self.chunks > 0 && self.lives.is_empty() {
                    out.fault(TurnError::new(TurnErrorKind::NoChoices, at))?;
                }
            }
            if !self.ended {
                self.ended = true;
                out.fault(TurnError::new(TurnErrorKind::MissingEnd, at))?;
                return out.write(&TurnEvent::End);
            }
            return Ok(());
        }
        if self.ended {
            return Ok(());
        }
        if !self.stopped {
            return Err(TurnError::new(TurnErrorKind::Truncated, at));
        }
        out.fault(TurnError::new(TurnErrorKind::MissingEnd, at))?;
        // Many providers never send `[DONE]`: a stream that said why it
        // stopped is complete.
        self.ended = true;
        out.write(&TurnEvent::End)
    }

    fn events(&self) -> u64 {
        self.events
    }

    fn skipped(&self) -> u64 {
        self.pick.skipped
    }
}

/// Whether a delta carries content (a non-empty fragment or a tool call).
fn has_content(d: &Delta<'_>) -> bool {
    let text = |s: Option<JsonStr<'_>>| s.is_some_and(|s| !s.is_empty());
    let content = match d.content {
        Some(ChatContent::Text(t)) => !t.is_empty(),
        Some(ChatContent::Parts(p)) => !p.is_empty(),
        _ => false,
    };
    content
        || text(d.refusal)
        || text(d.reasoning_content)
        || text(d.reasoning)
        || d.tool_calls.is_some_and(|c| !c.is_empty())
        || d.function_call.is_some()
}

/// A Chat usage in the model: prompt → input, completion → output, cached
/// and reasoning tokens from the details (cached from DeepSeek's
/// `prompt_cache_hit_tokens` when there are no details).
pub(crate) fn usage(u: &ChatUsage<'_>) -> TurnUsage {
    TurnUsage {
        input: u.prompt_tokens,
        output: u.completion_tokens,
        cached: u
            .prompt_tokens_details
            .as_ref()
            .and_then(|d| d.cached_tokens)
            .or(u.prompt_cache_hit_tokens),
        reasoning: u
            .completion_tokens_details
            .as_ref()
            .and_then(|d| d.reasoning_tokens),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Parser;
    use alloc::string::String;
    use alloc::vec;
    use bytes::Bytes;

    use crate::turn::testing::{self, kept_appended as kept, KeepExtras, Kept};
    use crate::turn::Combine;

    /// The extras of each frame of `body`, read in order.
    fn extras_by_frame(body: &str) -> Vec<Vec<Kept>> {
        let mut p = Parser::new();
        p.feed(Bytes::copy_from_slice(body.as_bytes()));
        let mut reader = ChatReader::default();
        let mut out = Vec::new();
        while let Ok(Some(frame)) = p.next_frame() {
            let mut w = KeepExtras::new(Dialect::Chat);
            reader.read(&frame, &mut w).unwrap();
            out.push(w.extras);
        }
        out
    }

    #[test]
    fn members_the_model_lacks_are_handed_on_where_they_come() {
        let body = concat!(
            // The tier, fingerprint and provider on every chunk: handed on
            // once; the role once; the empty content says `content` is a
            // string; logprobs with an empty content list.
            r#"data: {"id":"x","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":{"content":[],"refusal":null}}],"service_tier":"flex","system_fingerprint":"fp_\u0031","provider":"P"}"#,
            "\n\n",
            r#"data: {"id":"x","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"logprobs":{"content":[{"token":"Hi","logprob":-0.5}]}}],"service_tier":"other","system_fingerprint":"fp_1","provider":"Q"}"#,
            "\n\n",
            // Reasoning under `reasoning`: its item is marked.
            r#"data: {"id":"x","choices":[{"index":0,"delta":{"reasoning":"why"}}]}"#,
            "\n\n",
            // Nothing the model lacks: nothing handed on.
            r#"data: {"id":"x","choices":[{"index":0,"delta":{"reasoning":" so"}}]}"#,
            "\n\n",
            r#"data: {"id":"x","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"f","arguments":""}}]}}]}"#,
            "\n\n",
            r#"data: {"id":"x","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"type":"function","function":{"arguments":"{}"}}]},"finish_reason":"tool_calls"}],"moderation":{"a": 1}}"#,
            "\n\n",
            r#"data: {"id":"x","choices":[],"usage":{"prompt_tokens":1, "cost":0.5}}"#,
            "\n\n",
            "data: [DONE]\n\n",
        );
        let got = extras_by_frame(body);
        let want: Vec<Vec<Kept>> = vec![
            vec![
                kept(None, "service_tier", "\"flex\"", false),
                kept(None, "system_fingerprint", "\"fp_\\u0031\"", false),
                kept(None, "provider", "\"P\"", false),
                kept(None, "role", "\"assistant\"", false),
                kept(None, "content", "\"\"", false),
                kept(None, "logprobs", "{}", false),
                kept(None, "logprobs.content", "[]", true),
            ],
            // Each token pushed as it came, so the list keeps its text.
            vec![testing::kept(
                None,
                "logprobs.content",
                r#"{"token":"Hi","logprob":-0.5}"#,
                Combine::Push,
            )],
            // Item 0 is the text; the reasoning is item 1.
            vec![kept(Some(1), "reasoning", "true", false)],
            vec![],
            vec![kept(Some(2), "type", "\"function\"", false)],
            vec![kept(None, "moderation", r#"{"a": 1}"#, false)],
            vec![kept(
                None,
                "usage",
                r#"{"prompt_tokens":1, "cost":0.5}"#,
                false,
            )],
            vec![],
        ];
        assert_eq!(got, want);
        // Each kept value is the JSON the frame had.
        for (_, _, raw, _) in got.iter().flatten() {
            serde_json::from_str::<serde_json::Value>(raw).unwrap();
        }
    }

    #[test]
    fn the_deprecated_function_call_and_an_error_chunks_usage() {
        let body = concat!(
            r#"data: {"id":"x","choices":[{"index":0,"delta":{"function_call":{"name":"f","arguments":"{"}}}]}"#,
            "\n\n",
            r#"data: {"id":"x","choices":[{"index":0,"delta":{"refusal":""}}]}"#,
            "\n\n",
            r#"data: {"error":{"message":"m","code":"c"},"usage":{"prompt_tokens":2}}"#,
            "\n\n",
        );
        let got = extras_by_frame(body);
        let want: Vec<Vec<Kept>> = vec![
            vec![kept(Some(0), "function_call", "true", false)],
            vec![kept(None, "refusal", "\"\"", false)],
            vec![
                kept(None, "usage", r#"{"prompt_tokens":2}"#, false),
                kept(None, "error", r#"{"message":"m","code":"c"}"#, false),
            ],
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn each_choice_is_read_by_a_reader_of_its_own() {
        use crate::accumulate::TurnAccumulator;
        let chunk = |choices: &str| {
            alloc::format!(
                "data: {{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{choices}]}}\n\n"
            )
        };
        let stream = [
            chunk(r#"{"index":1,"delta":{"role":"assistant","content":"B"}},{"index":0,"delta":{"role":"assistant","content":"A"}}"#),
            chunk(r#"{"index":0,"delta":{},"finish_reason":"stop"},{"index":1,"delta":{},"finish_reason":"length"}"#),
            String::from("data: [DONE]\n\n"),
        ]
        .concat();
        let mut p = Parser::new();
        p.feed(Bytes::from(stream));
        let mut frames = Vec::new();
        while let Ok(Some(f)) = p.next_frame() {
            frames.push(f);
        }
        let read = |mut reader: ChatReader| {
            let mut acc = TurnAccumulator::new().from_dialect(Dialect::Chat);
            for f in &frames {
                acc.read(&mut reader, f).unwrap();
            }
            acc.finish_reader(&mut reader).unwrap();
            (reader, acc.into_turn())
        };
        let (first, zero) = read(ChatReader::default());
        let others: Vec<u64> = first.other_choices().collect();
        assert_eq!(others, [1]);
        let one = read(ChatReader::default().choice(1)).1;
        assert_eq!(one.items()[0].text(), "B");
        let mut out = String::new();
        super::super::write_choices_json(Dialect::Chat, &[&zero, &one], &mut out);
        let got: serde_json::Value = serde_json::from_str(&out).unwrap();
        let choice = |i: u64, text: &str, stop: &str| {
            serde_json::json!({
                "index": i,
                "message": {"role": "assistant", "content": text, "refusal": null},
                "logprobs": null,
                "finish_reason": stop
            })
        };
        assert_eq!(
            got,
            serde_json::json!({
                "id": "c",
                "object": "chat.completion",
                "created": 1,
                "model": "m",
                "choices": [choice(0, "A", "stop"), choice(1, "B", "length")]
            })
        );
    }
}
